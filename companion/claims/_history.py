"""When each registry row's criterion took its present form, read from ``git log``.

The referee's standard asks each row to say when its criterion was fixed and whether the
notebook's results were already known then (``fixed`` and ``results_known`` in the registry). The
answer is in the repository's history: the registry file's versions, oldest to newest, and the
notebook that reports the row. :func:`criterion_history` reads it; the registry carries the
result (a commit can not name its own hash, so the fields are written by a commit after the one
that changes a criterion), and a test checks each row against the history
(``tests/test_claims_history.py``).
"""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from companion.claims._registry import REGISTRY_DIR

#: The fields that make a row's criterion: what is measured, how it is tested, against what.
CRITERION_FIELDS = ("kind", "measure", "test", "direction", "margin", "ties", "zero_method", "offset")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def criterion(entry: dict) -> tuple:
    """The part of a registry entry that is its criterion: what it measures, the test, the
    direction, the margin, the tie rule."""
    return tuple(entry.get(field) for field in CRITERION_FIELDS)


def registry_versions(key: str, root: Path, registry_dir: Path = REGISTRY_DIR) -> list[tuple[str, str, dict]]:
    """``(commit, date, {id: entry})`` for every commit that changed the registry of ``key``,
    oldest first (renames followed)."""
    relative = (Path(registry_dir) / f"paper{key}.toml").relative_to(root)
    log = _git(root, "log", "--follow", "--format=%H %ad", "--date=short", "--name-only", "--", str(relative))
    versions = []
    lines = [line for line in log.splitlines() if line.strip()]
    for header, path in zip(lines[0::2], lines[1::2]):
        commit, date = header.split()
        text = _git(root, "show", f"{commit}:{path}")
        try:
            entries = tomllib.loads(text).get("claim", [])
        except tomllib.TOMLDecodeError:
            continue
        versions.append((commit, date, {e.get("id"): e for e in entries}))
    return versions[::-1]


def notebook_first_executed(key: str, root: Path) -> tuple[str, str]:
    """``(commit, date)`` of the first commit holding notebook ``key`` with code-cell outputs."""
    log = _git(root, "log", "--reverse", "--format=%H %ad", "--date=short", "--", f"notebooks/{key}_*.ipynb")
    for line in log.splitlines():
        commit, date = line.split()
        names = _git(root, "ls-tree", "--name-only", commit, "notebooks/").split()
        for name in names:
            if Path(name).name.startswith(f"{key}_") and name.endswith(".ipynb"):
                if '"outputs": [\n' in _git(root, "show", f"{commit}:{name}").replace('"outputs": []', ""):
                    return commit, date
    return "", ""


def criterion_history(key: str, root: Path | None = None, *, registry_dir: Path | None = None) -> dict[str, dict]:
    """For each row of the registry of ``key`` as committed at ``HEAD``: when its criterion took
    its present form, and whether the notebook had shown results before.

    Parameters
    ----------
    key : str
        The notebook key, ``"01"``.
    root : path-like, optional
        The repository (default: the checkout holding the package).
    registry_dir : path-like, optional
        The registries' folder in ``root`` (default: the package's).

    Returns
    -------
    dict
        ``{id: {"commit", "date", "results_known", "first_results"}}``: the oldest commit of the
        unbroken run of registry versions, up to ``HEAD``, in which the row has its present
        criterion; whether the notebook had been committed with outputs before that commit; and
        the date of that first executed notebook.
    """
    from companion.paths import ROOT

    root = Path(root) if root is not None else ROOT
    versions = registry_versions(key, root, Path(registry_dir) if registry_dir is not None else REGISTRY_DIR)
    if not versions:
        return {}
    first_commit, first_date = notebook_first_executed(key, root)
    order = {c: i for i, c in enumerate(_git(root, "rev-list", "--reverse", "HEAD").split())}
    history = {}
    _, _, present = versions[-1]
    for id, entry in present.items():
        target = criterion(entry)
        since = len(versions) - 1
        while since > 0 and id in versions[since - 1][2] and criterion(versions[since - 1][2][id]) == target:
            since -= 1
        commit, date, _ = versions[since]
        # known: the notebook had been committed with outputs strictly before this commit
        known = bool(first_commit) and order.get(first_commit, 10**9) < order.get(commit, -1)
        history[id] = {"commit": commit, "date": date, "results_known": known, "first_results": first_date}
    return history


def write_history(key: str, root: Path | None = None) -> list[str]:
    """Rewrite the ``fixed`` and ``results_known`` lines of each row of registry ``key`` from
    :func:`criterion_history` (the commit that sets a criterion cannot name itself: run this in
    the commit after it). Only those two lines of each row change.

    Parameters
    ----------
    key : str
        The notebook key, ``"01"``.
    root : path-like, optional
        The repository (default: the checkout holding the package).

    Returns
    -------
    list of str
        The ids whose lines changed.
    """
    import re

    history = criterion_history(key, root)
    path = REGISTRY_DIR / f"paper{key}.toml"
    blocks = re.split(r"(?m)^(?=\[\[claim\]\]\n)", path.read_text(encoding="utf-8"))
    changed = []
    for number, block in enumerate(blocks[1:], start=1):
        id = tomllib.loads(block)["claim"][0]["id"]
        found = history[id]
        fixed = f'fixed = "{found["date"]} {found["commit"][:10]}"'
        known = f'results_known = {"true" if found["results_known"] else "false"}'
        new = re.sub(r"(?m)^fixed = .*$", fixed, block, count=1)
        new = re.sub(r"(?m)^results_known = .*$", known, new, count=1)
        if new != block:
            blocks[number] = new
            changed.append(id)
    if changed:
        path.write_text("".join(blocks), encoding="utf-8")
    return changed


if __name__ == "__main__":  # python -m companion.claims._history 01 02 ...
    import sys

    for paper in sys.argv[1:] or ["01", "02", "03", "04", "05"]:
        print(paper, write_history(paper) or "unchanged")
