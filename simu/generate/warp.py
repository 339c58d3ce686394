"""The ``warp`` mode (CUDA only): shuffles, votes and a warp-synchronous shared-memory exchange.

Every warp-level call runs in uniform code with the full mask (the block size is a fixed multiple of 32).
The exchange writes the own slot, ``__syncwarp()``, reads another lane's slot of the same warp, and
``__syncwarp()`` again before the slot is overwritten: correct under either warp model; without the
``__syncwarp()`` it races only under independent thread scheduling.
"""

from __future__ import annotations

from simu.generate.program import Program

FULL = "0xffffffffu"


def shuffle(p: Program) -> None:
    r, b, e = p.rng, p.b, p.e
    src = r.choice(e.scope.names("float"))
    y = e.fresh("y")
    k = r.choice(("idx", "xor", "down", "up", "sum"))
    if k == "idx":
        b.line(f"float {y} = __shfl_sync({FULL}, {src}, (lane + {r.randint(1, 31)}u) & 31u);")
    elif k == "xor":
        b.line(f"float {y} = __shfl_xor_sync({FULL}, {src}, {r.choice((1, 2, 4, 8, 16))});")
    elif k == "down":
        b.line(f"float {y} = __shfl_down_sync({FULL}, {src}, {r.randint(1, 16)}u);")
    elif k == "up":
        b.line(f"float {y} = __shfl_up_sync({FULL}, {src}, {r.randint(1, 16)}u);")
    else:
        b.line(f"float {y} = {src};")
        with b.block("for (int off = 16; off > 0; off >>= 1)"):
            b.line(f"{y} = clampf({y} + __shfl_xor_sync({FULL}, {y}, off));")
    e.scope.add("float", y)
    p.sink("float", y)


def vote(p: Program) -> None:
    r, b, e = p.rng, p.b, p.e
    c = e.fresh("c")
    k = r.choice(("ballot", "all", "any"))
    if k == "ballot":
        b.line(f"uint {c} = (uint)__popc(__ballot_sync({FULL}, {e.cond()}));")
    else:
        b.line(f"uint {c} = (uint)__{k}_sync({FULL}, {e.cond()});")
    e.scope.add("uint", c)
    p.sink("uint", c)


def exchange(p: Program, buf: str) -> None:
    """Own slot, __syncwarp, another lane's slot, __syncwarp (each removable by the plant)."""
    r, b, e = p.rng, p.b, p.e
    w = b.line(f"{buf}[lid] = {e.clamp(e.f())};")
    s1 = b.line("__syncwarp();")
    x = e.fresh("x")
    rd = b.line(f"float {x} = {buf}[wbase + ((lane + {r.randint(1, 31)}u) & 31u)];")
    e.scope.add("float", x)
    p.sink("float", x)
    p.warp_syncs.append((s1, w, rd))
    s2 = b.line("__syncwarp();  // before the slot is written again")
    w2 = b.line(f"{buf}[lid] = {e.clamp(e.f())};")
    p.warp_syncs.append((s2, rd, w2))
    s3 = b.line("__syncwarp();")
    y = e.fresh("x")
    rd2 = b.line(f"float {y} = {buf}[wbase + (lane ^ {r.choice((1, 2, 4, 8, 16))}u)];")
    p.warp_syncs.append((s3, w2, rd2))
    e.scope.add("float", y)
    p.sink("float", y)
    b.mark_point()


def body(p: Program) -> None:
    """The warp mode's body."""
    from simu.generate import private

    r, b, e = p.rng, p.b, p.e
    buf = e.fresh("wb")
    b.line(p.d.local("float", buf, "WG"))
    b.line("const uint lane = lid & 31u;")
    b.line("const uint wbase = lid & ~31u;")
    e.scope.add("uint", "lane")
    private.statements(p, r.randint(0, 2), depth=1)
    for _ in range(r.randint(2, 4)):
        r.choice((shuffle, shuffle, vote))(p)
        b.mark_point()
        if r.random() < 0.3:
            private.statements(p, 1, depth=1)
    exchange(p, buf)
    for _ in range(r.randint(0, 2)):
        shuffle(p)
        b.mark_point()
