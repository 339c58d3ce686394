"""The host-code index: OpenCL programs, build options, kernels, arguments and NDRanges read from host
C/C++ files of small projects written here."""

from __future__ import annotations

import pytest

from simu.host import build_host_index, parse_build_options
from simu.host.cscan import CSource
from simu.host.cvalues import Evaluator
from simu.host.index import CACHE_NAME, index_host_file


def _index(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text)
    return index_host_file(p, name)


def _build_options(tmp_path, decls: str, arg: str) -> str | None:
    h = _index(tmp_path, "host.cpp", f"""#include <CL/cl.h>
#include <string>
{decls}
void build(cl_program prog, cl_device_id dev) {{
  cl_int err = clBuildProgram(prog, 1, &dev, {arg}, NULL, NULL);
}}
""")
    (site,) = h.builds
    return site.options


OPTION_FORMS = [
    ("", '"-D TILE=64 -DN=4"', "-D TILE=64 -DN=4"),
    ("", '"-D TILE=64 "\n    "-DN=4"', "-D TILE=64 -DN=4"),
    ('#define OPTS "-D TILE=" "64"', "OPTS", "-D TILE=64"),
    ('#define OPTS "-D TILE=64 -I ."', "OPTS", "-D TILE=64 -I ."),
    ('char opts[] = "-D BLOCK_SIZE=16";', "opts", "-D BLOCK_SIZE=16"),
    ('const char *opts = "-DT=float";', "opts", "-DT=float"),
    ('#define BS 16\nconst int NN = 4;\nstd::string opts = std::string("-D BS=") + std::to_string(BS) + '
     '" -D N=" + std::to_string(NN * 2);', "opts.c_str()", "-D BS=16 -D N=8"),
    ('std::string opts = "-D A=1";\nvoid f() { opts += " -D B=2"; opts.append(" -D C=3"); }', "opts.c_str()",
     "-D A=1 -D B=2 -D C=3"),
    ('char opts[64];\nvoid f() { sprintf(opts, "-D N=%d -D T=%s", 16, "float"); }', "opts", "-D N=16 -D T=float"),
    ('#define W 8\nchar opts[64];\nvoid f() { snprintf(opts, sizeof(opts), "-DW=%u -DH=%ld", W * 2, 4L); }',
     "opts", "-DW=16 -DH=4"),
    ('char opts[64] = "-D A=1";\nvoid f() { strcat(opts, " -D B=2"); }', "opts", "-D A=1 -D B=2"),
    ("", "NULL", ""),
    ("", "nullptr", ""),
    ("", "user_options", None),  # not recoverable: recorded as text
]


@pytest.mark.parametrize(("decls", "arg", "expected"), OPTION_FORMS)
def test_build_option_forms(tmp_path, decls, arg, expected):
    assert _build_options(tmp_path, decls, arg) == expected


def test_program_source_file_and_sites(tmp_path):
    h = _index(tmp_path, "main.c", """
#include <stdio.h>
#include <CL/cl.h>
#define LOCAL 64
static char *read_all(const char *name) { FILE *f = fopen(name, "rb"); /* ... */ return 0; }
int main(void) {
  cl_int err;
  // clBuildProgram(p, 0, NULL, "-D IN_A_COMMENT", NULL, NULL);
  char *a_src = read_all("../kernels/scale.cl");
  cl_program a = clCreateProgramWithSource(ctx, 1, (const char **)&a_src, NULL, &err);
  char *b_src = read_all("reduce.cl");
  cl_program b = clCreateProgramWithSource(ctx, 1, (const char **)&b_src, NULL, &err);
  clBuildProgram(a, 1, &dev, "-D FACTOR=3", NULL, NULL);
  clBuildProgram(b, 1, &dev, "-D LOCAL=64", NULL, NULL);
  cl_kernel ks = clCreateKernel(a, "scale", &err);
  cl_kernel kr = clCreateKernel(b, "reduce", &err);
  int n = 4096;
  float f = 2.5f;
  clSetKernelArg(kr, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(kr, 1, sizeof(int), &n);
  clSetKernelArg(kr, 2, LOCAL * sizeof(float), NULL);
  size_t global[2] = {1024, 16};
  size_t local[2] = {LOCAL, 1};
  global[1] = n / 256;
  clEnqueueNDRangeKernel(queue, kr, 2, NULL, global, local, 0, NULL, NULL);
  size_t gsize = n;
  clEnqueueNDRangeKernel(queue, ks, 1, NULL, &gsize, NULL, 0, NULL, NULL);
  clEnqueueNDRangeKernel(queue, ks, 1, NULL, sizes_from_user, NULL, 0, NULL, NULL);
  return 0;
}
""")
    assert h.cl_files == ("reduce.cl", "scale.cl")
    assert [(b.line, b.program, b.sources, b.options) for b in h.builds] == [
        (13, "a", ("scale.cl",), "-D FACTOR=3"), (14, "b", ("reduce.cl",), "-D LOCAL=64")]
    assert [(k.var, k.program, k.name) for k in h.kernels] == [("ks", "a", "scale"), ("kr", "b", "reduce")]
    assert [(a.kernel, a.index, a.size_text, a.value_text, a.value) for a in h.args] == [
        ("kr", 0, "sizeof(cl_mem)", "&buf", None), ("kr", 1, "sizeof(int)", "&n", 4096),
        ("kr", 2, "LOCAL * sizeof(float)", "NULL", None)]
    l1, l2, l3 = h.launches
    assert (l1.kernel_name, l1.work_dim, l1.global_text, l1.global_size, l1.local_size) == (
        "reduce", 2, "global", (1024, 16), (64, 1))
    assert (l2.kernel_name, l2.work_dim, l2.global_init, l2.global_size, l2.local_text, l2.local_size) == (
        "scale", 1, "n", (4096,), "NULL", None)
    assert (l3.global_text, l3.global_size) == ("sizes_from_user", None)


def test_source_named_by_ifstream_define_and_include(tmp_path):
    h = _index(tmp_path, "app.cpp", """
#include <fstream>
#include <CL/cl.h>
#define KERNEL_FILE "kernels/blur.cl"
const char *embedded =
#include "copy.cl"
;
void run() {
  std::ifstream in(KERNEL_FILE);
  cl_program p1 = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  clBuildProgram(p1, 0, NULL, "-D R=2", NULL, NULL);
}
""")
    assert h.cl_files == ("blur.cl", "copy.cl")
    assert h.builds[0].sources == ("copy.cl",)  # the last .cl named before the program is created


def test_cpp_wrapper(tmp_path):
    h = _index(tmp_path, "wrap.cpp", """
#include <CL/opencl.hpp>
void run() {
  std::string src = load("saxpy.cl");
  cl::Program program(context, src);
  program.build(devices, "-D ALPHA=2");
  cl::Kernel k(program, "saxpy");
}
""")
    assert [(b.program, b.sources, b.options) for b in h.builds] == [("program", ("saxpy.cl",), "-D ALPHA=2")]
    assert [(k.var, k.name) for k in h.kernels] == [("k", "saxpy")]


def test_parse_build_options():
    f = parse_build_options('-D TILE=16 -DN=4 -D "NAME=a b" -I inc -Iother -U OLD -cl-std=CL2.0 '
                            '-cl-mad-enable -cl-fast-relaxed-math -w -Werror')
    assert f.defines == ("TILE=16", "N=4", "NAME=a b", "__FAST_RELAXED_MATH__")
    assert f.include_dirs == ("inc", "other")
    assert f.clang_args == ("-UOLD", "-cl-std=CL2.0")
    assert f.dropped == ("-cl-mad-enable", "-w", "-Werror")


@pytest.mark.parametrize(("expr", "value"), [
    ("16", 16), ("0x10u", 16), ("(BS + 1) * 2", 34), ("NN << 2", 16), ("-7 / 2", -3), ("7 % 3", 1),
    ("sizeof(float) * 4", 16), ("(size_t)BS", 16), ("BS > 8 && NN", 1), ("unknown + 1", None),
])
def test_integer_evaluator(expr, value):
    src = CSource("#define BS 16\nconst int NN = 4;\nint main() { return 0; }\n")
    assert Evaluator(src).int_value(expr, len(src.code)) == value


def test_index_is_cached_by_file_stamp(tmp_path, monkeypatch):
    from simu.host import index as index_module

    host = tmp_path / "host.c"
    host.write_text('void f() { char *s = read("k.cl"); clBuildProgram(p, 0, NULL, "-D A=1", NULL, NULL); }\n')
    cache = tmp_path / "cache"
    first = build_host_index(tmp_path, [host], cache)
    assert (cache / CACHE_NAME).is_file() and first.files[0].builds[0].options == "-D A=1"

    def no_reading(*a, **k):
        raise AssertionError("an unchanged host file was read again")

    monkeypatch.setattr(index_module, "index_host_file", no_reading)
    again = build_host_index(tmp_path, [host], cache)
    assert again.files == first.files
    monkeypatch.undo()
    host.write_text('void f() { char *s = read("k.cl"); clBuildProgram(p, 0, NULL, "-D A=2 ", NULL, NULL); }\n')
    assert build_host_index(tmp_path, [host], cache).files[0].builds[0].options == "-D A=2 "


def test_builds_of_matches_the_nearest_cl_file_of_that_name(tmp_path):
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "k.cl").write_text("__kernel void k() {}\n")
        (tmp_path / d / "host.c").write_text(f'void f() {{ read("k.cl"); clBuildProgram(p, 0, 0, "-D D={d}", 0, 0); }}')
    idx = build_host_index(tmp_path, [tmp_path / "a" / "host.c", tmp_path / "b" / "host.c"])
    cls = [tmp_path / "a" / "k.cl", tmp_path / "b" / "k.cl"]
    assert [b.options for b in idx.builds_of(cls[0], cls)] == ["-D D=a"]
    assert [b.options for b in idx.builds_of(cls[1], cls)] == ["-D D=b"]


@pytest.mark.parametrize("language", ["c", "c++"])
def test_shipped_opencl_host_header_parses_host_code(tmp_path, language):
    """simu's CL/cl.h declares what host code uses, so that host code parses without an OpenCL SDK."""
    import subprocess

    from simu.frontend.toolchain import clang_command
    from simu.host.index import OPENCL_HOST_INCLUDE

    host = tmp_path / "host.c"
    host.write_text("""#include <CL/opencl.h>
#include <OpenCL/opencl.h>
int main(void) {
  cl_int err; cl_platform_id plat; cl_device_id dev;
  err = clGetPlatformIDs(1, &plat, NULL);
  err |= clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  const char *src = "__kernel void k(__global float *a, int n) {}";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  err = clBuildProgram(p, 1, &dev, "-D TILE=64", NULL, NULL);
  cl_kernel k = clCreateKernel(p, "k", &err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 1024 * sizeof(float), NULL, &err);
  int n = 4;
  cl_float4 v; v.x = 1.0f; v.s[3] = 2.0f;
  clSetKernelArg(k, 0, sizeof(cl_mem), &buf);
  clSetKernelArg(k, 1, sizeof(int), &n);
  __SIZE_TYPE__ g[2] = {1024, 1}, l[2] = {64, 1};
  err = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL);
  clFinish(q);
  clReleaseKernel(k); clReleaseProgram(p); clReleaseMemObject(buf);
  return err == CL_SUCCESS ? 0 : 1;
}
""")
    proc = subprocess.run(clang_command() + ["-fsyntax-only", "-Wall", "-Werror", "-x", language, "-isystem",
                                             str(OPENCL_HOST_INCLUDE), str(host)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_builds_through_a_wrapper_function_in_another_file(tmp_path):
    util = tmp_path / "ocl_util.c"
    util.write_text("""#include <CL/cl.h>
char *read_file(const char *name);
cl_program build_program(cl_context ctx, cl_device_id dev, const char *file, const char *options) {
  char *src = read_file(file);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, NULL);
  clBuildProgram(p, 1, &dev, options, NULL, NULL);
  return p;
}
cl_program build_fixed(cl_context ctx, cl_device_id dev, const char *file) {
  char *src = read_file(file);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, NULL);
  clBuildProgram(p, 1, &dev, "-D FIXED=1", NULL, NULL);
  return p;
}
void unrelated(void) { char *s = read_file("other.cl"); }
""")
    main = tmp_path / "main.cpp"
    main.write_text("""#include <string>
#define OPTS_B "-D TILE=" "32"
const int N = 8;
int main() {
  cl_program a = build_program(ctx, dev, "kernels/a.cl", "-D TILE=16");
  std::string opts = "-D N=" + std::to_string(N);
  cl_program b = build_program(ctx, dev, "kernels/b.cl", opts.c_str());
  cl_program c = build_program(ctx, dev, "kernels/b.cl", OPTS_B);
  cl_program d = build_fixed(ctx, dev, "c.cl");
}
""")
    idx = build_host_index(tmp_path, [util, main])
    (w1, w2) = idx.files[1].wrappers if idx.files[1].path == "ocl_util.c" else idx.files[0].wrappers
    assert (w1.function, w1.options_index, w2.function, w2.options_index) == ("build_program", 3, "build_fixed", None)
    wrapped = [(b.file, b.line, b.sources, b.options) for b in idx.wrapped]
    assert wrapped == [("main.cpp", 5, ("a.cl",), "-D TILE=16"), ("main.cpp", 7, ("b.cl",), "-D N=8"),
                       ("main.cpp", 8, ("b.cl",), "-D TILE=32"), ("main.cpp", 9, ("c.cl",), "-D FIXED=1")]
    # the build inside the wrapper names no .cl file of its own (other.cl is in another function)
    assert all(b.sources == () for h in idx.files for b in h.builds)


def test_cpp_wrapper_arguments_and_launches(tmp_path):
    h = _index(tmp_path, "run.cpp", """
#include <CL/opencl.hpp>
#define WG 64
void run(cl::CommandQueue &queue, cl::Program &program, cl::Buffer &buf, int n) {
  cl::Kernel k(program, "scale");
  k.setArg(0, buf);
  k.setArg(1, 4 * WG);
  cl::NDRange global(1024, 8);
  queue.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(WG, 1));
  queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n));
}
""")
    assert [(a.kernel, a.index, a.value_text, a.value) for a in h.args] == [
        ("k", 0, "buf", None), ("k", 1, "4 * WG", 256)]
    l1, l2 = h.launches
    assert (l1.kernel_name, l1.work_dim, l1.global_size, l1.local_size) == ("scale", 2, (1024, 8), (64, 1))
    assert (l2.global_text, l2.global_size, l2.local_size) == ("cl::NDRange(n)", (None,), None)


def test_an_array_element_assigned_after_its_initializer_is_not_the_initializer_s():
    src = CSource("void f(int rank, const int *x) {\n  size_t dims[4] = {1, 1, 1, 1};\n  size_t keep[2] = {8, 4};\n"
                  "  for (int j = 0; j < rank; j++) dims[4 - rank + j] = x[j];\n  use(dims[1], keep[1]);\n}\n")
    ev, at = Evaluator(src), src.code.index("use(")
    assert ev.int_value("dims[1]", at) is None  # a loop wrote the element: the {1, 1, 1, 1} is stale
    assert ev.int_value("keep[1]", at) == 4
