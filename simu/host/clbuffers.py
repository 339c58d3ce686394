"""OpenCL buffer sizes in host code: ``buf = clCreateBuffer(ctx, flags, n * sizeof(float), ...)`` and the C++
wrapper's ``cl::Buffer buf(ctx, flags, size)``; ``__local`` arguments sized by ``clSetKernelArg(k, i, bytes, NULL)``
or ``setArg(i, cl::Local(bytes))`` (:func:`local_sizes`, kept under :data:`LOCAL_KEY`).

Each allocation is kept (in :attr:`HostFile.extra <simu.host.model.HostFile.extra>` under :data:`EXTRA_KEY`)
with its variable, line and length in elements of the allocated type (:meth:`Evaluator.element_count`); the
launch contracts (:mod:`simu.host.contracts`) bind it to a kernel argument through the
``clSetKernelArg(k, i, sizeof(cl_mem), &buf)`` that passes it.
"""

from __future__ import annotations

import re

from simu.host.cscan import CSource, split_args
from simu.host.cuda import instance_name, instantiations
from simu.host.cvalues import Evaluator

EXTRA_KEY = "cl_buffers"
LOCAL_KEY = "cl_local_args"
_CPP_LOCAL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*(?:\.|->)\s*setArg\s*\(")
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
        fn = src.enclosing(pos)
        rows = []
        for types in instantiations(src, fn) if fn is not None else [{}]:  # sizeof(T) in a function template
            ev.types = types
            length, elem = ev.element_count(size, pos)
            instance = instance_name(fn, types)
            rows.append({"var": var, "line": src.line_of(pos), "length": length, "elem_bytes": elem,
                         "instance": instance})
        ev.types = {}
        if all((r["length"], r["elem_bytes"]) == (rows[0]["length"], rows[0]["elem_bytes"]) for r in rows):
            rows = [{**rows[0], "instance": ""}]
        out += rows
    return out


def local_sizes(src: CSource) -> list[dict]:
    """``[{"kernel", "index", "line", "length", "elem_bytes"}]`` per ``__local`` argument of a constant size."""
    ev = Evaluator(src)
    out = []
    for c in src.calls("clSetKernelArg"):
        if len(c.args) >= 4 and c.args[3].strip() in ("NULL", "nullptr", "0"):
            out.append((c.args[0], c.args[1], c.args[2], c.pos))
    for m in _CPP_LOCAL.finditer(src.code):
        args, _ = split_args(src.code, m.end())
        if args and len(args) == 2:
            local = re.fullmatch(r"(?:cl::)?(?:Local|__local)\s*\((.*)\)", args[1].strip(), re.S)
            if local:
                out.append((m.group(1), args[0], local.group(1), m.start()))
    rows = []
    for kernel, index, size, pos in out:
        i = ev.int_value(index, pos)
        length, elem = ev.element_count(size, pos)
        if i is not None and isinstance(length, int) and length > 0:
            rows.append({"kernel": kernel, "index": i, "line": src.line_of(pos), "length": length, "elem_bytes": elem})
    return rows


def local_size_at(extra: dict, kernel: str, index: int, line: int) -> dict | None:
    """The size (``length``, ``elem_bytes`` as :meth:`Evaluator.element_count` gives them) of the ``__local``
    argument ``index`` set at ``line`` (see :func:`local_sizes`)."""
    for r in extra.get(LOCAL_KEY, ()):
        if r["line"] == line and r["index"] == index and re.sub(r"\s+", "", r["kernel"]) == kernel:
            return r
    return None


def buffers_in(extra: dict, var: str, line: int, instance: str = "") -> dict | None:
    """The last allocation of ``var`` at or before ``line`` in a host file's ``extra`` (in the function template's
    instantiation ``instance`` where its instantiations allocate differently)."""
    rows = [r for r in extra.get(EXTRA_KEY, ()) if r["var"] == var and r["line"] <= line
            and r.get("instance", "") in ("", instance)]
    return max(rows, key=lambda r: r["line"]) if rows else None


def _lhs(code: str, pos: int) -> str | None:
    m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?=\s*(?:\(\s*cl_mem\s*\)\s*)?$", code[max(0, pos - 120):pos])
    return m.group(1) if m else None

