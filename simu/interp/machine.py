"""The SIMT machine: runs one Launch of one kernel over vectorised lanes and records a Trace.

Scheduling (DESIGN.md §3): a *group* is a set of lanes at one program point.  The machine always
advances the group whose block comes first in reverse post-order; groups that reach the same
point merge (thread-frontier reconvergence).  A group that reaches a barrier waits; when no group
can run, waiting blocks are released, their epochs advance, and any block whose live lanes did not
all meet at one barrier is recorded as barrier divergence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from simu.errors import LaunchError, NotLaunchableError, UnsupportedError
from simu.interp import cuda_textures, grid_sync, members, opencl_images, spinwait
from simu.interp.allocator import keep_freed_memory
from simu.interp.compiler import compile_kernel
from simu.interp.memory import OFFSET_BITS, SPACE_CONSTANT, SPACE_GLOBAL, SPACE_PRIVATE, SPACE_SHARED, PastDrawn
from simu.interp.outcome import Outcome, RunResult
from simu.interp.program import Program, Wait, merge_lanes, proto_of
from simu.interp.schedule import RankedPositions, schedule_ranks, split_by_rank
from simu.interp.state import FULL, RuntimeFault, State
from simu.interp.trace import BarrierDivergence, release_rows
from simu.interp.values import constant, flatten_constant, global_refs, with_copied
from simu.ir import Kernel, Module
from simu.ir.types import PtrType, alloc_size
from simu.launch.limits import MAX_DYNAMIC_SHARED, MAX_STATIC_SHARED
from simu.launch.model import MAX_THREADS_PER_BLOCK, Launch, LocalBuffer, Schedule

MAX_BYVAL_COPIES_BYTES = 1 << 28  # past this, the threads of a launch share one copy of a by-value struct


@dataclass
class Limits:
    max_steps: int = 2_000_000  # group-instruction steps
    max_seconds: float = 5.0
    max_threads: int = 1 << 20
    max_trace_bytes: int = 3 << 29  # bytes the trace may hold (1.5 GiB: trace.ACCESS_BYTES per access)
    max_memory_bytes: int = 1 << 30
    max_static_shared: int = MAX_STATIC_SHARED  # bytes of __shared__ arrays per block (a real GPU's default limit)
    max_dynamic_shared: int = MAX_DYNAMIC_SHARED  # bytes of extern __shared__ / __local arguments per block
    schedule: Schedule | None = None  # execution order (schedule amplification); None = default


def run(module: Module, kernel: Kernel | str | None, launch: Launch, limits: Limits | None = None,
        schedule: Schedule | None = None) -> RunResult:
    """Execute one launch and return buffers, outcome and trace.

    ``schedule`` (or ``limits.schedule``) serialises blocks and warps in a given order; see
    :class:`~simu.launch.model.Schedule`.  Without one the machine runs as it always has.
    """
    k = kernel if isinstance(kernel, Kernel) else module.kernel(kernel)
    return Machine(module, k).run(launch, limits or Limits(), schedule)


class Machine:
    def __init__(self, module: Module, kernel: Kernel):
        self.module = module
        self.kernel = kernel
        self.program: Program = compile_kernel(module, kernel)
        keep_freed_memory()  # launch after launch, trace memory from the heap, not fresh pages

    # -- launch set-up -----------------------------------------------------------------
    def _check_launch(self, launch: Launch, limits: Limits) -> None:
        if launch.threads_per_block > MAX_THREADS_PER_BLOCK:
            raise NotLaunchableError(f"block of {launch.threads_per_block} threads exceeds {MAX_THREADS_PER_BLOCK}")
        static = self.static_shared_bytes()
        if static > limits.max_static_shared:
            raise NotLaunchableError(f"{static} bytes of static shared memory per block exceed the "
                                     f"{limits.max_static_shared} bytes a GPU block may have (max-static-shared)")
        dynamic = launch.dynamic_shared + sum(int(v.nbytes) for v in launch.args.values() if isinstance(v, LocalBuffer))
        if dynamic > limits.max_dynamic_shared:
            raise NotLaunchableError(f"{dynamic} bytes of dynamic shared (local) memory per block exceed the "
                                     f"{limits.max_dynamic_shared} bytes a GPU block may have (max-dynamic-shared)")
        if launch.run_threads > limits.max_threads:
            raise LaunchError(f"launch of {launch.run_threads} threads exceeds the limit of {limits.max_threads}")
        if launch.warp_size not in (1, 2, 4, 8, 16, 32, 64):
            raise LaunchError(f"unsupported warp size {launch.warp_size}")

    def static_shared_bytes(self) -> int:
        """Bytes of the fixed-size shared arrays this kernel uses (per block)."""
        memo = self.program.memo
        if "static_shared" not in memo:
            memo["static_shared"] = sum(alloc_size(g.type) for g in self.module.globals.values()
                                        if g.addrspace == 3 and not g.external and g.name in self._used_globals())
        return memo["static_shared"]

    def _used_globals(self) -> frozenset[str]:
        """The module globals the kernel's code names: a launch gives shared memory to these only (a file's other
        kernels' tiles are not this launch's)."""
        memo = self.program.memo
        if "used_globals" not in memo:
            memo["used_globals"] = frozenset(ref.name for ref in self.program.global_refs)
        return memo["used_globals"]

    def _setup(self, launch: Launch) -> tuple[State, dict]:
        prog = self.program
        st = State(launch, prog.nslots)
        T = st.T
        buffers: dict = {}
        # module globals: shared per block, constant/global once
        gaddr: dict[str, np.ndarray | int] = {}
        variables = {}  # display name -> allocation of the variables a launch's pointer slots may name
        used = self._used_globals()
        for g in self.module.globals.values():
            if g.addrspace == 3:
                if g.name not in used:
                    continue
                size = alloc_size(g.type) if not g.external else launch.dynamic_shared
                size = max(size, 0)
                a = st.mem.allocate(g.display_name, SPACE_SHARED, size, st.nblocks)
                gaddr[g.name] = a.base + st.block_of * size
            else:
                space = SPACE_CONSTANT if g.addrspace in (2, 4) or g.is_constant else SPACE_GLOBAL
                init = flatten_constant(g.type, g.init) if g.init is not None else None
                if g.display_name in launch.symbols:  # what the host copies there (cudaMemcpyToSymbol)
                    init = with_copied(g.type, init, *launch.symbols[g.display_name])
                a = st.mem.allocate(g.display_name, space, alloc_size(g.type), 1, init=init)
                gaddr[g.name] = a.base
                variables[g.display_name] = a
        for g in self.module.globals.values():  # pointer tables inside initialisers
            if g.init is not None and g.addrspace != 3:
                for off, ref in global_refs(g.type, g.init):
                    target = gaddr.get(ref.name)
                    if isinstance(target, (int, np.integer)):
                        alloc = st.mem.allocs[int(gaddr[g.name]) >> OFFSET_BITS]
                        alloc.data[off:off + 8] = np.frombuffer(np.int64(int(target) + ref.offset).tobytes(), np.uint8)
        st.g = []
        for ref in prog.global_refs:
            base = gaddr.get(ref.name)
            if base is None:
                fn = self.module.functions.get(ref.name)
                raise UnsupportedError(f"address of {'function' if fn else 'unknown global'} '{ref.name}'")
            st.g.append(np.broadcast_to(np.asarray(base, np.int64) + ref.offset, (T,)).copy())
        # private allocas: one instance per lane
        st.alloca_base = []
        for _, iid, nbytes in prog.allocas:
            a = st.mem.allocate(f"local@{iid}", SPACE_PRIVATE, nbytes, T)
            st.alloca_base.append(a.base + st.lane * nbytes)
        # parameters
        for p, slot in zip(self.kernel.params, prog.arg_slots, strict=False):
            if p.name not in launch.args:
                raise LaunchError(f"no value for parameter '{p.name}' of kernel {self.kernel.display_name}")
            v = launch.args[p.name]
            if isinstance(p.type, PtrType):
                if isinstance(v, LocalBuffer) or p.is_local:
                    nbytes = v.nbytes if isinstance(v, LocalBuffer) else int(np.asarray(v).nbytes)
                    a = st.mem.allocate(p.name, SPACE_SHARED, nbytes, st.nblocks, param=p.name)
                    st.r[slot] = a.base + st.block_of * nbytes
                elif v is None:
                    st.r[slot] = np.zeros(T, np.int64)
                elif p.byval and (one := _one_struct(p, v)).nbytes * T <= MAX_BYVAL_COPIES_BYTES:
                    # a struct passed by value: each thread's own copy (one thread's changes are not another's)
                    a = st.mem.allocate(p.name, SPACE_PRIVATE, one.nbytes, T, param=p.name, init=np.tile(one, T))
                    buffers[p.name] = (a, *_struct_shape(v, one.nbytes))
                    st.r[slot] = a.base + st.lane * one.nbytes
                else:
                    arr = np.ascontiguousarray(v)
                    shared = st.backing.get(id(arr))
                    if shared is not None and shared[0] is arr and (
                            shared[2] or "same" in launch.buffer_specs.get(p.name, {})):
                        a = shared[1]  # the memory of a texture/surface, or a pointer's given `same:` (in place)
                    else:
                        space = SPACE_CONSTANT if p.addrspace in (2, 4) else SPACE_GLOBAL
                        a = st.mem.allocate(p.name, space, arr.nbytes, 1, param=p.name, init=arr)
                        a.declared = int(launch.buffer_specs.get(p.name, {}).get("declared", 0)) * arr.itemsize
                        st.backing.setdefault(id(arr), (arr, a, False))
                    buffers[p.name] = (a, arr.dtype, arr.shape)
                    st.r[slot] = np.full(T, a.base, np.int64)
            elif cuda_textures.is_texture(p) and (handle := cuda_textures.bind(
                    st, prog, p, v, lambda arr, p=p: self._texture_buffer(st, buffers, p.name, arr),
                    self.kernel)) is not None:
                st.r[slot] = handle  # a cudaTextureObject_t with a backing buffer (cuda_textures.py)
            elif opencl_images.is_image(p) and (handle := opencl_images.bind(
                    st, prog, p, v, lambda arr, p=p: self._texture_buffer(st, buffers, p.name, arr))) is not None:
                st.r[slot] = handle  # an OpenCL image with a backing array (opencl_images.py)
            else:
                try:
                    c = constant(p.type, v.tolist() if isinstance(v, np.ndarray) else v)
                except (TypeError, ValueError) as exc:
                    raise LaunchError(f"bad value {v!r} for parameter '{p.name}': {exc}") from None
                st.put(slot, FULL, c, proto_of(p.type))
        members.place(st, launch, buffers, variables)  # the buffers behind pointers the arguments' memory holds
        cuda_textures.bind_references(st, prog, self.kernel, gaddr.__getitem__,
                                      lambda name, arr: self._texture_buffer(st, buffers, name, arr))
        return st, buffers

    @staticmethod
    def _texture_buffer(st: State, buffers: dict, name: str, arr: np.ndarray) -> int:
        """The backing buffer of an image/texture/surface; parameters given the very same array (a
        texture and a surface object made over one cudaArray, a texture over a pointer's memory)
        share it."""
        shared = st.backing.get(id(arr))
        if shared is not None and shared[0] is arr:
            a = shared[1]
        else:
            a = st.mem.allocate(name, SPACE_GLOBAL, arr.nbytes, 1, param=name, init=arr)
            st.backing[id(arr)] = (arr, a, True)
        buffers[name] = (a, arr.dtype, arr.shape)
        return int(a.base)

    # -- execution ---------------------------------------------------------------------
    def run(self, launch: Launch, limits: Limits, schedule: Schedule | None = None) -> RunResult:
        """Execute one launch.  A construct found unmodelled only while running (a sampler's value, an
        image handle) raises UnsupportedError, as one found while compiling does: the kernel is
        ``unsupported``, not ``error``."""
        self._check_launch(launch, limits)
        if schedule is None:
            schedule = limits.schedule
        t0 = time.perf_counter()
        st, buffers = self._setup(launch)
        outcome = Outcome("completed")
        try:
            with np.errstate(all="ignore"):
                # the time limit counts this process's CPU time: a loaded machine does not stop a launch that
                # has done less work
                self._execute(st, limits, time.process_time(), schedule)
        except _Stop as stop:
            outcome = Outcome("incomplete", stop.reason)
        except spinwait.SpinDeadlock as stuck:
            outcome = Outcome("incomplete", str(stuck))
        except PastDrawn as past:
            outcome = Outcome("incomplete", str(past))
        except RuntimeFault as fault:
            ins = self.program.instrs.get(fault.instr) if fault.instr is not None else None
            outcome = Outcome("error", str(fault), ins.loc if ins else None)
        trace = st.trace.finish()
        trace.divergences = st.divergences
        trace.barriers_reached = st.barriers_reached
        trace.barrier_multiwarp = st.barrier_multiwarp
        trace.barrier_reduce = st.barrier_reduce
        trace.asynchronous = st.asynchronous
        trace.divergent_branches = st.divergent_branches
        trace.edges = st.edges
        trace.exit_step = st.exit_step
        trace.acquires = spinwait.acquire_table(st.acquires)
        trace.sync_reads = self.program.spin_reads
        trace.validated_reads = self.program.validated_reads
        if st.releases:
            trace.releases = release_rows(st.releases)
        if st.grid_releases:
            trace.grid_releases = np.asarray(st.grid_releases, np.int64).reshape(-1, 2)
        out = {name: st.mem.contents(a)[:a.instance_size].view(np.uint8).copy().view(dt).reshape(shape)
               for name, (a, dt, shape) in buffers.items()}  # a by-value struct: the launch's value
        return RunResult(outcome, out, trace, st.step, st.thread_instructions, time.perf_counter() - t0,
                         st.memory_errors, allocations=st.mem.allocs,
                         instructions=self.program.instrs)

    def _execute(self, st: State, limits: Limits, t0: float, schedule: Schedule | None = None) -> None:
        prog = self.program
        st.divergences = []
        st.barriers_reached = {}
        st.barrier_multiwarp = {}
        st.barrier_reduce = set()
        st.asynchronous = set()
        st.divergent_branches = {}
        st.edges = set()
        st.spins, st.parked, st.acquires, st.last_spin, st.lone_spins = {}, {}, [], None, 0
        st.spin_where = prog.spin_where
        start = prog.rpo_pos[0]
        if schedule is None:
            self._loop(st, {(start, 0): np.arange(st.T, dtype=np.int64)}, prog.by_pos, limits, t0)
            return
        # Scheduled: every lane gets a rank; the pending key's position is offset by
        # rank * (number of IR blocks), so groups of different ranks never merge and the lowest
        # rank always runs first (DESIGN.md §3; simu.launch.model.Schedule).
        npos = len(prog.by_pos)
        by_pos = RankedPositions(prog.by_pos, npos)
        block_rank = schedule_ranks(schedule.block_order, st.nblocks, "block_order")
        unit = schedule.unit or st.ws
        if unit < 1:
            raise LaunchError(f"schedule unit must be positive, got {unit}")
        nunits = -(-st.tpb // unit)
        if schedule.warp_order is None:
            warp_rank = np.zeros(nunits, np.int64)
        else:
            warp_rank = schedule_ranks(schedule.warp_order, nunits, "warp_order")
        lane_warp_rank = warp_rank[st.local // unit]
        if schedule.sequential:
            st.rank = lane_warp_rank
            order = np.argsort(block_rank, kind="stable")
            for b in order:
                lanes = np.arange(int(b) * st.tpb, (int(b) + 1) * st.tpb, dtype=np.int64)
                self._loop(st, split_by_rank(lanes, st.rank, start, npos), by_pos, limits, t0)
        else:
            nw = int(warp_rank.max()) + 1
            st.rank = block_rank[st.block_of] * nw + lane_warp_rank
            self._loop(st, split_by_rank(np.arange(st.T, dtype=np.int64), st.rank, start, npos), by_pos, limits, t0)

    def _loop(self, st: State, pending: dict[tuple[int, int], np.ndarray], by_pos, limits: Limits,
              t0: float) -> None:
        prog = self.program
        blocks = prog.blocks
        rpo_pos = prog.rpo_pos
        phis = prog.phis
        T = st.T
        waiting: dict[tuple[int, int, int], tuple[np.ndarray, Wait]] = {}
        max_steps = min(limits.max_steps, (1 << 31) - 2)  # trace steps are 32-bit
        deadline = t0 + limits.max_seconds
        check_every = 64
        while True:
            if not pending:
                if st.parked:
                    waiting = spinwait.unpark(st, waiting, pending, self._release)
                    continue
                if not waiting:
                    return
                waiting = self._release(st, waiting, pending)
                continue
            key = min(pending)
            lanes = pending.pop(key)
            bi = by_pos[key[0]]
            base = key[0] - rpo_pos[bi]  # rank offset of a scheduled run (0 by default)
            k = key[1]
            sel = _selector(lanes, T)
            _mark_converged(st, lanes, sel)
            cb = blocks[bi]
            ops = cb.ops
            n = len(lanes)
            stopped = False
            weights = cb.weights
            while k < len(ops):
                res = ops[k](st, lanes, sel)
                st.step += 1
                st.thread_instructions += n * weights[k]
                k += 1
                if res is not None:
                    wkey = (bi, k, res.instr)
                    if wkey in waiting:
                        prev, w = waiting[wkey]
                        merged = merge_lanes(prev, lanes)
                        if res.reduce is not None:
                            res = _merge_reduce(w, res, prev, lanes)
                        waiting[wkey] = (merged, res)
                    else:
                        if res.reduce is not None:
                            res = Wait(res.instr, res.spaces, (res.reduce[0], res.reduce[1],
                                                               np.broadcast_to(res.reduce[2], lanes.shape).copy()))
                        waiting[wkey] = (lanes, res)
                    stopped = True
                    break
            if st.step > max_steps:
                raise _Stop(f"step limit of {max_steps} reached (possible infinite loop"
                            f"{spinwait.spin_note(st, prog.spin_where)})")
            if st.trace.nbytes > limits.max_trace_bytes:
                raise _Stop(f"trace limit of {limits.max_trace_bytes} bytes reached ({st.trace.count} accesses)")
            if (st.step & (check_every - 1)) < len(ops) + 1 and time.process_time() > deadline:
                raise _Stop(f"time limit of {limits.max_seconds:g} s reached (possible infinite loop"
                            f"{spinwait.spin_note(st, prog.spin_where)})")
            if stopped:
                continue
            st.step += 1
            st.thread_instructions += n * cb.term_weight
            term = cb.term
            kind = term.kind
            if kind == "br":
                self._goto(st, pending, phis, bi, term.targets[0], lanes, sel, term.instr.id, 0, base)
            elif kind == "cbr":
                cond = term.cond(st, sel)
                if not (isinstance(cond, np.ndarray) and cond.dtype == bool and cond.shape == lanes.shape):
                    cond = np.broadcast_to(np.asarray(cond, bool), lanes.shape)
                taken = int(np.count_nonzero(cond))
                if taken in (0, n):  # one way for the whole group: it goes on as it is
                    if n:
                        edge = 0 if taken else 1
                        self._goto(st, pending, phis, bi, term.targets[edge], lanes, sel, term.instr.id, edge, base)
                    continue
                t_lanes, f_lanes = np.compress(cond, lanes), np.compress(~cond, lanes)
                _count_divergent(st, term.instr.id, t_lanes, f_lanes)
                self._goto(st, pending, phis, bi, term.targets[0], t_lanes, _selector(t_lanes, T), term.instr.id, 0,
                           base)
                self._goto(st, pending, phis, bi, term.targets[1], f_lanes, _selector(f_lanes, T), term.instr.id, 1,
                           base)
            elif kind == "switch":
                v = np.broadcast_to(np.asarray(term.cond(st, sel)), lanes.shape)
                rest = np.ones(len(lanes), bool)
                for ci, (cval, target) in enumerate(term.cases):
                    m = (v == cval) & rest
                    if m.any():
                        rest &= ~m
                        sub = lanes[m]
                        self._goto(st, pending, phis, bi, target, sub, _selector(sub, T), term.instr.id, ci + 1,
                                   base)
                if rest.any():
                    sub = lanes[rest]
                    self._goto(st, pending, phis, bi, term.targets[0], sub, _selector(sub, T), term.instr.id, 0, base)
            elif kind == "ret":
                st.exited[lanes] = True
                st.exit_step[lanes] = st.step
                st.any_exited = True
                st.live_per_warp = st.live_per_warp - np.bincount(st.warp_of[lanes], minlength=st.nwarps)
            else:
                raise RuntimeFault("reached 'unreachable' (undefined behaviour)", term.instr.id)

    def _goto(self, st, pending, phis, src, dst, lanes, sel, term_id, edge, base=0) -> None:
        st.edges.add((term_id, edge))
        moves = phis.get((src, dst))
        if moves:
            # parallel copy: read every incoming value before writing any phi (copy views of registers)
            vals = [_own(get(st, sel)) for _, get, _ in moves]
            for (slot, _, proto), v in zip(moves, vals, strict=False):
                st.put(slot, sel, v, proto)
        key = (self.program.rpo_pos[dst] + base, 0)
        prev = pending.get(key)
        pending[key] = lanes if prev is None else merge_lanes(prev, lanes)
        if self.program.spin_back:
            if (src, dst) in self.program.spin_back:
                spinwait.on_back_edge(st, pending, key, dst)
            elif (src, dst) in self.program.spin_exits:
                spinwait.on_exit(st, lanes)

    def _release(self, st: State, waiting, pending) -> dict:
        """All runnable groups are waiting: check each block's barrier, advance epochs, resume.

        Grid-wide barriers wait until nothing else does (grid_sync.py); returns what still waits."""
        waiting, held = grid_sync.split(waiting)
        if not waiting:
            grid_sync.release(st, held, pending, lambda lanes, bi, k: self._resume(st, pending, lanes, bi, k))
            return {}
        entries = list(waiting.items())
        nb = st.nblocks
        if len(entries) == 1 and len(entries[0][1][0]) == st.T:
            # the usual case: every lane of the launch waits at one barrier
            count = np.full(nb, st.tpb, np.int64)
            bad = np.zeros(nb, bool)
        else:
            ids = np.concatenate([np.full(len(lanes), w.instr, np.int64) for (_, (lanes, w)) in entries])
            all_lanes = np.concatenate([lanes for _, (lanes, _) in entries])
            blk = st.block_of[all_lanes]
            count = np.bincount(blk, minlength=nb)
            # Every thread of the block must wait at this one barrier; a thread that has exited
            # (returned early) or waits elsewhere makes it barrier divergence.
            if len(entries) == 1:
                bad = (count > 0) & (count != st.tpb)
            else:
                lo = np.full(nb, np.iinfo(np.int64).max)
                hi = np.full(nb, -1)
                np.minimum.at(lo, blk, ids)
                np.maximum.at(hi, blk, ids)
                bad = (count > 0) & ((count != st.tpb) | (lo != hi))
        for b in np.flatnonzero(bad):
            in_b = blk == b
            waiting_at: dict[int, list[int]] = {}
            for iid in np.unique(ids[in_b]):
                waiting_at[int(iid)] = st.local[all_lanes[in_b & (ids == iid)]].tolist()
            exited = st.local[np.flatnonzero(st.exited & (st.block_of == b))].tolist()
            st.divergences.append(BarrierDivergence(int(b), sorted(waiting_at), waiting_at, exited))
        multiwarp = st.tpb > st.ws
        spaces_moved: set[int] = set()
        for (bi, k, iid), (lanes, w) in entries:
            if len(entries) == 1:
                blocks_here = np.flatnonzero(count)
            else:
                blocks_here = np.flatnonzero(np.bincount(st.block_of[lanes], minlength=nb))
            for space in w.spaces:
                st.epoch[space][blocks_here] += 1
                st.releases.append((blocks_here, space, iid, st.epoch[space][blocks_here]))
                spaces_moved.add(space)
            st.barriers_reached[iid] = st.barriers_reached.get(iid, 0) + 1
            st.barrier_multiwarp[iid] = st.barrier_multiwarp.get(iid, False) or multiwarp
            if w.reduce is not None:
                self._reduce(st, lanes, w)
                st.barrier_reduce.add(iid)
            self._resume(st, pending, lanes, bi, k)
        for space in spaces_moved:
            st.epochs_moved(space)
        return held

    def _resume(self, st: State, pending, lanes, bi: int, k: int) -> None:
        """Lanes released from a barrier wait continue at op ``k`` of block ``bi``."""
        if st.rank is not None:  # scheduled run: back into one group per rank
            npos = len(self.program.by_pos)
            for rkey, rlanes in split_by_rank(lanes, st.rank, self.program.rpo_pos[bi], npos, k).items():
                prev = pending.get(rkey)
                pending[rkey] = rlanes if prev is None else merge_lanes(prev, rlanes)
            return
        key = (self.program.rpo_pos[bi], k)
        prev = pending.get(key)
        pending[key] = lanes if prev is None else merge_lanes(prev, lanes)

    def _reduce(self, st: State, lanes, w: Wait) -> None:
        kind, dst, pred = w.reduce
        blk = st.block_of[lanes]
        cnt = np.bincount(blk, weights=pred.astype(np.float64), minlength=st.nblocks)
        tot = np.bincount(blk, minlength=st.nblocks)
        if kind == "popc":
            val = cnt[blk].astype(np.int32)
        elif kind == "and":
            val = (cnt[blk] == tot[blk]).astype(np.int32)
        else:
            val = (cnt[blk] > 0).astype(np.int32)
        st.put(dst, _selector(lanes, st.T), val, (np.dtype(np.int32), ()))


def _one_struct(param, value) -> np.ndarray:
    """The bytes of a struct passed by value: the launch's value, cut to the struct's size where the debug info
    gives it (a value drawn longer, as for a pointer's buffer, holds more than the one struct each thread copies)."""
    raw = np.ascontiguousarray(value).reshape(-1).view(np.uint8)
    size = param.pointee_size
    return raw[:size] if size and size < len(raw) else raw


def _struct_shape(value, nbytes: int) -> tuple[np.dtype, tuple]:
    """The dtype and shape a by-value struct's output takes: the launch's, or as many of its elements as the struct's
    ``nbytes`` hold (bytes, where they do not divide)."""
    arr = np.asarray(value)
    if nbytes == arr.nbytes:
        return arr.dtype, arr.shape
    return (arr.dtype, (nbytes // arr.itemsize,)) if nbytes % arr.itemsize == 0 else (np.dtype(np.uint8), (nbytes,))


def _count_divergent(st: State, iid: int, a: np.ndarray, b: np.ndarray) -> None:
    """Count warps whose lanes took both sides of a branch (for the divergent-branch check)."""
    wa, wb = np.zeros(st.nwarps, bool), np.zeros(st.nwarps, bool)
    wa[st.warp_of[a]] = wb[st.warp_of[b]] = True
    n = int(np.count_nonzero(wa & wb))
    if n:
        st.divergent_branches[iid] = st.divergent_branches.get(iid, 0) + n


def _own(v):
    if isinstance(v, np.ndarray) and v.base is not None:
        return v.copy()
    if isinstance(v, list):
        return [_own(x) for x in v]
    return v


def _mark_converged(st: State, lanes: np.ndarray, sel) -> None:
    """Record the step at which lanes run together with every live lane of their warp."""
    st.group_full_step = None
    if not st.any_exited:
        if sel is FULL:
            st.set_last_full(FULL, st.step)
            st.group_full_step = st.step
            return
        if isinstance(sel, slice):  # contiguous lanes: the warps wholly inside [a, b)
            a, b = sel.start, sel.stop
            lo = int(st.warp_of[a])
            hi = int(st.warp_of[b - 1])
            whole = True
            if st.warp_first[lo] != a:
                lo += 1
                whole = False
            if st.warp_end[hi] != b:
                hi -= 1
                whole = False
            if lo <= hi:
                st.set_last_full(slice(int(st.warp_first[lo]), int(st.warp_end[hi])), st.step)
                if whole:
                    st.group_full_step = st.step
            return
        if len(lanes) < st.smallest_warp:
            return  # fewer lanes than any warp has: none of their warps is whole
    warps = st.warp_of[lanes]
    present = np.bincount(warps, minlength=st.nwarps)
    full = (present == st.live_per_warp) & (present > 0)
    ok = full[warps]
    if ok.all():
        st.set_last_full(lanes, st.step)
        st.group_full_step = st.step
    elif ok.any():
        st.set_last_full(lanes[ok], st.step)


class _Stop(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _merge_reduce(w: Wait, new: Wait, prev_lanes, lanes) -> Wait:
    kind, dst, pv = w.reduce
    nv = np.broadcast_to(new.reduce[2], lanes.shape)
    all_l = np.concatenate([prev_lanes, lanes])
    vals = np.concatenate([pv, nv])
    order = np.argsort(all_l, kind="stable")
    return Wait(w.instr, w.spaces, (kind, dst, vals[order]))


def _selector(lanes: np.ndarray, T: int):
    n = len(lanes)
    if n == T:
        return FULL
    if n and lanes[-1] - lanes[0] + 1 == n:
        return slice(int(lanes[0]), int(lanes[-1]) + 1)
    return lanes
