"""Kernels the OpenCL C++ wrapper calls as functions (simu/host/clfunctor.py): ``cl::KernelFunctor`` and
``cl::make_kernel`` objects made from a program and a kernel name (a literal, or either literal of a choice), called
with ``cl::EnqueueArgs(queue, global[, local])`` and the kernel's arguments.  Each call is a host launch: its sizes
are the ranges, its arguments the call's, so a kernel whose index wraps at ``n`` is judged where the global size is
``n`` (the search alone draws more work-items than ``n`` and two of them write one element)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.host.contracts import host_constraints
from simu.host.cscan import CSource
from simu.host.index import build_host_index
from simu.host.opencl import extract

runner = CliRunner()

KERNELS = """
__kernel void wrap32(const int n, __global float *out) {
  const int i = get_global_id(0);
  out[i % n] = (float)i;  // one element per work-item when the NDRange is n
}
__kernel void wrap64(const int n, __global double *out) {
  const int i = get_global_id(0);
  out[i % n] = (double)i;
}
"""

HOST = """#include <vector>
#include <CL/opencl.hpp>
template <typename T>
void run(cl::Context context, cl::CommandQueue queue, int n) {
  cl::Program program(context, load("wrap.cl"), true);
  auto function = (sizeof(T) == 8) ? "wrap64" : "wrap32";
  auto kernel = cl::KernelFunctor<int, cl::Buffer>(program, function);
  std::vector<T> h(n);
  cl::Buffer d(context, begin(h), end(h), false);
  kernel(cl::EnqueueArgs(queue, cl::NDRange(n), cl::NDRange(64)), n, d);
}
void other(cl::Context context, cl::CommandQueue queue, cl::Program program, cl::Buffer d, int n) {
  cl::make_kernel<int, cl::Buffer> wrap(program, "wrap32");
  cl::NDRange global(n);
  wrap(cl::EnqueueArgs(queue, global), n, d);
}
"""


def _project(root: Path) -> None:
    (root / "wrap.cl").write_text(KERNELS)
    (root / "host.cc").write_text(HOST)


def test_a_functor_call_is_a_launch_per_name_its_functor_may_hold():
    sites = extract(CSource(HOST), "host.cc")
    assert sorted((k.var, k.name) for k in sites.kernels) == [("kernel", "wrap32"), ("kernel", "wrap64"),
                                                             ("wrap", "wrap32")]
    launches = sorted((s.kernel_name, s.line, s.global_text, s.local_size) for s in sites.launches)
    assert launches == [("wrap32", 10, "cl::NDRange(n)", (64,)), ("wrap32", 15, "global", None),
                        ("wrap64", 10, "cl::NDRange(n)", (64,))], launches
    assert [(a.index, a.value_text) for a in sites.args if a.line == 10] == [(0, "n"), (1, "d")]


def test_the_functor_launch_relates_the_global_size_to_its_argument(tmp_path: Path):
    _project(tmp_path)
    index = build_host_index(tmp_path, [tmp_path / "host.cc"])
    found = host_constraints(index, "wrap64", [("n", None), ("out", 8)], cl_file="wrap.cl", api="opencl")
    (c, origin), = found
    assert origin.startswith("host launch at host.cc:10") and c.block == (64, 1, 1)
    assert c.dims["grid.x"] == "(n)/64"
    unsized = host_constraints(index, "wrap32", [("n", None), ("out", 4)], cl_file="wrap.cl", api="opencl")
    assert len(unsized) == 2
    other = next(c for c, o in unsized if o.startswith("host launch at host.cc:15"))
    assert other.block is None and other.dims["block.y"] == "1" and other.dims["block.z"] == "1"  # a 1-D NDRange


def test_a_kernel_called_through_a_functor_is_judged_at_its_launch(tmp_path: Path):
    _project(tmp_path)
    out = runner.invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "2", "-j", "1", "--format", "json"])
    data = json.loads(out.stdout)
    kernels = {k["name"]: k for f in data["files"] for k in f["kernels"]}
    for name in ("wrap32", "wrap64"):
        k = kernels[name]
        assert k["status"] == "analysed" and k["launches"] > 0
        assert not [f for f in k["findings"] if f["severity"] == "error"], k["findings"]
