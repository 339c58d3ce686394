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
:data:`MAX_PRIOR_THREADS`, a run that does not complete) is left out and the buffers stay the search's -- except
a run that a timed phase's or a refutation's lowered bound stopped (:class:`PriorCut`): the budget ran out there,
not the kernel, and the later launch on drawn contents would be another launch on a slower machine.
"""

from __future__ import annotations

import base64

import numpy as np

from simu.errors import SimuError
from simu.evolve.dependence import flow_of
from simu.evolve.roles import BUCKETS, bound, buffer_roles, draw_valid, laid_out
from simu.interp.memory import OFFSET_BITS, SPACE_GLOBAL
from simu.interp.trace import READ
from simu.ir import Kernel, Module
from simu.launch import Launch
from simu.launch.buffers import FILLS, buffer_from_spec, distinct_contents, draw_buffer, element_type, rng_state, seal
from simu.launch.constraints import Prior
from simu.launch.model import LocalBuffer

MAX_PRIOR_THREADS = 1 << 16  # an earlier kernel runs whole: its every block writes what the later one reads
DISTINCT = "distinct"  # a later launch's fill in a refutation's distinct variant (simu.evolve.refute)
PLAIN_PROBES = ("zeros", "ones", "const")  # fills the earlier kernel's own buffers take as they are
ALONGSIDE = "no host code orders them: a kernel of this file that writes it"


class PriorCut(Exception):
    """An earlier kernel's run stopped at a time or step bound below the search's own (``run_priors``' ``full``)."""


def prior_kernel(module: Module, name: str) -> Kernel | None:
    """The module's kernel the host launches as ``name`` (its source name, namespaces and template aside)."""
    return next((k for k in module.kernels if _base(k) == name), None)


def run_priors(module: Module, launch: Launch, priors: tuple[Prior, ...], limits, roles: dict | None = None,
               full=None) -> str:
    """Run ``priors`` in order on ``launch``'s buffers and put what they leave in its arguments (in place);
    the text says which buffers came from which launch, "" when none did.  A run stopped by a time or step bound
    of ``limits`` lower than ``full``'s (the search's own limits) raises :class:`PriorCut`.  ``roles``: the later
    kernel's (:func:`~simu.evolve.roles.buffer_roles`): an earlier kernel's buffers whose values it stores into one
    that the later kernel uses as indices are drawn inside what those index."""
    from simu.interp import run

    said = []
    highs = {n: h for n, r in (roles or {}).items() if r.kind == "index" and (h := bound(r, launch.args))}
    launch.sequenced = True
    values = {k: v for k, v in launch.args.items() if not isinstance(v, (np.ndarray, LocalBuffer))}
    for prior in priors:
        if not prior.runs:
            continue
        k1 = prior_kernel(module, prior.kernel)
        # the host's, computed from this launch's values (Prior.grid_sym), or this launch's own (Prior.alongside)
        grid = launch.grid if prior.alongside else prior.grid_at(values)
        block = launch.block if prior.alongside else prior.block
        if k1 is None or grid is None or int(np.prod(grid)) * int(np.prod(block)) > MAX_PRIOR_THREADS:
            continue
        made_launch = _launch(k1, prior, launch, grid, block, highs)
        if made_launch is None:
            continue
        first, drawn = made_launch
        try:
            result = run(module, k1, first, limits)
        except SimuError:
            continue
        if not result.outcome.completed:
            if full is not None and _lowered(result.outcome.reason, limits, full):
                raise PriorCut(f"{prior.kernel} at {prior.site}, run first, {result.outcome.reason}")
            continue
        made = []
        tainted = _read_of(result, drawn)
        for j, name in prior.shared:
            out = result.buffers.get(k1.params[j].name)
            old = launch.args.get(name)
            if not isinstance(out, np.ndarray) or not isinstance(old, np.ndarray) or out.nbytes != old.nbytes:
                continue
            new = np.ascontiguousarray(out).view(old.dtype).reshape(old.shape).copy()
            if k1.params[j].name not in _facts(k1)[1] and np.array_equal(new, old, equal_nan=new.dtype.kind == "f"):
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
            said.append(f"{', '.join(made)} as {prior.kernel} leaves {'it' if len(made) == 1 else 'them'} "
                        + (f"run first at this launch ({ALONGSIDE})" if prior.alongside else
                           f"at its host launch {prior.site}")
                        + (f", from {', '.join(tainted)} the search drew" if tainted else "")
                        + (f" as {prior.kernel} uses them" if tainted and launch.fill not in PLAIN_PROBES else ""))
    return "; ".join(said)


def _lowered(reason: str, limits, full) -> bool:
    return (reason.startswith("time limit") and limits.max_seconds < full.max_seconds
            or reason.startswith("step limit") and limits.max_steps < full.max_steps)


def _read_of(result, names: list[str]) -> list[str]:
    """Which of the buffers ``names`` the run read."""
    t = result.trace
    if not names or t is None or not len(t):
        return []
    ids = {a.id: a.param or a.name for a in result.allocations if a is not None and (a.param or a.name) in names}
    read = t.addr[(t.action == READ) & (t.space == SPACE_GLOBAL)].astype(np.int64)
    touched = set(np.unique(read >> OFFSET_BITS).tolist())  # a trace's address: the allocation id, then the offset
    return [n for n in names if any(ids.get(i) == n for i in touched)]


def _launch(k1: Kernel, prior: Prior, later: Launch, grid: tuple[int, int, int], block: tuple[int, int, int],
            highs: dict[str, int]) -> tuple[Launch, list[str]] | None:
    """The earlier kernel's launch: the host's grid, block and constants, ``later``'s buffers and values where the
    two are given the same variable, other buffers drawn (see :func:`_draw`), and the names of those; None when an
    argument is unknown."""
    shared = dict(prior.shared)
    drawn: list[str] = []
    consts = dict(prior.args)
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
            args[p.name] = LocalBuffer(16 * int(np.prod(block)))
        elif p.is_pointer:
            drawn.append(p.name)
        else:
            return None  # a value the host computes: the kernel would not run as the program runs it
    first = Launch(grid, block, args, later.warp_size, prior.dynamic_shared, later.seed,
                   origin=f"host launch at {prior.site}")
    outputs = {k1.params[j].name: highs[n] for j, n in prior.shared if n in highs}
    return _draw(k1, first, later, drawn, outputs), drawn


def _draw(k1: Kernel, first: Launch, later: Launch, drawn: list[str], outputs: dict[str, int]) -> Launch:
    """``first`` with its buffers ``drawn``: for a probe's zeros or ones, like the later launch's (a bucket
    scatter's bases and cursors aside, which stay as a program leaves them: :mod:`simu.ir.buckets`); for other
    fills, as the earlier kernel uses them (:mod:`simu.evolve.roles`: valid indices, CSR offsets, bucket bases),
    the buffers its indices address half as long as the fewest elements the launch's sizes give (a graph has
    fewer vertices than edges, so ids repeat); in a refutation's distinct variant (fill :data:`DISTINCT`) laid
    out so with distinct values."""
    params = {p.name: p for p in k1.params}
    rng = np.random.default_rng(later.seed)
    length = max([int(v.size) for v in later.args.values() if isinstance(v, np.ndarray)] + [1])
    threads = int(np.prod(first.grid)) * int(np.prod(first.block))
    plain = later.fill in PLAIN_PROBES  # a probe's own contents; a bucket scatter's stay the program's invariant
    own, _, stored = _facts(k1)
    roles = {n: r for n, r in own.items() if n in drawn and not (plain and r.kind not in BUCKETS)}
    # a buffer whose values it stores into one the later kernel indexes with: values inside what that indexes
    into = {} if plain else {n: min(h for o, h in outputs.items() if n in stored.get(o, ()))
                             for n in drawn if n not in own and any(n in stored.get(o, ()) for o in outputs)}
    addressed = {t.name for r in roles.values() if r.kind == "index" for t in r.targets if not t.size} & set(drawn)
    sizes = [int(v) for v in first.args.values() if isinstance(v, (int, np.integer)) and int(v) > 0]
    for name in drawn:
        p = params[name]
        dt, comps = element_type(p.pointee, p.pointee_size)
        n = max(min(length, threads, *sizes) // 2, 1) if name in addressed else length
        if name in into and dt.kind in "iu" and comps == 1:
            top = into[name]
            spec = {"dtype": str(dt), "length": n, "fill": "ramp", "modulo": top} if later.fill == DISTINCT else \
                {"dtype": str(dt), "length": n, "fill": "random", "low": 0, "high": top, "rng": rng_state(rng)}
            first.args[name] = seal(buffer_from_spec(spec), spec)
        elif later.fill == DISTINCT and dt.kind in "iu" and comps == 1:
            spec = {"dtype": str(dt), "length": n, "fill": "ramp"}
            first.args[name] = seal(distinct_contents(dt, n), spec)
        else:
            first.args[name], spec = draw_buffer(dt, n * comps, later.fill if later.fill in FILLS else "random", rng,
                                                 threads=threads)
        first.buffer_specs[name] = spec
    if roles and later.fill == DISTINCT:
        return laid_out(roles, first, first, drawn)
    if roles:
        draw_valid(roles, first.args, first.buffer_specs, rng)
    return first


def _facts(k1: Kernel) -> tuple[dict, frozenset[str], dict[str, frozenset[str]]]:
    """The earlier kernel's buffer roles, the buffers it writes, and per buffer the buffers whose values it
    stores there (each read once per kernel)."""
    flow = flow_of(k1)
    return buffer_roles(k1), flow.written_params(), dict(flow.memory)


def file_priors(module: Module, kernel: Kernel) -> tuple[Prior, ...]:
    """With no host code (search mode): for each buffer this kernel only reads and uses to index another (a slot
    list, offsets), the one other kernel of its file that writes a buffer of that name and element type is taken
    to run first, at this launch's grid and block, with the buffers and
    values of the same names shared (:attr:`Prior.alongside`); none where a scalar of that kernel has no namesake
    here or two kernels write the buffer."""
    roles, written_here, _ = _facts(kernel)
    indexing = {n for n, r in roles.items() if r.kind in ("index", "offsets", "starts", "counts")}
    if not indexing:
        return ()
    mine = {p.name: (i, p) for i, p in enumerate(kernel.params)}
    out = []
    for name in sorted(indexing - written_here):
        makers = [k for k in module.kernels if k is not kernel and _writes(k, name, mine[name][1])]
        if len(makers) != 1:
            continue
        k1 = makers[0]
        shared = _namesakes(k1, mine)
        if shared is None or prior_kernel(module, _base(k1)) is not k1:
            continue
        prior = Prior(_base(k1), f"{k1.display_name}", (1, 1, 1), (1, 1, 1), (), shared, alongside=True)
        if prior not in out:
            out.append(prior)
    return tuple(out)


def _base(k: Kernel) -> str:
    return k.display_name.split("(")[0].split("<")[0].split("::")[-1].strip()


def _writes(k: Kernel, name: str, like) -> bool:
    """Whether kernel ``k`` has a pointer parameter ``name`` of ``like``'s element type that it writes."""
    p = next((q for q in k.params if q.name == name), None)
    return p is not None and p.is_pointer and not p.is_local and \
        element_type(p.pointee, p.pointee_size) == element_type(like.pointee, like.pointee_size) and \
        name in _facts(k)[1]


def _namesakes(k1: Kernel, mine: dict) -> tuple[tuple[int, str], ...] | None:
    """``k1``'s parameters that have a namesake of the same kind here, as (its index, the name); None when one of
    its scalars has none (a value nothing here gives)."""
    out = []
    for j, p in enumerate(k1.params):
        here = mine.get(p.name)
        if here is not None and here[1].is_pointer == p.is_pointer and here[1].is_local == p.is_local:
            out.append((j, p.name))
        elif not p.is_pointer and not p.is_local:
            return None
    return tuple(out)
