"""Function-like macros that launch kernels, expanded where they are used.

Benchmarks wrap their launches in a macro of a project header (shoc's S3D:
``#define clLaunchKernel(k) { err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &globalWorkSize, …); … }`` in
``S3D.h``, used as ``clLaunchKernel(ratt_kernel);`` in ``S3D.cpp``).  The lexical index reads calls where they
are written, so the launch inside the macro names no kernel and the uses name no launch.  A use of a macro whose
body calls ``clEnqueueNDRangeKernel``, ``clSetKernelArg``, allocates with ``clCreateBuffer``/``cudaMalloc``
(S3D's ``clMalloc(d_y, n_species*base)``: the buffer's length) or launches with ``<<<`` is replaced by the body with
its parameters substituted, on the use's own line (the newlines a use spans follow it, so every later line keeps
its number and a launch read there is reported at the use).  Macros that stringify or paste (``#``) or take
variadic arguments are left alone.
"""

from __future__ import annotations

import re

from simu.frontend.ctext import comment_free
from simu.host.cscan import split_args

# the C++ wrapper's ``queue.enqueueNDRangeKernel(kernel, …)``; HIP's launch macro
LAUNCH_CALLS = ("clEnqueueNDRangeKernel", "clSetKernelArg", "clCreateBuffer", "cudaMalloc", "<<<",
                "enqueueNDRangeKernel", "hipLaunchKernelGGL")
FUNCTION_MACRO = re.compile(  # name, parameters, body (continuation lines kept)
    r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n\\]|\\\n|\\.)*)", re.M)
_IDENT = re.compile(r"[A-Za-z_]\w*")

Macro = tuple[tuple[str, ...], str]  # parameters, body on one line


def launch_macros(text: str) -> dict[str, Macro]:
    """The function-like macros of ``text`` whose bodies launch (first definition wins)."""
    out: dict[str, Macro] = {}
    if not any(c in text for c in LAUNCH_CALLS):
        return out
    for m in FUNCTION_MACRO.finditer(comment_free(text)):
        body = " ".join(m.group(3).replace("\\\n", " ").split())
        params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
        if any(c in body for c in LAUNCH_CALLS) and "#" not in body and "..." not in params:
            out.setdefault(m.group(1), (params, body))
    return out


def expand_launch_macros(text: str, macros: dict[str, Macro]) -> str:
    """``text`` with every use of ``macros`` (outside ``#`` lines) expanded in place, line numbers kept."""
    if not macros or not any(name in text for name in macros):
        return text
    use = re.compile(r"\b(" + "|".join(map(re.escape, sorted(macros))) + r")\s*\(")
    out: list[str] = []
    pos = 0
    for m in use.finditer(text):
        if m.start() < pos:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#"):
            continue  # the definition itself, or another directive
        args, end = split_args(text, m.end())
        params, body = macros[m.group(1)]
        if args is None or len(args) != len(params):
            continue
        out += [text[pos:m.start()], _substitute(body, dict(zip(params, (" ".join(a.split()) for a in args),
                                                                  strict=True))),
                "\n" * text.count("\n", m.start(), end)]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _substitute(body: str, bound: dict[str, str]) -> str:
    return _IDENT.sub(lambda i: bound.get(i.group(0), i.group(0)), body)


_HIP_LAUNCH = re.compile(r"\bhipLaunchKernelGGL\s*\(")


def expand_hip_launches(text: str) -> str:
    """``hipLaunchKernelGGL(k, grid, block, shmem, stream, args…)`` (HIP's launch, a variadic macro of its runtime
    header) written as the ``k<<<grid, block, shmem, stream>>>(args…)`` it expands to, on the use's own line (line
    numbers kept); ``HIP_KERNEL_NAME(k<T>)`` is ``k<T>``."""
    if "hipLaunchKernelGGL" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _HIP_LAUNCH.finditer(text):
        if m.start() < pos:
            continue
        args, end = split_args(text, m.end())
        if args is None or len(args) < 5:
            continue
        kernel = re.sub(r"^HIP_KERNEL_NAME\s*\((.*)\)$", r"\1", " ".join(args[0].split()), flags=re.S)
        config = ", ".join(" ".join(a.split()) for a in args[1:5])
        passed = ", ".join(" ".join(a.split()) for a in args[5:])
        out += [text[pos:m.start()], f"{kernel}<<<{config}>>>({passed})", "\n" * text.count("\n", m.start(), end)]
        pos = end
    out.append(text[pos:])
    return "".join(out)

