"""Code every mode shares: the prelude (helpers, structs, constant tables), the prologue that reads the
inputs, private computation (structured control flow, loops, narrow types, private arrays, structs) and
the stores of the outputs.  Threads do not communicate here: this is the ``basic`` mode's body."""

from __future__ import annotations

from simu.generate.exprs import FLOAT_LITERALS, NARROW, ExprGen
from simu.generate.program import Program


def prelude(p: Program) -> None:
    """Defines, helper functions, a struct type and the ``__constant`` tables (before the kernel)."""
    d, r = p.d, p.rng
    out = p.prelude
    if d.cuda:
        out.append("typedef unsigned int uint;")
    else:
        out.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
    if p.wg:
        out.append(f"#define WG {p.wg}u")
    out.append("")
    out.append("typedef struct { uint a; float b; } Pair;")
    out.append(d.constant("uint", "ctab_u", [f"{r.randrange(1 << 16)}u" for _ in range(8)]))
    out.append(d.constant("float", "ctab_f", [r.choice(FLOAT_LITERALS) for _ in range(8)]))
    # bounded and NaN-free whatever the inputs (a NaN or infinity becomes a bound)
    out.append(f"{d.helper} float clampf(float x) {{ return x < -1000.0f ? -1000.0f : (x <= 1000.0f ? x : 1000.0f); }}")
    out.append(f"{d.helper} uint f2u(float x) {{ return (x > 0.0f && x < 65536.0f) ? (uint)x : 0u; }}")
    for i in range(r.randint(0, 2)):
        g = ExprGen(r, d, inputs=False)
        g.scope.add("uint", "a")
        g.scope.add("uint", "b")
        g.helpers_u = list(p.e.helpers_u)
        body = g.u(2).replace("lid", "a").replace("gid", "b")
        out.append(f"{d.helper} uint hu{i}(uint a, uint b) {{ return {body}; }}")
        p.e.helpers_u.append(f"hu{i}")
    for i in range(r.randint(0, 2)):
        g = ExprGen(r, d, inputs=False)
        g.scope.add("float", "a")
        g.scope.add("float", "b")
        g.helpers_f = list(p.e.helpers_f)
        body = g.f(2).replace("lid", "7u").replace("gid", "11u")
        out.append(f"{d.helper} float hf{i}(float a, float b) {{ return clampf({body}); }}")
        p.e.helpers_f.append(f"hf{i}")
    out.append("")


def prologue(p: Program) -> None:
    """Thread ids, the block-size guard (CUDA, fixed block), and the inputs read under ``gid < n``."""
    b, d, e = p.b, p.d, p.e
    p.buffer("in_u", "uint", "uint32", const=True)
    p.buffer("in_f", "float", "float32", const=True)
    p.buffer("out_u", "uint", "uint32")
    p.buffer("out_f", "float", "float32")
    p.scalar("uint", "n", p.n)
    b.line(f"const uint lid = {d.lid};")
    b.line(f"const uint gid = {d.gid};")
    # No guard against 2-D launches: a kernel that never reads a second dimension keeps simu's search on
    # one-dimensional launches, while one that reads it (to return early) sends the search to 2-D ones.
    if d.cuda and p.wg:
        b.line("if (blockDim.x != WG) return;  // the shared arrays are sized for WG threads")
    b.line("uint u0 = 0u;")
    b.line("float f0 = 0.0f;")
    with b.block("if (gid < n)"):
        b.line("u0 = in_u[gid];")
        b.line("f0 = clampf(in_f[gid]);")
    e.scope.add("uint", "u0")
    e.scope.add("float", "f0")
    b.mark_point()


def statements(p: Program, count: int, depth: int = 2) -> None:
    """``count`` random private statements (nesting below ``depth``)."""
    for _ in range(count):
        statement(p, depth)
        if p.b.depth == 1:
            p.b.mark_point()


def statement(p: Program, depth: int) -> None:
    b, e, r, d = p.b, p.e, p.rng, p.d
    kinds = ["u", "f", "u", "f", "assign", "assign", "narrow"]
    if depth > 0:
        kinds += ["if", "for", "guard"]
    if b.depth == 1:
        kinds += ["parr", "struct", "double"]
    k = r.choice(kinds)
    if k == "u":
        name = e.fresh("u")
        b.line(f"uint {name} = {e.u()};")
        e.scope.add("uint", name)
    elif k == "f":
        name = e.fresh("f")
        b.line(f"float {name} = {e.clamp(e.f())};")
        e.scope.add("float", name)
    elif k == "assign":
        assign(p)
    elif k == "narrow":
        ctype, mask = r.choice(NARROW)
        name = e.fresh("h")
        ul = d.t("ulong")
        # a 64-bit product of two variables (simu's -O0 path cannot run a 64-bit multiply by a constant: GEN_NOTES)
        val = f"({e.u()} & {mask})" if mask else f"(({ul}){e.u()} * ({ul}){e.u()} + ({ul})gid)"
        b.line(f"{d.t(ctype)} {name} = ({d.t(ctype)}){val};")
        e.scope.add("narrow", name)
    elif k == "double":
        name = e.fresh("d")
        b.line(f"double {name} = (double){e.f()} * 0.5 + 0.25;")
        e.scope.add("double", name)
        p.uses_double = True
    elif k == "parr":
        name = e.fresh("pa")
        b.line(f"float {name}[8];")
        with b.block("for (uint k = 0u; k < 8u; k++)"):
            b.line(f"{name}[k] = (float)k * 0.5f;")
        e.scope.add("parr", name)
        b.line(f"{name}[{e.u(1)} & 7u] = {e.clamp(e.f())};")
    elif k == "struct":
        name = e.fresh("st")
        b.line(f"Pair {name};")
        b.line(f"{name}.a = {e.u()};")
        b.line(f"{name}.b = {e.clamp(e.f())};")
        e.scope.add("struct", name)
    elif k == "if":
        with b.block(f"if ({e.cond()})"):
            e.scope.push()
            statements(p, r.randint(1, 3), depth - 1)
            e.scope.pop()
        if r.random() < 0.5:
            b.lines[-1].text = "} else {"
            b.depth += 1
            e.scope.push()
            statements(p, r.randint(1, 2), depth - 1)
            e.scope.pop()
            b.depth -= 1
            b.line("}")
    elif k == "for":
        i = e.fresh("i")
        trip = r.choice(("4u", "(lid & 3u) + 1u", "(u0 & 7u)", "3u", "(gid % 5u)"))
        with b.block(f"for (uint {i} = 0u; {i} < {trip}; {i}++)"):
            e.scope.push()
            e.scope.add("uint", i)
            statements(p, r.randint(1, 3), depth - 1)
            e.scope.pop()
    elif k == "guard":
        guarded(p, lambda: statements(p, r.randint(1, 2), depth - 1))


def guarded(p: Program, body) -> None:
    """``if (gid < n) { body }``, where inputs may be read at any index ``% n``."""
    e = p.e
    with p.b.block("if (gid < n)"):
        was, e.guarded = e.guarded, True
        e.scope.push()
        body()
        e.scope.pop()
        e.guarded = was


def assign(p: Program) -> None:
    """An update of a variable declared earlier (wrapping for integers, bounded for floats)."""
    e, r, b = p.e, p.rng, p.b
    keep = {nm for _, nm in p.sinks} | {"lane"}  # values read from shared memory stay as read (see outputs)
    us = [v for v in e.scope.names("uint") if not v.startswith("i") and v not in keep]
    fs = [v for v in e.scope.names("float") if v not in keep]
    if us and (not fs or r.random() < 0.5):
        v = r.choice(us)
        b.line(f"{v} = {v} {r.choice(('+', '^', '*', '-'))} {e.u()};")
    elif fs:
        v = r.choice(fs)
        b.line(f"{v} = {e.clamp(f'{v} * 0.5f + {e.f()}')};")


def outputs(p: Program, extra_u: str = "", extra_f: str = "") -> None:
    """The stores of ``out_u[gid]`` and ``out_f[gid]``, with the output plants (non-injective, inter-block,
    out-of-bounds) when one is asked for."""
    from simu.generate import plants

    e = p.e
    p.b.mark_point()
    live = {nm for fr in e.scope.frames for names in fr.values() for nm in names}
    us = [nm for k, nm in p.sinks if k == "uint" and nm in live]
    fs = [nm for k, nm in p.sinks if k == "float" and nm in live]
    pu = " + ".join([f"({e.u(2)})", *us])  # a sum: two equal reads would cancel in a xor
    pf = e.clamp(" + ".join([e.f(2), *fs]))
    plants.emit_outputs(p, pu, pf)
