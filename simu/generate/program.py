"""The kernel being generated: its parameters, launch, shared-memory bookkeeping and expectations, and the
assembly of the final file (header comments, prelude, signature, body)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from simu.generate.emit import Builder, Dialect, Line
from simu.generate.exprs import ExprGen


@dataclass(eq=False)
class Access:
    """One static shared-memory access: ``kind`` r (read), w (write) or a (atomic) of array ``tile``;
    ``own`` when its index is the thread's own slot ``lid`` (two own accesses never conflict)."""

    kind: str
    tile: str
    own: bool
    line: Line


@dataclass(eq=False)
class Barrier:
    """A block barrier; ``before``/``after`` are the accesses since the previous barrier and up to the next."""

    line: Line
    before: list[Access]
    after: list[Access] = field(default_factory=list)
    droppable: bool = False

    def conflicts(self) -> list[tuple[Access, Access]]:
        """The pairs of accesses of different threads that only this barrier orders."""
        out = []
        for a in self.before:
            for b in self.after:
                if a.tile != b.tile or (a.kind == "r" and b.kind == "r") or (a.own and b.own):
                    continue
                if a.kind == "a" and b.kind == "a":
                    continue
                out.append((a, b))
        return out


@dataclass
class Buffer:
    name: str
    ctype: str  # pointee type as the kernel declares it (float, uint, float4)
    dtype: str  # launch dtype (float32, uint32)
    length: int  # elements of dtype in the launch
    length_expr: str  # the `len:` constraint over n
    fill: str = ""
    const: bool = False


@dataclass
class Program:
    """Everything one kernel accumulates while its mode writes the body."""

    rng: random.Random
    d: Dialect
    name: str
    wg: int | None  # the fixed block size, or None when the kernel works for any block size
    block: int  # the launch's block size
    grid: int
    n: int
    mode: str = "basic"
    plant: str = "none"
    b: Builder = field(default_factory=Builder)
    e: ExprGen = None  # type: ignore[assignment]
    buffers: list[Buffer] = field(default_factory=list)
    scalars: list[tuple[str, str, int]] = field(default_factory=list)  # (ctype, name, launch value)
    prelude: list[str] = field(default_factory=list)
    expects: list[tuple[str, list[Line]]] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    pending: list[Access] = field(default_factory=list)
    warp_syncs: list[tuple[Line, Line, Line]] = field(default_factory=list)  # (syncwarp, write, read)
    emi_lines: list[Line] = field(default_factory=list)
    uses_double: bool = False
    sinks: list[tuple[str, str]] = field(default_factory=list)  # (uint|float, name): values the outputs fold in
    racc_op: str | None = None  # the one atomic operation on the global accumulators (two would not commute)

    def sink(self, kind: str, name: str) -> None:
        """Make ``name`` reach an output, so -O1 cannot drop the shared-memory read that produced it."""
        self.sinks.append((kind, name))

    def __post_init__(self) -> None:
        if self.e is None:
            self.e = ExprGen(self.rng, self.d)
        self.b.depth = 1

    # -- shared memory and barriers -------------------------------------------------------------------
    def access(self, kind: str, tile: str, own: bool, line: Line) -> None:
        acc = Access(kind, tile, own, line)
        self.pending.append(acc)
        if self.barriers:
            self.barriers[-1].after.append(acc)

    def needs_barrier(self, kind: str, tile: str, own: bool) -> bool:
        """Whether an access would conflict with one since the last barrier (then a barrier must come first)."""
        return any(p.tile == tile and not (p.kind == "r" and kind == "r") and not (p.own and own)
                   and not (p.kind == "a" and kind == "a") for p in self.pending)

    def barrier(self, droppable: bool = False) -> Barrier:
        bar = Barrier(self.b.line(self.d.barrier), self.pending, droppable=droppable)
        self.barriers.append(bar)
        self.pending = []
        return bar

    def sync_for(self, kind: str, tile: str, own: bool, droppable: bool = True) -> None:
        """A barrier first when the coming access needs one."""
        if self.needs_barrier(kind, tile, own):
            self.barrier(droppable=droppable and self.b.depth == 1)

    # -- declarations ---------------------------------------------------------------------------------
    def buffer(self, name: str, ctype: str, dtype: str, per: int = 1, fill: str = "", const: bool = False,
               fixed: int | None = None) -> str:
        """A global buffer of ``per`` dtype elements per index below ``n`` (or ``fixed`` elements)."""
        if all(bf.name != name for bf in self.buffers):
            length = fixed if fixed is not None else self.n * per
            expr = str(fixed) if fixed is not None else ("n" if per == 1 else f"n*{per}")
            self.buffers.append(Buffer(name, ctype, dtype, length, expr, fill, const))
        return name

    def scalar(self, ctype: str, name: str, value: int) -> str:
        if all(s[1] != name for s in self.scalars):
            self.scalars.append((ctype, name, value))
        return name

    def expect(self, template: str, *lines: Line) -> None:
        """An expectation; ``{lines}`` in ``template`` becomes ``line N`` or ``lines N,M``."""
        self.expects.append((template, list(lines)))

    # -- the file ------------------------------------------------------------------------------------
    def signature(self) -> list[str]:
        d = self.d
        params = [f"{d.gptr(bf.ctype, bf.const)}{bf.name}" for bf in self.buffers]
        params += [f"const {d.t(ct)} {nm}" for ct, nm, _ in self.scalars]
        if d.cuda:
            head = f"__global__ void {self.name}("
        elif self.wg:
            head = f"__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void {self.name}("
        else:
            head = f"__kernel void {self.name}("
        lines, cur = [], head
        for i, p in enumerate(params):
            piece = p + (", " if i < len(params) - 1 else ")")
            if len(cur) + len(piece) > 110:
                lines.append(cur.rstrip())
                cur = "        "
            cur += piece
        lines.append(cur)
        lines.append("{")
        return lines

    def launch_text(self) -> str:
        parts = [f"grid={self.grid}", f"block={self.block}"]
        parts += [f"{nm}={v}" for _, nm, v in self.scalars]
        parts += [f"{bf.name}={bf.dtype}:{bf.length}" + (f":{bf.fill}" if bf.fill else "") for bf in self.buffers]
        return " ".join(parts)

    def constrain_text(self) -> str:
        parts = [f"block={self.wg}"] if self.wg else []
        parts += [f"len:{bf.name}={bf.length_expr}" for bf in self.buffers]
        parts += [f"fill:{bf.name}={bf.fill}" for bf in self.buffers if bf.fill]
        parts += [f"{nm}={v}" for _, nm, v in self.scalars if nm != "n"]
        return " ".join(parts)

    def assemble(self, first: str) -> tuple[str, list[tuple[str, str]], list[int]]:
        """The whole file, its expectations as (configuration, body) and the numbers of EMI's lines.

        A template ``(independent): warp-race …`` holds only under that configuration."""
        # a CUDA kernel with a fixed block size also says so in GPUVerify's option syntax, which `simu check`
        # reads as the user's block (and the `constrain:` line, which says the same)
        gpuverify = [f"//--blockDim={self.wg}"] if self.wg and self.d.cuda else []
        header_len = 1 + max(1, len(self.expects)) + 2 + len(gpuverify)
        top = self.prelude + self.signature()
        offset = header_len + len(top)
        exps = []
        for template, lines in self.expects:
            nums = sorted({self.b.number(ln, offset) for ln in lines})
            where = ("line " if len(nums) == 1 else "lines ") + ",".join(map(str, nums)) if nums else ""
            m = re.match(r"\((\w+)\):\s*(.*)", template)
            config, body = (m.group(1), m.group(2)) if m else ("", template)
            exps.append((config, body.format(lines=where).strip()))
        header = [first]
        header += [f"// expect({c}): {b}" if c else f"// expect: {b}" for c, b in exps] or ["// expect: clean"]
        header += [f"// launch: {self.launch_text()}", f"// constrain: {self.constrain_text()}", *gpuverify]
        assert len(header) == header_len
        text = "\n".join(header + top) + "\n" + self.b.text() + "}\n"
        emi = [self.b.number(ln, offset) for ln in self.emi_lines]
        return text, exps, emi
