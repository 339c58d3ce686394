"""Small readers of clang's JSON AST nodes: kinds, children, types, source offsets."""

from __future__ import annotations

import re
from typing import Any

from simu.host.cvalues import SIZEOF

Node = dict[str, Any]

# nodes that only wrap the expression they hold
_WRAPPERS = {"ParenExpr", "ExprWithCleanups", "MaterializeTemporaryExpr", "CXXBindTemporaryExpr", "FullExpr",
             "CXXDefaultArgExpr", "CXXDefaultInitExpr", "SubstNonTypeTemplateParmExpr", "ConstantExpr",
             "ImplicitValueInitExpr"}
_PASS_CASTS = {"LValueToRValue", "NoOp", "ArrayToPointerDecay", "FunctionToPointerDecay", "ConstructorConversion",
               "UserDefinedConversion", "DerivedToBase", "UncheckedDerivedToBase", "BitCast", "NullToPointer",
               "AtomicToNonAtomic", "NonAtomicToAtomic", "LValueBitCast", "Dependent"}
# the host's sizes of C and vector types (simu.host.cvalues), and the names clang's dump spells differently
_SIZES = {**SIZEOF, "__size_t": 8, "__half": 2, "cufftComplex": 8, "cuComplex": 8, "cuDoubleComplex": 16}
_VECTOR = re.compile(r"(u?char|u?short|u?int|u?long|float|double|longlong|ulonglong)([1234])")
_VECTOR_SIZES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "float": 4, "long": 8,
                 "ulong": 8, "double": 8, "longlong": 8, "ulonglong": 8}


def kids(node: Node) -> list[Node]:
    return [x for x in node.get("inner", ()) if isinstance(x, dict)]


def strip(node: Node) -> Node:
    """The expression under wrappers and value-preserving implicit casts."""
    while True:
        kind = node.get("kind")
        inner = kids(node)
        if kind in _WRAPPERS and inner and "value" not in node:
            node = inner[-1]
        elif kind == "ImplicitCastExpr" and node.get("castKind") in _PASS_CASTS and inner:
            node = inner[0]
        else:
            return node


def qual_type(node: Node, desugared: bool = True) -> str:
    t = node.get("type", {})
    return (t.get("desugaredQualType") if desugared else None) or t.get("qualType", "")


def record_name(qual: str) -> str:
    """``Net`` from ``struct Net *``, ``const Net &``, ``ns::Net``: the record a member is read through."""
    t = re.sub(r"\b(const|volatile|struct|class|union|__restrict__|restrict)\b", " ", qual)
    t = re.sub(r"<.*>", "", t).replace("*", " ").replace("&", " ").strip()
    return t.split("::")[-1].strip()


def arithmetic_kind(qual: str) -> tuple[str, int]:
    """``(kind, bits)`` of a scalar type: ``i``/``u`` integers, ``f`` floating, ``b`` bool; ``("", 0)`` otherwise."""
    t = re.sub(r"\b(const|volatile)\b", "", qual).strip()
    if t == "bool" or t == "_Bool":
        return "b", 1
    if t in ("float", "double", "long double", "half", "__half"):
        return "f", 64
    if "*" in t or "[" in t or "(" in t or _VECTOR.fullmatch(t) or t.startswith("cl_"):
        return "", 0
    size = _SIZES.get(t)
    if size is None:
        return "", 0
    unsigned = t.startswith("unsigned") or t.startswith("uint") or t in ("size_t", "__size_t")
    return ("u" if unsigned else "i"), size * 8


def plain_type(qual: str) -> str:
    """A type named without its qualifiers and tag keyword (``const struct Cell`` -> ``Cell``)."""
    return re.sub(r"\b(const|volatile|struct|class|union)\b", "", qual).strip()


def size_of(qual: str) -> int | None:
    """``sizeof`` of a type named in the dump (builtin, pointer, CUDA vector types), else ``None``."""
    t = plain_type(qual)
    if t.endswith("*"):
        return 8
    if t in _SIZES:
        return _SIZES[t]
    m = _VECTOR.fullmatch(t)
    if m:
        n = int(m.group(2))
        return _VECTOR_SIZES[m.group(1)] * n
    m = re.fullmatch(r"(.+?)\s*\[(\d+)\]", t)
    if m and (inner := size_of(m.group(1))) is not None:
        return inner * int(m.group(2))
    return None


def offsets(node: Node) -> tuple[int, int] | None:
    """The byte range ``[begin, end)`` of a node in its file (macro uses at their expansion)."""
    r = node.get("range")
    if not r:
        return None
    b, e = _point(r.get("begin", {})), _point(r.get("end", {}))
    if b is None or e is None:
        return None
    return b[0], e[0] + e[1]


def _point(loc: dict) -> tuple[int, int] | None:
    """A location's byte offset and token length: a macro's expansion where a macro made the token, the argument's
    own text where it came from an argument (``CHECK(cudaMalloc(&d_out, n))``: ``d_out``, not ``CHECK``)."""
    expansion = loc.get("expansionLoc")
    spelling = loc.get("spellingLoc", {})
    # an argument token that is itself a macro of a header (HIP's `hipMalloc`, spelled `cudaMalloc` in the shim) is
    # spelled in that header: its offset is not this file's, so the argument's place is the expansion's
    elsewhere = "file" in spelling and "file" in (expansion or {}) and spelling["file"] != expansion["file"]
    if expansion is not None and expansion.get("isMacroArgExpansion") and "offset" in spelling and not elsewhere:
        loc = spelling
    else:
        loc = expansion or loc
    if "offset" not in loc:
        return None
    return loc["offset"], loc.get("tokLen", 0)


def start(node: Node) -> int | None:
    loc = node.get("loc") or {}
    p = _point(loc)
    if p is None:
        o = offsets(node)
        return o[0] if o else None
    return p[0]


def position(node: Node) -> str | None:
    """Where a node is, by its expansion and its spelling (two calls in one macro expansion are two)."""
    o = start(node)
    if o is None:
        return None
    spelled = ((node.get("range") or {}).get("begin") or {}).get("spellingLoc", {}).get("offset")
    return f"{o}.{spelled}" if spelled is not None else str(o)


def signature(decl: Node) -> str:
    """A function declaration's type, its spaces made single (``void (const int, double *)``): the same for a
    template instantiation in every file, different between instantiations; its words stay words, so that the
    qualifiers of its parameters can be told from their types."""
    return re.sub(r"\s+", " ", qual_type(decl, desugared=False)).strip() if decl.get("kind") == "FunctionDecl" else ""


QUALIFIERS = ("const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "class")


def param_words(signature: str) -> tuple[str, ...]:
    """A function type's parameter types as words, qualifiers and namespaces aside: ``void(const double *, int)`` and
    the demangled ``(double const*, int)`` give ``('double', '*', ',', 'int')``, ``ns::Info *const __restrict``
    ``('Info', '*')``."""
    words = re.findall(r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)|(\*|&|,)", signature[signature.find("("):])
    return tuple(w or p for w, p in words if (w or p) not in QUALIFIERS) if "(" in signature else ()


def referenced(node: Node) -> Node:
    return node.get("referencedDecl", {})


def callee_name(call: Node) -> str:
    """The name a ``CallExpr`` calls (``""`` for a call through an expression)."""
    inner = kids(call)
    if not inner:
        return ""
    f = strip(inner[0])
    if f.get("kind") == "DeclRefExpr":
        return referenced(f).get("name", "")
    if f.get("kind") in ("UnresolvedLookupExpr", "UnresolvedMemberExpr"):
        return f.get("name", "")
    if f.get("kind") == "MemberExpr":
        return f.get("name", "")
    return ""


def assigned(parts: list[Node]) -> dict[Any, str]:
    """The local variables (decl ids) and local members (id, name) the statements assign, with their C names."""
    out: dict[Any, str] = {}

    def walk(n: Any) -> None:
        if not isinstance(n, dict):
            return
        kind = n.get("kind")
        assigns = kind == "CompoundAssignOperator" or (kind == "BinaryOperator" and n.get("opcode") == "=")
        if assigns:
            _target(kids(n)[0] if kids(n) else {}, out)
        elif kind == "UnaryOperator" and n.get("opcode") in ("++", "--"):
            _target(kids(n)[0] if kids(n) else {}, out)
        for k in kids(n):
            walk(k)

    for p in parts:
        walk(p)
    return out


def plain_assignments(parts: list[Node]) -> dict[Any, list[Node] | None]:
    """Per local variable the statements assign (decl id), the right-hand sides of its plain assignments (``x =
    v``); ``None`` for one also stepped (``x += 1``, ``x++``)."""
    out: dict[Any, list[Node] | None] = {}

    def walk(n: Any) -> None:
        if not isinstance(n, dict):
            return
        kind, inner = n.get("kind"), kids(n)
        target = strip(inner[0]) if inner else {}
        if target.get("kind") == "DeclRefExpr" and (kind in ("BinaryOperator", "CompoundAssignOperator")
                                                   or (kind == "UnaryOperator" and n.get("opcode") in ("++", "--"))):
            key = referenced(target).get("id")
            if kind == "BinaryOperator" and n.get("opcode") == "=" and len(inner) == 2:
                if out.get(key, []) is not None:
                    out.setdefault(key, []).append(inner[1])  # type: ignore[union-attr]
            elif kind != "BinaryOperator":
                out[key] = None
        for k in inner:
            walk(k)

    for p in parts:
        walk(p)
    return out


def _target(lhs: Node, out: dict[Any, str]) -> None:
    t = strip(lhs)
    if t.get("kind") == "DeclRefExpr":
        out[referenced(t).get("id")] = referenced(t).get("name", "")
    elif t.get("kind") in ("MemberExpr", "ArraySubscriptExpr") and kids(t):
        base = strip(kids(t)[0])
        if t.get("kind") == "ArraySubscriptExpr" and pointer_type(base):
            return  # p[i] = v writes memory p points to: p itself keeps its value (a buffer's identity)
        if base.get("kind") == "DeclRefExpr":
            key, name = referenced(base).get("id"), referenced(base).get("name", "")
            out[key] = name
            if t.get("kind") == "MemberExpr":
                out[(key, t.get("name", ""))] = f"{name}.{t.get('name', '')}"


def kind_of_callee(call: Node) -> str:
    """The AST kind of what a ``CallExpr`` calls (``DeclRefExpr`` for a named function)."""
    inner = kids(call)
    return strip(inner[0]).get("kind", "") if inner else ""


def contains(node: Node, wanted) -> bool:
    """Whether ``node`` or a node anywhere inside it is one ``wanted`` (a predicate on nodes) accepts."""
    return wanted(node) or any(contains(k, wanted) for k in kids(node))


def calls_any(node: Node, names: set[str]) -> bool:
    """Whether ``node`` calls one of ``names`` anywhere inside."""
    return contains(node, lambda n: n.get("kind") == "CallExpr" and callee_name(n) in names)


def pointer_type(node: Node) -> bool:
    """Whether a variable reference is of pointer type (``int *``), not an array (``int[4]``)."""
    t = qual_type(node, False)
    return node.get("kind") == "DeclRefExpr" and t.rstrip().endswith("*")


def template_instances(tu: Node) -> dict[str, str]:
    """Every function template instantiation of a dump: its id -> its template arguments as clang instantiated them
    (``float,256,3,0``: a type's spelling, an integer's or a bool's value)."""
    out: dict[str, str] = {}
    stack = [tu]
    while stack:
        node = stack.pop()
        inner = kids(node)
        if node.get("kind") in ("FunctionDecl", "CXXMethodDecl"):
            args = [a for a in inner if a.get("kind") == "TemplateArgument"]
            if args and all("value" in a or "type" in a for a in args):
                out[node.get("id", "")] = ",".join(str(a["value"]) if "value" in a else
                                                   re.sub(r"\s+", " ", a["type"].get("qualType", "")) for a in args)
        stack.extend(k for k in inner if isinstance(k, dict) and k.get("kind") not in _LEAF_KINDS)
    return out


_LEAF_KINDS = {"ParmVarDecl", "IntegerLiteral", "FloatingLiteral", "StringLiteral", "TemplateArgument"}
