"""A lexical view of C/C++ host code: comments blanked, object-like macros, calls with their arguments,
function bodies (the evaluator of constant expressions is :mod:`simu.host.cvalues`).

No preprocessor and no parser: host code is read as text, which works without the project's headers
or SDKs.  Comments are replaced by spaces (newlines kept), so an offset in :attr:`CSource.code` is an
offset in the file and line numbers stay true.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from simu.frontend.ctext import CHAR_LITERAL, RAW_STRING, STRING_LITERAL, comment_free
from simu.host.conditionals import dead_spans, defines

# explicit template arguments of a call, ``LaunchScan<T, vecT, 256>(…)``: types, numbers, ``::``, ``*`` only, so
# that a comparison ``a < b && c > (d)`` is never one
TEMPLATE_ARGS = r"(?:<[\w\s,:*]*>\s*)"

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?[ \t]*((?:[^\n\\]|\\\n|\\.)*)", re.M)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "catch", "return", "sizeof", "do", "else", "defined"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v", "?": "?"}


def unescape(literal: str) -> str:
    """The text of one C string literal (prefix and quotes removed, escapes decoded)."""
    m = re.match(RAW_STRING, literal, re.S)
    if m:
        return m.group(2)
    body = literal[literal.index('"') + 1:-1]
    return re.sub(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", _escape, body, flags=re.S)


def _escape(m: re.Match[str]) -> str:
    e = m.group(1)
    if e[0] == "x":
        return chr(int(e[1:], 16))
    if e[0] in "01234567" and (len(e) > 1 or e != "0"):
        return chr(int(e, 8))
    return _ESCAPES.get(e, e)


@dataclass(frozen=True)
class Call:
    """One call ``name(args...)`` in host code; ``lhs`` is what its result is assigned to, if anything."""

    name: str
    pos: int
    line: int
    args: tuple[str, ...]
    lhs: str | None = None


@dataclass(frozen=True)
class Function:
    """A function definition: its name, parameter names and the offsets of its body (``{`` .. after ``}``)."""

    name: str
    params: tuple[str, ...]
    start: int
    end: int
    params_text: str = ""  # the parameter list as written (types, default values)


def _live(code: str) -> str:
    """``code`` with what no build compiles blanked, newlines kept (:func:`~simu.host.conditionals.dead_spans`): a
    launch under ``#ifdef TD`` … ``#else`` of a file that defines ``TD`` is none of the program's."""
    spans = dead_spans(code, _DEFINE) if "#" in code else []
    for start, end in reversed(spans):
        code = code[:start] + re.sub(r"[^\n]", " ", code[start:end]) + code[end:]
    return code


class CSource:
    """One host file as text: comment-free code, its macros, and lookups by position."""

    def __init__(self, text: str):
        self.text = text
        self.code = _live(comment_free(text))
        self._lines = [m.start() for m in re.finditer("\n", self.code)]
        self.macros: dict[str, str] = {}
        candidates: dict[str, str] = {}  # defined under a branch the build may decide (simu.host.conditionals)
        for d in defines(self.code, _DEFINE):
            if d.params is None:  # object-like macros only
                (self.macros if d.certain else candidates).setdefault(d.name, d.value)
        for name, value in candidates.items():
            self.macros.setdefault(name, value)
        for name, value in enum_constants(self.code):
            self.macros.setdefault(name, value)  # constants as a macro would be (a #define of the name wins)
        self.header_functions: dict[str, tuple[tuple[str, ...], str]] = {}  # set from the project headers
        self.includes = [(m.group(1), self.line_of(m.start())) for m in _INCLUDE.finditer(self.code)]
        self._functions: list[Function] | None = None
        self._calls: dict[str, list[Call]] = {}

    def line_of(self, pos: int) -> int:
        return bisect.bisect_left(self._lines, pos) + 1

    def offset_of(self, line: int) -> int:
        """The offset where line ``line`` (1-based) starts."""
        return 0 if line <= 1 else self._lines[min(line, len(self._lines) + 1) - 2] + 1

    def calls(self, name: str, qualified: bool = False, methods: bool = False) -> list[Call]:
        """Every call of ``name`` (a function or method name), with its top-level arguments (memoised);
        ``qualified``: also ``ns::name(...)`` / ``Class::name(...)`` calls (the position is the qualifier's);
        ``methods``: also ``x.name(...)`` / ``x->name(...)`` (the position is the name's)."""
        key = f"{name}{'::' if qualified else ''}{'.' if methods else ''}"
        hit = self._calls.get(key)
        if hit is not None:
            return hit
        out = []
        code = self.code
        for m in re.finditer(rf"{re.escape(name)}\s*{TEMPLATE_ARGS}?\(", code):
            at = m.start()
            before = code[at - 1] if at else ""
            method = methods and (before == "." or code[max(0, at - 2):at] == "->")
            if (before.isalnum() or before in "_.>") and not method:
                continue  # part of a longer name, or a method (x.name / x->name)
            start = at - 2 if before == ":" else at
            if before == ":" and code[at - 2:at] == "::" and (at < 3 or code[at - 3].isalnum() or code[at - 3] == "_"):
                if not qualified:
                    continue  # a qualified name (ns::name); a leading ::name is the global one
                q = re.search(r"(?<![\w:])(?:[A-Za-z_]\w*\s*::\s*)+$", code[max(0, at - 200):at])
                if q is None:
                    continue
                start = at - len(q.group(0))
            if _is_definition(code, start):
                continue
            args, _ = split_args(code, m.end())
            if args is None:
                continue
            out.append(Call(name, start, self.line_of(start), tuple(args), _lhs(code, start)))
        self._calls[key] = out
        return out

    @property
    def int_functions(self) -> dict[str, tuple[tuple[str, ...], str]]:
        """The one-``return`` integer functions this file and its project headers define (:func:`int_functions`;
        its own win)."""
        own = self.__dict__.get("_int_functions")
        if own is None:
            own = self._int_functions = int_functions(self.code)
        if not self.header_functions:
            return own
        merged = self.__dict__.get("_merged_functions")
        if merged is None or merged[0] is not self.header_functions:
            merged = self._merged_functions = (self.header_functions, {**self.header_functions, **own})
        return merged[1]

    def functions(self) -> list[Function]:
        """Every function definition (lambdas and constructors with initialiser lists are not seen)."""
        if self._functions is None:
            self._functions = _functions(self.code)
        return self._functions

    def enclosing(self, pos: int) -> Function | None:
        """The innermost function whose body holds ``pos``."""
        inside = [f for f in self.functions() if f.start < pos < f.end]
        return min(inside, key=lambda f: f.end - f.start) if inside else None

    def literals(self) -> list[tuple[int, str]]:
        """(offset, text) of every string literal."""
        return [(m.start(), unescape(m.group(0))) for m in STRING_LITERAL.finditer(self.code)]

    def statement_end(self, pos: int) -> int:
        """The offset of the ``;`` ending the statement that starts at ``pos`` (skipping nested brackets)."""
        depth, i, n = 0, pos, len(self.code)
        while i < n:
            c = self.code[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    return i
            elif c == '"' or c == "'":
                m = STRING_LITERAL.match(self.code, i) if c == '"' else CHAR_LITERAL.match(self.code, i)
                if m:
                    i = m.end()
                    continue
            elif c == ";" and depth == 0:
                return i
            i += 1
        return n


_ENUM = re.compile(r"\benum\b(?:\s+(?:class|struct))?(?:\s+[A-Za-z_]\w*)?\s*(?::\s*[\w\s:]+)?\{([^{}]*)\}")


def enum_constants(code: str) -> list[tuple[str, str]]:
    """(name, value expression) of every enumerator: ``enum { BLOCK = 128, N, M = BLOCK / 2 }`` ->
    ``BLOCK`` = ``128``, ``N`` = ``(BLOCK)+1``, ``M`` = ``BLOCK / 2``."""
    out = []
    for m in _ENUM.finditer(code):
        prev: str | None = None
        for item in m.group(1).split(","):
            e = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:=\s*(.+?))?\s*", item, re.S)
            if e is None:
                break  # not a plain enumerator list
            value = " ".join(e.group(2).split()) if e.group(2) else (f"({prev})+1" if prev else "0")
            out.append((e.group(1), value))
            prev = e.group(1)
    return out


_CONST = re.compile(r"^[ \t]*(?:static[ \t]+)?(?:const|constexpr)[ \t]+(?:static[ \t]+)?"
                    r"(?:(?:unsigned|signed|long|short)[ \t]+)*(?:int|long|short|unsigned|size_t|u?int(?:8|16|32|64)_t)"
                    r"[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*([^;{}\n]+);", re.M)
_INT_FUNCTION = re.compile(r"(?:(?:static|inline|constexpr|__host__|__device__|__forceinline__)\s+)+(?:const\s+)?"
                           r"(?:(?:unsigned|signed|long|short)\s+)*(?:int|long|short|unsigned|size_t|u?int(?:32|64)_t)\s+"
                           r"([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\{\s*return\s+([^;{}]+);\s*\}")


def file_constants(code: str) -> list[tuple[str, str]]:
    """(name, value expression) of the integer constants a header declares, ``const int BLOCK = 512;``: what a
    file including it sees as a macro would be."""
    return [(m.group(1), " ".join(m.group(2).split())) for m in _CONST.finditer(code)]


def int_functions(code: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """The integer functions whose body is one ``return`` (``inline int GET_BLOCKS(const int N) { return (N + 511)
    / 512; }``): name -> (parameter names, returned expression), to be written out where they are called."""
    out = {m.group(1): (tuple(_param_names(m.group(2))), " ".join(m.group(3).split()))
           for m in _INT_FUNCTION.finditer(code)} if "return" in code else {}
    return {**_arithmetic_macros(code), **out} if "#" in code else out


_ARITHMETIC = re.compile(r"[\w\s()+\-*/%<>=!?:&|^~]+")


def _arithmetic_macros(code: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """The function-like macros whose body is arithmetic over their parameters and numbers (``#define UP_DIV(x, y)
    (((x) + (y) - (1)) / (y))``), as :func:`int_functions` gives them: a size is written with them as often."""
    out = {}
    for m in _DEFINE.finditer(code):
        if not m.group(2):
            continue
        params = tuple(p.strip() for p in m.group(2)[1:-1].split(","))
        body = " ".join(m.group(3).replace("\\\n", " ").split())
        names = set(re.findall(r"\b[A-Za-z_]\w*", re.sub(r"\b\d\w*", "", body)))
        if body and _ARITHMETIC.fullmatch(body) and names <= set(params) and all(re.fullmatch(r"[A-Za-z_]\w*", p)
                                                                                 for p in params):
            out.setdefault(m.group(1), (params, body))
    return out


def inline_calls(text: str, functions: dict[str, tuple[tuple[str, ...], str]], depth: int = 0) -> str:
    """``text`` with calls of :func:`int_functions` replaced by their expression over the call's arguments."""
    if not functions or depth > 3 or "(" not in text:
        return text
    out, i = [], 0
    pat = _call_pattern(tuple(sorted(functions)))
    while (m := pat.search(text, i)) is not None:
        args, end = split_args(text, m.end())
        params, expr = functions[m.group(1)]
        if args is None or len(args) != len(params):
            out.append(text[i:m.end()])
            i = m.end()
            continue
        bind = {p: f"({inline_calls(a.strip(), functions, depth + 1)})" for p, a in zip(params, args, strict=True)}
        out.append(text[i:m.start()] + "(" + _bound(expr, bind) + ")")
        i = end
    out.append(text[i:])
    return "".join(out)


@functools.lru_cache(maxsize=64)
def _call_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.>])(" + "|".join(map(re.escape, names)) + r")\s*\(")


def _bound(expr: str, bind: dict[str, str]) -> str:
    return re.sub(r"(?<![\w.>])[A-Za-z_]\w*", lambda t: bind.get(t.group(0), t.group(0)), expr)


def _functions(code: str) -> list[Function]:
    blank = CHAR_LITERAL.sub(lambda m: " " * len(m.group(0)), STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), code))
    out, stack = [], []
    for m in re.finditer(r"[{}]", blank):
        if m.group(0) == "{":
            stack.append((m.start(), _function_head(blank, m.start())))
        elif stack:
            start, head = stack.pop()
            if head is not None:
                out.append(Function(head[0], _param_names(head[1]), start, m.end(), head[1]))
    return sorted(out, key=lambda f: f.start)


def _function_head(blank: str, brace: int) -> tuple[str, str] | None:
    """``(name, parameter text)`` when the ``{`` at ``brace`` opens a function body (bounded look-back)."""
    j = brace
    while True:
        lo = max(0, j - 4000)  # comments blanked between ``)`` and ``{`` may be long (a commented-out signature)
        k = lo + len(blank[lo:j].rstrip())
        word = re.search(r"(const|noexcept|override|final)$", blank[max(0, k - 9):k])
        if word is None:
            j = k
            break
        j = k - len(word.group(1))
    if j == 0 or blank[j - 1] != ")":
        return None
    depth, i = 0, j - 1
    while i >= max(0, j - 2000):
        c = blank[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                break
        elif c in ";{}":
            return None
        i -= 1
    else:
        return None
    # a method of a class template is qualified by it: `void ConcatLayer<Dtype>::Forward_gpu(…)`
    name = re.search(r"(?<![\w:~>])((?:[A-Za-z_]\w*\s*(?:<[^<>;{}()]*>)?\s*::\s*)*[A-Za-z_~][\w~]*)\s*$",
                     blank[max(0, i - 160):i])
    if name is None or name.group(1).split("::")[-1] in _NOT_FUNCTIONS:
        return None
    return re.sub(r"\s+", "", re.sub(r"<[^<>]*>", "", name.group(1))), blank[i + 1:j - 1]


def _param_names(params: str) -> tuple[str, ...]:
    args, _ = split_args(params + ")", 0)
    names = []
    for a in args or []:
        a = re.sub(r"=.*$", "", a, flags=re.S)
        a = re.sub(r"\[[^\]]*\]", "", a)
        words = re.findall(r"[A-Za-z_]\w*", a)
        names.append(words[-1] if len(words) >= 2 else "")
    return tuple(names)


def _is_definition(code: str, pos: int) -> bool:
    """Whether the name at ``pos`` is declared there (``cl_int clBuildProgram(...)`` in a header)."""
    before = code[max(0, pos - 80):pos].rstrip()
    return bool(re.search(r"(?:^|[\s;}])(?:extern\s+)?(?:CL_API_ENTRY\s+)?[A-Za-z_][\w:<>]*[\s*&]*(?:CL_API_CALL\s*)?$",
                          before)) and not re.search(r"\b(return|else|case|do)\s*$", before) and \
        not re.search(r"[=(,!&|?:+\-*/]\s*$", before)


def split_args(code: str, start: int) -> tuple[list[str] | None, int]:
    """The top-level comma-separated arguments from ``start`` (just after ``(``) to the matching ``)``."""
    depth, i, n, cur, args = 0, start, len(code), start, []
    while i < n:
        c = code[i]
        if c == '"':
            m = STRING_LITERAL.match(code, i)
            if m:
                i = m.end()
                continue
        elif c == "'":
            m = CHAR_LITERAL.match(code, i)
            if m:
                i = m.end()
                continue
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                last = code[cur:i].strip()
                if last or args:
                    args.append(last)
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(code[cur:i].strip())
            cur = i + 1
        elif c == ";" and depth == 0:
            return None, i
        i += 1
    return None, n


def _lhs(code: str, pos: int) -> str | None:
    """``x`` in ``x = f(...)`` / ``cl_kernel x = f(...)`` / ``auto *x = f(...)`` (the call at ``pos``)."""
    m = re.search(r"([A-Za-z_][\w.\->\[\]]*)\s*=\s*(?:\([\w\s*]+\)\s*)?$", code[max(0, pos - 200):pos])
    return m.group(1) if m else None


def split_top_level(text: str, sep: str) -> list[str]:
    """The non-empty operands of ``text`` split at ``sep`` outside brackets and string literals."""
    parts, depth, cur, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            m = STRING_LITERAL.match(text, i)
            if m:
                i = m.end()
                continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[cur:i])
            cur = i = i + len(sep)
            continue
        i += 1
    parts.append(text[cur:])
    return [p for p in parts if p.strip()]


def first_declarator(text: str) -> str:
    """The initializer of the first declarator of ``size_t global = 1024, local = 128`` (text up to the first
    top-level comma; commas inside brackets and strings are kept)."""
    items, _ = split_args(text + ")", 0)
    return items[0] if items else text


def declares(code: str, pos: int) -> bool:
    """Whether the name at ``pos`` follows a type (``std::string opts(...)``, ``size_t g[2]{...}``), or is a
    later declarator of a declaration (``size_t g[1] = {N}, l[1] = {64}``)."""
    before = code[max(0, pos - 60):pos]
    if re.search(r",\s*$", before):
        return later_declarator(code, pos)
    m = re.search(r"[A-Za-z_][\w:<>]*([\s*&]+)$", before)
    if m is None or re.search(r"\b(return|case)\s+$", before):
        return False
    if "*" in m.group(1) or "&" in m.group(1):  # ``float *p`` or ``n * x[0]``: a declaration starts a statement
        lead = re.search(r"(?:(?:const|static|volatile|unsigned|signed|long|short|struct|class|enum)\s+)*$",
                         before[:m.start()])
        head = before[:m.start() - len(lead.group(0)) if lead else m.start()].rstrip()
        return not head or head[-1] in ";{}(,>" or m.start() == 0
    return True


def later_declarator(code: str, pos: int) -> bool:
    """Whether the statement holding ``pos`` (after a top-level comma) starts with ``TYPE name``."""
    depth, i, lo = 0, pos - 1, max(0, pos - 400)
    while i >= lo:
        c = code[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                break  # an argument list or a block: the statement starts after it
            depth -= 1
        elif c == ";" and depth == 0:
            break
        i -= 1
    stmt = code[i + 1:pos].strip()
    return bool(re.match(r"(?:(?:const|static|constexpr|unsigned|signed|long|short)\s+)*[A-Za-z_][\w:<>]*[\s*&]+"
                         r"[A-Za-z_]\w*", stmt)) and not re.match(r"(?:return|case|if|while|for|else)\b", stmt)


def unparen(expr: str) -> str:
    """``expr`` without the parentheses around all of it (``((a) * b)`` -> ``(a) * b``; ``(a)*(b)`` stays)."""
    e = expr.strip()
    while e.startswith("(") and e.endswith(")") and split_args(e, 1)[1] == len(e):
        e = e[1:-1].strip()
    return e


def strip_casts(e: str) -> str:
    e = re.sub(r"^\(\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?[A-Za-z_]\w*\s*\**\s*\)\s*(?=[\w(\"&])", "", e)
    e = re.sub(r"\b(?:static_cast|reinterpret_cast|const_cast)\s*<[^<>]*>\s*", "", e)
    return e.strip()


def dim3_parts(inside: str) -> list[str] | None:
    """The three components of ``dim3(a, b)`` / ``{a, b}`` from the text inside the brackets (``a, b``), the
    missing ones 1; ``None`` unless it holds one to three."""
    items = [i.strip() for i in split_args(inside + ")", 0)[0] or [] if i.strip()]
    return items + ["1"] * (3 - len(items)) if 1 <= len(items) <= 3 else None


_KERNEL_DEF = re.compile(r"\b(?:__global__|__kernel|kernel)\b")


def kernel_names(text: str, bodies: bool = False) -> list[str]:
    """The names of the kernels a file defines (``__global__ … name(``, ``__kernel … name(``), lexically; with
    ``bodies``, only those with a body here (``name(…) {``), not the declarations of kernels defined elsewhere."""
    out = []
    for m in _KERNEL_DEF.finditer(text):
        head = text[m.end():m.end() + 400]
        head = re.sub(r"__(?:launch_bounds__|attribute__)\s*\((?:[^()]|\([^()]*\))*\)", " ", head)
        cut = re.search(r"[;{}(]", head)
        if cut is None or cut.group(0) != "(" or bodies and not re.match(r"\([^;{}]*\)\s*\{", head[cut.start():]):
            continue
        name = re.search(r"([A-Za-z_]\w*)\s*(?:<[^<>]*>)?\s*$", head[:cut.start()])
        if name is not None and name.group(1) not in out:
            out.append(name.group(1))
    return out
