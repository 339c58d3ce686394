"""Kernels of PyTorch C++ extensions: simu's stand-in ATen headers (device side) and packed tensor accessors
passed by value, whose shape the machine writes from the buffer behind ``data_`` (issue 28: real projects with a
third-party host dependency); findings on that data are warnings that name the shape as simu's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simu.api import load_file
from simu.interp.members import tensor_shape
from simu.scan import ScanOverrides, resolve_options, scan

HEADERS = """#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>
"""

ROW_SUM = HEADERS + """
template <typename scalar_t>
__global__ void RowSumKernel(const at::PackedTensorAccessor64<scalar_t, 2, at::RestrictPtrTraits> x,
                             at::PackedTensorAccessor64<scalar_t, 2, at::RestrictPtrTraits> out) {
  const int64_t n = blockIdx.y;
  if (n >= x.size(0)) return;
  scalar_t s = 0;
  for (int64_t j = blockIdx.x * blockDim.x + threadIdx.x; j < x.size(1); j += blockDim.x * gridDim.x) s += x[n][j];
  if (threadIdx.x == 0) ADD(&out[n][0], s);
}

at::Tensor RowSum(const at::Tensor& x) {
  auto out = at::zeros({x.size(0), 1}, x.options());
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "row_sum", ([&] {
    RowSumKernel<scalar_t><<<dim3(8, x.size(0)), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.packed_accessor64<scalar_t, 2, at::RestrictPtrTraits>(),
        out.packed_accessor64<scalar_t, 2, at::RestrictPtrTraits>());
  }));
  return out;
}
"""

PLAIN_ADD = "#define ADD(p, v) (*(p) += (v))\n"
ATOMIC_ADD = "#define ADD(p, v) atomicAdd((p), (v))\n"

SQUARED_NORM = HEADERS + """
__global__ void SquaredNormKernel(const at::PackedTensorAccessor32<float, 3, at::RestrictPtrTraits> points,
                                  at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> norms) {
  const int N = points.size(0), P = points.size(1);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N * P; i += blockDim.x * gridDim.x) {
    const int n = i / P, p = i % P;
    float s = 0;
    for (int d = 0; d < points.size(2); ++d) s += points[n][p][d] * points[n][p][d];
    norms[n][p] = s;
  }
}
"""


def _scan(tmp_path: Path, name: str, text: str):
    (tmp_path / name).write_text(text)
    options, config = resolve_options([tmp_path], ScanOverrides(budget=1, jobs=1, no_cache=True))
    result = scan(options, config)
    return {k.name: k for f in result.files for k in f.kernels}


def test_the_stand_in_headers_compile_a_packed_accessor_and_its_shape_is_read(tmp_path):
    src = tmp_path / "norm.cu"
    src.write_text(SQUARED_NORM)
    kernel = load_file(src).kernel("SquaredNormKernel")
    points, norms = (p.pointers for p in kernel.params)
    assert points.by_value and norms.by_value
    data = points.fields[0]
    assert data.path == ".data_" and data.pointee == "float"
    assert data.shape == (8, 20, 3, 4)  # sizes_ after the pointer, strides_ after three 4-byte sizes
    assert norms.fields[0].shape == (8, 16, 2, 4)


@pytest.mark.parametrize(("elements", "dims", "shape"), [(4096, 3, [16, 16, 16]), (4096, 1, [4096]),
                                                         (1000, 2, [32, 31]), (5, 3, [2, 2, 1]), (0, 2, [1, 1])])
def test_tensor_shape_is_even_and_fits(elements, dims, shape):
    assert tensor_shape(elements, dims) == shape
    assert int(np.prod(shape)) <= max(elements, 1)


def test_a_race_between_blocks_on_a_tensor_element_is_found_as_a_warning_on_simus_shape(tmp_path):
    """The tensor's shape is simu's, not the host's at::Tensor's (which simu does not read): a finding on its data
    is at most a warning that says so (simu/evolve/tensors.py)."""
    kernels = _scan(tmp_path, "row_sum.cu", PLAIN_ADD + ROW_SUM)
    found = kernels["RowSumKernel<float>"]
    assert found.status == "analysed"
    races = [f for f in found.findings if f.kind == "race"]
    assert races and all(f.severity == "warning" for f in races)
    assert races[0].variable.startswith("out.data_")
    assert "the shape of tensor 'out' is simu's" in races[0].message


def test_the_atomic_twin_and_an_in_bounds_kernel_are_silent(tmp_path):
    kernels = _scan(tmp_path, "row_sum.cu", ATOMIC_ADD + ROW_SUM)
    assert kernels["RowSumKernel<float>"].status == "analysed"
    assert kernels["RowSumKernel<float>"].findings == []
    kernels = _scan(tmp_path, "row_sum.cu", SQUARED_NORM)
    norm = kernels["SquaredNormKernel"]
    assert norm.status == "analysed" and norm.findings == []


SETUP_PY = """from setuptools import setup
import torch
define_macros = []
extra_compile_args = {"cxx": []}
if torch.cuda.is_available():
    define_macros += [("WITH_CUDA", None), ("THREADS", "64")]
setup(name="ext", ext_modules=[CUDAExtension("ext._C", ["csrc/iou.cu"], define_macros=define_macros,
                                             extra_compile_args=extra_compile_args)])
"""

IOU_HELPER = """#pragma once
__host__ __device__ inline float overlap(const float *a, const float *b) { return a[0] < b[0] ? a[0] : b[0]; }
"""

# a rotated-box non-maximum suppression in the style of a detection library: the helper it calls is included only
# in the CUDA build, and the kernel rounds up with PyTorch's at::cuda::ATenCeilDiv
NMS = """#include <ATen/ATen.h>
#include <ATen/cuda/CUDAApplyUtils.cuh>
#ifdef WITH_CUDA
#include "iou_utils.h"
#endif
__global__ void nms_kernel(const int n, const float *boxes, unsigned long long *mask) {
  const int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  unsigned long long t = 0;
  for (int j = 0; j < n && j < 64; j++) t |= (overlap(boxes + i, boxes + j) > 0.5f ? 1ULL : 0ULL) << j;
  mask[i * at::cuda::ATenCeilDiv(n, 64) + blockIdx.y] = t;
}
"""


def test_a_python_extensions_setup_py_defines_its_cuda_builds_macros(tmp_path):
    """setup.py's ``define_macros`` (read from its syntax tree, never run) are the ``.cu`` files' macros: the kernel's
    helper behind ``#ifdef WITH_CUDA`` is there, and ``THREADS`` has the build's value."""
    from simu.frontend.setup_py import setup_defines

    (tmp_path / "setup.py").write_text(SETUP_PY)
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "iou_utils.h").write_text(IOU_HELPER)
    (tmp_path / "csrc" / "iou.cu").write_text(NMS)
    assert setup_defines(tmp_path / "csrc" / "iou.cu", tmp_path) == ("WITH_CUDA", "THREADS=64")
    assert setup_defines(tmp_path / "csrc" / "iou.cu", tmp_path / "csrc") == ()  # above the project: not read
    options, config = resolve_options([tmp_path], ScanOverrides(budget=1, jobs=1, no_cache=True))
    result = scan(options, config)
    kernels = {k.name: k for f in result.files for k in f.kernels}
    assert kernels["nms_kernel"].status == "analysed", [(f.path, f.error) for f in result.files]


# a row filler whose grid the host sizes to the tensor: past that grid a block's start passes n, the unsigned min
# keeps its count at the block size and its writes wrap onto block 0's rows (a race no host launch makes)
ROWS = HEADERS + """#include <ATen/cuda/CUDAApplyUtils.cuh>
__global__ void fill_rows(const int n, const float *in, float *out) {
  const int start = blockIdx.x * blockDim.x;
  const int count = min(n - start, blockDim.x);
  if (threadIdx.x < count) out[(start + threadIdx.x) % n] = in[threadIdx.x] + start;
}
HELPER
at::Tensor FillRows(const at::Tensor& in) {
  auto n = in.size(0);
  auto out = at::empty({n}, in.options());
  const int blocks = BLOCKS;
  fill_rows<<<blocks, 32, 0, at::cuda::getCurrentCUDAStream()>>>(n, in.data_ptr<float>(), out.data_ptr<float>());
  return out;
}
"""
ROUND_UP_HELPER = "static int divUp(int a, int b) { return (a + b - 1) / b; }"


@pytest.mark.parametrize(("helper", "blocks"), [("", "at::cuda::ATenCeilDiv(static_cast<int>(n), 32)"),
                                                (ROUND_UP_HELPER, "divUp(static_cast<int>(n), 32)")])
def test_an_extensions_host_function_gives_the_grid_as_a_relation_of_its_tensor_size(tmp_path, helper, blocks):
    """The host side of a PyTorch extension parses against simu's tensor API declarations: ``n = in.size(0)`` is
    the kernel's ``n`` and the grid its round-up over the block, through PyTorch's ``ATenCeilDiv`` or a helper of
    one ``return``; the kernel's ``const int`` parameter does not keep the launch from its kernel."""
    from simu.host.index import build_host_index

    text = ROWS.replace("HELPER", helper).replace("BLOCKS", blocks)
    (tmp_path / "rows.cu").write_text(text)
    (launch,) = build_host_index(tmp_path, [tmp_path / "rows.cu"]).cuda_launches_of("fill_rows")
    from simu.launch.constraints import int_expression

    assert [int_expression(launch.grid_sym[0], {"_a0_": n}) for n in (1, 32, 33, 100)] == [1, 1, 2, 4]
    found = _scan(tmp_path, "rows.cu", text)["fill_rows"]
    assert found.status == "analysed" and found.findings == [], found.findings
