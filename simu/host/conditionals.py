"""Which ``#define``\\ s of a file a preprocessor would keep: ``#if``/``#ifdef``/``#ifndef``/``#elif``/``#else``
chains decided as the compiler decides them when the build passes no ``-D``.

A benchmark header that picks its sizes by dataset (``#ifdef MINI_DATASET`` … ``#define NI 128`` … ``#ifdef
STANDARD_DATASET`` … ``#define NI 512``, the standard one chosen when none is given) defines ``NI`` as 512 for the
compiler; the lexical reader used to keep the first ``#define`` it met (128), and sized the host's buffers four
times too short.  A condition is evaluated over what the file defined before it: ``defined(X)`` of a name it never
defined is false, and a name with no integer value is 0, as in C.  A definition a build with no ``-D`` compiles is
*certain* and wins; one under a branch that only a ``-D`` selects (``#ifdef GPU``: the name may come from the
build or another header), or that the compiler decides (a name starting with an underscore: ``__CUDA_ARCH__``,
``__cplusplus``; the platform's, ``_WIN32`` or ``__linux__``, are Linux's: :data:`PLATFORM`), stays a *candidate*,
kept only where no certain one defines the name (the lexical reader's old rule, first one wins).  Only a branch
no build compiles (``#if 0``) is dropped."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b[ \t]*((?:[^\n\\]|\\\n|\\.)*)",
                        re.M)
_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_INT = re.compile(r"^\(?\s*([-+]?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*\)?$")
_SAFE_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.Invert,
               ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.BinOp, ast.Add, ast.Sub,
               ast.Mult, ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor,
               ast.Constant)


# the platform simu reads host code as compiled on (the clang of the ziglang wheel targets Linux)
PLATFORM = {"_WIN32": False, "_WIN64": False, "_MSC_VER": False, "__APPLE__": False, "__MACH__": False,
            "__MINGW32__": False, "__CYGWIN__": False, "__linux__": True, "__linux": True, "__unix__": True,
            "__unix": True, "__GNUC__": True}


@dataclass(frozen=True)
class Define:
    """An object-like (``params`` None) or function-like ``#define``, and whether a preprocessor surely keeps it."""

    name: str
    params: str | None
    value: str
    certain: bool


class _Undecided(Exception):
    pass


Branch = tuple[bool | None, bool]  # (compiled in a build that passes no -D: None undecided, whether that assumes it)


def defines(code: str, macro: re.Pattern[str]) -> Iterator[Define]:
    """The ``#define``\\ s of ``code`` (comment-free) in order, those under a branch no build compiles (``#if 0``)
    left out; ``macro`` splits a ``#define`` line into (name, parameters, value) as :mod:`simu.host.cscan` reads it.
    A definition is *certain* when a build that passes no ``-D`` compiles it; one a ``-D`` could select (``#ifdef
    GPU``) or the build decides (``#if __CUDA_ARCH__ >= 700``) is a candidate."""
    return (d for _, _, d in _walk(code, macro) if d is not None)


def dead_spans(code: str, macro: re.Pattern[str]) -> list[tuple[int, int]]:
    """The ``[start, end)`` offsets of ``code`` (comment-free) that no build compiles: ``#if 0``, and the branch a
    name the file itself defined decides against (``#define TD`` … ``#ifdef TD`` … ``#else`` *here* ``#endif``)."""
    out: list[tuple[int, int]] = []
    start = None
    for m, state, _ in _walk(code, macro):
        if state == (False, False) and start is None:
            start = m.end()
        elif state != (False, False) and start is not None:
            out.append((start, m.start()))
            start = None
    if start is not None:
        out.append((start, len(code)))
    return out


def _walk(code: str, macro: re.Pattern[str]) -> Iterator[tuple[re.Match[str], Branch, Define | None]]:
    """Every directive of ``code`` with the state of the lines after it (:func:`_state`) and, for a ``#define`` a
    build may compile, its :class:`Define`."""
    known: dict[str, str] = {}  # defined for sure before the current line
    maybe: set[str] = set()  # defined under a branch a build may compile or not
    stack: list[tuple[Branch, Branch]] = []  # per open #if: (this branch, whether an earlier one was taken)
    for m in _DIRECTIVE.finditer(code):
        word, rest = m.group(1), m.group(2)
        if word == "define":
            state = _state([b for b, _ in stack])
            d = macro.match(code, m.start())
            if state == (False, False) or d is None:
                yield m, state, None
                continue
            value = d.group(3).replace("\\\n", " ").strip()
            certain = state[0] is True
            if certain:
                known.setdefault(d.group(1), value)
            else:
                maybe.add(d.group(1))
            yield m, state, Define(d.group(1), d.group(2), value, certain)
            continue
        if word in ("if", "ifdef", "ifndef"):
            cond = _condition(word, rest, known, maybe)
            stack.append((cond, cond))
        elif word == "elif" and stack:
            (taken, assumed) = stack[-1][1]
            cond = (False, assumed) if taken is True else _condition("if", rest, known, maybe)
            if taken is None and cond[0] is not False:
                cond = (None, True)
            either = True if True in (taken, cond[0]) else None if None in (taken, cond[0]) else False
            stack[-1] = (cond, (either, assumed or cond[1]))
        elif word == "else" and stack:
            (taken, assumed) = stack[-1][1]
            stack[-1] = ((None if taken is None else not taken, assumed), (True, assumed))
        elif word == "endif" and stack:
            stack.pop()
        yield m, _state([b for b, _ in stack]), None


def _state(branches: list[Branch]) -> Branch:
    """The state of the current line: dead when an enclosing branch is (no build compiles it), else skipped by a
    build with no -D, undecided, or compiled."""
    if (False, False) in branches:
        return (False, False)
    if any(v is False for v, _ in branches):
        return (False, True)
    if any(v is None for v, _ in branches):
        return (None, True)
    return (True, any(a for _, a in branches))


def _condition(word: str, text: str, known: dict[str, str], maybe: set[str]) -> Branch:
    """Whether a build with no -D compiles the branch, and whether that assumes a name no -D defines."""
    text = re.sub(r"\\\n", " ", text).strip()
    if word in ("ifdef", "ifndef"):
        name = text.split()[0] if text.split() else ""
        if name in PLATFORM:
            return (PLATFORM[name] == (word == "ifdef"), False)
        if not name or name.startswith("_") or (name in maybe and name not in known):
            return (None, True)
        return ((name in known) == (word == "ifdef"), name not in known)
    assumed: list[str] = []
    try:
        return (bool(_evaluate(text, known, maybe, assumed)), bool(assumed))
    except (_Undecided, SyntaxError, ValueError, ZeroDivisionError, TypeError, RecursionError):
        return (None, True)


def _evaluate(text: str, known: dict[str, str], maybe: set[str], assumed: list[str], depth: int = 0) -> int:
    """The value of an ``#if`` expression; ``assumed`` collects the names it took as undefined."""
    def undecided(word: str) -> bool:
        return word.startswith("_") or (word in maybe and word not in known)

    def defined(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        if name in PLATFORM:
            return "1" if PLATFORM[name] else "0"
        if undecided(name):
            raise _Undecided(name)
        if name not in known:
            assumed.append(name)
        return "1" if name in known else "0"

    expr = _DEFINED.sub(defined, text)

    def name(m: re.Match[str]) -> str:
        word = m.group(0)
        if undecided(word) or depth > 8:
            raise _Undecided(word)
        if word not in known:
            assumed.append(word)
            return "0"  # an undefined name is 0 in #if
        value = known[word]
        v = _INT.match(value)
        return v.group(1) if v else str(_evaluate(value, known, maybe, assumed, depth + 1))

    expr = _NAME.sub(name, expr)
    expr = re.sub(r"(?<=\d)[uUlL]+\b", "", expr)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("/", "//")
    expr = re.sub(r"!(?!=)", " not ", expr)
    tree = ast.parse(expr.strip() or "0", mode="eval")
    if not all(isinstance(n, _SAFE_NODES) for n in ast.walk(tree)):
        raise _Undecided(text)
    return int(eval(compile(tree, "<#if>", "eval"), {"__builtins__": {}}, {}))  # noqa: S307 (checked nodes only)
