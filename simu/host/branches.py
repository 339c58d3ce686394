"""Branches the host program always or never takes, and placeholder values: what :mod:`simu.host.cvalues` needs to
read ``if (USE_BIG) block = 256; else block = 128;`` as 256 and ``int n = 0; if (argc > 1) n = atoi(argv[1]);
if (n == 0) usage();`` as no default."""

from __future__ import annotations

import re

from simu.frontend.ctext import STRING_LITERAL


def branch_taken(ev, at: int, pos: int) -> tuple[bool, bool] | None:
    """Whether the ``if``/``else`` branch holding ``at`` runs, when its condition is constant (``if (USE_FP16)``,
    ``if (op.getOptionInt("KiB") == 0)`` at its command-line default) and the ``if`` sits at the level of
    ``pos`` (not in a loop or another branch closed before it); with whether the condition took a command-line
    default.  ``None``: not such a branch."""
    code = blank_code(ev.src)
    found = _if_before(code, at)  # if (c) n = 1;
    negate = False
    if found is None:
        brace = _open_before(code, at)
        if brace is None:
            return None
        found = _if_before(code, brace)  # if (c) { n = 1; }
        if found is None:
            e = re.search(r"\}\s*else\s*$", code[max(0, brace - 60):brace])  # } else { n = 2; }
            opened = _open_before(code, brace - 60 + e.start() if brace >= 60 else e.start()) if e else None
            found = _if_before(code, opened) if opened is not None else None
            negate = True
    if found is None or ev._closed_between(found[0], pos):
        return None  # no if, or one inside a loop or branch closed before the use: it runs only sometimes
    before = set(ev.defaults)
    v = ev._number(ev.src.code[found[1]:found[2]], found[0], 1)
    if v is None:
        return None
    return (not v) if negate else bool(v), any(not d.startswith("@") for d in ev.defaults - before)


def placeholder(code: str, name: str, value: str, after: int, pos: int) -> bool:
    """Whether ``value``, the value of ``name`` before the command line's, marks "not given": a negative literal, or
    0 (or NULL) that the code tests for after it (``if (n == 0)``, ``if (!n)``, ``n <= 0``, ``n < 1``)."""
    v = value.strip().strip("()").strip()
    if re.fullmatch(r"-\s*\d+", v):
        return True
    if not re.fullmatch(r"0+[uUlL]*|NULL|nullptr", v):
        return False
    n = re.escape(name)
    return re.search(rf"!\s*{n}\b|(?<![\w.>]){n}\s*(?:==\s*(?:0|NULL|nullptr)\b|<=\s*0\b|<\s*1\b)",
                     code[after:pos + 2000]) is not None


def blank_code(src) -> str:
    """The code with string and character literals blanked (braces inside them are no blocks), kept on the source."""
    blank = src.__dict__.get("_blank_code")
    if blank is None:
        blank = STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), src.code)
        blank = src._blank_code = re.sub(r"'(?:[^'\\\n]|\\.)*'", lambda m: " " * len(m.group(0)), blank)
    return blank


_IF_HEAD = re.compile(r"\bif\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)\s*$")


def _if_before(code: str, end: int) -> tuple[int, int, int] | None:
    """(where the ``if`` starts, where its condition starts and ends) for an ``if (c)`` ending right before
    ``end`` (blanks between), else ``None``."""
    lo = max(0, end - 300)
    m = _IF_HEAD.search(code[lo:end])
    if m is None or re.search(r"\belse\s+$", code[max(0, lo + m.start() - 8):lo + m.start()]):
        return None  # an else-if: its branch also depends on the if before it
    return lo + m.start(), lo + m.start(1), lo + m.end(1)


def _open_before(code: str, at: int) -> int | None:
    """The ``{`` of the innermost block holding ``at`` (``None`` at file level)."""
    depth, i, lo = 0, at - 1, max(0, at - 20000)
    while i >= lo:
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                return i
            depth -= 1
        i -= 1
    return None
