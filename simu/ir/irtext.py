"""The module's IR text as the decoder reads it beside llvmlite: each function's instruction lines (the module's
own numbering of metadata and names of types), and commas at the top level of an instruction's operands."""

from __future__ import annotations

import re

_DEFINE = re.compile(r"^define [^@]*@(\"[^\"]+\"|[\w.$-]+)\(", re.M)
_LABEL = re.compile(r"^[\w.$-]+:\s*(;.*)?$")


class FunctionLines:
    """Each defined function's instruction lines from the module text, split on first use."""

    def __init__(self, ir: str):
        self.ir = ir
        self.starts = {m.group(1).strip('"'): m.end() for m in _DEFINE.finditer(ir)}

    def of(self, name: str) -> list[str]:
        start = self.starts.get(name)
        if start is None:
            return []
        start = self.ir.index("\n", start) + 1
        end = self.ir.find("\n}", start - 1)
        return _instruction_lines(self.ir[start:end if end >= 0 else len(self.ir)])


def _instruction_lines(body: str) -> list[str]:
    """A function body's instruction lines, in order (a switch's case table joined into one line)."""
    out: list[str] = []
    pending_switch: str | None = None
    for line in body.splitlines():
        s = line.strip()
        if pending_switch is not None:  # a switch's case table spans several lines
            pending_switch += " " + s
            if s.startswith("]"):
                out.append(pending_switch)
                pending_switch = None
            continue
        if not s or s.startswith(";") or s.startswith("#dbg_") or (s.endswith(":") and " " not in s) \
                or _LABEL.match(s):
            continue
        if s.startswith("switch ") and s.endswith("["):
            pending_switch = s
            continue
        out.append(s)
    return out


def split_top(s: str) -> list[str]:
    """Split at top-level commas (outside brackets)."""
    out, depth, start = [], 0, 0
    for j, c in enumerate(s):
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[start:j])
            start = j + 1
    out.append(s[start:])
    return out
