"""Distinct contents for a launch's chosen buffers (:meth:`simu.evolve.genome.Layout.distinct`, the contents
refutation of :mod:`simu.evolve.refute`): element k holds k, in every integer, float or struct buffer whose contents
the search chose, the member buffers behind a parameter's pointers (:mod:`simu.launch.members`) too, while the float
fields of structs and the pointer slots of a holder keep what they hold (a slot is an address the machine writes,
never an integer to vary).  Floats vary too: equal coordinates put every point within every cutoff
(``if (dx*dx + dy*dy < r2) nl[i*MAX + atomicAdd(&n[i], 1)] = j``), and the slots then overflow into a
neighbour's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from simu.launch.buffers import distinct_contents, element_type, is_record
from simu.launch.members import element_of, holds_pointers, member_fields, slot_mask
from simu.launch.model import Launch


def distinct_launch(params: list, chosen: set[str], launch: Launch) -> tuple[Launch, list[str]] | None:
    """``launch`` with distinct contents in the buffers of ``chosen`` (parameters among ``params`` and their member
    buffers) and the names of the buffers that changed; None when none changes."""
    fresh: dict[int, np.ndarray] = {}
    names = []
    items: list[tuple[str, Any, Any]] = [(p.name, p, p) for p in params]
    items += [(name, f, None) for name, f in member_fields(params).items()]
    for name, what, p in items:
        arr = launch.args.get(name)
        if name not in chosen or not isinstance(arr, np.ndarray) or arr.dtype.kind not in "iuf":
            continue
        dt, comps = element_of(p) if p is not None else element_type(what.pointee, what.pointee_size)
        if arr.dtype != dt or arr.size % comps:
            continue
        record = is_record(what.pointee)
        new = distinct_contents(dt, arr.size // comps, comps, record and dt.itemsize == 1)
        keep = np.zeros(arr.nbytes, bool)  # per byte
        if record and what.pointee_floats:  # a struct's float fields keep their contents
            floats = np.zeros(comps * dt.itemsize, bool)
            for offset, size in what.pointee_floats:
                floats[offset:offset + size] = True
            keep |= np.tile(floats, arr.size // comps)
        if p is not None and holds_pointers(p):  # and its pointer slots theirs
            keep |= slot_mask(p, arr.nbytes)
        keep = keep.reshape(-1, dt.itemsize).any(axis=1)
        if keep.any():
            new = np.where(keep, arr.reshape(-1), new)
        new = new.reshape(arr.shape)
        if not np.array_equal(new, arr):
            new.flags.writeable = False
            fresh[id(arr)] = new
            names.append(name)
    if not fresh:
        return None
    args = {k: fresh.get(id(v), v) if isinstance(v, np.ndarray) else v for k, v in launch.args.items()}
    specs = {k: v for k, v in launch.buffer_specs.items() if k not in names}
    return replace(launch, args=args, buffer_specs=specs), names
