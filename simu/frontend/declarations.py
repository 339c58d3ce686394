"""The declarations of a C++ source file, found lexically, so that one can be left out of a compile.

A file is read as a sequence of *declarations* at namespace scope (a function definition, a class with its
``;``, a variable, a ``using``, an explicit instantiation, a macro invocation on a line of its own), and the
bodies of namespaces, ``extern "C"`` blocks and classes as sequences of their own (a class member is a
declaration of the class body).  Preprocessor lines are not part of any declaration's text and are never
touched.  No parser: comments, string and character literals are blanked first (:mod:`simu.frontend.ctext`,
as the host-code index does); brackets are matched.
:func:`declaration_at` answers the innermost declaration that holds an offset, which
:mod:`simu.frontend.device_slice` blanks when clang reports an error there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from simu.frontend.ctext import CHAR_LITERAL, STRING_LITERAL, comment_free, spaces

_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n\\]|\\.|\\\n)*", re.M)
_NAMESPACE = re.compile(r"^(?:inline\s+)?namespace\b[\w\s:]*$|^extern\s*\"C(?:\+\+)?\"\s*$")
_CLASS = re.compile(r"^(?:(?:typedef|static|const|volatile|__\w+__)\s+)*(?:class|struct|union)\b")
_NOT_FUNCTION = re.compile(r"^(?:(?:typedef|static|const|volatile)\s+)*(?:enum|typedef|using|class|struct|union)\b")
_ACCESS = re.compile(r"(?:public|private|protected)\s*:(?!:)")
_MACRO_CALL = re.compile(r"[A-Z][A-Z0-9_]*\s*\(")
_OPERATOR = re.compile(r"\boperator\s*(?:\(\s*\)|\[\s*\]|[^\s(\w]+|\w+)")
_ATTRIBUTE = re.compile(r"\b(?:__attribute__\s*\(\(.*?\)\)|__declspec\s*\([^)]*\)|alignas\s*\([^)]*\)|"
                        r"__align__\s*\([^)]*\)|__launch_bounds__\s*\([^)]*\))")
_GLOBAL = re.compile(r"\b__global__\b|__attribute__\s*\(\s*\(\s*global\s*\)\s*\)")


@dataclass
class Declaration:
    """``text[start:end]`` is the declaration; ``body`` its members when it is a class, a namespace or an
    ``extern "C"`` block (``container``: a namespace or an ``extern`` block, whose removal never helps)."""

    start: int
    end: int
    kernel: bool = False  # a __global__ function (or a class/namespace holding one: see members)
    container: bool = False
    body: tuple[int, int] | None = None
    members: list[Declaration] = field(default_factory=list)
    block: tuple[int, int] | None = None  # a function definition's body: the offsets of its braces


class Unbalanced(ValueError):
    """The file's brackets do not match (a declaration split over ``#if`` branches): not sliceable."""


def structure_text(text: str) -> str:
    """``text`` with comments, literals and preprocessor lines blanked (same length, newlines kept)."""
    return _blank(comment_free(text))


def _blank(code: str) -> str:
    blank = STRING_LITERAL.sub(lambda m: spaces(m.group(0)), code)
    blank = CHAR_LITERAL.sub(lambda m: spaces(m.group(0)), blank)
    return _DIRECTIVE.sub(lambda m: spaces(m.group(0)), blank)


def directive_lines(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of every preprocessor line (continuations included) of ``text``."""
    code = comment_free(text)
    return [(m.start(), m.end()) for m in _DIRECTIVE.finditer(code)]


def declarations(text: str) -> list[Declaration]:
    """The namespace-scope declarations of a file (see the module docstring); raises :class:`Unbalanced`."""
    code = comment_free(text)
    blank = _blank(code)
    return _parse(blank, 0, len(blank), code)


def declaration_at(decls: list[Declaration], pos: int) -> Declaration | None:
    """The innermost declaration that holds ``pos``, descending into namespaces and class bodies (a position
    in a class head, or between members, is the class's); None for one between declarations."""
    for d in decls:
        if d.start <= pos < d.end:
            if d.body is not None and d.body[0] < pos < d.body[1]:
                inner = declaration_at(d.members, pos)
                if inner is not None:
                    return inner
            return None if d.container else d
    return None


def enclosing_namespaces(decls: list[Declaration], code: str, pos: int) -> list[str]:
    """The names of the namespaces around ``pos``, outermost first (``""`` for an anonymous one; ``extern``
    blocks are not namespaces and are skipped)."""
    out: list[str] = []
    for d in decls:
        if d.container and d.body is not None and d.body[0] < pos < d.body[1]:
            m = re.match(r"\s*(?:inline\s+)?namespace\s*([\w:]*)", code[d.start:d.body[0]])
            if m:
                out += m.group(1).split("::") if m.group(1) else [""]
            return out + enclosing_namespaces(d.members, code, pos)
    return out


def _match(blank: str, i: int, end: int) -> int:
    """The offset of the bracket closing the one at ``i``."""
    depth = 0
    for j in range(i, end):
        c = blank[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return j
    raise Unbalanced(f"bracket at offset {i} is not closed")


def _parse(blank: str, a: int, b: int, code: str) -> list[Declaration]:
    out: list[Declaration] = []
    i, start = a, None
    while i < b:
        c = blank[i]
        if c.isspace():
            i += 1
            continue
        if start is None:
            access = _ACCESS.match(blank, i)
            if access:
                i = access.end()
                continue
            start = i
            call = _MACRO_CALL.match(blank, i)
            if call:  # FOO(args) alone on its line(s): a declaration of its own, with or without ';'
                close = _match(blank, call.end() - 1, b)
                rest = blank[close + 1:b]
                nxt = len(rest) - len(rest.lstrip())
                if nxt < len(rest) and "\n" in rest[:nxt] and rest[nxt] not in "{;:,=-)[":
                    out.append(Declaration(start, close + 1))
                    i, start = close + 1, None
                    continue
        if c == ";":
            out.append(Declaration(start, i + 1))
            i, start = i + 1, None
        elif c in "([":
            i = _match(blank, i, b) + 1
        elif c == "{":
            close = _match(blank, i, b)
            head = _head(code[start:i])
            if _NAMESPACE.match(head):
                out.append(Declaration(start, close + 1, container=True, body=(i, close),
                                       members=_parse(blank, i + 1, close, code)))
                i, start = close + 1, None
            elif _CLASS.match(head) and "(" not in head.split(":")[0]:
                members = _parse(blank, i + 1, close, code)
                end = _statement_end(blank, close + 1, b)
                out.append(Declaration(start, end, kernel=any(m.kernel for m in members), body=(i, close),
                                       members=members))
                i, start = end, None
            elif _is_function(head):
                nxt = blank[close + 1:b].lstrip()
                if nxt[:1] in (",", "{"):  # a constructor's initialiser list: `: a{1}, b{2} { ... }`
                    i = close + 1
                    continue
                end = close + 1
                if nxt[:1] == ";":
                    end = blank.index(";", close + 1) + 1
                out.append(Declaration(start, end, kernel=bool(_GLOBAL.search(blank[start:i])), block=(i, close)))
                i, start = end, None
            else:  # an initialiser, an enum body: the declaration goes on to its ';'
                i = close + 1
        elif c in ")]}":
            raise Unbalanced(f"unmatched {c!r} at offset {i}")
        else:
            i += 1
    if start is not None:
        out.append(Declaration(start, b))
    return out


def statement_at(blank: str, pos: int, block: tuple[int, int]) -> tuple[int, int] | None:
    """The offsets of the statement of a function body (``block``: its braces) that holds ``pos``, in ``blank``
    (:func:`structure_text`): from after the ``;``, ``{`` or ``}`` before it to its ``;`` (or the ``}`` closing a
    block it ends with: ``if (…) { … }``).  A statement inside parentheses is its whole enclosing statement (a
    lambda's in a call); None where ``pos`` is not inside ``block`` or the brackets do not match."""
    lo, hi = block
    if not lo < pos < hi:
        return None
    start, parens, braces = None, 0, 0
    for i in range(pos - 1, lo - 1, -1):
        c = blank[i]
        if c in ")]":
            parens += 1
        elif c in "([":
            parens = max(parens - 1, 0)  # at 0: ``pos`` is inside this group, whose statement goes on before it
        elif parens:
            continue
        elif c == "}":
            if braces == 0:
                start = i + 1  # after a block statement
                break
            braces += 1
        elif c == "{":
            if braces == 0:
                start = i + 1
                break
            braces -= 1
        elif c == ";" and braces == 0:
            start = i + 1
            break
    if start is None:
        return None
    parens = braces = 0
    i = start
    while i < hi:
        c = blank[i]
        if c in "([":
            parens += 1
        elif c in ")]":
            parens -= 1
            if parens < 0:
                return None
        elif c == "{":
            braces += 1
        elif c == "}":
            braces -= 1
            if braces < 0:
                return (start, i) if i > pos else None  # the enclosing block's end: a last statement without ';'
            if braces == 0 and parens == 0:
                rest = blank[i + 1:hi].lstrip()
                if rest[:1] not in (";", ",", ")", ".", "(", "-"):
                    return start, i + 1  # a block the statement ends with
        elif c == ";" and parens == 0 and braces == 0:
            return (start, i + 1) if i + 1 > pos else None
        i += 1
    return (start, hi) if parens == braces == 0 and hi > pos else None  # the body's last statement, without ';'


def _statement_end(blank: str, i: int, b: int) -> int:
    """The offset after the ``;`` that ends a class declaration (``struct S {...} s;``)."""
    while i < b:
        c = blank[i]
        if c == ";":
            return i + 1
        if c in "([{":
            i = _match(blank, i, b) + 1
            continue
        if c in ")]}":
            return i
        i += 1
    return b


def _head(head: str) -> str:
    """A declaration's text before its first ``{``, template header removed, whitespace collapsed."""
    head = " ".join(head.split())
    while head.startswith("template"):
        m = re.match(r"template\s*<", head)
        if not m:
            break
        depth, j = 1, m.end()
        while j < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[j], 0)
            j += 1
        head = head[j:].lstrip()
    return _ATTRIBUTE.sub(" ", head).strip()


def _is_function(head: str) -> bool:
    """Whether a head (before ``{``) is a function's: a parameter list and no ``=`` before it."""
    if _NOT_FUNCTION.match(head):
        return False
    plain = _OPERATOR.sub("operator", head)
    return "(" in plain and "=" not in plain[:plain.index("(")] and ")" in plain


__all__ = ["Declaration", "Unbalanced", "declaration_at", "declarations", "directive_lines", "enclosing_namespaces",
           "statement_at", "structure_text"]
