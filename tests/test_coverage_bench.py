"""benchmarks/coverage.py: the lexical kernel count, cause normalisation and the source view of a real scan."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("coverage_bench", ROOT / "benchmarks" / "coverage.py")
cov = importlib.util.module_from_spec(spec)
sys.modules["coverage_bench"] = cov
spec.loader.exec_module(cov)


def test_kernel_defs_skip_declarations_comments_strings_and_count_attributes(tmp_path):
    cu = tmp_path / "k.cuh"
    cu.write_text(
        "// __global__ void commented(int *a) {}\n"
        "__global__ void declared(int *a);\n"
        "const char *s = \"__global__ void in_string(int *a) {}\";\n"
        "template <typename T>\n"
        "__global__ void __launch_bounds__(256, 2)\n"
        "templated(T *a) { a[0] = 0; }\n"
        "extern \"C\" __global__ void plain(int *a)\n{\n}\n"
        "template <class real> __global__ void\nBOUNDS (THREADS, 2)\nmacro_bounds(real *a) {}\n"
        "__global__ void BOUNDS(1, 2) declared_too(int *a);\n")
    cl = tmp_path / "k.cl"
    cl.write_text("__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void a(global int *x) {}\n"
                  "kernel void b(global int *x) {}\n/* __kernel void c(global int *x) {} */\n")
    assert [(k.name, k.line) for k in cov.kernel_defs(cu, "k.cuh")] == [("templated", 5), ("plain", 7),
                                                                  ("macro_bounds", 10)]
    assert [(k.name, k.line) for k in cov.kernel_defs(cl, "k.cl")] == [("a", 1), ("b", 2)]


@pytest.mark.parametrize(("first", "cause", "family"), [
    ("a.cu:3:10: fatal error: 'cublas_v2.h' file not found", "file not found: cublas_v2.h", "toolkit"),
    ("a.cu:3:10: fatal error: 'thrust/sort.h' file not found", "file not found: thrust/sort.h", "Thrust"),
    ("a.cu:3:10: fatal error: 'boost/shared_ptr.hpp' file not found", "file not found: boost/shared_ptr.hpp",
     "third-party"),
    ("a.cl:9:5: error: use of undeclared identifier 'BLOCK_SIZE'", "undeclared identifier: BLOCK_SIZE", "macros"),
    ("a.cu:9:5: error: use of undeclared identifier 'UINT_MAX'", "undeclared identifier: UINT_MAX", "libc"),
    ("a.cl:2:1: error: unknown type name 'FPTYPE'", "unknown type name: FPTYPE", "macros"),
])
def test_normalise_compile(first, cause, family):
    got_cause, got_family = cov.normalise_compile(first)
    assert got_cause == cause
    assert got_family.startswith(family) or family in got_family


def test_normalise_compile_error_directive(tmp_path):
    (tmp_path / "s.cl").write_text("#ifndef SINGLE\n#error No precision defined.\n#endif\n")
    cause, family = cov.normalise_compile("s.cl:2:2: error: No precision defined.", tmp_path)
    assert cause == "#error No precision defined." and family.startswith("macros")


def test_normalise_kernel_drops_locations():
    assert cov.normalise_kernel("/p/k.cuh:17:5: unsupported: inline assembly (PTX) `xor.b64 %0`") == \
        "inline assembly"
    assert cov.normalise_kernel("analysis used more than 2 s of CPU (2x the budget)") == \
        "analysis over the CPU budget"


def test_real_scan_source_view(tmp_path):
    """A header kernel reached through a compiled file, a file that needs a build macro, an unreached header."""
    proj = tmp_path / "proj"
    (proj / "inc").mkdir(parents=True)
    (proj / ".git").mkdir()
    (proj / "inc" / "ops.cuh").write_text(
        "__global__ void scale(float *a, float s) { a[threadIdx.x] *= s; }\n")
    (proj / "inc" / "unused.cuh").write_text("__global__ void orphan(float *a) { a[threadIdx.x] = 0; }\n")
    (proj / "main.cu").write_text('#include "inc/ops.cuh"\n'
                                  "__global__ void fill(float *a) { a[threadIdx.x] = 1.0f; }\n")
    (proj / "needs.cl").write_text("__kernel void tile(__global float *a) { a[get_local_id(0) % TILE] = 0; }\n")
    out = tmp_path / "out"
    cov.run([proj], out, flags=False, budget=0.3, jobs=1)
    (rep,) = cov.load(out)
    # the orphan header is compiled on its own by scans that take kernel headers nothing includes
    orphan_seen = rep.files == 3
    assert rep.files_ok == 1 + orphan_seen and rep.kernels == 2 + orphan_seen
    assert rep.defs == 4
    assert rep.def_status["analysed"] + rep.def_status["incomplete"] == 2 + orphan_seen
    assert rep.def_status["compile-error"] == 1 and rep.def_status["not-reached"] == 1 - orphan_seen
    (cause,) = rep.compile_causes
    assert cause["cause"] == "undeclared identifier: TILE" and cause["kernels"] == 1
    md = cov.render([rep])
    assert "`undeclared identifier: TILE`" in md and f"| proj | {rep.files} | {rep.files_ok} | {rep.kernels} |" in md
    assert json.loads(json.dumps(rep.to_dict()))["def_status"]["compile-error"] == 1
    table = cov.compare([rep], [rep])
    assert "| proj |" in table and "| **total** |" in table and f"{rep.defs} → {rep.defs}" in table
    meta = json.loads((out / "proj.meta.json").read_text())
    assert meta["commands"] == ["simu scan . --budget 0.3 --no-cache -j 1 --format json"]
    assert rep.severities["analysed kernels"] == rep.def_status["analysed"] + rep.def_status["incomplete"]
    assert rep.severities["errors"] == 0 and "Findings by severity" in md


def test_findings_are_counted_by_severity_kind_and_launch_origin():
    rep = cov.ProjectReport("p", "zero")
    host, searched = {"origin": "host launch at main.cu:3"}, {"origin": "searched: no host launch found"}
    rep.count_findings({"status": "analysed", "findings": [
        {"kind": "race", "severity": "error", "launch": host},
        {"kind": "out-of-bounds", "severity": "error", "launch": searched},
        {"kind": "barrier-divergence", "severity": "error", "launch": searched},
        {"kind": "out-of-bounds", "severity": "warning", "launch": searched, "also": [{"count": 1}] * 4}]})
    rep.count_findings({"status": "analysed", "findings": []})
    s = rep.severities
    assert (s["analysed kernels"], s["kernels with an error"], s["errors"], s["warnings"]) == (2, 1, 3, 1)
    assert (s["errors: race"], s["errors: out-of-bounds"], s["errors: other"]) == (1, 1, 1)
    assert (s["errors on a host launch"], s["errors on a searched launch"]) == (1, 2)
    assert (s["error sites"], s["warning sites"]) == (3, 5)  # a grouped finding stands for its other sites too


def test_flag_groups_plan(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "k.cl").write_text("")
    (tmp_path / "a" / "k.cuh").write_text("__global__ void k(int *a) {}\n")
    (tmp_path / "a" / "plain.h").write_text("int f(void);\n")
    (tmp_path / "b.cu").write_text("")
    plan = cov.scan_plan(tmp_path, {"define": ["X"], "group": [{"files": ["a/*"], "define": ["N=4"]}]}, True)
    assert plan[0] == (["."], ["-D", "X", "--exclude", "/a/k.cl", "--exclude", "/a/k.cuh"])
    assert plan[1] == (["a/k.cl", "a/k.cuh"], ["-D", "X", "-D", "N=4"])
    assert cov.scan_plan(tmp_path, None, True) == [(["."], [])]
    assert subprocess.run([sys.executable, str(ROOT / "benchmarks" / "coverage.py"), "--help"],
                          capture_output=True).returncode == 0
