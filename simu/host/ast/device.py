"""The device a program asks about: ``cudaGetDeviceProperties(&prop, dev)`` then ``k<<<1, prop.maxThreadsPerBlock,
prop.sharedMemPerBlock / 2>>>`` launches with the GPU's own limits, which the program never writes.  simu answers
with one reference device, a compute-capability 8.0 GPU (A100-class): the limits every NVIDIA GPU since Volta
shares (1,024 threads a block, 48 KiB of shared memory a block, warps of 32), and its 108 multiprocessors.  A launch
that reads one says so in its origin (:func:`device_note`); a field the program itself assigns keeps its own value
(:meth:`simu.host.ast.values.Program.field`).  The attribute queries (``cudaDeviceGetAttribute``, OpenCL's
``clGetDeviceInfo``) answer from the same device."""

from __future__ import annotations

from collections.abc import Callable, Container

from simu.host.ast.expr import Const, Expr, Field, Items, _children
from simu.host.ast.nodes import Node, kids, strip

RECORD = "cudaDeviceProp"
PROPERTIES: dict[str, int] = {
    "maxThreadsPerBlock": 1024,
    "warpSize": 32,
    "sharedMemPerBlock": 48 * 1024,
    "sharedMemPerBlockOptin": 163 * 1024,
    "sharedMemPerMultiprocessor": 164 * 1024,
    "regsPerBlock": 65536,
    "regsPerMultiprocessor": 65536,
    "totalConstMem": 64 * 1024,
    "maxThreadsPerMultiProcessor": 2048,
    "maxBlocksPerMultiProcessor": 32,
    "multiProcessorCount": 108,
    "major": 8,
    "minor": 0,
    "concurrentKernels": 1,
}
ARRAYS: dict[str, tuple[int, int, int]] = {
    "maxThreadsDim": (1024, 1024, 64),
    "maxGridSize": (2147483647, 65535, 65535),
}


# what an attribute query writes (``cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, dev)``,
# ``clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t), &v, NULL)``): the property the attribute,
# as spelled, names, read as the field of :data:`RECORD` of the same meaning
QUERIES: dict[str, tuple[int, int]] = {"cudaDeviceGetAttribute": (1, 0), "clGetDeviceInfo": (1, 3)}  # attribute, output
ATTRIBUTES: dict[str, str] = {
    "cudaDevAttrMaxThreadsPerBlock": "maxThreadsPerBlock", "cudaDevAttrMaxSharedMemoryPerBlock": "sharedMemPerBlock",
    "cudaDevAttrWarpSize": "warpSize", "cudaDevAttrMultiProcessorCount": "multiProcessorCount",
    "cudaDevAttrComputeCapabilityMajor": "major", "cudaDevAttrComputeCapabilityMinor": "minor",
    "cudaDevAttrMaxThreadsPerMultiProcessor": "maxThreadsPerMultiProcessor",
    "CL_DEVICE_MAX_COMPUTE_UNITS": "multiProcessorCount", "CL_DEVICE_MAX_WORK_GROUP_SIZE": "maxThreadsPerBlock",
    "CL_DEVICE_LOCAL_MEM_SIZE": "sharedMemPerBlock",
}


def query_field(callee: str, attribute: str) -> tuple[int, Field] | None:
    """For a device attribute query (``callee``) whose attribute is spelled ``attribute``, the output argument's
    position and the property it receives (None for another call or attribute)."""
    name = ATTRIBUTES.get(attribute.strip().strip("()"))
    if callee not in QUERIES or name is None:
        return None
    return QUERIES[callee][1], Field(RECORD, name)


def answer(callee: str, args: list[Node], source: Callable[[Node], str]) -> tuple[Node, Field] | None:
    """For an attribute query's argument nodes, the variable it writes (``&v``'s ``v``) and the property it gets;
    ``source`` spells a node."""
    at, out = QUERIES[callee]
    if max(at, out) >= len(args):
        return None
    found = query_field(callee, source(args[at]))
    target = strip(args[out])
    if found is None or target.get("kind") != "UnaryOperator" or target.get("opcode") != "&" or not kids(target):
        return None
    return kids(target)[0], found[1]


def property_value(f: Field) -> list[int] | None:
    """The reference device's value of a ``cudaDeviceProp`` field (None for another record or field)."""
    return [PROPERTIES[f.name]] if f.record == RECORD and f.name in PROPERTIES else None


def property_array(f: Expr) -> Items | None:
    """``prop.maxThreadsDim`` and ``prop.maxGridSize`` as the three numbers they hold."""
    if isinstance(f, Field) and f.record == RECORD and f.name in ARRAYS:
        return Items(tuple(Const(v) for v in ARRAYS[f.name]))
    return None


def device_note(parts: list[Expr], written: Container[tuple[str, str]]) -> tuple[str, ...]:
    """``the reference GPU's maxThreadsPerBlock = 1024`` for each device property the launch's values read and the
    program does not write (``written``: the (record, field) pairs it assigns)."""
    found: dict[str, str] = {}

    def walk(e: Expr) -> None:
        if isinstance(e, Field) and e.record == RECORD and (e.name in PROPERTIES or e.name in ARRAYS) \
                and (e.record, e.name) not in written:
            found[e.name] = str(PROPERTIES.get(e.name, ARRAYS.get(e.name)))
        for c in _children(e):
            walk(c)

    for p in parts:
        walk(p)
    if not found:
        return ()
    return ("the reference GPU's " + ", ".join(f"{k} = {v}" for k, v in sorted(found.items())),)
