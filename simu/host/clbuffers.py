"""OpenCL buffer sizes in host code: ``buf = clCreateBuffer(ctx, flags, n * sizeof(float), ...)`` and the C++
wrapper's ``cl::Buffer buf(ctx, flags, size)``.

Each allocation is kept (in :attr:`HostFile.extra <simu.host.model.HostFile.extra>` under :data:`EXTRA_KEY`)
with its variable, line and length in elements of the allocated type (:meth:`Evaluator.element_count`); the
launch contracts (:mod:`simu.host.contracts`) bind it to a kernel argument through the
``clSetKernelArg(k, i, sizeof(cl_mem), &buf)`` that passes it.
"""

from __future__ import annotations

import re

from simu.host.cscan import CSource, split_args
from simu.host.cvalues import Evaluator

EXTRA_KEY = "cl_buffers"
_CPP = re.compile(r"(?:cl::)?Buffer\s+([A-Za-z_]\w*)\s*[({]")
_CPP_ASSIGN = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*=\s*(?:cl::)?Buffer\s*[({]")


def cl_buffers(src: CSource) -> list[dict]:
    """``[{"var", "line", "length", "elem_bytes"}]`` per buffer allocation: ``length`` is a number, an
    expression (text) or ``None``; ``elem_bytes`` is ``None`` when the length counts bytes."""
    ev = Evaluator(src)
    found: list[tuple[str, int, str]] = []  # (var, pos, size text)
    for c in src.calls("clCreateBuffer"):
        var = _lhs(src.code, c.pos)
        if var and len(c.args) >= 3:
            found.append((var, c.pos, c.args[2]))
    for pat in (_CPP, _CPP_ASSIGN):
        for m in pat.finditer(src.code):
            args, _ = split_args(src.code, m.end())
            if not args or len(args) < 2:
                continue
            # (context, flags, size[, ptr]) or (flags, size[, ptr]) on the default context
            size = args[1] if "CL_MEM_" in args[0] else args[2] if len(args) >= 3 else None
            if size is not None:
                found.append((m.group(1), m.start(), size))
    out = []
    for var, pos, size in found:
        length, elem = ev.element_count(size, pos)
        out.append({"var": var, "line": src.line_of(pos), "length": length, "elem_bytes": elem})
    return out


def buffers_in(extra: dict, var: str, line: int) -> dict | None:
    """The last allocation of ``var`` at or before ``line`` in a host file's ``extra``."""
    rows = [r for r in extra.get(EXTRA_KEY, ()) if r["var"] == var and r["line"] <= line]
    return max(rows, key=lambda r: r["line"]) if rows else None


def _lhs(code: str, pos: int) -> str | None:
    m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?=\s*(?:\(\s*cl_mem\s*\)\s*)?$", code[max(0, pos - 120):pos])
    return m.group(1) if m else None

