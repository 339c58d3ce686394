"""Which launch arguments the host computes from program state simu does not read.

A scalar argument the host passes but simu cannot evaluate stays searched.  Where its text reads the program's
state -- a struct or object member (``l.c``, ``top[0]->shape(axis)``, a C++ member ``num_``), an array element, a
global variable, the result of a call -- the program's own invariants decide its value (caffe's Concat passes
``top_concat_axis`` and ``bottom_concat_axis``, two blob shapes its Reshape keeps in order), and the search's
value for it is no launch the program is known to make.  An argument that is a parameter of the function making
the launch (a wrapper nobody in the project calls: any caller may pass any value), or comes from the command
line, is input, not state.  :func:`state_source` tells them apart; the severity refutation
(:mod:`simu.evolve.refute_state`) then asks whether an error hinges on the order of such values."""

from __future__ import annotations

import re

from simu.host.cscan import unparen
from simu.host.cvalues import Evaluator
from simu.host.relations import expand_locals

_MEMBER = re.compile(r"(?:[A-Za-z_]\w*|[)\]])\s*(?:\.|->)\s*[A-Za-z_]")  # l.c, p->n, f().x, a[0].n
_ELEMENT = re.compile(r"(?:[A-Za-z_]\w*|[)\]])\s*\[")  # sizes[i]
_CALL = re.compile(r"(?<![\w.>])([A-Za-z_][\w:]*)\s*\(")
_NAME = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\b(?!\s*\()")
# what the program is given rather than what it keeps: the command line, the environment, the user
_INPUT = re.compile(r"\b(?:argv|optarg|getenv|atoi|atol|strtol|stoi|scanf|cin)\b")
_PURE = frozenset((  # calls and words whose value is the arithmetic of what they are given
    "sizeof", "min", "max", "std::min", "std::max", "fmin", "fmax", "fminf", "fmaxf", "abs", "std::abs", "ceil",
    "floor", "sqrt", "log2", "ceilf", "floorf", "sqrtf", "lround", "round", "int", "unsigned", "long", "short",
    "char", "float", "double", "size_t", "int64_t", "uint64_t", "int32_t", "uint32_t", "signed", "const",
    "static_cast", "dim3", "true", "false", "nullptr", "NULL"))
_SHOWN = 80  # characters of a host text kept for a finding's message


def state_source(ev: Evaluator, pos: int, text: str) -> str:
    """``text`` (a launch argument at ``pos``) as the host writes it, with what it is computed from when that is
    not its own text, if its value comes from program state (see the module); ``""`` for input or constants."""
    src = ev.src
    t = re.sub(r"^\(\s*(?:const\s+)?void\s*\*\s*\)\s*", "", text.strip()).lstrip("&").strip()
    fn = src.enclosing(pos)
    if not t or fn is None or _INPUT.search(t):
        return ""
    expanded = expand_locals(src, ev, fn, pos, t)
    if _INPUT.search(expanded):
        return ""
    body = src.code[fn.start:fn.end]
    state = bool(_MEMBER.search(expanded) or _ELEMENT.search(expanded)) \
        or any(c.group(1) not in _PURE for c in _CALL.finditer(expanded)) \
        or any(n not in fn.params and n not in _PURE and n not in src.macros and not _declared(body, n)
               for n in (x.removeprefix("__local_") for x in _NAME.findall(expanded)))
    if not state:
        return ""
    shown = unparen(" ".join(t.replace("__local_", "").split()))  # a wrapper's local with no single value: its name
    written = unparen(" ".join(expanded.replace("__local_", "").split()))
    if written != shown:
        shown = f"{shown} = {written}"
    return shown if len(shown) <= _SHOWN else shown[:_SHOWN - 3] + "..."


_QUALIFIERS = r"(?:(?:const|static|unsigned|signed|long|short|volatile|constexpr|register|auto)\s+)*"
# what a declaration's statement holds before one of its names: a type, then earlier declarators
_DECLARATION = re.compile(_QUALIFIERS + r"[A-Za-z_][\w:]*(?:<[^;{}]*>)?[\s*&]+"
                          r"(?:[A-Za-z_]\w*(?:\s*=[^,;]*)?\s*,[\s*&]*)*")


def _declared(body: str, name: str) -> bool:
    """Whether the function body declares ``name`` (``int n = …``, ``const T *p;``, ``size_t a, n;``, a ``for``'s
    ``int i``): a local the evaluator could not give one value, not a member or a global."""
    for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*(?:=(?!=)|;|,|\(|\[|\{{)", body):
        start = max(body.rfind(";", 0, m.start()), body.rfind("{", 0, m.start()), body.rfind("}", 0, m.start())) + 1
        head = re.sub(r"^\s*for\s*\(", "", body[start:m.start()]).strip()
        if head and _DECLARATION.fullmatch(head + " "):
            return True
    return False

