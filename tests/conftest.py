import os
from pathlib import Path

import pytest

# a developer's resident checker (`simu serve`) never answers the commands tests run; tests/test_resident.py
# starts its own, in its own folder
os.environ["SIMU_RESIDENT"] = "0"

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@pytest.fixture
def tmp_source(tmp_path):
    """Write a source file into a temporary folder and return its path."""

    def write(name: str, text: str) -> Path:
        p = tmp_path / name
        p.write_text(text)
        return p

    return write


EXAMPLES = ROOT / "examples"


def copy_examples(dest: Path) -> Path:
    """A copy of examples/ outside the repository (so its root, cache and paths are the test's own)."""
    import shutil

    shutil.copytree(EXAMPLES, dest)
    return dest


@pytest.fixture(scope="session")
def examples_scan(tmp_path_factory):
    """One `simu scan` of a copy of examples/ (small budget, 2 workers), shared by the scan/report tests."""
    from simu.scan import ScanOverrides, resolve_options, scan

    root = copy_examples(tmp_path_factory.mktemp("scan") / "examples")
    cache = root.parent / "cache"
    options, config = resolve_options([root], ScanOverrides(budget=0.5, jobs=2, cache_dir=str(cache)))
    return scan(options, config), root, cache


@pytest.fixture
def clocked_search(monkeypatch):
    """Run a kernel's search (40 evaluations, 5 s, seed 3) and return its findings; with ``late`` the search's
    clock jumps past every time guard as soon as the loop ends (a loaded machine, a tiny budget), so the tests
    can show that severities do not depend on the clock."""
    from simu.evolve import Budget, search
    from simu.evolve.search import Search, run_search
    from simu.pipeline import CheckSettings

    def run(module, kernel: str, late: bool) -> list:
        now = [0.0]
        monkeypatch.setattr(search, "_now", lambda: now[0])
        evolve = Search.evolve

        def evolve_then_late(self):
            evolve(self)
            if late:
                now[0] = 1e9

        monkeypatch.setattr(Search, "evolve", evolve_then_late)
        res = run_search(module, module.kernel(kernel), CheckSettings(),
                         budget=Budget(evaluations=40, seconds=5, probe_seconds=120), seed=3)
        monkeypatch.undo()
        return res.findings

    return run
