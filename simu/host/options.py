"""Build options that host code assembles at run time rather than writes as one literal.

``clBuildProgram`` options (and the ``#define`` lines some hosts prepend to the kernel source) are often
built in C++: ``std::ostringstream o; o << "-DLROWS=" << lRows;``, ``flags = base + " -DN=" +
std::to_string(n)``, ``sprintf(buf, "-DTILE=%d", tile)``, ``opts += "..."``, a parameter of the function
that builds the program (``runTest(..., "-DSINGLE_PRECISION")``), a project's helper making one ``-D`` option
(``define("T", type_name<T>())``: :mod:`simu.host.definers`), or a list of option strings
(``options.push_back(...)``, ``std::vector<std::string> o = {a, b}``) passed to a function that joins it
(``join(options)``: read as the elements separated by spaces).  :class:`OptionHarvest` reads such an
expression *partially*: every piece it cannot evaluate becomes :data:`HOLE` (``-DLROWS=@?@``: the host
defines ``LROWS``, with a value simu does not know), a piece that is a parameter of the enclosing function
becomes :func:`param_marker` (filled in at the call sites of that function), and a string variable assigned
different literals in different branches gives one alternative per literal (at most
:data:`MAX_ALTERNATIVES`).  Which value a hole gets is the scan's decision (:mod:`simu.scan.flags`), made
visible as an assumption.
"""

from __future__ import annotations

import re
from itertools import product

from simu.host.cscan import Call, CSource, split_args, split_top_level
from simu.host.cvalues import Evaluator, split_plus, strip_casts
from simu.host.definers import definer_calls, definers_of, expand, type_spelling

HOLE = "@?@"  # a value the host computes at run time
MAX_ALTERNATIVES = 3  # option strings one build site yields (precision passes: single, double, ...)
MAX_DEPTH = 6
_PARAM = re.compile(r"@P(\d+)@")
# std::to_string and projects' own: toString (shoc), intToString, num_to_string, IntToStr
_TO_STRING = re.compile(r"(?:std::)?(?:to_string|(?:[A-Za-z_]\w*)?[tT]o_?[sS]tring|[A-Za-z_]*[iI]nt[tT]o[sS]tr)"
                        r"\s*\((.*)\)", re.S)
# parts of an identifier that holds a kernel's source text (cl_source_gemmN, ethash_cl, sort_kernel_src)
SOURCE_WORDS = frozenset({"cl", "ocl", "opencl", "source", "src", "kernel", "kernels", "code", "str", "text",
                          "program", "prog"})


def param_marker(index: int) -> str:
    """The stand-in for the value of the enclosing function's parameter ``index``."""
    return f"@P{index}@"


def param_indices(text: str) -> list[int]:
    return [int(i) for i in _PARAM.findall(text)]


def without_params(text: str) -> str:
    """Option text whose unresolved parameter stand-ins are unknown values."""
    return _PARAM.sub(HOLE, text)


class OptionHarvest:
    """Partial values of string expressions at a point of a :class:`CSource` (see the module's text)."""

    def __init__(self, src: CSource, ev: Evaluator | None = None):
        self.src = src
        self.ev = ev or Evaluator(src)

    def values(self, expr: str, pos: int, depth: int = 0) -> list[str]:
        """The possible values of ``expr`` at ``pos`` (holes and parameter stand-ins inside), first first."""
        if depth > MAX_DEPTH:
            return [HOLE]
        e = strip_casts(expr.strip())
        e = re.sub(r"(?:\s*(?:\.|->)\s*(?:c_str|data|str)\s*\(\s*\))+$", "", e).strip()
        if re.fullmatch(r"[A-Za-z_]\w*", e) and e not in self.src.macros:
            return self.variable(e, pos, depth)
        parts = split_plus(e)
        if parts is None:
            return [HOLE]
        out = [""]
        for part in parts:
            alts = self._part(part.strip(), pos, depth)
            out = _dedupe(a + b for a, b in product(out, alts))
        return out

    def _part(self, part: str, pos: int, depth: int) -> list[str]:
        name = re.sub(r"(?:\s*(?:\.|->)\s*(?:c_str|data|str)\s*\(\s*\))+$", "", part).strip()
        if re.fullmatch(r"[A-Za-z_]\w*", name) and name not in self.src.macros:
            return self.variable(name, pos, depth)
        v = self.ev.str_value(part, pos)
        if v is not None:
            return [v]
        if "(" in part and (written := expand(part, definers_of(self.src))) is not None:
            return self.values(written, pos, depth + 1)  # define("T", x): "-D" + ("T") + "=" + (x)
        v = type_spelling(self.src, part, self.ev.types)
        if v is not None:
            return [v]
        m = _LIST_CALL.fullmatch(part)
        if m and self._is_list(m.group(1), pos):
            return self.variable(m.group(1), pos, depth + 1)
        m = _TO_STRING.fullmatch(part)
        if m:
            return [self._number_text(m.group(1), pos)]
        m = re.fullmatch(r"(?:std::)?(?:string|String)\s*[({]\s*(.*?)\s*[)}]", part, re.S)
        if m:
            return self.values(m.group(1), pos, depth + 1)
        if part.startswith("(") and part.endswith(")"):
            return self.values(part[1:-1], pos, depth + 1)
        n = self.ev.int_value(part, pos)
        return [str(n)] if n is not None else [HOLE]

    def _number_text(self, expr: str, pos: int) -> str:
        n = self.ev.int_value(expr, pos)
        if n is not None:
            return str(n)
        s = self.ev.str_value(expr, pos)
        if s is None:
            s = type_spelling(self.src, expr.strip().removeprefix("(").removesuffix(")"), self.ev.types)
        return s if s is not None else HOLE

    def _is_list(self, name: str, pos: int) -> bool:
        """Whether ``name`` is a list of strings in the function enclosing ``pos``: declared a vector, list, deque
        or array, or appended to with ``push_back``/``emplace_back``."""
        f = self.src.enclosing(pos)
        lo = f.start - len(f.params_text) - 80 if f is not None else pos - 4000
        n = re.escape(name)
        pat = rf"\b(?:vector|list|deque|array)\s*<[^;{{}}]*>\s*[&\s]\s*{n}\b|" \
              rf"(?<![\w.>]){n}\s*(?:\.|->)\s*(?:push_back|emplace_back)\s*\("
        return re.search(pat, self.src.code[max(0, lo):pos]) is not None

    def variable(self, name: str, pos: int, depth: int = 0) -> list[str]:
        """A string (or stream, or character buffer) variable's possible values at ``pos``, read from its
        definition, assignments, appends, ``<<`` and ``sprintf``-family writes in the enclosing function."""
        code = self.src.code
        f = self.src.enclosing(pos)
        lo = f.start if f is not None else 0
        n = re.escape(name)
        events: list[tuple[int, str, object]] = []
        if f is not None and name in f.params:
            events.append((lo, "set", [param_marker(f.params.index(name))]))
        pat = re.compile(rf"(?<![\w.>])({n})\s*(?:\[[^\]]*\]\s*)?(=(?!=)|\+=|<<|\{{|\()")
        for m in pat.finditer(code, lo, pos):
            op = m.group(2)
            start = m.end() if op in ("=", "+=") else (m.start(2) if op == "<<" else m.end() - 1)
            end = self.src.statement_end(start)
            if end > pos:
                continue
            text = code[start:end].strip()
            if op == "<<":
                events.append((m.start(), "stream", _stream_pieces(text)))
            elif op in ("{", "("):
                if not re.search(r"[A-Za-z_][\w:<>]*[\s*&]+$", code[max(0, m.start() - 60):m.start()]):
                    continue
                inner = text[1:-1].strip()
                if inner and op == "{" and "," in inner:  # std::vector<std::string> o{a, b}
                    events.append((m.start(), "set", text))
                elif inner and not re.fullmatch(r"\d+", inner):  # char buf[256] / std::string s(n, c) aside
                    events.append((m.start(), "set", inner))
            elif re.fullmatch(r"\{\s*0?\s*\}", text):  # char buf[256] = {0}
                events.append((m.start(), "declare", ""))
            else:
                events.append((m.start(), "append" if op == "+=" else "set", text))
        for m in re.finditer(rf"(?:ostringstream|stringstream|string|String)\s+{n}\s*;", code[lo:pos]):
            events.append((lo + m.start(), "declare", ""))
        for fn, kind in (("strcat", "append"), ("strncat", "append"), ("strcpy", "set"), ("strncpy", "set"),
                         ("sprintf", "format"), ("snprintf", "nformat"), ("sprintf_s", "nformat")):
            for c in self.src.calls(fn):
                if lo <= c.pos < pos and c.args and c.args[0].strip() == name:
                    events.append((c.pos, kind, c.args))
        for m in re.finditer(rf"(?<![\w.>]){n}\s*(?:\.|->)\s*append\s*\(", code[lo:pos]):
            args, _ = split_args(code, lo + m.end())
            if args:
                events.append((lo + m.start(), "append", args[0]))
        for m in re.finditer(rf"(?<![\w.>]){n}\s*(?:\.|->)\s*(?:push_back|emplace_back)\s*\(", code[lo:pos]):
            args, _ = split_args(code, lo + m.end())
            if args and len(args) == 1:
                events.append((lo + m.start(), "element", args[0]))
        if not events:  # a global, a constant, a number
            v = self.ev.str_value(name, pos)
            n = self.ev.int_value(name, pos) if v is None else None
            return [v] if v is not None else [str(n)] if n is not None else [HOLE]
        events.sort(key=lambda e: e[0])
        value: list[str] = []
        last = ""
        for at, kind, payload in events:
            if kind == "declare":
                value = [""]
            elif kind == "stream":
                add = [""]
                for piece in payload:  # type: ignore[union-attr]
                    add = _dedupe(a + b for a, b in product(add, self._stream_piece(piece, at, depth)))
                value = _dedupe(a + b for a, b in product(value or [""], add))
            elif kind == "element":  # one more option string of a list
                alts = self.values(payload, at, depth + 1)  # type: ignore[arg-type]
                value = _dedupe(f"{a} {b}" if a else b for a, b in product(value or [""], alts))
            elif kind in ("set", "append"):
                alts = payload if isinstance(payload, list) else \
                    self._elements(payload, at, depth) if isinstance(payload, str) and _is_brace_list(payload) else \
                    self.values(payload if isinstance(payload, str) else payload[1], at, depth + 1)
                if kind == "append":
                    value = _dedupe(a + b for a, b in product(value or [""], alts))
                elif last == "set" and value:  # assigned in several branches: each is a possibility
                    value = _dedupe([*value, *alts])
                else:
                    value = list(alts)
            else:
                args = payload[1:] if kind == "format" else payload[2:]  # type: ignore[index]
                value = [self.format(tuple(args), at)]
            last = kind
        return value or [HOLE]

    def _elements(self, braces: str, pos: int, depth: int) -> list[str]:
        """A brace list of option strings (``{define("T", t), "-DN=4"}``), its elements separated by spaces."""
        out = [""]
        for e in split_top_level(braces.strip()[1:-1], ","):
            out = _dedupe(f"{a} {b}" if a else b for a, b in product(out, self.values(e, pos, depth + 1)))
        return out

    def _stream_piece(self, piece: str, pos: int, depth: int) -> list[str]:
        p = piece.strip()
        if re.fullmatch(r"(?:std::)?endl", p):
            return ["\n"]
        if re.fullmatch(r"(?:std::)?(?:hex|dec|fixed|scientific|setw\s*\(.*\)|setprecision\s*\(.*\))", p, re.S):
            return [""]
        n = self.ev.int_value(p, pos)
        if n is not None:
            return [str(n)]
        return self._part(p, pos, depth + 1)

    def format(self, args: tuple[str, ...], pos: int) -> str:
        """``sprintf``'s result with its format and arguments; an argument it cannot evaluate is a hole."""
        if not args:
            return HOLE
        fmt = self.ev.str_value(args[0], pos)
        if fmt is None:
            return HOLE
        rest = list(args[1:])
        conv = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?([diouxXfFeEgGcs%])")

        def one(m: re.Match[str]) -> str:
            if m.group(1) == "%":
                return "%"
            if not rest:
                return HOLE
            a = rest.pop(0)
            if m.group(1) == "s":
                v = self.values(a, pos, MAX_DEPTH - 1)
                return v[0] if len(v) == 1 else HOLE
            n = self.ev.int_value(a, pos)
            return str(n) if n is not None else HOLE

        return conv.sub(one, fmt)


# a call of one list of option strings, maybe with a separator: join(options), util::join(opts, " ")
_LIST_CALL = re.compile(r"(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*\s*\(\s*([A-Za-z_]\w*)\s*"
                        r"(?:,\s*(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'))?\s*\)")


def _is_brace_list(text: str) -> bool:
    t = text.strip()
    return t.startswith("{") and t.endswith("}") and bool(t[1:-1].strip())


def _stream_pieces(text: str) -> list[str]:
    """The operands of ``<< a << b`` (``text`` starts at the first ``<<``)."""
    return split_top_level(text, "<<")


def _dedupe(items) -> list[str]:
    out = list(dict.fromkeys(items))
    return out[:MAX_ALTERNATIVES]


# ---------------------------------------------------------------------------------------------------------
# calls, source identifiers, prepended #defines, the project's -D names


def template_calls(src: CSource, name: str) -> list[Call]:
    """``name(...)`` and ``name<T>(...)`` calls (the plain ones from :meth:`CSource.calls`)."""
    out = [c for c in src.calls(name) if not re.search(r"#\s*define\s+$", src.code[max(0, c.pos - 40):c.pos])]
    for m in re.finditer(rf"(?<![\w.>:]){re.escape(name)}\s*<[^;(){{}}]*>\s*\(", src.code):
        args, _ = split_args(src.code, m.end())
        if args is not None:
            out.append(Call(name, m.start(), src.line_of(m.start()), tuple(args)))
    return sorted(out, key=lambda c: c.pos)


def source_identifiers(src: CSource, program: str, pos: int) -> tuple[str, ...]:
    """Identifiers that look like a kernel's embedded source (``cl_source_gemmN``, ``ethash_cl``) in the
    statement that creates ``program`` before ``pos``, else anywhere in the enclosing function before it."""
    f = src.enclosing(pos)
    lo = f.start if f is not None else max(0, pos - 4000)
    body = src.code[lo:pos]
    prog = re.escape(program.strip().lstrip("&*"))
    if prog:
        for m in reversed(list(re.finditer(rf"[^;{{}}]*\b{prog}\b[^;{{}}]*;", body))):
            found = _source_like(m.group(0))
            if found:
                return found
    return _source_like(body)


def _source_like(text: str) -> tuple[str, ...]:
    out = []
    for w in re.findall(r"(?<![\w\"])[A-Za-z_]\w*", text):
        parts = [p for p in w.lower().split("_") if p]
        if len(parts) >= 2 and any(p in SOURCE_WORDS for p in parts) and not all(p in SOURCE_WORDS for p in parts):
            out.append(w)
    return tuple(dict.fromkeys(out))[:32]


def names_source(identifier: str, stem: str) -> bool:
    """Whether ``identifier`` (``cl_source_gemmN``) names the source of ``stem``.cl (``gemmN``): the stem's
    ``_``-separated words at its start or end, every other word a source word (:data:`SOURCE_WORDS`)."""
    parts = [p for p in identifier.split("_") if p]
    words = [p for p in stem.split("_") if p]
    if not words or len(parts) <= len(words):
        return False
    for rest in (parts[len(words):] if parts[:len(words)] == words else None,
                 parts[:-len(words)] if parts[-len(words):] == words else None):
        if rest and all(p.lower() in SOURCE_WORDS for p in rest):
            return True
    return False


def define_functions(src: CSource) -> dict[str, tuple[int, int]]:
    """Functions that prepend ``#define NAME VALUE`` to a source string: name -> (index of the name parameter,
    index of the value parameter), from a ``"#define %s %u..."`` format inside their body."""
    out = {}
    for f in src.functions():
        body = src.code[f.start:f.end]
        if "#define" not in body:
            continue
        for c in src.calls("sprintf") + src.calls("snprintf"):
            if not f.start < c.pos < f.end:
                continue
            fmt_at = 1 if c.name == "sprintf" else 2
            fmt = Evaluator(src).str_value(c.args[fmt_at], c.pos) if len(c.args) > fmt_at + 2 else None
            if not fmt or not re.match(r"\s*#\s*define\s+%s\s+%", fmt):
                continue
            names = [a.strip() for a in c.args[fmt_at + 1:fmt_at + 3]]
            if all(n in f.params for n in names):
                out[f.name.split("::")[-1]] = (f.params.index(names[0]), f.params.index(names[1]))
    return out


def prepended_defines(src: CSource, ev: Evaluator, pos: int, functions: dict[str, tuple[int, int]]) -> list[str]:
    """``-DNAME=VALUE`` options for the unconditional calls of ``#define``-prepending functions in the function
    enclosing ``pos``, before it (a value it cannot evaluate is a hole)."""
    f = src.enclosing(pos)
    if f is None:
        return []
    out = []
    for fn, (ni, vi) in functions.items():
        for c in src.calls(fn):
            if not f.start < c.pos < pos or max(ni, vi) >= len(c.args):
                continue
            if re.search(r"\b(?:if|else)\b[^;{}]*$", src.code[max(f.start, c.pos - 200):c.pos]):
                continue  # a configuration the host chooses at run time
            name = ev.str_value(c.args[ni], c.pos)
            if not name or not re.fullmatch(r"[A-Za-z_]\w*", name):
                continue
            v = ev.int_value(c.args[vi], c.pos)
            out.append((c.pos, f"-D{name}={v if v is not None else HOLE}"))
    return [o for _, o in sorted(out)]


_HINT = re.compile(r"-D\s*([A-Za-z_]\w*)(\([\w\s,]*\)(?==))?(=?)")  # a function-like one: -DOP(a,b)=(a+b)


def define_hints(src: CSource) -> tuple[str, ...]:
    """Every ``-DNAME`` in the file's string literals: ``NAME=VALUE`` when the literal gives a constant value,
    ``NAME=@?@`` when the value follows at run time, ``NAME`` when it has none; and every ``-DNAME`` a call of a
    project helper makes (``define("T", type_name<T>())``, ``DefineKeyValue(T, …)``: :mod:`simu.host.definers`),
    its value read where the call stands."""
    out: list[str] = []
    if "-D" not in src.code and not definers_of(src):
        return ()
    for _, text in src.literals():
        if "-D" not in text or len(text) > 4096:
            continue
        out += _hints_in(text)
    calls = definer_calls(src)
    if calls:
        harvest = OptionHarvest(src)
        for pos, text in calls:
            for value in harvest.values(text, pos):
                out += [h for h in _hints_in(without_params(value)) if "@" not in h.partition("=")[0]]
    return tuple(dict.fromkeys(out))


def _hints_in(text: str) -> list[str]:
    out = []
    for m in _HINT.finditer(text):
        rest = text[m.end():]
        if not m.group(3):
            out.append(m.group(1))
            continue
        v = re.match(r"[^\s\"]+", rest)
        value = v.group(0) if v and '%' not in v.group(0) and '@' not in v.group(0) else HOLE
        # `NAME=(a,b)=(a+b)` for `-DNAME(a,b)=(a+b)`: the parameters lead the value (assume.define writes it back)
        out.append(f"{m.group(1)}={m.group(2).replace(' ', '')}={value}" if m.group(2) else f"{m.group(1)}={value}")
    return out
