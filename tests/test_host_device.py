"""The GPU's own limits a program asks for (simu.host.ast.device): ``cudaGetDeviceProperties`` then a block of
``prop.maxThreadsPerBlock / 4`` threads is a 256-thread block on the reference device, and the origin says which
property it read; a field the program assigns keeps the program's value."""

from __future__ import annotations

from pathlib import Path

from simu.host.contracts import contracts_for
from simu.host.index import build_host_index

PROGRAM = """#include <cstdio>
__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
int main() {
  int n;
  if (scanf("%d", &n) != 1) return 1;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  int threads = prop.maxThreadsPerBlock / 4;
  fill<<<(n + threads - 1) / threads, threads>>>(d, n);
  dim3 wide(prop.maxThreadsDim[2], 2);
  fill<<<prop.multiProcessorCount, wide>>>(d, n);
  return 0;
}
"""


def _contracts(tmp_path: Path, text: str):
    (tmp_path / "main.cu").write_text(text)
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    return contracts_for(index, "fill", [("out", 4), ("n", None)], None).contracts


def test_device_limits_the_program_asks_for_are_the_reference_gpus(tmp_path: Path):
    first, second = _contracts(tmp_path, PROGRAM)
    assert first.block == (256, 1, 1) and first.dims["grid.x"] == "(n+256-1)/256"
    assert "the reference GPU's maxThreadsPerBlock = 1024" in first.origin, first.origin
    assert second.block == (64, 2, 1) and second.grid == (108, 1, 1), (second.block, second.grid)
    assert "maxThreadsDim = (1024, 1024, 64), multiProcessorCount = 108" in second.origin, second.origin


def test_a_property_the_program_assigns_keeps_its_value(tmp_path: Path):
    text = PROGRAM.replace("cudaGetDeviceProperties(&prop, 0);", "prop.maxThreadsPerBlock = 128;")
    first, _ = _contracts(tmp_path, text)
    assert first.block == (32, 1, 1) and "reference GPU" not in first.origin, first.origin


def test_attribute_queries_answer_from_the_same_device(tmp_path: Path):
    """``cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, dev)`` is the same limit."""
    text = PROGRAM.replace("int threads = prop.maxThreadsPerBlock / 4;",
                           "int most;\n  cudaDeviceGetAttribute(&most, cudaDevAttrMaxThreadsPerBlock, 0);\n"
                           "  int threads = most / 8;")
    first, _ = _contracts(tmp_path, text)
    assert first.block == (128, 1, 1) and "maxThreadsPerBlock = 1024" in first.origin, first.origin


def test_opencl_device_info_answers_from_the_same_device(tmp_path: Path):
    (tmp_path / "k.cl").write_text("__kernel void fill(__global int *out, int n) {\\n"
                                   "  int i = get_global_id(0);\\n  if (i < n) out[i] = i;\\n}\\n")
    (tmp_path / "host.c").write_text("""#include <CL/cl.h>
void run(cl_device_id dev, cl_command_queue q, cl_program p, cl_mem out, int n) {
    cl_kernel k = clCreateKernel(p, "fill", NULL);
    size_t group;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t), &group, NULL);
    size_t local = group / 2, global = 4 * local;
    clSetKernelArg(k, 0, sizeof(cl_mem), &out);
    clSetKernelArg(k, 1, sizeof(int), &n);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}
""")
    index = build_host_index(tmp_path, [tmp_path / "host.c"])
    (c,) = contracts_for(index, "fill", [("out", 4), ("n", None)], None, cl_file=str(tmp_path / "k.cl")).contracts
    assert c.block == (512, 1, 1) and c.grid == (4, 1, 1), (c.block, c.grid)
