"""Small hand-written kernels in the generated-file format, for tests/test_bench_generated*.py.

Each entry is (file name, header lines, body).  ``{a}``, ``{b}`` in a header become the line numbers
of the body lines marked ``// @a``, ``// @b``, so labels stay right when a kernel is edited.
"""

from __future__ import annotations

import re
from pathlib import Path

CLEAN_CL = """__kernel void scale(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    out[i] = in[i] * 2.0f + 1.0f;
}
"""

CLEAN_LOCAL_CL = """__kernel void reverse(__global const int *in, __global int *out)
{
    __local int tile[32];
    const int l = get_local_id(0), g = get_group_id(0) * 32;
    tile[l] = in[g + l] ^ (l * 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g + l] = tile[31 - l] + (int)get_group_id(0);
}
"""

# 64 work-items: two warps, so the race is not hidden by the lockstep warp model
DROP_BARRIER_CL = """__kernel void shift(__global const float *in, __global float *out)
{
    __local float tile[64];
    const int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];  // @a
    out[get_global_id(0)] = tile[(l + 1) % 64];  // @b
}
"""

# one warp: ordered under the lockstep warp model, a warp-race under independent thread scheduling
WARP_CL = """__kernel void shift(__global const float *in, __global float *out)
{
    __local float tile[32];
    const int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];  // @a
    out[get_global_id(0)] = tile[(l + 1) % 32];  // @b
}
"""

OOB_CL = """__kernel void past_end(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    out[i + 1] = in[i];  // @a
}
"""

DIVERGENT_CL = """__kernel void half_barrier(__global float *out)
{
    __local float tile[32];
    const int l = get_local_id(0);
    tile[l] = (float)l;
    if (l < 16)
        barrier(CLK_LOCAL_MEM_FENCE);  // @a
    out[get_global_id(0)] = tile[l];
}
"""

DROP_BARRIER_CU = """__global__ void shift(const float *in, float *out)
{
    __shared__ float tile[64];
    int l = threadIdx.x;
    tile[l] = in[blockIdx.x * 64 + l];  // @a
    out[blockIdx.x * 64 + l] = tile[(l + 1) % 64];  // @b
}
"""

# labelled clean, but xor and add do not commute: the result depends on the order of the atomics
MIXED_ATOMICS_CL = """__kernel void mixed_ops(__global uint *acc)
{
    const uint l = get_local_id(0);
    if (l & 1u)
        atomic_xor(&acc[0], l * 2654435761u);
    else
        atomic_add(&acc[0], l + 1u);
}
"""

LAUNCH_1D = "// launch: grid=2 block=32 in=float32:64 out=float32:64"
LAUNCH_64 = "// launch: grid=2 block=64 in=float32:128 out=float32:128"


def _gen(seed: int, mode: str, plant: str, lang: str = "opencl") -> str:
    return f"// generated: seed={seed} mode={mode} lang={lang} plant={plant} emi=0"


KERNELS = [
    ("clean.cl", [_gen(1, "basic", "none"), "// expect: clean", LAUNCH_1D], CLEAN_CL),
    ("clean_local.cl", [_gen(2, "barrier", "none"), "// expect: clean",
                        "// launch: grid=2 block=32 in=int32:64 out=int32:64"], CLEAN_LOCAL_CL),
    ("drop_barrier.cl", [_gen(3, "barrier", "drop-barrier"), "// expect: race shared read-write lines {a},{b}",
                         LAUNCH_64], DROP_BARRIER_CL),
    ("warp.cl", [_gen(8, "warp", "warp-no-syncwarp"),
                 "// expect(independent): warp-race shared read-write lines {a},{b}", LAUNCH_1D], WARP_CL),
    ("oob.cl", [_gen(4, "basic", "out-of-bounds"), "// expect: out-of-bounds global line {a}", LAUNCH_1D], OOB_CL),
    ("divergent.cl", [_gen(5, "barrier", "divergent-barrier"), "// expect: barrier-divergence line {a}",
                      "// launch: grid=2 block=32 out=float32:64"], DIVERGENT_CL),
    # deliberately wrong: the kernel races (an unexpected error: one false positive) and never runs past
    # its buffers (the label's out-of-bounds is missed: one false negative)
    ("mislabelled.cl", [_gen(6, "barrier", "out-of-bounds"), "// expect: out-of-bounds global line {b}",
                        LAUNCH_64], DROP_BARRIER_CL),
    ("drop_barrier.cu", [_gen(7, "barrier", "drop-barrier", "cuda"),
                         "// expect: race shared read-write lines {a},{b}",
                         "// launch: grid=2 block=64 in=float32:128 out=float32:128"], DROP_BARRIER_CU),
]


def render(header: list[str], body: str) -> str:
    """The file text: the header, then the body, marker lines numbered."""
    marks = {m.group(1): len(header) + i + 1 for i, line in enumerate(body.splitlines())
             for m in [re.search(r"// @(\w)", line)] if m}
    return "\n".join(h.format(**marks) for h in header) + "\n" + body


def write_kernels(folder: Path, names: list[str] | None = None) -> list[Path]:
    """Write the kernels (all, or those named) into ``folder``; their paths, sorted."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, header, body in KERNELS:
        if names is None or name in names:
            p = folder / name
            p.write_text(render(header, body))
            out.append(p)
    return sorted(out)
