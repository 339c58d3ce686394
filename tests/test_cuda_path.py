"""Bring your own headers: ``--cuda-path DIR`` / ``cuda-path = "DIR"`` / ``CUDA_PATH`` compile against a
toolkit's own ``include/`` behind simu's prelude (simu/include/cuda_real). The toolkit here is a small
one written by the test (what the prelude relies on: host_defines.h, cuda_runtime.h with dim3, uint3,
cudaStream_t and CUDART_VERSION); a real toolkit is tried when one is found (CUDA_PATH, nvcc)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_file
from simu.cli import app
from simu.frontend import CompileOptions
from simu.frontend.cuda_headers import check_cuda_path, detect_cuda_path
from simu.interp import run
from simu.launch import Launch

runner = CliRunner()

HOST_DEFINES = """#pragma once
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
"""
RUNTIME = """#pragma once
#include <stddef.h>
#include "host_defines.h"
#define MY_TOOLKIT_RUNTIME 1
#define CUDART_VERSION 12040
struct uint3 { unsigned int x, y, z; };
static inline __host__ __device__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  uint3 u = {x, y, z};
  return u;
}
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int a = 1, unsigned int b = 1, unsigned int c = 1) : x(a), y(b), z(c) {}
};
typedef struct CUstream_st *cudaStream_t;
"""
KERNEL = r"""
#include <math.h>
#include <stdlib.h>
#ifndef MY_TOOLKIT_RUNTIME
#error not compiled against the toolkit's headers
#endif
#if CUDA_VERSION != 12040 || __CUDACC_VER_MAJOR__ != 12
#error version macros
#endif
__global__ void k(float *y) {
  __shared__ float t[64];
  t[threadIdx.x] = sqrtf((float)threadIdx.x) + __expf(0.0f) + (float)abs(-1);
  __syncthreads();
  y[blockIdx.x * blockDim.x + threadIdx.x] = t[63 - threadIdx.x] + __shfl_xor_sync(0xffffffffu, 1.0f, 1);
}
"""


def _toolkit(root: Path) -> Path:
    inc = root / "include"
    inc.mkdir(parents=True)
    (inc / "host_defines.h").write_text(HOST_DEFINES)
    (inc / "cuda_runtime.h").write_text(RUNTIME)
    return root


def _expected() -> np.ndarray:
    return (np.sqrt(np.arange(64, dtype=np.float32))[::-1] + 2 + 1).astype(np.float32)


def test_kernel_runs_against_the_toolkit_headers(tmp_path):
    tk = _toolkit(tmp_path / "tk")
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    m = load_file(src, CompileOptions(cuda_path=str(tk)))
    r = run(m, m.kernels[0], Launch(grid=(1, 1, 1), block=(64, 1, 1), args={"y": np.zeros(64, np.float32)}))
    assert np.allclose(r.buffers["y"], _expected(), rtol=1e-6)


@pytest.mark.parametrize("command", ["check", "scan", "kernels", "compile", "run"])
@pytest.mark.parametrize("bad", ["missing", "not-a-toolkit"])
def test_bad_cuda_path_is_one_error_line(tmp_path, command, bad):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(int *p) { p[threadIdx.x] = 0; }\n")
    path = tmp_path / "nowhere"
    if bad == "not-a-toolkit":
        path.mkdir()
    res = runner.invoke(app, [command, str(src), "--cuda-path", str(path)])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--cuda-path" in lines[0] and "Traceback" not in res.output, res.output
    assert ("no such directory" if bad == "missing" else "include/cuda_runtime.h") in lines[0]


def test_config_key_and_its_errors(tmp_path):
    _toolkit(tmp_path / "tk")
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "pyproject.toml").write_text('[tool.simu]\ncuda-path = "tk"\n')
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu"), "--grid", "1", "--block", "64"])
    assert res.exit_code == 0, res.output
    assert "analysed" in res.output
    (tmp_path / "pyproject.toml").write_text('[tool.simu]\ncuda-path = "nope"\n')
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu"), "--grid", "1", "--block", "64"])
    assert res.exit_code == 2 and "cuda-path" in res.output and "no such directory" in res.output, res.output
    (tmp_path / "pyproject.toml").write_text('[tool.simu]\ncuda-path = 3\n')
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu")])
    assert res.exit_code == 2 and "cuda-path" in res.output, res.output


def test_detected_from_cuda_path_and_nvcc(tmp_path, monkeypatch):
    tk = _toolkit(tmp_path / "tk")
    assert detect_cuda_path({"CUDA_PATH": str(tk), "PATH": ""}) == str(tk)
    assert detect_cuda_path({"CUDA_PATH": str(tmp_path / "nope"), "PATH": ""}) is None
    (tk / "bin").mkdir()
    nvcc = tk / "bin" / "nvcc"
    nvcc.write_text("#!/bin/sh\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IXUSR)
    assert detect_cuda_path({"PATH": str(tk / "bin")}) == str(tk.resolve())
    assert check_cuda_path(str(tk)) is None
    # end to end: the shim would stop at the #error; the detected toolkit compiles it
    (tmp_path / "k.cu").write_text(KERNEL)
    monkeypatch.setenv("CUDA_PATH", str(tk))
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu"), "--grid", "1", "--block", "64"])
    assert res.exit_code == 0 and "analysed" in res.output, res.output
    # a file the detected toolkit's headers do not compile gets simu's own headers, with a note
    (tmp_path / "host.cu").write_text("__global__ void h(float3 *p) { p[threadIdx.x].x = 1.0f; }\n"
                                      "int main() { float3 *d; cudaMalloc(&d, 12); h<<<1, 32>>>(d); }\n")
    res = runner.invoke(app, ["check", str(tmp_path / "host.cu"), "--grid", "1", "--block", "32"])
    assert res.exit_code == 0 and "analysed" in res.output and "compiled with simu's CUDA headers" in res.output, \
        res.output
    # asked for explicitly, it is not replaced
    res = runner.invoke(app, ["check", str(tmp_path / "host.cu"), "--cuda-path", str(tk)])
    assert res.exit_code == 2 and "float3" in res.output, res.output
    monkeypatch.delenv("CUDA_PATH")
    monkeypatch.setenv("PATH", os.defpath)
    res = runner.invoke(app, ["check", str(tmp_path / "k.cu"), "--grid", "1", "--block", "64"])
    assert res.exit_code == 2 and "not compiled against the toolkit" in res.output, res.output


REAL = os.environ.get("SIMU_TEST_CUDA_PATH") or detect_cuda_path()


@pytest.mark.skipif(REAL is None, reason="no CUDA toolkit headers (set SIMU_TEST_CUDA_PATH, CUDA_PATH or put nvcc "
                                         "on PATH)")
def test_real_toolkit_headers(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(KERNEL.replace("#ifndef MY_TOOLKIT_RUNTIME\n#error not compiled against the toolkit's headers\n"
                                  "#endif\n", "").replace("CUDA_VERSION != 12040 || ", ""))
    m = load_file(src, CompileOptions(cuda_path=REAL))
    r = run(m, m.kernels[0], Launch(grid=(1, 1, 1), block=(64, 1, 1), args={"y": np.zeros(64, np.float32)}))
    assert np.allclose(r.buffers["y"], _expected(), rtol=1e-6)
