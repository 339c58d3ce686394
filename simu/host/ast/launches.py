"""CUDA launches with the values the program passes: each ``<<<>>>`` read through clang, evaluated in every context
the program reaches it in (:mod:`simu.host.ast.values`), one variant per distinct launch (a loop over block sizes,
a wrapper called with two sizes, a recursion over levels).  Loop counters and branch choices a launch's parts share
are fixed together, so a variant is a launch the program makes, not a mix of two."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from typing import Any

from simu.host.ast.allocations import allocated_bytes
from simu.host.ast.contents import HELPER, helper_fill
from simu.host.ast.device import device_note
from simu.host.ast.expr import (
    Choice,
    Const,
    Element,
    Expr,
    Field,
    Items,
    Loop,
    _children,
    dim_parts,
    equalities,
    functions_in,
    runtime_value,
    substituted,
    uncast,
)
from simu.host.ast.facts import FunctionFacts, LaunchFact
from simu.host.ast.opencl import SYMBOL_COPIES
from simu.host.ast.outputs import parameter_texts
from simu.host.ast.relations import Relations, launch_relations, length_relations
from simu.host.ast.sequence import _identity, base_of, priors
from simu.host.ast.values import Context, Number, Program, _one, lift
from simu.launch.constraints import Prior

MAX_VARIANTS = 8  # launches one site makes at most (the contracts keep 4 per kernel)
_BINDINGS = 32  # combinations of loop counters and branch choices tried per context
_ARG_VALUES = 4  # an argument with up to this many values makes a launch per value

Dim = tuple[int | None, int | None, int | None]


@dataclass(frozen=True)
class LaunchValues:
    """One launch a ``<<<>>>`` makes: its values (``None`` where not known) and how the program gets there."""

    file: str
    line: int
    kernel: str
    callee_text: str
    function: str
    grid: Dim | None
    block: Dim | None
    shmem: int | None
    args: tuple[Number | None, ...]
    args_text: tuple[str, ...]
    trail: tuple[str, ...]  # the calls leading to it, innermost first ("loop at a.cu:14")
    bound: tuple[str, ...] = ()  # what was fixed to get these values ("loop counter j = 2")
    relations: Relations = Relations()  # what is not known, over the other arguments; what the host requires
    zeroed: tuple[int, ...] = ()  # pointer arguments a cudaMemset(p, 0, …) before the launch clears
    priors: tuple[Prior, ...] = ()  # earlier launches on some of the same variables (sequence.priors)
    signature: str = ""  # the kernel's type as the launch instantiates it (``void (double *)``)
    later: bool = False  # on a while loop's later pass (``LaunchFact.later``)
    # (argument, kind, value, argument the value is) for buffers the host fills before (simu.host.ast.contents)
    contents: tuple[tuple[int, str, Number | None, int | None], ...] = ()
    # pairs of arguments clang reads as one expression: a lexical "a = b" between others is stale text
    equal: tuple[tuple[int, int], ...] = ()
    # (variable, byte offset, values) a cudaMemcpyToSymbol before the launch copies: nested tuples of numbers as
    # the source's aggregate nests them, None where not known
    symbols: tuple[tuple[str, int, Any], ...] = ()
    # per argument, the bytes a cudaMalloc gave its buffer: a number or an expression of the unknown arguments
    # (simu.host.ast.allocations); () when no argument's is known
    lengths: tuple[str | None, ...] = ()
    # per argument not known, whether the program computes it at run time (expr.runtime_value): no lexical
    # constant stands in for it
    runtime: tuple[bool, ...] = ()
    runtime_dims: tuple[bool, ...] = ()  # the same for the grid's and the block's x, y, z
    kernel_targs: str = ""  # the instantiation launched, as clang instantiated it (``LaunchFact.kernel_targs``)


def launch_values(program: Program) -> list[LaunchValues]:
    """Every launch of every function the program's facts hold."""
    out: list[LaunchValues] = []
    for fns in program.functions.values():
        for fn in fns:
            for x in fn.launches:
                out += variants(program, fn, x)
    return out


def variants(program: Program, fn: FunctionFacts, x: LaunchFact, depth: int = 0) -> list[LaunchValues]:
    program.steps, program.site_memo = 0, {}  # each launch site has its own evaluation allowance
    conditions = x.conditions  # a context the launch's conditions rule out makes no launch (tile 32, case 16)
    if fixed := equalities(x.conditions):  # `case 16:` of `switch (tile)`: the launch's tile is 16
        x = replace(x, grid=substituted(x.grid, fixed), block=substituted(x.block, fixed),
                    shmem=substituted(x.shmem, fixed), args=substituted(x.args, fixed),
                    conditions=substituted(x.conditions, fixed))
    out: list[LaunchValues] = []
    seen: set[tuple] = set()  # the values made (two call chains passing the same values make one launch)
    parts: list[Expr] = [x.grid, x.block, x.shmem, *x.args]
    choices = _shared_choices(parts + [c for c, _ in x.conditions])
    zeroed = zeroed_arguments(fn, x)
    filled = host_fills(program, fn, x)
    copied = symbol_copies(program, fn, x)
    elsewhere: dict[str, set] = {}  # a helper's copies: the same values in every context of this launch
    equal = tuple((i, j) for j, b in enumerate(x.args) for i, a in enumerate(x.args[:j]) if a == b)
    before = priors(program, fn, x, lambda g, y: variants(program, g, y, depth + 1)) if depth < 1 else ()
    program.steps, program.site_memo = 0, {}
    for ctx in program.contexts(fn):
        for bound in _bindings(program, fn, ctx, choices):
            if program.fails(conditions, fn, ctx, bound):
                continue
            grids = _dims(program, x.grid, fn, ctx, bound)
            blocks = _dims(program, x.block, fn, ctx, bound)
            shmem = _one(program.values(x.shmem, fn, ctx, bound))
            args = [program.values(a, fn, ctx, bound) for a in x.args]
            known = [_one(a) is not None for a in args]  # a few values: a launch each, related as unknowns
            runtime = tuple(not k and runtime_value(lift(a, ctx, bound)) for a, k in zip(x.args, known, strict=True))
            runtime_dims = tuple(runtime_value(lift(c, ctx, bound)) for d in (x.grid, x.block) for c in dim_parts(d))
            rel = Relations() if all(known) else launch_relations(program, fn, ctx, bound, x, known)
            fills = tuple((i, kind, _one(program.values(v, fn, ctx, bound)), _same_arg(x, v))
                          for i, kind, v in filled)
            symbols = _symbol_values(program, fn, ctx, bound, copied, elsewhere)
            device = device_note([lift(p, ctx, bound) for p in parts], program.writes)
            lengths = length_relations(program, fn, ctx, bound, x, known,
                                       [allocated_bytes(program, fn, ctx, bound, a) for a in x.args])
            kernels = passed_kernels(x, ctx, bound)
            picks = itertools.islice(itertools.product(*[a if _few(a) else [_one(a)] for a in args]), MAX_VARIANTS)
            for (kernel, callee, sig), g, b, values in itertools.product(kernels, grids, blocks, list(picks)):
                made = LaunchValues(fn.file, x.line, kernel, callee, fn.name, g, b,
                                    int(shmem) if shmem is not None else None,
                                    tuple(values), x.args_text, ctx.trail,
                                    _describe(bound) + device, rel,
                                    zeroed, before, sig, x.later, fills, equal, symbols, lengths, runtime,
                                    runtime_dims, x.kernel_targs if kernel == x.kernel else "")
                key = (made.kernel, made.grid, made.block, made.shmem, made.args, made.bound, made.relations,
                       made.symbols, made.lengths)
                if key not in seen:
                    seen.add(key)
                    out.append(made)
            if len(out) >= MAX_VARIANTS:
                return out[:MAX_VARIANTS]
    return out


def passed_kernels(x: LaunchFact, ctx, bound) -> list[tuple[str, str, str]]:
    """``(kernel, callee text, signature)`` of what launch ``x`` launches in context ``ctx``: its own kernel, or,
    for a kernel the launching function takes as a parameter (``linear_kernel(kernel, shmem, stream, n,
    args...)``), each function the caller passes there (its signature the parameter's, less the pointer)."""
    if x.kernel_param is not None:
        names = functions_in(lift(x.kernel_param, ctx, bound))
        if names:
            sig = x.signature.replace("(*)", "", 1).replace("  ", " ")
            return [(n, n, sig) for n in names]
    return [(x.kernel, x.callee_text, x.signature)]


_MEMSETS = {"cudaMemset", "cudaMemsetAsync", "cudaMemset2D", "cudaMemset2DAsync", "cudaMemset3D",
            "cudaMemset3DAsync", "cuMemsetD8", "cuMemsetD16", "cuMemsetD32", "cuMemsetD8Async", "cuMemsetD32Async"}


def zeroed_arguments(fn: FunctionFacts, x: LaunchFact) -> tuple[int, ...]:
    """The pointer arguments of a launch whose buffer a ``cudaMemset(p + offset, 0, …)`` of the same function
    clears before it (a counter an ``atomicAdd`` hands out slots from, an accumulator): the search fills them with
    zeros, not random bytes the program never has."""
    cleared = {base_of(c.args[0]) for c in fn.calls if c.callee in _MEMSETS and c.line <= x.line and len(c.args) >= 2
               and _zero(c.args[1]) and not _exclusive(c.conditions, x.conditions)}
    return tuple(i for i, a in enumerate(x.args) if base_of(a) in cleared)


def _exclusive(a: tuple, b: tuple) -> bool:
    """Whether two statements sit in branches that exclude each other (``if (c) … else …``)."""
    return any((cond, not holds) in b for cond, holds in a)


def host_fills(program: Program, fn: FunctionFacts, x: LaunchFact) -> list[tuple[int, str, Expr]]:
    """``(argument, kind, value)`` for each pointer argument of ``x`` whose buffer the function copied a host array
    it filled into (:mod:`simu.host.ast.contents`), with no launch that may write it (one whose parameter there is
    no pointer to ``const``), and no call of the program's own, passing it in between: what the kernel finds there
    is what the host wrote."""
    out = []
    for i, arg in enumerate(x.args):
        ident = _identity(arg)
        copies = [c for c in fn.copies if c[0] < x.line and ident is not None and _identity(c[1]) == ident]
        if not copies:
            continue
        line, _, kind, value = max(copies, key=lambda c: c[0])
        if kind == HELPER:  # an array a helper of the program filled (``init(h, n)``)
            found = helper_fill(program.functions, value, fn.calls)
            if found is None:
                continue
            kind, value = found
        between = [tuple(a for j, a in enumerate(y.args) if not read_only(y.signature, j))
                   for y in fn.launches if line < y.line < x.line] + \
            [c.args for c in fn.calls if line < c.line < x.line and not c.callee.startswith("cu")]
        if not any(_identity(a) == ident for args in between for a in args):
            out.append((i, kind, value))
    return out


def read_only(signature: str, j: int) -> bool:
    """Whether parameter ``j`` of a kernel of type ``signature`` (``void (const int *, int *, int)``) points to
    ``const``: a launch in between that is given the buffer there reads it, and leaves the host's contents."""
    params = parameter_texts(signature) or []
    p = params[j] if j < len(params) else ""
    return p.count("*") == 1 and "const" in re.findall(r"\w+", p.split("*")[0])


Copy = tuple[str, Expr, Expr, FunctionFacts]  # (variable, source, offset, the function that copies)


def symbol_copies(program: Program, fn: FunctionFacts, x: LaunchFact) -> list[Copy]:
    """Each ``cudaMemcpyToSymbol(V, &src, bytes[, offset])`` made before the launch, by the launching function or
    by a function of the program it calls first (``init_constants(); k<<<…>>>(…)``), the last one per variable:
    what the kernel finds in ``V``."""
    out: dict[str, Copy] = {}
    for c in fn.calls:
        if c.line > x.line:
            continue
        if c.callee in SYMBOL_COPIES and not _exclusive(c.conditions, x.conditions):
            _copy(out, c, fn)
        for g in program.functions.get(c.callee, ()) if c.callee not in SYMBOL_COPIES else ():
            if g is not fn and g.file == fn.file:  # a variable is its translation unit's
                for d in g.calls:
                    if d.callee in SYMBOL_COPIES:
                        _copy(out, d, g)
    return list(out.values())


def _copy(out: dict[str, Copy], c: Any, owner: FunctionFacts) -> None:
    if len(c.args) >= 2 and isinstance(c.args[0], Field) and c.args[0].record == "::":
        out[c.args[0].name] = (c.args[0].name, c.args[1], c.args[3] if len(c.args) > 3 else Const(0), owner)


def _symbol_values(program: Program, fn: FunctionFacts, ctx: Context, bound: dict, copied: list[Copy],
                   elsewhere: dict[str, set]) -> tuple[tuple[str, int, Any], ...]:
    """The values each copy gives: in the launching function's context, or the one every context of the function
    that copies agrees on (``elsewhere``: those, found once per launch site)."""
    out = []
    for name, source, offset, owner in copied:
        if owner is fn:
            made = {(_one(program.values(offset, fn, ctx, bound)), _nested(program, source, fn, ctx, bound))}
        else:
            if name not in elsewhere:
                elsewhere[name] = {(_one(program.values(offset, owner, c)), _nested(program, source, owner, c, {}))
                                   for c in program.contexts(owner)}
            made = set(elsewhere[name])
        at, values = made.pop() if len(made) == 1 else (None, None)
        if at is not None and _any_known(values):
            out.append((name, int(at), values))
    return tuple(out)


def _nested(program: Program, e: Expr, fn: FunctionFacts, ctx: Context, bound: dict) -> Any:
    """An aggregate's values as nested tuples (``{d, n}`` -> ``(None, 1024)``), a scalar's as a number."""
    if isinstance(e, Items):
        return tuple(_nested(program, i, fn, ctx, bound) for i in e.items)
    return _one(program.values(e, fn, ctx, bound))


def _any_known(v: Any) -> bool:
    return any(_any_known(x) for x in v) if isinstance(v, tuple) else v is not None


def _same_arg(x: LaunchFact, value: Expr) -> int | None:
    """The launch argument ``value`` is (``rand() % n`` with ``n`` passed too): the fill follows that argument."""
    return next((i for i, a in enumerate(x.args) if a == value and not isinstance(a, Const)), None)


def _zero(e: Expr) -> bool:
    e = uncast(e)
    return isinstance(e, Const) and e.value == 0


def _dims(program: Program, e: Expr, fn: FunctionFacts, ctx: Context, bound: dict) -> list[Dim | None]:
    """The ``dim3`` values of a grid or block expression (an integer is ``(n, 1, 1)``): each variant, or ``[None]``."""
    if isinstance(e, Items):
        comps = [program.values(c, fn, ctx, bound) for c in dim_parts(e)]
        if all(c is not None and len(c) == 1 for c in comps):
            return [tuple(int(c[0]) for c in comps)]  # type: ignore[index,misc]
        return [tuple(int(c[0]) if c is not None and len(c) == 1 else None for c in comps)]  # type: ignore
    if isinstance(e, Choice) and e in bound and isinstance(bound[e], tuple):
        return _dims(program, bound[e][1], fn, ctx, bound)
    if isinstance(e, Choice):
        return [d for o in e.options for d in _dims(program, o, fn, ctx, bound)][:MAX_VARIANTS] or [None]
    if isinstance(e, Element):  # one element of an array of dim3s (``dim3 blocks[] = {…}; k<<<g, blocks[i]>>>``)
        base = program.aggregate(e.base, bound)
        index = program.values(e.index, fn, ctx, bound)
        if base is not None and index is not None and len(index) == 1 and 0 <= int(index[0]) < len(base.items):
            return _dims(program, base.items[int(index[0])], fn, ctx, bound)
    vals = program.values(e, fn, ctx, bound)
    if vals is not None and len(vals) == 1:
        return [(int(vals[0]), 1, 1)]
    return [None]


def _few(values: list | None) -> bool:
    """Whether an argument has a few values, each a launch (a field two writes set to 16 and 32, a variable an option
    loop sets to one of three constants)."""
    return values is not None and 1 < len(values) <= _ARG_VALUES


def _shared_choices(parts: list[Expr]) -> list[Expr]:
    """The loop counters and branch choices inside a launch's parts (each fixed to one value at a time)."""
    found: list[Expr] = []

    def walk(e: Any) -> None:
        if isinstance(e, (Loop, Choice)):
            if e not in found:
                found.append(e)
            if isinstance(e, Loop):
                return
        for c in _children(e):
            walk(c)

    for p in parts:
        walk(p)
    return found


def _bindings(program: Program, fn: FunctionFacts, ctx: Context, choices: list[Expr]) -> list[dict]:
    """The combinations of values of the loop counters and branch choices ``choices`` whose values are known.  A
    choice whose branches are relations (``threads.x = n * k / b; if (b > 1) threads.x += n % threads.x``) stays
    unbound: a variant per branch would drop the branch's condition, and make launches the program does not."""
    options: list[list[Any]] = []
    for c in choices:
        if isinstance(c, Loop):
            vals = program.values(c, fn, ctx)
            options.append(vals if vals is not None else [None])
        elif all(_known(program, o, fn, ctx) for o in c.options):  # type: ignore[union-attr]
            options.append([("option", o) for o in c.options])  # type: ignore[union-attr]
        else:
            options.append([None])  # a branch that may assign what is not known: the choice is not known either
    out = []
    for combo in itertools.islice(itertools.product(*options), _BINDINGS):
        out.append({c: v for c, v in zip(choices, combo, strict=True) if v is not None})
    return out or [{}]


def _known(program: Program, e: Expr, fn: FunctionFacts, ctx: Context) -> bool:
    if isinstance(e, Items):
        return all(_known(program, i, fn, ctx) for i in e.items)
    return program.values(e, fn, ctx) is not None


def _describe(bound: dict) -> tuple[str, ...]:
    return tuple(f"loop value {v}" for k, v in bound.items() if isinstance(k, Loop))
