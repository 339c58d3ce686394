"""A host allocation's size as a contract's buffer length, in the kernel parameter's elements: a number, or an
expression of the kernel's scalar parameters (what :mod:`simu.host.contracts` gives the search)."""

from __future__ import annotations

import re

Params = list[tuple[str, "int | None"]]  # the kernel's parameters: name, element bytes (None: a scalar)


def named_positions(text: str, params: Params) -> str | None:
    """``text`` over argument positions (``_a4_``) with each named as the kernel's scalar parameter there; None when
    a position is a pointer's or none of the kernel's."""
    missing = False

    def name(m: re.Match) -> str:
        nonlocal missing
        k = int(m.group(1))
        if k >= len(params) or params[k][1] is not None:
            missing = True
            return "0"
        return params[k][0]

    out = re.sub(r"_a(\d+)_", name, text)
    return None if missing else out


def length_factor(value: int | str, elem_bytes: int | None, param_elem: int) -> int | None:
    """The constant factor (in the parameter's elements, at least 2) of an allocated length that is not
    constant: ``206*n`` elements of the parameter's type -> 206; ``None`` when there is none."""
    if not isinstance(value, str) or param_elem <= 0:
        return None
    factor = 1
    for f in value.split("*"):
        f = f.strip().strip("()").strip()
        if re.fullmatch(r"\d+", f):
            factor *= int(f)
    if elem_bytes == 0:
        elem_bytes = param_elem
    factor = factor * (elem_bytes or 1) // param_elem
    return factor if factor >= 2 else None


def allocated_length(allocated: str, param_elem: int, params: Params) -> str | None:
    """Bytes a cudaMalloc gave (a number, or an expression over ``_aI_`` argument positions:
    :mod:`simu.host.ast.allocations`) in the parameter's elements, the positions named as the kernel's scalars."""
    if param_elem <= 0:
        return None
    if allocated.isdigit():
        return str(max(1, int(allocated) // param_elem))
    expr = named_positions(allocated, params)
    return None if expr is None else f"({expr})//{param_elem}"


def host_length(value: int | str, elem_bytes: int | None, param_elem: int, names: dict[str, str],
                scalars: set[str]) -> str | None:
    """A buffer length in the kernel parameter's elements: a number, or an expression of scalar params.  An
    element of a type the host evaluator does not know (``sizeof(T)``: ``elem_bytes`` 0) is the parameter's."""
    if elem_bytes == 0:
        elem_bytes = param_elem
    if isinstance(value, int):
        total = value * (elem_bytes or 1)
        return str(max(1, total // param_elem)) if param_elem > 0 else None
    expr = re.sub(r"[A-Za-z_]\w*", lambda m: names.get(m.group(0), "\0"), value)
    if "\0" in expr or not set(re.findall(r"[A-Za-z_]\w*", expr)) <= scalars:
        return None  # a host value the kernel does not receive
    if elem_bytes is None or elem_bytes == param_elem:
        return expr if elem_bytes is not None else f"({expr})//{param_elem}"
    return f"({expr})*{elem_bytes}//{param_elem}"
