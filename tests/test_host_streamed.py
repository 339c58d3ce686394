"""Program text a host streams in front of a kernel file's source (simu/host/streamed.py): the typedefs and the
shared ``.cl`` file a builder function streams, and the macros it defines from a map, so that a kernel file built
that way compiles with zero configuration, its findings marked with what was assumed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.host.cscan import CSource
from simu.host.streamed import mapped_defines, streamed_sources, streamed_types
from simu.scan.assume import _chosen

runner = CliRunner()

BUILDER = """#include <sstream>
#include <map>
#include <string>
cl::Program Context::createProgram(const std::string source, const std::map<std::string, std::string>& defines) {
    std::stringstream src;
    if (useDoublePrecision) {
        src << "typedef double real;\\n";
        src << "typedef double4 real4;\\n";
    } else {
        src << "typedef float real;\\n";
        src << "typedef float4 real4;\\n";
    }
    src << KernelSources::common << std::endl;
    for (auto& pair : defines)
        src << "#define " << pair.first << " " << pair.second << std::endl;
    src << source << std::endl;
    cl::Program program(context, cl::Program::Sources({src.str()}));
    program.build(devices);
    return program;
}
void Context::initialize() {
    std::map<std::string, std::string> defines;
    defines["TILE_SIZE"] = intToString(tileSize);
    if (useDoublePrecision)
        defines["make_real4"] = "make_double4";
    else
        defines["make_real4"] = "make_float4";
    defines["M_PI"] = "3.14159265358979323846";
    cl::Program utilities = createProgram(KernelSources::scale, defines);
    cl::Kernel k(utilities, "scaleBy");
}
"""

COMMON_CL = """#define make_float4(x...) ((float4) (x))
#define make_double4(x...) ((double4) (x))
real twice(real x) { return x + x; }
"""

SCALE_CL = """__kernel void scaleBy(__global real4 *data, const int n) {
    __local real tile[TILE_SIZE];
    const int i = get_global_id(0);
    tile[get_local_id(0) % TILE_SIZE] = twice((real) i);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) data[i] = make_real4(tile[get_local_id(0) % TILE_SIZE], 0, 0, 0);
}
"""


def test_the_typedefs_streamed_into_a_stream_and_the_qualified_sources():
    src = CSource(BUILDER)
    assert streamed_types(src) == ["real=double", "real4=double4", "real=float", "real4=float4"]
    assert "common" in streamed_sources(src)
    assert mapped_defines(src) == ["TILE_SIZE=@?@", "make_real4=make_double4", "make_real4=make_float4"]  # no M_PI


def test_of_the_types_a_host_streams_the_float_one_is_chosen_and_a_product_is_no_type():
    assert _chosen("real4", "real4 x;", {"real4": {"float4", "double4"}})[0] == "float4"
    assert _chosen("make_real4", "make_real4(a)", {"make_real4": {"make_float4", "make_double4"}})[0] == \
        "make_float4"
    assert _chosen("YSIZE", "int k = x*(YSIZE*ZSIZE)+y*YSIZE;", {"YSIZE": {"@?@"}})[1] == "default"
    assert _chosen("T", "void f(__global const T *a, int n) {}", {"T": {"@?@"}})[1] == "used as a type"
    assert _chosen("T", "x = (T*)y;", {"T": {"@?@"}})[1] == "used as a type"


def test_a_kernel_file_built_after_a_streamed_prelude_compiles_with_what_was_assumed(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "kernels").mkdir(parents=True)
    (tmp_path / "src" / "Context.cpp").write_text(BUILDER)
    (tmp_path / "src" / "kernels" / "common.cl").write_text(COMMON_CL)
    (tmp_path / "src" / "kernels" / "scale.cl").write_text(SCALE_CL)
    out = runner.invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "1", "-j", "1", "--format", "json"])
    data = json.loads(out.stdout)
    files = {Path(f["path"]).name: f for f in data["files"]}
    assert files["scale.cl"]["status"] == "ok", files["scale.cl"]["diagnostic"]
    (kernel,) = files["scale.cl"]["kernels"]
    assert kernel["status"] == "analysed"
    assert not [f for f in kernel["findings"] if f["severity"] == "error"]
    notes = " ".join(data["warnings"] + [data["note"] or ""])
    assert "real=float" in notes and "TILE_SIZE=" in notes and "make_real4=make_float4" in notes
