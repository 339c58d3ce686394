"""Control-flow order of a decoded function's blocks."""

from __future__ import annotations

from typing import Any, Sequence

Block = Any  # simu.ir.module.Block: anything with ``name`` and ``succs``


def reverse_post_order(blocks: Sequence[Block]) -> list[str]:
    """Reverse post-order in which every loop's blocks come before the blocks it exits to.

    The machine always runs the group that is first in this order, so lanes that leave a loop
    early wait at the exit until the other lanes of their warp have finished the loop, and the
    warp reconverges there.  A plain DFS may place an exit before the loop body; visiting exit
    edges first in the DFS puts them after the body in reverse post-order.
    """
    by_name = {b.name: b for b in blocks}
    loops = natural_loops(blocks)

    def exits_first(name: str) -> list[str]:
        inside = [lp for lp in loops if name in lp]
        succs = [s for s in by_name[name].succs if s in by_name]
        leaving = [s for s in succs if any(s not in lp for lp in inside)]
        return leaving + [s for s in succs if s not in leaving]

    seen: set[str] = {blocks[0].name}
    order: list[str] = []
    stack: list[tuple[str, list[str], int]] = [(blocks[0].name, exits_first(blocks[0].name), 0)]
    while stack:
        name, succs, k = stack[-1]
        if k < len(succs):
            stack[-1] = (name, succs, k + 1)
            s = succs[k]
            if s not in seen:
                seen.add(s)
                stack.append((s, exits_first(s), 0))
        else:
            stack.pop()
            order.append(name)
    order.reverse()
    order += [b.name for b in blocks if b.name not in seen]  # unreachable blocks last
    return order


def natural_loops(blocks: Sequence[Block]) -> list[set[str]]:
    """Blocks of each natural loop (one per back edge whose head dominates its tail)."""
    return [body for _, _, body in loop_edges(blocks)]


def loop_edges(blocks: Sequence[Block]) -> list[tuple[str, str, set[str]]]:
    """(tail, head, blocks of the loop) per back edge whose head dominates its tail.

    Dominators by Cooper, Harvey and Kennedy's iterative algorithm over a depth-first order (immediate
    dominators, intersected by post-order number): linear in practice, where sets of dominators per block were
    quadratic in the blocks of a large unrolled kernel."""
    names = [b.name for b in blocks]
    if not names:
        return []
    known = set(names)
    succs = {b.name: [s for s in b.succs if s in known] for b in blocks}
    preds: dict[str, list[str]] = {n: [] for n in names}
    for n in names:
        for s in succs[n]:
            preds[s].append(n)
    # post-order of the blocks reachable from the entry (iterative depth-first search)
    post: list[str] = []
    seen = {names[0]}
    stack = [(names[0], 0)]
    while stack:
        n, k = stack[-1]
        if k < len(succs[n]):
            stack[-1] = (n, k + 1)
            s = succs[n][k]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            stack.pop()
            post.append(n)
    number = {n: i for i, n in enumerate(post)}
    idom: dict[str, str] = {names[0]: names[0]}
    changed = True
    while changed:
        changed = False
        for n in reversed(post[:-1]):  # reverse post-order, the entry (last in post-order) excluded
            done = [p for p in preds[n] if p in idom]
            if not done:
                continue
            new = done[0]
            for p in done[1:]:
                a, b = p, new
                while a != b:
                    while number[a] < number[b]:
                        a = idom[a]
                    while number[b] < number[a]:
                        b = idom[b]
                new = a
            if idom.get(n) != new:
                idom[n] = new
                changed = True

    def dominates(head: str, tail: str) -> bool:
        x = tail
        while True:
            if x == head:
                return True
            up = idom[x]
            if up == x:
                return False
            x = up

    loops: list[tuple[str, str, set[str]]] = []
    for tail in names:
        if tail not in idom:
            continue  # unreachable
        for head in succs[tail]:
            if number[head] >= number[tail] and dominates(head, tail):  # back edge tail -> head
                body = {head, tail}
                work = [tail]
                while work:
                    x = work.pop()
                    for p in preds[x]:
                        if p not in body:
                            body.add(p)
                            work.append(p)
                loops.append((tail, head, body))
    return loops

