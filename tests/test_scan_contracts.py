"""`simu scan` analyses each kernel at the launches its host code makes: OpenCL NDRanges with the host's build
options, argument values and buffer sizes; CUDA launches; every distinct launch site; the cache follows the host."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.evolve import Budget, search_kernel
from simu.host.contracts import MAX_CONTRACTS, distinct_contracts
from simu.launch.constraints import KernelConstraints
from simu.pipeline import CheckSettings
from simu.scan import ScanOverrides, resolve_options, scan

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
runner = CliRunner()

TWO_SITES = """#include <cuda_runtime.h>

__global__ void slot(float *out, const float *in) {
    __shared__ float s[32];
    unsigned t = threadIdx.x;
    s[t % 32] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % 32];
}

int main() {
    float *o, *i;
    cudaMalloc(&o, 96 * sizeof(float));
    cudaMalloc(&i, 96 * sizeof(float));
    slot<<<1, SMALL>>>(o, i);
    slot<<<1, LARGE>>>(o, i);
    cudaDeviceSynchronize();
    return 0;
}
"""

ONE_BLOCK = """#include <cuda_runtime.h>

__global__ void shift(int *a, const int *b) {
    a[threadIdx.x] += b[blockIdx.x * blockDim.x + threadIdx.x];
}

int main() {
    int *a, *b;
    cudaMalloc(&a, 16 * sizeof(int));
    cudaMalloc(&b, 16 * sizeof(int));
    shift<<<1, 16>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
"""


def _scan(root: Path, cache: Path | None = None, budget: float = 2.0):
    over = ScanOverrides(budget=budget, jobs=1, no_cache=cache is None, cache_dir=str(cache) if cache else None)
    return scan(*resolve_options([root], over))


def _kernel(result, name: str):
    return next(k for _, k in result.kernels() if k.name.startswith(name))


def test_opencl_pair_is_built_with_the_host_options_and_run_at_its_ndrange(tmp_path: Path):
    """The issue's "done when": a folder of host .c and .cl; the .cl compiles only with the host's -D TILE=64,
    and its race shows at the host's 1024/128 NDRange, named after the host launch."""
    root = tmp_path / "proj"
    shutil.copytree(CORPUS / "opencl" / "host" / "tile_racy", root)
    r = runner.invoke(app, ["scan", str(root), "--no-cache", "-j", "1", "--budget", "2", "--format", "json"])
    data = json.loads(r.output)
    (f,) = data["files"]
    assert f["status"] == "ok" and f["kernels"][0]["status"] == "analysed"
    races = [x for x in f["kernels"][0]["findings"] if x["kind"] == "race"]
    assert races, f["kernels"][0]
    for x in races:
        launch = x["launch"]
        assert launch["origin"] == "host launch at host.c:26"
        assert (launch["grid"], launch["block"]) == ([8, 1, 1], [128, 1, 1]) and launch["scalars"] == {"n": 1024}
        assert {b["length"] for b in launch["buffers"].values()} == {1024}
    text = runner.invoke(app, ["scan", str(root), "--no-cache", "-j", "1", "--budget", "2"]).output
    assert "host launch at host.c:26" in text
    sarif = json.loads(runner.invoke(app, ["scan", str(root), "--no-cache", "-j", "1", "--budget", "2",
                                           "--format", "sarif"]).output)
    assert "host launch at host.c:26" in json.dumps(sarif)


def test_opencl_fixed_build_options_are_clean(tmp_path: Path):
    root = tmp_path / "proj"
    shutil.copytree(CORPUS / "opencl" / "host" / "tile_fixed", root)
    k = _kernel(_scan(root), "tile_sum")
    assert k.status == "analysed" and not k.findings


def test_cuda_one_block_launch_has_no_inter_block_race(tmp_path: Path):
    """The kernel reads blockIdx, so a free search launches several blocks, which all update a[threadIdx.x]:
    an inter-block race no launch of this program makes (main launches one block)."""
    (tmp_path / "main.cu").write_text(ONE_BLOCK)
    k = _kernel(_scan(tmp_path), "shift")
    assert k.status == "analysed" and not k.findings
    free = _scan_without_host(tmp_path)
    assert any(f.kind == "race" for f in _kernel(free, "shift").findings)  # what the host launch rules out


def _scan_without_host(root: Path):
    options, config = resolve_options([root], ScanOverrides(budget=2.0, jobs=1, no_cache=True))
    options.host_code = False
    return scan(options, config)


def test_each_launch_site_is_explored_and_named(tmp_path: Path):
    """slot<<<1, 32>>> is race-free, slot<<<1, 96>>> races: found, and attributed to the 96 site, in either order."""
    for small, large in ((32, 96), (96, 32)):
        d = tmp_path / f"p{small}"
        d.mkdir()
        (d / "main.cu").write_text(TWO_SITES.replace("SMALL", str(small)).replace("LARGE", str(large)))
        k = _kernel(_scan(d), "slot")
        races = [f for f in k.findings if f.kind == "race"]
        racy_line = 16 if large == 96 else 15
        assert races and all(f.launch.block == (96, 1, 1) for f in races)
        assert all(f.launch.origin == f"host launch at main.cu:{racy_line}" for f in races)


def test_editing_the_host_code_analyses_again(tmp_path: Path):
    root, cache = tmp_path / "proj", tmp_path / "cache"
    shutil.copytree(CORPUS / "opencl" / "host" / "tile_racy", root)
    first = _kernel(_scan(root, cache), "tile_sum")
    assert any(f.kind == "race" for f in first.findings)
    again = _kernel(_scan(root, cache), "tile_sum")
    assert again.cached and again.findings
    host = root / "host.c"  # the same kernel file, launched in groups of 64: one slot per work-item
    host.write_text(host.read_text().replace("local = 128", "local = 64"))
    edited = _kernel(_scan(root, cache), "tile_sum")
    assert not edited.cached and not edited.findings


def test_same_line_edit_of_a_cuda_launch_analyses_again(tmp_path: Path):
    """Host code is not compiled into the device IR: an edit of the launch alone keeps the IR digest, and
    only the contract in the cache key tells the results apart."""
    cache = tmp_path / "cache"
    (tmp_path / "p").mkdir()
    src = tmp_path / "p" / "main.cu"
    src.write_text(TWO_SITES.replace("SMALL", "32").replace("LARGE", "32"))
    assert not _kernel(_scan(src.parent, cache), "slot").findings
    src.write_text(TWO_SITES.replace("SMALL", "32").replace("LARGE", "96"))
    k = _kernel(_scan(src.parent, cache), "slot")
    assert not k.cached and any(f.kind == "race" for f in k.findings)


def test_distinct_launches_are_capped_and_alike_ones_merged():
    alike = [(KernelConstraints(block=(64, 1, 1), origin=f"host launch at m.cu:{i}"), "") for i in (1, 2)]
    many = [(KernelConstraints(block=(100 + i, 1, 1), origin=f"host launch at m.cu:{10 + i}"), "")
            for i in range(MAX_CONTRACTS + 2)]
    hc = distinct_contracts(alike + many, KernelConstraints(grid=(2, 1, 1)))
    assert len(hc.contracts) == MAX_CONTRACTS and hc.contracts[0].origin == "host launch at m.cu:1"
    assert all(c.grid == (2, 1, 1) for c in hc.contracts)  # the configuration on top of each
    assert hc.skipped == [f"host launch at m.cu:{10 + i}" for i in range(MAX_CONTRACTS - 1, MAX_CONTRACTS + 2)]
    assert "not the m.cu:13, m.cu:14, m.cu:15" in hc.note("k")


REDUNDANT_ONLY_AT_ZERO = """
__global__ void rot(float *out, const float *in, int k) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t + k) % 64];
}
"""


def test_a_barrier_one_launch_needs_is_not_redundant(tmp_path: Path):
    from simu.api import load_file

    src = tmp_path / "rot.cu"
    src.write_text(REDUNDANT_ONLY_AT_ZERO)
    module = load_file(src)
    kernel = module.kernel()

    def contract(k: int) -> KernelConstraints:
        return KernelConstraints(grid=(1, 1, 1), block=(64, 1, 1), args={"k": k}, buffer_lengths={"out": "64",
                                 "in": "64"}, origin=f"host launch at rot.cu:{k + 20}")

    budget = Budget(evaluations=12, seconds=600, probe_seconds=120)
    alone = search_kernel(module, kernel, CheckSettings(), [contract(0)], budget)
    assert [f.kind for f in alone.findings] == ["redundant-barrier"]
    both = search_kernel(module, kernel, CheckSettings(), [contract(0), contract(1)], budget)
    assert both.status == "analysed" and not both.findings


def test_local_scratch_sized_by_the_host_overflows_as_an_error(tmp_path: Path):
    """clSetKernelArg(k, 1, 64 * sizeof(float), NULL) with groups of 128: the overflow is the program's (the block
    and the size are the host's), not a guess of the search, so it stays an error."""
    root = tmp_path / "proj"
    shutil.copytree(CORPUS / "opencl" / "host" / "local_short", root)
    k = _kernel(_scan(root), "stage")
    oob = [f for f in k.findings if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == "error" and f.launch.origin == "host launch at host.c:16" for f in oob)
    assert all(f.launch.block == (128, 1, 1) for f in oob)


RATES = r"""
#include <stdlib.h>
#define RATES 64
__global__ void rates(float *rf, const float *t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = gridDim.x * blockDim.x;
    for (int k = 0; k < RATES; k++) rf[k * n + i] = t[i] * k;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *rf, *t;
    cudaMalloc(&rf, ALLOCATED * sizeof(float));
    cudaMalloc(&t, n * sizeof(float));
    rates<<<n / 128, 128>>>(rf, t);
    return 0;
}
"""


def test_a_host_allocation_with_a_constant_factor_makes_longer_lengths_plausible(tmp_path: Path):
    """``cudaMalloc(&rf, RATES * n * sizeof(float))`` with ``n`` read at run time: the search still draws
    rf's length, but an out-of-bounds access that RATES times the drawn length keeps in bounds is only the
    search's guess (a warning naming it); the same kernel over an ``n``-float allocation is an error."""
    (tmp_path / "main.cu").write_text(RATES.replace("ALLOCATED", "RATES * n"))
    k = _kernel(_scan(tmp_path), "rates")
    oob = [f for f in k.findings if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == "warning" for f in oob), [(f.severity, f.message) for f in oob]
    (tmp_path / "main.cu").write_text(RATES.replace("ALLOCATED", "n"))
    k = _kernel(_scan(tmp_path), "rates")
    assert any(f.kind == "out-of-bounds" and f.severity == "error" for f in k.findings), k.findings


OPENCL_RUNTIME_SIZE = {
    "copy.cl": "__kernel void copy(__global float *out, __global const float *in, int n) {\n"
               "    int i = get_global_id(0);\n    out[i] = in[i];\n}\n",
    "host.c": "#include <CL/cl.h>\n#include <stdlib.h>\n"
              "int main(int argc, char **argv) {\n"
              "    cl_context ctx; cl_program prog; cl_command_queue q; cl_int err;\n"
              "    int n = atoi(argv[1]) * 64;\n"
              "    cl_kernel k = clCreateKernel(prog, \"copy\", &err);\n"
              "    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);\n"
              "    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);\n"
              "    clSetKernelArg(k, 0, sizeof(cl_mem), &out);\n"
              "    clSetKernelArg(k, 1, sizeof(cl_mem), &in);\n"
              "    clSetKernelArg(k, 2, sizeof(int), &n);\n"
              "    size_t local = 64;\n    size_t global = n;\n"
              "    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);\n"
              "    return 0;\n}\n",
}


def test_an_opencl_global_size_set_at_run_time_follows_the_argument_it_is_passed_as(tmp_path: Path):
    """shoc's MD: ``globalSize = nAtom`` with ``nAtom`` also argument 2 and the buffers' length: the NDRange is
    n / 64 work-groups of the host's 64, so the unguarded ``out[i]`` stays in bounds; a search free to choose the
    grid runs past the buffers."""
    for name, text in OPENCL_RUNTIME_SIZE.items():
        (tmp_path / name).write_text(text)
    k = _kernel(_scan(tmp_path), "copy")
    assert k.status == "analysed" and not [f for f in k.findings if f.kind == "out-of-bounds"], k.findings
    (tmp_path / "host.c").write_text(OPENCL_RUNTIME_SIZE["host.c"].replace("size_t global = n;",
                                                                          "size_t global = n + 64;"))
    k = _kernel(_scan(tmp_path), "copy")
    oob = [f for f in k.findings if f.kind == "out-of-bounds"]
    assert oob and all(f.severity == "error" for f in oob), k.findings
