"""Errors only an unusual block size shows, with no host code giving the block (simu/evolve/refute_shape.py)."""

from __future__ import annotations

import math

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute_shape import refute_by_block_shape, usual
from simu.evolve.search import Search
from simu.launch.constraints import KernelConstraints
from simu.pipeline import CheckSettings

KERNELS = """
// a stride-3 scatter: a permutation of the block at every power-of-two size, colliding at multiples of 3
__global__ void stride3(const int *a, int *b) {
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  b[base + (t * 3) % blockDim.x] = a[base + t];
}
// a neighbour's element read while it is written: a race at every size
__global__ void neighbour(int *a) {
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  a[base + t] = a[base + (t + 1) % blockDim.x] + 1;
}
"""


def _search(name: str, block: int, constraints=None) -> Search:
    m = load_source(KERNELS, "cuda")
    s = Search(m, m.kernel(name), CheckSettings(), constraints,
               budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [0.0, 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(block), 0.0, 0.0]
    assert s.evaluate(genes).valid
    return s


def _races(s: Search) -> list:
    return [f for f, _ in s.found.values() if f.kind == "race"]


def test_usual_sizes_are_powers_of_two():
    assert [n for n in range(1, 70) if not usual(n)][:6] == [3, 5, 6, 7, 9, 10]
    assert usual(64) and not usual(96) and not usual(194)


def test_a_race_only_an_odd_block_shows_is_a_warning_that_names_both_sizes():
    s = _search("stride3", 24)
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))
    refute_by_block_shape(s)
    races = _races(s)
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert "only a block of 24 threads shows it, not 32: the block is the search's" in races[0].message


def test_a_race_every_size_shows_stays_an_error():
    s = _search("neighbour", 48)  # two warps: the race crosses between them
    refute_by_block_shape(s)
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))


def test_a_block_the_host_or_the_user_gives_is_never_changed():
    s = _search("stride3", 24, KernelConstraints(block=(24, 1, 1)))
    refute_by_block_shape(s)
    assert _races(s) and all(f.severity == codes.ERROR for f in _races(s))
