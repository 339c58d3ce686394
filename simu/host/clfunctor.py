"""Kernels the OpenCL C++ wrapper calls as functions: ``cl::KernelFunctor`` (``opencl.hpp``, ``cl2.hpp``) and
``cl::make_kernel`` (``cl.hpp``).

    auto add = cl::KernelFunctor<int, cl::Buffer>(program, "add");        // or a name a choice picks
    add(cl::EnqueueArgs(queue, cl::NDRange(n), cl::NDRange(64)), n, d_a);  // a launch, its arguments in order

The functor is a kernel site (one per name its name expression may hold), each call a launch whose sizes are the
``EnqueueArgs`` ranges and whose arguments are the call's, as ``setArg`` would set them.
"""

from __future__ import annotations

import re

from simu.host.clnames import string_values
from simu.host.cscan import CSource, split_args
from simu.host.cvalues import Evaluator
from simu.host.model import ArgSite, KernelSite
from simu.host.state import state_source

_FUNCTOR = re.compile(r"(?:cl::)?(?:KernelFunctor|make_kernel)\s*<")
_RANGE = re.compile(r"\s*(?:cl::)?(?:NDRange|NullRange)\b")


def functor_kernels(src: CSource, ev: Evaluator, rel: str) -> list[KernelSite]:
    """``auto k = cl::KernelFunctor<…>(program, name)`` and ``cl::make_kernel<…> k(program, name)``."""
    out = []
    for m in _FUNCTOR.finditer(src.code):
        close = _template_end(src.code, m.end())
        if close is None:
            continue
        head = re.match(r"\s*([A-Za-z_]\w*)?\s*[({]", src.code[close:])
        if head is None:
            continue
        args, _ = split_args(src.code, close + head.end())
        if not args or len(args) < 2:
            continue
        var = head.group(1) or assigned_to(src.code, m.start())
        if not var:
            continue
        names = [n] if (n := ev.str_value(args[1], m.start())) else string_values(src, args[1])
        line = src.line_of(m.start())
        out += [KernelSite(rel, line, var, args[0], name) for name in names or [None]]
    return out


def functor_calls(src: CSource, kernels: list[KernelSite]) -> list[tuple[int, str, list[str], list[str]]]:
    """Each call of a functor variable: (position, variable, its ``EnqueueArgs`` items, the kernel arguments)."""
    out = []
    for var in dict.fromkeys(k.var for k in kernels):
        for m in re.finditer(rf"(?<![\w.>]){re.escape(var)}\s*\((?=\s*(?:cl::)?EnqueueArgs\s*\()", src.code):
            items, _ = split_args(src.code, m.end())
            head = re.match(r"\s*(?:cl::)?EnqueueArgs\s*\(", items[0]) if items else None
            if not items or head is None:
                continue
            enqueue, _ = split_args(items[0], head.end())
            if enqueue:
                out.append((m.start(), var, enqueue, items[1:]))
    return out


def functor_args(src: CSource, ev: Evaluator, rel: str, calls) -> list[ArgSite]:
    """The arguments of each functor call, as the ``setArg`` calls it makes (index i: the i-th argument)."""
    out = []
    for pos, var, _, args in calls:
        line = src.line_of(pos)
        for i, value in enumerate(args):
            ev.defaults.clear()
            v = ev.int_value(value, pos) if re.fullmatch(r"[\w\s+\-*/()]+", value) else None
            used = tuple(sorted(ev.defaults)) if v is not None else ()
            state = state_source(ev, pos, value) if v is None else ""
            out.append(ArgSite(rel, line, var, i, str(i), "", value, v, used, state=state))
    return out


def enqueue_ranges(enqueue: list[str]) -> tuple[str, str, str]:
    """(offset, global, local) of ``EnqueueArgs(queue, [event,] [offset,] global [, local])``."""
    ranges = [e for e in enqueue[1:] if _RANGE.match(e) or re.fullmatch(r"\s*[A-Za-z_]\w*\s*", e)]
    if len(ranges) >= 3:
        return ranges[-3], ranges[-2], ranges[-1]
    if len(ranges) == 2:
        return "cl::NullRange", ranges[0], ranges[1]
    return "cl::NullRange", ranges[0] if ranges else "", "cl::NullRange"


def _template_end(code: str, start: int) -> int | None:
    """The position after the ``>`` closing the template argument list opened before ``start``."""
    depth = 1
    for i in range(start, min(len(code), start + 2000)):
        if code[i] == "<":
            depth += 1
        elif code[i] == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif code[i] in ";{":
            return None
    return None


def assigned_to(code: str, pos: int) -> str | None:
    """The variable an expression starting at ``pos`` is assigned to (``k = cl::Kernel(…)``), if any."""
    m = re.search(r"([A-Za-z_][\w.\->\[\]]*)\s*=\s*$", code[max(0, pos - 120):pos])
    return m.group(1) if m else None
