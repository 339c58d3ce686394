"""Host loops around and before a launch: which value a name has on a loop's first pass, and which loops a
run whose device calls succeed never enters.

``for (int threads = 32; threads <= 512; threads *= 2) k<<<n / threads, threads>>>(…)`` makes its first launch
with ``threads = 32``: that is a launch of the program (later passes make others).  A loop before the launch
that only runs while a device call fails (``while (cudaGetLastError() != cudaSuccess) size >>= 1;``) leaves the
value it started with on every run where the call succeeds.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from simu.frontend.ctext import STRING_LITERAL
from simu.host.cscan import CSource, split_top_level

# a loop condition that holds only while a device call reports a failure
_FAILURE = re.compile(r"!=\s*(?:cuda|hip|CL_)[A-Za-z]*(?:Success|SUCCESS)\b|(?:cuda|hip)Success\s*!=|"
                      r"(?:cuda|hip)GetLastError\s*\(\s*\)\s*(?:&&|\|\||\)|$)|CL_SUCCESS\s*!=")


@dataclass(frozen=True)
class Loop:
    """A ``for``/``while``/``do`` loop: where it starts, its header (inside the brackets, ``None`` for
    ``do``), its body (``{`` .. after ``}``, or the one statement) and its line."""

    kind: str
    at: int
    header: tuple[int, int] | None
    body: tuple[int, int]
    line: int
    init_end: int = 0  # a ``for``'s first ``;``: its init clause runs once, before the loop


    @property
    def end(self) -> int:
        return self.body[1]

    def holds(self, pos: int) -> bool:
        """Whether ``pos`` is in the loop's header or body."""
        return self.at < pos < self.end

    def repeats(self, pos: int) -> bool:
        """Whether ``pos`` is in a part of the loop that runs on every pass (not a ``for``'s init clause)."""
        return max(self.at, self.init_end) < pos < self.end

    def in_body(self, pos: int) -> bool:
        return self.body[0] <= pos < self.body[1]

    def parts(self, src: CSource) -> tuple[str, str, str]:
        """(init, condition, step) of a ``for``; ``("", condition, "")`` of a ``while``/``do``."""
        if self.header is None:
            return "", self._do_condition(src), ""
        text = src.code[self.header[0]:self.header[1]]
        if self.kind != "for":
            return "", text, ""
        parts = split_top_level(text, ";")
        return (parts[0], parts[1], parts[2]) if len(parts) == 3 else ("", "", "")

    def _do_condition(self, src: CSource) -> str:
        m = re.match(r"\s*while\s*\(", src.code[self.end:])
        if not m:
            return ""
        close = _matching(src.code, self.end + m.end() - 1)
        return src.code[self.end + m.end():close] if close else ""


def loops(src: CSource) -> list[Loop]:
    """Every loop of the file, by position (memoised on the source)."""
    hit = src.__dict__.get("_loops")
    if hit is not None:
        return hit
    blank = STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), src.code)
    out: list[Loop] = []
    for m in re.finditer(r"(?<![\w.>])(for|while|do)\b", blank):
        kind = m.group(1)
        i = m.end()
        header = None
        if kind != "do":
            open_ = re.compile(r"\s*\(").match(blank, i)
            if not open_:
                continue
            close = _matching(blank, open_.end() - 1)
            if close is None:
                continue
            header, i = (open_.end(), close), close + 1
            if kind == "while" and re.compile(r"\s*;").match(blank, i) and _ends_do(blank, m.start()):
                continue  # the `while (...)` closing a do-loop
        body = _body(src, blank, i)
        if body is not None:
            init_end = 0
            if kind == "for" and header is not None:
                semi = src.statement_end(header[0])
                init_end = semi if semi < header[1] else 0
            out.append(Loop(kind, m.start(), header, body, src.line_of(m.start()), init_end))
    src._loops = out  # type: ignore[attr-defined]
    return out


def enclosing(src: CSource, pos: int) -> list[Loop]:
    """The loops whose header or body holds ``pos``, outermost first."""
    return [lp for lp in loops(src) if lp.holds(pos)]


def innermost(src: CSource, pos: int) -> Loop | None:
    inside = enclosing(src, pos)
    return inside[-1] if inside else None


def runs_only_on_failure(src: CSource, loop: Loop) -> bool:
    """Whether the loop's condition holds only while a device call fails (``cudaGetLastError() !=
    cudaSuccess``, ``err != CL_SUCCESS``): a run whose calls succeed never enters it."""
    _, cond, _ = loop.parts(src)
    if not cond.strip():
        return False
    terms = split_top_level(cond, "&&")  # a conjunction fails if one term does
    return any(_FAILURE.search(t) for t in terms)


def _matching(code: str, open_at: int) -> int | None:
    """The offset of the bracket closing the one at ``open_at``."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    want, depth = pairs[code[open_at]], 0
    for i in range(open_at, len(code)):
        c = code[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth == 0:
                return i if c == want else None
    return None


def _body(src: CSource, blank: str, i: int) -> tuple[int, int] | None:
    m = re.compile(r"\s*").match(blank, i)
    j = m.end() if m else i
    if j < len(blank) and blank[j] == "{":
        close = _matching(blank, j)
        return (j, close + 1) if close is not None else None
    if j < len(blank) and blank[j] == ";":
        return (j, j + 1)
    end = src.statement_end(j)
    return (j, end + 1) if end < len(blank) else None


def _ends_do(blank: str, at: int) -> bool:
    """Whether the ``while`` at ``at`` follows the ``}`` of a ``do`` body."""
    before = blank[:at].rstrip()
    if not before.endswith("}"):
        return False
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        c = before[i]
        if c == "}":
            depth += 1
        elif c == "{":
            depth -= 1
            if depth == 0:
                return bool(re.search(r"\bdo\s*$", before[:i]))
    return False


def first_pass(src: CSource, name: str, after: int, pos: int, updates: list[int]
               ) -> tuple[bool, list[Loop], list[Loop]]:
    """Whether the value ``name`` got at ``after`` is still the one it has at ``pos`` on a run of the program,
    given the offsets of the statements that update it in place (``+=``, ``<<=``, ``++``…); the loops on whose
    first pass that is so; and the loops passed over because only a failing device call enters them.

    An update after ``pos`` changes nothing before it; one in a loop holding ``pos`` but not ``after``
    (its step, or its body after ``pos``) changes later passes only.  An update between ``after`` and ``pos``
    counts, unless it is in a loop entered only while a device call fails."""
    passes: list[Loop] = []
    skipped: list[Loop] = []
    around = enclosing(src, pos)
    for u in updates[bisect.bisect_right(updates, after):]:
        loop = next((lp for lp in reversed(around) if lp.holds(u) and not lp.repeats(after)), None)
        if loop is not None and (u > pos or not loop.in_body(u)):
            if loop not in passes:
                passes.append(loop)
            continue  # a later pass of a loop holding the use
        if u > pos:
            break  # after the use (and no loop brings it round before it)
        inner = innermost(src, u)
        if inner is not None and inner.end < pos and not inner.repeats(after) and runs_only_on_failure(src, inner):
            if inner not in skipped:
                skipped.append(inner)
            continue
        return False, [], []
    return True, passes, skipped
