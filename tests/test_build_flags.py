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
