"""Module variables the host sets with ``cudaMemcpyToSymbol`` (issue 29 item 3): the values it copies reach the
kernel (a scalar, a struct's members, at an offset), the device pointers such a variable holds get member buffers
instead of null, and a launch carries both in its record so that simu's replay rebuilds it."""

from __future__ import annotations

import numpy as np
import pytest

from simu.api import load_source
from simu.errors import SimuError
from simu.evolve import Budget
from simu.evolve.search import Search
from simu.interp import run
from simu.interp.values import with_copied
from simu.ir.types import ArrayType, IntType, PtrType, StructType
from simu.launch import Launch
from simu.launch.constraints import KernelConstraints
from simu.launch.record import record_of
from simu.pipeline import CheckSettings
from simu.validate.devices import refuse_pointers
from simu.validate.replay import launch_from_record

SRC = r"""
struct Params { float *data; int n; };
__constant__ Params P;
__constant__ int W;
__global__ void copy(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < P.n && i < W) out[i] = P.data[i];
}
"""


def test_copied_values_fill_the_scalars_in_memory_order_and_keep_pointer_slots():
    params = StructType((PtrType(), IntType(32)))
    assert with_copied(params, None, 0, (None, 7))[8:12] == np.int32(7).tobytes()
    assert with_copied(params, bytes(range(16)), 0, (None, 7))[:8] == bytes(range(8))  # a slot is the machine's
    pairs = ArrayType(2, StructType((IntType(32), IntType(32))))
    elided = with_copied(pairs, None, 0, (1, 2, 3, 4))  # {1, 2, 3, 4} for {{1, 2}, {3, 4}}: braces elided
    assert np.frombuffer(elided, np.int32).tolist() == [1, 2, 3, 4]
    later = with_copied(ArrayType(4, IntType(32)), None, 8, (5, None))  # from byte 8 on; None keeps the byte
    assert np.frombuffer(later, np.int32).tolist() == [0, 0, 5, 0]


def test_a_pointer_the_host_keeps_in_constant_memory_gets_a_buffer_and_its_count_the_copied_value():
    m = load_source(SRC, "cuda")
    g = next(g for g in m.globals.values() if g.display_name == "P")
    assert g.pointers is not None and [f.path for f in g.pointers.fields] == [".data"]
    c = KernelConstraints(grid=(1, 1, 1), block=(64, 1, 1), symbols={"P": (0, (None, 48)), "W": (0, (40,))})
    s = Search(m, m.kernels[0], CheckSettings(), c, Budget(evaluations=4, seconds=60, probe_seconds=60), seed=0)
    launch = s.layout.launch(s.layout.initial(s.rng))
    assert "P.data" in launch.args and launch.pointers["P"][0][3] == "P.data"
    result = run(m, m.kernels[0], launch)
    assert result.outcome.completed, result.outcome
    data, out = launch.args["P.data"], result.buffers["out"]
    assert np.array_equal(out[:40], data[:40]) and not np.array_equal(out[40:48], data[40:48])  # i < W = 40


def test_a_constant_that_is_itself_a_device_pointer_points_to_a_buffer_of_its_own():
    """``__constant__ float *table`` (the host copies a ``cudaMalloc``'d address into it): its member buffer is
    ``*table``, not a second ``table`` that the machine took for the variable's own memory, leaving it null."""
    m = load_source("__constant__ float *table;\n"
                    "__global__ void gather(float *out) { out[threadIdx.x] = table[threadIdx.x]; }\n", "cuda")
    s = Search(m, m.kernels[0], CheckSettings(), KernelConstraints(grid=(1, 1, 1), block=(32, 1, 1)),
               Budget(evaluations=4, seconds=60, probe_seconds=60), seed=0)
    launch = s.layout.launch(s.layout.initial(s.rng))
    assert launch.pointers == {"table": [[0, 1, 8, "*table", 0, 0]]}
    result = run(m, m.kernels[0], launch)
    assert result.outcome.completed, result.outcome
    assert np.array_equal(result.buffers["out"][:32], launch.args["*table"][:32])
    assert not any(f.kind == "null" for f in s.evaluate(s.layout.initial(s.rng)).findings)


def test_the_record_carries_the_copies_and_replay_restores_them_but_no_device_replays_them():
    launch = Launch((1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.float32)}, symbols={"W": (0, (40,))})
    rec = record_of(launch)
    assert rec.buffers["W"] == {"symbol": True, "offset": 0, "values": [40]}
    again = launch_from_record(rec.to_dict() if hasattr(rec, "to_dict") else rec).launch
    assert again.symbols == {"W": (0, [40])}
    with pytest.raises(SimuError, match="cudaMemcpyToSymbol"):
        refuse_pointers(again)


def test_the_host_s_copies_are_read_in_the_launching_function_and_in_a_function_it_calls_first(tmp_path):
    from simu.host.ast.launches import launch_values
    from simu.host.ast.program import read_host_file
    from simu.host.ast.values import Program

    (tmp_path / "k.cu").write_text(
        "struct Params { float *data; int n; };\n__constant__ Params P;\n__constant__ int W;\n"
        "__global__ void k(float *out) { out[threadIdx.x] = W + P.n; }\n"
        "static void init_constants(int w) { cudaMemcpyToSymbol(W, &w, sizeof(int)); }\n"
        "int main() {\n  float *d, *o;\n  cudaMalloc(&d, 4096);\n  cudaMalloc(&o, 4096);\n"
        "  Params p = {d, 1024};\n  cudaMemcpyToSymbol(P, &p, sizeof(p));\n  init_constants(1000);\n"
        "  k<<<1, 32>>>(o);\n  return 0;\n}\n")
    (v,) = launch_values(Program(read_host_file(tmp_path / "k.cu", tmp_path)))
    assert dict((name, (offset, values)) for name, offset, values in v.symbols) == \
        {"P": (0, (None, 1024)), "W": (0, (1000,))}
    assert v.lengths == ("4096",)


def test_a_copy_in_the_branch_that_excludes_the_launch_is_not_the_launch_s(tmp_path):
    from simu.host.ast.launches import launch_values
    from simu.host.ast.program import read_host_file
    from simu.host.ast.values import Program

    (tmp_path / "k.cu").write_text(
        "__constant__ int W;\n__global__ void k(float *out) { out[threadIdx.x] = W; }\n"
        "void run(float *o, bool wide) {\n  int w = 64;\n  if (wide) {\n    cudaMemcpyToSymbol(W, &w, 4);\n"
        "  } else {\n    k<<<1, 32>>>(o);\n  }\n}\n"
        "int main() { float *o; cudaMalloc(&o, 4096); run(o, false); return 0; }\n")
    (v,) = launch_values(Program(read_host_file(tmp_path / "k.cu", tmp_path)))
    assert v.symbols == ()
