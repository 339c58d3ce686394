"""What OpenCL host code says about its kernels: which ``.cl`` file each program is built from, with
which build options, which kernels it creates, the arguments it sets and the NDRanges it enqueues.

Read lexically (:mod:`simu.host.cscan`), for the C API (``clBuildProgram``, ``clCreateKernel``,
``clSetKernelArg``, ``clEnqueueNDRangeKernel``) and the common forms of the C++ wrapper
(``program.build(...)``, ``cl::Kernel k(program, "name")``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import TypeVar

from simu.host.callers import inherited, with_sizes
from simu.host.clfunctor import assigned_to, enqueue_ranges, functor_args, functor_calls, functor_kernels
from simu.host.clnames import chosen_with, flagged_names
from simu.host.clregistry import counter_index, counter_tail, kernel_alias, named_in_branch, registry_kernels
from simu.host.cscan import Call, CSource, split_args, split_top_level
from simu.host.cuda import instance_name, instantiations
from simu.host.cvalues import Evaluator
from simu.host.launchmacros import FUNCTION_MACRO
from simu.host.model import TAIL_BASE, ArgSite, BuildSite, KernelSite, LaunchSite, WrapperSite
from simu.host.options import (
    OptionHarvest,
    define_functions,
    param_indices,
    param_marker,
    prepended_defines,
    source_identifiers,
    template_calls,
)
from simu.host.relations import ARG, conditions, guards, norm, required, symbolic
from simu.host.state import state_source
from simu.launch.constraints import BLOCK_DIMS

CL_SUFFIX = ".cl"
# host text worth reading for OpenCL at all
MARKERS = ("clBuildProgram", "clCreateKernel", "clEnqueueNDRangeKernel", "cl::Program", "cl::Kernel",
           "enqueueNDRangeKernel", "KernelFunctor", "make_kernel")


def cl_mentions(src: CSource) -> list[tuple[int, str]]:
    """(offset, base name) of every ``.cl`` file the host text names: string literals and ``#include``s."""
    out = []
    for pos, text in src.literals():
        name = text.strip()
        if name.lower().endswith(CL_SUFFIX) and "\n" not in name and len(name) < 512:
            out.append((pos, PurePosixPath(name.replace("\\", "/")).name))
    for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+\.cl)[">]', src.code, re.M):
        out.append((m.start(), PurePosixPath(m.group(1)).name))
    return sorted(out)


@dataclass
class OpenCLSites:
    """What :func:`extract` finds in one host file."""

    builds: list[BuildSite] = field(default_factory=list)
    kernels: list[KernelSite] = field(default_factory=list)
    args: list[ArgSite] = field(default_factory=list)
    launches: list[LaunchSite] = field(default_factory=list)
    wrappers: list[WrapperSite] = field(default_factory=list)


def extract(src: CSource, rel: str) -> OpenCLSites:
    """The OpenCL sites of one host file (``rel``: its path relative to the project root)."""
    if not any(m in src.code for m in MARKERS):
        return OpenCLSites()
    ev = Evaluator(src)
    mentions = cl_mentions(src)
    defs = define_functions(src)
    builds: list[BuildSite] = []
    wrappers: list[WrapperSite] = []
    macros = _function_macros(src)
    for c in src.calls("clBuildProgram"):
        if len(c.args) < 4:
            continue
        macro = next((m for m in macros if m[1] < c.pos < m[2]), None)
        if macro is not None:  # #define clBuild(prog) clBuildProgram(prog, 0, NULL, flags, ...): built where used
            wrappers.append(WrapperSite(macro[0], None, BuildSite(rel, c.line, c.args[0], (), c.args[3], None),
                                        macro=macro[3]))
            continue
        sites = _builds_per_instantiation(src, ev, c.pos, lambda c=c: _build_sites(src, ev, rel, c, mentions, defs))
        builds += sites
        wrappers += [w for b in sites[:1] if (w := _wrapper(src, c, b)) is not None]
    builds += _cpp_builds(src, ev, rel, mentions, defs)
    kernels = [KernelSite(rel, c.line, c.lhs or "", c.args[0], ev.str_value(c.args[1], c.pos))
               for c in src.calls("clCreateKernel") if len(c.args) >= 2]
    kernels += _cpp_kernels(src, ev, rel) + registry_kernels(src, rel)
    args = [a for c in src.calls("clSetKernelArg") if len(c.args) >= 4
            for a in _per_instantiation(src, ev, c.pos, lambda c=c: _arg_site(ev, rel, c))]
    launches = []
    for c in src.calls("clEnqueueNDRangeKernel"):
        if len(c.args) >= 6:
            launches += _per_instantiation(src, ev, c.pos, lambda c=c: _launch_site(ev, rel, c, kernels, args))
    if "cl::" in src.code or "NDRange" in src.code:
        args += _cpp_args(src, ev, rel)
        launches += _cpp_launches(src, ev, rel, kernels, args)
        functors = functor_kernels(src, ev, rel)
        if functors:
            kernels += functors
            calls = functor_calls(src, functors)
            args += functor_args(src, ev, rel, calls)
            launches += _functor_launches(src, ev, rel, functors, calls, args)
    return OpenCLSites(builds, kernels, args, launches, wrappers)


def _functor_launches(src: CSource, ev: Evaluator, rel: str, functors: list[KernelSite], calls,
                      arg_sites: list[ArgSite]) -> list[LaunchSite]:
    """A launch per call of a ``cl::KernelFunctor`` and per kernel name its functor may hold
    (:mod:`simu.host.clfunctor`)."""
    out = []
    for pos, var, enqueue, _ in calls:
        offset, glob, local = enqueue_ranges(enqueue)
        if not glob:
            continue
        line = src.line_of(pos)
        names = list(dict.fromkeys(k.name for k in functors if k.var == var and k.line <= line)) or [None]
        for name in names:
            out += _per_instantiation(src, ev, pos, lambda pos=pos, var=var, name=name, g=glob, o=offset, lo=local:
                                      _cpp_launch_site(src, ev, rel, pos, [var, o, g, lo], name, arg_sites))
    return out


_Site = TypeVar("_Site", ArgSite, LaunchSite)


def _builds_per_instantiation(src: CSource, ev: Evaluator, pos: int, sites: Callable[[], list[BuildSite]]
                              ) -> list[BuildSite]:
    """The build sites at ``pos`` once per instantiation of the function template holding it (shoc's S3D
    builds with ``-DN_GP=`` of a size ``sizeof(T)`` picks: 13824 in ``RunTest<float>``, 4096 in
    ``RunTest<double>``); the first instantiation's when they agree, else each marked with its ``instance``."""
    fn = src.enclosing(pos)
    made: list[tuple[str, list[BuildSite]]] = []
    for types in instantiations(src, fn) if fn is not None else [{}]:
        ev.types = types
        try:
            made.append((instance_name(fn, types), sites()))
        finally:
            ev.types = {}
    if len({tuple(s) for _, s in made}) == 1:
        return made[0][1]
    return [replace(b, instance=name) for name, built in made for b in built]


def _per_instantiation(src: CSource, ev: Evaluator, pos: int, site: Callable[[], _Site]) -> list[_Site]:
    """The site at ``pos`` once per instantiation of the function template holding it (``sizeof(T)`` bound:
    shoc's ``runTest<float>`` and ``runTest<double>`` size their matrices by it); one site when they agree, else
    each marked with its instantiation (``instance``: launches take the arguments set in their own)."""
    fn = src.enclosing(pos)
    bindings = instantiations(src, fn) if fn is not None else [{}]
    made: list[tuple[str, _Site]] = []
    for types in bindings:
        ev.types = types
        try:
            made.append((instance_name(fn, types), site()))
        finally:
            ev.types = {}
    if len({s for _, s in made}) == 1:
        return [made[0][1]]
    return [replace(s, instance=name) for name, s in made]


def wrapper_calls(src: CSource, rel: str, w: WrapperSite) -> list[BuildSite]:
    """The builds that the calls of wrapper ``w`` in ``src`` make: one per option string the caller may pass
    (a parameter of the wrapper filled in), a macro's options read where it is used."""
    ev = Evaluator(src)
    mentions = cl_mentions(src)
    out = []
    for c in template_calls(src, w.function):
        made = _builds_per_instantiation(src, ev, c.pos, lambda c=c: _wrapper_call(src, ev, rel, w, c, mentions))
        m = re.match(rf"{re.escape(w.function)}\s*<([^;(){{}}]*)>\s*\(", src.code[c.pos:])
        if m and not w.build.instance:  # runTest<double>(…, "-DK_DOUBLE_PRECISION"): the build of that instantiation
            made = [replace(b, instance=f"{w.function}<{', '.join(a.strip() for a in m.group(1).split(','))}>")
                    if not b.instance else b for b in made]
        out += made
    return out


def _wrapper_call(src: CSource, ev: Evaluator, rel: str, w: WrapperSite, c: Call,
                  mentions: list[tuple[int, str]]) -> list[BuildSite]:
    """The builds one call of wrapper ``w`` makes (see :func:`wrapper_calls`)."""
    harvest = OptionHarvest(src, ev)
    program = w.build.program
    if w.macro is not None:
        params = dict(zip(w.macro, c.args, strict=False))
        text = _substitute(w.build.options_text.replace("\\\n", " "), params)
        program = _substitute(program, params)
        alternatives: list[str | None] = list(harvest.values(text, c.pos))
    elif w.options_index is not None:
        if w.options_index >= len(c.args):
            return []
        text = c.args[w.options_index]
        marker = param_marker(w.options_index)
        template = w.build.options if w.build.options and marker in w.build.options else marker
        alternatives = [template.replace(marker, v) for v in harvest.values(text, c.pos)]
    else:
        text, alternatives = w.build.options_text, [w.build.options]
    named = [PurePosixPath(v.replace("\\", "/")).name for a in c.args
             if (v := ev.str_value(a, c.pos)) and v.lower().endswith(CL_SUFFIX)]
    sources = tuple(named[:1]) or w.build.sources
    if not sources:
        sources = source_near(src, c.pos, mentions)
    idents = () if sources else (source_identifiers(src, program, c.pos) or w.build.source_vars)
    return [BuildSite(rel, c.line, w.build.program, sources, text, options, idents, w.build.instance)
            for options in alternatives]


def _substitute(text: str, params: dict[str, str]) -> str:
    return re.sub(r"[A-Za-z_]\w*", lambda m: params.get(m.group(0), m.group(0)), text)


def _function_macros(src: CSource) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """(name, start, end, parameters) of every function-like macro that calls ``clBuildProgram``."""
    out = []
    for m in FUNCTION_MACRO.finditer(src.code):
        if "clBuildProgram" in m.group(3):
            params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
            out.append((m.group(1), m.start(), m.end(), params))
    return out


def _source_for(src: CSource, program: str, pos: int, mentions: list[tuple[int, str]]) -> tuple[str, ...]:
    """The ``.cl`` file a program is built from: the last one named before the program is created (or,
    without a visible creation, before the build), in the same function or outside every function;
    else the first such one after it."""
    created = [c.pos for c in src.calls("clCreateProgramWithSource") if c.lhs and _same(c.lhs, program)
               and c.pos < pos]
    at = created[-1] if created else pos
    return source_near(src, at, mentions)


def source_near(src: CSource, at: int, mentions: list[tuple[int, str]]) -> tuple[str, ...]:
    """The ``.cl`` file named last before ``at`` in its function (or at file scope), else first after it."""
    here = src.enclosing(at)
    visible = [(p, n) for p, n in mentions if (f := src.enclosing(p)) is None or f == here]
    before = [name for p, name in visible if p < at]
    if before:
        return (before[-1],)
    after = [name for p, name in visible if p > at]
    return (after[0],) if after else ()


def _wrapper(src: CSource, c: Call, b: BuildSite) -> WrapperSite | None:
    """A build inside a function whose options or source file come from the function's parameters."""
    f = src.enclosing(c.pos)
    if f is None:
        return None
    indices = param_indices(b.options or "")
    index = indices[0] if indices else None
    if index is None and b.sources:
        return None
    return WrapperSite(f.name.split("::")[-1], index, b)


def _same(a: str, b: str) -> bool:
    return a.strip().lstrip("&*") == b.strip().lstrip("&*")


def _build_sites(src: CSource, ev: Evaluator, rel: str, c: Call, mentions, defs) -> list[BuildSite]:
    program = c.args[0]
    return _sites(src, ev, rel, c.line, c.pos, program, _source_for(src, program, c.pos, mentions), c.args[3], defs)


def _sites(src: CSource, ev: Evaluator, rel: str, line: int, pos: int, program: str, sources: tuple[str, ...],
           text: str, defs) -> list[BuildSite]:
    """One build site per option string the options expression may have (harvested when not a constant),
    with the ``#define``s prepended to the source in the same function as ``-D`` options."""
    value = ev.str_value(text, pos) if text else ""
    alternatives: list[str | None] = [value] if value is not None else list(OptionHarvest(src, ev).values(text, pos))
    if value is None and not any(re.sub(r"@\?@|@P\d+@|\s", "", a or "") for a in alternatives) and \
            not any(param_indices(a or "") for a in alternatives):
        alternatives = [None]  # nothing of it known
    extra = " ".join(prepended_defines(src, ev, pos, defs)) if defs else ""
    if extra:
        alternatives = [f"{a or ''} {extra}".strip() for a in alternatives]
    idents = () if sources else source_identifiers(src, program, pos)
    return [BuildSite(rel, line, program, sources, text, a, idents) for a in alternatives]


def _cpp_builds(src: CSource, ev: Evaluator, rel: str, mentions, defs) -> list[BuildSite]:
    if "cl::Program" not in src.code:
        return []
    out = []
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*(?:\.|->)\s*build\s*\(", src.code):
        args, _ = split_args(src.code, m.end())
        if args is None:
            continue
        text = ""
        for a in args[:2]:
            v = ev.str_value(a, m.start())
            if v is not None and (a.lstrip().startswith('"') or v.strip().startswith("-") or not v):
                text = a
                break
        else:
            text = args[1] if len(args) > 1 else ""
        out += _sites(src, ev, rel, src.line_of(m.start()), m.start(), m.group(1),
                      _cpp_source_for(src, m.group(1), m.start(), mentions), text, defs)
    return out


def _cpp_source_for(src: CSource, program: str, pos: int, mentions) -> tuple[str, ...]:
    decl = [m.start() for m in re.finditer(rf"cl::Program\s+{re.escape(program)}\b|{re.escape(program)}\s*=\s*"
                                           rf"cl::Program\b", src.code[:pos])]
    return source_near(src, decl[-1] if decl else pos, mentions)


def _cpp_kernels(src: CSource, ev: Evaluator, rel: str) -> list[KernelSite]:
    if "cl::Kernel" not in src.code:
        return []
    out = []
    for m in re.finditer(r"cl::Kernel\s*(?:([A-Za-z_]\w*)\s*)?[({]", src.code):
        args, _ = split_args(src.code, m.end())
        if not args or len(args) < 2:
            continue
        var = m.group(1) or assigned_to(src.code, m.start())
        out.append(KernelSite(rel, src.line_of(m.start()), var or "", args[0], ev.str_value(args[1], m.start())))
    return out


def _arg_site(ev: Evaluator, rel: str, c: Call) -> ArgSite:
    kernel, index, size, value = c.args[:4]
    target = re.sub(r"^\(\s*(?:const\s+)?void\s*\*\s*\)\s*", "", value.strip())  # (void*)&n
    v = None
    ev.defaults.clear()
    if target.startswith("&"):
        name = target[1:].strip()
        if re.fullmatch(r"[A-Za-z_]\w*", name):
            init = ev.definition(name, c.pos)
            if init is not None:
                v = ev.int_value(init, c.pos)
    used = tuple(sorted(ev.defaults)) if v is not None else ()
    state = state_source(ev, c.pos, value) if v is None and target.startswith("&") else ""
    return ArgSite(rel, c.line, kernel, ev.int_value(index, c.pos), index, size, value, v, used, state=state)


def _launch_site(ev: Evaluator, rel: str, c: Call, kernels: list[KernelSite], args: list[ArgSite]) -> LaunchSite:
    queue, kernel, dim, offset, glob, local = c.args[:6]
    ev.defaults.clear()
    g_text, g = ev.array_values(glob, c.pos)
    l_text, loc = ev.array_values(local, c.pos)
    defaults = tuple(sorted(ev.defaults)) if g or loc else ()  # the NDRange's command-line defaults
    named = [k for k in kernels if k.var and _same(k.var, kernel) and k.line <= c.line]
    name = named[-1].name if named else None
    return LaunchSite(rel, c.line, kernel, name, dim, ev.int_value(dim, c.pos), offset, glob, g_text, g, local,
                      l_text, loc, grid_sym=_grid_relation(ev, c, kernel, g_text, g, loc, args),
                      requires=launch_requires(ev, c.pos, _passed(c.line, kernel, args, constants=False)),
                      defaults=defaults)


def launch_requires(ev: Evaluator, pos: int, passed: dict[str, int]) -> tuple[str, ...]:
    """What the host requires of the arguments of the launch at ``pos`` (:func:`simu.host.relations.conditions`:
    asserts before it, the conditions of the branches holding it, an early return negated), over the argument
    positions ``passed`` (host variable -> the index it is set to): ``clSetKernelArg(k, 3, sizeof(int), &n); if (n
    >= 2) clEnqueueNDRangeKernel(…)`` -> ``_a3_ >= 2``; and what every call of the launching function in its file
    makes hold (:func:`simu.host.callers.inherited`).  A condition over a value no argument carries is dropped."""
    fn = ev.src.enclosing(pos)
    if not passed or fn is None:
        return ()
    own = required(ev, conditions(ev.src, ev, fn, pos, expand=False), pos, with_sizes(ev.src, ev, fn, pos, passed))
    return tuple(dict.fromkeys(own + inherited(ev.src, ev, fn, pos, passed)))


def _passed(line: int, kernel: str, args: list[ArgSite], constants: bool = True) -> dict[str, int]:
    """The host variables the argument sites of ``kernel`` up to ``line`` pass (normalised name -> argument index,
    the last setting of each); ``constants`` false: those of a constant value left out (they are not searched)."""
    passed: dict[str, int] = {}
    for a in sorted(args, key=lambda a: a.line):
        at = a.index if a.index is not None else TAIL_BASE + a.tail if a.tail is not None else None
        if a.line <= line and at is not None and _same(a.kernel, kernel):
            var = arg_variable(a.value_text)
            if var and (constants or a.value is None):
                passed[norm(var)] = at
    return passed


def arg_variable(value_text: str) -> str | None:
    """The variable a ``clSetKernelArg`` value points to: ``&n``, ``(void*)&d_buf``, ``buf`` (``setArg``)."""
    e = re.sub(r"^\(\s*(?:const\s+)?void\s*\*\s*\)\s*", "", value_text.strip()).lstrip("&*").strip()
    e = re.sub(r"^\(\s*(?:const\s+)?(?:unsigned\s+)?[A-Za-z_]\w*\s*\)\s*(?=[A-Za-z_(])", "", e)  # (const int)n
    e = re.sub(r"^static_cast\s*<[\w\s:]+>\s*(?=\()", "", e)  # static_cast<const int>(batch_size)
    e = e.strip("()").strip()
    return e if re.fullmatch(r"[A-Za-z_]\w*", e) else None




def _grid_relation(ev: Evaluator, c: Call, kernel: str, g_text: str, g: tuple | None, loc: tuple | None,
                   args: list[ArgSite]) -> tuple[str | None, ...]:
    """Work-groups per axis as :mod:`simu.host.relations` expressions of the kernel's arguments (``_a7_``): the
    global size over the constant local size, ``globalSize = nAtom`` with ``nAtom`` set as argument 7 ->
    ``(_a7_)/128``.  OpenCL 1.x launches only global sizes that are multiples of the local size, so the quotient
    is exact on every launch the program makes (a floor, never the extra work-items of a round-up).  A local size the
    host computes at run time (``local = {bx, by}`` from ``argv``) divides as the search's block does:
    ``(_a2_)/blockDim_x`` (:data:`~simu.launch.constraints.BLOCK_DIMS`, which the search evaluates with its block)."""
    text = g_text.strip()
    parts = split_top_level(text[1:-1], ",") if text.startswith("{") and text.endswith("}") else [text]
    if loc is None:
        loc = (None,) * len(parts)
    if len(parts) != len(loc) or any(v is not None and v <= 0 for v in loc):
        return ()
    passed = _passed(c.line, kernel, args)
    out: list[str | None] = []
    for axis, (part, lv) in enumerate(zip(parts, loc, strict=True)):
        gv = g[axis] if g and axis < len(g) else None
        if gv is not None and lv is not None:
            out.append(str(gv // lv) if gv % lv == 0 else None)
            continue
        sym = str(gv) if gv is not None else symbolic(ev, part, c.pos, passed) if passed else None
        divisor = lv if lv is not None else BLOCK_DIMS[axis]
        out.append(f"({sym})/{divisor}" if sym is not None and (ARG.search(sym) or lv is None) else None)
    return tuple(out) + ("1",) * (3 - len(out))


def _cpp_args(src: CSource, ev: Evaluator, rel: str) -> list[ArgSite]:
    """``kernel.setArg(i, value)`` of the C++ wrapper.  Those of a method a member-function pointer chooses
    (``impl_ = &Conv::Depthwise3x3;``) that launches nothing are no launch's: which method ran before the launch
    (``(this->*impl_)(); enqueue(kernel_)`` in another method) is not known here (:data:`CHOSEN_ELSEWHERE`)."""
    out = []
    elsewhere: dict[int, bool] = {}  # per enclosing function's start
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*(?:\.|->)\s*setArg\s*\(", src.code):
        args, end = split_args(src.code, m.end())
        if not args or len(args) < 2:
            continue
        value = args[-1]
        ev.defaults.clear()
        v = ev.int_value(value, m.start()) if re.fullmatch(r"[\w\s+\-*/()]+", value) else None
        used = tuple(sorted(ev.defaults)) if v is not None else ()
        state = state_source(ev, m.start(), value) if v is None else ""
        index = counter_index(src, args[0], m.start())
        if index is None and "++" not in args[0] and "--" not in args[0]:
            index = ev.int_value(args[0], m.start())
        out.append(ArgSite(rel, src.line_of(m.start()), kernel_alias(src, m.group(1), m.start()), index, args[0],
                           args[1] if len(args) > 2 else "", value, v, used, state=state,
                           variant=CHOSEN_ELSEWHERE if _chosen_elsewhere(src, m.start(), elsewhere) else "",
                           tail=counter_tail(src, args[0], m.start(), end) if index is None else None))
    return out


CHOSEN_ELSEWHERE = "@set in a method chosen through a pointer"  # an ArgSite.variant no launch site has


def _chosen_elsewhere(src: CSource, pos: int, memo: dict[int, bool]) -> bool:
    """Whether ``pos`` is in a method a member-function pointer chooses and that launches nothing."""
    f = src.enclosing(pos)
    if f is None:
        return False
    if f.start not in memo:
        memo[f.start] = "enqueueNDRangeKernel" not in src.code[f.start:f.end] \
            and bool(chosen_with(src, f.name.split("::")[-1]))
    return memo[f.start]


def _cpp_launches(src: CSource, ev: Evaluator, rel: str, kernels: list[KernelSite], arg_sites: list[ArgSite]
                  ) -> list[LaunchSite]:
    """``queue.enqueueNDRangeKernel(kernel, offset, global, local)`` with ``cl::NDRange`` sizes."""
    out = []
    for m in re.finditer(r"(?:\.|->)\s*enqueueNDRangeKernel\s*\(", src.code):  # on any queue expression
        args, _ = split_args(src.code, m.end())
        if not args or len(args) < 3:
            continue
        kernel = kernel_alias(src, args[0].strip(), m.start())
        line = src.line_of(m.start())
        named = [k for k in kernels if k.var and _same(k.var, kernel) and k.line <= line]
        local = [k for k in named if src.enclosing(src.offset_of(k.line) + 1) == src.enclosing(m.start())]
        # made in the launching function: the last made; made elsewhere for a member (one per name a registry
        # may hand it): a launch per name
        last = [k.name for k in local if k.line == local[-1].line]  # a registry's names at one line: each
        names = list(dict.fromkeys(last or [k.name for k in named])) or [None]
        fn = src.enclosing(m.start())
        if len(names) > 1 and fn is not None:  # `if (kernel_func_name_ == "concat2") { … enqueue … }`
            names = named_in_branch(guards(src, ev, fn, m.start(), expand=False), names)
        if len(names) > 1 and fn is not None:  # a method a member-function pointer chooses beside the names
            chosen = chosen_with(src, fn.name.split("::")[-1])
            names = [n for n in names if n in chosen] or names
        if len(names) > 1:  # `if (is_wino_) { … enqueue(kernel_) }`: the names set beside `is_wino_ = true;`
            flagged = flagged_names(src, m.start())
            names = [n for n in names if n in flagged] or names
        for name in names:
            out += _per_instantiation(src, ev, m.start(), lambda m=m, args=args, kernel=kernel, name=name:
                                      _cpp_launch_site(src, ev, rel, m.start(), [kernel, *args[1:]], name,
                                                       arg_sites))
    return out


def _cpp_launch_site(src: CSource, ev: Evaluator, rel: str, pos: int, args: list[str], name: str | None,
                     arg_sites: list[ArgSite]) -> LaunchSite:
    kernel, offset, glob = args[0], args[1], args[2]
    local = args[3] if len(args) > 3 else "cl::NullRange"
    line = src.line_of(pos)
    g_text, g = _ndrange(src, ev, glob, pos)
    l_text, loc = _ndrange(src, ev, local, pos)
    dim = len(g) if g is not None else None
    sizes = re.fullmatch(r"(?:cl::)?NDRange\s*[({](.*)[)}]", g_text, re.S)
    grid = _grid_relation(ev, Call("enqueueNDRangeKernel", pos, line, ()), kernel, "{" + sizes.group(1) + "}", g,
                          loc, arg_sites) if sizes else ()
    return LaunchSite(rel, line, kernel, name, "", dim, offset, glob, g_text, g, local, l_text, loc, grid_sym=grid,
                      requires=launch_requires(ev, pos, _passed(line, kernel, arg_sites, constants=False)),
                      arg_sym=_arg_relations(src, ev, line, kernel, arg_sites, local.strip()))


def _arg_relations(src: CSource, ev: Evaluator, line: int, kernel: str, arg_sites: list[ArgSite], local: str
                   ) -> tuple[str | None, ...]:
    """Per argument position, the value an expression passes as one of the other arguments' (``setArg(6, h * w)``
    after ``setArg(4, h)`` and ``setArg(5, w)``: ``_a4_*_a5_``), or as a component of the local size it enqueues
    with (``setArg(3, static_cast<int>(lws_[1]))``, ``lws_`` the local range: ``blockDim_y``), where it is one."""
    last = {a.index: a for a in sorted(arg_sites, key=lambda a: a.line)
            if a.index is not None and a.line <= line and _same(a.kernel, kernel)}
    passed = _passed(line, kernel, arg_sites)
    out: list[str | None] = [None] * (max(last, default=-1) + 1)
    for i, a in last.items():
        if a.value is not None:
            continue
        part = re.fullmatch(r"(?:static_cast\s*<[\w\s]+>\s*)?\(?\s*([A-Za-z_]\w*)\s*\[\s*([012])\s*\]\s*\)?",
                            a.value_text.strip())
        if part and part.group(1) == local:
            out[i] = BLOCK_DIMS[int(part.group(2))]
            continue
        others = {v: j for v, j in passed.items() if j != i}
        sym = symbolic(ev, a.value_text, src.offset_of(a.line), others) if others else None
        out[i] = sym if sym is not None and ARG.search(sym) else None
    return tuple(out) if any(out) else ()


def _ndrange(src: CSource, ev: Evaluator, expr: str, pos: int) -> tuple[str, tuple[int | None, ...] | None]:
    """The sizes of ``cl::NDRange(...)``, of a variable declared ``cl::NDRange g(...)`` or of a member assigned one."""
    e = expr.strip()
    if re.fullmatch(r"(?:cl::)?NullRange", e):
        return e, None
    m = re.fullmatch(r"(?:cl::)?NDRange\s*[({](.*)[)}]", e, re.S)
    if m is None and re.fullmatch(r"[A-Za-z_]\w*", e):
        decl = list(re.finditer(rf"(?:(?:cl::)?NDRange|auto)\s+{re.escape(e)}\s*(?:=\s*(?:cl::)?NDRange\s*)?"
                                rf"[({{](.*?)[)}}]\s*;", src.code[:pos], re.S))
        if not decl:  # a member one method sets and another enqueues with: its one assignment in the file
            decl = list({" ".join(d.group(1).split()): d for d in re.finditer(
                rf"(?<![\w.>]){re.escape(e)}\s*=\s*(?:cl::)?NDRange\s*[({{](.*?)[)}}]\s*;", src.code, re.S)}.values())
            decl = decl if len(decl) == 1 else []
            pos = decl[0].start() if decl else pos  # its values are read where it is assigned
        if decl:
            e = f"NDRange({decl[-1].group(1)})"
            m = re.fullmatch(r"NDRange\((.*)\)", e, re.S)
    if m is None:
        return e, None
    items, _ = split_args(m.group(1) + ")", 0)
    return e, tuple(ev.int_value(i, pos) for i in items or [])


# ---------------------------------------------------------------------------------------------------------
# build options


@dataclass(frozen=True)
class ClangFlags:
    """A build-options string as clang options: preprocessor and language options kept, the rest dropped."""

    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    clang_args: tuple[str, ...] = ()  # -U, -cl-std=
    dropped: tuple[str, ...] = field(default=(), compare=False)


_DEFINES_MACRO = {"-cl-fast-relaxed-math": "__FAST_RELAXED_MATH__"}


def parse_build_options(text: str) -> ClangFlags:
    """``"-D TILE=16 -DN=4 -I inc -cl-std=CL2.0 -cl-mad-enable"`` -> defines, include folders, clang args.

    Math and optimisation options (``-cl-mad-enable``, ``-cl-fast-relaxed-math`` ...) are dropped: simu
    is source-faithful; ``-cl-fast-relaxed-math`` still defines ``__FAST_RELAXED_MATH__`` as it does on
    a device."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    defines, incs, args, dropped = [], [], [], []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        for flag, bucket in (("-D", defines), ("-I", incs), ("-U", args)):
            if w == flag and nxt is not None:
                bucket.append(nxt if flag != "-U" else f"-U{nxt}")
                i += 1
                break
            if w.startswith(flag) and len(w) > 2:
                bucket.append(w[2:] if flag != "-U" else w)
                break
        else:
            if w.startswith("-cl-std="):
                args.append(w)
            elif w in _DEFINES_MACRO:
                defines.append(_DEFINES_MACRO[w])
            else:
                dropped.append(w)
        i += 1
    return ClangFlags(tuple(defines), tuple(incs), tuple(args), tuple(dropped))
