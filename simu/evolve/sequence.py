"""Kernel sequences: a launch's buffers as the kernels the host launches before it leave them (issue 29).

The host code runs ``scan`` and then ``scatter`` on the same ``d_pos`` (:mod:`simu.host.ast.sequence`, a contract's
``before``).  Each launch the search draws for ``scatter`` first runs ``scan`` at its own host launch (its grid,
block and constant arguments; the buffers and values both kernels are given the same variable for shared, the
rest drawn as the search draws), and ``scatter`` then reads the buffers ``scan`` wrote: prefix sums, not random
offsets.  Those buffers are the program's data, so the contents refutation leaves them alone (their specs carry
``produced``) and the launch's origin names the kernel and launch that made them -- unless the earlier kernel read
a buffer of its own that the search drew (no buffer of the later launch, so nothing the program is known to
pass: ``slot[e] = row[src[e]] + atomicAdd(&cursor[src[e]], 1)`` with random ``row`` and ``src`` hands out
colliding slots).  Its outputs then depend on contents the search chose: their specs say so (``drawn_inputs``)
and the contents refutation varies them like the search's own.  The earlier kernel's own buffers are drawn with
the fill the later launch's buffers have (a zero-filled probe runs it on zeros).  A prior's grid is the host's, or
computed from the later launch's values where both launches sit in one function (``Prior.grid_sym``: ``n / 4 /
128`` with ``n`` passed to the later kernel).  A prior that cannot run as the
program runs it (a kernel not in this file, an argument the host computes, a launch past
:data:`MAX_PRIOR_THREADS`, a run that does not complete) is left out and the buffers stay the search's.
"""

from __future__ import annotations

import base64

import numpy as np

from simu.errors import SimuError
from simu.interp.memory import OFFSET_BITS, SPACE_GLOBAL
from simu.interp.trace import READ
from simu.ir import Kernel, Module
from simu.launch import Launch
from simu.launch.buffers import draw_buffer, element_type, seal
from simu.launch.constraints import Prior
from simu.launch.model import LocalBuffer

MAX_PRIOR_THREADS = 1 << 16  # an earlier kernel runs whole: its every block writes what the later one reads


def prior_kernel(module: Module, name: str) -> Kernel | None:
    """The module's kernel the host launches as ``name`` (its source name, namespaces and template aside)."""
    for k in module.kernels:
        base = k.display_name.split("(")[0].split("<")[0].split("::")[-1].strip()
        if base == name:
            return k
    return None


def run_priors(module: Module, launch: Launch, priors: tuple[Prior, ...], limits) -> str:
    """Run ``priors`` in order on ``launch``'s buffers and put what they leave in its arguments (in place);
    the text says which buffers came from which launch, "" when none did."""
    from simu.interp import run

    said = []
    launch.sequenced = True
    values = {k: v for k, v in launch.args.items() if not isinstance(v, (np.ndarray, LocalBuffer))}
    for prior in priors:
        if not prior.runs:
            continue
        k1 = prior_kernel(module, prior.kernel)
        grid = prior.grid_at(values)  # the host's, or computed from this launch's values (Prior.grid_sym)
        if k1 is None or grid is None or int(np.prod(grid)) * int(np.prod(prior.block)) > MAX_PRIOR_THREADS:
            continue
        made_launch = _launch(k1, prior, launch, grid)
        if made_launch is None:
            continue
        first, drawn = made_launch
        try:
            result = run(module, k1, first, limits)
        except SimuError:
            continue
        if not result.outcome.completed:
            continue
        made = []
        tainted = _read_of(result, drawn)
        for j, name in prior.shared:
            out = result.buffers.get(k1.params[j].name)
            old = launch.args.get(name)
            if not isinstance(out, np.ndarray) or not isinstance(old, np.ndarray) or out.nbytes != old.nbytes:
                continue
            new = np.ascontiguousarray(out).view(old.dtype).reshape(old.shape).copy()
            if np.array_equal(new, old, equal_nan=new.dtype.kind == "f"):
                continue  # read, not written: the buffer stays the search's
            spec = {"dtype": str(new.dtype), "length": int(new.size), "fill": "data",
                    "base64": base64.b64encode(new.tobytes()).decode(), "produced": f"{prior.kernel} at {prior.site}"}
            if new.ndim > 1:
                spec["shape"] = list(new.shape)
            if tainted:
                spec["drawn_inputs"] = ", ".join(tainted)
            launch.args[name], launch.buffer_specs[name] = seal(new, spec), spec
            made.append(name)
        if made:
            said.append(f"{', '.join(made)} as {prior.kernel} leaves {'it' if len(made) == 1 else 'them'} at its host "
                        f"launch {prior.site}" + (f", from {', '.join(tainted)} the search drew" if tainted else ""))
    return "; ".join(said)


def _read_of(result, names: list[str]) -> list[str]:
    """Which of the buffers ``names`` the run read."""
    t = result.trace
    if not names or t is None or not len(t):
        return []
    ids = {a.id: a.param or a.name for a in result.allocations if a is not None and (a.param or a.name) in names}
    read = t.addr[(t.action == READ) & (t.space == SPACE_GLOBAL)].astype(np.int64)
    touched = set(np.unique(read >> OFFSET_BITS).tolist())  # a trace's address: the allocation id, then the offset
    return [n for n in names if any(ids.get(i) == n for i in touched)]


def _launch(k1: Kernel, prior: Prior, later: Launch, grid: tuple[int, int, int]) -> tuple[Launch, list[str]] | None:
    """The earlier kernel's launch: the host's grid, block and constants, ``later``'s buffers and values where the
    two are given the same variable, other buffers drawn like the later launch's, and the names of those; None when
    an argument is unknown."""
    shared = dict(prior.shared)
    fill = later.fill or "random"  # a probe's zeros or ramp too
    drawn: list[str] = []
    consts = dict(prior.args)
    rng = np.random.default_rng(later.seed)
    length = max([int(v.size) for v in later.args.values() if isinstance(v, np.ndarray)] + [1])
    threads = int(np.prod(grid)) * int(np.prod(prior.block))
    args: dict = {}
    for j, p in enumerate(k1.params):
        if j in shared:
            value = later.args.get(shared[j])
            if value is None:
                return None
            args[p.name] = value
        elif j in consts:
            args[p.name] = consts[j]
        elif p.is_local:
            args[p.name] = LocalBuffer(16 * int(np.prod(prior.block)))
        elif p.is_pointer:
            dt, comps = element_type(p.pointee, p.pointee_size)
            args[p.name] = draw_buffer(dt, length * comps, fill, rng, threads=threads)[0]
            drawn.append(p.name)
        else:
            return None  # a value the host computes: the kernel would not run as the program runs it
    return Launch(grid, prior.block, args, later.warp_size, prior.dynamic_shared, later.seed,
                  origin=f"host launch at {prior.site}"), drawn
