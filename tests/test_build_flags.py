"""Build flags from where a project keeps them: compile_commands.json, per-file configuration tables,
OpenCL build options harvested from host code, and OpenCL C compiled so that C99 ``inline`` works."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.frontend import compile_source

runner = CliRunner()


def _check_json(path) -> dict:
    res = runner.invoke(app, ["check", str(path), "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


# ---------------------------------------------------------------------------------------------------------
# C99 inline in OpenCL C


INLINE_HELPER = """inline void put(__global int *a, int v) { a[0] = v; }
inline float twice(float x) { return 2.0f * x; }
__kernel void racy(__global int *a) {
  put(a, get_global_id(0));
}
__kernel void scale(__global float *a) {
  int i = get_global_id(0);
  a[i] = twice(a[i]);
}
"""


def test_non_static_inline_helper_is_inlined():
    ir = compile_source(INLINE_HELPER, "opencl", path="inline.cl").ir
    body = re.search(r"define [^@]*@scale\(.*?\n}", ir, re.S).group(0)
    assert "@twice" not in body and "fmul" in body  # the helper's body is inlined into the kernel
    assert {k.display_name for k in load_source(INLINE_HELPER, "opencl", path="inline.cl").kernels} == {"racy", "scale"}


def test_non_static_inline_helper_is_analysed(tmp_path):
    src = tmp_path / "inline.cl"
    src.write_text(INLINE_HELPER)
    report = _check_json(src)
    kernels = {k["name"]: k for f in report["files"] for k in f["kernels"]}
    assert kernels["scale"]["status"] == "analysed" and kernels["scale"]["findings"] == []
    racy = kernels["racy"]
    assert racy["status"] == "analysed"
    assert [(f["kind"], f["first"]["line"], f["first"]["function"]) for f in racy["findings"]] == [("race", 1, "put")]


# ---------------------------------------------------------------------------------------------------------
# OpenCL build options harvested from host code

TILED_CL = """__kernel void tiled(__global float *out, __global const float *in) {
  __local float tile[TILE];
  int l = get_local_id(0);
  tile[l % TILE] = in[get_global_id(0)] * N;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(TILE - 1) - l % TILE];
}
"""

HOST_C = """#include <stdio.h>
#include <CL/cl.h>
int main(void) {
  cl_int err;
  char *src = read_source("kernels/tiled.cl");
  cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
  err = clBuildProgram(prog, 1, &device, "-D TILE=64 -DN=4", NULL, NULL);
  cl_kernel k = clCreateKernel(prog, "tiled", &err);
  size_t global = 1024, local = 64;
  clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  return 0;
}
"""


def _project(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def _scan(path, *extra):
    res = runner.invoke(app, ["scan", str(path), "--format", "json", "--no-cache", "-j", "1", "--budget", "1",
                              *extra])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


def _kernels(report) -> dict:
    return {k["name"]: (f, k) for f in report["files"] for k in f["kernels"]}


def test_scan_compiles_a_cl_file_with_its_host_build_options(tmp_path):
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "src/host.c": HOST_C})
    report = _scan(proj)
    f, k = _kernels(report)["tiled"]
    assert f["status"] == "ok" and k["status"] == "analysed"
    assert report["warnings"] == []


def test_without_host_code_the_cl_file_does_not_compile(tmp_path):
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL})
    res = runner.invoke(app, ["scan", str(proj), "--format", "json", "--no-cache", "-j", "1"])
    report = json.loads(res.stdout)
    assert report["files"][0]["status"] == "compile-error" and "TILE" in report["files"][0]["diagnostic"]


def test_check_reads_the_host_code_of_the_repository(tmp_path):
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "host.c": HOST_C})
    (proj / ".git").mkdir()
    report = _check_json(proj / "kernels" / "tiled.cl")
    assert _kernels(report)["tiled"][1]["status"] == "analysed"


def test_several_option_sets_compile_one_variant_each(tmp_path):
    second = HOST_C.replace("-D TILE=64 -DN=4", "-D TILE=32 -DN=4")
    broken = HOST_C.replace("-D TILE=64 -DN=4", "-D TILE=16 -DN=")  # `in[...] * ;` does not compile
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "a_host.c": HOST_C, "b_host.c": second,
                               "c_host.c": broken})
    report = _scan(proj)
    kernels = _kernels(report)
    assert sorted(kernels) == ["tiled[TILE=32 N=4]", "tiled[TILE=64 N=4]"]
    assert {k["status"] for _, k in kernels.values()} == {"analysed"}
    assert report["files"][0]["status"] == "ok" and report["summary"]["kernels"] == 2
    (warning,) = report["warnings"]
    assert warning.startswith("kernels/tiled.cl [TILE=16 N=]: does not compile with these build options: "
                              "kernels/tiled.cl:4:")


def test_check_compiles_the_first_option_set_and_says_so(tmp_path):
    second = HOST_C.replace("-D TILE=64 -DN=4", "-D TILE=32 -DN=2")
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "a_host.c": HOST_C, "b_host.c": second})
    (proj / ".git").mkdir()
    res = runner.invoke(app, ["check", str(proj / "kernels" / "tiled.cl")])
    assert res.exit_code in (0, 1), res.output
    out = " ".join(res.output.split())
    assert "host code builds it with 2 option sets; compiled with '-D TILE=64 -DN=4' (a_host.c:7), not " \
           "'-D TILE=32 -DN=2' (b_host.c:7)" in out


def test_variant_labels():
    from simu.scan.flags import variant_labels

    assert variant_labels(["-D TILE=16 -DN=4", "-D TILE=32 -DN=4"]) == ["TILE=16", "TILE=32"]
    assert variant_labels(["-DA -cl-mad-enable", "-DA"]) == ["#1", "#2"]


def test_host_include_folder_and_define_macro(tmp_path):
    cl = '#include "params.h"\n__kernel void k(__global int *a) { a[get_global_id(0)] = P * WIDTH; }\n'
    host = HOST_C.replace("kernels/tiled.cl", "k.cl").replace('"-D TILE=64 -DN=4"', 'OPTS')
    host = '#define OPTS "-I include -D WIDTH=" "8"\n' + host
    proj = _project(tmp_path, {"k.cl": cl, "include/params.h": "#define P 3\n", "host.c": host})
    f, k = _kernels(_scan(proj))["k"]
    assert f["status"] == "ok" and k["status"] == "analysed"


# ---------------------------------------------------------------------------------------------------------
# per-file configuration


def test_per_file_defines_from_the_configuration(tmp_path):
    proj = _project(tmp_path, {
        "src/kernels/tiled.cl": TILED_CL,
        "other/tiled2.cl": TILED_CL.replace("tiled(", "tiled2("),
        "simu.toml": '[files."src/kernels/*.cl"]\ndefine = ["TILE=16"]\n'
                     '[files."*.cl"]\ndefine = ["N=2"]\n'})
    report = _scan(proj)
    kernels = _kernels(report)
    assert kernels["tiled"][0]["status"] == "ok" and kernels["tiled"][1]["status"] == "analysed"
    assert kernels == {"tiled": kernels["tiled"]}  # other/tiled2.cl has N but not TILE
    assert [f["status"] for f in report["files"] if f["path"] == "other/tiled2.cl"] == ["compile-error"]


def test_per_file_include_and_clang_args(tmp_path):
    cl = '#include "p.h"\n__kernel void k(__global int *a) { a[get_global_id(0)] = P + Q; }\n'
    proj = _project(tmp_path, {"k.cl": cl, "inc/p.h": "#define P 1\n",
                               "simu.toml": '[files."k.cl"]\ninclude = ["inc"]\nclang-args = ["-DQ=2"]\n'})
    f, k = _kernels(_scan(proj))["k"]
    assert f["status"] == "ok" and k["status"] == "analysed"


def test_a_bad_per_file_table_is_one_error_line(tmp_path):
    proj = _project(tmp_path, {"k.cl": "__kernel void k() {}\n", "simu.toml": '[files."*.cl"]\ndefines = ["A"]\n'})
    res = runner.invoke(app, ["scan", str(proj)])
    assert res.exit_code == 2
    assert "simu.toml: [files.\"*.cl\"]: unknown key 'defines'" in res.output.replace("\n", "")


# ---------------------------------------------------------------------------------------------------------
# compile_commands.json

CU = """#include "common.h"
__global__ void fill(float *a) { a[threadIdx.x] = SCALE * (float)VALUE; }
"""


def test_translate_keeps_parse_flags_and_drops_nvcc_ones(tmp_path):
    from simu.frontend.compdb import translate

    argv = ["-Iinclude", "-I", "/abs/inc", "-isystem", "third", "-DVALUE=3", "-D", "SCALE=2.0f",
            "--define-macro=M", "-UOLD", "-std=c++17", "--expt-relaxed-constexpr", "--expt-extended-lambda",
            "-Xcompiler", "-fPIC", "-gencode", "arch=compute_70,code=sm_70", "-arch", "sm_80", "-O3", "-lineinfo",
            "-include", "pre.h", "-x", "cu", "-c", "src/a.cu", "-o", "a.o"]
    f = translate(argv, tmp_path)
    assert f.include_dirs == (str(tmp_path / "include"), "/abs/inc")
    assert f.defines == ("VALUE=3", "SCALE=2.0f", "M")
    assert f.clang_args == ("-isystem", str(tmp_path / "third"), "-UOLD", "-std=c++17", "-include",
                            str(tmp_path / "pre.h"))


def test_compile_commands_flags_reach_the_cu_file(tmp_path):
    proj = _project(tmp_path, {"src/fill.cu": CU, "src/other.cu": CU.replace("fill", "other"),
                               "include/common.h": "#define SCALE 2.0f\n"})
    entry = {"directory": str(proj / "build"), "file": "../src/fill.cu",
             "command": "/usr/local/cuda/bin/nvcc -I../include -DVALUE=3 -gencode arch=compute_70,code=sm_70 "
                        "-Xcompiler -Wall --expt-relaxed-constexpr -std=c++14 -c ../src/fill.cu -o fill.o"}
    (proj / "build").mkdir()
    (proj / "build" / "compile_commands.json").write_text(json.dumps([entry]))
    kernels = _kernels(_scan(proj))
    for name in ("fill", "other"):  # other.cu is not listed: it takes the flags of fill.cu, its neighbour
        f, k = kernels[name]
        assert f["status"] == "ok" and k["status"] == "analysed"


def test_compile_commands_given_explicitly_and_arguments_form(tmp_path):
    proj = _project(tmp_path, {"fill.cu": CU, "include/common.h": "#define SCALE 2.0f\n"})
    db = tmp_path / "elsewhere.json"
    db.write_text(json.dumps([{"directory": str(proj), "file": "fill.cu",
                               "arguments": ["nvcc", "-Iinclude", "-DVALUE=3", "-c", "fill.cu"]}]))
    assert _kernels(_scan(proj, "--compile-commands", str(db)))["fill"][1]["status"] == "analysed"
    (proj / "simu.toml").write_text('compile-commands = "elsewhere.json"\n')
    assert _kernels(_scan(proj))["fill"][1]["status"] == "analysed"


def test_bad_compile_commands_is_one_error_line(tmp_path):
    proj = _project(tmp_path, {"fill.cu": CU, "bad.json": "{not json"})
    res = runner.invoke(app, ["scan", str(proj), "--compile-commands", str(proj / "bad.json")])
    assert res.exit_code == 2 and "bad.json: not a compile_commands.json" in res.output
    res = runner.invoke(app, ["scan", str(proj), "--compile-commands", str(proj / "missing.json")])
    assert res.exit_code == 2 and "--compile-commands: no such file" in res.output


def test_options_and_file_passed_through_a_wrapper_function(tmp_path):
    util = """#include <CL/cl.h>
cl_program build_program(cl_context ctx, cl_device_id dev, const char *path, const char *opts) {
  char *src = read_file(path);
  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, NULL);
  clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  return p;
}
"""
    main = """#define TILE_OPTS "-D TILE=64 -D N=2"
int main(void) { cl_program p = build_program(ctx, dev, "kernels/tiled.cl", TILE_OPTS); return 0; }
"""
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "src/util.c": util, "src/main.c": main})
    f, k = _kernels(_scan(proj))["tiled"]
    assert f["status"] == "ok" and k["status"] == "analysed"


def test_kernels_command_uses_the_project_build_flags(tmp_path):
    proj = _project(tmp_path, {"kernels/tiled.cl": TILED_CL, "host.c": HOST_C})
    res = runner.invoke(app, ["kernels", str(proj), "--format", "json"])
    assert res.exit_code == 0, res.output
    assert [k["kernel"] for k in json.loads(res.stdout)["kernels"]] == ["tiled"]
