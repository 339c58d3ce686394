"""Races that follow from an access past the end of a buffer whose length the search chose
(simu/evolve/refute_overrun.py): a thread that writes its slot's start out of bounds and reads it back writes where
another thread does, a race no launch with the buffer long enough shows; a race every length shows stays an error."""

from __future__ import annotations

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute_overrun import refute_by_overrun
from simu.evolve.search import Search
from simu.pipeline import CheckSettings

KERNELS = """
__global__ void slots(int *start, int *cursor, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  start[i * 4] = atomicAdd(cursor, 2);  // one record of four per thread: past the end of a start too short
  int *mine = out + start[i * 4];
  mine[0] = i; mine[1] = i + 1;
}
__global__ void slots_and_flag(int *start, int *cursor, int *out, int *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  start[i * 4] = atomicAdd(cursor, 2);
  int *mine = out + start[i * 4];
  mine[0] = i; mine[1] = i + 1;
  flag[0] = i;  // every thread writes one flag: a race at any length
}
struct Item { double scale; int length; int value; char *name; };
__global__ void raw(char *bytes) {  // a struct read out of a byte buffer: the search draws its length in bytes
  Item *item = (Item *)bytes;
  if (threadIdx.x == 0) item->name[0] = 'r';
}
"""


def _search(name: str) -> Search:
    m = load_source(KERNELS, "cuda")
    s = Search(m, m.kernel(name), CheckSettings(), None,
               budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [1.0, 0.0, 0.0]  # two blocks of 64 threads
    genes[s.layout.at.BLOCK] = [6.0, 0.0, 0.0]
    genes[s.layout.at.scalar(0)] = 128.0
    assert s.evaluate(genes).valid
    return s


def _races(s: Search, variable: str) -> list:
    return [f for f, _ in s.found.values() if f.kind == "race" and f.variable == variable]


def test_a_race_that_follows_from_an_overrun_is_a_warning_that_names_the_buffer():
    s = _search("slots")
    assert any(f.kind == "out-of-bounds" and f.variable == "start" for f, _ in s.found.values())
    assert _races(s, "out") and all(f.severity == codes.ERROR for f in _races(s, "out"))
    refute_by_overrun(s)
    races = _races(s, "out")
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert "also overruns 'start', whose length the search chose" in races[0].message


def test_a_race_every_length_shows_stays_an_error():
    s = _search("slots_and_flag")
    refute_by_overrun(s)
    assert _races(s, "flag") and all(f.severity == codes.ERROR for f in _races(s, "flag"))


def test_a_pointer_read_past_the_end_of_a_buffer_the_search_sized_is_a_warning():
    """The pointer lies past the end of a short byte buffer (the machine's zeros there whatever the fill, so the
    contents probes keep the null write): re-run with the longest lengths the kernel's sizes allow it is gone, a
    warning that names the buffer."""
    from simu.evolve.search import run_search
    from simu.pipeline import ASSUMPTION

    m = load_source(KERNELS, "cuda")
    result = run_search(m, m.kernel("raw"), CheckSettings(),
                        budget=Budget(evaluations=60, seconds=600, probe_seconds=120), seed=0)
    nulls = [f for f in result.findings if f.kind == "null"]
    assert nulls and all(f.severity == codes.WARNING and "overruns 'bytes'" in f.detail[ASSUMPTION]
                         for f in nulls), result.findings
