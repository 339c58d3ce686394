"""Every labelled corpus kernel reports exactly its `expect` lines, in each configuration."""

from pathlib import Path

import pytest

from simu.bench.corpus import CONFIGS, check_corpus_file, parse

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".cu", ".cl"))
_CACHE: dict = {}


def test_corpus_is_labelled():
    assert len(FILES) >= 20
    for f in FILES:
        cf = parse(f)
        assert cf.clean or cf.expectations, f"{f} has no expect line"
        assert cf.launches, f"{f} has no launch line"
        assert not (cf.clean and cf.expectations), f"{f} is both clean and not"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(c))
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file(path, config):
    verdict = check_corpus_file(path, config[0], config[1], _CACHE)
    problems = [f"missing: {e.text}" for e in verdict.missing]
    problems += [f"unexpected: {u.kind} {u.space} {u.detail.get('access', '')} "
                 f"lines {[l.line for l in (u.first, u.second) if l]}: {u.message}" for u in verdict.unexpected]
    assert verdict.status == "analysed", verdict.reason
    assert not problems, "\n".join(problems)
