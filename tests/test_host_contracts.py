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


def test_a_value_a_branch_changes_is_not_a_constant(tmp_path):
    from simu.host.cscan import CSource
    from simu.host.cvalues import Evaluator

    text = ("const int N = 64;\nvoid other() { size_t local = 7; }\nint main(int argc, char **argv) {\n"
            "  size_t local = 256;\n  if (argc > 1) { local = 1; }\n  size_t l2 = 128;\n  if (argc > 2) l2 = 1;\n"
            "  size_t l3 = 8;\n  if (argc) { l3 = 9; }\n  l3 = 16;\n  size_t l4 = 32;\n  if (argc) l4 = 32;\n"
            "  size_t global = 1024, l5 = 128;\n  size_t g[2] = {N, N}, l6[2] = {8, 8};\n  X;\n}\n")
    ev = Evaluator(CSource(text))
    at = text.index("X;")
    values = {n: ev.int_value(n, at) for n in ("N", "local", "l2", "l3", "l4", "global", "l5")}
    assert values == {"N": 64, "local": None, "l2": None, "l3": 16, "l4": 32, "global": 1024, "l5": 128}
    assert ev.array_values("g", at)[1] == (64, 64) and ev.array_values("l6", at)[1] == (8, 8)


def test_cuda_and_opencl_kernels_of_one_name_take_their_own_launches(tmp_path):
    (tmp_path / "main.cu").write_text("__global__ void reduce(float *p) { p[threadIdx.x] = 0; }\n"
                                      "int main() { float *p; reduce<<<2, 64>>>(p); return 0; }\n")
    (tmp_path / "host.cpp").write_text(
        "#include <CL/cl.h>\nint main() {\n  cl_program program; cl_command_queue q; cl_int err;\n"
        "  cl_kernel k = clCreateKernel(program, \"reduce\", &err);\n  size_t global = 1024, local = 128;\n"
        "  clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);\n  return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu", tmp_path / "host.cpp"])
    (cuda,) = host_constraints(index, "reduce", [("p", 4)], api="cuda")
    (opencl,) = host_constraints(index, "reduce", [("p", 4)], api="opencl")
    assert cuda[0].block == (64, 1, 1) and cuda[1] == "host launch at main.cu:2"
    assert opencl[0].block == (128, 1, 1) and opencl[1] == "host launch at host.cpp:6"


def test_a_host_launch_with_unknown_sizes_says_what_is_searched(tmp_path):
    _, index = _index(tmp_path, SIZED)
    ((c, origin),) = host_constraints(index, "scale", [("x", 4), ("n", None), ("a", None)])
    assert origin == "host launch at main.cu:6 (grid.x = (n+127)/128 from the host code)" == c.origin


def test_opencl_argument_values_and_buffer_lengths(tmp_path):
    (tmp_path / "host.cpp").write_text(
        "#include <CL/cl.hpp>\n#define W 256\nint main() {\n  cl::Program program; cl::CommandQueue q;\n"
        "  cl::Kernel k(program, \"blur\");\n  int width = W, height = 64;\n"
        "  cl::Buffer src(ctx, CL_MEM_READ_ONLY, width * height * sizeof(float));\n"
        "  cl::Buffer dst(CL_MEM_WRITE_ONLY, width * height * 4);\n"
        "  k.setArg(0, src);\n  k.setArg(1, dst);\n  k.setArg(2, width);\n"
        "  k.setArg(3, cl::Local(16 * sizeof(float)));\n"
        "  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(W, 64), cl::NDRange(16, 16));\n  return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "host.cpp"])
    ((c, _),) = host_constraints(index, "blur", [("src", 4), ("dst", 4), ("width", None), ("tile", 4)],
                                 api="opencl")
    assert (c.grid, c.block) == ((16, 4, 1), (16, 16, 1)) and c.args == {"width": 256}
    assert c.buffer_lengths == {"src": str(256 * 64), "dst": str(256 * 64), "tile": "16"}


SORT_HOST = """#include <CL/cl.h>
extern const char *cl_source_NAME;
template <class T> void run(cl_context ctx, cl_command_queue q, cl_device_id dev) {
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &cl_source_NAME, NULL, &err);
    clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    cl_kernel top_scan = clCreateKernel(prog, "top_scan", &err);
    const int radix_width = 4;
    const int num_digits = (int)pow((double)2, radix_width);
    const size_t local_wsize = LOCAL, global_wsize = 16384;
    const size_t num_work_groups = global_wsize / local_wsize;
    cl_mem d_isums = clCreateBuffer(ctx, CL_MEM_READ_WRITE, num_work_groups * num_digits * sizeof(T), NULL, &err);
    clSetKernelArg(top_scan, 0, sizeof(cl_mem), (void*)&d_isums);
    clSetKernelArg(top_scan, 1, sizeof(cl_int), (void*)&num_work_groups);
    clSetKernelArg(top_scan, 2, local_wsize * 2 * sizeof(T), NULL);
    clEnqueueNDRangeKernel(q, top_scan, 1, NULL, &local_wsize, &local_wsize, 0, NULL, NULL);
}
"""


def test_namesake_opencl_kernels_take_the_launches_of_their_own_program(tmp_path):
    """Two folders each build a program with a `top_scan` kernel from embedded sources (no .cl file named):
    each .cl takes the launch of its own program, (void*)& arguments, pow() and sizeof(T) are read."""
    files = []
    for name, local in (("sort", 256), ("scan", 128)):
        (tmp_path / name).mkdir()
        host = tmp_path / name / f"{name.title()}.cpp"
        host.write_text(SORT_HOST.replace("NAME", name).replace("LOCAL", str(local)))
        files.append(host)
    index = build_host_index(tmp_path, files)
    params = [("isums", 4), ("n", None), ("lmem", 4)]
    for name, local in (("sort", 256), ("scan", 128)):
        ((c, origin),) = host_constraints(index, "top_scan", params, cl_file=f"{name}/{name}.cl", api="opencl")
        assert origin == f"host launch at {name}/{name.title()}.cpp:16"
        assert c.block == (local, 1, 1) and c.args == {"n": 16384 // local}
        assert c.buffer_lengths == {"isums": str(16384 // local * 16), "lmem": str(2 * local)}


def test_launch_sizes_named_by_a_macro_of_an_included_project_header(tmp_path):
    """``k<<<grid, BLOCK>>>`` with ``#define BLOCK 512`` in a project header the file includes (one level
    through another header, found by path suffix from a sibling folder)."""
    (tmp_path / "include").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "project.h").write_text('#include "sizes.h"\n')
    (tmp_path / "include" / "sizes.h").write_text("#ifdef GPU\n#define BLOCK 512\n#endif\n")
    src = tmp_path / "src" / "kernels.cu"
    src.write_text('#include "project.h"\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n'
                   "void run(float *x, int n) { k<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x); }\n")
    files = [tmp_path / "include" / "project.h", tmp_path / "include" / "sizes.h", src]
    (launch,) = build_host_index(tmp_path, files).cuda_launches_of("k")
    assert launch.block == (512, 1, 1)
    assert launch.grid is None  # n is not known
    # editing the header changes the index (its stamp is part of the includer's cache entry)
    cache = tmp_path / "cache"
    build_host_index(tmp_path, files, cache_dir=cache)
    (tmp_path / "include" / "sizes.h").write_text("#define BLOCK 256\n")
    (launch,) = build_host_index(tmp_path, files, cache_dir=cache).cuda_launches_of("k")
    assert launch.block == (256, 1, 1)


def test_simu_check_reads_macros_of_project_headers_in_another_folder(tmp_path):
    """`simu check src/k.cu`: the host code beside the kernel names BLOCK from include/defs.h, which `simu scan`
    of the project resolves; check resolves it among the repository's headers too."""
    from simu.host.contracts import kernel_contracts

    (tmp_path / ".git").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "defs.h").write_text("#pragma once\n#define BLOCK 128\n")
    kernel = tmp_path / "src" / "k.cu"
    kernel.write_text('#include "../include/defs.h"\n'
                      "__global__ void fill(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n")
    (tmp_path / "src" / "main.cu").write_text(
        '#include "defs.h"\n__global__ void fill(int *p);\n'
        "int main() { int *p; cudaMalloc(&p, 4 * BLOCK * sizeof(int)); fill<<<4, BLOCK>>>(p); return 0; }\n")
    (c,) = kernel_contracts(kernel, load_file(kernel).kernel(), None).for_search()
    assert (c.grid, c.block) == ((4, 1, 1), (128, 1, 1)), c


def test_a_launch_function_taking_the_kernel_as_a_parameter_launches_what_its_callers_pass(tmp_path):
    """shoc's OpenCL FFT: ``transform(work, n, cl_kernel &k, q)`` enqueues ``k`` with local size 64; FFT.cpp calls it
    with ``fftKrnl`` and ``ifftKrnl``, which ``init`` made by reference.  Each kernel gets that launch."""
    (tmp_path / "lib.cpp").write_text(
        "#include <CL/cl.h>\n"
        "void init(cl_program prog, cl_kernel &fftKrnl, cl_kernel &ifftKrnl) {\n"
        "    cl_int err;\n"
        "    fftKrnl = clCreateKernel(prog, \"forward\", &err);\n"
        "    ifftKrnl = clCreateKernel(prog, \"inverse\", &err);\n"
        "}\n"
        "void transform(cl_mem work, int n, cl_kernel &kernel, cl_command_queue q) {\n"
        "    size_t local = 64;\n    size_t global = local * n;\n"
        "    clSetKernelArg(kernel, 0, sizeof(cl_mem), &work);\n"
        "    clEnqueueNDRangeKernel(q, kernel, 1, NULL, &global, &local, 0, NULL, NULL);\n"
        "}\n")
    (tmp_path / "main.cpp").write_text(
        "#include <CL/cl.h>\n"
        "void init(cl_program prog, cl_kernel &fftKrnl, cl_kernel &ifftKrnl);\n"
        "void transform(cl_mem work, int n, cl_kernel &kernel, cl_command_queue q);\n"
        "int main() {\n    cl_program prog; cl_mem w; cl_command_queue q; cl_kernel fftKrnl, ifftKrnl;\n"
        "    init(prog, fftKrnl, ifftKrnl);\n"
        "    transform(w, 4, fftKrnl, q);\n    transform(w, 4, ifftKrnl, q);\n    return 0;\n}\n")
    index = build_host_index(tmp_path, sorted(tmp_path.iterdir()))
    for name in ("forward", "inverse"):
        ((c, origin),) = host_constraints(index, name, [("work", 4)], api="opencl")
        assert c.block == (64, 1, 1) and origin.startswith("host launch at lib.cpp:11"), (name, c, origin)


def test_each_instantiation_of_a_template_kernel_takes_the_launches_clang_read_for_it(tmp_path):
    """A wrapper template called from a function template: ``launch<T>(p, 64 * sizeof(T))`` in ``run<float>`` and
    ``run<double>``.  Each instantiation of ``fill`` takes only the shared-memory size of its own call chain (the
    callee's type tells the instantiations apart, in any file)."""
    from simu.api import load_source
    from simu.host.contracts import kernel_contracts

    src = tmp_path / "t.cu"
    src.write_text("""#include <cuda_runtime.h>
template <class T> __global__ void fill(T *out) {
  extern __shared__ unsigned char raw[];
  T *s = (T *)raw;
  s[threadIdx.x] = (T)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
template <class T> void launch(T *p, int smem) { fill<T><<<1, 64, smem>>>(p); }
template <class T> void run() {
  T *p;
  cudaMalloc(&p, 64 * sizeof(T));
  launch<T>(p, 64 * sizeof(T));
}
int main() { run<float>(); run<double>(); return 0; }
""")
    module = load_source(src.read_text(), "cuda", path=str(src))
    shared = {k.display_name: [c.dynamic_shared for c in kernel_contracts(src, k, None).contracts]
              for k in module.kernels}
    assert shared == {"fill<float>": [256], "fill<double>": [512]}


def test_a_file_that_defines_its_own_namesake_kernel_launches_that_one(tmp_path):
    """Two programs in one folder each define a ``static`` kernel ``step``; ``b.cu`` launches its own.  ``a.cu``'s
    ``step`` takes none of ``b.cu``'s launches (it is searched), and ``b.cu``'s takes them."""
    from simu.api import load_source
    from simu.host.contracts import kernel_contracts

    (tmp_path / "a.cu").write_text("""#include <cuda_runtime.h>
static __global__ void step(float *x, int n) { __shared__ float s[64]; s[threadIdx.x] = x[threadIdx.x]; }
void run_a(float *x) { }
""")
    (tmp_path / "b.cu").write_text("""#include <cuda_runtime.h>
static __global__ void step(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
int main() { float *x; cudaMalloc(&x, 1000 * sizeof(float)); step<<<4, 256>>>(x, 1000); return 0; }
""")
    found = {}
    for name in ("a.cu", "b.cu"):
        path = tmp_path / name
        module = load_source(path.read_text(), "cuda", path=str(path))
        found[name] = [c.block for c in kernel_contracts(path, module.kernels[0], None).contracts]
    assert found == {"a.cu": [], "b.cu": [(256, 1, 1)]}


REBUILT_HOST = """#include <CL/cl.h>
char *load(const char *name);
int main(void) {
    cl_int err; cl_context ctx; cl_command_queue q;
    char *src = load("../a.cl");
    cl_program program = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    cl_kernel kernel = clCreateKernel(program, "mmul", &err);
    const size_t global[1] = {1024}, local[1] = {64};
    clEnqueueNDRangeKernel(q, kernel, 1, NULL, global, local, 0, NULL, NULL);
    src = load("../b.cl");
    program = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
    kernel = clCreateKernel(program, "mmul", &err);
    const size_t global2[1] = {512}, local2[1] = {32};
    clEnqueueNDRangeKernel(q, kernel, 1, NULL, global2, local2, 0, NULL, NULL);
    return 0;
}
"""


def test_a_program_variable_rebuilt_from_another_cl_file_launches_each_files_kernel_once(tmp_path):
    """One ``program``/``kernel`` pair reused for two ``.cl`` files, each defining ``mmul``: each file's
    kernel takes the launch made after its own build, not the other file's."""
    (tmp_path / "C").mkdir()
    host = tmp_path / "C" / "main.c"
    host.write_text(REBUILT_HOST)
    index = build_host_index(tmp_path, [host])
    for cl_file, block, line in (("a.cl", 64, 10), ("b.cl", 32, 16)):
        ((c, origin),) = host_constraints(index, "mmul", [("A", 4)], cl_file=cl_file, api="opencl")
        assert origin == f"host launch at C/main.c:{line}" and c.block == (block, 1, 1)


# a curve-fitting library's launch: the block built member by member, a branch adding to it
PIECES = r"""
__global__ void values(const float *params, float *out, int n_fits, int n_points, int per_block, int pieces) {
    int fit_in_block = threadIdx.x / n_points;
    int fit = blockIdx.x * per_block / pieces + fit_in_block;
    int piece = blockIdx.x % pieces;
    int point = threadIdx.x - fit_in_block * n_points + piece * blockDim.x;
    if (fit >= n_fits || point >= n_points) return;
    out[fit * n_points + point] = params[fit] * point;
}
void run(const float *params, float *out, int n_fits, int n_points, int per_block, int pieces) {
    dim3 threads(1, 1, 1);
    dim3 blocks(1, 1, 1);
    threads.x = n_points * per_block / pieces;
    if (pieces > 1)
        threads.x += n_points % threads.x;
    blocks.x = n_fits / per_block * pieces;
    values<<<blocks, threads>>>(params, out, n_fits, n_points, per_block, pieces);
}
"""


def test_a_block_member_a_branch_adds_to_is_not_fixed_to_one_branchs_relation(tmp_path):
    """``threads.x = n * k / b; if (b > 1) threads.x += n % threads.x``: either branch's relation without its
    condition would make launches the program does not (the second at ``b = 1``), so no contract takes one; the
    grid keeps its relation."""
    _, index = _index(tmp_path, PIECES)
    found = host_constraints(index, "values", [("params", 4), ("out", 4), ("n_fits", None), ("n_points", None),
                                               ("per_block", None), ("pieces", None)])
    assert found and all("n_points" not in c.dims.get("block.x", "") for c, _ in found)
    assert all(c.dims.get("grid.x") == "n_fits/per_block*pieces" for c, _ in found)


def test_a_launch_signature_matches_its_kernels_types_whatever_the_qualifiers_and_namespaces():
    """clang's type of the launched instantiation (``void (const size_t *const __restrict, const ns::Info *, int)``)
    against the kernel's parameter types from the debug information: qualifiers, ``__restrict`` and namespaces
    aside, the same words, so the launch stays the kernel's."""
    from simu.host.ast.nodes import param_words as _param_types

    host = _param_types("void (const size_t *const __restrict, const pulsar::IntersectInfo *const __restrict, int)")
    assert host == _param_types("(const size_t *, const IntersectInfo *, int)") == \
        ("size_t", "*", ",", "IntersectInfo", "*", ",", "int")
    assert _param_types("void (const int, float *)") == _param_types("(int, float*)")
