"""Rebuilding the exact launch behind a finding, and describing a kernel's parameters for a device.

A finding's :class:`~simu.detect.finding.LaunchRecord` holds the grid, block, scalar values,
warp size, dynamic shared memory, the seed and, per buffer, ``{dtype, length}`` plus (when the
launch came from :func:`simu.launch.spec.build_launch` or went through
:func:`record_with_specs`) the fill spec that regenerates its initial contents
(:func:`simu.launch.buffers.buffer_from_spec`).  A record without fill specs is rebuilt the way
``build_launch`` fills unspecified buffers (one ``default_rng(seed)`` drawn in parameter order,
"random" fill) and is marked inexact.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from simu.detect.finding import Finding
from simu.errors import LaunchError
from simu.launch.buffers import buffer_from_spec, buffer_specs, draw_buffer
from simu.launch.members import without_pointers
from simu.launch.model import Launch, LocalBuffer, as_dim3
from simu.launch.record import LaunchRecord, record_of

__all__ = ["ReplayLaunch", "launch_from_record", "record_of", "record_with_specs", "param_table"]


@dataclass
class ReplayLaunch:
    """A rebuilt launch and whether its buffers are known to be exactly the original ones."""

    launch: Launch
    exact: bool = True
    notes: list[str] = field(default_factory=list)


def launch_from_record(record: LaunchRecord | dict[str, Any], kernel=None) -> ReplayLaunch:
    """The :class:`Launch` a record describes (``kernel``, a simu Kernel, orders the arguments)."""
    if isinstance(record, dict):
        record = LaunchRecord.from_dict(record)
    launch = Launch(as_dim3(tuple(record.grid)), as_dim3(tuple(record.block)), {}, int(record.warp_size),
                    int(record.dynamic_shared), int(record.seed), blocks=record.blocks)
    values: dict[str, Any] = {}
    for name, v in record.scalars.items():
        values[name] = np.asarray(v) if isinstance(v, list) else v
    exact = True
    notes: list[str] = []
    legacy_rng = None
    same = {name: spec["same"] for name, spec in record.buffers.items() if "same" in spec}
    for name, spec in record.buffers.items():
        if name in same:
            continue
        if "local_bytes" in spec:
            values[name] = LocalBuffer(int(spec["local_bytes"]))
            continue
        if spec.get("pointers"):  # the member buffers its pointer slots hold (simu.launch.members)
            launch.pointers[name] = [list(run) for run in spec["pointers"]]
            spec = without_pointers(spec)
        if spec.get("symbol"):  # a module variable's slots and host copy: its memory is the machine's
            if "values" in spec:
                launch.symbols[name] = (int(spec.get("offset", 0)), spec["values"])
            continue
        fill = spec.get("fill")
        if fill and fill != "unknown":
            values[name] = buffer_from_spec(spec)
            launch.buffer_specs[name] = dict(spec)
            continue
        # No fill recorded: assume build_launch's default ("random", one generator in order).
        if legacy_rng is None:
            legacy_rng = np.random.default_rng(int(record.seed))
        arr, bspec = draw_buffer(np.dtype(spec["dtype"]), int(spec["length"]), "random", legacy_rng, seed=record.seed)
        values[name] = arr
        launch.buffer_specs[name] = bspec
        exact = False
    if not exact:
        notes.append("buffer contents were not recorded: regenerated as build_launch's default random fill "
                     f"from seed {record.seed} (the replay may differ from the analysed launch)")
    for name, other in same.items():  # one array for both (a texture and a surface over one buffer)
        if other not in values:
            raise LaunchError(f"the launch record's buffer '{name}' is the buffer of '{other}', which it lacks")
        values[name] = values[other]
        launch.buffer_specs[name] = {"same": other}
    order = [p.name for p in kernel.params] if kernel is not None else list(values)
    missing = [n for n in order if n not in values]
    if missing:
        raise LaunchError(f"the launch record has no value for {', '.join(missing)}")
    targets = {run[3] for runs in launch.pointers.values() for run in runs}
    lost = sorted(t for t in targets if t not in values)
    if lost:
        raise LaunchError(f"the launch record's pointer slots point to {', '.join(lost)}, which it lacks")
    launch.args = {n: values[n] for n in order}
    for n, v in values.items():  # keep anything extra the record had (member buffers; helps error messages)
        launch.args.setdefault(n, v)
    return ReplayLaunch(launch, exact, notes)


def record_with_specs(finding: Finding, launch: Launch) -> Finding:
    """The finding with the fill specs of ``launch`` (the launch that produced it) in its record."""
    if finding.launch is None:
        return replace(finding, launch=record_of(launch))
    buffers = dict(finding.launch.buffers)
    for name, spec in buffer_specs(launch).items():
        cur = buffers.get(name)
        if cur is None or "fill" not in cur:
            buffers[name] = {**(cur or {}), **spec}
    return replace(finding, launch=replace(finding.launch, buffers=buffers))


def _scalar_dtype(p) -> str | None:
    from simu.ir.types import FloatType, IntType, VectorType
    from simu.launch.buffers import C_TYPES

    c = (p.c_type or "").replace("const ", "").replace("volatile ", "").strip()
    if c in C_TYPES:
        return np.dtype(C_TYPES[c]).name
    t = p.type
    if isinstance(t, IntType):
        return {1: "uint8", 8: "int8", 16: "int16", 32: "int32", 64: "int64"}.get(t.bits)
    if isinstance(t, FloatType):
        return {"half": "float16", "float": "float32", "double": "float64"}.get(t.kind)
    if isinstance(t, VectorType):
        return None
    return None


def param_table(kernel) -> list[dict[str, Any]]:
    """JSON-able parameter list of a simu Kernel: ``{name, kind: buffer|local|scalar|vector, dtype, count}``."""
    from simu.ir.types import FloatType, IntType, VectorType

    out = []
    for p in kernel.params:
        if p.is_local:
            out.append({"name": p.name, "kind": "local"})
        elif p.is_pointer:
            out.append({"name": p.name, "kind": "buffer"})
        elif isinstance(p.type, VectorType):
            e = p.type.elem
            base = ({8: "int8", 16: "int16", 32: "int32", 64: "int64"}.get(e.bits) if isinstance(e, IntType) else
                    {"half": "float16", "float": "float32", "double": "float64"}.get(e.kind) if isinstance(e, FloatType)
                    else None)
            out.append({"name": p.name, "kind": "vector", "dtype": base, "count": p.type.count})
        else:
            out.append({"name": p.name, "kind": "scalar", "dtype": _scalar_dtype(p)})
    return out
