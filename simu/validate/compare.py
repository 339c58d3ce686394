"""Comparing the output buffers of runs: equality with a float tolerance, the first differing
element, grouping runs into distinct outcomes, and majority voting between implementations."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

Outputs = dict[str, np.ndarray]


@dataclass(frozen=True)
class Tolerance:
    """Floats are equal when ``|a - b| <= atol + rtol * |b|`` (or both NaN); integers exactly."""

    rtol: float = 1e-5
    atol: float = 1e-6
    # not None: floats compare by their bits instead, any NaN equal to any NaN, and (when > 0) values at most
    # this many units in the last place apart equal too (kernels calling transcendental functions)
    ulps: int | None = None

    @staticmethod
    def exact() -> "Tolerance":
        return Tolerance(0.0, 0.0)

    @staticmethod
    def bits(ulps: int = 0) -> "Tolerance":
        """Bit-exact floats (NaN payloads aside), or within ``ulps``."""
        return Tolerance(0.0, 0.0, ulps)


DEFAULT_TOLERANCE = Tolerance()


@dataclass
class Difference:
    """The first element where two runs disagree."""

    buffer: str
    index: int | tuple[int, ...]
    device_value: Any
    simu_value: Any
    count: int = 1  # how many elements of that buffer differ
    device: str = ""
    schedule: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if isinstance(self.index, tuple):
            d["index"] = list(self.index)
        return d

    def __str__(self) -> str:
        where = f"{self.buffer}[{self.index if not isinstance(self.index, tuple) else ','.join(map(str, self.index))}]"
        return (f"{where}: device {self.device_value!r}, simu {self.simu_value!r}"
                + (f" ({self.count} elements differ)" if self.count > 1 else ""))


def _differ(a: np.ndarray, b: np.ndarray, tol: Tolerance) -> np.ndarray:
    """Boolean mask (flat) of elements of a that differ from b."""
    a = np.ascontiguousarray(a).reshape(-1)
    b = np.ascontiguousarray(b).reshape(-1)
    if a.dtype.fields is not None or a.dtype.kind not in "biufc":
        item = max(a.dtype.itemsize, 1)
        ab = a.view(np.uint8).reshape(-1, item)
        bb = b.view(np.uint8).reshape(-1, item)
        return (ab != bb).any(axis=1)
    if a.dtype.kind == "f" and tol.ulps is not None:
        return _ulp_differ(a, b, tol.ulps)
    if a.dtype.kind in "fc" and (tol.rtol or tol.atol):
        with np.errstate(all="ignore"):
            af = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
            bf = b.astype(af.dtype)
            close = np.abs(af - bf) <= tol.atol + tol.rtol * np.abs(bf)
            close |= np.isnan(af) & np.isnan(bf)
            close |= af == bf  # infinities
        return ~close
    if a.dtype.kind in "fc":  # exact: compare bit patterns
        return (a.view(np.uint8).reshape(len(a), -1) != b.view(np.uint8).reshape(len(b), -1)).any(axis=1)
    return a != b


def _ulp_differ(a: np.ndarray, b: np.ndarray, ulps: int) -> np.ndarray:
    """Floats whose bits differ, unless both are NaN or they are at most ``ulps`` apart."""
    uint = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    ab, bb = a.view(uint), b.view(uint)
    bad = (ab != bb) & ~(np.isnan(a) & np.isnan(b))
    if ulps and bad.any():
        top = np.array(1, uint) << np.array(8 * a.dtype.itemsize - 1, uint)

        def ordered(u: np.ndarray) -> np.ndarray:  # the float's place on the number line, as an integer
            neg = (u & top) != 0
            mag = (u & ~top).astype(np.int64)
            return np.where(neg, -mag, mag)

        with np.errstate(over="ignore"):
            dist = np.abs(ordered(ab) - ordered(bb))
        bad &= ~((dist <= ulps) & ~np.isnan(a) & ~np.isnan(b))
    return bad


def first_difference(device: Outputs, simu: Outputs, tol: Tolerance = DEFAULT_TOLERANCE) -> Difference | None:
    """The first differing element over the buffers both sides have (sorted by name); ``None`` if equal."""
    for name in sorted(set(device) & set(simu)):
        a, b = device[name], simu[name]
        if a.shape != b.shape or a.dtype != b.dtype:
            if a.size != b.size or a.dtype.itemsize != b.dtype.itemsize:
                return Difference(name, 0, f"shape {a.shape} {a.dtype}", f"shape {b.shape} {b.dtype}",
                                  max(a.size, b.size))
            b = b.view(a.dtype).reshape(a.shape)
        bad = _differ(a, b, tol)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            index: int | tuple[int, ...] = i if a.ndim <= 1 else tuple(int(x) for x in np.unravel_index(i, a.shape))
            return Difference(name, index, _py(a.reshape(-1)[i]), _py(b.reshape(-1)[i]), int(bad.sum()))
    return None


def same(a: Outputs, b: Outputs, tol: Tolerance = DEFAULT_TOLERANCE) -> bool:
    return first_difference(a, b, tol) is None


def _py(v: Any) -> Any:
    if isinstance(v, np.void):
        return bytes(v).hex()
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return repr(v)
    return v


def group_outcomes(runs: list[Outputs], tol: Tolerance = DEFAULT_TOLERANCE) -> list[int]:
    """Outcome index of every run: runs with equal outputs share an index (first seen = 0)."""
    reps: list[Outputs] = []
    out: list[int] = []
    for r in runs:
        for i, rep in enumerate(reps):
            if same(r, rep, tol):
                out.append(i)
                break
        else:
            reps.append(r)
            out.append(len(reps) - 1)
    return out


def majority(implementations: dict[str, Outputs], tol: Tolerance = DEFAULT_TOLERANCE) -> dict[str, Any]:
    """Majority vote between implementations (simu and each device) of one launch.

    Returns ``{"groups": [[names...], ...], "majority": [names] | None, "wrong": [names]}``: with
    three or more implementations, a group holding more than half of them is the majority and
    every implementation outside it is wrong; with two that disagree nobody can tell.
    """
    names = list(implementations)
    ids = group_outcomes([implementations[n] for n in names], tol)
    groups: list[list[str]] = [[] for _ in range(max(ids) + 1 if ids else 0)]
    for n, i in zip(names, ids, strict=False):
        groups[i].append(n)
    groups.sort(key=len, reverse=True)
    result: dict[str, Any] = {"groups": groups, "majority": None, "wrong": []}
    if len(names) >= 3 and groups and len(groups[0]) * 2 > len(names):
        result["majority"] = groups[0]
        result["wrong"] = [n for g in groups[1:] for n in g]
    return result
