"""The severity refutations (simu/evolve/refute.py): argument values real programs do not pass (a negative
increment, a stride of 0), each witness judged on its own, and severities that do not depend on the clock."""

from __future__ import annotations

import math

import pytest

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.dictionary import stride_arguments, thread_stride_bytes
from simu.evolve.refute import refute_by_arguments, refute_by_contents, refute_by_length
from simu.evolve.search import Search, run_search
from simu.pipeline import ASSUMPTION, CheckSettings

KERNELS = """
__global__ void scal(int N, float ALPHA, float *X, int INCX) {
  int i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
  if (i < N) X[i * INCX] *= ALPHA;
}
__global__ void copy(int N, float *X, int OFFX, int INCX, float *Y, int OFFY, int INCY) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    Y[i * INCY + OFFY] = X[OFFX + i * INCX];
}
__global__ void guarded(int N, float ALPHA, float *X, int INCX) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (INCX == 0) { X[0] += ALPHA; return; }
  if (i < N) X[i * INCX] *= ALPHA;
}
__global__ void pairs(int N, float ALPHA, float *X, int INCX) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) X[(i / 2) * INCX] = ALPHA * i;
}
__global__ void shift(float *x, int n, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i + off] = 1.0f;
}
__global__ void volume(float *x, int a, int b, int c) {
  x[a * b * c - 1 - threadIdx.x] = 1.0f;
}
__global__ void past_volume(float *x, int a, int b, int c) {
  x[a * b * c + threadIdx.x] = 1.0f;
}
__global__ void records(const unsigned long long *in, unsigned long long *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = in[gid * 256 + 16];
}
__global__ void past_records(const unsigned long long *in, unsigned long long *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = in[gid * 256 + 256];
}
__global__ void rows(float *x, int pitch, int k) {
  x[blockIdx.x * pitch + threadIdx.x] = x[pitch * k];
}
"""
_MODULE: list = []
PHASES = (refute_by_arguments, refute_by_contents, refute_by_length)


def _module():
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    return _MODULE[0]


def _search(kernel: str, **budget) -> Search:
    m = _module()
    return Search(m, m.kernel(kernel), CheckSettings(),
                  budget=Budget(evaluations=40, seconds=600, probe_seconds=120, **budget), seed=0)


def _evaluate(s: Search, block: int = 64, grid: int = 1, **args) -> None:
    """Evaluate the launch with ``grid`` x ``block`` threads and the given scalar arguments."""
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [math.log2(grid), 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(block), 0.0, 0.0]
    genes[s.layout.at.FILL] = 0.0
    for j, p in enumerate(s.layout.scalars):
        if p.name in args:
            genes[s.layout.at.scalar(j)] = float(args[p.name])
    assert s.evaluate(genes).valid


def _judged(s: Search, kind: str):
    for phase in PHASES:
        phase(s)
    return [f for f, _ in s.found.values() if f.kind == kind]


def test_strides_are_arguments_that_multiply_a_thread_index_in_an_address():
    m = _module()
    assert stride_arguments(m.kernel("scal")) == {"INCX"}
    assert stride_arguments(m.kernel("copy")) == {"INCX", "INCY"}  # through the grid-stride loop's phi
    assert stride_arguments(m.kernel("shift")) == set()  # an offset is added, not multiplied
    assert stride_arguments(m.kernel("rows")) == {"pitch"}  # x[pitch * k]: k is no thread index


def test_a_race_only_a_zero_stride_shows_is_a_warning_that_names_it():
    s = _search("scal")
    _evaluate(s, N=64, INCX=0)
    races = _judged(s, "race")
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert all("INCX = 0: a stride of 0 makes every thread use one element" in f.detail[ASSUMPTION] for f in races)


def test_a_kernel_that_compares_the_stride_with_zero_keeps_the_error():
    s = _search("guarded")
    _evaluate(s, N=64, INCX=0)
    races = _judged(s, "race")
    assert races and all(f.severity == codes.ERROR and ASSUMPTION not in f.detail for f in races), races


def test_a_race_the_repaired_stride_still_shows_stays_an_error_on_the_repaired_launch():
    s = _search("pairs")
    _evaluate(s, N=64, INCX=0)
    races = _judged(s, "race")
    assert races and all(f.severity == codes.ERROR for f in races), races
    kept = [genes for f, genes in s.found.values() if f.kind == "race"]
    at = s.layout.at.scalar([p.name for p in s.layout.scalars].index("INCX"))
    assert all(genes[at] == 1.0 for genes in kept)  # the witness is the launch with INCX = 1
    assert all(f.launch.scalars["INCX"] == 1 for f in races)


def test_one_witness_inside_the_contract_keeps_the_error_and_is_reported():
    s = _search("pairs")
    _evaluate(s, N=64, INCX=0)
    _evaluate(s, N=64, INCX=3)
    races = _judged(s, "race")
    assert races and all(f.severity == codes.ERROR and f.launch.scalars["INCX"] == 3 for f in races), races


def test_a_negative_and_a_positive_overflow_of_one_instruction_are_judged_witness_by_witness():
    """x[i + off]: off = -1 runs before the start (a negative offset the kernel never expects), off = 3 past
    the end of a length the search chose; both are one finding.  Neither witness is a launch the program makes."""
    s = _search("shift")
    _evaluate(s, n=64, off=-1)
    _evaluate(s, n=64, off=3)
    assert len({k for k in s.found if k[0] == "out-of-bounds"}) == 1
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all(f.detail["offset"] > 0 and "a length the search chose" in f.message for f in oob)


def test_an_in_contract_witness_before_the_start_is_an_error_whatever_the_other_witnesses():
    s = _search("shift")
    _evaluate(s, n=64, off=3)
    _evaluate(s, n=64, off=-1)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob)  # the negative witness breaks its rule
    s = _search("shift", refutations=0)  # no repaired re-run allowed: its only evidence is off = -1
    _evaluate(s, n=64, off=-1)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all("no re-run with off = 1 could be made" in f.detail[ASSUMPTION] for f in oob)


@pytest.mark.parametrize("kernel", ["scal", "shift"])
def test_severity_does_not_depend_on_the_clock(clocked_search, kernel):
    """The same search with the clock past every time guard as soon as the loop ends (a loaded machine, a
    tiny budget): the refutation and shrinking phases that run within the time budget are skipped, the
    severity refutations are not, and every finding keeps the severity it has with time to spare."""
    m = _module()

    def run(late: bool) -> dict:
        return {f.key: f.severity for f in clocked_search(m, kernel, late)}

    on_time, late = run(False), run(True)
    common = set(on_time) & set(late)
    assert common, (on_time, late)
    assert {k: on_time[k] for k in common} == {k: late[k] for k in common}
    assert codes.WARNING in late.values()  # the refutations ran although the clock said the time was spent


def test_an_access_past_an_invented_length_with_no_room_to_re_run_it_is_a_warning():
    """An error needs a launch the program can make: past a length the search chose, only a plausible-length
    re-run that still shows it is that evidence; when the allowance has no room for one, it is a warning."""
    s = _search("shift", refutations=0)
    _evaluate(s, n=64, off=3)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all("allowance had no room" in f.detail[ASSUMPTION] for f in oob)


def test_an_access_inside_sizes_too_large_to_draw_is_a_warning_and_past_them_an_error():
    """x[a*b*c - 1 - t] at a*b*c = 8M floats: past the 4M a refutation draws, inside the kernel's own sizes
    (undecided: a warning); x[a*b*c + t] is past them (an error that says so)."""
    s = _search("volume")
    _evaluate(s, block=32, a=256, b=256, c=128)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    assert all("the most a refutation draws" in f.detail[ASSUMPTION] for f in oob)
    s = _search("past_volume")
    _evaluate(s, block=32, a=256, b=256, c=128)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.ERROR and "out of bounds even with" in f.message for f in oob), oob


def test_one_record_per_thread_at_a_constant_stride_is_a_plausible_length():
    """in[gid * 256 + 16]: the host lays out 256 elements per thread (xmrig's VM states); a length the search
    drew shorter is its guess (a warning), while in[gid * 256 + 256] is past the last thread's record (an error)."""
    assert thread_stride_bytes(_module().kernel("records")) == 2048
    s = _search("records")
    _evaluate(s, block=32)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.WARNING for f in oob), oob
    s = _search("past_records")
    _evaluate(s, block=32)
    oob = _judged(s, "out-of-bounds")
    assert oob and all(f.severity == codes.ERROR and "out of bounds even with" in f.message for f in oob), oob


AXIS_KERNEL = """
typedef struct { float m_min[4]; float m_max[4]; } Aabb;
__kernel void pairs(__global const Aabb *aabbs, __global float *out, int axis, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  Aabb mine = aabbs[i];
  float v = mine.m_max[axis];
  for (int j = i + 1; j < n; j++) {
    Aabb other = aabbs[j];
    if (other.m_min[axis] > v) break;
    out[i] += 1.0f;
  }
}
"""


def test_an_argument_indexing_a_fixed_array_is_drawn_inside_it():
    """bullet3's sap kernel: ``axis`` selects a field of a ``float[4]``; a host computes 0..2 and never passes 4,
    so the search keeps it in 0..3 instead of reporting the private copy's overrun at axis 7 as an error."""
    from simu.evolve.dictionary import index_bounds

    m = load_source(AXIS_KERNEL, "opencl")
    k = m.kernel("pairs")
    assert index_bounds(k) == {"axis": 4}
    s = Search(m, k, CheckSettings(), budget=Budget(evaluations=30, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.scalar(0)] = 7.0
    assert s.layout.launch(genes).args["axis"] == 3
    r = run_search(m, k, CheckSettings(), budget=Budget(evaluations=30, seconds=600, probe_seconds=120), seed=0)
    assert not r.findings, r.findings


KEYPOINTS_KERNEL = """
struct Detection { float bbox[4]; float conf; float keypoints[17 * 3]; };
__global__ void keypoints(const float *in, float *out, int n, int nk) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Detection *det = (Detection *)(out + 1) + i;
  for (int k = 0; k < nk; k++) {  // a detector's keypoints: the record holds 17 of them
    det->keypoints[k * 3] = in[i];
    det->keypoints[k * 3 + 1] = in[i];
    det->keypoints[k * 3 + 2] = in[i];
  }
}
"""


def test_a_count_whose_loop_indexes_a_fixed_array_is_drawn_so_the_last_index_stays_inside():
    """tensorrtx's yolov8 ``CalDetection``: ``nk`` keypoints of three floats each into a record's ``float[51]``; at
    ``nk`` = 38 one detection's keypoints overran into the next one's and raced there, a count the program (17
    points, the record's own size) never passes.  The kernel's contract is ``nk`` in 0..17."""
    from simu.evolve.dictionary import index_bounds

    m = load_source(KEYPOINTS_KERNEL, "cuda")
    k = m.kernels[0]
    assert index_bounds(k) == {"nk": 18}
    r = run_search(m, k, CheckSettings(), budget=Budget(evaluations=30, seconds=600, probe_seconds=120), seed=0)
    assert not [f for f in r.findings if f.kind == "race"], r.findings
