"""Values over the whole program: a parameter takes the values of every call site (transitively, recursion followed
until its guard stops it), a field the values of every assignment to it, a global its initialiser and assignments,
a loop counter each value of its range, a branch-assigned variable each branch's value.  C semantics throughout
(integer ``/`` and ``%`` truncate, unsigned types wrap, casts truncate).  What is not known is ``None``: the search
chooses it."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from simu.host.ast.device import property_array, property_value
from simu.host.ast.expr import (
    Call,
    Cast,
    Choice,
    Cond,
    Const,
    Counter,
    Element,
    Expr,
    Field,
    Items,
    Loop,
    Number,
    Op,
    Param,
    Unknown,
    _children,
    extent,
    field_names,
    is_expr,
)
from simu.host.ast.expr import writer as written_by
from simu.host.ast.facts import Condition, FunctionFacts
from simu.host.paths import file_distance

MAX_VALUES = 8  # values one expression keeps
MAX_CONTEXTS = 16  # call contexts of one function
MAX_LOOP = 256  # iterations followed to enumerate a loop counter
_DEPTH = 8  # calls followed up from a launch
MAX_STEPS = 20_000  # expression evaluations for one launch site (about 0.1 s): cost never grows without bound
_NESTING = 12  # functions and fields being evaluated at once (a field leads to its writers' callers)
_LIFTED = 64  # nodes of a launch part written in its outermost caller's terms (simu.host.ast.relations)
_CONDS = 8  # conditions carried down the calls to a launch

Values = list[Number] | None
_BOUND = (Loop, Choice, Counter)  # what a launch's variants fix to one value (the keys of ``bound``)


@dataclass(frozen=True)
class Context:
    """Parameter values a function is called with (``None``: not known) and the calls that lead there."""

    params: tuple[Number | None, ...]
    trail: tuple[str, ...] = ()
    # what the callers pass for each parameter whose value is not known, in the outermost caller's terms (lift),
    # and the conditions that hold on the way (asserts, guards): where the launch's relations come from
    exprs: tuple[Expr, ...] = field(default=(), compare=False)
    conds: tuple[Condition, ...] = field(default=(), compare=False)



def call_args(e: Call, f: FunctionFacts) -> tuple[Expr, ...] | None:
    """``e``'s arguments to ``f``, one per parameter: those it leaves out are ``f``'s defaults (a call in a template's
    body that clang leaves unresolved has none of its own); None when they do not fit."""
    n = len(e.args)
    if n == len(f.params):
        return e.args
    if n > len(f.params) or len(f.defaults) != len(f.params) or any(d is None for d in f.defaults[n:]):
        return None
    return (*e.args, *f.defaults[n:])  # type: ignore[return-value]

class Program:
    """The facts of every host file read through clang, evaluated together."""

    def __init__(self, facts: list[FunctionFacts]):
        self.functions: dict[str, list[FunctionFacts]] = {}
        self.callers: dict[str, list[tuple[FunctionFacts, Any]]] = {}
        self.writes: dict[tuple[str, str], list[tuple[FunctionFacts, Expr]]] = {}
        for f in facts:
            self.functions.setdefault(f.name, []).append(f)
            for c in f.calls:
                self.callers.setdefault(c.callee, []).append((f, c))
            for record, name, value in f.writes:
                self.writes.setdefault((record, name), []).append((f, value))
        self._contexts: dict[int, list[Context]] = {}
        self._busy: set[int] = set()
        self._calls_busy: set[int] = set()
        self.steps = 0  # expression evaluations for the launch site at hand (bounded by MAX_STEPS)
        self.site_memo: dict[tuple, Any] = {}  # partial results (inside a cycle or past the allowance), per site
        self._cycles = 0  # cycles of calls met (a context list found inside one is partial)
        self._fields: dict[tuple, Values] = {}
        self._fields_busy: set[tuple] = set()

    # --- call contexts ---------------------------------------------------------------------------------------
    def contexts(self, fn: FunctionFacts, depth: int = 0) -> list[Context]:
        """The contexts ``fn`` runs in: one per distinct set of argument values its call sites pass (a function no
        call reaches runs with every parameter unknown)."""
        key = id(fn)
        if key in self._contexts:
            return self._contexts[key]
        if ("c", key) in self.site_memo:
            return self.site_memo[("c", key)]
        unknown = [Context((None,) * len(fn.params))]
        sites = [(g, c) for g, c in self.callers.get(fn.name, ())
                 if len(c.args) == len(fn.params) and g.name and self._binds(g, fn)
                 and not (c.signature and fn.signature and c.signature != fn.signature)  # another instantiation
                 and not (fn.instance_decl and c.callee_decl and g.file == fn.file
                          and c.callee_decl != fn.instance_decl)]  # another with the same type (`run<3>`, `run<7>`)
        if not sites or depth > _DEPTH:
            return unknown
        if key in self._busy:
            self._cycles += 1  # a cycle of calls: what is found meanwhile is partial
            return []
        if len(self._busy) + len(self._fields_busy) >= _NESTING:
            self._cycles += 1  # followed far enough (fields lead to writers, writers to their callers): unknown
            return unknown
        cycles = self._cycles
        self._busy.add(key)
        found: list[Context] = []
        outer = [(g, c) for g, c in sites if g is not fn]
        inner = [(g, c) for g, c in sites if g is fn]
        for g, c in outer:
            for ctx in self.contexts(g, depth + 1):
                self._add(found, self._at_call(g, c, ctx))
        frontier = list(found)
        while frontier and inner and len(found) < MAX_CONTEXTS:  # recursion: until its guard stops it
            new: list[Context] = []
            for ctx in frontier:
                for g, c in inner:
                    for made in self._at_call(g, c, ctx):
                        if made not in found and made not in new:
                            new.append(made)
            before = len(found)
            self._add(found, new)
            frontier = found[before:]
        self._busy.discard(key)
        if self._cycles != cycles:  # partial: kept for this launch site only; with nothing found, unknown
            self.site_memo[("c", key)] = found[:MAX_CONTEXTS] or unknown
            return self.site_memo[("c", key)]
        self._contexts[key] = found[:MAX_CONTEXTS]
        return self._contexts[key]

    def _binds(self, caller: FunctionFacts, fn: FunctionFacts) -> bool:
        """Whether a call from ``caller`` reaches ``fn``: among namesakes, the one defined in the fewest folders from
        the caller (two programs in one tree each define ``check``)."""
        same = [f for f in self.functions.get(fn.name, ()) if len(f.params) == len(fn.params)]
        if len(same) <= 1:
            return True
        nearest = min(file_distance(caller.file, f.file) for f in same)
        return file_distance(caller.file, fn.file) == nearest

    @staticmethod
    def _add(found: list[Context], more: list[Context]) -> None:
        for c in more:
            if c not in found and len(found) < MAX_CONTEXTS:
                found.append(c)

    def _at_call(self, caller: FunctionFacts, call: Any, ctx: Context) -> list[Context]:
        """The contexts one call site makes in one context of its caller (none when its conditions fail there)."""
        if self.fails(call.conditions, caller, ctx):
            return []
        here = f"{caller.name} at {caller.file}:{call.line}"
        if ctx.trail and ctx.trail[0].split(" (")[0] == here:  # a recursion: one entry, not one per level
            trail = (f"{here} (recursively)",) + ctx.trail[1:]
        else:
            trail = (here,) + ctx.trail
        per_arg = [self.values(a, caller, ctx) for a in call.args]
        choices = [v if v is not None else [None] for v in per_arg]
        exprs = tuple(lift(a, ctx) for a in call.args)
        conds = (ctx.conds + tuple((lift(c, ctx), holds) for c, holds in call.conditions
                                   if self.values(c, caller, ctx) is None))[:_CONDS]
        out = []
        for combo in itertools.islice(itertools.product(*choices), MAX_CONTEXTS):
            out.append(Context(tuple(combo), trail[:6], exprs, conds))
        return out

    def fails(self, conditions: tuple[Condition, ...], fn: FunctionFacts, ctx: Context,
              bound: dict | None = None) -> bool:
        """Whether a condition that must hold (or not hold) is known not to, in this context."""
        for expr, holds in conditions:
            if reads_member(expr):
                continue  # a member may hold values assigned where no file read shows (a copy, {0}): never decisive
            vals = self.values(expr, fn, ctx, bound)
            if vals is not None and vals and all(bool(v) != holds for v in vals):
                return True
        return False

    # --- values --------------------------------------------------------------------------------------------------
    def values(self, e: Expr, fn: FunctionFacts, ctx: Context, bound: dict | None = None) -> Values:
        """Every value ``e`` may take in ``fn`` under ``ctx`` (``bound``: loop counters and choices fixed to one
        option), at most :data:`MAX_VALUES`; ``None`` when not known (also when nothing the program does gives it
        one: a field no reachable code assigns, a loop that never runs)."""
        found = self._values(e, fn, ctx, bound or {})
        return found if found else None

    def _values(self, e: Expr, fn: FunctionFacts, ctx: Context, bound: dict) -> Values:
        self.steps += 1
        if self.steps > MAX_STEPS:
            self._cycles += 1  # what is found now is partial: not kept for the next launch site
            return None  # the program's evaluation has spent its allowance: what is left is searched
        if bound and isinstance(e, _BOUND) and e in bound:
            return [bound[e]] if not isinstance(bound[e], tuple) else self.values(bound[e][1], fn, ctx, bound)
        if isinstance(e, Const):
            return [e.value]
        if isinstance(e, Param):
            v = ctx.params[e.index] if e.index < len(ctx.params) else None
            return None if v is None else [v]
        if isinstance(e, Unknown) or isinstance(e, Counter) or isinstance(e, Items):
            return None
        if isinstance(e, Field):
            return self.passed_member(e, fn, ctx) or self.field(e, fn)
        if isinstance(e, Cast):
            return _unique(_cast(e.kind, e.bits, v) for v in self.values(e.arg, fn, ctx, bound) or [None])
        if isinstance(e, Op):
            parts = [self.values(a, fn, ctx, bound) for a in e.args]
            if any(p is None for p in parts):
                return None
            out = []
            for combo in itertools.islice(itertools.product(*parts), 64):  # type: ignore[arg-type]
                out.append(apply(e.op, e.kind, e.bits, combo))
            return _unique(out)
        if isinstance(e, Cond):
            tests = self.values(e.test, fn, ctx, bound)
            if tests is None and fn.name == "main" and _reads_param(e.test, 0):  # argc
                default = [a for a in (e.then, e.other) if not _reads_param(a, 1)]  # `argc > 1 ? atoi(argv[1]) : 4096`
                if len(default) == 1:
                    return self.values(default[0], fn, ctx, bound)  # as run without options, like the text reader
            if tests is None:
                return _union([self.values(e.then, fn, ctx, bound), self.values(e.other, fn, ctx, bound)])
            arms = ([e.then] if any(tests) else []) + ([e.other] if not all(tests) else [])
            return _union([self.values(a, fn, ctx, bound) for a in arms])
        if isinstance(e, Choice):
            return _union([self.values(o, fn, ctx, bound) for o in e.options])
        if isinstance(e, Element):
            return self.element(e, fn, ctx, bound)
        if isinstance(e, Loop):
            return self.loop(e, fn, ctx, bound)
        if isinstance(e, Call):
            return self.call(e, fn, ctx, bound)
        return None

    def element(self, e: Element, fn: FunctionFacts, ctx: Context, bound: dict) -> Values:
        index = self.values(e.index, fn, ctx, bound)
        base = self.aggregate(e.base, bound)
        if index is None or base is None:
            return None
        picked = [base.items[int(i)] for i in index if 0 <= int(i) < len(base.items)]
        return _union([self.values(p, fn, ctx, bound) for p in picked]) if picked else None

    def aggregate(self, e: Expr, bound: dict) -> Items | None:
        if isinstance(e, Items):
            return e
        if isinstance(e, Field) and not self.writes.get((e.record, e.name)):
            return property_array(e)
        if isinstance(e, Field) and len(made := {v for _, v in self.writes[(e.record, e.name)]}) == 1:
            one = made.pop()  # a member every write gives one array of its object's values: `global_ = {w_, h_}`
            return one if isinstance(one, Items) and not _reads_param(one) else None
        if bound and isinstance(e, _BOUND) and e in bound and isinstance(bound[e], tuple):
            return self.aggregate(bound[e][1], bound)
        return None

    def loop(self, e: Loop, fn: FunctionFacts, ctx: Context, bound: dict) -> Values:
        seen: list[Number] = []
        for start in self.values(e.start, fn, ctx, bound) or [None]:
            if start is None:
                return None
            v, first_ratio = start, 0
            for _ in range(MAX_LOOP):
                at = {**bound, Counter(): v}
                test = self.values(e.test, fn, ctx, at)
                step = self.values(e.step, fn, ctx, at)
                if test is None:  # `for (s = 1; s < n; s *= 256)` with n unknown: the powers a size can reach
                    ratio = _ratio(v, step)
                    if seen and (v > GEOMETRIC_MAX or (ratio is None and step is not None and step[0] < v)):
                        break  # past the sizes followed, or the counter's type wraps
                    if ratio is None or (first_ratio := first_ratio or ratio) != ratio:
                        return None
                elif not all(test):
                    break
                if v not in seen:
                    seen.append(v)
                if step is None or len(step) != 1 or step[0] == v:
                    return None
                v = step[0]
            else:
                return None  # longer than followed: not one range to enumerate
        return _spread(seen)

    def call(self, e: Call, fn: FunctionFacts, ctx: Context, bound: dict) -> Values:
        targets = [f for f in self.functions.get(e.function, ()) if f.returns is not None and
                   call_args(e, f) is not None]
        if len(targets) > 1:  # two programs of one repository each define it: the caller's own, nearest
            nearest = min(file_distance(fn.file, f.file) for f in targets)
            targets = [f for f in targets if file_distance(fn.file, f.file) == nearest]
        if len(targets) != 1:
            return None
        target = targets[0]
        if id(target) in self._calls_busy or len(self._calls_busy) >= _NESTING:
            return None  # a recursive function's result, or calls followed far enough
        self._calls_busy.add(id(target))
        try:
            return self._call(e, fn, ctx, bound, target)
        finally:
            self._calls_busy.discard(id(target))

    def _call(self, e: Call, fn: FunctionFacts, ctx: Context, bound: dict, target: FunctionFacts) -> Values:
        per_arg = [self.values(a, fn, ctx, bound) for a in call_args(e, target) or ()]
        out: list[Values] = []
        for combo in itertools.islice(itertools.product(*[p if p is not None else [None] for p in per_arg]), 16):
            out.append(self.values(target.returns, target, Context(tuple(combo))))  # type: ignore[arg-type]
        return _union(out)

    def passed_member(self, f: Field, fn: FunctionFacts, ctx: Context) -> Values:
        """A member of a struct parameter whose call passes an aggregate of values (``product(Shape{n, n}, …)``,
        ``Shape s = {n, n}; product(s, …)``): that item, when it reads no parameter of the outermost caller."""
        if not f.owner:
            return None
        if (made := written_by(Unknown(f.owner))) is not None:  # a local an initialising call filled
            return self.member_written(f, fn, *made)
        if f.owner not in fn.params:
            return None
        i = fn.params.index(f.owner)
        passed = ctx.exprs[i] if i < len(ctx.exprs) else None
        if (made := written_by(passed) if passed is not None else None) is not None:
            return self.member_written(f, fn, *made)
        if f.index < 0 or not isinstance(passed, Items) or f.index >= len(passed.items) \
                or _reads_param(passed.items[f.index]):
            return None
        return self.values(passed.items[f.index], fn, Context(()))

    def member_written(self, f: Field, fn: FunctionFacts, callee: str, line: int) -> Values:
        """A member of an object an initialising call filled (``initMatrix(a, 192, 128)`` whose body assigns
        ``m.rows = rows``): the value that call's one assignment to the member gives with the call's arguments,
        when the callee takes one non-const reference or pointer to that record."""
        calls = [(g, c) for g, c in self.callers.get(callee, ()) if c.line == line]
        if len(calls) > 1:
            nearest = min(file_distance(fn.file, g.file) for g, _ in calls)
            calls = [(g, c) for g, c in calls if file_distance(fn.file, g.file) == nearest]
        targets = [t for t in self.functions.get(callee, ()) if calls and len(t.params) == len(calls[0][1].args)]
        if len(calls) != 1 or len(targets) != 1:
            return None
        (g, c), target = calls[0], targets[0]
        writes = [v for record, name, v in target.writes if (record, name) == (f.record, f.name)]
        holders = re.findall(rf"(?<![\w:])(?<!const ){re.escape(f.record)} *[&*]", target.signature)
        if len(writes) != 1 or len(holders) != 1:
            return None
        args = tuple(None if _reads_param(a) else _one(self.values(a, g, Context(()))) for a in c.args)
        return self.values(writes[0], target, Context(args))

    def field(self, f: Field, reader: FunctionFacts | None = None) -> Values:
        """The values of a struct field or a global: every write to it in the program.  A global the reader's own
        file initialises is that file's (``const int tile = 32;`` has internal linkage; another program of the
        folder defining its own ``tile`` is not this one's)."""
        key: tuple = (f.record, f.name)
        writes = self.writes.get(key, [])
        if f.record == "::" and reader is not None \
                and any(not w.name and w.file == reader.file for w, _ in writes):
            writes = [(w, v) for w, v in writes if w.file == reader.file]
            key = (*key, reader.file)
        if key in self._fields:
            return self._fields[key]
        if ("f", key) in self.site_memo:
            return self.site_memo[("f", key)]
        if not writes and (device := property_value(f)) is not None:
            return device  # the GPU's own limit, which the program asks for and never writes
        if not writes or key in self._fields_busy or len(self._busy) + len(self._fields_busy) >= _NESTING:
            self._cycles += 1  # partial: whatever depends on it is not kept
            return None
        cycles = self._cycles
        self._fields_busy.add(key)
        out: list[Values] = []
        for writer, value in writes:
            if not writer.name or not _reads_param(value):  # no need of the writer's callers
                out.append(self.values(value, writer, Context((None,) * len(writer.params))))
            else:
                for ctx in self.contexts(writer):
                    out.append(self.values(value, writer, ctx))
            if out[-1:] == [None]:
                break  # one unknown write makes the field unknown
        self._fields_busy.discard(key)
        if self._cycles != cycles:
            self.site_memo[("f", key)] = _union(out)
            return self.site_memo[("f", key)]
        self._fields[key] = _union(out)
        return self._fields[key]


def lift(e: Expr, ctx: Context, bound: dict | None = None) -> Expr:
    """``e`` in the terms of the outermost caller of ``ctx``: a parameter with a known value is that value, one
    without is what the callers pass for it; a loop counter or branch choice ``bound`` is its value.  Trees past
    :data:`_LIFTED` nodes are unknown (a recursion passing ``n - 1`` down)."""
    done: dict[int, Expr] = {}  # by node: an expression shares subtrees, each is rewritten once

    def go(x: Expr) -> Expr:
        if id(x) not in done:
            done[id(x)] = rewrite(x)
        return done[id(x)]

    def rewrite(x: Expr) -> Expr:
        if bound and isinstance(x, _BOUND) and x in bound:
            b = bound[x]
            return go(b[1]) if isinstance(b, tuple) else Const(b)
        if isinstance(x, Param):
            v = ctx.params[x.index] if x.index < len(ctx.params) else None
            if v is not None:
                return Const(v)
            return ctx.exprs[x.index] if x.index < len(ctx.exprs) else x
        changes = {}
        for n in field_names(x):
            v = getattr(x, n)
            if isinstance(v, tuple) and any(is_expr(i) for i in v):
                changes[n] = tuple(go(i) if is_expr(i) else i for i in v)
            elif is_expr(v):
                changes[n] = go(v)
        return replace(x, **changes) if changes else x  # type: ignore[type-var]

    if _nodes(e) > _LIFTED * 4:
        return Unknown("an expression too long to follow")
    out = go(e)
    return out if _nodes(out) <= _LIFTED else Unknown("an expression too long to follow")


def _nodes(e: Expr) -> int:
    return extent(e, {})[1]


def _one(vals: Values) -> Number | None:
    """The value of a list of one (``None`` for none or several)."""
    return vals[0] if vals is not None and len(vals) == 1 else None


def _reads_param(e: Expr, index: int | None = None) -> bool:
    """Whether ``e`` reads a parameter (``index``: that one; ``main``'s 0 is ``argc``, 1 is ``argv``)."""
    return isinstance(e, Param) and index in (None, e.index) or any(_reads_param(c, index) for c in _children(e))


def reads_member(e: Expr) -> bool:
    """Whether ``e`` reads a struct or class member (not a global)."""
    if isinstance(e, Field) and e.record != "::":
        return True
    return any(reads_member(c) for c in _children(e))


def apply(op: str, kind: str, bits: int, v: tuple) -> Number | None:  # noqa: C901 - one table of C operators
    """One C operator on concrete operands (``None``: undefined, such as a division by zero)."""
    if not v or any(x is None for x in v):  # no operand: an operator clang wrote with none (a fold, a pack)
        return None
    a = v[0]
    b = v[1] if len(v) > 1 else None
    integer = kind in ("i", "u", "b")
    try:
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        elif op == "/":
            if b == 0:
                return None
            r = _tdiv(int(a), int(b)) if integer else a / b
        elif op == "%":
            if b == 0:
                return None
            r = int(a) - int(b) * _tdiv(int(a), int(b))
        elif op in ("<<", ">>"):
            r = int(a) << int(b) if op == "<<" else int(a) >> int(b)
        elif op in ("&", "|", "^"):
            r = {"&": int(a) & int(b), "|": int(a) | int(b), "^": int(a) ^ int(b)}[op]
        elif op in ("<", ">", "<=", ">=", "==", "!="):
            return int({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}[op])
        elif op == "&&":
            return int(bool(a) and bool(b))
        elif op == "||":
            return int(bool(a) or bool(b))
        elif op == "neg":
            r = -a
        elif op == "!":
            return int(not a)
        elif op == "~":
            r = ~int(a)
        elif op in ("min", "max"):
            r = min(v) if op == "min" else max(v)
        elif op in ("ceil", "floor", "round"):
            r = {"ceil": math.ceil, "floor": math.floor, "round": round}[op](a)
        elif op == "sqrt":
            r = math.sqrt(a)
        elif op == "log2":
            r = math.log2(a)
        elif op == "abs":
            r = abs(a)
        elif op == "pow":
            r = a ** b
        else:
            return None
    except (ValueError, OverflowError, TypeError, ZeroDivisionError):
        return None
    return _cast(kind, bits, r) if integer else r


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _cast(kind: str, bits: int, v: Number | None) -> Number | None:
    if v is None:
        return None
    if kind == "f":
        return float(v)
    if kind == "b":
        return int(bool(v))
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        v = int(v)
    bits = bits or 32
    v &= (1 << bits) - 1
    if kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _unique(vals: Any) -> Values:
    out: list[Number] = []
    for v in vals:
        if v is None:
            return None
        if v not in out:
            out.append(v)
    return out[:MAX_VALUES] if len(out) <= MAX_VALUES else _spread(out)


def _union(parts: list[Values]) -> Values:
    if any(p is None for p in parts):
        return None
    return _unique(v for p in parts for v in p)  # type: ignore[union-attr]


def _spread(vals: list[Number]) -> list[Number]:
    """At most :data:`MAX_VALUES` of a long list: its ends and evenly spread values between."""
    if len(vals) <= MAX_VALUES:
        return vals
    step = (len(vals) - 1) / (MAX_VALUES - 1)
    return [vals[round(i * step)] for i in range(MAX_VALUES)]


GEOMETRIC_MAX = 1 << 24  # the largest value a loop multiplying its counter is followed to when its bound is unknown


def _ratio(v: Number, step: Values) -> int | None:
    """The integer of at least 2 one step multiplies the counter by (``s *= 256``, ``s <<= 1``), else None."""
    if isinstance(v, int) and 0 < v <= GEOMETRIC_MAX and step is not None and len(step) == 1 \
            and isinstance(step[0], int) and step[0] > v and step[0] % v == 0:
        return step[0] // v
    return None
