"""Buffer contents: the fills, C element types, and specs that regenerate a buffer exactly.

Every generated buffer has a *spec*, a small JSON-able dict from which :func:`buffer_from_spec`
rebuilds exactly the same array (it is recorded in ``Launch.buffer_specs`` and, through the
finding's launch record, lets :mod:`simu.validate` replay a launch on hardware)::

    {"dtype": "float32", "length": 1024, "fill": "random", "low": -1.0, "high": 1.0,
     "seed": 7, "rng": {"state": "0x...", "inc": "0x...", "has_uint32": 0, "uinteger": 0}}
    {"dtype": "int32", "length": 64, "fill": "ramp", "modulo": 64}
    {"dtype": "uint32", "length": 1, "fill": "zeros"}            # also "ones"
    {"dtype": "float32", "length": 8, "fill": "const", "value": 2.5}
    {"dtype": "uint8", "length": 16, "fill": "data", "base64": "...", "shape": [4, 4]}
    {"dtype": "float32", "length": 256, "fill": "ramp", "shape": [16, 16], "texture": "linear,wrap,norm"}
    {"dtype": "int32", "length": 65, "fill": "offsets", "high": 256, "rng": {...}}  # CSR: simu.launch.graphs
    {"same": "tex"}                                              # the very array of parameter tex

``rng`` is the state of numpy's PCG64 generator (``np.random.default_rng(seed)``) just before the
buffer was drawn: buffers share one generator per launch, so the state, not the seed alone, says
where this buffer's numbers start.  Random integers are ``rng.integers(low, high, length)`` and
random floats ``rng.uniform(low, high, length)``, converted to the dtype.  The "small" and
"signed" fills are "random" ones with other bounds, and are recorded as such.
"""

from __future__ import annotations

import base64
import re
import weakref
from typing import Any

import numpy as np

from simu.errors import LaunchError
from simu.launch import graphs
from simu.launch.model import Launch, LocalBuffer

C_TYPES = {
    "float": np.float32, "double": np.float64, "half": np.float16, "__half": np.float16,
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8, "uchar": np.uint8, "int8_t": np.int8,
    "uint8_t": np.uint8, "bool": np.uint8, "_Bool": np.uint8,
    "short": np.int16, "unsigned short": np.uint16, "ushort": np.uint16, "int16_t": np.int16, "uint16_t": np.uint16,
    "int": np.int32, "unsigned int": np.uint32, "uint": np.uint32, "unsigned": np.uint32, "int32_t": np.int32,
    "uint32_t": np.uint32,
    "long": np.int64, "unsigned long": np.uint64, "ulong": np.uint64, "long long": np.int64,
    "unsigned long long": np.uint64, "int64_t": np.int64, "uint64_t": np.uint64, "size_t": np.uint64,
    "ptrdiff_t": np.int64,
}

# Every fill.  random: uniform numbers; ramp: 0, 1, 2, ...; small: numbers usable as indices
# (integers below the thread count, floats in [0, 1)); signed: negative numbers too; const: one value.
# The search's fill gene indexes PLAIN_FILLS (the fills that need no value), in this order.
FILLS = ("random", "ramp", "zeros", "ones", "small", "signed", "const")
PLAIN_FILLS = tuple(f for f in FILLS if f != "const")


def element_type(c_type: str | None, size: int | None = None) -> tuple[np.dtype, int]:
    """(numpy dtype, components) for a pointee C type such as "float" or "float4"; for another type
    (a struct), ``size`` bytes when the debug information gives its size, else 16 bytes."""
    if not c_type:
        return np.dtype(np.uint8), size or 16
    name = c_type.replace("const", "").replace("volatile", "").replace("__restrict__", "").strip()
    if name in C_TYPES:
        return np.dtype(C_TYPES[name]), 1
    m = re.fullmatch(r"([a-z]+?)(\d+)", name)
    if m and m.group(1) in C_TYPES:
        return np.dtype(C_TYPES[m.group(1)]), int(m.group(2)) if m.group(2) != "3" else 4
    return np.dtype(np.uint8), size or 16


def is_record(c_type: str | None) -> bool:
    """Whether :func:`element_type` sizes the pointee ``c_type`` as bytes because it is a struct (or a type the
    debug information does not name), not a scalar or vector type; a pointer to pointers is none."""
    if not c_type:
        return True
    name = c_type.replace("const", "").replace("volatile", "").replace("__restrict__", "").strip()
    if name in C_TYPES or name.endswith("*"):
        return False
    m = re.fullmatch(r"([a-z]+?)(\d+)", name)
    return not (m and m.group(1) in C_TYPES)


def distinct_contents(dtype: np.dtype, elements: int, components: int = 1, record: bool = False) -> np.ndarray:
    """Distinct integer contents for a buffer of ``elements`` elements of ``components`` components each:
    element k (each of its components; each 4-, 2- or 1-byte word of a ``record`` of ``components`` bytes)
    holds k, in its integer type, wrapping only where that type forces it (a uchar wraps at 256).  Indices
    read from such buffers are distinct across elements and stay inside buffers of as many elements."""
    if record:
        word = 4 if components % 4 == 0 else 2 if components % 2 == 0 else 1
        words = np.repeat(np.arange(elements), components // word)
        return words.astype({4: np.int32, 2: np.int16, 1: np.uint8}[word]).view(np.uint8)
    return np.repeat(np.arange(elements), components).astype(dtype)


def default_range(dtype: np.dtype) -> tuple[float, float]:
    """The [low, high) range of a "random" fill: floats in [-1, 1), unsigned [0, 100), signed [-100, 100)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return -1.0, 1.0
    if dtype.kind == "u":
        return 0, 100
    return -100, 100


def default_modulo(dtype: np.dtype) -> int:
    """A "ramp" fill is ``arange(length) % modulo``; by default it wraps only for 1-byte integers."""
    dtype = np.dtype(dtype)
    return int(np.iinfo(dtype).max) if dtype.kind in "iu" and dtype.itemsize == 1 else 1 << 62


def rng_state(rng: np.random.Generator) -> dict[str, Any]:
    """The JSON-able state of a PCG64 generator (128-bit numbers as hex strings)."""
    st = rng.bit_generator.state
    if st.get("bit_generator") != "PCG64":
        raise LaunchError(f"cannot record the state of a {st.get('bit_generator')} generator (PCG64 only)")
    return {"state": hex(st["state"]["state"]), "inc": hex(st["state"]["inc"]),
            "has_uint32": int(st["has_uint32"]), "uinteger": int(st["uinteger"])}


def rng_from_state(state: dict[str, Any]) -> np.random.Generator:
    """A generator positioned at a state recorded by :func:`rng_state`."""
    rng = np.random.default_rng(0)
    rng.bit_generator.state = {"bit_generator": "PCG64",
                               "state": {"state": int(str(state["state"]), 0), "inc": int(str(state["inc"]), 0)},
                               "has_uint32": int(state.get("has_uint32", 0)), "uinteger": int(state.get("uinteger", 0))}
    return rng


def _bounds(fill: str, dtype: np.dtype, threads: int | None) -> tuple[float, float]:
    """The [low, high) range of a random-number fill ("random", "small" or "signed")."""
    lo, hi = default_range(dtype)
    if dtype.kind not in "iu":
        return (0.0, 1.0) if fill == "small" else (lo, hi)
    if fill == "small":
        return 0, max(threads, 1) if threads is not None else hi
    if threads is None:
        return lo, hi
    top = max(threads, 2)
    return (-top if fill == "signed" and dtype.kind == "i" else 0), top


def draw_buffer(dtype: np.dtype, length: int, fill: str, rng: np.random.Generator | None, value: float = 0,
                low: float | None = None, high: float | None = None, modulo: int | None = None,
                seed: int | None = None, threads: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """Generate a buffer and the spec that regenerates it (see the module docstring).

    ``low``/``high`` change the range of a random-number fill and ``modulo`` the period of a
    "ramp".  ``threads``, the launch's thread count, keeps integers usable as indices into
    buffers of one element per thread: "random" and "small" integers in [0, threads), "signed"
    ones in [-threads, threads), an integer "ramp" modulo ``threads``.
    """
    dtype = np.dtype(dtype)
    length = int(length)
    spec: dict[str, Any] = {"dtype": str(dtype), "length": length, "fill": fill}
    if fill in ("random", "small", "signed"):
        if rng is None:
            raise LaunchError("a random fill needs a generator")
        lo, hi = _bounds(fill, dtype, threads)
        spec.update(fill="random", low=lo if low is None else low, high=hi if high is None else high)
        if seed is not None:
            spec["seed"] = int(seed)
        spec["rng"] = rng_state(rng)
    elif fill == "const":
        spec["value"] = value
    elif fill == "ramp":
        if modulo is None and threads is not None and dtype.kind in "iu":
            modulo = max(threads, 1)
        spec["modulo"] = int(modulo) if modulo is not None else default_modulo(dtype)
    elif fill not in ("zeros", "ones"):
        raise LaunchError(f"unknown fill '{fill}' (use one of {', '.join(FILLS)})")
    return _generate(spec, dtype, length, rng), spec


def fill_arguments(fill: str, values: dict[str, Any], length: int) -> tuple[str, dict[str, Any]]:
    """A contract's fill as :func:`draw_buffer`'s fill and keywords.  Besides :data:`FILLS`, the host's own
    (:mod:`simu.host.ast.contents`): ``const:V`` (every element ``V``), ``below:B`` (random integers in [0, B), ``B``
    a number or a scalar parameter's name, taken from ``values``), ``ramp:length`` (element k holds k throughout)."""
    kind, _, rest = fill.partition(":")
    if kind == "const" and rest:
        return "const", {"value": float(rest)}
    if kind == "below" and rest:
        bound = values.get(rest, rest)
        try:
            return "random", {"low": 0, "high": max(1, int(float(bound)))}
        except (TypeError, ValueError):
            return "random", {}
    if kind == "ramp" and rest == "length":
        return "ramp", {"modulo": max(1, int(length))}
    return fill, {}


def seal(arr: np.ndarray, spec: dict[str, Any]) -> np.ndarray:
    """Make a drawn array read-only and remember the spec it was drawn with: :func:`buffer_specs`
    then trusts that spec without regenerating the array (launches built in bulk, as the search's)."""
    arr.flags.writeable = False
    key = id(arr)
    _SEALED[key] = (weakref.ref(arr), spec)
    weakref.finalize(arr, _SEALED.pop, key, None)
    return arr


_SEALED: dict[int, tuple[weakref.ref, dict[str, Any]]] = {}  # id(array) -> (array, its spec), while it lives


def make_buffer(dtype: np.dtype, length: int, fill: str, rng: np.random.Generator, value: float = 0) -> np.ndarray:
    """The array of :func:`draw_buffer`, without its spec."""
    return draw_buffer(dtype, length, fill, rng, value)[0]


def _generate(spec: dict[str, Any], dtype: np.dtype, length: int, rng: np.random.Generator | None) -> np.ndarray:
    fill = spec.get("fill")
    if fill == "zeros":
        return np.zeros(length, dtype)
    if fill == "ones":
        return np.ones(length, dtype)
    if fill == "const":
        return np.full(length, spec.get("value", 0), dtype)
    if fill == "ramp":
        return (np.arange(length) % int(spec.get("modulo", default_modulo(dtype)))).astype(dtype)
    if fill in graphs.GRAPH_FILLS:
        return graphs.generate(spec, dtype, length, rng, buffer_from_spec)
    if fill == "random":
        lo, hi = default_range(dtype)
        lo, hi = spec.get("low", lo), spec.get("high", hi)
        if dtype.kind == "f":
            return rng.uniform(lo, hi, length).astype(dtype)
        return rng.integers(int(lo), int(hi), length).astype(dtype)
    raise LaunchError(f"unknown fill '{fill}' (use one of {', '.join(FILLS)})")


def buffer_from_spec(spec: dict[str, Any]) -> np.ndarray:
    """Rebuild the exact array a spec describes (the inverse of :func:`draw_buffer`)."""
    try:
        dtype = np.dtype(spec["dtype"])
        fill = spec.get("fill")
        if fill == "data":
            arr = np.frombuffer(bytearray(base64.b64decode(spec["base64"])), dtype)
            return arr.reshape(spec["shape"]) if spec.get("shape") else arr
        length = int(spec["length"])
    except (KeyError, TypeError, ValueError) as exc:
        raise LaunchError(f"bad buffer spec {spec!r}: {exc}") from None
    rng = None
    if fill == "random" or fill in graphs.GRAPH_FILLS and fill not in ("starts", "buckets"):
        if spec.get("rng"):
            rng = rng_from_state(spec["rng"])
        elif spec.get("seed") is not None:
            rng = np.random.default_rng(int(spec["seed"]))
        else:
            raise LaunchError(f"random buffer spec without 'rng' or 'seed': {spec!r}")
    arr = _generate(spec, dtype, length, rng)
    return arr.reshape(spec["shape"]) if spec.get("shape") else arr


def data_spec(arr: np.ndarray) -> dict[str, Any]:
    """A spec that embeds the array's bytes (base64)."""
    arr = np.ascontiguousarray(arr)
    spec: dict[str, Any] = {"dtype": str(arr.dtype), "length": int(arr.size), "fill": "data",
                            "base64": base64.b64encode(arr.tobytes()).decode("ascii")}
    if arr.ndim != 1:
        spec["shape"] = list(arr.shape)
    return spec


def buffer_specs(launch: Launch, inline_limit: int = 1 << 16) -> dict[str, dict[str, Any]]:
    """A replayable description of every buffer argument of ``launch``, by name.

    Uses the recorded spec in ``launch.buffer_specs`` when it still regenerates the array,
    otherwise embeds arrays of at most ``inline_limit`` bytes; larger unexplained arrays (only
    buffers given from outside, ``simu run --load``: every generated buffer has its spec) get
    ``"fill": "unknown"`` (not replayable exactly).  ``__local`` buffers are ``{"local_bytes": n}``.  A
    texture's descriptor settings (``"texture"``, see :func:`simu.launch.images.texture_mode`) are kept, and so are
    the pointer slots of a buffer that holds device pointers (``"pointers"``: ``Launch.pointers``' runs, the member
    buffers they name among the specs), a module variable's as ``{"symbol": true, "pointers": …, "offset": …,
    "values": …}`` (what the host copies there: ``Launch.symbols``).
    """
    out: dict[str, dict[str, Any]] = {}
    for name, v in launch.args.items():
        if isinstance(v, LocalBuffer):
            out[name] = {"local_bytes": int(v.nbytes)}
            continue
        if not isinstance(v, np.ndarray) or v.ndim == 0:
            continue
        spec = launch.buffer_specs.get(name)
        if spec is not None and "same" in spec:
            if launch.args.get(spec["same"]) is v:
                out[name] = {"same": spec["same"]}  # the partner's very array (one buffer on the machine)
                continue
            spec = None
        if spec is not None and _regenerates(spec, v):
            spec = dict(spec)
            if v.ndim != 1:
                spec["shape"] = list(v.shape)
            out[name] = spec
        elif v.nbytes <= inline_limit:
            out[name] = data_spec(v)
        else:
            out[name] = {"dtype": str(v.dtype), "length": int(v.size), "fill": "unknown"}
        if spec is not None and spec.get("texture"):  # a texture's descriptor settings travel with it
            out[name]["texture"] = spec["texture"]
        if launch.pointers.get(name):  # the member buffers its pointer slots hold (simu.launch.members)
            out[name]["pointers"] = [list(run) for run in launch.pointers[name]]
    for name in dict.fromkeys([*launch.pointers, *launch.symbols]):  # module variables: their slots, host copies
        if name in launch.args:
            continue
        out[name] = {"symbol": True}
        if launch.pointers.get(name):
            out[name]["pointers"] = [list(run) for run in launch.pointers[name]]
        if name in launch.symbols:
            out[name]["offset"], out[name]["values"] = launch.symbols[name][0], _lists(launch.symbols[name][1])
    return out


def _lists(v: Any) -> Any:
    return [_lists(x) for x in v] if isinstance(v, (tuple, list)) else v


def _regenerates(spec: dict[str, Any], arr: np.ndarray) -> bool:
    """The spec rebuilds exactly ``arr`` (its dtype, size and bytes)."""
    sealed = _SEALED.get(id(arr))
    if sealed is not None and sealed[0]() is arr and sealed[1] is spec and not arr.flags.writeable:
        return True  # drawn with this very spec and read-only since
    try:
        again = buffer_from_spec(spec)
    except LaunchError:
        return False
    return (again.dtype == arr.dtype and again.size == arr.size
            and again.tobytes() == np.ascontiguousarray(arr).tobytes())
