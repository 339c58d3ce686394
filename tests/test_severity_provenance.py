"""Severity by provenance (issue 14): a finding is an error when a launch the program can make shows it (a
host launch, a given or constrained launch, a searched launch inside the inferred contract); a finding
only a launch breaking an inferred assumption shows is at most a warning and names the assumption.  In
particular a global out-of-bounds access on a buffer whose length the search invented is a warning unless
it falls before the buffer or past every length the kernel's own sizes allow."""

from __future__ import annotations

from simu import codes
from simu.api import load_source
from simu.check import analyse_kernel
from simu.detect.finding import Finding
from simu.evolve import Budget
from simu.evolve.sizes import PLAUSIBLE_FACTOR, plausible_length
from simu.launch.constraints import KernelConstraints
from simu.pipeline import ASSUMPTION, beyond_contract

KERNELS = """
__global__ void tail(const float *x, float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = x[i + 1] - x[i];
}
__global__ void lap(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i - 1] - 2.0f * in[i] + in[i + 1];
}
__global__ void rgba(unsigned char *img) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  img[4 * i] = 1; img[4 * i + 1] = 2; img[4 * i + 2] = 3; img[4 * i + 3] = 4;
}
__global__ void scal(int N, float ALPHA, float *X, int INCX) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) X[i * INCX] *= ALPHA;
}
__global__ void shifty(float *a, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (shift < 0 && i < n) a[i + shift] = 1.0f;
}
__global__ void wild(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * 100000 + 7] = 1.0f;
}
"""
_MODULE = []


def _oob(kernel: str, constraints: KernelConstraints | None = None) -> list[Finding]:
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    module = _MODULE[0]
    report = analyse_kernel(module, module.kernel(kernel), constraints=constraints,
                            budget=Budget(evaluations=40, seconds=600, probe_seconds=120))
    return [f for f in report.findings if f.kind == "out-of-bounds"]


def test_the_rule_caps_at_warning_and_names_the_assumption():
    f = Finding("race", codes.ERROR, "k", "race on s[0]")
    w = beyond_contract(f, "the block is the search's guess")
    assert w.severity == codes.WARNING and w.detail[ASSUMPTION] == "the block is the search's guess"
    assert "the block is the search's guess" in w.message and w.message.startswith("race on s[0]")
    assert beyond_contract(w, "another") == w  # the first assumption it broke is kept
    perf = Finding("bank-conflict", codes.PERFORMANCE, "k", "m")
    assert beyond_contract(perf, "x").severity == codes.PERFORMANCE  # at most a warning: never raised


def test_plausible_lengths_allow_a_few_elements_per_size_unit_or_a_product_of_two_sizes():
    assert plausible_length(100, [3, 100], 4) == PLAUSIBLE_FACTOR * 100
    assert plausible_length(100, [90, 100], 4) == 9000  # rows x pitch
    assert plausible_length(100, [0, 1, 4, 3, 10, 100], 4) == 12000  # batch x channels x height x width
    assert plausible_length(1 << 24, [1 << 24], 4) == 1 << 24  # never shorter than drawn
    assert plausible_length(1 << 20, [1 << 20], 4) == (1 << 24) // 4  # capped


def test_an_index_within_a_plausible_length_of_an_invented_buffer_is_a_warning_that_names_it():
    for kernel in ("tail", "rgba"):
        for f in _oob(kernel):  # tail may show none at all: x holds max(threads, n) elements
            assert f.severity == codes.WARNING, f.message
            assert "a length the search chose" in f.message and f.detail[ASSUMPTION]
    assert _oob("rgba")  # img[4 * i] over a buffer of one byte per thread


def test_before_the_start_or_past_every_plausible_length_stays_an_error():
    lap = {f.first.column: f for f in _oob("lap")}
    before = [f for f in lap.values() if f.detail["offset"] < 0]
    assert before and all(f.severity == codes.ERROR for f in before)  # in[i - 1] at i = 0
    wild = _oob("wild")
    assert wild and all(f.severity == codes.ERROR and "even with" in f.message for f in wild), wild


def test_a_constrained_length_makes_the_same_access_an_error():
    c = KernelConstraints(buffer_lengths={"x": "n", "d": "n"})
    found = _oob("tail", c)
    assert found and all(f.severity == codes.ERROR and ASSUMPTION not in f.detail for f in found), found


def test_a_host_allocation_makes_the_same_access_an_error():
    """tail_read_oob.cu: the host allocates n floats for x, so x[n] is past a length the host gave."""
    from pathlib import Path

    from simu.api import load_file
    from simu.host.contracts import kernel_contract

    path = Path(__file__).resolve().parent.parent / "corpus" / "cuda" / "host" / "tail_read_oob.cu"
    module = load_file(path)
    kernel = module.kernel()
    contract = kernel_contract(path, kernel, None)
    assert contract.buffer_lengths == {"x": "1000", "d": "1000"}
    report = analyse_kernel(module, kernel, constraints=contract,
                            budget=Budget(evaluations=40, seconds=600, probe_seconds=120))
    oob = [f for f in report.findings if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == codes.ERROR and f.launch.origin.startswith("host launch at") for f in oob)


def test_a_negative_argument_the_kernel_never_expects_makes_a_warning():
    """X[i * INCX]: a negative INCX (searched, never compared with a negative constant) or a length the
    search chose; `shift < 0` says the kernel expects negative shifts, so a[i + shift] at i = 0 is an error."""
    scal = _oob("scal")
    assert scal and all(f.severity == codes.WARNING and f.detail[ASSUMPTION] for f in scal), scal
    negative = [f for f in scal if f.detail["offset"] < 0]
    assert all("INCX = -" in f.message for f in negative)
    shifty = _oob("shifty")
    assert shifty and all(f.severity == codes.ERROR for f in shifty), shifty
