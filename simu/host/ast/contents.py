"""Contents the host writes into a buffer before copying it to the device (issue 29, item 2).

``for (i = 0; i < n; ++i) idx[i] = rand() % n;  cudaMemcpy(d_idx, idx, …);  k<<<…>>>(d_idx, …)``: the kernel's
``idx`` holds random numbers below ``n``, repeats included, not bytes the search invents.  While a function is read
(:class:`~simu.host.ast.facts.FunctionReader`), every element a loop writes is classified here
(:func:`element_fill`); a copy to the device of that array records the fill against the device pointer
(:data:`COPIES`); a launch passing that pointer, with nothing run on it in between, takes the fill as its
contents contract (:func:`simu.host.ast.launches.host_fills`).  A ``<random>`` draw from zero
(``std::uniform_int_distribution<int> d(0, n - 1); a[i] = d(gen)``) is ``rand() % n``'s fill.  What the host reads
from a file, or computes from other data, is not a fill: the search keeps choosing it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simu.host.ast.expr import Call, Const, Expr, Loop, Op, Param, _children, uncast, writer
from simu.host.ast.nodes import Node, referenced, strip

# copy calls to the device: (destination, source) argument positions
COPIES = {"cudaMemcpy": (0, 1), "cudaMemcpyAsync": (0, 1), "cuMemcpyHtoD": (0, 1), "cuMemcpyHtoDAsync": (0, 1),
          "clEnqueueWriteBuffer": (1, 5), "clCreateBuffer": (-1, 3)}  # -1: the call's own result (a new buffer)
_HOST_POINTER_FLAGS = 0x28  # CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR: a new buffer takes the host array's contents
MANAGED = ("cudaMallocManaged", "cudaMallocHost", "cudaHostAlloc")  # memory host and device both address
HELPER = "helper"  # a copy of an array another function filled: resolved over the program (helper_fill)


@dataclass(frozen=True)
class HostFill:
    """What a host loop writes into every element: ``ramp`` (element k holds k), ``const`` (``value``), ``below``
    (random integers in [0, ``value``)), ``unit`` (random floats in [0, 1)), ``random`` (``rand()``)."""

    kind: str
    value: Expr = Const(0)
    line: int = 0


DISTRIBUTIONS = ("uniform_int_distribution", "uniform_real_distribution")  # std::…<T> d(low, high)
DRAW = "draw"  # d(gen): Call(DRAW, (Const(the distribution's position in DISTRIBUTIONS), low, high))


def distribution(type_name: str) -> str | None:
    """The ``<random>`` distribution a constructed object's type names (``std::uniform_int_distribution<int>``)."""
    base = type_name.split("<")[0].strip().removeprefix("std::").removeprefix("class ")
    return base if base in DISTRIBUTIONS else None


def draw(made: Expr | None) -> Expr | None:
    """``d(gen)`` of a distribution object ``made`` (:func:`distribution`'s call): one draw of it; None for others."""
    if isinstance(made, Call) and made.function in DISTRIBUTIONS:
        return Call(DRAW, (Const(DISTRIBUTIONS.index(made.function)), *made.args))
    return None


def _drawn(value: Expr, line: int) -> HostFill | None:
    """A draw of a ``<random>`` distribution from zero: ``uniform_int_distribution(0, n - 1)`` is ``below n``,
    ``uniform_real_distribution(0, 1)`` ``unit``; another low bound is none of the kinds (values below it are no
    contents of the program's)."""
    if not (isinstance(value, Call) and value.function == DRAW and len(value.args) == 3):
        return None
    kind, low, high = value.args
    if uncast(low) != Const(0) and uncast(low) != Const(0.0):
        return None
    if kind == Const(0):  # uniform_int_distribution
        top = uncast(high)  # d(0, n - 1): below n, the very value a launch may pass too
        bound = top.args[0] if isinstance(top, Op) and top.op == "-" and top.args[1:] == (Const(1),) else \
            Op("+", (high, Const(1)), "i", 64)
        return HostFill("below", bound, line)
    if kind == Const(1) and uncast(high) in (Const(1), Const(1.0)):  # uniform_real_distribution
        return HostFill("unit", line=line)
    return None


def element_fill(index: Expr, value: Expr, line: int) -> HostFill | None:
    """The fill ``array[index] = value`` makes when a loop runs it (``None``: not one the host's loop makes
    alike for every element, or not written in a loop)."""
    if not _varies(index):
        return None
    value = uncast(value)
    if value == uncast(index) and _counts_from_zero(value):
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
    return _drawn(value, line)


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
        self.passed: dict[str, list[tuple[str, int, int]]] = {}  # array -> (function, argument, line) handed to
        self.made: list[tuple[int, Expr, str, Expr]] = []
        self.shared: dict[str, tuple[int, Expr]] = {}  # array -> (last line, pointer) of managed memory written

    def write(self, base: Node, index: Expr, value: Expr, line: int, pointer: Expr | None = None) -> None:
        """``base[index] = value``; ``pointer``: what ``base`` holds there (memory ``cudaMallocManaged`` gave is the
        device's too: its fill is one the launch passing it finds, with no copy)."""
        if base.get("kind") == "DeclRefExpr" and (key := referenced(base).get("id")):
            self.writes.setdefault(key, []).append(element_fill(index, value, line))
            if pointer is not None and writer(pointer) is not None and writer(pointer)[0] in MANAGED:
                self.shared[key] = (line, pointer)

    def call(self, callee: str, arg_nodes: list[Node], args: tuple[Expr, ...], line: int,
             result: Expr | None = None) -> None:
        """A call: a copy of a filled array to the device is recorded (``result``: the buffer a creating call
        makes, ``clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, h, &err)``); an array handed to another function
        (``init(h, n)``) may be filled there (:data:`HELPER`)."""
        if callee == "clCreateBuffer" and not (len(args) > 3 and _folded(args[1]) & _HOST_POINTER_FLAGS):
            return
        if callee not in COPIES:
            for i, a in enumerate(arg_nodes):
                if (key := _array(a)) and not callee.startswith("cu"):
                    self.passed.setdefault(key, []).append((callee, i, line))
            return
        dest, source = COPIES[callee]
        key = _array(arg_nodes[source]) if len(arg_nodes) > max(dest, source) else None
        target = result if dest < 0 else args[dest] if key is not None else None
        if key is None or target is None:
            return
        fill = merge_fills(self.writes[key]) if key in self.writes else None
        if fill is not None and key not in self.passed:
            self.made.append((line, target, fill.kind, fill.value))
        elif key not in self.writes and len(self.passed.get(key, ())) == 1:
            function, arg, at = self.passed[key][0]
            self.made.append((line, target, HELPER, Call(function, (Const(arg), Const(at)))))

    def copies(self) -> tuple[tuple[int, Expr, str, Expr], ...]:
        """The copies, and managed memory the function filled as if copied where last written."""
        shared = [(line, pointer, fill.kind, fill.value) for key, (line, pointer) in self.shared.items()
                  if key not in self.passed and (fill := merge_fills(self.writes[key])) is not None]
        return tuple(sorted(self.made + shared, key=lambda c: c[0]))

    def param_fills(self, params: dict[str, tuple[int, str]]) -> tuple[tuple[int, str, Expr], ...]:
        """``(parameter, kind, value)`` for each pointer parameter every element of which the function fills alike."""
        out = []
        for key, (index, _) in params.items():
            fill = merge_fills(self.writes.get(key, [])) if key not in self.passed else None
            if fill is not None and (isinstance(fill.value, Param) or not _mentions_params(fill.value)):
                out.append((index, fill.kind, fill.value))
        return tuple(out)


def helper_fill(functions: dict[str, list[Any]], value: Expr, calls: tuple[Any, ...]) -> tuple[str, Expr] | None:
    """The fill a :data:`HELPER` copy's function (``Call(function, (Const(argument), Const(line)))``) writes into
    the array: one definition of that name and one fill of that parameter; a bound that is one of the helper's
    parameters (``rand() % n``) is what the caller passes there (``calls``: the caller's :class:`CallFact`\\ s)."""
    if not isinstance(value, Call) or len(functions.get(value.function, ())) != 1 or len(value.args) != 2:
        return None
    arg, line = (a.value for a in value.args if isinstance(a, Const))
    found = [(kind, v) for i, kind, v in functions[value.function][0].param_fills if i == arg]
    if len(found) != 1:
        return None
    kind, bound = found[0]
    if isinstance(bound, Param):
        call = next((c for c in calls if c.line == line and c.callee == value.function), None)
        if call is None or bound.index >= len(call.args):
            return None
        bound = call.args[bound.index]
    return kind, bound


def _folded(e: Expr) -> int:
    """An integer flags expression's value (``CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR``: ``1 << 2 | 1 << 5``); 0
    where it is not made of integer constants."""
    e = uncast(e)
    if isinstance(e, Const):
        return int(e.value) if float(e.value).is_integer() else 0
    if isinstance(e, Op) and len(e.args) == 2 and e.op in ("|", "<<", "+"):
        a, b = (_folded(x) for x in e.args)
        return a | b if e.op == "|" else a << b if e.op == "<<" and 0 <= b < 64 else a + b if e.op == "+" else 0
    return 0


def _array(node: Node) -> str | None:
    node = strip(node)
    return referenced(node).get("id") if node.get("kind") == "DeclRefExpr" else None


def _mentions_params(e: Expr) -> bool:
    """Whether a fill's value is computed from the function's parameters (only a parameter itself is followed)."""
    return isinstance(e, Param) or any(_mentions_params(c) for c in _children(e))


def _is_rand(e: Expr) -> bool:
    e = uncast(e)
    return isinstance(e, Call) and e.function in ("rand", "random", "lrand48") and not e.args


def _varies(e: Expr) -> bool:
    """Whether ``e`` holds a loop counter (an element index a loop runs over)."""
    return isinstance(e, Loop) or any(_varies(c) for c in _children(e))


def _counts_from_zero(e: Expr) -> bool:
    return isinstance(e, Loop) and uncast(e.start) == Const(0)
