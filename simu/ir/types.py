"""LLVM types as small immutable objects, parsed from their textual form, with sizes.

The layout follows the usual 64-bit GPU data layouts (nvptx64, spir64): natural alignment,
8-byte pointers, vectors aligned to their power-of-two size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


class Type:
    size: int = 0
    align: int = 1


@dataclass(frozen=True)
class VoidType(Type):
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True)
class LabelType(Type):
    def __str__(self) -> str:
        return "label"


@dataclass(frozen=True)
class MetadataType(Type):
    def __str__(self) -> str:
        return "metadata"


@dataclass(frozen=True)
class IntType(Type):
    bits: int

    @property
    def size(self) -> int:  # type: ignore[override]
        return max(1, (self.bits + 7) // 8) if self.bits <= 64 else 16

    @property
    def align(self) -> int:  # type: ignore[override]
        return min(self.size, 8) if self.bits <= 64 else 16

    @property
    def dtype(self) -> np.dtype:
        return int_dtype(self.bits)

    def __str__(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True)
class FloatType(Type):
    kind: str  # half | bfloat | float | double

    @property
    def size(self) -> int:  # type: ignore[override]
        return {"half": 2, "bfloat": 2, "float": 4, "double": 8}[self.kind]

    @property
    def align(self) -> int:  # type: ignore[override]
        return self.size

    @property
    def dtype(self) -> np.dtype:
        return np.dtype({"half": np.float16, "bfloat": np.float32, "float": np.float32,
                         "double": np.float64}[self.kind])

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True)
class PtrType(Type):
    addrspace: int = 0
    size = 8
    align = 8

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.int64)

    def __str__(self) -> str:
        return "ptr" if self.addrspace == 0 else f"ptr addrspace({self.addrspace})"


@dataclass(frozen=True)
class TargetExtType(IntType):
    """A target extension type, ``target("spirv.Event")``, ``target("spirv.Image", void, 1, ...)``,
    ``target("spirv.Sampler")``: an opaque handle (OpenCL events, images, samplers, pipes...).

    The machine holds a handle as a 64-bit integer (it is an ``IntType`` of 64 bits for every
    register, memory and constant purpose: ``zeroinitializer`` is 0); what a handle means is up to
    the built-ins that take it.  ``params`` are the type and integer parameters as written."""

    bits: int = 64
    name: str = ""
    params: tuple[str, ...] = ()

    @property
    def size(self) -> int:  # type: ignore[override]
        return 8

    @property
    def align(self) -> int:  # type: ignore[override]
        return 8

    def __str__(self) -> str:
        inner = ", ".join((f'"{self.name}"',) + self.params)
        return f"target({inner})"

    @property
    def image_layout(self) -> tuple[int, bool, bool] | None:
        """``(spatial dimensions, arrayed, depth)`` of a ``target("spirv.Image", void, Dim, Depth,
        Arrayed, ...)`` type (Dim 0 = 1D, 1 = 2D, 2 = 3D, 5 = buffer, which is 1-D); None for any
        other type or dimensionality."""
        if self.name != "spirv.Image" or len(self.params) < 4:
            return None
        dims = {"0": 1, "1": 2, "2": 3, "5": 1}.get(self.params[1].strip())
        if dims is None:
            return None
        return dims, self.params[3].strip() == "1", self.params[2].strip() == "1"


@dataclass(frozen=True)
class VectorType(Type):
    count: int
    elem: Type

    @property
    def size(self) -> int:  # type: ignore[override]
        raw = self.count * self.elem.size
        p = 1
        while p < raw:
            p *= 2
        return p

    @property
    def align(self) -> int:  # type: ignore[override]
        return self.size

    def __str__(self) -> str:
        return f"<{self.count} x {self.elem}>"


@dataclass(frozen=True)
class ArrayType(Type):
    count: int
    elem: Type

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.count * alloc_size(self.elem)

    @property
    def align(self) -> int:  # type: ignore[override]
        return self.elem.align

    def __str__(self) -> str:
        return f"[{self.count} x {self.elem}]"


@dataclass(frozen=True)
class StructType(Type):
    fields: tuple[Type, ...]
    packed: bool = False
    name: str = ""

    @property
    def offsets(self) -> tuple[int, ...]:
        return _struct_layout(self)[0]

    @property
    def size(self) -> int:  # type: ignore[override]
        return _struct_layout(self)[1]

    @property
    def align(self) -> int:  # type: ignore[override]
        if self.packed or not self.fields:
            return 1
        return max(f.align for f in self.fields)

    def __str__(self) -> str:
        if self.name:
            return self.name
        inner = ", ".join(str(f) for f in self.fields)
        return f"<{{ {inner} }}>" if self.packed else f"{{ {inner} }}"


@lru_cache(maxsize=None)
def _struct_layout(t: StructType) -> tuple[tuple[int, ...], int]:
    offsets = []
    off = 0
    for f in t.fields:
        a = 1 if t.packed else f.align
        off = (off + a - 1) // a * a
        offsets.append(off)
        off += alloc_size(f)
    a = t.align
    return tuple(offsets), (off + a - 1) // a * a


def alloc_size(t: Type) -> int:
    """Bytes the type occupies in memory, padded to its alignment."""
    size, align = t.size, t.align
    return (size + align - 1) // align * align


def int_dtype(bits: int) -> np.dtype:
    if bits == 1:
        return np.dtype(np.bool_)
    if bits <= 8:
        return np.dtype(np.int8)
    if bits <= 16:
        return np.dtype(np.int16)
    if bits <= 32:
        return np.dtype(np.int32)
    return np.dtype(np.int64)


VOID = VoidType()
I1, I8, I16, I32, I64 = (IntType(b) for b in (1, 8, 16, 32, 64))
F32 = FloatType("float")
F64 = FloatType("double")


class TypeParser:
    """Parses LLVM type text; knows the module's named struct types."""

    def __init__(self, named: dict[str, str] | None = None):
        self._named_text = dict(named or {})
        self._named: dict[str, Type] = {}
        self._parsed: dict[str, Type] = {}  # type text -> its type (types are immutable; a kernel repeats a few)

    def parse(self, text: str) -> Type:
        known = self._parsed.get(text)
        if known is not None:
            return known
        key = text
        text = text.strip()
        if text.startswith("%") and " = type " in text:  # llvmlite prints a named struct with its body
            text = text.split(" = type ", 1)[0]
        t, rest = self.parse_prefix(text)
        if rest.strip():
            raise ValueError(f"trailing text after type: {text!r}")
        self._parsed[key] = t
        return t

    def parse_prefix(self, s: str) -> tuple[Type, str]:
        """Parse one type at the start of ``s``; return it and the remaining text."""
        s = s.lstrip()
        if s.startswith("<{"):
            fields, rest = self._fields(s[2:], "}>")
            t: Type = StructType(tuple(fields), packed=True)
            return self._suffix(t, rest)
        if s.startswith("{"):
            fields, rest = self._fields(s[1:], "}")
            return self._suffix(StructType(tuple(fields)), rest)
        if s.startswith("<"):
            count, rest = s[1:].split("x", 1)
            elem, rest = self.parse_prefix(rest)
            rest = rest.lstrip()
            assert rest.startswith(">"), s
            return self._suffix(VectorType(int(count.strip().replace("vscale", "")), elem), rest[1:])
        if s.startswith("["):
            count, rest = s[1:].split("x", 1)
            elem, rest = self.parse_prefix(rest)
            rest = rest.lstrip()
            assert rest.startswith("]"), s
            return self._suffix(ArrayType(int(count), elem), rest[1:])
        if s.startswith("%"):
            end = _name_end(s)
            name = s[:end]
            return self._suffix(self.named(name), s[end:])
        for word, t in (("void", VOID), ("label", LabelType()), ("metadata", MetadataType()),
                        ("half", FloatType("half")), ("bfloat", FloatType("bfloat")),
                        ("float", F32), ("double", F64), ("x86_fp80", FloatType("double")),
                        ("fp128", FloatType("double"))):
            if s.startswith(word) and not (len(s) > len(word) and (s[len(word)].isalnum() or s[len(word)] == "_")):
                return self._suffix(t, s[len(word):])
        if s.startswith("ptr"):
            rest = s[3:]
            space = 0
            if rest.lstrip().startswith("addrspace("):
                rest = rest.lstrip()
                close = rest.index(")")
                space = int(rest[len("addrspace("):close])
                rest = rest[close + 1:]
            return self._suffix(PtrType(space), rest)
        if s.startswith("target("):
            return self._target(s)
        if s.startswith("i") and len(s) > 1 and s[1].isdigit():
            j = 1
            while j < len(s) and s[j].isdigit():
                j += 1
            return self._suffix(IntType(int(s[1:j])), s[j:])
        raise ValueError(f"cannot parse type: {s[:60]!r}")

    def _target(self, s: str) -> tuple[Type, str]:
        """``target("name", type params..., int params...)``: see :class:`TargetExtType`."""
        rest = s[len("target("):].lstrip()
        m = re.match(r'"([^"]*)"', rest)
        if not m:
            raise ValueError(f"cannot parse type: {s[:60]!r}")
        name, rest = m.group(1), rest[m.end():]
        params: list[str] = []
        while True:
            rest = rest.lstrip()
            if rest.startswith(")"):
                return self._suffix(TargetExtType(name=name, params=tuple(params)), rest[1:])
            if not rest.startswith(","):
                raise ValueError(f"cannot parse type: {s[:60]!r}")
            rest = rest[1:].lstrip()
            m = re.match(r"-?\d+", rest)
            if m:
                params.append(m.group())
                rest = rest[m.end():]
            else:
                t, rest = self.parse_prefix(rest)
                params.append(str(t))

    def _suffix(self, t: Type, rest: str) -> tuple[Type, str]:
        # Function types "ret (args)" only occur in calls; the caller strips them.
        return t, rest

    def _fields(self, s: str, close: str) -> tuple[list[Type], str]:
        fields: list[Type] = []
        s = s.lstrip()
        if s.startswith(close):
            return fields, s[len(close):]
        while True:
            t, s = self.parse_prefix(s)
            fields.append(t)
            s = s.lstrip()
            if s.startswith(","):
                s = s[1:]
                continue
            if s.startswith(close):
                return fields, s[len(close):]
            raise ValueError(f"bad struct type near {s[:40]!r}")

    def named(self, name: str) -> Type:
        if name in self._named:
            return self._named[name]
        body = self._named_text.get(name)
        if body is None:
            raise ValueError(f"unknown named type {name}")
        if body.strip() == "opaque":
            t: Type = StructType((), name=name)
        else:
            inner = self.parse(body)
            assert isinstance(inner, StructType), body
            t = StructType(inner.fields, inner.packed, name)
        self._named[name] = t
        return t


def _name_end(s: str) -> int:
    """End index of a %name or @name token (quoted names included)."""
    if len(s) > 1 and s[1] == '"':
        return s.index('"', 2) + 1
    j = 1
    while j < len(s) and (s[j].isalnum() or s[j] in "._$-"):
        j += 1
    return j
