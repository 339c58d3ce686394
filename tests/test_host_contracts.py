"""Host launches become launch contracts: the search runs the launch the program makes, and findings name it."""

from __future__ import annotations

from pathlib import Path

from simu.api import load_file
from simu.check import analyse_kernel
from simu.host.contracts import host_constraints, merge
from simu.host.index import build_host_index
from simu.launch.constraints import KernelConstraints

WRAPPED = r"""
__global__ void slot(float *out, const float *in) {
    __shared__ float s[32];
    unsigned t = threadIdx.x;
    s[t % 32] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % 32];
}
void launch(float *o, const float *i, int threads) { slot<<<1, threads>>>(o, i); }
int main() {
    float *o, *i;
    cudaMalloc(&o, 96 * sizeof(float));
    cudaMalloc(&i, 96 * sizeof(float));
    launch(o, i, 96);
    return 0;
}
"""

SIZED = r"""
__global__ void scale(float *x, int n, float a) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }
void run(int n) {
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    scale<<<(n + 127) / 128, 128>>>(d, n, 2.0f);
}
"""


def _index(tmp_path: Path, text: str) -> tuple[Path, object]:
    src = tmp_path / "main.cu"
    src.write_text(text)
    return src, build_host_index(tmp_path, [src])


def test_wrapper_launch_is_the_contract_and_its_race_names_it(tmp_path: Path):
    src, index = _index(tmp_path, WRAPPED)
    ((c, origin),) = host_constraints(index, "slot", [("out", 4), ("in", 4)])
    assert origin == "host launch at main.cu:14"
    assert c.grid == (1, 1, 1) and c.block == (96, 1, 1) and c.buffer_lengths == {"out": "96", "in": "96"}
    module = load_file(src)
    report = analyse_kernel(module, module.kernel(), constraints=c, budget=4)
    races = [f for f in report.findings if f.kind == "race"]
    assert races and all(f.launch.block == (96, 1, 1) and f.launch.origin == origin for f in races)


def test_unknown_sizes_become_expressions_of_the_kernels_scalars(tmp_path: Path):
    _, index = _index(tmp_path, SIZED)
    ((c, _),) = host_constraints(index, "scale", [("x", 4), ("n", None), ("a", None)])
    assert c.grid is None and c.block == (128, 1, 1)  # the grid stays free: n is not known on the host
    assert c.buffer_lengths == {"x": "n"} and c.args == {"a": 2}  # 2.0f; n is a host variable


def test_configuration_wins_over_the_host_launch(tmp_path: Path):
    _, index = _index(tmp_path, WRAPPED)
    ((c, _),) = host_constraints(index, "slot", [("out", 4), ("in", 4)])
    user = KernelConstraints(block=(32, 1, 1), buffer_lengths={"in": "64"})
    m = merge(c, user)
    assert m.block == (32, 1, 1) and m.grid == (1, 1, 1)
    assert m.buffer_lengths == {"out": "96", "in": "64"} and m.origin == c.origin


def test_opencl_ndrange_is_the_contract(tmp_path: Path):
    (tmp_path / "k.cl").write_text(
        "__kernel void acc(__global float *out) {\n"
        "    __local float s[64];\n"
        "    int t = get_local_id(0);\n"
        "    s[t % 64] = (float)t;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0)] = s[(t + 1) % 64];\n"
        "}\n")
    (tmp_path / "host.c").write_text(
        "#include <CL/cl.h>\nint main(void) {\n    cl_program program; cl_command_queue q; cl_int err;\n"
        "    cl_kernel k = clCreateKernel(program, \"acc\", &err);\n"
        "    size_t global = 1024;\n    size_t local = 128;\n"
        "    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);\n    return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "host.c"])
    ((c, origin),) = host_constraints(index, "acc", [("out", 4)])
    assert (c.grid, c.block, origin) == ((8, 1, 1), (128, 1, 1), "host launch at host.c:7")
    module = load_file(tmp_path / "k.cl")
    from simu.host.contracts import kernel_contracts

    contracts = kernel_contracts(tmp_path / "k.cl", module.kernel(), None).for_search()
    report = analyse_kernel(module, module.kernel(), constraints=contracts, budget=4)
    races = [f for f in report.findings if f.kind == "race"]
    assert races and all(f.launch.grid == (8, 1, 1) and f.launch.block == (128, 1, 1) for f in races)
    assert races[0].launch.origin == origin


def test_a_kernels_own_file_launch_comes_before_a_namesakes_beside_it(tmp_path):
    from simu.host.contracts import kernel_contract

    for name, threads in (("a.cu", 32), ("b.cu", 64)):
        (tmp_path / name).write_text("__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
                                     f"int main() {{ int *p; cudaMalloc(&p, {threads} * sizeof(int)); "
                                     f"k<<<1, {threads}>>>(p); return 0; }}\n")
    for name, threads in (("a.cu", 32), ("b.cu", 64)):
        path = tmp_path / name
        c = kernel_contract(path, load_file(path).kernel(), None)
        assert c.block == (threads, 1, 1) and c.origin.startswith(f"host launch at {name}:"), c
