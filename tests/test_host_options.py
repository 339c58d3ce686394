"""Build options host code assembles in C/C++ (simu.host.options) and the values a scan assumes for the parts
computed at run time (simu.scan.assume): small host files and kernels of our own, end to end through
``simu scan DIR``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from simu.cli import app
from simu.host.cscan import CSource
from simu.host.options import HOLE, OptionHarvest, define_hints, names_source, param_marker
from simu.scan.assume import mark_findings, resolve

runner = CliRunner()


def _values(code: str, expr: str) -> list[str]:
    src = CSource(code + "\n__END__;\n}")
    return OptionHarvest(src).values(expr, src.code.index("__END__"))


@pytest.mark.parametrize(("code", "expr", "expected"), [
    ("void f(int rows) { std::ostringstream o; o << \"-DLROWS=\" << rows << \" -DK=\" << 3;",
     "o.str().c_str()", [f"-DLROWS={param_marker(0)} -DK=3"]),
    ("const int W = 8; void f(std::string t) { std::string s = \"-DN=\" + std::to_string(W) + \" -DT=\" + t;",
     "s.c_str()", [f"-DN=8 -DT={param_marker(0)}"]),
    ("void f(int k) { char b[64]; snprintf(b, sizeof(b), \"-DB=%d -DK=%d\", 32, k);", "b", [f"-DB=32 -DK={HOLE}"]),
    ("struct S { int rows; void f() { std::ostringstream o; o << \"-DR=\" << rows;", "o", [f"-DR={HOLE}"]),
    ("void f(int n) { std::string o = \"-DA=1\"; o += \" -DB=\" + std::to_string(n);", "o", [f"-DA=1 -DB={HOLE}"]),
    ("void f(bool d) { std::string p; if (d) { p = \"DOUBLE\"; } else { p = \"SINGLE\"; } std::string o = \"-D\" + p;",
     "o", ["-DDOUBLE", "-DSINGLE"]),
])
def test_partial_values(code, expr, expected):
    assert _values(code, expr) == expected


def test_names_source_and_hints():
    assert names_source("cl_source_gemmN", "gemmN") and names_source("ethash_cl", "ethash")
    assert names_source("cl_source_gr_base", "gr_base") and not names_source("cl_source_ratt2", "ratt")
    assert not names_source("sort_keys", "sort")
    assert define_hints(CSource('s = "-DN_GP=" + x + " -DDIM=4 -DFAST";')) == (f"N_GP={HOLE}", "DIM=4", "FAST")


def test_resolve_assumes_values_by_use():
    cf, assumed = resolve(f"-DTILE={HOLE} -DREAL={HOLE} -D{HOLE} -DN=4 {param_marker(2)}",
                          "__kernel void k(__global REAL *a) { a[TILE] = 0; }", {})
    assert cf.defines == ("TILE=16", "REAL=float", "N=4") and assumed == ["TILE=16", "REAL=float"]
    cf, assumed = resolve(f"-DTILE={HOLE}", "", {"TILE": {HOLE, "32"}})
    assert cf.defines == ("TILE=32",) and assumed == ["TILE=32"]


def test_marked_findings_name_the_values_and_stay_below_error():
    from simu.detect.finding import Finding

    (f,) = mark_findings([Finding("race", "error", "k", "a race")], ("N=16",))
    assert f.severity == "warning" and "assuming N=16" in f.message and f.detail["assumed"] == ["N=16"]


# --------------------------------------------------------------------------------------------------------
# end to end: one project, one host pattern per kernel file

STREAM_CL = """
__kernel void rows(__global float *o) {
    __local float t[LROWS];
    int i = get_local_id(0) % LROWS;
    t[i] = SCALE * i;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[(i + 1) % LROWS];
}
__kernel void racy(__global int *o) { o[0] = get_global_id(0); }
"""
STREAM_CPP = """
#include <sstream>
void build_rows(cl_context ctx, cl_device_id dev, int rows) {
    const char *src = load("stream.cl");
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    std::ostringstream opts;
    opts << "-DLROWS=" << rows << " -DSCALE=" << 3;
    clBuildProgram(prog, 1, &dev, opts.str().c_str(), NULL, NULL);
}
"""
PLUS_CL = "__kernel void plus(__global T *o) { o[get_global_id(0) % N] = (T)N; }\n"
PLUS_CPP = """
const int WIDTH = 8;
void build_plus(cl_context ctx, cl_device_id dev, std::string typeName) {
    const char *src = load("plus.cl");
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    std::string flags = "-DN=" + std::to_string(WIDTH) + " -DT=" + typeName;
    clBuildProgram(prog, 1, &dev, flags.c_str(), NULL, NULL);
}
"""
PRINTF_CL = "__kernel void printed(__global int *o) { o[get_global_id(0)] = BLOCK + K; }\n"
PRINTF_C = """
void build_printed(cl_context ctx, cl_device_id dev, int k) {
    const char *src = load("printf.cl");
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    char opts[128];
    snprintf(opts, sizeof(opts), "-DBLOCK=%d -DK=%d", 32, k);
    clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
}
"""
APPEND_CL = "__kernel void appended(__global int *o) { o[get_global_id(0)] = A + B; }\n"
APPEND_CPP = """
void build_appended(cl_context ctx, cl_device_id dev) {
    const char *src = load("append.cl");
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    std::string o = "-DA=1";
    o += " -DB=" + std::to_string(2 * 3);
    clBuildProgram(prog, 1, &dev, o.c_str(), NULL, NULL);
}
"""
PREPEND_CL = """
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void prepended(__global uint *o) { __local uint s[WG]; s[get_local_id(0)] = COUNT;
    barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = s[WG - 1 - get_local_id(0)]; }
"""
PREPEND_CPP = """
extern const char prepend_cl[];
static void addDefinition(std::string& source, const char* id, unsigned value) {
    char buf[64];
    sprintf(buf, "#define %s %uu\\n", id, value);
    source.insert(0, buf);
}
void build_prepended(cl_context ctx, cl_device_id dev, unsigned wg) {
    std::string code(prepend_cl);
    addDefinition(code, "WG", wg);
    addDefinition(code, "COUNT", 4);
    const char *p = code.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &p, NULL, NULL);
    clBuildProgram(prog, 0, NULL, NULL, NULL, NULL);
}
"""
WRAPPED_CL = """
#ifdef USE_FLOAT
#define REAL float
#elif defined(USE_INT)
#define REAL int
#endif
__kernel void wrapped(__global REAL *o) { o[get_global_id(0)] = (REAL)W; }
"""
WRAPPED_CPP = """
extern const char *cl_source_wrapped;
template <class T> void runTest(cl_context ctx, const std::string& flags) {
    cl_program prog = clCreateProgramWithSource(ctx, 1, &cl_source_wrapped, NULL, NULL);
    std::string all = flags + " -DW=4";
    clBuildProgram(prog, 0, NULL, all.c_str(), NULL, NULL);
}
void RunBenchmark(cl_context ctx) {
    runTest<float>(ctx, "-DUSE_FLOAT");
    runTest<int>(ctx, "-DUSE_INT ");
}
"""
ORPHAN_CL = "__kernel void orphan(__global int *o) { o[get_global_id(0)] = UNKNOWN_SIZE; }\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("proj")
    files = {"kernels/stream.cl": STREAM_CL, "host/stream.cpp": STREAM_CPP, "kernels/plus.cl": PLUS_CL,
             "host/plus.cpp": PLUS_CPP, "kernels/printf.cl": PRINTF_CL, "host/printf.c": PRINTF_C,
             "kernels/append.cl": APPEND_CL, "host/append.cpp": APPEND_CPP, "kernels/prepend.cl": PREPEND_CL,
             "host/prepend.cpp": PREPEND_CPP, "kernels/wrapped.cl": WRAPPED_CL, "host/wrapped.cpp": WRAPPED_CPP,
             "kernels/orphan.cl": ORPHAN_CL}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    res = runner.invoke(app, ["scan", str(root), "--format", "json", "--no-cache", "-j", "1", "--budget", "1"])
    assert res.exit_code in (0, 1, 2), res.output
    return json.loads(res.stdout)


def _kernel(report, name):
    return next((f, k) for f in report["files"] for k in f["kernels"] if k["name"] == name)


@pytest.mark.parametrize("name", ["rows", "plus", "printed", "appended", "prepended", "wrapped[USE_FLOAT]",
                                  "wrapped[USE_INT]"])
def test_each_host_pattern_compiles_its_kernel(report, name):
    f, k = _kernel(report, name)
    assert f["status"] == "ok" and k["status"] in ("analysed", "incomplete"), (f["diagnostic"], k["reason"])


def test_assumptions_are_named_in_the_warnings(report):
    warnings = "\n".join(report["warnings"])
    assert "kernels/stream.cl: the host code computes LROWS at run time" in warnings
    assert "assuming LROWS=16" in warnings and "SCALE" not in warnings  # SCALE=3 is a constant
    assert "assuming T=float" in warnings and "assuming K=16" in warnings and "assuming WG=16" in warnings
    assert "append.cl" not in warnings  # every value known


def test_findings_of_an_assumed_kernel_say_so(report):
    _, k = _kernel(report, "racy")
    assert k["findings"], k
    for finding in k["findings"]:
        assert finding["severity"] != "error" and finding["detail"]["assumed"] == ["LROWS=16"]
        assert "compiled assuming LROWS=16" in finding["message"]


def test_a_name_no_host_code_gives_is_not_assumed(report):
    f = next(f for f in report["files"] if f["path"] == "kernels/orphan.cl")
    assert f["status"] == "compile-error" and "UNKNOWN_SIZE" in f["diagnostic"]
