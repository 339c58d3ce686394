"""What a launch inherits from the calls of the function that makes it: a requirement (:mod:`simu.host.relations`)
that holds at *every* call of that function in its file holds at the launch too.

bullet3's BVH build returns early for fewer than 2 leaves (``if (numLeaves < 2) { …; return; }``) and only then
calls ``constructBinaryRadixTree()``, whose launches pass ``int numLeaves = m_leafNodeAabbs.size();`` — the size
the caller gave the array before the call (``m_leafNodeAabbs.resize(numSmallAabbs)``, ``numLeaves =
numSmallAabbs``).  A value of the launching function is followed to the caller's text for it: a parameter to the
call's argument, a local initialised with ``X.size()`` to the caller's last ``X.resize(v)`` (nothing resizing ``X``
between), a member or global to itself.  One level of calls, in the launch's own file (a call from another file is
not seen; a call through another object, ``other.f()``, makes nothing inherited).
"""

from __future__ import annotations

import re

from simu.host.cscan import Call, CSource, Function, split_args
from simu.host.cvalues import Evaluator
from simu.host.relations import conditions, norm, required

_IDENT = re.compile(r"[A-Za-z_]\w*")
_SIZE = re.compile(r"([A-Za-z_][\w.]*(?:->[A-Za-z_]\w*)*)\s*(?:\.|->)\s*size\s*\(\s*\)")
_MUTATE = r"(?:\.|->)\s*(?:resize|push_back|pop_back|emplace_back|clear|erase|insert|assign|swap)\s*\("


def inherited(src: CSource, ev: Evaluator, fn: Function, pos: int, passed: dict[str, int]) -> tuple[str, ...]:
    """The requirements over the launch's argument positions (``passed``: the launching function's variable ->
    the argument index it is set to) that every call of ``fn`` in ``src`` makes hold (the conditions around the
    call, :func:`simu.host.relations.conditions`); empty when ``fn`` is not called here, or called through an
    object."""
    name = fn.name.split("::")[-1]
    calls = [c for c in src.calls(name, qualified=True) if not fn.start < c.pos < fn.end]
    if not calls or not passed or re.search(rf"(?<!this)(?:\.|->)\s*{re.escape(name)}\s*\(", src.code):
        return ()
    common: list[str] | None = None
    for call in calls:
        caller = src.enclosing(call.pos)
        if caller is None:
            return ()
        keys = _caller_keys(src, ev, fn, pos, passed, call, caller)
        got = required(ev, conditions(src, ev, caller, call.pos, expand=False), call.pos, keys) if keys else ()
        common = list(got) if common is None else [r for r in common if r in got]
        if not common:
            return ()
    return tuple(common or ())


def with_sizes(src: CSource, ev: Evaluator, fn: Function, pos: int, passed: dict[str, int]) -> dict[str, int]:
    """``passed`` with the ``X.size()`` each local of ``fn`` passed as an argument is initialised with (``int
    numQueryAabbs = m_leafNodeAabbs.size();`` under ``if (m_leafNodeAabbs.size() > 1)``: one value)."""
    out = dict(passed)
    for var, i in passed.items():
        init = ev.definition(var, pos) if _IDENT.fullmatch(var) and var not in fn.params else None
        if init and _SIZE.fullmatch(init.strip()) and _local(src, fn, pos, var):
            out.setdefault(norm(init), i)
    return out


def _local(src: CSource, fn: Function, pos: int, var: str) -> bool:
    return re.search(rf"(?<![\w.>]){re.escape(var)}\s*(?:=(?!=)|\(|\{{|;|,)", src.code[fn.start:pos]) is not None


def _caller_keys(src: CSource, ev: Evaluator, fn: Function, pos: int, passed: dict[str, int], call: Call,
                 caller: Function) -> dict[str, int]:
    """The caller's texts for the launching function's values (normalised text -> argument index)."""
    keys: dict[str, int] = {}
    body = src.code[fn.start:pos]
    for var, i in passed.items():
        if var in fn.params:
            j = fn.params.index(var)
            if j < len(call.args):
                keys.setdefault(norm(call.args[j]), i)
            continue
        if not _IDENT.fullmatch(var):
            continue
        if not _local(src, fn, pos, var):
            keys.setdefault(var, i)  # not a local: a member or a global, the caller's too
            continue
        init = ev.definition(var, pos)
        m = _SIZE.fullmatch(init.strip()) if init else None
        if m is None:
            continue
        container = m.group(1)
        keys.setdefault(norm(init or ""), i)  # the caller may test X.size() itself
        if re.search(re.escape(container) + r"\s*" + _MUTATE, body):
            continue  # resized in the launching function before it reads the size
        size = _resized_to(src, container, caller.start, call.pos)
        if size is not None:
            keys.setdefault(norm(size), i)
    return keys


def _resized_to(src: CSource, container: str, lo: int, hi: int) -> str | None:
    """The size of the last ``container.resize(v)`` between ``lo`` and ``hi``, when nothing else changes the
    container's size after it."""
    changes = list(re.finditer(rf"(?<![\w.>]){re.escape(container)}\s*{_MUTATE}", src.code[lo:hi]))
    if not changes or not re.search(r"resize\s*\($", changes[-1].group(0)):
        return None
    args, _ = split_args(src.code, lo + changes[-1].end())
    return args[0] if args and len(args) == 1 else None

