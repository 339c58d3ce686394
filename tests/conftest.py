import os
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
