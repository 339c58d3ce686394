"""The ``vector`` mode: float4/uint4/uint2 values, vector literals, swizzles and component-wise operations
(OpenCL's built-in vector operators; in CUDA, ``make_float4`` and component-wise expressions), and a
``float4`` input and output buffer (four floats per index below ``n`` in the launch)."""

from __future__ import annotations

from simu.generate.program import Program

SWIZZLES = ("wzyx", "yxwz", "xxyy", "zwxy", "xyxy")


def helpers(p: Program) -> None:
    """``clampf4``: a float4 kept bounded component-wise (emitted into the prelude)."""
    d = p.d
    parts = ", ".join(f"clampf(v.{c})" for c in "xyzw")
    text = f"{d.helper} float4 clampf4(float4 v) {{ return {d.vec('float4', [parts])}; }}"
    if text not in p.prelude:
        p.prelude.insert(len(p.prelude) - 1, text)


def f4(p: Program, depth: int = 2) -> str:
    """A float4 expression."""
    r, d, e = p.rng, p.d, p.e
    vs = e.scope.names("float4")
    if depth <= 0 or r.random() < 0.3:
        k = r.choice(["lit", "var", "var", "load", "conv"] if vs else ["lit", "load", "conv"])
        if k == "var" and vs:
            return r.choice(vs)
        if k == "load" and e.guarded:
            return "vin[gid]"
        if k == "conv" and e.scope.names("uint4"):
            w = r.choice(e.scope.names("uint4"))
            if d.cuda:
                return d.vec("float4", [f"(float)({w}.{c} & 1023u)" for c in "xyzw"])
            return f"convert_float4({w} & (uint4)(1023u))"
        return d.vec("float4", [e.f(1) for _ in range(4)])
    a, b = f4(p, depth - 1), f4(p, depth - 1)
    op = r.choice(("+", "-", "half", "swz"))
    if d.cuda:
        if op == "half":
            return d.vec("float4", [f"{a}.{c} * 0.5f" for c in "xyzw"])
        if op == "swz":
            return d.vec("float4", [f"{a}.{c}" for c in r.choice(SWIZZLES)])
        return d.vec("float4", [f"{a}.{c} {op} {b}.{c}" for c in "xyzw"])
    if op == "half":
        return f"({a} * 0.5f)"
    if op == "swz":
        return f"({a}).{r.choice(SWIZZLES)}"
    return f"({a} {op} {b})"


def u4(p: Program, depth: int = 2) -> str:
    """A uint4 expression (wrapping arithmetic, masks)."""
    r, d, e = p.rng, p.d, p.e
    ws = e.scope.names("uint4")
    if depth <= 0 or r.random() < 0.3:
        if ws and r.random() < 0.6:
            return r.choice(ws)
        return d.vec("uint4", [e.u(1) for _ in range(4)])
    a, b = u4(p, depth - 1), u4(p, depth - 1)
    op = r.choice(("+", "^", "&", "|", "*"))
    if d.cuda:
        return d.vec("uint4", [f"{a}.{c} {op} {b}.{c}" for c in "xyzw"])
    return f"({a} {op} {b})"


def statement(p: Program) -> None:
    r, b, e, d = p.rng, p.b, p.e, p.d
    k = r.choice(("f4", "f4", "u4", "u2", "assign"))
    if k == "f4" or (k == "assign" and not e.scope.names("float4")):
        v = e.fresh("v")
        b.line(f"float4 {v} = clampf4({f4(p)});")
        e.scope.add("float4", v)
    elif k == "u4":
        w = e.fresh("w")
        b.line(f"uint4 {w} = {u4(p)};")
        e.scope.add("uint4", w)
    elif k == "u2":
        q = e.fresh("q")
        b.line(f"uint2 {q} = {d.vec('uint2', [e.u(1), e.u(1)])};")
        u = e.fresh("u")
        b.line(f"uint {u} = {q}.x ^ ({q}.y >> 3u);")
        e.scope.add("uint", u)
    else:
        v = r.choice(e.scope.names("float4"))
        b.line(f"{v} = clampf4({f4(p)});")


def body(p: Program) -> None:
    """The vector mode's body: vector statements mixed with private ones, a guarded float4 load and store."""
    from simu.generate import private

    r, b, e = p.rng, p.b, p.e
    helpers(p)
    p.buffer("vin", "float4", "float32", per=4, const=True)
    p.buffer("vout", "float4", "float32", per=4)
    v = e.fresh("v")
    b.line(f"float4 {v} = {p.d.vec('float4', ['0.0f'] * 4)};")
    b.line(f"if (gid < n) {v} = clampf4(vin[gid]);")
    e.scope.add("float4", v)
    b.mark_point()
    for _ in range(r.randint(2, 5)):
        statement(p) if r.random() < 0.7 else private.statement(p, 1)
        if b.depth == 1:
            b.mark_point()
    b.line(f"if (gid < n) vout[gid] = clampf4({f4(p)});")
    b.mark_point()
