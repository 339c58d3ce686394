#!/usr/bin/env python3
"""Cost of a command on one program against the size of the repository around it (issue 28, item 4).

Generates, in a temporary folder, a git repository of N small programs (default 2,000), each its own folder
under ``progs/gGG/pNNNN/`` (20 groups), of five kinds in turn:

0. ``main.cu``: a kernel and a ``main()`` launching it;
1. ``main.cu`` including ``common.h`` from the repository's ``include/`` (``BLOCK``) and a local ``params.h``;
2. a five-file program: ``kernel.cu`` (kernel + ``extern "C"`` wrapper), ``kernel.h``, ``main.cpp`` calling the
   wrapper, ``util.h``, ``Makefile`` (every other one calls a wrapper named ``run_kernel``, a name many programs
   share, the others one of their own);
3. OpenCL: ``host.c`` building ``kernel.cl`` with ``-DTILE=16`` and enqueueing it;
4. ``main.cu`` with a template kernel and a command-line default (``if (argc > 1) n = atoi(argv[1])``).

Then times, as separate processes (``python -m simu``, what a user runs), ``--repeat`` rounds of each (the figure
is the median; a round runs the command in place and alone in turn):

* ``simu check ONE.cu --budget 1`` in place, first run (no ``.simu-cache``) and second run, against the same
  file copied alone to an empty folder outside any repository (a kind-0 file and a kind-2 ``kernel.cu``; a kind-3
  ``kernel.cl`` with its ``host.c``, whose build options it needs);
* ``simu kernels FOLDER`` of a kind-2 program in place against the folder copied out;
* ``simu scan --changed --budget 1 -j 1`` at the repository's root with one kernel file edited and staged (the
  pre-commit path), first and second run, against the same in the copied folder made a repository of its own.

    python benchmarks/scale.py [--programs 2000] [--keep DIR] [--only check,kernels,scan] [--repeat 3]
                               [--json FILE] [--no-bytecode] [--resident] [--simu CHECKOUT]

Run with simu's Python environment; the children run the checkout ``--simu`` names (default: the one holding this
script) through ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIMU_ROOT = HERE.parent
GROUP = 100  # programs per group folder

CUDA_MAIN = """\
#include <cstdio>
#include <cuda_runtime.h>

__global__ void {k}(float *out, const float *in, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i] + {i}.0f;
}}

int main(int argc, char **argv)
{{
    int n = 4096;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    {k}<<<n / 256, 256>>>(d_out, d_in, n);
    cudaDeviceSynchronize();
    printf("done\\n");
    return 0;
}}
"""

CUDA_HEADER_MAIN = """\
#include <cstdio>
#include <cuda_runtime.h>
#include "common.h"
#include "params.h"

__global__ void {k}(float *data, int n)
{{
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    tile[threadIdx.x] = i < n ? data[i] : 0.0f;
    __syncthreads();
    if (i < n)
        data[i] = tile[(threadIdx.x + 1) % BLOCK] * SCALE_{i};
}}

int main()
{{
    int n = N_{i};
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    {k}<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d, n);
    cudaDeviceSynchronize();
    return 0;
}}
"""

PARAMS_H = """\
#ifndef PARAMS_{i}_H
#define PARAMS_{i}_H
#define N_{i} {n}
#define SCALE_{i} {i}.5f
#endif
"""

COMMON_H = """\
#ifndef COMMON_H
#define COMMON_H
#define BLOCK 128
#define CHECK(x) do {{ cudaError_t e = (x); if (e != cudaSuccess) return 1; }} while (0)
#endif
"""

WRAPPER_CU = """\
#include <cuda_runtime.h>
#include "kernel.h"
#include "util.h"

__global__ void {k}(float *y, const float *x, float a, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}}

extern "C" void {w}(float *y, const float *x, float a, int n)
{{
    int threads = THREADS;
    {k}<<<(n + threads - 1) / threads, threads>>>(y, x, a, n);
}}
"""

WRAPPER_H = """\
#ifndef KERNEL_{i}_H
#define KERNEL_{i}_H
#ifdef __cplusplus
extern "C" {{
#endif
void {w}(float *y, const float *x, float a, int n);
#ifdef __cplusplus
}}
#endif
#endif
"""

UTIL_H = """\
#ifndef UTIL_{i}_H
#define UTIL_{i}_H
#define THREADS {threads}
static inline int round_up_{i}(int n, int m) {{ return (n + m - 1) / m * m; }}
#endif
"""

WRAPPER_MAIN = """\
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "kernel.h"

int main(int argc, char **argv)
{{
    int n = {n};
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    {w}(y, x, 2.0f, n);
    cudaDeviceSynchronize();
    printf("ok\\n");
    return 0;
}}
"""

MAKEFILE = """\
all: prog{i}
prog{i}: kernel.cu main.cpp
\tnvcc -o $@ $^
"""

OPENCL_HOST = """\
#include <stdio.h>
#include <stdlib.h>
#include <CL/cl.h>

int main(void)
{{
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    FILE *f = fopen("kernel.cl", "r");
    char src[65536];
    size_t len = fread(src, 1, sizeof(src), f);
    const char *p = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &p, &len, &err);
    clBuildProgram(prog, 1, &device, "-DTILE=16", NULL, NULL);
    cl_kernel k = clCreateKernel(prog, "{k}", &err);
    int n = {n};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &buf);
    clSetKernelArg(k, 1, sizeof(int), &n);
    size_t global = n, local = TILE_{i};
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    return 0;
}}
"""

OPENCL_KERNEL = """\
__kernel void {k}(__global float *data, int n)
{{
    __local float tile[TILE];
    int i = get_global_id(0);
    int l = get_local_id(0);
    tile[l] = i < n ? data[i] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n)
        data[i] = tile[(l + 1) % TILE];
}}
"""

TEMPLATE_MAIN = """\
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T, int B>
__global__ void {k}(T *out, const T *in, int n)
{{
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n)
        out[i] = in[i] + in[(i + 1) % n];
}}

int main(int argc, char **argv)
{{
    int n = 2048;
    if (argc > 1)
        n = atoi(argv[1]);
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    {k}<float, 64><<<(n + 63) / 64, 64>>>(b, a, n);
    cudaDeviceSynchronize();
    return 0;
}}
"""


def program_dir(root: Path, i: int) -> Path:
    return root / "progs" / f"g{i // GROUP:02d}" / f"p{i:04d}"


def write_program(root: Path, i: int) -> None:
    d = program_dir(root, i)
    d.mkdir(parents=True)
    kind = i % 5
    shared = i % 2 == 0  # half of the programs use names other programs use too
    k = "saxpy" if shared else f"saxpy_{i}"
    if kind == 0:
        (d / "main.cu").write_text(CUDA_MAIN.format(k=f"scale_{i}" if not shared else "scale", i=i))
    elif kind == 1:
        (d / "main.cu").write_text(CUDA_HEADER_MAIN.format(k=f"shift_{i}" if not shared else "shift", i=i))
        (d / "params.h").write_text(PARAMS_H.format(i=i, n=1024 + 128 * (i % 8)))
    elif kind == 2:
        w = "run_kernel" if i % 2 == 1 else f"run_saxpy_{i}"
        (d / "kernel.cu").write_text(WRAPPER_CU.format(k=k, w=w, i=i))
        (d / "kernel.h").write_text(WRAPPER_H.format(w=w, i=i))
        (d / "util.h").write_text(UTIL_H.format(i=i, threads=64 << (i % 3)))
        (d / "main.cpp").write_text(WRAPPER_MAIN.format(w=w, n=2048 + i % 7 * 256))
        (d / "Makefile").write_text(MAKEFILE.format(i=i))
    elif kind == 3:
        kname = "tiled" if shared else f"tiled_{i}"
        (d / "host.c").write_text(OPENCL_HOST.format(k=kname, n=1024, i=i).replace(f"TILE_{i}", "16"))
        (d / "kernel.cl").write_text(OPENCL_KERNEL.format(k=kname))
    else:
        (d / "main.cu").write_text(TEMPLATE_MAIN.format(k=f"stencil_{i}" if not shared else "stencil"))


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def make_repository(root: Path, programs: int) -> None:
    (root / "include").mkdir(parents=True)
    (root / "include" / "common.h").write_text(COMMON_H.format())
    for i in range(programs):
        write_program(root, i)
    git(root, "init", "-q")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "add", "-A")
    git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "programs")


BYTECODE = True  # children may read and write __pycache__ (--no-bytecode: as PYTHONDONTWRITEBYTECODE says)


def simu(args: list[str], cwd: Path, timeout: float) -> tuple[float, int, str]:
    """Wall seconds, exit code and the last stderr line of one ``python -m simu`` run."""
    env = {**os.environ, "PYTHONPATH": str(SIMU_ROOT)}
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "simu", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, -1, f"timed out after {timeout:.0f} s"
    dt = time.perf_counter() - t0
    tail = (proc.stderr.strip().splitlines() or [""])[-1][:200]
    if "Traceback" in proc.stderr:
        return dt, -2, tail  # a crash, not findings (exit code 1)
    return dt, proc.returncode, tail


def copy_alone(files: list[Path], into: Path) -> Path:
    into.mkdir(parents=True)
    for f in files:
        shutil.copy2(f, into / f.name)
    return into


def scan_changed(repo: Path, target: Path, alone: Path, run) -> None:
    """``simu scan --changed`` with ``target`` edited and staged: in place, first (no ``.simu-cache``) and second
    run (another edit: the kernel is analysed again, the host files it reads are not parsed again); then the same
    in a repository holding the program alone."""
    rel = target.relative_to(repo).as_posix()
    original = target.read_text()
    shutil.rmtree(repo / ".simu-cache", ignore_errors=True)
    try:
        for n, what in ((1, "first"), (2, "second")):
            target.write_text(original + f"// edit {n} {time.time()}\n")
            git(repo, "add", str(target))
            run(f"scan --changed ({rel} edited) in place, {what} run",
                ["scan", "--changed", "--budget", "1", "-j", "1"], repo)
    finally:
        target.write_text(original)
        git(repo, "add", str(target))
    if not alone.exists():
        copy_alone(sorted(target.parent.iterdir()), alone)
        git(alone, "init", "-q")
        git(alone, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "add", "-A")
        git(alone, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "one")
    shutil.rmtree(alone / ".simu-cache", ignore_errors=True)
    for n, what in ((1, "first"), (2, "second")):
        (alone / target.name).write_text(original + f"// edit {n} {time.time()}\n")
        git(alone, "add", target.name)
        run(f"scan --changed ({rel} edited) alone, {what} run", ["scan", "--changed", "--budget", "1", "-j", "1"],
            alone)


def main() -> None:
    global BYTECODE, SIMU_ROOT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=2000)
    ap.add_argument("--keep", type=Path, help="generate the repository here (kept; reused when it exists)")
    ap.add_argument("--only", default="check,kernels,scan")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds one command may take")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--repeat", type=int, default=3, help="rounds; each figure is the median of its runs")
    ap.add_argument("--simu", type=Path, default=SIMU_ROOT,
                    help="the simu checkout to measure (its root is the children's PYTHONPATH; default: this one)")
    ap.add_argument("--resident", action="store_true",
                    help="answer every command from a resident checker (`simu serve`, started first, its start not "
                         "timed): what a user who keeps one running pays")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE as it is (every run compiles simu's modules: about 0.5 s more)")
    a = ap.parse_args()
    BYTECODE = not a.no_bytecode
    SIMU_ROOT = a.simu.resolve()
    only = set(a.only.split(","))
    dt, rc, tail = simu(["--version"], SIMU_ROOT, 120)
    if rc != 0:
        sys.exit(f"python -m simu does not run with {sys.executable} ({tail}): run this with simu's environment")
    if a.resident:
        dt, rc, tail = simu(["serve", "--detach", "--idle", "30"], SIMU_ROOT, 300)
        if rc != 0:
            sys.exit(f"simu serve did not start: {tail}")
    tmp = Path(tempfile.mkdtemp(prefix="simu-scale-"))
    repo = a.keep or tmp / "repo"
    if not (repo / ".git").is_dir():
        t0 = time.perf_counter()
        make_repository(repo, a.programs)
        print(f"generated {a.programs} programs in {repo} ({time.perf_counter() - t0:.1f} s)", flush=True)
    outside = tmp / "alone"  # not inside any repository: /tmp
    times: dict[str, list[float]] = {}
    commands: dict[str, str] = {}

    def run(label: str, args: list[str], cwd: Path) -> None:
        dt, rc, tail = simu(args, cwd, a.timeout)
        times.setdefault(label, []).append(round(dt, 2))
        commands[label] = "simu " + " ".join(args)
        print(f"{dt:8.2f} s  rc={rc}  {label}: simu {' '.join(args)}" + (f"   [{tail}]" if rc not in (0, 1) else ""),
              flush=True)

    if a.programs < 11:
        sys.exit("--programs: at least 11 (programs 7, 8 and 10 are measured)")
    plain = program_dir(repo, 10) / "main.cu"  # kind 0, a name other programs share
    wrapped = program_dir(repo, 7)  # kind 2, wrapper run_kernel shared with other programs
    cl = program_dir(repo, 8) / "kernel.cl"  # kind 3: kernel.cl, kernel tiled (names every other program uses)
    cache = repo / ".simu-cache"
    for _ in range(a.repeat):  # rounds: in place and alone in turn, so that the machine's load drifts over both
        if "check" in only:
            for f in (plain, wrapped / "kernel.cu", cl):
                rel = f.relative_to(repo).as_posix()
                shutil.rmtree(cache, ignore_errors=True)
                run(f"check {rel} in place, first run", ["check", str(f), "--budget", "1"], repo)
                run(f"check {rel} in place, second run", ["check", str(f), "--budget", "1"], repo)
                alone = outside / f"check-{f.parent.name}"
                if not alone.exists():  # a .cl file takes its host.c (its build options)
                    copy_alone([f] if f.suffix != ".cl" else sorted(f.parent.iterdir()), alone)
                run(f"check {rel} alone", ["check", str(alone / f.name), "--budget", "1"], alone)
        if "kernels" in only:
            rel = wrapped.relative_to(repo).as_posix()
            shutil.rmtree(cache, ignore_errors=True)
            run(f"kernels {rel} in place, first run", ["kernels", str(wrapped)], repo)
            run(f"kernels {rel} in place, second run", ["kernels", str(wrapped)], repo)
            alone = outside / "kernels"
            if not alone.exists():
                copy_alone(sorted(wrapped.iterdir()), alone)
            run(f"kernels {rel} alone", ["kernels", str(alone)], alone)
        if "scan" in only:
            scan_changed(repo, wrapped / "kernel.cu", outside / "scan", run)
    rows = [{"what": k, "median": statistics.median(v), "seconds": v, "command": commands[k], "bytecode": BYTECODE}
            for k, v in times.items()]
    print("\nmedians:")
    for r in rows:
        print(f"{r['median']:8.2f} s  {r['what']}  ({', '.join(f'{t:.2f}' for t in r['seconds'])})")
    if a.json:
        a.json.write_text(json.dumps({"programs": a.programs, "repeat": a.repeat, "rows": rows}, indent=2) + "\n")
    if a.resident:
        simu(["serve", "--stop"], SIMU_ROOT, 60)
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
