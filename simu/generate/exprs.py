"""Random typed expressions over the variables in scope, free of undefined behaviour by construction.

Integer arithmetic is unsigned (wraps, never overflows), shifts are masked below the width, divisors are
made odd (``| 1u``), float arithmetic uses only ``+``, ``-``, multiplication by powers of two and
comparisons (exact products: a fused multiply-add gives the same result), floats become integers only
through ``f2u`` (in range or 0), and global inputs are read only where ``n > 0`` is known.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from simu.generate.emit import Dialect

# storage-only scalar types: (type, mask that keeps the converted value in range and non-negative)
NARROW = (("char", "0x7fu"), ("uchar", "0xffu"), ("short", "0x7fffu"), ("ushort", "0xffffu"),
          ("int", "0x7fffffffu"), ("long", "0xffffffu"), ("ulong", ""))
FLOAT_LITERALS = ("0.5f", "0.25f", "1.5f", "2.0f", "3.0f", "0.125f", "1.0f")


@dataclass
class Scope:
    """Variables visible at a point: names by type, a stack of nested blocks."""

    frames: list[dict[str, list[str]]] = field(default_factory=lambda: [{}])

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()

    def add(self, kind: str, name: str) -> None:
        self.frames[-1].setdefault(kind, []).append(name)

    def names(self, kind: str) -> list[str]:
        return [n for fr in self.frames for n in fr.get(kind, [])]


@dataclass
class ExprGen:
    """Draws expressions of type ``uint`` or ``float`` from ``rng``; ``guarded`` says whether the code being
    written runs only where ``gid < n`` (so ``n > 0`` and inputs may be read at ``% n``)."""

    rng: random.Random
    d: Dialect
    scope: Scope = field(default_factory=Scope)
    guarded: bool = False
    helpers_u: list[str] = field(default_factory=list)
    helpers_f: list[str] = field(default_factory=list)
    inputs: bool = True  # whether in_u / in_f exist
    tables: bool = True  # whether the __constant tables exist
    ids: bool = True  # whether lid and gid may appear
    counter: int = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # -- integers -------------------------------------------------------------------------------------
    def u(self, depth: int = 2) -> str:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.u_leaf(depth)
        a, b = self.u(depth - 1), self.u(depth - 1)
        op = r.choice(("+", "-", "*", "^", "&", "|", ">>", "<<", "/", "%", "?", "cmp"))
        if op in (">>", "<<"):
            return f"({a} {op} ({b} & 31u))"
        if op in ("/", "%"):
            return f"({a} {op} ({b} | 1u))"
        if op == "?":
            return f"({a} < {b} ? {self.u(depth - 1)} : {self.u(depth - 1)})"
        if op == "cmp":  # `uint` is a typedef in the CUDA prelude
            return f"(uint)({self.f(depth - 1)} < {self.f(depth - 1)})"
        return f"({a} {op} {b})"

    def u_leaf(self, depth: int) -> str:
        r = self.rng
        opts: list[str] = ["lit", "lid", "gid"] if self.ids else ["lit"]
        opts += ["vcomp"] if self.scope.names("uint4") else []
        opts += ["var"] * 4 if self.scope.names("uint") else []
        opts += ["narrow"] if self.scope.names("narrow") else []
        opts += ["f2u"] if self.scope.names("float") else []
        opts += ["helper"] if self.helpers_u and depth > 0 else []
        opts += ["table"] if self.tables else []
        opts += ["input"] if self.inputs and self.guarded and depth > 0 else []
        opts += ["struct"] if self.scope.names("struct") else []
        k = r.choice(opts)
        if k == "lit":
            return f"{r.choice((0, 1, 2, 3, 5, 7, 13, 31, 255, 1000, 65535, 2654435761))}u"
        if k == "lid":
            return "lid"
        if k == "gid":
            return "gid"
        if k == "var":
            return r.choice(self.scope.names("uint"))
        if k == "narrow":
            return f"({self.d.t('uint')}){r.choice(self.scope.names('narrow'))}"
        if k == "f2u":
            return f"f2u({r.choice(self.scope.names('float'))})"
        if k == "helper":
            return f"{r.choice(self.helpers_u)}({self.u(depth - 1)}, {self.u(depth - 1)})"
        if k == "table":
            return f"ctab_u[{self.u(depth - 1) if depth > 0 else ('lid' if self.ids else '3u')} & 7u]"
        if k == "struct":
            return f"{r.choice(self.scope.names('struct'))}.a"
        if k == "vcomp":
            return f"{r.choice(self.scope.names('uint4'))}.{r.choice('xyzw')}"
        return f"in_u[{self.u(depth - 1)} % n]"

    # -- floats ---------------------------------------------------------------------------------------
    def f(self, depth: int = 2) -> str:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.f_leaf(depth)
        a, b = self.f(depth - 1), self.f(depth - 1)
        op = r.choice(("+", "-", "+", "half", "quarter", "twice", "?", "neg"))
        if op == "half":
            return f"({a} * 0.5f)"
        if op == "quarter":
            return f"({a} * 0.25f)"
        if op == "twice":
            return f"({a} * 2.0f)"
        if op == "?":
            return f"({a} < {b} ? {self.f(depth - 1)} : {self.f(depth - 1)})"
        if op == "neg":
            return f"(-{a})"
        return f"({a} {op} {b})"

    def f_leaf(self, depth: int) -> str:
        r = self.rng
        opts: list[str] = ["lit", "u2f"]
        opts += ["var"] * 4 if self.scope.names("float") else []
        opts += ["double"] if self.scope.names("double") else []
        opts += ["helper"] if self.helpers_f and depth > 0 else []
        opts += ["table"] if self.tables else []
        opts += ["input"] if self.inputs and self.guarded and depth > 0 else []
        opts += ["struct"] if self.scope.names("struct") else []
        opts += ["parr"] if self.scope.names("parr") and depth > 0 else []
        opts += ["vcomp"] if self.scope.names("float4") else []
        k = r.choice(opts)
        if k == "lit":
            return r.choice(FLOAT_LITERALS)
        if k == "u2f":
            return f"(float)({self.u(depth - 1) if depth > 0 else ('lid' if self.ids else '3u')} & 1023u)"
        if k == "var":
            return r.choice(self.scope.names("float"))
        if k == "double":
            return f"(float){r.choice(self.scope.names('double'))}"
        if k == "helper":
            return f"{r.choice(self.helpers_f)}({self.f(depth - 1)}, {self.f(depth - 1)})"
        if k == "table":
            return f"ctab_f[{self.u(depth - 1) if depth > 0 else ('lid' if self.ids else '3u')} & 7u]"
        if k == "struct":
            return f"{r.choice(self.scope.names('struct'))}.b"
        if k == "parr":
            return f"{r.choice(self.scope.names('parr'))}[{self.u(depth - 1)} & 7u]"
        if k == "vcomp":
            return f"{r.choice(self.scope.names('float4'))}.{r.choice('xyzw')}"
        return f"in_f[{self.u(depth - 1)} % n]"

    def cond(self, depth: int = 1) -> str:
        """A (usually thread-dependent) condition."""
        r = self.rng
        k = r.choice(("lid", "u", "f"))
        if k == "lid":
            return f"(lid & {r.choice((1, 3, 7, 32, 48))}u) {r.choice(('==', '!='))} 0u"
        if k == "u":
            return f"{self.u(depth)} {r.choice(('<', '>', '==', '!='))} {self.u(depth)}"
        return f"{self.f(depth)} {r.choice(('<', '>'))} {self.f(depth)}"

    def clamp(self, expr: str) -> str:
        """A float kept finite and bounded, so repeated updates in loops never overflow."""
        return f"clampf({expr})"
