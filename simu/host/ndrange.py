"""A launcher method's NDRange, computed from the arguments of its call (:mod:`simu.host.launchers`): its
statements run in order over constants (arrays element by element, ``?:``, a function named ``*max``/``*min`` as
``max``/``min``), a call of another launch method of the class followed with its default parameter values; and the
number of work-groups as a relation of the kernel's arguments, found by running the method with probe values of
the one call argument that is not constant."""

from __future__ import annotations

import re
from typing import Protocol

from simu.host.cscan import CSource, split_args, split_top_level
from simu.host.cvalues import Evaluator
from simu.host.relations import symbolic


class LauncherClass(Protocol):
    """What the evaluation needs of :class:`simu.host.launchers.LauncherClass`."""

    methods: dict[str, dict]
    memo: dict

    def launches(self, method: str, depth: int = 0) -> bool: ...

_IDENT = re.compile(r"[A-Za-z_]\w*")
_MAXMIN = re.compile(r"\b[A-Za-z_]\w*?(max|Max|MAX|min|Min|MIN)\s*\(")
Launch = tuple["int | None", "tuple[int | None, ...] | None", "tuple[int | None, ...] | None"]


def simulate(cls: LauncherClass, method: str, values: list[int | None], depth: int) -> Launch | None:
    """:func:`_simulate`, memoised per class (call sites and probes repeat the same calls)."""
    key = (method, tuple(values), depth)
    if key not in cls.memo:
        cls.memo[key] = _simulate(cls, method, values, depth)
    return cls.memo[key]


def _simulate(cls: LauncherClass, method: str, values: list[int | None], depth: int) -> Launch | None:
    """(work dim, global, local) of a launch method called with ``values`` (``None``: not constant): its statements
    run in order over constants (arrays element by element), a call of another launch method followed."""
    m = cls.methods[method]
    env: dict[str, int | None] = {}
    for i, p in enumerate(m["params"]):
        if i < len(values):
            env[p] = values[i]
        elif m["defaults"][i] is not None:
            env[p] = _value(m["defaults"][i], env)
    for s in m["stmts"]:
        if "clEnqueueNDRangeKernel" in s and m["enqueue"] is not None:
            e = m["enqueue"]
            dim = _value(e["dim"], env)
            return dim, _sizes(e["global"], env, dim), _sizes(e["local"], env, dim)
        call = next(((n, c) for n, c in _calls(s) if n in cls.methods and cls.launches(n)), None)
        if call is not None and depth < 2:
            return simulate(cls, call[0], [_value(a, env) for a in call[1]], depth + 1)
        for part in split_top_level(s, ","):  # size_t g = n, l = 64;
            _assign(part, env)
    return None


def _calls(stmt: str) -> list[tuple[str, list[str]]]:
    out = []
    for m in re.finditer(r"(?<![\w.>:])([A-Za-z_]\w*)\s*\(", stmt):
        args, _ = split_args(stmt, m.end())
        if args is not None:
            out.append((m.group(1), args))
    return out


def _assign(stmt: str, env: dict[str, int | None]) -> None:
    s = stmt.strip()
    m = re.fullmatch(r"(?:[\w:<>]+\s+)*?([A-Za-z_]\w*)\s*\[\s*\w*\s*\]\s*=\s*\{(.*)\}", s, re.S)
    if m:
        items, _ = split_args(m.group(2) + ")", 0)
        for i, item in enumerate(items or []):
            env[f"{m.group(1)}__{i}"] = _value(item, env)
        return
    m = re.fullmatch(r"(?:(?:const|static|unsigned|signed|long|short)\s+)*(?:[A-Za-z_][\w:<>]*\s*[*&]*\s+)?"
                     r"([A-Za-z_]\w*)\s*(?:\[\s*(\w+)\s*\])?\s*([+\-*/]?)=(?!=)\s*(.+)", s, re.S)
    if not m:
        return
    name = m.group(1) if m.group(2) is None else f"{m.group(1)}__{_value(m.group(2), env)}"
    v = _value(m.group(4), env)
    if m.group(3):
        old = env.get(name)
        v = _value(f"{old} {m.group(3)} ({v})", {}) if old is not None and v is not None else None
    env[name] = v


def _value(expr: str, env: dict[str, int | None]) -> int | None:
    e = re.sub(r"\b([A-Za-z_]\w*)\s*\[\s*(\w+)\s*\]",
               lambda m: f"{m.group(1)}__{env.get(m.group(2), m.group(2)) if not m.group(2).isdigit() else m.group(2)}",
               expr)
    e = _MAXMIN.sub(lambda m: f"{m.group(1).lower()}(", e)
    _CONSTANTS.macros = {k: str(v) for k, v in env.items() if v is not None}  # no text: its names are these
    _CONSTANTS.__dict__.pop("_numbers", None)  # the evaluator's memo holds the last call's values
    return _EVALUATOR.int_value(e, 0)


_CONSTANTS = CSource("")
_EVALUATOR = Evaluator(_CONSTANTS)


def _sizes(expr: str, env: dict[str, int | None], dim: int | None) -> tuple[int | None, ...] | None:
    """The work sizes an NDRange argument points to: an array (``gRange``), a scalar (``&n``); ``None`` for NULL."""
    e = expr.strip()
    if e in ("NULL", "0", "nullptr"):
        return None
    n = dim if dim is not None and 0 < dim <= 3 else 1
    name = e.lstrip("&").strip()
    if not _IDENT.fullmatch(name):
        return None
    if f"{name}__0" in env:
        return tuple(env.get(f"{name}__{i}") for i in range(n))
    return (env.get(name),) if n == 1 else None


PROBES = (1, 7, 63, 64, 65, 129, 1000, 4097)  # values of an unknown size the launch method is run with


def grid_relation(cls: LauncherClass, method: str, values: list[int | None], args: list[str], launch: Launch,
                  ev: Evaluator, pos: int, passed: dict[str, int]) -> tuple[str | None, ...]:
    """The number of work-groups per axis as :mod:`simu.host.relations` expressions of the kernel's arguments
    (``_a2_``): a constant where global and local sizes are; for a global size that one unknown argument of the
    launch call decides (the others held at two different values), found by running the method with
    :data:`PROBES` for it: rounded up to the local size (``((n + l - 1) / l) * l``, ``max(1, n / l + (n % l ? 1 :
    0)) * l``) -> ``(n+l-1)/l``, passed as is -> ``n/l``; ``n`` written over the arguments set before the launch
    (``None``: not expressible)."""
    _, g, loc = launch
    if g is None or loc is None or len(g) != len(loc):
        return ()
    unknown = [j for j, v in enumerate(values) if v is None]
    out: list[str | None] = []
    for axis, (gv, lv) in enumerate(zip(g, loc, strict=True)):
        if lv is None or lv <= 0:
            return ()
        if gv is not None:
            out.append(str(gv // lv) if gv % lv == 0 else None)
            continue
        found = None
        for j in unknown:
            kinds = {_kind(cls, method, [other if v is None else v for v in values], j, axis, loc) for other in (5, 77)}
            if len(kinds) == 1 and (kind := kinds.pop()) is not None:
                found = (j, kind)
                break
        sym = symbolic(ev, args[found[0]], pos, passed) if found else None
        if found is None or sym is None:
            out.append(None)
        else:
            whole = sym if re.fullmatch(r"\w+", sym) else f"({sym})"
            out.append(f"({sym}+{lv - 1})/{lv}" if found[1] == "up" else f"{whole}/{lv}")
    return tuple(out) + ("1",) * (3 - len(out))


def _kind(cls: LauncherClass, method: str, values: list[int | None], j: int, axis: int,
          loc: tuple[int | None, ...]) -> str | None:
    """How the global size of ``axis`` follows argument ``j`` (the others at ``values``): "up" (rounded up to the
    local size), "as is", or ``None``."""
    lv = loc[axis] or 1
    probed = [simulate(cls, method, values[:j] + [v] + values[j + 1:], 0) for v in PROBES]
    sizes = [r[1][axis] if r and r[1] and r[2] == loc and len(r[1]) > axis else None for r in probed]
    if sizes == [-(-v // lv) * lv for v in PROBES]:
        return "up"
    return "as is" if sizes == list(PROBES) else None
