"""A generated kernel file with a lot of IR, like a password-cracking kernel file.

Many hash "families" (helper functions of fully unrolled rotate/xor/add rounds written as macros),
large ``__constant`` tables and many kernels, each of which reaches only its own family.  At
``families=120`` (the default) clang emits about 20 MB of IR; ``python -m simu.bench.irscale`` times
each stage from clang to the first kernel's compiled program.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

_ROUND = ("#define ROTL(x, n) (((x) << (n)) | ((x) >> (32u - (n))))\n"
          "#define STEP(a, b, c, d, k, s) { a += ((b & c) | (~b & d)) + k; a = ROTL(a, s) + b; d ^= a; }\n")


def opencl_source(families: int = 120, rounds: int = 64, table: int = 256) -> str:
    """OpenCL C: ``families`` hash helpers with ``rounds`` unrolled steps each, one table each, and
    two kernels per family (a "crack" kernel and a "verify" kernel) that reach only that family."""
    out = [_ROUND]
    for f in range(families):
        vals = ", ".join(f"0x{(f * 2654435761 + i * 40503) & 0xFFFFFFFF:08x}u" for i in range(table))
        out.append(f"__constant uint K{f}[{table}] = {{{vals}}};\n")
        steps = "\n".join(
            f"    STEP({'abcd'[i % 4]}, {'bcda'[i % 4]}, {'cdab'[i % 4]}, {'dabc'[i % 4]}, "
            f"K{f}[{(i * 7 + f) % table}] ^ w[{i % 16}], {(i * 5 + f) % 31 + 1});"
            for i in range(rounds))
        out.append(f"void hash{f}(uint w[16], uint st[4]) {{\n"
                   "    uint a = st[0], b = st[1], c = st[2], d = st[3];\n"
                   f"{steps}\n"
                   "    st[0] += a; st[1] += b; st[2] += c; st[3] += d;\n}\n")
        out.append(f"__kernel void crack{f}(__global const uint *words, __global uint *digests, uint n) {{\n"
                   "    uint gid = get_global_id(0);\n"
                   "    if (gid >= n) return;\n"
                   "    uint w[16]; uint st[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};\n"
                   "    for (int i = 0; i < 16; i++) w[i] = words[gid * 16 + i];\n"
                   f"    hash{f}(w, st);\n"
                   "    for (int i = 0; i < 4; i++) digests[gid * 4 + i] = st[i];\n}\n")
        out.append(f"__kernel void verify{f}(__global const uint *digests, __global const uint *target,\n"
                   "                      __global int *found, uint n) {\n"
                   "    uint gid = get_global_id(0);\n"
                   "    if (gid >= n) return;\n"
                   "    if (digests[gid * 4] == target[0] && digests[gid * 4 + 1] == target[1]) *found = gid;\n}\n")
    return "".join(out)


def cuda_source(families: int = 120, rounds: int = 64, table: int = 256) -> str:
    """The same file in CUDA: ``__constant__`` tables, ``__device__`` helpers, ``__global__`` kernels."""
    src = opencl_source(families, rounds, table)
    src = src.replace("__constant uint", "__constant__ uint").replace("void hash", "__device__ void hash")
    src = src.replace("__kernel void", "extern \"C\" __global__ void").replace("__global const uint", "const uint")
    src = src.replace("__global uint", "uint").replace("__global int", "int")
    src = src.replace("get_global_id(0)", "(blockIdx.x * blockDim.x + threadIdx.x)")
    return "typedef unsigned int uint;\n" + src


def _cpu() -> float:
    """CPU seconds of this process and its finished children (clang): a figure a loaded machine does not inflate."""
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def time_stages(path: Path) -> list[tuple[str, float, float]]:
    """(stage, wall seconds, CPU seconds): clang + postprocess, decoding up to the kernel list, the
    first kernel's program."""
    from simu.frontend import compile_file
    from simu.interp.compiler import compile_kernel
    from simu.ir import load_module

    rows = []
    w0, c0 = time.perf_counter(), _cpu()
    compiled = compile_file(path)
    w1, c1 = time.perf_counter(), _cpu()
    rows.append(("compile (clang + postprocess)", w1 - w0, c1 - c0))
    module = load_module(compiled.ir, str(path), compiled.language, compiled.param_names)
    kernels = module.kernels
    w2, c2 = time.perf_counter(), _cpu()
    rows.append((f"decode to the kernel list ({len(kernels)} kernels)", w2 - w1, c2 - c1))
    compile_kernel(module, kernels[0])
    w3, c3 = time.perf_counter(), _cpu()
    rows.append((f"first kernel's program ({kernels[0].name})", w3 - w2, c3 - c2))
    rows.append(("total", w3 - w0, c3 - c0))
    rows.append((f"IR after postprocess, MB: {len(compiled.ir) / 1e6:.1f}", 0.0, 0.0))
    return rows


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--families", type=int, default=120)
    ap.add_argument("--language", choices=("opencl", "cuda"), default="opencl")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="simu-irscale-") as tmp:
        suffix, gen = (".cl", opencl_source) if a.language == "opencl" else (".cu", cuda_source)
        path = Path(tmp) / f"crack{suffix}"
        path.write_text(gen(a.families))
        print(f"{'stage':48s} {'wall s':>8s} {'CPU s':>8s}")
        for name, wall, cpu in time_stages(path):
            print(f"{name:48s} {wall:8.2f} {cpu:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
