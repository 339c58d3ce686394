"""Sampler arithmetic of OpenCL images (s8.2 of the OpenCL 1.2 specification), vectorised over lanes:
which texels a read with float coordinates touches and with which weights.

:func:`taps` turns float coordinates into the texels a read fetches: one per lane for
CLK_FILTER_NEAREST, 2 / 4 / 8 for CLK_FILTER_LINEAR on 1-, 2- and 3-D images, each with its weight,
its integer coordinates and whether it lies inside the image.  Everything is float32 arithmetic in
the specification's order, which is also PoCL's (``lib/kernel/read_image.cl``):

* normalised coordinates are scaled by the image's size (``u = s * w``) for CLAMP_TO_EDGE / CLAMP /
  NONE; REPEAT takes ``u = (s - floor(s)) * w``, MIRRORED_REPEAT ``u = |s - 2 rint(s / 2)| * w``;
* nearest: ``i = floor(u)`` then the addressing mode; linear: ``i0 = floor(u - 0.5)``, ``i1 = i0 + 1``,
  ``a = fract(u - 0.5)``, weights ``(1 - a)(1 - b)``, ``a(1 - b)``, ``(1 - a)b``, ``ab`` (times
  ``(1 - c)`` / ``c`` in 3-D, multiplied left to right) in the order i0j0, i1j0, i0j1, i1j1 (k0 then k1);
* :func:`blend` sums ``weight * texel`` tap by tap from 0, unfused (PoCL's library is built without
  contraction here: the probe in tests/differential matches only the unfused sum).

A float that does not fit an int converts to INT_MIN, as x86's cvttps2dq does (PoCL on the CPU).
CLK_ADDRESS_NONE leaves coordinates outside the image undefined: simu clamps them to the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NORMALIZED, ADDRESS_MASK, FILTER_LINEAR = 0x01, 0x0E, 0x20
NONE, CLAMP_TO_EDGE, CLAMP, REPEAT, MIRRORED_REPEAT = 0x0, 0x2, 0x4, 0x6, 0x8
_F = np.float32
_ALMOST_ONE = np.nextafter(_F(1), _F(0))
_INT_MIN = np.iinfo(np.int32).min


@dataclass
class Tap:
    """One texel per lane: its weight (None for nearest filtering), coordinates and whether it is
    inside the image (outside: the border colour, nothing is read)."""

    weight: np.ndarray | None
    coords: list[np.ndarray]  # x, y, z (int64), only the image's spatial ones
    inside: np.ndarray


def to_int(f: np.ndarray) -> np.ndarray:
    """convert_int of float32 values (round toward zero), INT_MIN for NaN and values out of range."""
    f = np.asarray(f, _F)
    ok = np.isfinite(f) & (f > -2.0 ** 31 - 1) & (f < 2.0 ** 31)
    return np.where(ok, np.trunc(np.where(ok, f, 0)), _INT_MIN).astype(np.int64)


def fract(x: np.ndarray) -> np.ndarray:
    """OpenCL ``fract``: ``min(x - floor(x), 0x1.fffffep-1f)``."""
    return np.minimum(x - np.floor(x), _ALMOST_ONE).astype(_F)


def layer_index(c: np.ndarray, layers: int) -> np.ndarray:
    """The layer of an image array from its (never normalised) float coordinate: clamp(rint(c), 0, L - 1)."""
    return np.clip(to_int(np.rint(np.asarray(c, _F))), 0, max(layers - 1, 0))


def taps(coords: np.ndarray, size: tuple[int, ...], bits: int) -> list[Tap]:
    """The texels a read with float coordinates ``coords`` (lanes x spatial dims, float32) of an image of
    ``size`` (width, height, depth: its spatial ones) touches under sampler ``bits``."""
    c = np.asarray(coords, _F).reshape(len(coords), -1)[:, :len(size)]
    ext = np.array(size, _F)
    mode = bits & ADDRESS_MASK
    linear = bool(bits & FILTER_LINEAR)
    if mode == REPEAT:
        u = ((c - np.floor(c)) * ext).astype(_F)
    elif mode == MIRRORED_REPEAT:
        s = np.abs(c - _F(2) * np.rint(_F(0.5) * c)).astype(_F)
        u = (s * ext).astype(_F)
    else:
        u = (c * ext).astype(_F) if bits & NORMALIZED else c
    m = np.array(size, np.int64)
    if not linear:
        i = to_int(np.floor(u))
        idx, inside = _address(i, m, mode)
        return [Tap(None, [idx[:, k] for k in range(len(size))], inside)]
    t = (u - _F(0.5)).astype(_F)
    r0 = np.floor(t)
    i0, i1 = to_int(r0), to_int(r0 + _F(1))
    if mode == REPEAT:
        i0 = np.where(i0 < 0, i0 + m, i0)
        i1 = i1 % np.maximum(m, 1)
        in0 = in1 = np.ones(i0.shape, bool)
    elif mode == MIRRORED_REPEAT:
        i0, i1 = np.maximum(i0, 0), np.minimum(i1, m - 1)
        in0 = in1 = np.ones(i0.shape, bool)
    else:
        (i0, in0), (i1, in1) = _address(i0, m, mode, each=True), _address(i1, m, mode, each=True)
    a = fract(t)
    one_m = (_F(1) - a).astype(_F)
    out = []
    for corner in _corners(len(size)):
        w = None
        coords_k, inside = [], np.ones(len(c), bool)
        for k, hi in enumerate(corner):
            f = (a if hi else one_m)[:, k]
            w = f if w is None else (w * f).astype(_F)
            coords_k.append((i1 if hi else i0)[:, k])
            inside &= (in1 if hi else in0)[:, k]
        out.append(Tap(w, coords_k, inside))
    return out


def _corners(dims: int) -> list[tuple[int, ...]]:
    """(x, y, z) high/low choices in the order the weighted sum adds them: x fastest, then y, then z."""
    return [tuple((n >> k) & 1 for k in range(dims)) for n in range(1 << dims)]


def _address(i: np.ndarray, m: np.ndarray, mode: int, each: bool = False):
    """Integer coordinates after CLAMP_TO_EDGE / CLAMP / NONE addressing and whether they are inside the
    image (per lane; per lane and axis when ``each``)."""
    inside = (i >= 0) & (i < m)
    if mode == CLAMP:
        return np.clip(i, 0, m - 1), inside if each else inside.all(axis=1)
    clamped = np.clip(i, 0, m - 1)  # CLAMP_TO_EDGE (NONE: undefined outside, clamped too)
    ones = np.ones(i.shape, bool)
    return clamped, ones if each else ones.all(axis=1)


def blend(weights_and_texels: list[tuple[np.ndarray, np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    """``sum += weight * texel`` over the taps (weight (n,), texel (n, 4) float32, mask (n,) of taps
    that contribute), from 0, one rounding per multiply and add."""
    total = np.zeros((n, 4), _F)
    for w, texel, ok in weights_and_texels:
        add = (total + (w[:, None] * texel).astype(_F)).astype(_F)
        total = np.where(ok[:, None], add, total)
    return total
