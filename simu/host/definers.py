"""Helpers that make one ``-D`` build option from a name and a value, and the type names host code picks per
template instantiation.

OpenCL libraries build each ``.cl`` once per element type and assemble the options with helpers of their own: a
function returning ``"-D" + name + "=" + value``, called as ``define("T", type_name<T>())``, or a macro
stringifying its parameter after a ``" -D "`` literal (``#define DEF(key, v) " -D " #key "=" + str(v)``, used as
``DEF(T, traits<T>::name())``).  A *definer* is recognised by what its body does -- a ``-D`` literal followed by a
parameter, in a function whose body is one ``return`` or in a function-like macro --, never by its name, and is
written out where it is called (:func:`expand`): option harvesting (:class:`simu.host.options.OptionHarvest`) then
reads ``-DT=<value>``, and the project's ``-D`` hints (:func:`simu.host.options.define_hints`) name ``T`` as a
build-option macro.  Definers of the project headers a host file includes come with the headers' one-return
functions (:meth:`simu.host.headermacros.HeaderMacros.functions`).

A value naming a C++ type (``type_name<T>()``, ``traits<T>::name()``, ``traits<T>::name``) is read where the
type is known -- written in, or a type parameter bound to one instantiation of the function template that builds
(``run<float>``: :attr:`simu.host.cvalues.Evaluator.types`) -- from the explicit specialization for that type in
the same file that returns a string literal (``template <> const char *type_name<float>() { return "float"; }``):
:func:`type_spelling`.  Anything else (``typeid(T).name()``, a mangled name; a specialization in another file or
made by a macro) stays a hole, whose value the scan chooses (:mod:`simu.scan.assume`).
"""

from __future__ import annotations

import functools
import re

from simu.frontend.ctext import C_STRING, STRING_LITERAL
from simu.host.cscan import CSource, split_args, unescape
from simu.host.launchmacros import FUNCTION_MACRO

Definer = tuple[tuple[str, ...], str]  # parameters, the option expression (``#p``: p stringified)
MAX_DEPTH = 3

_KEYWORDS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "catch", "defined"})
_ONE_RETURN = re.compile(r"\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(?:const\s*)?(?:noexcept\s*)?"
                         r"\{\s*return\s+([^;{}]+);\s*\}")
# a literal ending in -D (also inside std::string("-D")), then the parameter: + p, << p, #p, p
_D_THEN = re.compile(r'"(?:[^"\\\n]|\\.)*-D\s*"\s*\)?\s*(?:\+|<<)?\s*#?\s*(?:(?:std\s*::\s*)?string\s*)?\(?\s*'
                     r"([A-Za-z_]\w*)")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def definers(code: str) -> dict[str, Definer]:
    """The definers of ``code`` (comment-free): name -> (parameters, the option expression)."""
    out: dict[str, Definer] = {}
    if "-D" not in code:
        return out
    for m in _ONE_RETURN.finditer(code):
        if m.group(1) in _KEYWORDS:
            continue
        params = _param_names(m.group(2))
        expr = " ".join(m.group(3).split())
        if is_definer((params, expr)):
            out.setdefault(m.group(1), (params, expr))
    for m in FUNCTION_MACRO.finditer(code):
        params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
        body = " ".join(m.group(3).replace("\\\n", " ").split())
        if "..." not in params and is_definer((params, body)):
            out.setdefault(m.group(1), (params, body))
    return out


def is_definer(d: Definer) -> bool:
    """Whether ``d``'s expression writes ``-D`` followed by one of its parameters (``+ p``; a macro's ``#p``)."""
    params, expr = d
    return any(m.group(1) in params for m in _D_THEN.finditer(expr))


def definers_of(src: CSource) -> dict[str, Definer]:
    """The definers ``src`` may call: its own and those of its project headers (its own win); memoised."""
    own = src.__dict__.get("_definers")
    if own is None:
        own = src._definers = definers(src.code)  # type: ignore[attr-defined]
    if not src.header_functions:
        return own
    merged = src.__dict__.get("_merged_definers")
    if merged is None or merged[0] is not src.header_functions:
        header = {k: v for k, v in src.header_functions.items() if "-D" in v[1] and is_definer(v)}
        merged = src._merged_definers = (src.header_functions, {**header, **own})  # type: ignore[attr-defined]
    return merged[1]


def definer_calls(src: CSource) -> list[tuple[int, str]]:
    """(offset, written-out text) of every definer call of ``src`` outside preprocessor lines."""
    found = definers_of(src)
    out = []
    for name in found:
        for c in src.calls(name):
            if src.code[src.code.rfind("\n", 0, c.pos) + 1:c.pos].lstrip().startswith("#"):
                continue
            text = expand(f"{name}({', '.join(c.args)})", found)
            if text is not None:
                out.append((c.pos, text))
    return sorted(out)


def expand(text: str, found: dict[str, Definer], depth: int = 0) -> str | None:
    """``text`` with every call of a definer written out (a macro's ``#p`` as a string literal of the argument,
    every other use of a parameter as the parenthesised argument); ``None`` when nothing in it is one."""
    if depth > MAX_DEPTH or not found:
        return None
    pat = _call_pattern(tuple(sorted(found)))
    out, i, changed = [], 0, False
    while (m := pat.search(text, i)) is not None:
        args, end = split_args(text, m.end())
        params, expr = found[m.group(1)]
        if args is None or len(args) != len(params):
            out.append(text[i:m.end()])
            i = m.end()
            continue
        bound = dict(zip(params, (" ".join(a.split()) for a in args), strict=True))
        out.append(text[i:m.start()] + "(" + _bind(expr, bound) + ")")
        i, changed = end, True
    if not changed:
        return None
    out.append(text[i:])
    text = "".join(out)
    return expand(text, found, depth + 1) or text


@functools.lru_cache(maxsize=64)
def _call_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.>])(" + "|".join(map(re.escape, names)) + r")\s*\(")


def _bind(expr: str, bound: dict[str, str]) -> str:
    """``expr`` with its parameters bound, string literals untouched."""
    pieces, last = [], 0
    for m in STRING_LITERAL.finditer(expr):
        pieces += [_bind_code(expr[last:m.start()], bound), m.group(0)]
        last = m.end()
    return "".join([*pieces, _bind_code(expr[last:], bound)])


def _bind_code(code: str, bound: dict[str, str]) -> str:
    strings: list[str] = []

    def stringified(m: re.Match[str]) -> str:
        if m.group(1) not in bound:
            return m.group(0)
        strings.append(_c_string(bound[m.group(1)]))
        return f"\0{len(strings) - 1}\0"

    code = re.sub(r"#\s*([A-Za-z_]\w*)", stringified, code)
    code = re.sub(r"(?<!\w)[A-Za-z_]\w*", lambda m: f"({bound[m.group(0)]})" if m.group(0) in bound else m.group(0),
                  code)
    return re.sub(r"\0(\d+)\0", lambda m: strings[int(m.group(1))], code)


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _param_names(params: str) -> tuple[str, ...]:
    args, _ = split_args(params + ")", 0)
    names = []
    for a in args or []:
        a = re.sub(r"=.*$", "", a, flags=re.S)
        words = _IDENT.findall(re.sub(r"\[[^\]]*\]", "", a))
        names.append(words[-1] if len(words) >= 2 else "")
    return tuple(names)


# ---------------------------------------------------------------------------------------------------------
# type names: type_name<T>(), traits<T>::name(), traits<T>::name

_TYPE_NAME = re.compile(r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*<\s*([A-Za-z_][\w\s:]*?)\s*>\s*"
                        r"(?:::\s*([A-Za-z_]\w*)\s*)?(\(\s*\))?")


def type_spelling(src: CSource, expr: str, types: dict[str, str]) -> str | None:
    """The string a type-name expression gives for the type it names (a type parameter bound in ``types``), read
    from the explicit specialization in ``src`` that returns a literal; ``None`` when it is none or not found."""
    e = re.sub(r"(?:\s*(?:\.|->)\s*(?:c_str|data)\s*\(\s*\))+$", "", expr.strip()).strip()
    m = _TYPE_NAME.fullmatch(e)
    if m is None or not (m.group(3) or m.group(4)):
        return None
    holder, member = m.group(1), m.group(3)
    ty = " ".join(types.get(w, w) for w in m.group(2).split())
    found = _specialised(src, holder, member, ty, bool(m.group(4)))
    if found is None and (api := _CL_API_TYPE.fullmatch(ty)):
        return api.group(1)  # traits<cl_uint>::type, its specializations out of sight (a macro, another file): uint
    return found


# the host API's scalar types name the OpenCL C type of the same name (cl_uint: uint)
_CL_API_TYPE = re.compile(r"cl_(char|uchar|short|ushort|int|uint|long|ulong|float|double|half)")


def _specialised(src: CSource, holder: str, member: str | None, ty: str, call: bool) -> str | None:
    spelled = r"\s*<\s*" + r"\s+".join(map(re.escape, ty.split())) + r"\s*>"
    code = src.code
    if member is None:  # a function template specialised per type
        f = re.search(rf"template\s*<\s*>[^;{{}}]*?\b{re.escape(holder)}{spelled}\s*\(\s*\)\s*(?:const\s*)?"
                      rf"(?:noexcept\s*)?\{{\s*return\s+({C_STRING})\s*;", code, re.S)
        return unescape(f.group(1)) if f else None
    s = re.search(rf"template\s*<\s*>\s*(?:struct|class)\s+{re.escape(holder)}{spelled}\s*(?::[^{{;]*)?\{{", code)
    if s is None:
        return None
    body = code[s.end():_body_end(code, s.end())]
    mm = re.escape(member)
    f = re.search(rf"\b{mm}\s*\(\s*\)\s*(?:const\s*)?(?:noexcept\s*)?\{{\s*return\s+({C_STRING})\s*;",
                  body, re.S) if call else \
        re.search(rf"\b{mm}\s*(?:\[\s*\d*\s*\])?\s*(?:=\s*|\{{\s*)({C_STRING})", body, re.S)
    return unescape(f.group(1)) if f else None


def _body_end(code: str, start: int) -> int:
    depth, i = 1, start
    while i < len(code) and depth:
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        i += 1
    return i
