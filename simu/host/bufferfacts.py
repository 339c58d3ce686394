"""What a launch's buffers hold, in a kernel's parameter names: the bytes clang read their allocations give, the
contents the host writes there, the kernels launched before on some of them, and the parameters given one buffer."""

from __future__ import annotations

import re
from dataclasses import replace

from simu.host.ast.relations import RUNTIME_LENGTH
from simu.host.lengths import Params, allocated_length, named_positions
from simu.launch.constraints import KernelConstraints, Prior


def identifier(text: str) -> str | None:
    """The variable an argument's text names (``d``, ``(d)``), else None."""
    e = text.strip().strip("()").strip()
    return e if re.fullmatch(r"[A-Za-z_]\w*", e) else None


def aliases(args_text: tuple[str, ...], params: Params, c: KernelConstraints) -> None:
    """Pointer parameters the launch gives one variable (``blur<<<g, b>>>(d, d, n)``: in place) share one buffer,
    so that a thread's write through one races with another's read through the other (see ``spec.check_same``)."""
    first: dict[str, str] = {}
    for (name, elem), text in zip(params, args_text, strict=False):
        if elem is not None and (ident := identifier(text)) not in (None, "NULL", "nullptr"):
            if ident in first:
                c.same[name] = first[ident]
                for facts in (c.buffer_lengths, c.fills, c.length_factors):  # its partner's buffer
                    facts.pop(name, None)
            first.setdefault(ident, name)


def buffer_facts(c: KernelConstraints, params: Params, allocated: tuple[str | None, ...],
                  contents: tuple[tuple[int, str, int | float | None, int | None], ...], priors: tuple) -> None:
    """What clang read of a launch's buffers, for either API: per argument the bytes its allocation gave
    (``cudaMalloc``, ``clCreateBuffer``: over a number the text reader gave), the contents the host wrote there,
    and the kernels launched before on some of them."""
    for (name, elem), text in zip(params, allocated, strict=False):  # over a constant the text gave: clang knows
        # which values the program computes at run time (``int n = 0; load(path, n); cudaMalloc(&d, n * 4)``)
        numeric = c.buffer_lengths.get(name, "0").strip().isdigit()  # the text's length: none or a number
        if elem is not None and text == RUNTIME_LENGTH and numeric:
            c.buffer_lengths.pop(name, None)  # searched: the text's number is the value before the program's
            c.length_factors.pop(name, None)
        elif elem is not None and text is not None and numeric \
                and (length := allocated_length(text, elem, params)) is not None:
            c.buffer_lengths[name] = length
            c.length_factors.pop(name, None)
    for i, kind, value, j in contents:
        if i < len(params) and params[i][1] is not None and (fill := _host_fill(kind, value, j, params)):
            c.fills[params[i][0]] = fill
    c.before = tuple(p for p in (_named_prior(p, params) for p in priors) if p is not None)


def _named_prior(p: Prior, params: Params) -> Prior | None:
    """A prior with this kernel's parameters named (shared buffers and values, the grid's expressions); None when
    it shares no buffer, or its grid needs a value this kernel is not given."""
    shared = tuple((j, params[i][0]) for j, i in p.shared if isinstance(i, int) and i < len(params))
    if not any(params[i][1] is not None for _, i in p.shared if isinstance(i, int) and i < len(params)):
        return None
    grid_sym = tuple(named_positions(text, params) if text else text for text in p.grid_sym)
    if any(text and named is None for text, named in zip(p.grid_sym, grid_sym, strict=True)):
        return None
    return replace(p, shared=shared, grid_sym=grid_sym)


def _host_fill(kind: str, value: int | float | None, arg: int | None, params: Params) -> str | None:
    """A host fill as a contract's fill (:func:`simu.launch.buffers.fill_arguments`)."""
    if kind == "below" and arg is not None and arg < len(params) and params[arg][1] is None:
        return f"below:{params[arg][0]}"
    if kind == "below":
        return f"below:{int(value)}" if value is not None and value >= 1 else None
    if kind == "const" and value is not None:
        return "zeros" if value == 0 else "ones" if value == 1 else f"const:{value}"
    return {"ramp": "ramp:length", "unit": "small", "random": "below:2147483647"}.get(kind)
