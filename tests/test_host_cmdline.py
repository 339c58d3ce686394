"""Values a host program computes from its command line, read at their defaults (simu.host.cmdline), and
launches inside function templates resolved per instantiation."""

from __future__ import annotations

import subprocess
from pathlib import Path

from simu.host.cmdline import merge_defaults, option_defaults, with_defaults
from simu.host.contracts import contracts_for, template_args
from simu.host.cscan import CSource
from simu.host.cuda import extract_cuda
from simu.host.index import build_host_index


def test_option_registrations_give_their_defaults():
    shoc = 'op.addOption("size", OPT_INT, "1", "problem size", \'s\'); op.addOption("name", OPT_STRING, "x", "");'
    boost = 'desc.add_options()("help", "show")("n,count", po::value<int>()->default_value(64), "count");'
    assert option_defaults(shoc) == {"size": "1"}
    assert option_defaults(boost) == {"count": "64"}
    assert option_defaults('DEFINE_int32(batch, 32, "batch size");') == {"FLAGS_batch": "32"}
    assert merge_defaults([{"size": "1", "it": "10"}, {"it": "256"}]) == {"size": "1"}  # it: two defaults


def test_option_reads_and_command_line_conditionals_take_the_default():
    used: set[str] = set()
    assert with_defaults('sizes[op.getOptionInt("size") - 1]', {"size": "1"}, used) == "sizes[(1) - 1]"
    assert with_defaults('vm["count"].as<int>() * 4', {"count": "64"}, used) == "(64) * 4"
    assert used == {"size", "count"}
    assert with_defaults("argc > 1 ? atoi(argv[1]) : 1024", {}, used) == "1024"
    assert with_defaults('op.getOptionInt("other")', {"size": "1"}, set()) == 'op.getOptionInt("other")'


PROGRAM = r"""
__global__ void k(float *x, int n) {}
int main(int argc, char **argv) {
    int n = 1 << 20;
    if (argc > 1) n = atoi(argv[1]);
    int m = argc > 2 ? atoi(argv[2]) : 4096;
    int w = 64, opt;
    while ((opt = getopt(argc, argv, "w:")) != -1) { switch (opt) { case 'w': w = atoi(optarg); break; } }
    int fixed = 256;
    if (argc > 3) fixed = 512;
    float *x; cudaMalloc(&x, n * sizeof(float));
    k<<<(n + 255) / 256, 256>>>(x, n);
    k<<<m / 256, 256>>>(x, m);
    k<<<w, 32>>>(x, w);
    k<<<1, fixed>>>(x, fixed);
}
"""


def test_values_read_from_the_command_line_take_their_defaults():
    a, b, c, d = extract_cuda(CSource(PROGRAM), "main.cu")
    assert a.grid == (4096, 1, 1) and a.args == (None, 1 << 20) and a.defaults == ("n",)
    assert b.grid == (16, 1, 1) and b.args == (None, 4096) and "m" in b.defaults
    assert c.grid == (64, 1, 1) and c.args == (None, 64) and "w" in c.defaults
    assert d.block is None and "fixed" not in d.defaults  # a branch that reads no command line: no value


TEMPLATE = r"""
template <class T, int B> __global__ void reduce(const T *in, T *out, int n) {}
template <class T> void RunTest(OptionParser &op) {
    int prob_sizes[4] = { 1, 8, 32, 64 };
    int size = prob_sizes[op.getOptionInt("size") - 1];
    size = (size * 1024 * 1024) / sizeof(T);
    T *d, *o;
    cudaMalloc((void **)&d, size * sizeof(T));
    cudaMalloc((void **)&o, 64 * sizeof(T));
    reduce<T, 256><<<64, 256, 256 * sizeof(T)>>>(d, o, size);
}
void RunBenchmark(OptionParser &op) { RunTest<float>(op); RunTest<double>(op); }
"""


def _git(tmp: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp, check=True)


def test_template_launches_bind_each_instantiation_and_options_come_from_other_files(tmp_path: Path):
    _git(tmp_path)
    (tmp_path / "Reduction.cu").write_text(TEMPLATE)
    (tmp_path / "main.cpp").write_text('void add(OptionParser &op) { op.addOption("size", OPT_INT, "1", "s"); }')
    files = [tmp_path / "Reduction.cu", tmp_path / "main.cpp"]
    index = build_host_index(tmp_path, files)
    d, f = sorted(index.cuda_launches_of("reduce"), key=lambda x: x.targs)
    assert (d.targs, d.args[2], d.shmem) == ("double,256", 131072, 2048)
    assert (f.targs, f.args[2], f.shmem) == ("float,256", 262144, 1024)
    assert f.defaults == ("size",)
    params = [("in", 4), ("out", 4), ("n", None)]
    (c,) = contracts_for(index, "reduce<float, 256>", params, None).contracts
    assert c.args == {"n": 262144} and c.buffer_lengths["in"] == "262144"
    assert c.origin.endswith("(with the command line's defaults: size)")
    (c,) = contracts_for(index, "reduce<double, 256>", [("in", 8), ("out", 8), ("n", None)], None).contracts
    assert c.args == {"n": 131072}
    assert template_args("ns::reduce<float, 256>(float const*, float*, int)") == "float,256"
    assert template_args("k(float*)") == ""


def test_a_launch_in_a_template_nobody_instantiates_here_names_no_instantiation():
    src = CSource("template <class T> __global__ void k(T *x) {}\n"
                  "template <class T> void run(T *x) { k<T><<<1, 64>>>(x); }\n"
                  "void f(float *a) { k<float><<<2, 32>>>(a); }\n")
    inside, plain = extract_cuda(src, "a.cu")
    assert inside.targs == "" and plain.targs == "float"


def test_opencl_argument_values_from_the_command_line_take_their_defaults(tmp_path: Path):
    (tmp_path / "host.c").write_text(
        "#include <CL/cl.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n"
        "  cl_program prog; cl_command_queue q; cl_int err;\n"
        "  cl_kernel k = clCreateKernel(prog, \"scale\", &err);\n"
        "  int n = 4096;\n  if (argc > 1) n = atoi(argv[1]);\n"
        "  cl_mem x = clCreateBuffer(0, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);\n"
        "  clSetKernelArg(k, 0, sizeof(cl_mem), &x);\n  clSetKernelArg(k, 1, sizeof(int), &n);\n"
        "  size_t global = 4096, local = 64;\n"
        "  clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);\n  return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "host.c"])
    (c,) = contracts_for(index, "scale", [("x", 4), ("n", None)], None, api="opencl").contracts
    assert c.args == {"n": 4096} and c.grid == (64, 1, 1)
    assert c.origin.endswith("(with the command line's defaults: n)")


TP = r"""
template <class T, int B> __global__ void reduce(const T *in, T *out, int n) {}
template <class T> void RunTestLaunchKernel(int blocks, int threads, T *in, T *out, int size) {
    reduce<T, 256><<<blocks, threads>>>(in, out, size);
}
"""

TP_CALLER = r"""
template <class T> void RunTest(OptionParser &op) {
    int prob_sizes[4] = { 1, 8, 32, 64 };
    int size = prob_sizes[op.getOptionInt("size") - 1];
    size = (size * 1024 * 1024) / sizeof(T);
    T *d, *o;
    RunTestLaunchKernel<T>(64, 256, d, o, size);
}
void RunBenchmark(OptionParser &op) { RunTest<float>(op); RunTest<double>(op); }
void add(OptionParser &op) { op.addOption("size", OPT_INT, "1", "s"); }
"""


def test_a_template_wrapper_called_from_a_template_launches_each_instantiation(tmp_path: Path):
    (tmp_path / "launch.cu").write_text(TP)
    (tmp_path / "test.cpp").write_text(TP_CALLER)
    index = build_host_index(tmp_path, [tmp_path / "launch.cu", tmp_path / "test.cpp"])
    got = sorted((x.targs, x.args[2], x.file) for x in index.cuda_launches_of("reduce"))
    assert got == [("double,256", 131072, "test.cpp"), ("float,256", 262144, "test.cpp")]


def test_a_zero_or_negative_placeholder_before_a_command_line_value_is_no_default():
    src = CSource("__global__ void k(float *x, int n) {}\n"
                  "int main(int argc, char **argv) {\n  int n = 0;\n  if (argc > 1) n = atoi(argv[1]);\n"
                  "  int m = -1;\n  if (argc > 2) m = atoi(argv[2]);\n  if (n == 0) return 1;\n"
                  "  float *x;\n  k<<<(n + 255) / 256, 256>>>(x, n);\n  k<<<1, 64>>>(x, m);\n}\n")
    first, second = extract_cuda(src, "main.cu")
    assert first.args == (None, None) and first.grid is None and first.defaults == ()
    assert second.args == (None, None) and second.defaults == ()


BRANCHES = r"""
#define USE_BIG 1
__global__ void k(float *x, int n) {}
void f(OptionParser &op) {
    int block;
    if (USE_BIG) { block = 256; } else { block = 128; }
    int n;
    if (op.getOptionInt("KiB") == 0)
    {
        int probSizes[4] = { 1, 4, 8, 16 };
        n = probSizes[op.getOptionInt("size") - 1] * 1024 / 4;
    } else {
        n = op.getOptionInt("KiB") * 1024 / 4;
    }
    int m = 7;
    if (USE_BIG) m = 9;
    for (int i = 0; i < 3; i++) { if (USE_BIG) m = 11; }
    int q = 5;
    if (runtime_flag) q = 6;
    float *x;
    k<<<n / block, block>>>(x, n);
    k<<<1, 32>>>(x, m);
    k<<<1, 32>>>(x, q);
}
void add(OptionParser &op) { op.addOption("size", OPT_INT, "1", "s"); op.addOption("KiB", OPT_INT, "0", "k"); }
"""


def test_a_branch_whose_condition_is_constant_runs_or_never_does():
    first, second, third = extract_cuda(CSource(BRANCHES), "a.cu")
    assert first.block == (256, 1, 1) and first.args == (None, 256) and first.grid == (1, 1, 1)
    assert {"KiB", "size"} <= set(first.defaults)
    assert second.args == (None, None)  # m = 11 in a loop after m = 9: not one value
    assert third.args == (None, None)  # a condition known only at run time


OPENCL_TEMPLATE = r"""
template <class T>
void runTest(cl_context ctx, cl_command_queue queue, cl_kernel kern) {
    int N = 16 * 1024 / sizeof(T);
    int lda, ldb;
    lda = ldb = N;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(T) * N, NULL, NULL);
    clSetKernelArg(kern, 0, sizeof(cl_mem), (void *)&a);
    clSetKernelArg(kern, 1, sizeof(int), (void *)&ldb);
    const size_t global[1] = {N};
    const size_t local[1] = {64};
    clEnqueueNDRangeKernel(queue, kern, 1, NULL, global, local, 0, NULL, NULL);
}
void run(cl_context ctx, cl_command_queue q, cl_kernel k) { runTest<float>(ctx, q, k); runTest<double>(ctx, q, k); }
"""


def test_opencl_launches_in_a_function_template_are_made_per_instantiation():
    from simu.host.clbuffers import buffers_in, cl_buffers
    from simu.host.opencl import extract

    src = CSource(OPENCL_TEMPLATE)
    sites = extract(src, "gemm.cpp")
    assert [(s.global_size, s.instance) for s in sites.launches] == [((4096,), "runTest<float>"),
                                                                     ((2048,), "runTest<double>")]
    ldb = [(a.value, a.instance) for a in sites.args if a.index == 1]
    assert ldb == [(4096, "runTest<float>"), (2048, "runTest<double>")]  # lda = ldb = N: a chained assignment
    extra = {"cl_buffers": cl_buffers(src)}
    assert buffers_in(extra, "a", 10, "runTest<double>")["length"] == 2048
    assert buffers_in(extra, "a", 10, "runTest<double>")["elem_bytes"] == 8


def test_an_array_chosen_by_a_constant_condition_is_read_through_its_pointer():
    from simu.host.cvalues import Evaluator

    code = """
template <class real> void RunTest() {
    int sizes_sp[4] = { 24, 32, 40, 48 };
    int sizes_dp[4] = { 16, 24, 32, 40 };
    int *sizes = (sizeof(real) == sizeof(double)) ? sizes_dp : sizes_sp;
    int sizeClass = 0;
    sizeClass = sizes[sizeClass];
    int n = sizeClass * sizeClass * sizeClass;
    use(n);
}
"""
    src = CSource(code)
    ev = Evaluator(src)
    pos = code.index("use(n)")
    ev.types = {"real": "double"}
    assert ev.int_value("n", pos) == 16 ** 3
    ev.types = {"real": "float"}
    assert ev.int_value("n", pos) == 24 ** 3


DEDUCED = r"""
template <class real> __global__ void scale(real *x, const real *w, int n) {}
template <class real> void RunTest() {
    int n = 4096 / sizeof(real);
    real *x, *w;
    cudaMalloc((void **)&x, n * sizeof(real));
    cudaMalloc((void **)&w, 22 * sizeof(real));
    scale<<<n / 128, 128>>>(x, w, n);
}
void RunBenchmark() { RunTest<float>(); RunTest<double>(); }
"""


def test_a_deduced_template_launch_belongs_to_its_own_instantiation(tmp_path: Path):
    """``scale<<<…>>>(x, w, n)`` with ``real *x`` in ``RunTest<double>`` instantiates ``scale<double>``: the launch
    made in ``RunTest<float>`` (22 floats of w, 88 bytes) is not one of ``scale<double>``'s."""
    _git(tmp_path)
    (tmp_path / "s3d.cu").write_text(DEDUCED)
    index = build_host_index(tmp_path, [tmp_path / "s3d.cu"])
    (c,) = contracts_for(index, "scale<double>", [("x", 8), ("w", 8), ("n", None)], None).contracts
    assert c.args == {"n": 512} and c.grid == (4, 1, 1) and c.buffer_lengths["w"] == "22"
    (c,) = contracts_for(index, "scale<float>", [("x", 4), ("w", 4), ("n", None)], None).contracts
    assert c.args == {"n": 1024} and c.buffer_lengths["w"] == "22"


MATRIX_MUL = r"""
template <int BLOCK_SIZE> __global__ void mm(float *C, float *A, float *B, int wA, int wB) {}
int run(int block_size, const dim3 &dimsA, const dim3 &dimsB) {
    float *d_A, *d_B, *d_C;
    dim3 threads(block_size, block_size);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    if (block_size == 16) {
        mm<16><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    } else {
        mm<32><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    }
    return 0;
}
int main(int argc, char **argv) {
    int block_size = 32;
    dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
    dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
    if (checkCmdLineFlag(argc, (const char **)argv, "wA"))
        dimsA.x = getCmdLineArgumentInt(argc, (const char **)argv, "wA");
    return run(block_size, dimsA, dimsB);
}
"""


def test_a_wrapper_branch_its_caller_never_takes_makes_no_launch(tmp_path: Path):
    """The wrapper launches mm<16> only when block_size == 16; main passes 32: mm<32> at a (20, 10) grid of 32x32
    blocks, and mm<16> has no host launch (it is searched, not judged at 32x32 blocks)."""
    _git(tmp_path)
    (tmp_path / "matrixMul.cu").write_text(MATRIX_MUL)
    index = build_host_index(tmp_path, [tmp_path / "matrixMul.cu"])
    (x,) = index.cuda_launches_of("mm")
    assert x.targs == "32" and x.grid == (20, 10, 1) and x.block == (32, 32, 1) and x.args[3:] == (320, 640)
    params = [("C", 4), ("A", 4), ("B", 4), ("wA", None), ("wB", None)]
    assert not contracts_for(index, "mm<16>", params, None).contracts
    (c,) = contracts_for(index, "mm<32>", params, None).contracts
    assert c.grid == (20, 10, 1) and c.args == {"wA": 320, "wB": 640}


def test_an_assert_before_a_reassignment_does_not_drop_the_launch():
    """``assert(sizeClass < 4)`` holds where it stands; read at the launch, after ``sizeClass = sizes[sizeClass]``
    (24), it would be false: the launch is still made. A branch never taken drops its launch."""
    code = r"""
__global__ void k(float *x, int n) {}
#define USE_DOUBLE 0
int main() {
    int sizes[4] = { 24, 32, 40, 48 };
    int sizeClass = 0;
    assert(sizeClass >= 0 && sizeClass < 4);
    sizeClass = sizes[sizeClass];
    int n = sizeClass * sizeClass * sizeClass;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    k<<<n / 128, 128>>>(x, n);
    if (USE_DOUBLE) {
        k<<<1, 32>>>(x, 32);
    }
}
"""
    (x,) = extract_cuda(CSource(code), "s3d.cu")
    assert x.grid == (108, 1, 1) and x.args == (None, 13824)
