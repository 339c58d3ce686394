"""``sizeof`` of the program's own structs and classes, laid out as the host compiler does (each field at the next
multiple of its alignment, the size a multiple of the largest): ``cudaMalloc(&d, n * sizeof(Particle))`` and
``1 + max * sizeof(Detection) / sizeof(float)`` are values, not unknowns.  A record with a base class, a bit-field
or a field of a type not known here has no size (``sizeof`` stays unknown); ``alignas(T)`` with a type (its
alignment not in clang's dump) is taken as the fields' own alignment."""

from __future__ import annotations

import re
from typing import Any

from simu.host.ast.nodes import Node, kids, plain_type, size_of

_RECORDS = {"RecordDecl", "CXXRecordDecl"}
_SCOPES = {"NamespaceDecl", "LinkageSpecDecl"}
MAX_ALIGN = 16


class Records(dict):
    """``sizeof`` by record name (see :func:`record_sizes`); ``fields``: the field names, in order, of each struct
    whose fields are all numbers or pointers (``cudaMemcpyToSymbol(c_params, &p, …)`` copies them in that order)."""

    def __init__(self, sizes: dict[str, int], fields: dict[str, tuple[str, ...]]):
        super().__init__(sizes)
        self.fields = fields


def record_sizes(decls: list[Node]) -> Records:
    """Sizes by record name (``Detection``, ``ns::Detection``) and by typedef name, for the records of ``decls``
    whose every field has a known size."""
    layouts: dict[str, tuple[int, int]] = {}  # name -> (size, alignment)
    fields: dict[str, tuple[str, ...]] = {}
    typedefs: list[tuple[str, str]] = []

    def visit(d: Node, scope: str) -> None:
        kind = d.get("kind")
        if kind in _SCOPES:
            inner = f"{scope}{d['name']}::" if d.get("name") else scope
            for k in kids(d):
                visit(k, inner)
        elif kind in _RECORDS and d.get("completeDefinition"):
            for k in kids(d):
                if k.get("kind") in _RECORDS:
                    visit(k, f"{scope}{d.get('name', '')}::")
            made = _layout(d, layouts)
            if made is not None:
                by_id[d.get("id", "")] = made
                if d.get("name"):
                    layouts[scope + d["name"]] = layouts[d["name"]] = made
                    if (names := _scalar_fields(d)) is not None:
                        fields[scope + d["name"]] = fields[d["name"]] = names
        elif kind == "TypedefDecl" and d.get("name"):
            typedefs.append((d["name"], _type(d), _referenced_ids(d)))

    by_id: dict[str, tuple[int, int]] = {}
    for d in decls:
        visit(d, "")
    for name, target, ids in typedefs:  # typedef struct {…} Cell: the record by its id
        made = layouts.get(plain_type(target)) or next((by_id[i] for i in ids if i in by_id), None)
        if made is not None and name not in layouts:
            layouts[name] = made
    return Records({name: size for name, (size, _) in layouts.items()}, fields)


def _scalar_fields(d: Node) -> tuple[str, ...] | None:
    """The field names of a struct whose fields are each one number or pointer (no array, record or union)."""
    if d.get("tagUsed") == "union":
        return None
    out = []
    for k in kids(d):
        if k.get("kind") == "FieldDecl":
            plain = plain_type(_type(k))
            if "[" in plain or not size_of(plain) or not k.get("name"):
                return None
            out.append(k["name"])
    return tuple(out) or None


def _referenced_ids(node: Any) -> list[str]:
    out: list[str] = []
    if isinstance(node, dict):
        if isinstance(node.get("decl"), dict) and "id" in node["decl"]:
            out.append(node["decl"]["id"])
        for k, v in node.items():
            if k != "decl" and isinstance(v, (dict, list)):
                out += _referenced_ids(v)
    elif isinstance(node, list):
        for x in node:
            out += _referenced_ids(x)
    return out


def sized(t: str, records: dict[str, int]) -> int | None:
    """``sizeof(t)``: a builtin, pointer or vector type, else one of the program's records."""
    return size_of(t) or records.get(plain_type(t))


def _layout(d: Node, known: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    if d.get("bases") or d.get("tagUsed") not in ("struct", "class", "union"):
        return None
    size = align = 1 if not any(k.get("kind") == "FieldDecl" for k in kids(d)) else 0
    offset = 0
    for k in kids(d):
        if k.get("kind") == "AlignedAttr":  # alignas(16): its value; alignas(float) names no value in the dump
            written = [c.get("value") for c in kids(k) if c.get("kind") == "ConstantExpr"]
            align = max(align, int(written[0])) if written and str(written[0]).isdigit() else align
            continue
        if k.get("kind") != "FieldDecl":
            continue
        if k.get("isBitfield"):
            return None
        field = _field(_type(k), known)
        if field is None:
            return None
        fsize, falign = field
        align = max(align, falign)
        if d.get("tagUsed") == "union":
            size = max(size, fsize)
        else:
            offset = -(-offset // falign) * falign + fsize
            size = offset
    align = max(align, 1)
    return -(-size // align) * align, align


def _field(t: str, known: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    plain = plain_type(t)
    m = re.fullmatch(r"(.+?)\s*((?:\[\d+\]\s*)+)", plain)
    count = 1
    if m:
        plain = m.group(1).strip()
        for n in re.findall(r"\[(\d+)\]", m.group(2)):
            count *= int(n)
    if plain in known:
        size, align = known[plain]
        return size * count, align
    one = size_of(plain)
    if one is None:
        return None
    return one * count, min(one if plain.endswith("*") or one <= 8 else MAX_ALIGN, MAX_ALIGN) if one else 1


def _type(d: Node) -> str:
    t: Any = d.get("type", {})
    return t.get("desugaredQualType") or t.get("qualType", "")

