"""OpenCL's C++ bindings read through clang (simu's ``CL/opencl.hpp``): ``kernel.setArg(i, v)`` and
``queue.enqueueNDRangeKernel(kernel, offset, global, local)`` are the C calls they make, with the values and relations
the program gives them (simu.host.ast.opencl)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from simu.host.ast.expr import Const, Field, Items, Unknown
from simu.host.ast.opencl import ENQUEUE, SET_ARG
from simu.host.ast.program import read_host_file

PLANES_CL = """__kernel void planes(__global float *out, int h, int w, int stride) {
    int x = get_global_id(0), y = get_global_id(1), c = get_global_id(2);
    if (x < w && y < h)
        out[c * stride + y * w + x] = (float)(c + 1);
}
"""

# an operator object: its sizes come from the command line, its stride and global size are members another method
# computes from them, and the launch takes the local size the implementation picks
OPERATOR_HOST = """#include <CL/opencl.hpp>
#include <cstdlib>

class PlanesOp {
public:
    void prepare(cl::Context &ctx, cl::Program &program, int h, int w) {
        h_ = h;
        w_ = w;
        stride_ = STRIDE;
        out_ = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * 4 * stride_);
        kernel_ = cl::Kernel(program, "planes");
        global_ = cl::NDRange(w_, h_, 4);
    }
    void run(cl::CommandQueue &queue) {
        kernel_.setArg(0, out_);
        kernel_.setArg(1, h_);
        kernel_.setArg(2, w_);
        kernel_.setArg(3, stride_);
        queue.enqueueNDRangeKernel(kernel_, cl::NullRange, global_, cl::NullRange);
    }

private:
    int h_ = 0, w_ = 0, stride_ = 0;
    cl::Buffer out_;
    cl::Kernel kernel_;
    cl::NDRange global_;
};

int main(int argc, char **argv) {
    cl::Context ctx(CL_DEVICE_TYPE_DEFAULT);
    cl::Program program(ctx, load_source("planes.cl"), true);
    cl::CommandQueue queue(ctx);
    PlanesOp op;
    op.prepare(ctx, program, atoi(argv[1]), atoi(argv[2]));
    op.run(queue);
    return 0;
}
"""

# a launching function called with constants: the values reach the launch through its parameters
FUNCTION_HOST = """#include <CL/opencl.hpp>

static void run_planes(cl::Context &ctx, cl::CommandQueue &queue, cl::Program &program, int h, int w) {
    cl::Kernel kernel(program, "planes");
    cl::Buffer out(ctx, CL_MEM_READ_WRITE, sizeof(float) * 4 * h * w);
    int stride = STRIDE;
    kernel.setArg(0, out);
    kernel.setArg(1, h);
    kernel.setArg(2, w);
    kernel.setArg(3, stride);
    cl::NDRange global(w, h, 4);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(16, 4, 1));
}

int main() {
    cl::Context ctx(CL_DEVICE_TYPE_DEFAULT);
    cl::Program program(ctx, load_source("planes.cl"), true);
    cl::CommandQueue queue(ctx);
    run_planes(ctx, queue, program, 8, 16);
    return 0;
}
"""

# the queue's type is lost with a header the checkout lacks (what declares the engine); the kernel's is not
UNTYPED_QUEUE_HOST = """#include <CL/cl2.hpp>
#include "engine/context.h"

struct Op {
    cl::Kernel kernel_;
    int n_;
    void run() {
        auto &engine = current_engine();
        kernel_.setArg(0, n_);
        engine.queue().enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(n_, 2), cl::NDRange(8, 2));
        cl_int status;
        status = engine.queue().enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(n_), cl::NullRange);
    }
};
"""


def _project(root: Path, host: str, stride: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "planes.cl").write_text(PLANES_CL)
    (root / "host.cpp").write_text(host.replace("STRIDE", stride))
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _findings(root: Path) -> list:
    from simu.scan import ScanOverrides, resolve_options, scan

    options, config = resolve_options([root], ScanOverrides(budget=60, jobs=1, no_cache=True))
    result = scan(options, config)
    (k,) = [k for f in result.files for k in f.kernels]
    assert k.status == "analysed", k
    return [f for f in k.findings if f.severity in ("error", "warning")]


def test_the_bindings_calls_are_read_as_the_c_calls_they_make(tmp_path):
    path = _project(tmp_path, FUNCTION_HOST, "h * w") / "host.cpp"
    (fn,) = [f for f in read_host_file(path, tmp_path) if f.name == "run_planes"]
    calls = [(c.callee, c.args) for c in fn.calls if c.callee in (SET_ARG, ENQUEUE)]
    assert [c for c, _ in calls] == [SET_ARG] * 4 + [ENQUEUE]
    indexes = [args[1] for _, args in calls[:4]]
    assert [getattr(i, "arg", i) for i in indexes] == [Const(0), Const(1), Const(2), Const(3)]
    assert isinstance(calls[0][1][3], Unknown)  # a buffer is no number
    launch = calls[4][1]
    assert launch[2] == Const(3)  # the global NDRange's dimensions
    assert isinstance(launch[4], Items) and len(launch[4].items) == 3
    assert isinstance(launch[5], Items) and len(launch[5].items) == 3


def test_a_call_on_an_object_of_unknown_type_is_read_by_its_method_and_kernel(tmp_path):
    path = tmp_path / "host.cpp"
    path.write_text(UNTYPED_QUEUE_HOST)
    (fn,) = [f for f in read_host_file(path, tmp_path) if f.name == "run"]
    (set_arg, launch, assigned) = [c for c in fn.calls if c.callee in (SET_ARG, ENQUEUE)]
    assert set_arg.callee == SET_ARG and isinstance(set_arg.args[3], Field) and set_arg.args[3].name == "n_"
    assert launch.callee == ENQUEUE and launch.args[2] == Const(2)
    assert isinstance(launch.args[1], Field) and launch.args[1].name == "kernel_"
    assert assigned.callee == ENQUEUE and assigned.args[2] == Const(1) and isinstance(assigned.args[5], Unknown)


def test_members_another_method_computes_relate_the_launch(tmp_path):
    """``stride_ = h_ * w_`` and ``global_ = cl::NDRange(w_, h_, 4)`` in ``prepare``, the launch in ``run``, the sizes
    from the command line: drawn apart, the stride overlaps the planes (a race and an out-of-bounds write no launch
    of the program makes); read, nothing is wrong."""
    assert _findings(_project(tmp_path, OPERATOR_HOST, "h_ * w_")) == []


def test_the_values_a_launching_function_is_called_with_reach_the_bindings_launch(tmp_path):
    """``stride = h * w - 1`` at the program's ``h = 8, w = 16``: the last pixel of each plane is the next plane's
    first (a race at the host's own launch: an error); its twin with ``h * w`` is clean."""
    errors = [f for f in _findings(_project(tmp_path / "racy", FUNCTION_HOST, "h * w - 1")) if f.severity == "error"]
    assert errors and {f.kind for f in errors} == {"race"}
    assert all("host launch at host.cpp:12" in f.launch.origin and f.launch.scalars == {"h": 8, "w": 16, "stride": 127}
               for f in errors)
    assert _findings(_project(tmp_path / "fixed", FUNCTION_HOST, "h * w")) == []


@pytest.mark.parametrize("name", ["CL/opencl.hpp", "CL/cl2.hpp", "CL/cl.hpp"])
def test_the_bindings_headers_parse_without_an_sdk(tmp_path, name):
    path = tmp_path / "host.cpp"
    path.write_text(f"#include <{name}>\n" + FUNCTION_HOST.split("\n", 1)[1].replace("STRIDE", "h * w"))
    assert [f.name for f in read_host_file(path, tmp_path)] == ["run_planes", "main"]


BRANCHED_CL = """__kernel void scale_rows(__global float *out, int n, float factor) {
    int i = get_global_id(0);
    if (i < n) out[i] *= factor;
}
"""

# the bias argument is set only where the program has one: a build without it has three arguments
BRANCHED_HOST = """#include <CL/opencl.hpp>

struct ScaleOp {
    bool has_bias_ = false;
    int n_ = 0;
    cl::Buffer out_, bias_;
    cl::Kernel kernel_;
    void prepare(cl::Program &program, int n) { n_ = n; kernel_ = cl::Kernel(program, "scale_rows"); }
    void run(cl::CommandQueue &queue) {
        int idx = 0;
        kernel_.setArg(idx++, out_);
        if (has_bias_) {
            kernel_.setArg(idx++, bias_);
        }
        kernel_.setArg(idx++, n_);
        kernel_.setArg(idx++, 2.0f);
        queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(1024), cl::NDRange(64));
    }
};
"""


def test_a_launch_whose_branch_sets_one_argument_more_is_still_the_shorter_kernel_s(tmp_path):
    """Each branch choice is a frame of its own: the frame without the bias sets three arguments, the kernel's
    count, and is its launch (the frame that sets four is not)."""
    from simu.frontend.discover import IgnoreRules, walk
    from simu.host.contracts import contracts_for
    from simu.host.reach import reaching_index

    (tmp_path / "scale.cl").write_text(BRANCHED_CL)
    (tmp_path / "host.cpp").write_text(BRANCHED_HOST)
    index = reaching_index(tmp_path, [tmp_path / "scale.cl"], walk(tmp_path, IgnoreRules(tmp_path)))
    found = contracts_for(index, "scale_rows", [("out", 4), ("n", None), ("factor", None)], None, {"scale.cl"},
                          "scale.cl", "opencl")
    (c,) = found.contracts
    assert c.origin.startswith("host launch at host.cpp:17") and c.block == (64, 1, 1) and c.grid == (16, 1, 1)
    assert c.args.get("factor") == 2.0


def test_a_dim3_or_ndrange_assigned_whole_takes_the_assigned_sizes(tmp_path):
    """``g = dim3(8, 2)`` after ``dim3 g;`` is clang's ``operator=`` call, not a ``=`` operator: the launch's grid is
    (8, 2, 1), not the default (1, 1, 1)."""
    path = tmp_path / "a.cu"
    path.write_text("""__global__ void k(float *out, int n) { out[blockIdx.x * blockDim.x + threadIdx.x] = n; }
int main() {
    float *d; cudaMalloc(&d, 4096 * sizeof(float));
    dim3 g;
    g = dim3(8, 2);
    k<<<g, 64>>>(d, 3);
    return 0;
}
""")
    (launch,) = [x for f in read_host_file(path, tmp_path) for x in f.launches]
    assert [getattr(v, "arg", v) for v in launch.grid.items] == [Const(8), Const(2), Const(1)]
