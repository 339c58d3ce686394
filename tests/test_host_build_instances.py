"""Build options per function template instantiation (simu/host/opencl.py ``_builds_per_instantiation``): a
``.cl`` built inside ``RunTest<T>`` with ``-DN_GP=`` a size ``sizeof(T)`` picks is compiled once per
instantiation, and each compiled variant is analysed at the launches of its own instantiation (shoc's S3D:
``-DN_GP=n`` with ``globalWorkSize = n``)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.host.contracts import contracts_for
from simu.host.index import build_host_index

runner = CliRunner()

FILL_CL = """__kernel void fill(__global float *rf) {
  int gid = get_global_id(0);
  for (int q = 1; q <= 4; q++)
    rf[(q - 1) * N_GP + gid] = (float)q;
}
"""

HOST = """#include <CL/cl.h>
#include <sstream>
#include <string>

const char *read_file(const char *path);

template <class T> std::string toString(const T &v) { std::ostringstream o; o << v; return o.str(); }

#define clBuild(prog) clBuildProgram(prog, 0, NULL, flags.c_str(), NULL, NULL)

template <class T>
void RunTest(cl_context ctx, cl_command_queue queue, OptionParser &op) {
  cl_int err;
  const char *text = read_file("fill.cl");
  cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
  int sizes_sp[2] = {512, 1024};
  int sizes_dp[2] = {256, 512};
  int *sizes = sizeof(T) == sizeof(double) ? sizes_dp : sizes_sp;
  int n = sizes[op.getOptionInt("size") - 1];
  std::string flags = "-DN_GP=" + toString(n);
  clBuild(prog);
  cl_kernel k = clCreateKernel(prog, "fill", &err);
  cl_mem rf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * n * sizeof(T), NULL, &err);
  clSetKernelArg(k, 0, sizeof(cl_mem), &rf);
  size_t global = n, local = 128;
  clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

void RunBenchmark(OptionParser &op) {
  cl_context ctx = 0; cl_command_queue q = 0;
  RunTest<float>(ctx, q, op);
  RunTest<double>(ctx, q, op);
}
"""


def _project(root: Path) -> None:
    (root / "fill.cl").write_text(FILL_CL)
    (root / "host.cpp").write_text(HOST)
    # the size is a command-line option registered in another file, as shoc's are
    (root / "main.cpp").write_text('void addOptions(OptionParser &op) { op.addOption("size", OPT_INT, "1", "s"); }\n')


def test_each_instantiation_builds_with_its_own_options_and_launches_its_own_variant(tmp_path: Path):
    _project(tmp_path)
    index = build_host_index(tmp_path, [tmp_path / "host.cpp", tmp_path / "main.cpp"])
    builds = {b.instance: b.options for b in index.builds_of(tmp_path / "fill.cl")}
    assert builds == {"RunTest<float>": "-DN_GP=512", "RunTest<double>": "-DN_GP=256"}  # toString(n) read
    (sp,) = contracts_for(index, "fill", [("rf", 4)], None, cl_file="fill.cl", api="opencl",
                          instance="RunTest<float>").contracts
    (dp,) = contracts_for(index, "fill", [("rf", 4)], None, cl_file="fill.cl", api="opencl",
                          instance="RunTest<double>").contracts
    assert (sp.grid, dp.grid) == ((4, 1, 1), (2, 1, 1))
    assert sp.origin.startswith("host launch at host.cpp:26 in RunTest<float>")
    assert sp.origin.endswith("(with the command line's defaults: size)")  # the NDRange's global size took it
    assert len(contracts_for(index, "fill", [("rf", 4)], None, cl_file="fill.cl", api="opencl").contracts) == 2


def test_the_variants_are_analysed_at_their_own_launches_and_race_free(tmp_path: Path):
    """Compiled at N_GP = 16 (a guessed value) or analysed at the other instantiation's wider launch, each
    thread's four writes would overlap its neighbours'."""
    _project(tmp_path)
    result = runner.invoke(app, ["scan", str(tmp_path), "--budget", "1", "--no-cache", "-j", "1", "--format", "json"])
    data = json.loads(result.stdout)
    kernels = {k["name"]: k for fe in data["files"] for k in fe["kernels"]}
    assert set(kernels) == {"fill[N_GP=512]", "fill[N_GP=256]"}
    for k in kernels.values():
        assert k["status"] == "analysed" and not k["findings"], k
    assert not any("N_GP" in w for w in data["warnings"])  # nothing assumed


OPTIONS = 'void addOptions(OptionParser &op) { op.addOption("size", OPT_INT, "1", "s"); }\n'
WRAPPED_HOST = """#include <CL/cl.h>
#include <string>

const char *read_file(const char *path);

template <class T>
void runTest(cl_context ctx, cl_command_queue queue, OptionParser &op, const std::string &compileFlags) {
  cl_int err;
  const char *text = read_file("fill.cl");
  cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
  std::string flags = compileFlags + " -cl-mad-enable";
  clBuildProgram(prog, 0, NULL, flags.c_str(), NULL, NULL);
  int sizes[2] = {4096, 8192};
  int n = sizes[op.getOptionInt("size") - 1] / sizeof(T);
  cl_kernel k = clCreateKernel(prog, "fill", &err);
  cl_mem rf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(T), NULL, &err);
  clSetKernelArg(k, 0, sizeof(cl_mem), &rf);
  size_t global = n, local = 128;
  clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

void RunBenchmark(OptionParser &op) {
  cl_context ctx = 0; cl_command_queue q = 0;
  runTest<float>(ctx, q, op, "-DSINGLE");
  runTest<double>(ctx, q, op, "-DDOUBLE");
}
"""


def test_a_build_whose_options_a_template_wrappers_caller_passes_takes_that_instantiations_launch(tmp_path: Path):
    """``runTest<double>(…, "-DDOUBLE")`` builds the double variant, which runTest<double> launches: 512 doubles,
    not runTest<float>'s 1,024 floats in the same bytes (an access past the buffer no launch of the program makes)."""
    (tmp_path / "fill.cl").write_text("__kernel void fill(__global float *rf) { rf[get_global_id(0)] = 1; }\n")
    (tmp_path / "host.cpp").write_text(WRAPPED_HOST)
    (tmp_path / "main.cpp").write_text(OPTIONS)
    index = build_host_index(tmp_path, [tmp_path / "host.cpp", tmp_path / "main.cpp"])
    builds = {b.options: b.instance for b in index.builds_of(tmp_path / "fill.cl")}
    assert builds == {"-DSINGLE -cl-mad-enable": "runTest<float>", "-DDOUBLE -cl-mad-enable": "runTest<double>"}
    (dp,) = contracts_for(index, "fill", [("rf", 8)], None, cl_file="fill.cl", api="opencl",
                          instance="runTest<double>").contracts
    assert dp.grid == (4, 1, 1) and dp.buffer_lengths == {"rf": "512"}, (dp.grid, dp.buffer_lengths)
