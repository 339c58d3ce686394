"""OpenCL launches made through a project's own helpers, read as the raw API's sites.

Two kinds of helper, found by what their bodies do, never by their names:

* *kernel-creating helpers*: a function whose parameter is ``clCreateKernel``'s kernel name (directly, or one
  level through another such helper: ``Utils::compileKernel(ctx, dev, src, "scan", &err, prog)`` forwarding to
  a C function that calls ``clCreateKernel(prog, kernelName, &err)``).  ``k = helper(..., "scan", ...)``, or
  ``helper(&k, prog, "scan")`` for one that stores it through a parameter (``kernel[0] = clCreateKernel(…)``),
  binds ``k`` to kernel ``scan`` as ``clCreateKernel`` does (a :class:`~simu.host.model.KernelSite`, with the ``.cl``
  file its program is built from when the call or the program's creation names one);
* *launcher objects*: a class whose constructor stores a ``cl_kernel`` parameter in a member, whose methods call
  ``clSetKernelArg(member, idx++, ...)`` (each call of such a method sets the next argument; one looping over an
  array parameter, ``setBuffers(infos, n)``, sets ``n`` arguments from the array's initialiser) and
  ``clEnqueueNDRangeKernel(queue, member, dim, offset, global, local, ...)`` with sizes computed from the
  method's parameters (a method delegating to another, ``launch1D(n, l = 64)`` -> ``launch2D(n, 1, l, 1)``,
  followed with its default values).  ``Launcher obj(queue, kernel, ...)`` then ``obj.setX(...)`` and
  ``obj.launch(...)`` in one function become :class:`~simu.host.model.ArgSite` and
  :class:`~simu.host.model.LaunchSite` records at the calls, evaluated with the caller's constants.

What one file declares is extracted with it (:func:`kernel_helpers`, :func:`launcher_classes`: cached in
``HostFile.extra``); call sites are resolved over the whole index (:func:`resolve`), since the class, the
helper and the calls usually sit in different files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from simu.frontend.ctext import STRING_LITERAL
from simu.host.cscan import CSource, Function, split_args
from simu.host.cvalues import Evaluator
from simu.host.model import ArgSite, KernelSite, LaunchSite
from simu.host.ndrange import grid_relation, simulate
from simu.host.opencl import launch_requires
from simu.host.relations import norm
from simu.host.state import state_source

HELPERS_KEY = "cl_kernel_helpers"
CLASSES_KEY = "cl_launcher_classes"
MAX_STATEMENTS = 60  # statements of a launch method kept for evaluation
_CLASS = re.compile(r"\b(?:class|struct)\s+(?:[A-Z_][A-Z0-9_]*\s+)*([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{}()]*)?\{")
_IDENT = re.compile(r"[A-Za-z_]\w*")


# -- per file ---------------------------------------------------------------------------------------------------

def kernel_helpers(src: CSource) -> list[dict]:
    """Functions of this file whose parameter is ``clCreateKernel``'s name: ``{"function", "name", "program"}``
    (parameter indices; ``program`` ``None`` when the program is not a parameter)."""
    out = []
    for c in src.calls("clCreateKernel"):
        f = src.enclosing(c.pos)
        if f is not None and len(c.args) >= 2:
            out += [{**h, "out": _out_param(f, c.lhs)}
                    for h in _forwarding(f, c.args[1], _aliased(src, f, c.args[0], c.pos))]
    return out


def _out_param(f: Function, lhs: str | None) -> int | None:
    """The parameter the helper stores the kernel through (``kernel[0] = clCreateKernel(…)``, ``*k = …``): the
    caller's ``helper(&k, prog, "scan")`` binds its ``k``; None when the helper returns it."""
    m = re.fullmatch(r"\*\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*\[\s*0\s*\]", (lhs or "").strip())
    name = m and (m.group(1) or m.group(2))
    return f.params.index(name) if name and name in f.params else None


def _out_variable(arg: str) -> str | None:
    """The variable an out-parameter argument names (``&m_k``, ``&this->k``), else None."""
    e = arg.strip().lstrip("&").strip()
    return e if re.fullmatch(r"[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*)*", e) else None


def _aliased(src: CSource, f: Function, expr: str, pos: int) -> str:
    """The parameter a local stands for: ``cl_program p = prog; if (!p) p = build(...);`` -> ``prog``."""
    e = expr.strip().lstrip("&")
    if not _IDENT.fullmatch(e) or e in f.params:
        return e
    first = re.search(rf"\b{re.escape(e)}\s*=\s*([A-Za-z_]\w*)\s*;", src.code[f.start:pos])
    return first.group(1) if first and first.group(1) in f.params else e


def _forwarding(f: Function, name_arg: str, program_arg: str | None) -> list[dict]:
    name = name_arg.strip()
    if not name or name not in f.params:
        return []
    prog = (program_arg or "").strip().lstrip("&")
    return [{"function": f.name.split("::")[-1], "name": f.params.index(name),
             "program": f.params.index(prog) if prog and prog in f.params else None}]


def launcher_classes(src: CSource) -> list[dict]:
    """The parts of launcher classes this file defines: per class, the members it passes as the kernel of
    ``clSetKernelArg``/``clEnqueueNDRangeKernel``, its constructors and its methods (parameters, defaults, the
    arguments they set, the NDRange they enqueue, their statements).  Only classes with such a member here, or a
    constructor taking a ``cl_kernel``, are kept."""
    code = src.code
    spans = _class_spans(code)
    owned: dict[str, list[tuple[str, Function]]] = {}
    for f in src.functions():
        cls, meth = _owner(f, spans)
        if cls is not None and meth != cls and not meth.startswith("~"):
            owned.setdefault(cls, []).append((meth, f))
    ctors: dict[str, list[dict]] = {}
    for name, ctor in _constructors(code, spans):
        ctors.setdefault(name, []).append(ctor)
    sets = [c for c in src.calls("clSetKernelArg") if len(c.args) >= 4]
    enqueues = [c for c in src.calls("clEnqueueNDRangeKernel") if len(c.args) >= 6]
    out = []
    for cls in sorted(set(owned) | set(ctors)):
        members: list[str] = []
        methods = {}
        for meth, f in owned.get(cls, []):
            params, defaults = _params(f.params_text)
            m = {"params": params, "defaults": defaults, "sets": [], "enqueue": None, "stmts": []}
            for c in sets:
                if f.start < c.pos < f.end and _member(c.args[0], params):
                    value_params = [i for i, p in enumerate(params) if p and re.search(rf"\b{p}\b", c.args[3])]
                    m["sets"].append({"index": c.args[1].strip(), "value": c.args[3].strip(),
                                      "param": value_params[0] if value_params else None,
                                      "loop": _loop_count(code, f, c.pos, params)})
                    _add(members, _unthis(c.args[0]))
            for c in enqueues:
                if f.start < c.pos < f.end and _member(c.args[1], params):
                    m["enqueue"] = {"dim": c.args[2], "global": c.args[4], "local": c.args[5]}
                    _add(members, _unthis(c.args[1]))
            methods[meth] = m
        typed = any(c["typed"] is not None for c in ctors.get(cls, []))
        if not members and not typed:
            continue
        for m in methods.values():
            if not m["sets"]:
                f = next(f for n, f in owned[cls] if methods.get(n) is m)
                m["stmts"] = _statements(code[f.start + 1:f.end - 1])[:MAX_STATEMENTS]
        out.append({"class": cls, "members": members, "ctors": ctors.get(cls, []), "methods": methods})
    for name, lo, hi in spans:  # default values written only in the class body's declarations
        if "cl_kernel" in code[lo:hi] and (declared := _declared_defaults(code[lo:hi])):
            part = next((p for p in out if p["class"] == name), None)
            if part is None:
                part = {"class": name, "members": [], "ctors": [], "methods": {}}
                out.append(part)
            part["defaults"] = declared
    return out


def _declared_defaults(body: str) -> dict[str, list[str | None]]:
    """``void launch(int n, int l = 64);`` in a class body: method -> the default values of its parameters."""
    out = {}
    for m in re.finditer(r"(?<![\w:~])([A-Za-z_]\w*)\s*\(([^(){};]*(?:\([^(){};]*\)[^(){};]*)*)\)\s*(?:const\s*)?;",
                         body):
        _, defaults = _params(m.group(2))
        if any(d is not None for d in defaults):
            out[m.group(1)] = defaults
    return out


def _unthis(e: str) -> str:
    return e.strip().removeprefix("this->").strip()


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _member(expr: str, params: list[str]) -> bool:
    e = _unthis(expr)
    return bool(_IDENT.fullmatch(e)) and e not in params


def _class_spans(code: str) -> list[tuple[str, int, int]]:
    blank = STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), code)
    out = []
    for m in _CLASS.finditer(blank):
        depth, i = 0, m.end() - 1
        while i < len(blank):
            depth += {"{": 1, "}": -1}.get(blank[i], 0)
            if depth == 0:
                break
            i += 1
        out.append((m.group(1), m.end() - 1, i + 1))
    return out


def _owner(f: Function, spans: list[tuple[str, int, int]]) -> tuple[str | None, str]:
    if "::" in f.name:
        cls, meth = f.name.rsplit("::", 1)
        return cls.split("::")[-1], meth
    inside = [s for s in spans if s[1] < f.start < s[2]]
    if not inside:
        return None, f.name
    return min(inside, key=lambda s: s[2] - s[1])[0], f.name


def _params(text: str) -> tuple[list[str], list[str | None]]:
    args, _ = split_args(text + ")", 0)
    names: list[str] = []
    defaults: list[str | None] = []
    for a in args or []:
        decl, eq, default = a.partition("=")
        decl = re.sub(r"\[[^\]]*\]", "", decl)
        words = _IDENT.findall(decl)
        names.append(words[-1] if len(words) >= 2 else "")
        defaults.append(default.strip() if eq else None)
    if names == [""] and not (args or [""])[0].strip("void "):
        return [], []
    return names, defaults


def _loop_count(code: str, f: Function, pos: int, params: list[str]) -> int | None:
    """The parameter bounding a ``for (…; i < n; …)`` loop around ``pos`` in ``f`` (``None``: not in such a loop)."""
    for m in re.finditer(r"\bfor\s*\(", code[f.start:pos]):
        at = f.start + m.end()
        header, end = split_args(code.replace(";", ","), at)  # the three clauses as arguments
        if not header or len(header) < 2:
            continue
        body = re.match(r"\s*\{", code[end:])
        if body is None:
            continue
        depth, i = 0, end + body.end() - 1
        while i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            if depth == 0:
                break
            i += 1
        bound = re.search(r"<\s*([A-Za-z_]\w*)\s*$", header[1])
        if i > pos and bound and bound.group(1) in params:
            return params.index(bound.group(1))
    return None


def _statements(body: str) -> list[str]:
    """The statements of a function body at its top level (a nested block kept inside its statement)."""
    out, depth, cur = [], 0, 0
    blank = STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), body)
    for i, ch in enumerate(blank):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if ch == "}" and depth == 0 and re.match(r"\s*(?:if|for|while|switch|do|else|try|catch)\b|\s*\{",
                                                      blank[cur:i]):
                out.append(body[cur:i + 1].strip())
                cur = i + 1
        elif ch == ";" and depth == 0:
            out.append(body[cur:i].strip())
            cur = i + 1
    return [s for s in out if s]


def _constructors(code: str, spans: list[tuple[str, int, int]]) -> Iterable[tuple[str, dict]]:
    """``Class::Class(params) : m(p), ... { body }`` and inline constructors: (class, constructor record)."""
    heads = [(m.group(1), m.end()) for m in re.finditer(r"(?<![\w:~])([A-Za-z_]\w*)\s*::\s*\1\s*\(", code)]
    for name, lo, hi in spans:
        heads += [(name, lo + m.end()) for m in re.finditer(rf"(?<![\w:~.>]){re.escape(name)}\s*\(", code[lo:hi])
                  if not re.search(r"\b(?:new|return)\s*$", code[max(0, lo + m.start() - 8):lo + m.start()])]
    for name, at in heads:
        params_text, end = _balanced(code, at)
        if params_text is None:
            continue
        rest = re.match(r"\s*(?::([^{;]*))?\{", code[end:])
        if rest is None:
            continue
        init = rest.group(1) or ""
        open_at = end + rest.end() - 1
        body = code[open_at:_close(code, open_at)]
        params, defaults = _params(params_text)
        stores = {}
        for member, value in re.findall(r"([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*\)", init) + \
                re.findall(r"(?:this->)?([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*;", body):
            if value in params:
                stores[member] = params.index(value)
        typed = [i for i, a in enumerate(split_args(params_text + ")", 0)[0] or []) if re.search(r"\bcl_kernel\b", a)]
        yield name, {"params": params, "defaults": defaults, "stores": stores, "typed": typed[0] if typed else None}


def _balanced(code: str, start: int) -> tuple[str | None, int]:
    depth, i = 1, start
    while i < len(code):
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        if depth == 0:
            return code[start:i], i + 1
        if code[i] in ";{}":
            return None, i
        i += 1
    return None, i


def _close(code: str, open_at: int) -> int:
    depth, i = 0, open_at
    while i < len(code):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        if depth == 0:
            return i + 1
        i += 1
    return i


# -- over the index ---------------------------------------------------------------------------------------------

@dataclass
class Sites:
    """The raw-API sites a file's helper and launcher calls stand for."""

    kernels: list[KernelSite] = field(default_factory=list)
    args: list[ArgSite] = field(default_factory=list)
    launches: list[LaunchSite] = field(default_factory=list)


@dataclass
class LauncherClass:
    name: str
    members: set[str] = field(default_factory=set)
    ctors: list[dict] = field(default_factory=list)
    methods: dict[str, dict] = field(default_factory=dict)
    declared: dict[str, list[str | None]] = field(default_factory=dict)  # defaults of the class body's declarations
    memo: dict = field(default_factory=dict)  # simu.host.ndrange.simulate's results

    def kernel_param(self) -> int | None:
        for c in self.ctors:
            for member, i in c["stores"].items():
                if member in self.members:
                    return i
        typed = [c["typed"] for c in self.ctors if c["typed"] is not None]
        return typed[0] if typed else None

    def launches(self, method: str, depth: int = 0) -> bool:
        m = self.methods.get(method)
        if m is None or depth > 2:
            return False
        return m["enqueue"] is not None or any(self.launches(n, depth + 1) for n in _called(m, self.methods))


def _called(m: dict, methods: dict[str, dict]) -> list[str]:
    return [n for s in m["stmts"] for n in re.findall(r"(?<![\w.>:])([A-Za-z_]\w*)\s*\(", s) if n in methods]


def merge_classes(parts: Iterable[dict]) -> dict[str, LauncherClass]:
    """The launcher classes of the index: the parts each file defines, joined by class name; a class counts when
    it sets arguments or enqueues through a member and a constructor stores a kernel parameter."""
    out: dict[str, LauncherClass] = {}
    for p in parts:
        c = out.setdefault(p["class"], LauncherClass(p["class"]))
        c.members.update(p["members"])
        c.ctors += p["ctors"]
        for name, m in p["methods"].items():
            if name not in c.methods or m["sets"] or m["enqueue"]:
                c.methods[name] = m
        c.declared.update(p.get("defaults", {}))
    for c in out.values():
        for name, defaults in c.declared.items():
            m = c.methods.get(name)
            if m is not None and len(m["defaults"]) == len(defaults) and not any(m["defaults"]):
                c.methods[name] = {**m, "defaults": defaults}
    return {n: c for n, c in out.items() if c.members and c.kernel_param() is not None
            and any(m["sets"] for m in c.methods.values()) and any(c.launches(n) for n in c.methods)}


def forwarders(helpers: list[dict], src: CSource) -> list[dict]:
    """Functions of ``src`` passing their parameter as a helper's kernel name: helpers themselves (one level)."""
    out = []
    for h in helpers:
        for c in src.calls(h["function"], qualified=True):
            f = src.enclosing(c.pos)
            if f is not None and len(c.args) > h["name"] and f.name.split("::")[-1] != h["function"]:
                prog = c.args[h["program"]] if h["program"] is not None and len(c.args) > h["program"] else None
                out += _forwarding(f, c.args[h["name"]], prog)
    return out


def helper_kernels(helpers: list[dict], src: CSource, ev: Evaluator, rel: str, cl_names: Callable[[], list[str]]
                   ) -> list[KernelSite]:
    """``k = helper(..., "name", ...)`` (or ``helper(&k, ..., "name")``): one kernel site per call of a
    kernel-creating helper."""
    out = []
    for h in helpers:
        for c in src.calls(h["function"], qualified=True, methods=True):
            at = h.get("out")
            lhs = c.lhs if at is None else _out_variable(c.args[at]) if len(c.args) > at else None
            if len(c.args) <= h["name"] or not lhs:
                continue
            name = ev.str_value(c.args[h["name"]], c.pos)
            if name is None:
                continue  # a name the caller computes: nothing to bind (the helper's own forwarding calls)
            prog = c.args[h["program"]] if h["program"] is not None and len(c.args) > h["program"] else ""
            out.append(KernelSite(rel, c.line, lhs, prog, name, _cl_source(src, ev, c.args, prog, c.pos, cl_names)))
    return out


def _cl_source(src: CSource, ev: Evaluator, args: tuple[str, ...], program: str, pos: int,
               cl_names: Callable[[], list[str]]) -> tuple[str, ...]:
    """The ``.cl`` file a helper's kernel comes from: named by one of the call's arguments, else by the call that
    made its program (``prog = buildFromString(ctx, dev, src, &err, opts, "kernels/scan.cl")``), else the one
    ``.cl`` file the host file names."""
    def named(texts) -> tuple[str, ...]:
        for a in texts:
            v = ev.str_value(a, pos) if a.strip() else None
            if v and v.lower().endswith(".cl") and "\n" not in v:
                return (v.replace("\\", "/").rsplit("/", 1)[-1],)
        return ()

    found = named(args)
    p = program.strip().lstrip("&")
    if not found and _IDENT.fullmatch(p):
        f = src.enclosing(pos)
        lo = f.start if f is not None else max(0, pos - 4000)
        # where the arguments of the call that made it start: ``prog = build(…)``, or through a parameter,
        # ``getProgramFromFile(&prog, ctx, "scan.cl")``
        made = [lo + m.end() for m in re.finditer(rf"\b{re.escape(p)}\s*=\s*[A-Za-z_][\w:]*\s*\(",
                                                  src.code[lo:pos])] or \
            [m.end(1) for m in re.finditer(rf"[A-Za-z_][\w:]*\s*(\()\s*&\s*{re.escape(p)}\s*,", src.code[:pos])]
        if made:
            inner, _ = split_args(src.code, made[-1])
            found = named(inner or [])
    if not found:
        names = cl_names()
        found = (names[0],) if len(set(names)) == 1 else ()
    return found


def launcher_calls(classes: dict[str, LauncherClass], src: CSource, ev: Evaluator, rel: str) -> Sites:
    """The argument and launch sites of the launcher objects ``src`` makes (``Launcher obj(q, k, ...)``,
    ``Launcher *obj = new Launcher(q, k)``): the setter and launch calls on ``obj`` that follow in its function."""
    out = Sites()
    for cls in classes.values():
        if cls.name not in src.code:
            continue
        c = re.escape(cls.name)
        pat = (rf"(?<![\w:])(?:{c}\s*\*?\s*([A-Za-z_]\w*)\s*(?:\(|\{{|=\s*new\s+{c}\s*\()"
               rf"|([A-Za-z_]\w*)\s*=\s*new\s+{c}\s*\()")
        made = [(m.group(1) or m.group(2), m) for m in re.finditer(pat, src.code)]
        for var, m in made:
            args, _ = split_args(src.code, m.end())
            k = cls.kernel_param()
            f = src.enclosing(m.start())
            if args is None or k is None or k >= len(args) or f is None:
                continue
            later = [x.start() for v, x in made if v == var and f.start < x.start() < f.end and x.start() > m.start()]
            for kernel in _kernel_exprs(ev, args[k].strip(), m.start()):
                _object_calls(cls, src, ev, rel, var, kernel, m.end(), min(later + [f.end]), out)
    return out


def _kernel_exprs(ev: Evaluator, kernel: str, pos: int) -> list[str]:
    """The kernel variables a launcher is given: ``k`` itself, or what a local ``cl_kernel k = a;`` / ``k = c ? a :
    b;`` holds (each alternative launches)."""
    if not _IDENT.fullmatch(kernel):
        return [kernel]
    init = ev.definition(kernel, pos)
    if init is None:
        return [kernel]
    init = init.strip()
    parts = re.fullmatch(r"[^?:]+\?\s*([A-Za-z_][\w.\->]*)\s*:\s*([A-Za-z_][\w.\->]*)", init)
    if parts:
        return [parts.group(1), parts.group(2)]
    return [init] if re.fullmatch(r"[A-Za-z_][\w.\->]*", init) and "(" not in init else [kernel]


def _object_calls(cls: LauncherClass, src: CSource, ev: Evaluator, rel: str, var: str, kernel: str, lo: int,
                  hi: int, out: Sites) -> None:
    index: int | None = 0
    first = len(out.args)
    for m in re.finditer(rf"(?<![\w.>]){re.escape(var)}\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\(", src.code[lo:hi]):
        pos = lo + m.start()
        meth = cls.methods.get(m.group(1))
        args, _ = split_args(src.code, lo + m.end())
        if meth is None or args is None:
            continue
        line = src.line_of(pos)
        if meth["sets"]:
            if _nested(src.code, lo, pos):  # if (x) obj.setBuffer(b);: the arguments after it may move
                index = None
            index = _set_args(meth, args, src, ev, rel, line, pos, kernel, index, out)
        elif cls.launches(m.group(1)):
            values = [ev.int_value(a, pos) for a in args]
            launch = simulate(cls, m.group(1), values, 0)
            if launch is None:
                continue
            dim, g, loc = launch
            text = src.code[pos:lo + m.end()] + ", ".join(args) + ")"
            passed = {norm(a.value_text.lstrip("&")): a.index for a in out.args[first:] if a.index is not None}
            grid = grid_relation(cls, m.group(1), values, args, launch, ev, pos, passed)
            searched = {k: i for k, i in passed.items()
                        if all(a.value is None for a in out.args[first:] if a.index == i)}
            out.launches.append(LaunchSite(rel, line, kernel, None, str(dim) if dim is not None else "", dim, "NULL",
                                           text, "", g, text, "", loc, grid_sym=grid,
                                           requires=launch_requires(ev, pos, searched)))


def _nested(code: str, lo: int, pos: int) -> bool:
    """Whether ``pos`` is in a block (a branch, a loop) opened after ``lo``, or a braceless ``if``/``for`` body."""
    text = STRING_LITERAL.sub('""', code[lo:pos])
    if text.count("{") > text.count("}"):
        return True
    last = text[:text.rfind(";") + 1] if ";" in text else ""
    return bool(re.search(r"\b(?:if|for|while|else)\b[^;{}]*$", text[len(last):]))


def _set_args(meth: dict, args: list[str], src: CSource, ev: Evaluator, rel: str, line: int, pos: int, kernel: str,
              index: int | None, out: Sites) -> int | None:
    """The arguments one setter call sets (each ``clSetKernelArg`` of the method; a loop over an array parameter
    once per element of the array's initialiser); the next argument index."""
    for s in meth["sets"]:
        at = _index_of(s["index"], meth["params"], args, ev, pos)
        values: list[str] | None
        if s["loop"] is not None:
            array = args[s["param"]] if s["param"] is not None and s["param"] < len(args) else None
            values = _array_elements(src, array, pos) if array else None
            n = ev.int_value(args[s["loop"]], pos) if s["loop"] < len(args) else None
            if values is None or n is not None and n != len(values):
                values = [""] * n if n is not None else None
        else:
            arg = args[s["param"]] if s["param"] is not None and s["param"] < len(args) else s["value"]
            values = [arg]
        if values is None:
            return None  # how many it sets is not known: later arguments are not placed
        for v in values:
            here = index if at == "next" else at
            scalar = ev.int_value(v, pos) if v and _IDENT.fullmatch(v.strip()) or re.fullmatch(r"[\w\s+\-*/()]+", v) \
                else None
            value_text = f"&{v.strip()}" if s["value"].startswith("&") and _IDENT.fullmatch(v.strip()) else v
            state = state_source(ev, pos, v) if v and scalar is None else ""
            out.args.append(ArgSite(rel, line, kernel, here if isinstance(here, int) else None, s["index"], "",
                                    value_text, scalar, state=state))
            if at == "next":
                index = index + 1 if index is not None else None
    return index


def _index_of(text: str, params: list[str], args: list[str], ev: Evaluator, pos: int) -> int | str | None:
    """``m_idx++`` -> "next"; a parameter -> the caller's value; a constant -> itself."""
    if "++" in text or "+=" in text:
        return "next"
    t = text.strip()
    if t in params and params.index(t) < len(args):
        return ev.int_value(args[params.index(t)], pos)
    return ev.int_value(t, pos)


def _array_elements(src: CSource, array: str, pos: int) -> list[str] | None:
    """The initialiser elements of ``T array[] = {a, b}`` declared last before ``pos``."""
    name = array.strip().lstrip("&")
    if not _IDENT.fullmatch(name):
        return None
    found = list(re.finditer(rf"\b{re.escape(name)}\s*\[[^\]]*\]\s*=\s*\{{", src.code[max(0, pos - 20000):pos]))
    if not found:
        return None
    items, _ = split_args(src.code, max(0, pos - 20000) + found[-1].end())
    return items


def resolve(helpers: list[dict], classes: dict[str, LauncherClass], files: list[tuple[str, CSource]],
            cl_names: Callable[[CSource], list[str]]) -> dict[str, Sites]:
    """The sites of every helper and launcher call in ``files`` ((path relative to the root, source)), per file;
    launches name the kernel their kernel variable was made for (a site of the same file first, else the one
    kernel of that variable elsewhere)."""
    out: dict[str, Sites] = {}
    for rel, src in files:
        ev = Evaluator(src)
        kernels = helper_kernels(helpers, src, ev, rel, lambda s=src: cl_names(s)) if helpers else []
        sites = launcher_calls(classes, src, ev, rel) if classes else Sites()
        sites.kernels = kernels
        if kernels or sites.args or sites.launches:
            out[rel] = sites
    return out
