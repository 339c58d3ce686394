"""Contents the host writes into a buffer before copying it to the device (issue 29, item 2).

``for (i = 0; i < n; ++i) idx[i] = rand() % n;  cudaMemcpy(d_idx, idx, …);  k<<<…>>>(d_idx, …)``: the kernel's
``idx`` holds random numbers below ``n``, repeats included, not bytes the search invents.  While a function is read
(:class:`~simu.host.ast.facts.FunctionReader`), every element a loop writes is classified here
(:func:`element_fill`); a copy to the device of that array records the fill against the device pointer
(:data:`COPIES`); a launch passing that pointer, with nothing run on it in between, takes the fill as its
contents contract (:func:`simu.host.ast.launches.host_fills`).  What the host reads from a file, or computes from
other data, is not a fill: the search keeps choosing it."""

from __future__ import annotations

from dataclasses import dataclass

from simu.host.ast.expr import Call, Cast, Const, Expr, Loop, Op, _children
from simu.host.ast.nodes import Node, referenced, strip

# copy calls to the device: (destination, source) argument positions
COPIES = {"cudaMemcpy": (0, 1), "cudaMemcpyAsync": (0, 1), "cuMemcpyHtoD": (0, 1), "cuMemcpyHtoDAsync": (0, 1)}
KINDS = ("ramp", "const", "below", "unit", "random")


@dataclass(frozen=True)
class HostFill:
    """What a host loop writes into every element: ``ramp`` (element k holds k), ``const`` (``value``), ``below``
    (random integers in [0, ``value``)), ``unit`` (random floats in [0, 1)), ``random`` (``rand()``)."""

    kind: str
    value: Expr = Const(0)
    line: int = 0


def element_fill(index: Expr, value: Expr, line: int) -> HostFill | None:
    """The fill ``array[index] = value`` makes when a loop runs it (``None``: not one the host's loop makes
    alike for every element, or not written in a loop)."""
    if not _varies(index):
        return None
    value = _bare(value)
    if value == _bare(index) and _counts_from_zero(value):
        return HostFill("ramp", line=line)
    if isinstance(value, Const):
        return HostFill("const", value, line)
    if isinstance(value, Op) and value.op == "%" and len(value.args) == 2 and _is_rand(value.args[0]) \
            and not _varies(value.args[1]):
        return HostFill("below", value.args[1], line)
    if isinstance(value, Op) and value.op == "/" and len(value.args) == 2 and _is_rand(value.args[0]) \
            and value.kind == "f":
        return HostFill("unit", line=line)
    if _is_rand(value):
        return HostFill("random", line=line)
    return None


def merge_fills(fills: list[HostFill | None]) -> HostFill | None:
    """One array's fill over all its element writes: only where they all agree (a second loop overwriting part
    of it, or a write the reader cannot classify, leaves the contents to the search)."""
    if not fills or any(f is None for f in fills):
        return None
    first = fills[0]
    assert first is not None
    return first if all(f is not None and (f.kind, f.value) == (first.kind, first.value) for f in fills) else None


class Fills:
    """What one function's reader collects: each host array's element fills (by clang declaration id), and each
    copy of a filled array to the device as ``(line, device pointer, kind, value)``."""

    def __init__(self) -> None:
        self.writes: dict[str, list[HostFill | None]] = {}
        self.made: list[tuple[int, Expr, str, Expr]] = []

    def write(self, base: Node, index: Expr, value: Expr, line: int) -> None:
        if base.get("kind") == "DeclRefExpr" and (key := referenced(base).get("id")):
            self.writes.setdefault(key, []).append(element_fill(index, value, line))

    def copy(self, callee: str, arg_nodes: list[Node], args: tuple[Expr, ...], line: int) -> None:
        if callee not in COPIES or len(arg_nodes) <= max(COPIES[callee]):
            return
        dest, source = COPIES[callee]
        src = strip(arg_nodes[source])
        key = referenced(src).get("id") if src.get("kind") == "DeclRefExpr" else None
        fill = merge_fills(self.writes.get(key, [])) if key else None
        if fill is not None:
            self.made.append((line, args[dest], fill.kind, fill.value))

    def copies(self) -> tuple[tuple[int, Expr, str, Expr], ...]:
        return tuple(self.made)


def _bare(e: Expr) -> Expr:
    while isinstance(e, Cast):
        e = e.arg
    return e


def _is_rand(e: Expr) -> bool:
    e = _bare(e)
    return isinstance(e, Call) and e.function in ("rand", "random", "lrand48") and not e.args


def _varies(e: Expr) -> bool:
    """Whether ``e`` holds a loop counter (an element index a loop runs over)."""
    return isinstance(e, Loop) or any(_varies(c) for c in _children(e))


def _counts_from_zero(e: Expr) -> bool:
    return isinstance(e, Loop) and _bare(e.start) == Const(0)
