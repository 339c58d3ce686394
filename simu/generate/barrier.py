"""The ``barrier`` mode: threads exchange values through local/shared memory in barrier-separated phases.

Every thread writes its own slot ``tile[lid]`` and reads the slot a permutation gives it.  The block size
is fixed (``WG``, a power of two of at least 64), so rotations by multiples of 32, reversal and XOR masks
of at least 32 are bijections that move every value to another warp: each barrier orders accesses of
different warps and is needed under either warp model.  Barriers are placed greedily, right before the
first access that conflicts with one since the previous barrier, so none is redundant.
"""

from __future__ import annotations

from simu.generate import private
from simu.generate.program import Program

TILES = (("tf", "float"), ("tu", "uint"), ("ts", "short"))


def permutations(wg: int) -> list[str]:
    """Index expressions that are bijections on [0, WG) and send every lane to another warp."""
    out = ["WG - 1u - lid"]
    out += [f"(lid + {k}u) % WG" for k in range(32, wg, 64)]  # every permutation once: no two reads alike
    out += [f"(lid + {k}u) & (WG - 1u)" for k in range(64, wg, 64)]
    out += [f"lid ^ {m}u" for m in (32, 64, 128) if m < wg]
    return out


def declare_tiles(p: Program) -> list[tuple[str, str]]:
    """The shared arrays this kernel uses (one to three of them, WG elements each)."""
    tiles = TILES[:p.rng.randint(1, 3)]
    for name, ctype in tiles:
        p.b.line(p.d.local(ctype, name, "WG"))
    return list(tiles)


def _store_value(p: Program, ctype: str) -> str:
    e = p.e
    if ctype == "float":
        return e.clamp(e.f())
    if ctype == "short":
        return f"({p.d.t('short')})({e.u()} & 0x7fffu)"
    return e.u()


def _read(p: Program, name: str, ctype: str, perm: str) -> None:
    e, b = p.e, p.b
    p.sync_for("r", name, False)
    var = e.fresh("x")
    if ctype == "float":
        ln = b.line(f"float {var} = {name}[{perm}];")
        e.scope.add("float", var)
        p.sink("float", var)
    else:
        ln = b.line(f"uint {var} = (uint){name}[{perm}];")
        e.scope.add("uint", var)
        p.sink("uint", var)
    p.access("r", name, False, ln)


def phase(p: Program, tiles: list[tuple[str, str]]) -> None:
    """Write the own slot of a tile, then read one or two permuted slots (barriers as needed)."""
    r, b = p.rng, p.b
    name, ctype = r.choice(tiles)
    p.sync_for("w", name, True)
    ln = b.line(f"{name}[lid] = {_store_value(p, ctype)};")
    p.access("w", name, True, ln)
    if r.random() < 0.5:
        private.statements(p, 1, depth=1)
    for perm in r.sample(permutations(p.wg or 64), r.randint(1, 2)):
        _read(p, name, ctype, perm)
    b.mark_point()


def loop_phase(p: Program, tiles: list[tuple[str, str]]) -> None:
    """A uniform loop (fixed trip count) whose body writes, synchronises, reads and synchronises again."""
    r, b, e = p.rng, p.b, p.e
    name, ctype = r.choice([t for t in tiles if t[1] == "float"] or tiles)
    acc = e.fresh("acc")
    if ctype == "float":
        b.line(f"float {acc} = {e.clamp(e.f())};")
    else:
        b.line(f"uint {acc} = {e.u()};")
    p.sync_for("w", name, True)
    rounds = r.choice(("2u", "3u", "rounds"))
    if rounds == "rounds":
        p.scalar("uint", "rounds", r.choice((2, 3)))
    i = e.fresh("r")
    perm = r.choice(permutations(p.wg or 64))
    with b.block(f"for (uint {i} = 0u; {i} < {rounds}; {i}++)"):
        store = f"clampf({acc} * 0.5f + (float)({i} & 3u))" if ctype == "float" else f"{acc} * 3u + {i}"
        if ctype == "short":
            store = f"({p.d.t('short')})(({store}) & 0x7fffu)"
        ln = b.line(f"{name}[lid] = {store};")
        p.access("w", name, True, ln)
        p.sync_for("r", name, False, droppable=False)
        get = f"{name}[{perm}]" if ctype == "float" else f"(uint){name}[{perm}]"
        upd = f"clampf({acc} + {get})" if ctype == "float" else f"{acc} ^ {get}"
        ln = b.line(f"{acc} = {upd};")
        p.access("r", name, False, ln)
        p.barrier(droppable=False)  # the next round overwrites what this one read
    e.scope.add("float" if ctype == "float" else "uint", acc)
    p.sink("float" if ctype == "float" else "uint", acc)
    b.mark_point()


def body(p: Program) -> None:
    """The barrier mode's body between the prologue and the outputs."""
    r = p.rng
    tiles = declare_tiles(p)
    private.statements(p, r.randint(0, 2), depth=1)
    for _ in range(r.randint(1, 3)):
        phase(p, tiles)
        private.statements(p, r.randint(0, 2), depth=2)
    if r.random() < 0.5:
        loop_phase(p, tiles)
    if p.plant == "drop-barrier" and not any(bar.droppable for bar in p.barriers):
        phase(p, tiles)
