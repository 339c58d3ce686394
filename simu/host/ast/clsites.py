"""OpenCL launches with the values the program passes: each function's ``clSetKernelArg`` and
``clEnqueueNDRangeKernel`` calls (read by :mod:`simu.host.ast.opencl`) evaluated in every context the program runs it
in (:mod:`simu.host.ast.values`), then the lexical reader's sites (:mod:`simu.host.opencl`) refined by ``(file,
line)``.

A function's calls are evaluated together, one *frame* per distinct set of values a context (and a binding of the
loop counters and branch choices they read) gives them, so that the arguments a launch takes are those set in the
same call of the function.  A site takes clang's value where the lexical reader has none; where both have one and
they differ the lexical value stays and the difference is reported (:attr:`Refined.conflicts`), never overwritten.
A function run in several frames (a wrapper called with two local sizes) makes one launch per frame: its
``LaunchSite``\\ s are copied per frame, each with a ``variant`` that its ``ArgSite`` copies share
(:func:`simu.host.contracts._opencl_args` pairs them); the original ``ArgSite`` stays, with a value only where all
frames agree, for launches in other functions.  A launch made in no frame (its conditions fail in every context)
is no launch of the program, as for CUDA (:mod:`simu.host.ast.merge`).  Copies of one launch that come out alike
(the lexical value kept, or a loop elsewhere in the function) are one.  Not followed: which kernel a frame launches
when the function takes its ``cl_kernel`` as a parameter (:mod:`simu.host.kernelparams` makes a site per kernel
the callers pass, and each is copied per frame, so a kernel may meet another call's sizes)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from simu.host.ast.clcontents import opencl_fills
from simu.host.ast.clpriors import Earlier, opencl_priors
from simu.host.ast.clrelations import opencl_relations
from simu.host.ast.expr import Expr, Items
from simu.host.ast.facts import CallFact, FunctionFacts
from simu.host.ast.launches import MAX_VARIANTS, _bindings, _describe, _one, _shared_choices
from simu.host.ast.merge import fill_text
from simu.host.ast.opencl import CALLS, ENQUEUE, SET_ARG
from simu.host.ast.values import Context, Number, Program, lift
from simu.host.model import ArgSite, HostFile, LaunchSite, variable_text

Sizes = tuple[int | None, ...] | None
Key = tuple[str, int, str, int]  # (file, line, callee, its order among that callee's calls on the line)


@dataclass(frozen=True)
class ArgValue:
    index: int | None
    value: Number | None


@dataclass(frozen=True)
class NDRangeValue:
    dim: int | None
    global_size: Sizes
    local_size: Sizes


@dataclass(frozen=True)
class Frame:
    """The OpenCL calls one function makes in one context: their values by :data:`Key` (a call whose conditions
    fail there is absent) and the calls and loop values that lead there."""

    values: tuple[tuple[Key, ArgValue | NDRangeValue], ...]
    through: tuple[str, ...] = field(default=(), compare=False)
    # the lifted trees behind them (an argument's value; a global size's components), for relations between
    # values not known (:mod:`simu.host.ast.clrelations`)
    exprs: tuple[tuple[Key, Any], ...] = field(default=(), compare=False)
    # an argument's value, a global size's components, in the function's own terms
    raw: tuple[tuple[Key, Any], ...] = field(default=(), compare=False)

    def get(self, key: Key) -> ArgValue | NDRangeValue | None:
        return next((v for k, v in self.values if k == key), None)


@dataclass
class Refined:
    """The host files with clang's values in their OpenCL sites, and where the two readers disagree."""

    files: list[HostFile]
    conflicts: list[str] = field(default_factory=list)


def opencl_frames(program: Program) -> dict[int, list[Frame]]:
    """The distinct frames of every function that calls the OpenCL API, by the function's position in
    ``program.functions`` order (:func:`calls_of` gives its calls' keys)."""
    out: dict[int, list[Frame]] = {}
    for i, fn in enumerate(_functions(program)):
        calls = calls_of(fn)
        if calls:
            out[i] = frames(program, fn, calls)
    return out


def _functions(program: Program) -> list[FunctionFacts]:
    return [fn for fns in program.functions.values() for fn in fns]


def calls_of(fn: FunctionFacts) -> list[tuple[Key, CallFact]]:
    """The OpenCL calls of a function, each with its :data:`Key`."""
    out: list[tuple[Key, CallFact]] = []
    for c in fn.calls:
        if c.callee in CALLS:
            order = sum(1 for k, _ in out if k[1:3] == (c.line, c.callee))
            out.append(((fn.file, c.line, c.callee, order), c))
    return out


def frames(program: Program, fn: FunctionFacts, calls: list[tuple[Key, CallFact]]) -> list[Frame]:
    """The frames of one function: one per context and binding of the loop counters and choices its calls read,
    two giving the same values made one (at most :data:`~simu.host.ast.launches.MAX_VARIANTS`)."""
    program.steps, program.site_memo = 0, {}  # each function has its own evaluation allowance
    parts = [a for _, c in calls for a in _read(c)] + [e for _, c in calls for e, _ in c.conditions]
    choices = _shared_choices(parts)
    out: list[Frame] = []
    for ctx in program.contexts(fn):
        for bound in _bindings(program, fn, ctx, choices):
            made: list[tuple[Key, ArgValue | NDRangeValue]] = []
            trees: list[tuple[Key, Any]] = []
            raw: list[tuple[Key, Any]] = []
            for key, c in calls:
                if program.fails(c.conditions, fn, ctx, bound):
                    continue
                if c.callee == SET_ARG and len(c.args) >= 4:
                    index = _one(program.values(c.args[1], fn, ctx, bound))
                    made.append((key, ArgValue(int(index) if index is not None else None,
                                               _one(program.values(c.args[3], fn, ctx, bound)))))
                    trees.append((key, lift(c.args[3], ctx, bound)))
                    raw.append((key, c.args[3]))
                elif c.callee == ENQUEUE and len(c.args) >= 6:
                    dim = _int(_one(program.values(c.args[2], fn, ctx, bound)))
                    made.append((key, NDRangeValue(dim, _sizes(program, c.args[4], fn, ctx, bound, dim),
                                                   _sizes(program, c.args[5], fn, ctx, bound, dim))))
                    items = program.aggregate(c.args[4], bound)
                    if isinstance(items, Items):
                        trees.append((key, tuple(lift(x, ctx, bound) for x in items.items[:dim or 3])))
                        raw.append((key, items.items[:dim or 3]))
            frame = Frame(tuple(made), tuple(ctx.trail) + _describe(bound), tuple(trees), tuple(raw))
            if frame not in out:
                out.append(frame)
            if len(out) >= MAX_VARIANTS:
                return out
    return out


def _read(c: CallFact) -> tuple[Expr, ...]:
    """The arguments of an OpenCL call whose values matter (index and value; dimensions and sizes)."""
    if c.callee == SET_ARG:
        return tuple(c.args[i] for i in (1, 3) if i < len(c.args))
    return tuple(c.args[i] for i in (2, 4, 5) if i < len(c.args))


def _sizes(program: Program, e: Expr, fn: FunctionFacts, ctx: Context, bound: dict, dim: int | None) -> Sizes:
    """An NDRange size array's components (the first ``dim`` of them), each ``None`` where not one integer; an
    array branches fill differently is the one its binding chose."""
    e = program.aggregate(e, bound)  # type: ignore[assignment]
    if not isinstance(e, Items):
        return None
    items = e.items[:dim] if dim is not None and 0 < dim <= 3 else e.items[:3]
    return tuple(_int(_one(program.values(x, fn, ctx, bound))) for x in items)


def _int(v: Number | None) -> int | None:
    if v is None or isinstance(v, float) and not v.is_integer():
        return None
    return int(v)


# --- the lexical sites refined ------------------------------------------------------------------------------------

def refine_sites(files: list[HostFile], program: Program, found: dict[int, list[Frame]]) -> Refined:
    """``files`` with their ``ArgSite``\\ s and ``LaunchSite``\\ s refined by the frames of the functions holding
    them (see the module docstring)."""
    return _Refiner(program, found).files(files)


class _Refiner:
    def __init__(self, program: Program, found: dict[int, list[Frame]]):
        self.program, self.fns, self.found = program, _functions(program), found
        self.lasts: dict[tuple, dict[int, ArgSite]] = {}  # (sites, launch) -> the calls that set its arguments last
        self.owners: dict[Key, list[int]] = {}  # a call -> the functions holding it (template instantiations)
        for i in found:
            for key, _ in calls_of(self.fns[i]):
                self.owners.setdefault(key, []).append(i)
        self.lines: dict[tuple[str, int, str], list[Key]] = {}  # (file, line, callee) -> its calls there
        for key in self.owners:
            self.lines.setdefault(key[:3], []).append(key)
        self.conflicts: list[str] = []

    def files(self, files: list[HostFile]) -> Refined:
        out: list[HostFile] = []
        for h in files:
            args, launches = _match(h.args, SET_ARG, self.lines), _match(h.launches, ENQUEUE, self.lines)
            if not args and not launches:
                out.append(h)
                continue
            new_args = [x for a in h.args for x in self.arg(a, args.get(id(a)))]
            new_launches: list[LaunchSite] = []
            ordered = [(s, launches[id(s)]) for s in sorted(h.launches, key=lambda s: s.line) if id(s) in launches]
            for s in h.launches:
                for made in self.launch(s, launches.get(id(s))):
                    made = self.related(made, launches.get(id(s)), h.args, args, ordered)
                    # one launch per distinct set of values (a loop elsewhere in the function made more frames)
                    if not any(_same_launch(made, x, new_args) for x in new_launches):
                        new_launches.append(made)
            out.append(replace(h, args=tuple(new_args), launches=tuple(new_launches)))
        return Refined(out, self.conflicts)

    def frames_of(self, key: Key, instance: str) -> list[tuple[str, Frame]]:
        """The frames a site's copies follow, each with its variant name: its function's, when one function holds
        it and it is no template instantiation's of the lexical reader; else none (values taken only where every
        frame agrees)."""
        holders = self.owners.get(key, [])
        if len(holders) != 1 or instance or len(self.found[holders[0]]) <= 1:
            return []
        fn = self.fns[holders[0]]
        return [(f"{fn.name}:{fn.line}#{n + 1}", f) for n, f in enumerate(self.found[holders[0]])]

    def seen(self, key: Key) -> list[Any]:
        """The call's values in every frame of every function holding it (where it is made)."""
        return [v for i in self.owners.get(key, []) for f in self.found[i] if (v := f.get(key)) is not None]

    def arg(self, a: ArgSite, key: Key | None) -> list[ArgSite]:
        if key is None:
            return [a]
        seen = self.seen(key)
        base = self.arg_with(a, ArgValue(_agreed([v.index for v in seen]), _agreed([v.value for v in seen])), True)
        out = [base]
        for variant, f in self.frames_of(key, a.instance):  # the copies follow the original: they win at its line
            v = f.get(key)
            made = self.arg_with(a, v, False) if isinstance(v, ArgValue) else base
            if (made.index, made.value) != (base.index, base.value):
                out.append(replace(made, variant=variant))
        return out

    def arg_with(self, a: ArgSite, v: ArgValue, report: bool) -> ArgSite:
        index = self.pick(a.index, v.index, f"{a.file}:{a.line}: argument index", report)
        value = self.pick(a.value, v.value, f"{a.file}:{a.line}: argument {a.index}", report)
        if (index, value) == (a.index, a.value):
            return a
        return replace(a, index=index, value=value, state="" if value is not None else a.state)  # type: ignore

    def launch(self, s: LaunchSite, key: Key | None) -> list[LaunchSite]:
        if key is None:
            return [s]
        holders = self.owners.get(key, [])
        seen = self.seen(key)
        if not seen:  # clang read it and no frame of the program makes it
            return [] if holders and all(self.found[i] for i in holders) else [s]
        variants = self.frames_of(key, s.instance)
        if not variants:
            merged = NDRangeValue(_agreed([v.dim for v in seen]), _agreed_sizes([v.global_size for v in seen]),
                                  _agreed_sizes([v.local_size for v in seen]))
            one = self.found[holders[0]] if len(holders) == 1 else []
            return [self.launch_with(s, merged, one[0].through if len(one) == 1 else (), True)]
        out: list[LaunchSite] = []
        for variant, f in variants:
            v = f.get(key)
            if isinstance(v, NDRangeValue):
                out.append(replace(self.launch_with(s, v, f.through, True), variant=variant))
        return out

    def related(self, s: LaunchSite, key: Key | None, sites: tuple[ArgSite, ...], keys: dict[int, Key],
                launches: list[tuple[LaunchSite, Key]]) -> LaunchSite:
        """``s`` with the relations between the values it takes that are not known (:mod:`~simu.host.ast.clrelations`)
        and the contents the host wrote into its buffers (:mod:`~simu.host.ast.clcontents`): those every frame that
        makes it agrees on (of its function, of each instantiation of its function template), from the arguments its
        kernel was last given there before it; and the kernels launched before it on the same buffers
        (:mod:`~simu.host.ast.clpriors`)."""
        holders = self.owners.get(key, []) if key is not None else []
        if not holders:
            return s
        last = self.last_args(sites, s, keys)
        frames = [(self.fns[i], f) for i in holders for f in self.found[i] if f.get(key) is not None]  # type: ignore
        if s.variant:
            frames = [(self.fns[holders[0]], f) for n, f in self.frames_of(key, s.instance)  # type: ignore[arg-type]
                      if n == s.variant]
        made, filled, before = set(), set(), set()
        for fn, f in frames:  # each instantiation of a function template holding it, each frame
            args, raw = _arguments(f, last, keys)
            made.add(opencl_relations(self.program, fn, args, dict(f.exprs).get(key), s.local_size))  # type: ignore
            filled.add(opencl_fills(self.program, fn, s.line, raw))
            before.add(opencl_priors(self.program, fn, raw, self.earlier(f, s, launches, sites, keys)))
        if len(made) != 1:
            return s
        rel, fills = made.pop(), filled.pop() if len(filled) == 1 else ()
        priors = before.pop() if len(before) == 1 else ()
        if not rel.args and not rel.grid and not rel.lengths and not fills and not priors:
            return s
        grid = tuple(mine if mine is not None else (rel.grid[d] if d < len(rel.grid) else None)
                     for d, mine in enumerate(s.grid_sym or (None,) * len(rel.grid)))
        taken = tuple(r for d, rs in enumerate(rel.requires)
                      if d < min(len(grid), len(rel.grid)) and grid[d] == rel.grid[d] for r in rs)
        named = {a.index: re.sub(r"^\(.*?\)|[&\s]", "", a.value_text) for a in last.values() if a.index is not None}
        said = tuple(f"{named.get(i, i)} as the host fills it ({fill_text(kind, value, named.get(j))})"
                     for i, kind, value, j in fills)
        return replace(s, arg_sym=rel.args, grid_sym=grid, requires=tuple(dict.fromkeys(s.requires + taken)),
                       length_sym=rel.lengths, contents=fills, through=s.through + said, priors=priors)

    def last_args(self, sites: tuple[ArgSite, ...], s: LaunchSite, keys: dict[int, Key]) -> dict[int, ArgSite]:
        """:func:`_last_args`, once per launch site (every later launch of the file, in every frame, asks again)."""
        at = (id(sites), s.file, s.line, s.kernel, s.instance)
        if at not in self.lasts:
            self.lasts[at] = _last_args(sites, s, keys)
        return self.lasts[at]

    def earlier(self, f: Frame, s: LaunchSite, launches: list[tuple[LaunchSite, Key]], sites: tuple[ArgSite, ...],
                keys: dict[int, Key]) -> list[Earlier]:
        """The launches of other kernels the frame's function makes before ``s``, in order."""
        out = []
        for t, tkey in launches:
            v = f.get(tkey)
            if t.line >= s.line or not isinstance(v, NDRangeValue) or not t.kernel_name \
                    or t.kernel_name == s.kernel_name:
                continue
            last = self.last_args(sites, t, keys)
            _, raw = _arguments(f, last, keys)
            known = {a.index: val.value for a in last.values() if a.index is not None
                     and isinstance(val := f.get(keys[id(a)]), ArgValue) and val.value is not None}
            out.append(Earlier(t.kernel_name, f"{t.file}:{t.line}", raw, known, dict(f.raw).get(tkey),
                               v.global_size, v.local_size))
        return out

    def launch_with(self, s: LaunchSite, v: NDRangeValue, through: tuple[str, ...], report: bool) -> LaunchSite:
        where = f"{s.file}:{s.line}"
        dim = self.pick(s.work_dim, v.dim, f"{where}: work_dim", report)
        g = self.pick_sizes(s.global_size, v.global_size, dim, f"{where}: global size", report)
        loc = self.pick_sizes(s.local_size, v.local_size, dim, f"{where}: local size", report)
        if (dim, g, loc) == (s.work_dim, s.global_size, s.local_size):
            return s
        return replace(s, work_dim=dim, global_size=g, local_size=loc, through=through)

    def pick(self, text: Any, read: Any, what: str, report: bool) -> Any:
        """The lexical value where it has one (a different clang value reported), else clang's."""
        if text is None:
            return read
        if read is not None and read != text and report:
            note = f"{what}: the host text gives {text}, clang {read}"
            if note not in self.conflicts:
                self.conflicts.append(note)
        return text

    def pick_sizes(self, text: Sizes, read: Sizes, dim: int | None, what: str, report: bool) -> Sizes:
        """Per component, as :meth:`pick`; an array longer than the launch's dimensions is read to them."""
        if read is None:
            return text
        if text is None:
            return read if any(x is not None for x in read) else None
        if len(text) != len(read) and dim is not None and min(len(text), len(read)) >= dim:
            text, read = text[:dim], read[:dim]
        if len(text) != len(read):
            self.pick(len(text), len(read), f"{what} dimensions", report)
            return text
        return tuple(self.pick(a, b, f"{what}[{i}]", report) for i, (a, b) in enumerate(zip(text, read, strict=True)))


def _match(sites: tuple[Any, ...], callee: str, lines: dict[tuple[str, int, str], list[Key]]) -> dict[int, Key]:
    """Each lexical site's clang call: the one on its line, or the k-th of as many on the line."""
    by_line: dict[tuple[str, int], list[Any]] = {}
    for s in sites:
        by_line.setdefault((s.file, s.line), []).append(s)
    out: dict[int, Key] = {}
    for (file, line), here in by_line.items():
        keys = lines.get((file, line, callee), [])
        if len(keys) == 1:
            out.update({id(s): keys[0] for s in here})
        elif keys and len(keys) == len(here):
            out.update({id(s): k for s, k in zip(here, sorted(keys), strict=True)})
    return out


def _same_launch(a: LaunchSite, b: LaunchSite, args: list[ArgSite]) -> bool:
    """Two copies of one site making the same launch: equal but for their variant, whose arguments agree too."""
    if replace(a, variant="", through=()) != replace(b, variant="", through=()):
        return False
    mine = [(x.line, x.index, x.value) for x in args if x.variant == a.variant]
    return mine == [(x.line, x.index, x.value) for x in args if x.variant == b.variant]


def _last_args(sites: tuple[ArgSite, ...], s: LaunchSite, keys: dict[int, Key]) -> dict[int, ArgSite]:
    """The calls that last set each argument of ``s``'s kernel before it (those clang read)."""
    last: dict[int, ArgSite] = {}
    for a in sorted(sites, key=lambda a: a.line):
        if a.line <= s.line and variable_text(a.kernel) == variable_text(s.kernel) \
                and a.instance in ("", s.instance) and id(a) in keys:
            last[a.index if a.index is not None else -1 - len(last)] = a
    return last


def _arguments(f: Frame, last: dict[int, ArgSite], keys: dict[int, Key]) -> tuple[dict[int, Any], dict[int, Any]]:
    """A frame's arguments by position, from the calls that set them last: (lifted value, whether known) and the
    value in the function's own terms."""
    trees, raws = dict(f.exprs), dict(f.raw)
    args: dict[int, Any] = {}
    raw: dict[int, Any] = {}
    for a in last.values():
        v, tree = f.get(keys[id(a)]), trees.get(keys[id(a)])
        if isinstance(v, ArgValue) and v.index is not None and tree is not None and v.index >= 0:
            args[v.index] = (tree, v.value is not None or a.value is not None)
            raw[v.index] = raws.get(keys[id(a)])
    return args, raw



def _agreed(vals: list[Any]) -> Any:
    """The one value every frame gives, else ``None``."""
    return vals[0] if vals and all(v == vals[0] for v in vals) else None


def _agreed_sizes(vals: list[Sizes]) -> Sizes:
    """Per component, the one value every frame gives (``None`` where they differ or do not know)."""
    if not vals or any(v is None or len(v) != len(vals[0]) for v in vals):  # type: ignore[arg-type]
        return None
    return tuple(_agreed([v[i] for v in vals]) for i in range(len(vals[0])))  # type: ignore[index,arg-type]
