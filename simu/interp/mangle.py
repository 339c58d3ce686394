"""Reading Itanium-mangled OpenCL built-in names: base name and parameter type codes."""

from __future__ import annotations

import re
from functools import lru_cache

_BUILTIN = {"v": "void", "b": "bool", "c": "char", "a": "schar", "h": "uchar", "s": "short", "t": "ushort",
            "i": "int", "j": "uint", "l": "long", "m": "ulong", "x": "long", "y": "ulong", "f": "float",
            "d": "double"}


@lru_cache(maxsize=None)
def demangle_builtin(name: str) -> tuple[str, tuple[str, ...]] | None:
    """`_Z3maxDv4_fS_` -> ("max", ("float4", "float4")); None when not a simple mangled name."""
    m = re.match(r"_Z(\d+)", name)
    if not m:
        return None
    n = int(m.group(1))
    start = m.end()
    base = name[start:start + n]
    rest = name[start + n:]
    params: list[str] = []
    subs: list[str] = []
    pos = 0
    while pos < len(rest):
        t, pos = _type(rest, pos, subs)
        if t is None:
            break
        params.append(t)
    return base, tuple(params)


def _type(s: str, pos: int, subs: list[str]) -> tuple[str | None, int]:
    if pos >= len(s):
        return None, pos
    c = s[pos]
    if c in _BUILTIN:
        return _BUILTIN[c], pos + 1
    if s.startswith("Dh", pos):
        return "half", pos + 2
    if s.startswith("Dv", pos):
        m = re.match(r"Dv(\d+)_", s[pos:])
        assert m
        elem, p2 = _type(s, pos + m.end(), subs)
        t = f"{elem}{m.group(1)}"
        subs.append(t)
        return t, p2
    if c == "P":
        p = pos + 1
        quals = []
        while p < len(s):
            if s[p] in "KVr":
                quals.append(s[p])
                p += 1
            elif s.startswith("U3AS", p):
                m = re.match(r"U3AS(\d+)", s[p:])
                assert m
                quals.append(f"AS{m.group(1)}")
                p += m.end()
            else:
                break
        inner, p = _type(s, p, subs)
        t = f"{inner}*"
        subs.append(t)
        return t, p
    if c == "S":
        m = re.match(r"S(\d*)_", s[pos:])
        if m:
            k = int(m.group(1)) + 1 if m.group(1) else 0
            return (subs[k] if k < len(subs) else "?"), pos + m.end()
    if c.isdigit():
        m = re.match(r"(\d+)", s[pos:])
        n = int(m.group(1))  # type: ignore[union-attr]
        name = s[pos + m.end():pos + m.end() + n]  # type: ignore[union-attr]
        subs.append(name)
        return name, pos + m.end() + n  # type: ignore[union-attr]
    return None, pos


def is_unsigned(code: str) -> bool:
    base = code.rstrip("0123456789*")
    return base in ("uchar", "ushort", "uint", "ulong", "bool")
