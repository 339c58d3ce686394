"""Races and memory errors that depend on the buffer contents the search chose (simu/evolve/refute.py,
refute_by_contents): a race that distinct integer contents make go away needs two threads to read equal
values, which the host's data decides (a warning that says so); a race distinct contents keep (pigeonhole:
more threads than uchar bins) or that the data only gates (``if (flag[i]) n++``) stays an error.  One
refutation launch per (witness, fill) judges every finding that witness shows."""

from __future__ import annotations

import math

import numpy as np

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute import refute_by_contents
from simu.evolve.search import Search
from simu.launch.buffers import PLAIN_FILLS, distinct_contents, is_record
from simu.launch.constraints import KernelConstraints
from simu.pipeline import ASSUMPTION, CheckSettings

KERNELS = """
__global__ void scatter(const int *idx, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] = x[i];
}
__global__ void hist8(const unsigned char *pix, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[pix[i]]++;
}
__global__ void hist64(const unsigned char *pix, unsigned int *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hist[pix[i] >> 2]++;
}
__global__ void flags(const int *flag, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) counter[0]++;
}
__global__ void marked(const int *flag, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i] == 1) counter[0]++;
}
struct Con { int a; int b; float w; };
__global__ void solve(const Con *cs, float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { Con c = cs[i]; v[c.a] += c.w; v[c.b] -= c.w; }
}
struct Body { float inv; int shape; float vx[2]; };
struct Pair { int a; int b; };
__global__ void bodies(const Pair *ps, Body *bs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int a = ps[i].a; if (bs[a].inv == 0.0f) bs[a].vx[1] += 1.0f; }
}
__global__ void tile(const int *perm, float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[perm[t] & 63] = (float)t;
  __syncthreads();
  out[t] = s[t];
}
__global__ void gather3(const int *idx, const float *a, const float *b, const float *c, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i] = a[idx[i]];
    dst[i] += b[idx[i]];
    dst[i] += c[idx[i]];
  }
}
struct Queue { unsigned long long counters; int size; };  // an address kept as an integer: no pointer to fill in
__global__ void drain(Queue q, int n) {
  if (threadIdx.x == 0) ((int *)q.counters)[0] = n;
}
__global__ void labelled(const int *label, float *loss, int n, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) loss[i * dim + label[i]] -= 1.0f;
}
__global__ void lookup(const int *idx, const float *table, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[idx[i] << 20];
}
typedef float real;  // a typedef'd element type: drawn as the float it is
__global__ void neighbors(int *nn, int *nl, const real *x, const real *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = i + 1; j < n; ++j) {
      real dx = x[j] - x[i], dy = y[j] - y[i];
      if (dx * dx + dy * dy < 3.61f) { nl[i * 4 + atomicAdd(&nn[i], 1)] = j; nl[j * 4 + atomicAdd(&nn[j], 1)] = i; }
    }
  }
}
__global__ void forged(int *unused, long long address) {
  if (threadIdx.x == 0) *(int *)address = 1;
}
"""
_MODULE: list = []


def _search(kernel: str, constraints: KernelConstraints | None = None, **budget) -> Search:
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    m = _MODULE[0]
    return Search(m, m.kernel(kernel), CheckSettings(), constraints,
                  budget=Budget(evaluations=40, seconds=600, probe_seconds=120, **budget), seed=0)


def _evaluate(s: Search, fill: str, block: int = 64, grid: int = 1, **args) -> None:
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [math.log2(grid), 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(block), 0.0, 0.0]
    genes[s.layout.at.FILL] = float(PLAIN_FILLS.index(fill))
    for j, p in enumerate(s.layout.scalars):
        genes[s.layout.at.scalar(j)] = float(args.get(p.name, block * grid))
    assert s.evaluate(genes).valid


def _judged(s: Search, kind: str = "race") -> list:
    refute_by_contents(s)
    return [f for f, _ in s.found.values() if f.kind == kind]


def test_distinct_contents_hold_the_element_index_in_its_type():
    assert list(distinct_contents(np.dtype(np.int32), 5)) == [0, 1, 2, 3, 4]
    assert list(distinct_contents(np.dtype(np.uint8), 300)[254:258]) == [254, 255, 0, 1]  # a uchar wraps at 256
    assert list(distinct_contents(np.dtype(np.int32), 2, 2)) == [0, 0, 1, 1]  # an int2 element: both components
    rec = distinct_contents(np.dtype(np.uint8), 3, 12, record=True)  # {int a; int b; float w;}: each word holds k
    assert rec.dtype == np.uint8 and list(rec.view(np.int32)) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert is_record("Con") and is_record(None) and not is_record("int4") and not is_record("const float")
    assert not is_record("float*")


def test_a_scatter_through_an_index_buffer_is_a_warning_that_names_the_data():
    s = _search("scatter")
    _evaluate(s, "random")
    races = _judged(s)
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert all("two threads to read equal values from 'idx'" in f.detail[ASSUMPTION] for f in races)
    assert all("host's data decides" in f.message for f in races)


def test_a_solver_over_constraint_structs_is_a_warning():
    s = _search("solve")
    _evaluate(s, "zeros")
    races = _judged(s)
    assert len(races) >= 2 and all(f.severity == codes.WARNING for f in races), races
    assert all("'cs'" in f.detail[ASSUMPTION] for f in races)
    assert s.refutations == 1  # one launch judged every race its witness shows


def test_the_float_fields_of_a_struct_keep_their_contents():
    """bs[a].inv == 0.0f gates the update: distinct contents vary the struct's int field and leave its floats
    (the debug information says which bytes they are) as the witness had them, so the gate stays open."""
    s = _search("bodies")
    assert {p.name: p.pointee_floats for p in s.kernel.params if p.is_pointer} == \
        {"ps": (), "bs": ((0, 4), (8, 4), (12, 4))}
    _evaluate(s, "zeros")
    races = _judged(s)
    assert races and all(f.severity == codes.WARNING and "'ps'" in f.detail[ASSUMPTION] for f in races), races


def test_a_shared_memory_race_through_a_permutation_is_a_warning():
    s = _search("tile")
    _evaluate(s, "zeros")
    races = [f for f in _judged(s) if f.space == "shared"]
    assert races and all(f.severity == codes.WARNING for f in races), races


def test_a_uchar_histogram_with_more_threads_than_bins_stays_an_error():
    s = _search("hist8")
    _evaluate(s, "random", block=256, grid=2)
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR and ASSUMPTION not in f.detail for f in races), races
    s = _search("hist64")
    _evaluate(s, "random", block=128)
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR and ASSUMPTION not in f.detail for f in races), races


def test_a_race_the_data_only_gates_stays_an_error():
    s = _search("flags")
    _evaluate(s, "random")
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR for f in races), races


def test_a_race_gated_by_an_equality_on_the_data_stays_an_error():
    """flag[i] == 1: with distinct contents one thread passes the gate, so the race goes away, but because
    fewer than two threads make the accesses, not because their addresses became distinct."""
    s = _search("marked")
    _evaluate(s, "small", block=128)
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR for f in races), races
    assert s.refutations == 1


def test_contents_the_user_gives_keep_the_race_an_error():
    s = _search("scatter", KernelConstraints(fills={"idx": "small"}))
    _evaluate(s, "random")
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR for f in races), races
    assert s.refutations == 1  # only the float values the search filled vary: the race stays


def test_no_refutation_launch_left_keeps_the_error():
    s = _search("scatter", refutations=0)
    _evaluate(s, "random")
    races = _judged(s)
    assert races and all(f.severity == codes.ERROR for f in races), races


def test_findings_of_one_witness_share_its_probe_launches():
    """Three out-of-bounds reads through one index buffer, shown by one launch: the zero-filled launch judges
    all three."""
    s = _search("gather3")
    _evaluate(s, "signed")
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]
    assert len(oob) >= 3, oob
    oob = _judged(s, "out-of-bounds")
    assert all(f.severity == codes.WARNING and "buffer contents" in f.message for f in oob), oob
    assert s.refutations == 1


def test_large_buffers_filled_differently_are_different_launches():
    """The cache keys a large buffer by its fill, not its bytes: a zero-filled variant of a launch with large
    buffers must not be answered by the random-filled launch (it was, and refilling decided nothing)."""
    from simu.evolve.search import _launch_key

    s = _search("scatter")
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [math.log2(64), 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(1024), 0.0, 0.0]
    genes[s.layout.at.FILL] = float(PLAIN_FILLS.index("random"))
    for j in range(len(s.layout.scalars)):
        genes[s.layout.at.scalar(j)] = 70000.0
    zeros = list(genes)
    zeros[s.layout.at.FILL] = float(PLAIN_FILLS.index("zeros"))
    a, b = s.layout.launch(genes), s.layout.launch(zeros)
    assert a.args["idx"].size >= 65536
    assert _launch_key(a) != _launch_key(b)


def test_the_data_race_severity_does_not_depend_on_the_clock(clocked_search):
    """The same search with the clock past every time guard as soon as the loop ends: the contents refutation
    still runs (bounded by launches and steps) and every race keeps the severity it has with time to spare."""
    _search("scatter")  # loads the module
    m = _MODULE[0]

    def run(late: bool) -> dict:
        return {f.key: f.severity for f in clocked_search(m, "scatter", late) if f.kind == "race"}

    on_time, late = run(False), run(True)
    assert on_time and on_time == late, (on_time, late)
    assert set(late.values()) == {codes.WARNING}


def test_a_pointer_read_from_a_struct_argument_the_search_filled_is_a_warning():
    """A struct passed by value that keeps a device address as an integer (a pointer member gets a buffer of its own:
    tests/test_pointer_structs.py): the address is the search's bytes (null with zero fill, garbage
    with random), so the null or invalid write says nothing of a launch the program makes; a pointer made from an
    argument's value does not change with the contents and stays an error."""
    for fill in ("zeros", "random"):
        s = _search("drain")
        _evaluate(s, fill, block=32, n=5)
        bad = [f for f, _ in s.found.values() if f.kind in ("null", "invalid-pointer")]
        assert bad, s.found
        refute_by_contents(s)
        judged = [f for f, _ in s.found.values() if f.kind in ("null", "invalid-pointer")]
        assert judged and all(f.severity == codes.WARNING and "reads the pointer" in f.detail[ASSUMPTION]
                              for f in judged), judged
    s = _search("forged")
    _evaluate(s, "zeros", block=32, address=24)
    refute_by_contents(s)
    judged = [f for f, _ in s.found.values() if f.kind in ("null", "invalid-pointer")]
    assert judged and all(f.severity == codes.ERROR for f in judged), judged


def test_an_index_read_below_zero_is_judged_by_the_side_it_falls_on():
    """A negative label read from the search's contents indexes before the buffer; with zeros it stays above the start,
    and that the probe still overflows the (searched, short) buffer at its end says nothing of the negative access.
    ``label`` indexes ``loss`` (simu/evolve/roles.py): contents outside that use are no launch of the program's, so
    the error is dropped, not kept as a warning (the search also draws labels inside ``loss``)."""
    s = _search("labelled", KernelConstraints(grid=(1, 1, 1), block=(64, 1, 1), args={"n": 64, "dim": 4},
                                              buffer_lengths={"label": "64", "loss": "64"}))
    assert list(s.layout.roles) == ["label"]
    _evaluate(s, "signed")
    assert any(f.kind == "out-of-bounds" and f.detail["offset"] < 0 for f, _ in s.found.values())
    assert _judged(s, "out-of-bounds") == []


def test_the_contents_are_judged_before_the_lengths_when_one_refutation_is_left():
    """An index read from a buffer overruns a short buffer the search sized: with room for one refutation
    launch, the zero-filled probe (the host's data decides: a warning) runs before a plausible-length re-run,
    whose evidence with the same random indices would keep it an error (shoc's spmv kernels on heavy launches)."""
    from simu.evolve.refute import refute_by_arguments, refute_by_length

    s = _search("lookup", refutations=1)
    _evaluate(s, "random")
    assert any(f.kind == "out-of-bounds" and f.severity == codes.ERROR for f, _ in s.found.values())
    for phase in s.mode.phases:
        if phase in (refute_by_arguments, refute_by_contents, refute_by_length):
            phase(s)
    oob = [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == codes.WARNING and f.detail["assumption_key"] == "buffer contents" for f in oob)


def test_a_typedef_d_element_type_is_drawn_as_the_type_behind_it():
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    x = _MODULE[0].kernel("neighbors").params[2]
    assert x.c_type == "const real*" and x.pointee == "float"


def test_a_race_that_equal_float_coordinates_make_is_a_warning_that_names_them():
    """Equal coordinates put every point within the cutoff of every other, more neighbours than a row's slots:
    the slots overflow into the next point's row.  With distinct coordinates (point k at (k, k)) each point
    has at most two neighbours: the data the host reads decides."""
    s = _search("neighbors", KernelConstraints(fills={"nn": "zeros"}, buffer_lengths={"nl": "4*n"}))
    _evaluate(s, "ones", block=64, n=64)
    races = _judged(s)
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert all("'x'" in f.detail[ASSUMPTION] and "'y'" in f.detail[ASSUMPTION] for f in races)


def test_an_index_gone_negative_is_judged_on_a_witness_that_reads_before_the_start(monkeypatch):
    """A key shown past a short buffer's end on its reported witness and before the start on another (an index read
    from random contents, pytorch3d's ``face_index = idx[o] * 3``): the contents are judged where the access falls
    before the start, which the length refutation would otherwise report as an error no refutation judged."""
    from types import SimpleNamespace

    from simu.evolve import refute

    def finding(offset: int):
        return SimpleNamespace(key="k", kind="out-of-bounds", severity=codes.ERROR, space="global",
                               detail={"offset": offset})

    past, before = finding(4096), finding(-12)
    short = SimpleNamespace(genes=[1.0], cost=10, launch=None)
    negative = SimpleNamespace(genes=[7.0], cost=10, launch=None)
    probed = []

    def variant(search, probes, ev, fill, inspect=None):
        probed.append((ev, fill))
        return SimpleNamespace(findings=[]), []  # zeros: the index reads 0 and the access stays in bounds

    search = SimpleNamespace(found={"k": (past, [1.0])}, may_refute=lambda like=None, extra=0: True,
                             layout=SimpleNamespace(roles=()))
    search.judge = lambda key, f, genes: search.found.__setitem__(key, (f, list(genes)))
    monkeypatch.setattr(refute, "search_rules", lambda s: None)
    monkeypatch.setattr(refute, "_inside", lambda rules, shown: shown)
    monkeypatch.setattr(refute, "witnesses", lambda s, key: [(short, past), (negative, before)])
    monkeypatch.setattr(refute, "_variant", variant)
    monkeypatch.setattr(refute, "beyond_contract", lambda f, why, what: ("warning", f, why))
    refute._memory_from_contents(search, {})
    assert probed == [(negative, "zeros")]
    (severity, judged, why), genes = search.found["k"]
    assert severity == "warning" and judged is before and genes == [7.0] and "zeros-filled" in why
