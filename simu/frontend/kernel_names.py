"""Which functions of an LLVM module are kernels, read off the IR text.

A kernel is marked in any of three ways, and the kernel list is their union:

- its calling convention: ``define ptx_kernel``, ``spir_kernel`` or ``amdgpu_kernel`` (what clang emits);
- NVVM's annotations: ``!nvvm.annotations = !{!0}`` with ``!0 = !{ptr @k, !"kernel", i32 1}`` (hand-written
  or older NVVM IR, typed pointers too: ``void (float*)* @k``);
- SPIR 1.2's ``!opencl.kernels = !{!0}`` with ``!0 = !{ptr @k, ...}`` (older OpenCL front ends).

Both the front end (which functions keep external linkage) and the IR decoder (which functions are
listed as kernels) use this one reading.
"""

from __future__ import annotations

import re

_CONV = re.compile(r"^define [^@\n]*\b(spir_kernel|ptx_kernel|amdgpu_kernel) [^@\n]*@(\"[^\"]+\"|[\w.$-]+)\(", re.M)
_NAMED = re.compile(r"^!(nvvm\.annotations|opencl\.kernels) = !\{(.*)\}\s*$", re.M)
_TUPLE = re.compile(r"^!(\d+) = (?:distinct )?!\{(.*)\}\s*$", re.M)
_FUNC_REF = re.compile(r"@(\"[^\"]+\"|[\w.$-]+)")


def kernel_names(ir: str) -> dict[str, str]:
    """Every kernel's name (unquoted) → the language its marking implies ("cuda", "opencl" or "" for
    AMDGPU), in the order first seen."""
    found: dict[str, str] = {}
    for m in _CONV.finditer(ir):
        found.setdefault(m.group(2).strip('"'), "opencl" if m.group(1) == "spir_kernel" else
                         "cuda" if m.group(1) == "ptx_kernel" else "")
    named = {m.group(1): m.group(2) for m in _NAMED.finditer(ir)}
    if not named:
        return found
    tuples = {m.group(1): m.group(2) for m in _TUPLE.finditer(ir)}
    for md, language in (("nvvm.annotations", "cuda"), ("opencl.kernels", "opencl")):
        for ref in re.findall(r"!(\d+)", named.get(md, "")):
            body = tuples.get(ref, "")
            if md == "nvvm.annotations" and not re.search(r'!"kernel",\s*i32\s+1\b', body):
                continue  # maxntid, texture, ... annotations
            fm = _FUNC_REF.search(body)
            if fm:
                found.setdefault(fm.group(1).strip('"'), language)
    return found
