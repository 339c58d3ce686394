"""Debug metadata: source locations of instructions and names of variables and parameters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# a C++ reference parameter (``Params &p``) is, to the launch, a pointer to one object
POINTER_TAGS = ("DW_TAG_pointer_type", "DW_TAG_reference_type", "DW_TAG_rvalue_reference_type")
_MD_LINE = re.compile(r"^!(\d+) = (?:distinct )?(.*)$", re.M)


@dataclass(frozen=True)
class Loc:
    """A source position; ``inlined_at`` is the call site when the code came from a helper."""

    file: str
    line: int
    col: int
    function: str = ""
    inlined_at: "Loc | None" = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def _split_fields(body: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    if not any(c in body for c in '"({['):  # a location's fields (most nodes a kernel reads): no nesting to skip
        for part in body.split(","):
            k, colon, v = part.partition(":")
            if colon:
                fields[k.strip()] = v.strip()
        return fields
    depth, start = 0, 0
    in_str = False
    i = 0
    while i <= len(body):
        c = body[i] if i < len(body) else ","
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == "," and depth == 0:
            part = body[start:i].strip()
            if ":" in part:
                k, v = part.split(":", 1)
                fields[k.strip()] = v.strip()
            start = i + 1
        i += 1
    return fields


class DebugInfo:
    """Index of a module's metadata nodes, parsed once from the IR text."""

    def __init__(self, ir: str):
        # Node bodies are kept as text and parsed on first use: a large module has hundreds of
        # thousands of nodes, and a kernel needs only the few its instructions point at.
        self._raw: dict[int, str] = {int(m.group(1)): m.group(2) for m in _MD_LINE.finditer(ir)}
        self.nodes: dict[int, tuple[str, dict[str, str] | list[str]] | None] = {}
        self._locs: dict[int, Loc | None] = {}
        self._scopes: dict[str, tuple[str, str]] = {}  # scope reference -> (its file, its function)
        self._params: dict[str, dict[int, str]] | None = None

    def _parse(self, nid: int) -> tuple[str, dict[str, str] | list[str]] | None:
        if nid in self.nodes:
            return self.nodes[nid]
        body = self._raw.get(nid)
        node: tuple[str, dict[str, str] | list[str]] | None = None
        if body is not None:
            body = body.strip()
            if body.startswith("!{"):
                node = ("tuple", [x.strip() for x in body[2:-1].split(",")] if body != "!{}" else [])
            else:
                mm = re.match(r"!(\w+)\((.*)\)$", body)
                if mm:
                    node = (mm.group(1), _split_fields(mm.group(2)))
        self.nodes[nid] = node
        return node

    def node(self, ref: str | int | None) -> tuple[str, dict[str, str]] | None:
        if ref is None:
            return None
        if isinstance(ref, str):
            if not ref.startswith("!") or not ref[1:].isdigit():
                return None
            ref = int(ref[1:])
        return self._parse(ref)  # type: ignore[return-value]

    def file_of(self, scope_ref: str | None) -> str:
        seen = 0
        while scope_ref and seen < 64:
            n = self.node(scope_ref)
            if n is None:
                return "?"
            kind, f = n
            if kind == "DIFile":
                return _path(f)
            if isinstance(f, dict) and "file" in f:
                fn = self.node(f["file"])
                if fn and fn[0] == "DIFile":
                    return _path(fn[1])  # type: ignore[arg-type]
            scope_ref = f.get("scope") if isinstance(f, dict) else None
            seen += 1
        return "?"

    def function_of(self, scope_ref: str | None) -> str:
        seen = 0
        while scope_ref and seen < 64:
            n = self.node(scope_ref)
            if n is None:
                return ""
            kind, f = n
            if kind == "DISubprogram":
                return _unq(f.get("name", ""))  # type: ignore[union-attr]
            scope_ref = f.get("scope") if isinstance(f, dict) else None
            seen += 1
        return ""

    def location(self, nid: int) -> Loc | None:
        if nid in self._locs:
            return self._locs[nid]
        n = self.node(nid)
        loc = None
        if n and n[0] == "DILocation":
            f = n[1]
            inl = f.get("inlinedAt")  # type: ignore[union-attr]
            scope = f.get("scope")  # type: ignore[union-attr]
            if scope not in self._scopes:  # a function's instructions share a few scopes
                self._scopes[scope] = (self.file_of(scope), self.function_of(scope))
            file, function = self._scopes[scope]
            loc = Loc(file, int(f.get("line", 0)), int(f.get("column", 0)),  # type: ignore[union-attr]
                      function, self.location(int(inl[1:])) if inl else None)
        self._locs[nid] = loc
        return loc

    def subprogram(self, ref: str | None) -> dict[str, str]:
        n = self.node(ref)
        return n[1] if n and n[0] == "DISubprogram" else {}  # type: ignore[return-value]

    def param_names(self, sp_ref: str | None) -> dict[int, str]:
        """Argument index (0-based) -> name, from the DILocalVariables of a subprogram."""
        if not sp_ref:
            return {}
        if self._params is None:  # one pass over the parameter variables, indexed by subprogram
            self._params = {}
            for nid, body in self._raw.items():
                if "DILocalVariable(" in body and " arg: " in body:
                    node = self._parse(nid)
                    if node and node[0] == "DILocalVariable" and isinstance(node[1], dict) \
                            and "arg" in node[1] and "scope" in node[1]:
                        f = node[1]
                        self._params.setdefault(f["scope"], {})[int(f["arg"]) - 1] = _unq(f.get("name", ""))
        return dict(self._params.get(sp_ref, {}))

    def _param_type_refs(self, sp_ref: str | None) -> list:
        """The metadata references of a subprogram's parameter types, in order (the return type left out)."""
        sp = self.subprogram(sp_ref)
        st = self.node(sp.get("type"))
        if not st or st[0] != "DISubroutineType":
            return []
        types = self.node(st[1].get("types"))  # type: ignore[union-attr]
        if not types or types[0] != "tuple":
            return []
        return list(types[1][1:])  # type: ignore[index]

    def param_type_names(self, sp_ref: str | None) -> list[str]:
        return [self.type_name(t) for t in self._param_type_refs(sp_ref)]

    def param_canonical_types(self, sp_ref: str | None) -> list[str]:
        """Per parameter, its type with typedefs written out: what a buffer's elements are drawn as."""
        return [self.type_name(t, canonical=True) for t in self._param_type_refs(sp_ref)]

    def param_pointee_sizes(self, sp_ref: str | None) -> list[int | None]:
        """Per parameter, the bytes of the type a pointer parameter points to (None: not a pointer or unknown)."""
        return [self._pointee_size(t) for t in self._param_type_refs(sp_ref)]

    def _pointee_size(self, ref: str) -> int | None:
        n = self._strip(ref)
        if n is None or n[0] != "DIDerivedType" or n[1].get("tag") not in POINTER_TAGS:  # type: ignore[union-attr]
            return None
        return self.type_size(n[1].get("baseType"))  # type: ignore[union-attr]

    def param_pointee_floats(self, sp_ref: str | None) -> list[tuple[tuple[int, int], ...] | None]:
        """Per parameter, the (byte offset, bytes) of each floating-point scalar inside the element a pointer
        parameter points to (its struct fields, vectors and arrays, nested), None when not a pointer or
        unknown: what the debug information says of a struct buffer's bytes that the launch draws as bytes."""
        out: list[tuple[tuple[int, int], ...] | None] = []
        for t in self._param_type_refs(sp_ref):
            n = self._strip(t)
            if n is None or n[0] != "DIDerivedType" or n[1].get("tag") not in POINTER_TAGS:  # type: ignore[union-attr]
                out.append(None)
                continue
            found: list[tuple[int, int]] = []
            out.append(tuple(found) if self._floats(n[1].get("baseType"), 0, found) else None)  # type: ignore[union-attr]
        return out

    def _floats(self, ref: str | None, base: int, found: list[tuple[int, int]], depth: int = 0) -> bool:
        """Add to ``found`` the float scalars of type ``ref`` placed at byte ``base``; False when a part of the
        type is unknown (or too large to list)."""
        n = self.node(ref) if ref else None
        if n is None or depth > 24 or len(found) > 4096:
            return False
        kind, f = n
        if kind == "DIBasicType":
            if f.get("encoding") == "DW_ATE_float":
                found.append((base, int(f.get("size", "0")) // 8))
            return True
        if kind == "DIDerivedType":
            tag = f.get("tag")
            if tag == "DW_TAG_member":
                return self._floats(f.get("baseType"), base + int(f.get("offset", "0")) // 8, found, depth + 1)
            if tag in ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type",
                       "DW_TAG_atomic_type"):
                return self._floats(f.get("baseType"), base, found, depth + 1)
            return tag == "DW_TAG_pointer_type"  # a pointer is no float
        if kind == "DICompositeType" and f.get("tag") in ("DW_TAG_structure_type", "DW_TAG_class_type",
                                                           "DW_TAG_union_type"):
            elements = self.node(f.get("elements")) if f.get("elements") else ("tuple", [])
            if elements is None or elements[0] != "tuple":
                return False
            members = [m for m in elements[1] if (self.node(m) or ("", {}))[1].get("tag") == "DW_TAG_member"]
            return all(self._floats(m, base, found, depth + 1) for m in members)
        if kind == "DICompositeType" and f.get("tag") == "DW_TAG_array_type":
            size = self.type_size(f.get("baseType"))
            subs = self.node(f.get("elements"))
            if not size or subs is None or subs[0] != "tuple":
                return False
            count = 1
            for r in subs[1]:
                sr = self.node(r)
                try:
                    count *= int(sr[1].get("count", "")) if sr and sr[0] == "DISubrange" else 0
                except ValueError:
                    return False
            inner: list[tuple[int, int]] = []
            if not count or count > 4096 or not self._floats(f.get("baseType"), 0, inner, depth + 1):
                return False
            found.extend((base + k * size + o, b) for k in range(count) for o, b in inner)
            return True
        return kind == "DICompositeType" and f.get("tag") == "DW_TAG_enumeration_type"

    def type_size(self, ref: str | None, depth: int = 0) -> int | None:
        """Bytes of a debug-info type (through typedefs and qualifiers), None if unknown."""
        n = self.node(ref) if ref else None
        if n is None or depth > 16:
            return None
        kind, f = n
        assert isinstance(f, dict)
        if "size" in f and kind in ("DIBasicType", "DICompositeType"):
            try:
                return int(f["size"]) // 8 or None
            except ValueError:
                return None
        if kind == "DIDerivedType" and f.get("tag") in ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
                                                         "DW_TAG_restrict_type", "DW_TAG_atomic_type"):
            return self.type_size(f.get("baseType"), depth + 1)
        if kind == "DIDerivedType" and f.get("tag") == "DW_TAG_pointer_type":
            try:
                return int(f.get("size", "64")) // 8 or None  # a device pointer: 8 bytes (float **: rows of 8)
            except ValueError:
                return None
        return None

    def _strip(self, ref: str, depth: int = 0):
        """The node behind typedefs and qualifiers."""
        n = self.node(ref)
        while n is not None and n[0] == "DIDerivedType" and depth < 16 and n[1].get("tag") in (  # type: ignore[union-attr]
                "DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type"):
            n = self.node(n[1].get("baseType"))  # type: ignore[union-attr]
            depth += 1
        return n

    def type_name(self, ref: str, depth: int = 0, canonical: bool = False) -> str:
        """A type's C spelling; ``canonical``: typedefs written out (``real *`` of ``typedef float real``:
        ``float*``)."""
        n = self.node(ref)
        if n is None or depth > 16:
            return "?"
        kind, f = n
        assert isinstance(f, dict)
        if kind == "DIBasicType":
            return _unq(f.get("name", "?"))
        if kind == "DIDerivedType":
            tag = f.get("tag", "")
            base = self.type_name(f["baseType"], depth + 1, canonical) if "baseType" in f else "void"
            if tag == "DW_TAG_pointer_type":
                return base + "*"
            if tag == "DW_TAG_reference_type":
                return base + "&"
            if tag == "DW_TAG_const_type":
                return "const " + base
            if tag == "DW_TAG_volatile_type":
                return "volatile " + base
            if tag == "DW_TAG_typedef":
                return base if canonical and base != "?" else _unq(f.get("name", base))
            return base
        if kind == "DICompositeType":
            return _unq(f.get("name", "struct"))
        return "?"

    def global_var_type(self, ref: str | None) -> str | None:
        """The type reference of the variable a ``DIGlobalVariableExpression`` describes."""
        n = self.node(ref)
        if n and n[0] == "DIGlobalVariableExpression":
            v = self.node(n[1].get("var"))  # type: ignore[union-attr]
            if v:
                return v[1].get("type")  # type: ignore[union-attr]
        return None

    def global_var_name(self, ref: str | None) -> str | None:
        n = self.node(ref)
        if n and n[0] == "DIGlobalVariableExpression":
            v = self.node(n[1].get("var"))  # type: ignore[union-attr]
            if v:
                return _unq(v[1].get("name", ""))  # type: ignore[union-attr]
        return None


_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2})")


def _unq(s: str) -> str:
    """An IR string literal's text: quotes removed, and the bytes LLVM escapes (``\\C3\\A9``, ``\\5C`` for
    a backslash) decoded back, so a file name reads as it is on disk (``kérnel.cu``)."""
    s = s[1:-1] if s.startswith('"') and s.endswith('"') else s
    if "\\" not in s:
        return s
    raw = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(s):
        raw += s[pos:m.start()].encode("utf-8", "surrogateescape")
        raw.append(int(m.group(1), 16))
        pos = m.end()
    raw += s[pos:].encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "surrogateescape")


def _path(f: dict[str, str]) -> str:
    name = _unq(f.get("filename", "?"))
    directory = _unq(f.get("directory", ""))
    if directory and not Path(name).is_absolute():
        return str(Path(directory) / name)
    return name
