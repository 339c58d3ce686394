"""The kernel names and ``.cl`` paths a C++ registry's expressions hold, and which path each name is built from.

A registry call names its kernel and its file by expressions whose values the file sets elsewhere, often one pair per
branch of the method that prepares the kernel::

    kernel_func_name_ = x_rank == 4 ? "matmul_xdim4_ydim1" : "matmul_xdim2_ydim1";
    kernel_file_name_ = "image/matmul_kernel.cl";          // the same block: the names' file
    ...
    ctx->AddKernel(kernel_func_name_, kernel_file_name_, build_options_);

or as vectors a loop registers, the kernel fetched by the element the key is streamed from::

    names_.push_back("transform_from_input");               // element 0 on this path
    if (mali) { names_.push_back("inner_mali"); names_.push_back("to_output_mali"); }  // 1, 2
    else { names_.push_back("inner"); names_.push_back("to_output"); }                 // 1, 2
    paths_.push_back("image/winograd.cl");
    for (i …) ctx->AddKernel(names_[i], paths_[0], …);
    key << names_[2] << options_;  output_kernel_ = ctx->GetKernel(key.str());      // to_output, to_output_mali

* :func:`string_sites`: each literal an expression may hold, where it is set and, for a vector, the element it becomes
  (the pushes before it on its path: in blocks still open there, after the last ``clear()``; unknown in a loop).
* :func:`named_paths`: (name, path) pairs: each name with the paths set in the nearest block around its setting that
  sets one (every path when none does), narrowed to the element an index or the fetch key names.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from simu.host.cscan import CSource, split_args

_NAME = re.compile(r"[A-Za-z_]\w*")
_ELEMENT = re.compile(r"\s*([A-Za-z_][\w.\->]*?)\s*\[\s*(\w+)\s*\]\s*")
_LITERAL = r'"([^"\\\n]*)"'


@dataclass(frozen=True)
class StringSite:
    """A literal an expression may hold: its text, the offset of the statement that sets it (-1: the expression is
    the literal) and, for a vector's push, the element it becomes (``None``: not a push, or not known)."""

    value: str
    pos: int
    index: int | None = None


def string_values(src: CSource, expr: str) -> list[str]:
    """The string literals a name expression may hold: itself when a literal; else every literal the file assigns
    to the variable, initialises it with or appends to it (``names_.push_back("a")`` for ``names_[i]``, or a variable
    pushed whose literals these are), or either literal of a choice it is assigned (``name = wide ? "k64" :
    "k32"``)."""
    return [v for v in dict.fromkeys(s.value for s in string_sites(src, expr)) if _NAME.fullmatch(v)]


def string_sites(src: CSource, expr: str, nested: bool = False) -> list[StringSite]:
    """Each literal ``expr`` may hold, with where it is set (see the module)."""
    return list(_string_sites(src, expr.strip(), nested))


@lru_cache(maxsize=256)  # a file's registry asks for one expression at each of its fetches
def _string_sites(src: CSource, expr: str, nested: bool) -> tuple[StringSite, ...]:
    if expr.startswith('"'):
        m = re.fullmatch(_LITERAL, expr)
        return (StringSite(m.group(1), -1),) if m else ()
    var = re.escape(re.split(r"\s*\[", expr)[0].split("->")[-1].split(".")[-1])
    code = src.code
    out = [StringSite(m.group(1), m.start())
           for m in re.finditer(rf'(?<![\w.>]){var}\s*(?:=|\{{|\()\s*{_LITERAL}', code)]
    push = rf"(?<![\w]){var}\s*(?:\.|->)\s*(?:push_back|emplace_back)\s*\(\s*"
    for m in re.finditer(rf"{push}(?:{_LITERAL}|([A-Za-z_]\w*)\s*\))", code):
        index = _push_index(src, var, push, m.start())
        if m.group(1) is not None:
            out.append(StringSite(m.group(1), m.start(), index))
        elif not nested:  # names_.push_back(kernel_name_): the literals kernel_name_ is set to
            out += [StringSite(s.value, s.pos, index) for s in string_sites(src, m.group(2), nested=True)]
    for m in re.finditer(rf'(?<![\w.>]){var}\s*=([^;=][^;]*\?[^;]*);', code):  # x = c ? "a" : (d ? "b" : "c")
        rhs = m.group(1).strip()
        if re.fullmatch(r'(?:[^"?:]*\?\s*\(?\s*"[^"\\\n]*"\s*\)?\s*:)+\s*\(?\s*"[^"\\\n]*"[\s)]*', rhs):
            out += [StringSite(v, m.start()) for v in re.findall(_LITERAL, rhs)]
    out += _written_through(src, var)
    return tuple(dict.fromkeys(out))


def named_paths(src: CSource, name_expr: str, path_expr: str, key: str | None = None, at: int = -1
                ) -> list[tuple[str, str]]:
    """The (kernel name, ``.cl`` path) pairs a registration with these expressions makes, of the kernel a fetch at
    ``at`` keyed by ``key`` (the expression its key is streamed from, ``None``: unknown) takes (see the module): of
    the names set in the class around the fetch, where it sets any (classes of one file each hold their own
    ``kernel_func_name_``), and beside a flag a branch around the fetch tests, where one is."""
    names = [s for s in _element(string_sites(src, name_expr), name_expr) if _NAME.fullmatch(s.value)]
    names = _flagged(src, at, _in_class(src, at, names))
    if key is not None and _base(key) == _base(name_expr):
        names = _element(names, key)
    elif key is not None and _NAME.fullmatch(key.strip()):
        keyed = set(string_values(src, key))
        names = [s for s in names if s.value in keyed] or names
    paths = [s for s in _element(string_sites(src, path_expr), path_expr) if s.value.endswith(".cl")]
    out = []
    for name in names:
        out += [(name.value, p.value) for p in _nearest(src, name.pos, paths)]
    return list(dict.fromkeys(out))


def _in_class(src: CSource, at: int, sites: list[StringSite]) -> list[StringSite]:
    """Of ``sites``, those inside the class around ``at`` (:func:`class_span`), when any is."""
    span = class_span(src, at)
    mine = [s for s in sites if span[0] < s.pos < span[1]] if span else []
    return mine or sites


def _flagged(src: CSource, at: int, sites: list[StringSite]) -> list[StringSite]:
    """Of ``sites``, those set in a block that also sets a flag a branch around ``at`` tests (``is_wino_ = true;``
    beside the pushes of the Winograd kernels, the fetch under ``else if (is_wino_)``), when any is."""
    spans = _flag_spans(src, at)
    mine = [s for s in sites if any(b < s.pos < e for b, e in spans)]
    return mine or sites


def flagged_names(src: CSource, at: int) -> set[str]:
    """The string literals set in the blocks that set a flag a branch around ``at`` tests (empty: none): the
    kernels a launch under ``if (is_wino_)`` may be of, of those a member may hold."""
    return {v for b, e in _flag_spans(src, at) for v in re.findall(_LITERAL, src.code[b:e])}


def _flag_spans(src: CSource, at: int) -> list[tuple[int, int]]:
    """The blocks that set (``= true``) a flag a branch around ``at`` tests, in its function."""
    f = src.enclosing(at) if at >= 0 else None
    if f is None:
        return []
    flags = set()
    for brace in _around(src.code, f.start, at):
        head = src.code[max(f.start, brace - 200):brace]
        if _keyword(src.code, brace) == "if" and (m := re.search(r"\(\s*([A-Za-z_]\w*)\s*\)\s*$", head)):
            flags.add(m.group(1))
    return [span for flag in flags
            for m in re.finditer(rf"(?<![\w.>]){re.escape(flag)}\s*=\s*(?:true|1)\s*;", src.code)
            if (span := _innermost(src.code, m.start())) is not None]


def chosen_with(src: CSource, method: str) -> set[str]:
    """The string literals set in the blocks that choose ``method`` through a member-function pointer (``impl_ =
    &ConvCompute::Depthwise3x3;`` beside ``names_.push_back("depth_conv2d_3x3")``): the kernels a launch in that
    method may be of (empty: no block chooses it)."""
    out: set[str] = set()
    for m in re.finditer(rf"=\s*&\s*(?:[A-Za-z_]\w*\s*::\s*)*{re.escape(method)}\s*;", src.code):
        if (span := _innermost(src.code, m.start())) is not None:
            out.update(re.findall(_LITERAL, src.code[span[0]:span[1]]))
    return out


def class_span(src: CSource, at: int) -> tuple[int, int] | None:
    """The offsets of the innermost block around ``at`` that is no function's (a class's body)."""
    if at < 0:
        return None
    bodies = [(f.start, f.end) for f in src.functions()]
    around = [b for b in _around(src.code, 0, at) if not any(s <= b < end for s, end in bodies)]
    return (around[-1], matching_braces(src.code)[around[-1]]) if around else None


@lru_cache(maxsize=4)
def matching_braces(code: str) -> dict[int, int]:
    """Each ``{`` offset and the offset of the ``}`` that closes it (per text: a file's registry asks many times)."""
    out, stack = {}, []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i)
        elif c == "}" and stack:
            out[stack.pop()] = i
    return out


@lru_cache(maxsize=4)
def _opens(code: str) -> list[int]:
    return sorted(matching_braces(code))


def _around(code: str, start: int, pos: int) -> list[int]:
    """The ``{`` offsets from ``start`` on whose blocks are open at ``pos``, outermost first."""
    opens, closes = _opens(code), matching_braces(code)
    return [b for b in opens[bisect.bisect_left(opens, start):bisect.bisect_left(opens, pos)] if closes[b] > pos]


def _innermost(code: str, pos: int) -> tuple[int, int] | None:
    """The offsets of the ``{`` and ``}`` of the innermost block around ``pos``."""
    around = _around(code, 0, pos)
    return (around[-1], matching_braces(code)[around[-1]]) if around else None


def element(expr: str) -> tuple[str, str] | None:
    """(vector, index) of an element expression: ``names_[2]`` -> (``names_``, ``2``)."""
    m = _ELEMENT.fullmatch(expr)
    return (m.group(1), m.group(2)) if m else None


def _base(expr: str) -> str:
    return re.split(r"\s*\[", expr.strip())[0]


def _element(sites: list[StringSite], expr: str) -> list[StringSite]:
    """``sites`` narrowed to the element ``names_[2]`` takes (those whose push makes element 2; all when no push is
    known to)."""
    part = element(expr)
    if part is None or not part[1].isdigit():
        return sites
    return [s for s in sites if s.index == int(part[1])] or sites


def _nearest(src: CSource, pos: int, paths: list[StringSite]) -> list[StringSite]:
    """The paths set in the innermost block around ``pos`` that sets any (a name and its file set together; those
    beside it before those in a block nested in it), else every path."""
    f = src.enclosing(pos) if pos >= 0 else None
    if f is None:
        return paths
    inside = [(p, _around(src.code, f.start, p.pos)) for p in paths if f.start < p.pos < f.end]
    for brace in reversed(_around(src.code, f.start, pos)):
        here = [(p, blocks) for p, blocks in inside if brace in blocks]
        direct = [p for p, blocks in here if blocks[-1] == brace]  # beside it before one in a nested block
        if here:
            return direct or [p for p, _ in here]
    return paths


def _push_index(src: CSource, var: str, push: str, pos: int) -> int | None:
    """The element the push at ``pos`` makes: the pushes of its function before it in blocks still open at ``pos``,
    counted from the last ``clear()`` so placed; ``None`` inside a loop or outside a function."""
    f = src.enclosing(pos)
    if f is None:
        return None
    mine = _around(src.code, f.start, pos)
    if any(_keyword(src.code, b) in ("for", "while", "do") for b in mine):
        return None
    count = 0
    for m in re.finditer(rf"{push}|(?<![\w]){var}\s*(?:\.|->)\s*clear\s*\(", src.code[f.start:pos]):
        if any(b not in mine for b in _around(src.code, f.start, f.start + m.start())):
            continue  # in a block closed before the push: another path
        count = count + 1 if "push_back" in m.group(0) or "emplace_back" in m.group(0) else 0
    return count


def _keyword(code: str, brace: int) -> str:
    """:func:`opened_by` of the ``{`` at ``brace``, read off the text just before it."""
    head = code[max(0, brace - 400):brace]
    return opened_by(head, len(head))


def _written_through(src: CSource, var: str) -> list[StringSite]:
    """The literals a function of the file stores through the pointer its caller passes ``&var`` as
    (``pick(dims, axis, &kernel_func_name_)`` and ``*name = "split_height";`` in ``pick``)."""
    out: list[StringSite] = []
    functions = {f.name.split("::")[-1]: f for f in src.functions()}
    for m in re.finditer(rf"\b([A-Za-z_]\w*)\s*\((?=[^;]*&\s*{var}\b)", src.code):
        f = functions.get(m.group(1))
        args, _ = split_args(src.code, m.end())
        if f is None or not args:
            continue
        at = next((i for i, a in enumerate(args) if re.fullmatch(rf"&\s*{var}", a.strip())), None)
        if at is None or at >= len(f.params):
            continue
        out += [StringSite(s.group(1), m.start()) for s in
                re.finditer(rf'\*\s*{re.escape(f.params[at])}\s*=\s*{_LITERAL}', src.code[f.start:f.end])]
    return out


def opened_by(code: str, brace: int) -> str:
    """The keyword whose statement the ``{`` at ``brace`` opens (``for``, ``if``, ``do``, ``else``, ...; ``""``)."""
    word = re.search(r"([A-Za-z_]\w*)$", statement_head(code, brace))
    return word.group(1) if word else ""


def statement_head(code: str, brace: int) -> str:
    """The text before the ``{`` at ``brace``, its statement's condition left out: ``… else if`` of ``} else if (a)
    {``, ``… for`` of ``for (int i = 0; i < n; i++) {``."""
    head = code[:brace].rstrip()
    if head.endswith(")"):
        depth, i = 0, len(head) - 1
        while i >= 0:
            depth += (head[i] == ")") - (head[i] == "(")
            if depth == 0:
                break
            i -= 1
        head = head[:max(i, 0)].rstrip()
    return head


def open_blocks(code: str) -> list[int] | None:
    """The offsets of the ``{`` still open at the end of ``code`` (``None`` when it closes one it did not open)."""
    stack: list[int] = []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i)
        elif c == "}":
            if not stack:
                return None
            stack.pop()
    return stack
