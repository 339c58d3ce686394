"""Search mode on the corpus: every `launch:` line ignored, the launch search must find every
expected finding with no false positive (-O0, lockstep).

The budget is `simu check`'s default of 40 evaluations, plus redundant-barrier refutation and
witness shrinking, without its wall-clock guards (10 s per search, 2 s per launch): on a loaded
machine those would cut the search short, and the test must not depend on how fast the machine
is.  (`simu bench --suite search` measures with the guards.)  `constrain:` lines
are honoured: they carry what a user would state in simu.toml for kernels whose launch contract
cannot be read off the code (a transpose with 32x8 blocks over 32x32 tiles, a CSR row-pointer
layout, a pitch that must be at least the width)."""

from pathlib import Path

import pytest

from simu.bench.search import search_corpus_file

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".cu", ".cl"))

# Known gaps of the search, each a real limitation written down rather than hidden.
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_search_finds_expected_findings(path):
    rel = str(path.relative_to(CORPUS))
    if rel in KNOWN:
        pytest.xfail(KNOWN[rel])
    r = search_corpus_file(path, "full", evaluations=40, seed=0, guard_seconds=600, probe_seconds=120)
    assert not r.missing and not r.unexpected, f"missing {r.missing}; unexpected {r.unexpected}"
