"""Every estimator in companion passes scikit-learn's common checks (exemptions need a reason)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from companion.discovery import all_estimators

ESTIMATORS = [cls() for _, cls in all_estimators()]


def check_exemptions(estimator) -> dict[str, str]:
    """The ``{check: reason}`` exemptions that ``estimator``'s class declares (may be empty).

    Parameters
    ----------
    estimator : estimator instance or class
        A companion estimator.

    Returns
    -------
    dict
        ``{check name: reason}``.
    """
    exemptions = dict(getattr(type(estimator), "_sklearn_check_exemptions", {}))
    for check, reason in exemptions.items():
        if not isinstance(reason, str) or len(reason.strip()) < 10:
            raise ValueError(f"exemption of {check!r} in {type(estimator).__name__} needs a written reason")
    return exemptions


def test_discovery_finds_estimators_only_in_companion():
    for _, cls in all_estimators():
        assert cls.__module__.startswith("companion.")


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=check_exemptions)
def test_sklearn_contract(estimator, check):
    check(estimator)
