from pathlib import Path

import pytest

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
