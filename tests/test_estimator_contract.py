"""Every estimator in companion passes scikit-learn's common checks (exemptions need a reason)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from companion.discovery import all_estimators, check_exemptions

ESTIMATORS = [cls() for _, cls in all_estimators()]


def test_discovery_finds_estimators_only_in_companion():
    for _, cls in all_estimators():
        assert cls.__module__.startswith("companion.")


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=check_exemptions)
def test_sklearn_contract(estimator, check):
    check(estimator)
