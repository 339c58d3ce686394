"""What every check sees: the trace plus the launch, the kernel and helpers to describe accesses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from simu.detect.finding import SourceLocation, ThreadRef
from simu.interp.memory import OFFSET_BITS, OFFSET_MASK, SPACE_NAMES, SPACE_PRIVATE, SPACE_SHARED
from simu.interp.outcome import RunResult
from simu.ir import Instr, Kernel
from simu.launch.model import Launch
from simu.launch.record import LaunchRecord, record_of


@dataclass
class DetectOptions:
    warp_model: str = "lockstep"  # lockstep | independent
    strict_warp: bool = False  # independent model: report warp-synchronous races as errors
    pair_cap: int = 256  # accesses per (word, block, epoch) examined pair by pair
    # accesses a check judges at once: a larger trace is judged in batches that share no word (batches.py)
    batch_rows: int = 1 << 22


def user_location(loc):
    """An instruction's debug location in the user's code: code inlined from simu's own headers (atomicAdd,
    __syncthreads_or, ...) is at its call site."""
    while loc.inlined_at is not None and _is_shim(loc.file):
        loc = loc.inlined_at
    return loc


@dataclass
class Context:
    """One completed (or stopped) launch as the checks see it; lives only while they run."""

    kernel: Kernel
    launch: Launch
    result: RunResult
    options: DetectOptions = field(default_factory=DetectOptions)
    _kept: tuple | None = field(default=None, init=False, repr=False)  # (batch, what _shared made of it)

    @property
    def trace(self):
        return self.result.trace

    def instr(self, iid: int) -> Instr | None:
        return self.result.instructions.get(int(iid))

    def location(self, iid: int) -> SourceLocation | None:
        """Source position of an instruction, in the user's code: code inlined from simu's own
        headers (atomicAdd, __syncthreads_or, ...) is reported at its call site."""
        ins = self.instr(iid)
        if ins is None or ins.loc is None:
            return None
        loc = user_location(ins.loc)
        return SourceLocation(loc.file, loc.line, loc.col, source_line(loc.file, loc.line), loc.function)

    def warp_of(self, lane: np.ndarray) -> np.ndarray:
        """Launch-wide warp index of each lane (a block's last warp may be partial)."""
        tpb, ws = self.launch.threads_per_block, self.launch.warp_size
        if tpb % ws == 0:
            return lane // ws  # whole warps: the launch-wide warp is the lane's
        return (lane // tpb) * (-(-tpb // ws)) + (lane % tpb) // ws

    def lane_in_warp(self, lane: np.ndarray) -> np.ndarray:
        tpb, ws = self.launch.threads_per_block, self.launch.warp_size
        return lane % ws if tpb % ws == 0 else (lane % tpb) % ws

    def thread(self, lane: int, action: str = "") -> ThreadRef:
        tpb = self.launch.threads_per_block
        b, t = divmod(int(lane), tpb)
        b = self.launch.block_id(b)  # a sampled launch's lanes run its sample's blocks
        bx, by, _ = self.launch.block
        gx, gy, _ = self.launch.grid
        return ThreadRef((b % gx, (b // gx) % gy, b // (gx * gy)), (t % bx, (t // bx) % by, t // (bx * by)), action)

    def variable(self, addr: int, size: int, lane: int) -> tuple[str, str, int | None]:
        """(space, variable name, element index) of a byte address."""
        aid, off = int(addr) >> OFFSET_BITS, int(addr) & OFFSET_MASK
        allocs = self.result.allocations
        if not 0 < aid < len(allocs) or allocs[aid] is None:
            return "", "?", None
        a = allocs[aid]
        if a.space == SPACE_SHARED and a.instances > 1:
            off -= (int(lane) // self.launch.threads_per_block) * a.instance_size
        elif a.space == SPACE_PRIVATE and a.instances > 1:
            off -= int(lane) * a.instance_size
        elem = off // max(int(size), 1)
        return SPACE_NAMES[a.space], a.name, elem

    @cached_property
    def batches(self) -> list[np.ndarray]:
        """Trace rows of the global and shared accesses in batches that share no word, each in trace order
        (computed once per run; see :func:`simu.detect.batches.word_batches`)."""
        from simu.detect.batches import word_batches

        return word_batches(self.trace, self.launch.threads_per_block, self.options.batch_rows)

    def candidate_accesses(self, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The accesses of batch ``keep`` to words where two threads' accesses can conflict, split into 4-byte
        words: (trace rows, word addresses, byte masks).  The race and barrier checks both start from them."""
        from simu.detect.pairs import candidate_words, expand_words

        def make():
            t = self.trace
            rid, word, mask = expand_words(t.addr[keep], t.size[keep])
            row = keep[rid]
            sub = candidate_words(word, t.lane[row], t.action[row], self.result.allocations)
            return row[sub], word[sub], mask[sub]

        return self._shared(keep, "accesses", make)

    def candidate_segments(self, keep: np.ndarray) -> tuple[np.ndarray, int, bool]:
        """Per candidate access of batch ``keep`` (:meth:`candidate_accesses`' order) its (word, block, epoch)
        segment, numbered in that order; how many; whether every one is in shared memory."""
        from simu.detect.pairs import word_segments

        def make():
            row, word, _ = self.candidate_accesses(keep)
            return word_segments(self.trace, row, word, self.result.allocations, self.launch.threads_per_block)

        return self._shared(keep, "segments", make)

    def _shared(self, keep: np.ndarray, what: str, make):
        """``make()`` for batch ``keep``, kept for the next check when the trace is judged in one batch (several
        batches would each hold theirs); arrays read-only, since checks share them."""
        if self._kept is not None and self._kept[0] is not keep:
            self._kept = None
        if self._kept is not None and what in self._kept[1]:
            return self._kept[1][what]
        out = make()
        for part in out:
            if isinstance(part, np.ndarray):
                part.flags.writeable = False
        if len(self.batches) == 1:
            if self._kept is None:
                self._kept = (keep, {})
            self._kept[1][what] = out
        return out

    @cached_property
    def releases(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The run's releases of spin-wait variables (:func:`simu.interp.spinwait.release_table`), once per run."""
        from simu.interp.spinwait import release_table

        return release_table(self.trace)

    @cached_property
    def record(self) -> LaunchRecord:
        """The replayable launch, computed once per run."""
        return record_of(self.launch)


def _is_shim(path: str) -> bool:
    from simu.frontend.toolchain import INCLUDE_DIR

    try:
        return Path(path).resolve().is_relative_to(INCLUDE_DIR)
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=256)
def file_lines(path: str) -> tuple[str, ...]:
    """A source file's lines, read once (cached)."""
    try:
        return tuple(Path(path).read_text(errors="replace").splitlines())
    except OSError:
        return ()


def source_line(path: str, line: int) -> str:
    lines = file_lines(path)
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""
