"""A line builder that remembers where things were emitted, and the two C dialects it writes.

Lines are objects (:class:`Line`), so planted bugs and EMI blocks can be inserted or removed after the
kernel is built while expectations keep pointing at the right statement; :meth:`Builder.number` gives a
line's 1-based number in the final file once the header is known.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

INDENT = "    "


@dataclass(eq=False)
class Line:
    """One emitted line (identity matters: expectations hold the object, not its number)."""

    text: str
    depth: int = 0
    emi: bool = False

    def render(self) -> str:
        return INDENT * self.depth + self.text


@dataclass
class Builder:
    """Emitted lines with indentation; ``points`` are top-level statement boundaries of the kernel body
    where EMI may insert dead code."""

    lines: list[Line] = field(default_factory=list)
    depth: int = 0
    points: list[Line] = field(default_factory=list)

    def line(self, text: str) -> Line:
        ln = Line(text, self.depth)
        self.lines.append(ln)
        return ln

    @contextmanager
    def block(self, head: str, tail: str = "}"):
        """``head {`` … ``}`` around what the body emits."""
        self.line(head + " {")
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.line(tail)

    def mark_point(self) -> None:
        """Remember the current position as a place for dead code (uniform, top-level code only)."""
        if self.lines and self.lines[-1] not in self.points:
            self.points.append(self.lines[-1])

    def remove(self, ln: Line) -> None:
        self.lines.remove(ln)

    def insert_after(self, anchor: Line, text: str) -> Line:
        new = Line(text, anchor.depth)
        self.lines.insert(self.lines.index(anchor) + 1, new)
        return new

    def number(self, ln: Line, header: int) -> int:
        """``ln``'s 1-based line number in a file whose first ``header`` lines precede these."""
        return header + self.lines.index(ln) + 1

    def text(self) -> str:
        return "\n".join(ln.render() for ln in self.lines) + "\n"


_CUDA_TYPES = {"uint": "unsigned int", "ulong": "unsigned long long", "uchar": "unsigned char",
               "ushort": "unsigned short", "long": "long long"}


@dataclass(frozen=True)
class Dialect:
    """How OpenCL C and CUDA C++ spell the few things the generator writes."""

    lang: str

    @property
    def cuda(self) -> bool:
        return self.lang == "cuda"

    @property
    def suffix(self) -> str:
        return ".cu" if self.cuda else ".cl"

    def t(self, name: str) -> str:
        """A scalar or vector type's spelling (``uint`` is ``unsigned int`` in CUDA)."""
        return _CUDA_TYPES.get(name, name) if self.cuda else name

    def gptr(self, ctype: str, const: bool = False) -> str:
        c = "const " if const else ""
        return f"{c}{self.t(ctype)} *" if self.cuda else f"__global {c}{ctype} *"

    def local(self, ctype: str, name: str, size: str) -> str:
        return f"{'__shared__' if self.cuda else '__local'} {self.t(ctype)} {name}[{size}];"

    def constant(self, ctype: str, name: str, values: list[str]) -> str:
        q = "__constant__" if self.cuda else "__constant"
        return f"{q} {self.t(ctype)} {name}[{len(values)}] = {{{', '.join(values)}}};"

    @property
    def helper(self) -> str:
        return "__device__ static" if self.cuda else "static"

    @property
    def lid(self) -> str:
        return "threadIdx.x" if self.cuda else "(uint)get_local_id(0)"

    @property
    def gid(self) -> str:
        return "blockIdx.x * blockDim.x + threadIdx.x" if self.cuda else "(uint)get_global_id(0)"

    @property
    def grp(self) -> str:
        return "blockIdx.x" if self.cuda else "(uint)get_group_id(0)"

    @property
    def lsize(self) -> str:
        return "blockDim.x" if self.cuda else "(uint)get_local_size(0)"

    @property
    def barrier(self) -> str:
        return "__syncthreads();" if self.cuda else "barrier(CLK_LOCAL_MEM_FENCE);"

    def atomic_inc(self, ptr: str) -> str:
        return f"atomicAdd({ptr}, 1u)" if self.cuda else f"atomic_inc({ptr})"

    def atomic(self, op: str, ptr: str, value: str) -> str:
        """``op`` in add/or/xor/and/min/max on an unsigned int."""
        if self.cuda:
            return f"atomic{op.capitalize()}({ptr}, {value})"
        return f"atomic_{op}({ptr}, {value})"

    def vec(self, vtype: str, parts: list[str]) -> str:
        """A vector value: ``(float4)(a, b, c, d)`` or ``make_float4(a, b, c, d)``."""
        if self.cuda:
            return f"make_{vtype}({', '.join(parts)})"
        return f"({vtype})({', '.join(parts)})"
