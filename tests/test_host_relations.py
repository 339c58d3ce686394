"""Relations a host launch keeps when its values are not constant (simu.host.relations): grid components that are
expressions of the kernel's arguments, arguments passed the same host expression, wrappers called from other
files resolved at each call site; the search derives them (simu.evolve.genome.Layout)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.evolve.sizes import fit_sample
from simu.host.contracts import contracts_for
from simu.host.index import build_host_index
from simu.launch.constraints import int_expression
from simu.scan import ScanOverrides, resolve_options, scan

runner = CliRunner()

SCALE_BIAS = """#include <cuda_runtime.h>
#define BLOCK 64

__global__ void scale_bias_kernel(float *output, float *biases, int n, int size)
{
    int offset = blockIdx.x * blockDim.x + threadIdx.x;
    int filter = blockIdx.y;
    int batch = blockIdx.z;
    if (offset < size) output[(batch * n + filter) * size + offset] *= biases[filter];
}

void scale_bias_gpu(float *output, float *biases, int batch, int n, int size)
{
    dim3 dimGrid((size - 1) / BLOCK + 1, n, batch);
    dim3 dimBlock(BLOCK, 1, 1);
    scale_bias_kernel<<<dimGrid, dimBlock>>>(output, biases, n, size);
}
"""

SOFTMAX_CU = """#include <cuda_runtime.h>

__device__ void softmax_device(float *input, int n, int stride, float *output)
{
    for (int i = 0; i < n; ++i) output[i * stride] += input[i * stride];
}

__global__ void softmax_kernel(float *input, int n, int batch, int batch_offset, int groups, int group_offset,
                               int stride, float *output)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= batch * groups) return;
    int b = id / groups;
    int g = id % groups;
    softmax_device(input + b * batch_offset + g * group_offset, n, stride,
                   output + b * batch_offset + g * group_offset);
}

extern "C" void softmax_gpu(float *input, int n, int batch, int batch_offset, int groups, int group_offset,
                            int stride, float *output)
{
    softmax_kernel<<<(batch * groups + 127) / 128, 128>>>(input, n, batch, batch_offset, groups, group_offset,
                                                         stride, output);
}
"""

LAYER_C = """#include "layer.h"

void softmax_gpu(float *input, int n, int batch, int batch_offset, int groups, int group_offset, int stride,
                 float *output);

void forward_softmax_layer_gpu(layer l)
{
    softmax_gpu(l.input_gpu, l.inputs/l.groups, l.batch, l.inputs, l.groups, CALL_OFFSET, CALL_STRIDE, l.output_gpu);
}
"""


def _scan(root: Path, host: bool = True):
    options, config = resolve_options([root], ScanOverrides(budget=2.0, jobs=1, no_cache=True))
    options.host_code = host
    return scan(options, config)


def _kernel(result, name: str):
    return next(k for _, k in result.kernels() if k.name.startswith(name))


def _races(k) -> list:
    return [f for f in k.findings if f.kind == "race"]


def test_grid_component_follows_the_argument_the_host_passes(tmp_path: Path):
    """grid.y is the kernel's n (the same host variable): the race of a grid taller than n (two filters' blocks
    on one element) is no launch of this program; a free search finds it."""
    (tmp_path / "blas.cu").write_text(SCALE_BIAS)
    index = build_host_index(tmp_path, [tmp_path / "blas.cu"])
    (c,) = contracts_for(index, "scale_bias_kernel", [("output", 4), ("biases", 4), ("n", None), ("size", None)],
                         None).contracts
    assert c.block == (64, 1, 1) and c.grid is None
    assert c.dims == {"grid.x": "(size-1)/64+1", "grid.y": "n"}  # grid.z: the wrapper's batch, not passed
    assert c.origin == "host launch at blas.cu:16 (grid.x = (size-1)/64+1, grid.y = n from the host code; " \
                       "grid.z searched)"
    k = _kernel(_scan(tmp_path), "scale_bias_kernel")
    assert k.status == "analysed" and not _races(k), [f.message for f in k.findings]
    assert _races(_kernel(_scan(tmp_path, host=False), "scale_bias_kernel"))  # what the relation rules out


def _softmax_project(root: Path, offset: str, stride: str) -> None:
    (root / "blas_kernels.cu").write_text(SOFTMAX_CU)
    (root / "layer.h").write_text("typedef struct { int inputs, groups, batch; float *input_gpu, *output_gpu; } "
                                  "layer;\n")
    (root / "softmax_layer.c").write_text(LAYER_C.replace("CALL_OFFSET", offset).replace("CALL_STRIDE", stride))


def test_wrapper_called_from_a_c_file_takes_the_call_sites_relations(tmp_path: Path):
    """softmax_gpu is defined in the .cu and called from a .c file: stride is 1 there, group_offset is passed
    the expression n is (one value), and n is batch_offset / groups."""
    _softmax_project(tmp_path, "l.inputs/l.groups", "1")
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    params = [("input", 4), ("n", None), ("batch", None), ("batch_offset", None), ("groups", None),
              ("group_offset", None), ("stride", None), ("output", 4)]
    (c,) = contracts_for(index, "softmax_kernel", params, None, files={"blas_kernels.cu"}, api="cuda").contracts
    assert c.origin.startswith("host launch at softmax_layer.c:8 ")
    assert c.args == {"stride": 1}
    assert c.derived == {"n": "batch_offset/groups", "group_offset": "n"}
    assert c.dims["grid.x"] == "(batch*groups+127)/128"
    k = _kernel(_scan(tmp_path), "softmax_kernel")
    assert k.status == "analysed" and not _races(k), [f.message for f in k.findings]


def test_a_racy_call_site_is_found_and_named(tmp_path: Path):
    """The same wrapper called with group_offset 0: every group of a batch writes the same elements."""
    _softmax_project(tmp_path, "0", "1")
    result = runner.invoke(app, ["scan", str(tmp_path), "--budget", "2", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    found = [f for f in data["files"] if f["path"].endswith("blas_kernels.cu")][0]["kernels"][0]["findings"]
    races = [f for f in found if f["kind"] == "race"]
    assert races and all(f["severity"] == "error" for f in races)
    assert races[0]["launch"]["origin"].startswith("host launch at softmax_layer.c:8")
    assert races[0]["launch"]["scalars"]["group_offset"] == 0


def test_a_clamped_local_and_a_ternary_minimum_are_relations(tmp_path: Path):
    """darknet's shortcut_gpu: ``int stride = w1/w2; if (stride < 1) stride = 1;`` and ``minw = w1 < w2 ? w1 : w2``;
    ``size`` is a product of what the kernel also receives."""
    (tmp_path / "k.cu").write_text(
        "__global__ void k(int size, int minw, int stride, int w1, int w2, float *out) {}\n"
        "extern \"C\" void k_gpu(int w1, int w2, int batch, float *out) {\n"
        "    int minw = (w1 < w2) ? w1 : w2;\n"
        "    int stride = w1/w2;\n"
        "    if(stride < 1) stride = 1;\n"
        "    int size = batch * minw;\n"
        "    k<<<(size + 255) / 256, 256>>>(size, minw, stride, w1, w2, out);\n"
        "}\n")
    (tmp_path / "use.c").write_text("void f(struct L l) { k_gpu(l.w, l.out_w, l.batch, l.output); }\n")
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    params = [("size", None), ("minw", None), ("stride", None), ("w1", None), ("w2", None), ("out", 4)]
    (c,) = contracts_for(index, "k", params, None, files={"k.cu"}, api="cuda").contracts
    assert c.origin.startswith("host launch at use.c:1 ")
    assert c.derived == {"minw": "min(w1,w2)", "stride": "max((w1/w2),1)"}  # size: the wrapper's batch is not passed
    assert c.dims["grid.x"] == "(size+255)/256"


ASSERTED = """#include <cuda_runtime.h>
#include <assert.h>

__global__ void pair_kernel(float *out, int w, int h)
{
    if (w != h) out[0] = threadIdx.x;  /* a race the host's assertion rules out */
    else out[threadIdx.x] = 1.0f;
}

extern "C" void pair_gpu(float *out, int w, int h)
{
    assert(w == h);
    pair_kernel<<<1, 64>>>(out, w, h);
}
"""


def test_a_launch_breaking_the_hosts_assertion_is_none_of_its(tmp_path: Path):
    """The wrapper asserts w == h before launching: the search repairs its draws to keep the assertion (one of
    the two set to the other's value) and rejects launches that break it, so the race at w != h is not reported."""
    (tmp_path / "pair.cu").write_text(ASSERTED)
    (tmp_path / "use.c").write_text("void pair_gpu(float *out, int w, int h);\n"
                                    "void f(float *o, int a, int b) { pair_gpu(o, a, b); }\n")
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    (c,) = contracts_for(index, "pair_kernel", [("out", 4), ("w", None), ("h", None)], None,
                         files={"pair.cu"}, api="cuda").contracts
    assert c.requires == ["w == h"] and c.origin.startswith("host launch at use.c:2")
    k = _kernel(_scan(tmp_path), "pair_kernel")
    assert k.status == "analysed" and not _races(k), [f.message for f in k.findings]
    assert _races(_kernel(_scan(tmp_path, host=False), "pair_kernel"))


def test_relations_evaluate_with_c_semantics():
    assert int_expression("(size-1)/64+1", {"size": 0}) == 1  # C truncates -1/64 to 0
    assert int_expression("min(w1,w2)*b", {"w1": 3, "w2": 2, "b": 5}) == 10
    assert int_expression("-7%3", {}) == -1


def test_a_variable_updated_in_place_is_the_first_pass_value(tmp_path: Path):
    """``off += 32`` in the loop around the launch, after it: the first pass launches with the definition's 0
    (later passes with others); an update before the launch on every pass leaves no constant value."""
    from simu.host.cscan import CSource
    from simu.host.cuda import extract_cuda

    (x,) = extract_cuda(CSource("__global__ void k(float *p, int off) {}\n"
                                "int main() { float *p; int off = 0;\n"
                                "  for (int i = 0; i < 4; ++i) { k<<<1, 32>>>(p, off); off += 32; }\n"
                                "  return 0; }\n"), "m.cu")
    assert x.args == (None, 0) and x.grid == (1, 1, 1) and x.defaults == ("@loop 3 off",)
    (y,) = extract_cuda(CSource("__global__ void k(float *p, int off) {}\n"
                                "int main() { float *p; int off = 0;\n"
                                "  for (int i = 0; i < 4; ++i) { off += 32; k<<<1, 32>>>(p, off); }\n"
                                "  return 0; }\n"), "m.cu")
    assert y.args == (None, None)


def test_a_call_binds_to_the_namesake_defined_nearer(tmp_path: Path):
    """Two projects in one tree define ``check``: the CUDA one launches a kernel; the other folder's caller calls
    its own (defined in another file of its folder), not the CUDA wrapper."""
    (tmp_path / "cuda").mkdir()
    (tmp_path / "cl").mkdir()
    (tmp_path / "cuda" / "lib.cu").write_text("__global__ void chk(float *p, int n) {}\n"
                                              "void check(float *p, int n) { chk<<<1, 64>>>(p, n); }\n")
    (tmp_path / "cuda" / "main.cpp").write_text("void check(float *p, int n);\nvoid f(float *p) { check(p, 7); }\n")
    (tmp_path / "cl" / "lib.cpp").write_text("void check(float *p, int n) { }\n")
    (tmp_path / "cl" / "main.cpp").write_text("void check(float *p, int n);\nvoid g(float *p) { check(p, 9); }\n")
    index = build_host_index(tmp_path, sorted(p for p in tmp_path.rglob("*") if p.is_file()))
    (x,) = index.cuda_launches_of("chk")
    assert x.where == "cuda/main.cpp:2" and x.args == (None, 7) and x.launch_file == "cuda/lib.cu"


def test_a_derived_grid_over_the_thread_budget_shrinks_its_argument_first():
    """grid.y = n over 4096 threads: n is halved (the relation holds); with n fixed (c) the host's grid stays and
    runs a sample of its blocks, which the launch's origin lists; a kernel with a grid barrier, which needs every
    block, has the component itself halved, and the origin says which relation that breaks."""
    from simu.api import load_source
    from simu.evolve.search import _layout
    from simu.launch.constraints import KernelConstraints

    m = load_source("__global__ void k(float *o, int n, int c) { o[blockIdx.y] = c; }", "cuda")
    layout = _layout(m, m.kernels[0], KernelConstraints(block=(512, 1, 1), dims={"grid.y": "n"}, origin="host"))
    genes = [0.0] * layout.at.size
    genes[layout.at.scalar(0)] = 40.0
    launch = layout.launch(genes)
    assert launch.grid == (1, 5, 1) and launch.args["n"] == 5 and launch.origin == "host"
    fixed = _layout(m, m.kernels[0], KernelConstraints(block=(512, 1, 1), dims={"grid.y": "c"}, args={"c": 40},
                                                       origin="host"))
    launch = fixed.launch([0.0] * fixed.at.size)
    assert launch.grid == (1, 40, 1) and launch.args["c"] == 40
    assert launch.blocks == (0, 39)  # the first sample: 1024 threads, the grid's two ends
    assert launch.origin == "host (2 of 40 blocks run: (0,0), (0,39))"
    fit_sample(fixed, launch, 2 * 1024, 250_000)  # two accesses a thread: later samples fill the budget
    launch = fixed.launch([0.0] * fixed.at.size)
    assert len(launch.blocks) == 8 and {0, 1, 38, 39} <= set(launch.blocks)
    fixed.shape.whole_grid = True
    launch = fixed.launch([0.0] * fixed.at.size)
    assert launch.grid == (1, 5, 1) and launch.blocks is None
    assert launch.origin == "host (grid.y = 5, not c = 40: over the search's thread budget)"


def test_a_derived_grid_below_one_block_is_no_launch_of_the_program():
    """grid.x = n/256 with the search's n = 8 is a grid of 0 blocks: the host makes no launch there, so the
    launch is rejected (never clamped to one block and run), while n = 512 gives grid 2 and runs."""
    from simu.api import load_source
    from simu.evolve.search import _layout
    from simu.launch.constraints import KernelConstraints

    m = load_source("__global__ void k(float *o, int n) { o[blockIdx.x * blockDim.x + threadIdx.x] = n; }", "cuda")
    layout = _layout(m, m.kernels[0], KernelConstraints(block=(256, 1, 1), dims={"grid.x": "n/256"}, origin="host"))
    genes = [0.0] * layout.at.size
    genes[layout.at.scalar(0)] = 8.0
    small = layout.launch(genes)
    assert small.args["n"] == 8 and layout.broken(small) == "grid.x = n/256 >= 1"
    genes[layout.at.scalar(0)] = 512.0
    big = layout.launch(genes)
    assert big.grid == (2, 1, 1) and layout.broken(big) is None


def test_a_template_wrapper_called_with_explicit_template_arguments_is_resolved(tmp_path: Path):
    """shoc's scan: ``LaunchBottomScanKernel<T, vecT, 256>(num_blocks, num_threads, …)`` from a .cpp calls a
    template wrapper of the .cu; the caller's ``num_threads = 256`` is the block (the wrapper's own launch has
    no constant block, and a searched one breaks the kernel's 256-thread tile)."""
    (tmp_path / "k.cu").write_text(
        "template <class T, int B> __global__ void tile(T *p) {\n"
        "  __shared__ T s[B];\n  s[threadIdx.x % B] = p[threadIdx.x];\n  __syncthreads();\n"
        "  p[threadIdx.x] = s[(threadIdx.x + 1) % B];\n}\n"
        "template <class T, int B> void launch_tile(int blocks, int threads, T *p) {\n"
        "  tile<T, B><<<blocks, threads>>>(p);\n}\n"
        "template void launch_tile<float, 256>(int, int, float *);\n")
    (tmp_path / "main.cpp").write_text(
        "template <class T, int B> void launch_tile(int, int, T *);\n"
        "int main() {\n  int num_threads = 256;\n  float *d;\n"
        "  launch_tile<float, 256>(1, num_threads, d);\n  return 0;\n}\n")
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    (c,) = contracts_for(index, "tile<float, 256>", [("p", 4)], None, api="cuda").contracts
    assert (c.grid, c.block) == ((1, 1, 1), (256, 1, 1)) and c.origin.startswith("host launch at main.cpp:5"), c
    k = _kernel(_scan(tmp_path), "tile")
    assert k.status == "analysed" and not _races(k), [f.message for f in k.findings]


BRANCHES = """
__global__ void pad(unsigned long long *out, int len) {
  unsigned long long m[16] = {0};
  m[len / 8] = 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = m[3];
}
__global__ void wide(unsigned long long *out, int len) {
  unsigned long long m[32] = {0};
  m[len / 8] = 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = m[3];
}
void hash(unsigned long long *out, int len, int batch) {
  if (len <= 120) {
    pad << <batch / 32, 32 >> > (out, len);
  }
  else if (len <= 248)
    wide<<<batch / 32, 32>>>(out, len);
}
"""


def test_a_launch_inside_a_branch_requires_its_condition(tmp_path: Path):
    """xmrig's hash(): ``if (ctx->inputlen <= 128) k << <…>> > (…, ctx->inputlen, …) else if (… <= 256) …``: the
    first kernel never sees a length past 128, the second one only lengths in (128, 256]; the spaced chevrons are
    a launch too.  Without the branch nothing bounds the length the search draws."""
    from simu.host.cscan import CSource
    from simu.host.cuda import extract_cuda

    pad, wide = extract_cuda(CSource(BRANCHES), "h.cu")
    assert (pad.kernel, pad.block, pad.requires) == ("pad", (32, 1, 1), ("_a1_ <= 120",))
    assert (wide.kernel, wide.requires) == ("wide", ("_a1_ > 120", "_a1_ <= 248"))
    (tmp_path / "h.cu").write_text(BRANCHES)
    result = _scan(tmp_path)
    for name in ("pad", "wide"):
        k = _kernel(result, name)
        assert k.status == "analysed" and not k.findings, [f.message for f in k.findings]
    unguarded = BRANCHES.replace("if (len <= 120) {", "{").replace("else if (len <= 248)", "")
    assert all(not x.requires for x in extract_cuda(CSource(unguarded), "h.cu"))  # no branch: len is free


def test_an_early_return_before_a_launch_requires_its_condition_negated():
    """bullet3's BVH build: ``if (numLeaves < 2) { …; return; }`` before the launches, which never run with fewer
    than 2 leaves; a return nested in another branch, or in a sibling block, says nothing of the launch."""
    from simu.host.cscan import CSource
    from simu.host.cuda import extract_cuda

    src = CSource("__global__ void k(int *p, int n);\n"
                  "void f(int *p, int n, int x, int a) {\n"
                  "  if (n < 2) {\n    p[0] = 0;\n    return;\n  }\n"
                  "  if (x > 0) { if (n > 100) return; }\n"
                  "  if (a > 1) { if (n > 50) return; } else { k<<<1, 32>>>(p, n); }\n"
                  "  k<<<n / 32, 32>>>(p, n);\n}\n")
    in_else, last = extract_cuda(src, "a.cu")
    assert in_else.requires == ("_a1_ >= 2",) and last.requires == ("_a1_ >= 2",), (in_else, last)


def test_a_derived_argument_below_zero_is_no_launch_of_the_program():
    """``out_h = (h - kh)/s + 1`` at a kernel taller than the image is negative: the host's own formula at values it
    never computes with (the kernel never compares ``out_h`` with a negative constant), so the launch is rejected;
    a kernel that handles negative values (compares with -1) keeps it."""
    from simu.api import load_source
    from simu.evolve.dictionary import argument_constants
    from simu.evolve.search import _layout
    from simu.launch.constraints import KernelConstraints

    src = "__global__ void k(float *o, int h, int kh, int out_h) { if (threadIdx.x < out_h) o[threadIdx.x] = h; }"
    m = load_source(src, "cuda")
    layout = _layout(m, m.kernels[0], KernelConstraints(block=(32, 1, 1), derived={"out_h": "(h-kh)/1+1"},
                                                         origin="host"))
    genes = [0.0] * layout.at.size
    genes[layout.at.scalar(0)], genes[layout.at.scalar(1)] = 3.0, 9.0
    tall = layout.launch(genes)
    assert tall.args["out_h"] == -5 and layout.broken(tall) == "out_h = (h-kh)/1+1 >= 0"
    genes[layout.at.scalar(0)] = 16.0
    assert layout.broken(layout.launch(genes)) is None
    m = load_source(src.replace("threadIdx.x < out_h", "out_h != -1 && threadIdx.x < out_h"), "cuda")
    handled = _layout(m, m.kernels[0], KernelConstraints(block=(32, 1, 1), derived={"out_h": "(h-kh)/1+1"},
                                                          origin="host"))
    handled.dictionary = argument_constants(m.kernels[0])[0]  # as the search sets it: out_h is compared with -1
    genes = [0.0] * handled.at.size
    genes[handled.at.scalar(0)], genes[handled.at.scalar(1)] = 3.0, 9.0
    tall = handled.launch(genes)
    assert tall.args["out_h"] == -5 and handled.broken(tall) is None


NAIVE_GEMM = """#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#define TILE 16

__global__ void gemm_nt(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k)
{
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    float c = 0.0f;
    for (int i = 0; i < k; ++i) c += A[m + i * lda] * B[n + i * ldb];
    C[m + n * ldc] = C[m + n * ldc] * 0.5f + c;
}

void gemm(int m, int n, int k, const float *A, int lda, const float *B, int ldb, float *C, int ldc)
{
    dim3 grid(m / TILE, n / TILE), threads(TILE, TILE);
    gemm_nt<<<grid, threads>>>(A, lda, B, ldb, C, ldc, k);
}

bool read_matrix(const char *path, int &rows, int &cols, std::vector<float> &v);

int main(int argc, char **argv)
{
    int rows, inner, cols;
    std::vector<float> a, b;
    read_matrix(argv[1], rows, inner, a);
    read_matrix(argv[2], cols, inner, b);
    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, rows * inner * sizeof(float));
    cudaMalloc((void **)&dB, cols * inner * sizeof(float));
    cudaMalloc((void **)&dC, rows * cols * sizeof(float));
    gemm(rows, cols, inner, dA, rows, dB, cols, dC, rows);
    return 0;
}
"""


def test_two_arguments_passing_one_variable_are_one_value(tmp_path: Path):
    """``gemm(rows, …, dA, rows, …, dC, rows)``: the leading dimensions of A and C are one value the program read
    (written through reference parameters), so the output rows never overlap; at lda = 67, ldc = 2 they did."""
    (tmp_path / "main.cu").write_text(NAIVE_GEMM)
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    params = [("A", 4), ("lda", None), ("B", 4), ("ldb", None), ("C", 4), ("ldc", None), ("k", None)]
    (c,) = contracts_for(index, "gemm_nt", params, None).contracts
    assert c.derived == {"ldc": "lda"} and c.dims["grid.x"] == "lda/16", (c.derived, c.dims)
    result = runner.invoke(app, ["scan", str(tmp_path), "--budget", "1", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    errors = [f for fe in data["files"] for k in fe["kernels"] for f in k["findings"] if f["severity"] == "error"]
    assert not errors, [f["message"] for f in errors]


CEIL_GRID = """#include <cstdio>
#include <cmath>
__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
int main() {
  int n;
  if (scanf("%d", &n) != 1) return 1;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<(int)ceil((double)n / (double)256), 256>>>(d, n);
  fill<<<(int)ceilf(n / 128.0f), 128>>>(d, n);
  fill<<<(int)floor(n / 64.0), 64>>>(d, n);
  fill<<<max(1, (int)ceil((float)n / (4.f * 32))), 32>>>(d, n);
  return 0;
}
"""


def test_a_float_round_up_of_a_count_is_the_integer_round_up(tmp_path: Path):
    """``(int)ceil((double)n / 256)``: C's float quotient of two integers, rounded, is the integer expression the
    search evaluates (grids of counts read at run time are often written so)."""
    (tmp_path / "main.cu").write_text(CEIL_GRID)
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    contracts = contracts_for(index, "fill", [("out", 4), ("n", None)], None).contracts
    assert [c.dims["grid.x"] for c in contracts] == ["(n+256-1)/256", "(n+128-1)/128", "n/64", "max(1, (n+128-1)/128)"]


DIVUP_GRID = """#include <cstdio>
#define DIVUP(m, n) ((m) / (n) + ((m) % (n) > 0))
const int THREADS = sizeof(unsigned long long) * 8;
__global__ void mark(unsigned long long *mask, int boxes) {
  if (threadIdx.x < boxes) mask[(blockIdx.y * THREADS + threadIdx.x) * gridDim.x + blockIdx.x] = 1;
}
void launch(unsigned long long *mask, int boxes) {
  dim3 blocks(DIVUP(boxes, THREADS), DIVUP(boxes, THREADS));
  mark<<<blocks, THREADS>>>(mask, boxes);
}
int main() {
  int n;
  if (scanf("%d", &n) != 1) return 1;
  unsigned long long *m;
  cudaMalloc(&m, n * DIVUP(n, THREADS) * sizeof(unsigned long long));
  launch(m, n);
  return 0;
}
"""


def test_a_divup_macro_of_a_count_is_the_integer_round_up(tmp_path: Path):
    """``m / n + (m % n > 0)`` (a ``DIVUP`` macro) over a namespace-scope ``const`` is the round-up the search
    evaluates: the grid follows the argument in both dimensions instead of being searched apart."""
    (tmp_path / "main.cu").write_text(DIVUP_GRID)
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    (c,) = contracts_for(index, "mark", [("mask", 8), ("boxes", None)], None).contracts
    assert c.block == (64, 1, 1) and (c.dims["grid.x"], c.dims["grid.y"]) == ("(boxes+64-1)/64",) * 2


def test_two_draws_of_one_distribution_are_two_values(tmp_path: Path):
    """``int a = d(gen), b = d(gen);`` passed as two arguments: each call draws anew, so neither follows the other
    (a call whose result simu cannot compute, copied to two arguments, is one value: ``x = f(); k(x, x)``)."""
    (tmp_path / "main.cu").write_text("""#include <random>
__global__ void k(int *out, int a, int b) { out[a] = b; }
int main() {
  std::mt19937 gen(1);
  std::uniform_int_distribution<int> d(0, 99);
  int a = d(gen), b = d(gen);
  int *p;
  cudaMalloc(&p, 100 * sizeof(int));
  k<<<1, 1>>>(p, a, b);
  return 0;
}
""")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    (c,) = contracts_for(index, "k", [("out", 4), ("a", None), ("b", None)], None).contracts
    assert "b" not in c.derived and "a" not in c.derived, c.derived


def test_a_relation_over_a_scalar_named_like_a_python_keyword_evaluates():
    """A host computing a kernel argument as ``lambda * Vin`` (a detection head's scalar named ``lambda``): the
    relation is C, not Python, so the name is a name; text that is no expression is a ValueError, never a
    SyntaxError out of the search."""
    import pytest

    assert int_expression("lambda * Vin + in", {"lambda": 3, "Vin": 5, "in": 1}) == 16
    with pytest.raises(ValueError):
        int_expression("a +* b", {"a": 1, "b": 2})


POOL_CU = """
__global__ void pool(int n, const int *assign, int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) idx[i] = assign[i];
}
void pool_launcher(int n) {
  int *assign = NULL;
  cudaMalloc(&assign, n * sizeof(int));
  int *idx = NULL;
  cudaMalloc(&idx, n * sizeof(int));
  pool<<<(n + 255) / 256, 256>>>(n, assign, idx);
}
"""

POOL_CPP = """
void pool_launcher(int n);
int run(int n) { pool_launcher(n); return 0; }
"""


def test_two_locals_a_wrapper_starts_null_are_two_buffers(tmp_path: Path):
    """``int *assign = NULL; … int *idx = NULL;`` allocated apart in a wrapper called from another file: the call
    site's texts are the null pointer each local starts as, not one variable (``same``)."""
    (tmp_path / "pool.cu").write_text(POOL_CU)
    (tmp_path / "run.cpp").write_text(POOL_CPP)
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    params = [("n", None), ("assign", 4), ("idx", 4)]
    contracts = contracts_for(index, "pool", params, None, files={"pool.cu"}, api="cuda").contracts
    assert contracts and all(not c.same for c in contracts), [c.same for c in contracts]


LINEAR_KERNEL = """#include <cstdint>
constexpr uint32_t N_THREADS_LINEAR = 128;
template <typename T> constexpr uint32_t n_blocks_linear(T n) { return (uint32_t)((n + N_THREADS_LINEAR - 1) / 128); }
template <typename K, typename T, typename ... Types>
void linear_kernel(K kernel, uint32_t shmem_size, cudaStream_t stream, T n_elements, Types ... args) {
  if (n_elements <= 0) return;
  kernel<<<n_blocks_linear(n_elements), N_THREADS_LINEAR, shmem_size, stream>>>(n_elements, args...);
}
__global__ void update_moment(const uint32_t n_elements, float beta, const float *norm, float *moment) {
  const uint32_t i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n_elements) return;
  *moment = beta * *moment + *norm;  // one element: one thread, as the host launches it
}
int main() {
  float *norm, *moment;
  cudaMalloc(&norm, 4);
  cudaMalloc(&moment, 4 * 8);
  for (int i = 0; i < 8; ++i)
    linear_kernel(update_moment, 0, nullptr, COUNT, 0.9f, norm, moment + i);
  return 0;
}
"""


def test_a_launch_helper_takes_the_kernel_its_caller_passes(tmp_path: Path):
    """``linear_kernel(update_moment, shmem, stream, 1u, …)``: a helper that launches the kernel it is given with
    its element count and the rest of its arguments (``args...``): each call is a host launch of the kernel passed,
    at its count, each pointer its own buffer (the pack's arguments all read ``args``)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "main.cu").write_text(LINEAR_KERNEL.replace("COUNT", "1u"))
    k = _kernel(_scan(tmp_path), "update_moment")
    assert not _races(k), _races(k)
    assert k.launches <= 8  # the host's launch, not a search over counts
    (tmp_path / "main.cu").write_text(LINEAR_KERNEL.replace("COUNT", "100u"))
    races = _races(_kernel(_scan(tmp_path), "update_moment"))
    assert races and all(f.severity == "error" and f.variable == "moment" for f in races), races
    assert all("host launch at main.cu" in f.launch.origin for f in races)
