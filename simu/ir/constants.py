"""Parsing LLVM constant text (operands and global initialisers) into plain Python values.

Scalars become ``int``/``float``; aggregates and vectors become lists; pointers to globals
become :class:`GlobalRef` (resolved to an address only when a launch lays out memory);
``undef``/``poison``/``zeroinitializer`` become :data:`ZERO` of the type.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any

from simu.ir.types import (
    ArrayType,
    FloatType,
    IntType,
    PtrType,
    StructType,
    Type,
    TypeParser,
    VectorType,
    _name_end,
    alloc_size,
)


@dataclass(frozen=True)
class GlobalRef:
    """The address of module global ``name`` plus a byte ``offset``; ``as_int`` after ptrtoint."""

    name: str
    offset: int = 0
    as_int: bool = False


@dataclass(frozen=True)
class RefDifference:
    """The distance in bytes between two module globals' addresses, ``ptrtoint(plus) - ptrtoint(minus)``: code that
    moves a pointer from one shared array to the same place in another (``p + ((char *)a - (char *)b)``).  The
    machine computes it per lane, from where each global lies for that lane."""

    plus: GlobalRef
    minus: GlobalRef


@dataclass(frozen=True)
class Undef:
    """An undef/poison value: the machine gives it zero bits."""


UNDEF = Undef()
_FLOAT_RE = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")


class ConstantParser:
    def __init__(self, types: TypeParser):
        self.types = types

    def parse_typed(self, text: str) -> tuple[Type, Any]:
        t, rest = self.types.parse_prefix(text)
        v, rest = self.parse_value(t, rest)
        return t, v

    def parse_value(self, t: Type, s: str) -> tuple[Any, str]:
        s = s.lstrip()
        for word in ("zeroinitializer", "undef", "poison", "null", "none"):
            if s.startswith(word) and (len(s) == len(word) or not s[len(word)].isalnum()):
                v = zero_of(t) if word in ("zeroinitializer", "null", "none") else UNDEF
                return v, s[len(word):]
        if isinstance(t, IntType):
            if s.startswith("true"):
                return 1, s[4:]
            if s.startswith("false"):
                return 0, s[5:]
            m = re.match(r"[-+]?\d+", s)
            if m:
                return int(m.group()), s[m.end():]
            return self._expr(t, s)
        if isinstance(t, FloatType):
            return self._float(t, s)
        if isinstance(t, PtrType):
            if s.startswith("@"):
                end = _name_end(s)
                return GlobalRef(_unquote(s[1:end])), s[end:]
            return self._expr(t, s)
        if isinstance(t, (ArrayType, VectorType)):
            if s.startswith('c"'):
                end = s.index('"', 2)
                return list(_c_string(s[2:end])), s[end + 1:]
            if s.startswith("splat"):
                inner = s[len("splat"):].lstrip()
                assert inner.startswith("(")
                _, v, rest = self._typed_elem(inner[1:])
                rest = rest.lstrip()[1:]  # ')'
                return [v] * t.count, rest
            open_, close = ("[", "]") if isinstance(t, ArrayType) else ("<", ">")
            if s.startswith(open_) and isinstance(t.elem, IntType):
                fast = _int_list(s, t.elem.bits, t.count, close)
                if fast is not None:
                    return fast
            if not s.startswith(open_) and re.match(r"[a-z]", s):
                return self._expr(t, s)  # bitcast (<1 x i64> splat (i64 1) to <2 x i32>), ...
            return self._list(s[1:], close)
        if isinstance(t, StructType):
            packed = s.startswith("<{")
            s = s[2:] if packed else s[1:]
            return self._list(s, "}>" if packed else "}")
        raise ValueError(f"cannot parse constant of type {t}: {s[:60]!r}")

    def _typed_elem(self, s: str) -> tuple[Type, Any, str]:
        t, rest = self.types.parse_prefix(s)
        v, rest = self.parse_value(t, rest)
        return t, v, rest

    def _list(self, s: str, close: str) -> tuple[list[Any], str]:
        out: list[Any] = []
        s = s.lstrip()
        if s.startswith(close):
            return out, s[len(close):]
        while True:
            _, v, s = self._typed_elem(s)
            out.append(v)
            s = s.lstrip()
            if s.startswith(","):
                s = s[1:]
                continue
            if s.startswith(close):
                return out, s[len(close):]
            raise ValueError(f"bad constant list near {s[:40]!r}")

    def _float(self, t: FloatType, s: str) -> tuple[float, str]:
        if s.startswith("0xH") or s.startswith("0xR") or s.startswith("0xK") or s.startswith("0xL"):
            m = re.match(r"0x[HRKL][0-9A-Fa-f]+", s)
            assert m
            bits = int(m.group()[3:], 16)
            if s[2] == "H":
                import numpy as np

                return float(np.array([bits], np.uint16).view(np.float16)[0]), s[m.end():]
            if s[2] == "R":
                return struct.unpack("<f", struct.pack("<I", bits << 16))[0], s[m.end():]
            return 0.0, s[m.end():]
        if s.startswith("0x"):
            m = re.match(r"0x[0-9A-Fa-f]+", s)
            assert m
            return struct.unpack("<d", struct.pack("<Q", int(m.group(), 16)))[0], s[m.end():]
        m = _FLOAT_RE.match(s)
        if not m:
            raise ValueError(f"bad float constant {s[:30]!r}")
        return float(m.group()), s[m.end():]

    def _expr(self, t: Type, s: str) -> tuple[Any, str]:
        """Constant expressions: casts and getelementptr over globals."""
        m = re.match(r"([a-z]+)\b", s)
        if not m:
            raise ValueError(f"cannot parse constant {s[:60]!r}")
        op = m.group(1)
        rest = s[m.end():].lstrip()
        if op in ("addrspacecast", "bitcast", "ptrtoint", "inttoptr", "trunc", "zext", "sext"):
            assert rest.startswith("(")
            src_t, v, rest = self._typed_elem(rest[1:])
            rest = rest.lstrip()
            assert rest.startswith("to"), rest[:30]
            dst_t, rest = self.types.parse_prefix(rest[2:])
            rest = rest.lstrip()[1:]  # ')'
            if op == "bitcast" and not isinstance(v, GlobalRef) and not isinstance(src_t, PtrType):
                return _bitcast(v, src_t, dst_t), rest
            if op == "ptrtoint" and isinstance(v, GlobalRef):
                v = GlobalRef(v.name, v.offset, True)
            if op == "inttoptr" and isinstance(v, GlobalRef):
                v = GlobalRef(v.name, v.offset, False)
            return v, rest
        if op == "sub" and rest.startswith("("):  # sub (i64 ptrtoint (@a), i64 ptrtoint (@b))
            _, a, rest = self._typed_elem(rest[1:])
            rest = rest.lstrip()
            assert rest.startswith(","), rest[:30]
            _, b, rest = self._typed_elem(rest[1:])
            rest = rest.lstrip()[1:]  # ')'
            if isinstance(a, GlobalRef) and isinstance(b, GlobalRef):
                return RefDifference(a, b), rest
            if isinstance(a, int) and isinstance(b, int):
                return a - b, rest
            raise ValueError("unsupported constant expression 'sub'")
        if op == "getelementptr":
            while True:
                m2 = re.match(r"(inbounds|nuw|nusw|inrange\([^)]*\))\s*", rest)
                if not m2:
                    break
                rest = rest[m2.end():]
            assert rest.startswith("("), rest[:30]
            src, rest = self.types.parse_prefix(rest[1:])
            rest = rest.lstrip()[1:]  # ','
            _, base, rest = self._typed_elem(rest)
            indices: list[int] = []
            rest = rest.lstrip()
            while rest.startswith(","):
                _, idx, rest = self._typed_elem(rest[1:])
                indices.append(int(idx))
                rest = rest.lstrip()
            rest = rest[1:]  # ')'
            offset = gep_constant_offset(src, indices)
            if isinstance(base, GlobalRef):
                return GlobalRef(base.name, base.offset + offset, base.as_int), rest
            return int(base) + offset, rest
        raise ValueError(f"unsupported constant expression '{op}'")


def _bitcast(value: Any, src: Type, dst: Type) -> Any:
    """A constant bitcast between numeric scalars and vectors: the same bytes read as the other type."""
    import numpy as np

    def dtype(t: Type):
        e = t.elem if isinstance(t, VectorType) else t
        if isinstance(e, FloatType):
            if e.kind == "bfloat":
                raise ValueError("constant bitcast of bfloat values")
            return np.dtype({"half": np.float16, "float": np.float32, "double": np.float64}[e.kind])
        return np.dtype({1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[e.bits])

    def unsigned(x: Any, d) -> Any:
        return x % (1 << (d.itemsize * 8)) if d.kind == "u" and isinstance(x, int) else x

    values = value if isinstance(value, list) else [value]
    if any(v is UNDEF for v in values):
        return value
    sd, dd = dtype(src), dtype(dst)
    raw = np.array([unsigned(v, sd) for v in values], sd).tobytes()
    out = np.frombuffer(raw, dd).tolist()
    if dd.kind == "u":  # integers as signed values of their width, as the parser gives them
        bits = dd.itemsize * 8
        out = [x - (1 << bits) if x >= 1 << (bits - 1) else x for x in out]
    return out if isinstance(dst, VectorType) else out[0]


def gep_constant_offset(src: Type, indices: list[int]) -> int:
    if not indices:
        return 0
    off = indices[0] * alloc_size(src)
    t = src
    for idx in indices[1:]:
        if isinstance(t, StructType):
            off += t.offsets[idx]
            t = t.fields[idx]
        elif isinstance(t, (ArrayType, VectorType)):
            t = t.elem
            off += idx * alloc_size(t)
        else:
            raise ValueError(f"cannot index into {t}")
    return off


def zero_of(t: Type) -> Any:
    if isinstance(t, (ArrayType, VectorType)):
        return [zero_of(t.elem)] * t.count
    if isinstance(t, StructType):
        return [zero_of(f) for f in t.fields]
    if isinstance(t, FloatType):
        return 0.0
    return 0


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _c_string(body: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 2 < len(body) + 1 and re.match(r"[0-9A-Fa-f]{2}", body[i + 1:i + 3]):
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
        elif body[i] == "\\" and body[i + 1:i + 2] == "\\":
            out.append(0x5C)
            i += 2
        else:
            out.append(ord(body[i]))
            i += 1
    return bytes(out)


_INT_ITEM = re.compile(r"\s*i(\d+) ([-+]?\d+)\s*(,|$)")


def _int_list(s: str, bits: int, count: int, close: str) -> tuple[list[int], str] | None:
    """``[i32 1, i32 2, ...]`` read in one pass (element by element slicing would copy the rest of a
    large table once per element); None when the list holds anything but plain integers."""
    end = s.find(close, 1)
    if end < 0:
        return None
    body = s[1:end]
    out: list[int] = []
    pos = 0
    want = str(bits)
    while pos < len(body):
        m = _INT_ITEM.match(body, pos)
        if m is None or m.group(1) != want:
            return None
        out.append(int(m.group(2)))
        pos = m.end()
    if len(out) != count:
        return None
    return out, s[end + len(close):]

