"""A search's budget is a budget: its timed phases end their launches with them, shrinking stops a smaller launch
that hangs at a multiple of its witness's steps, and the severity refutations count what launches cost (steps and
recorded accesses), never seconds.  The clock is the search's own (``search._now``), set by hand: no test reads
the wall clock."""

import pytest

from simu import codes
from simu.api import load_source
from simu.check import CheckSettings
from simu.evolve import Budget, search
from simu.evolve.genes import Genes
from simu.evolve.phases import SHRINK_STEPS
from simu.evolve.refute import refute_by_contents, refute_by_length
from simu.evolve.search import ACCESSES_PER_STEP, MIN_LAUNCH_SECONDS, Search, launch_cost

# every thread writes one word (a race); a launch of fewer than 256 threads spins until its bound stops it
SPIN = r"""
__global__ void spin(int *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = g;
  if (gridDim.x * blockDim.x < 256) {
    while (out[1] != 12345) { }
  }
}
"""

# a loop far longer than any time bound a test gives (billions of passes; the step limit is 2M steps, tens of
# seconds of CPU): only the time bound stops it, whatever the machine's speed (a spin on memory is stopped earlier,
# and at a speed-dependent point, by the spin-deadlock detection)
LONG = r"""
__global__ void long_loop(int *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = 0;
  for (unsigned i = 0; i < 4000000000u; i++) s += i ^ (unsigned)g;
  out[g] = (int)s;
}
"""

# two buffers indexed past any length the search draws: findings of one witness share its plausible-length run
TWO = r"""
__global__ void two(float *a, float *b, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  a[g * 3 + n] = 1.0f;
  b[g * 5 + n] = 2.0f;
}
"""

# each thread sums a run of `x` whose start and length it reads from buffers (no role the search infers: `^`):
# drawn lengths make a witness's loops long, and drawn starts send it out of bounds
GATHER = r"""
__global__ void gather(const int *count, const int *first, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < count[i]; k++) acc += x[first[i] ^ k];
  out[i] = acc;
}
"""


@pytest.fixture
def clock(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(search, "_now", lambda: now[0])
    return now


def _search(src, **budget):
    m = load_source(src, "cuda")
    b = dict(evaluations=40, seconds=2, probe_seconds=120)
    b.update(budget)
    return Search(m, m.kernels[0], CheckSettings(), None, Budget(**b), "full", seed=0)


def _genes(s, grid: int, block: int) -> list[float]:
    genes = s.layout.initial(s.rng)
    for axis in range(3):
        genes[Genes.grid(axis)] = float(grid) if axis == 0 else 0.0
        genes[Genes.block(axis)] = float(block) if axis == 0 else 0.0
    return genes


def test_a_timed_phase_ends_its_launches_with_it(clock):
    s = _search(SPIN)
    full = s._limits.max_seconds
    assert s.timed_limits().max_seconds == full  # nothing valid yet: the first launch keeps its full bound
    s.evaluate(_genes(s, 3, 5))  # 256 threads: completes, a race
    assert s.any_valid
    clock[0] = 1.5  # half a second of the 2 s budget left
    assert s.timed_limits().max_seconds == pytest.approx(0.5)
    clock[0] = 1.99
    assert s.timed_limits().max_seconds == MIN_LAUNCH_SECONDS
    s.until = 1.3  # shrinking's guard: 2.6 s
    assert s.timed_limits().max_seconds == pytest.approx(0.61)
    clock[0] = -10.0
    assert s.timed_limits().max_seconds == full  # the phase's end is further than the launch's own bound


def test_a_smaller_launch_that_hangs_stops_at_a_multiple_of_its_witness_steps(clock):
    s = _search(SPIN)
    witness = s.evaluate(_genes(s, 3, 5))
    assert witness.valid and any(f.kind == "race" for f in witness.findings)
    s.shrink()
    smaller = [e for e in s.cache.values() if e.launch.total_threads < 256]
    assert smaller  # halved grids or blocks: each spins
    for e in smaller:
        assert not e.valid and "step limit" in e.error and e.cut
        assert e.steps <= SHRINK_STEPS * witness.steps + 1000 + 64  # stopped at its bound (checked per block)
    # no witness of fewer threads was found
    assert all(s.layout.launch(genes).total_threads == 256 for _, genes in s.found.values())


def test_a_refutation_runs_again_a_launch_a_timed_phase_cut(clock):
    s = _search(SPIN)
    genes = _genes(s, 3, 5)
    cut = s.evaluate(genes, limits=s._limits.__class__(**{**vars(s._limits), "max_steps": 3}))
    assert not cut.valid and cut.cut
    again = s.refute(genes)  # the same genes: run in full, not answered by the cut run
    assert again is not None and again.valid and s.refutations == 1


def test_a_launch_costs_its_steps_and_a_step_per_hundred_accesses(clock):
    s = _search(SPIN)
    ev = s.evaluate(_genes(s, 3, 5))
    run = s.analysis.run_launch(ev.launch, s._limits)
    assert launch_cost(run.result) == run.result.steps + len(run.result.trace) // ACCESSES_PER_STEP
    assert ev.cost == launch_cost(run.result) > ev.steps  # 256 threads recorded 256 writes at least


def test_the_refutations_allowance_counts_costs_and_skips_a_witness_that_does_not_fit(clock):
    s = _search(SPIN, seconds=1)
    ev = s.evaluate(_genes(s, 3, 5))
    assert s.may_refute(ev)
    s.refuted_steps = s.budget.refutation_steps() - ev.cost + 1  # one step short of its cost
    assert not s.may_refute(ev)
    assert s.refute(launch=ev.launch, like=ev) is None and s.refutations == 0  # not run


def test_a_witness_the_allowance_prices_out_is_still_probed_with_zeros_within_what_is_left(clock):
    s = _search(GATHER, seconds=1)
    witness = None
    while witness is None:  # the search's own draws until one shows the out-of-bounds read
        ev = s.evaluate(s.layout.initial(s.rng))
        witness = next((ev for f in ev.findings if f.kind == "out-of-bounds"), None)
    s.refuted_steps = s.budget.refutation_steps() - witness.cost + 1  # the witness no longer fits
    assert not s.may_refute(witness)
    refute_by_contents(s)
    assert s.refutations >= 1  # run bounded by what is left: zeros end the loop at once
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == codes.WARNING for f in oob)
    assert "host's data decides" in oob[0].message


def test_a_witness_plausible_length_launch_is_drawn_once_for_all_its_findings(clock, monkeypatch):
    s = _search(TWO)
    s.evolve()
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]
    assert {f.variable for f in oob} == {"a", "b"}
    drawn = []
    launch = type(s.layout).launch

    def counting(self, genes, *args, plausible=False, **kwargs):
        if plausible:
            drawn.append(tuple(genes))
        return launch(self, genes, *args, plausible=plausible, **kwargs)

    monkeypatch.setattr(type(s.layout), "launch", counting)
    refute_by_length(s)
    assert drawn and len(drawn) == len(set(drawn))  # one draw per witness, whatever number of findings it shows


def test_a_contract_s_first_launch_stops_at_the_end_of_the_kernel_s_whole_budget_or_of_its_share(clock):
    from simu.evolve.alternatives import share

    part = share(Budget(evaluations=40, seconds=3, probe_seconds=120), 3)  # three host launches split 3 s
    assert part.seconds == pytest.approx(1.0) and part.kernel_deadline == pytest.approx(3.0)
    m = load_source(LONG, "cuda")
    clock[0] = 1.2  # an earlier contract's search took a part of the kernel's budget
    s = Search(m, m.kernels[0], CheckSettings(), None, part, "full", seed=0)
    assert s.timed_limits().max_seconds == pytest.approx(1.8)  # what the others left
    clock[0] = 2.5  # the earlier contracts took most of the kernel's budget
    s = Search(m, m.kernels[0], CheckSettings(), None, part, "full", seed=0)
    assert not s.any_valid
    assert s.timed_limits().max_seconds == pytest.approx(1.0)  # never less than its own share
    clock[0] = 3.2  # ... or all of it: the first launch still gets its share, not a token
    assert s.timed_limits().max_seconds == pytest.approx(1.0)
    assert not s.out_of_budget()  # past the kernel's budget a contract still tries one launch
    ev = s.evaluate(_genes(s, 1, 3))  # the long loop: stopped at the bound the budget left
    assert not ev.valid and ev.cut and "where the budget ran out" in ev.error
    assert s.out_of_budget()


def test_one_search_alone_keeps_the_full_bound_for_its_first_launch(clock):
    s = _search(SPIN)
    assert s.budget.kernel_deadline is None
    clock[0] = 100.0
    assert s.timed_limits().max_seconds == s._limits.max_seconds


def test_a_host_launch_of_a_zero_sized_grid_is_left_out_while_another_remains():
    """A size query (``getWorkspaceSize`` calling the launcher with no work) makes a host launch of grid 0: it runs
    no thread, so the kernel is analysed on its other launch and the result says the empty one was left out."""
    from simu.evolve.alternatives import search_contracts
    from simu.launch.constraints import KernelConstraints

    m = load_source("__global__ void k(float *x) { x[threadIdx.x + blockIdx.x * blockDim.x] = 1.0f; }\n", "cuda")
    empty = KernelConstraints(grid=(0, 1, 1), block=(128, 1, 1), origin="host launch at plugin.h:9")
    real = KernelConstraints(grid=(2, 1, 1), block=(128, 1, 1), origin="host launch at run.cu:40")
    result = search_contracts(m, m.kernels[0], CheckSettings(), [empty, real],
                              Budget(evaluations=6, seconds=60, probe_seconds=60))
    assert result.status == "analysed", (result.status, result.reason)
    assert "host launch at plugin.h:9: a zero-sized grid or block runs no thread (left out)" in result.reason


def test_a_host_launch_whose_every_launch_breaks_what_the_host_requires_is_left_out_while_another_remains():
    """A loop's later value whose branch the command line's default size never takes (``if (size / offset > 1)`` with
    ``size`` 256 and ``offset`` 256) is a launch the program never makes: the kernel is analysed on the other one, and
    the result says the never-made launch was left out; alone, it says why it could not run."""
    from simu.evolve.alternatives import search_contracts
    from simu.launch.constraints import KernelConstraints

    m = load_source("__global__ void k(float *x, int n, int o) {\n"
                    "  int i = threadIdx.x + blockIdx.x * blockDim.x; if (i < n) x[i] += o; }\n", "cuda")
    first = KernelConstraints(grid=(2, 1, 1), block=(128, 1, 1), args={"n": 256, "o": 1},
                              origin="host launch at scan.cu:40 (loop value 1)")
    later = KernelConstraints(grid=(2, 1, 1), block=(128, 1, 1), args={"n": 256, "o": 256}, requires=["n/o > 1"],
                              origin="host launch at scan.cu:40 (loop value 256)")
    budget = Budget(evaluations=6, seconds=60, probe_seconds=60)
    result = search_contracts(m, m.kernels[0], CheckSettings(), [first, later], budget)
    assert result.status == "analysed", (result.status, result.reason)
    assert "host launch at scan.cu:40 (loop value 256): never made (the host code requires n/o > 1" in result.reason
    alone = search_contracts(m, m.kernels[0], CheckSettings(), [later], budget)
    assert alone.status != "analysed" and "the host code requires n/o > 1" in alone.reason
