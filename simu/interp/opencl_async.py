"""OpenCL C asynchronous copies (s6.12.10): async_work_group_copy, async_work_group_strided_copy,
wait_group_events, prefetch.  Registered in opencl_builtins.OPENCL_BUILTINS.

How the machine models them, so that the race detector can judge them like ordinary accesses:

* **The copy happens at the call, split over the work-group.**  Element ``i`` of a copy of
  ``num_gentypes`` elements is copied by the work-item whose local linear id is
  ``t = i % L`` (``L`` the local size; work-item ``t`` copies ``t``, ``t + L``, ``t + 2L``... as in
  PoCL's implementation), when that work-item executes the call; every work-item must call the
  function with the same arguments (the specification says so) and each uses its own values.
  In the trace each element is read from the source and written to the destination, at the call's
  instruction (its source line), by work-item ``t`` *and* by a shadow recorder, work-item
  ``(t + L/2) % L`` (one copy of the data is written; the second record only attributes it).  The
  copy is done by the group as a whole, not by one work-item, so any other work-item's access must
  conflict with it: with two recorders every work-item differs from at least one of them.  The
  destination writes are recorded as atomic updates, so that the two records of one element do not
  race with each other; they conflict with every ordinary access of another work-item, and the
  source reads are ordinary reads.  (Consequence: a copy's destination does not race with real
  atomics on it.)  The copy's instruction is marked asynchronous (``Trace.asynchronous``): warp
  lockstep never orders its accesses, so a missing wait is a race in a work-group of a single warp too.
* **The event completes at ``wait_group_events``, which the machine runs as a work-group barrier
  over local and global memory.**  After the wait the copied data is visible to every work-item of
  the group, so a read of the destination after the wait is ordered after the copy (no barrier is
  needed after the wait), while any access by another work-item between the call and the wait to
  the destination (reading it too early) or to the source (overwriting it) is a race with the copy.
  The wait also orders ordinary accesses on its two sides, as the barrier it is in PoCL; a wait is
  never reported as a redundant barrier (it completes the copies), and one not reached by every
  work-item is barrier divergence.
* An event is an opaque handle (a 64-bit integer, see ``simu.ir.types.TargetExtType``): a copy
  returns its ``event`` argument when one is given (the copies then share it), else 1.
* ``prefetch`` is a hint: nothing is read or recorded.
"""

from __future__ import annotations

import numpy as np

from simu.errors import UnsupportedError
from simu.interp.program import RMW, Wait, put, where
from simu.ir.types import PtrType

_SCALARS = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
            "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "float": np.float32, "double": np.float64,
            "half": np.float16, "bool": np.int8}
LOCAL = 3
_XCHG = RMW["xchg"]


def _element(ins, code: str) -> tuple[np.dtype, int]:
    """(scalar dtype, scalars per element) of the pointed-to gentype ``float4*``; a 3-vector is 4 wide."""
    name = code.rstrip("*")
    base = name.rstrip("0123456789")
    width = int(name[len(base):] or 1)
    if base not in _SCALARS or width not in (1, 2, 3, 4, 8, 16):
        raise UnsupportedError(f"async copy of elements of type '{name}'", where(ins))
    return np.dtype(_SCALARS[base]), 4 if width == 3 else width


def _lane_array(g, st, sel, lanes) -> np.ndarray:
    return np.broadcast_to(np.asarray(g(st, sel)).astype(np.int64), lanes.shape)


def _async_copy(ins, base, ptypes, args, dst, proto, dt):
    strided = base == "async_work_group_strided_copy"
    edt, count = _element(ins, ptypes[0])
    esize = edt.itemsize * count
    dst_g, src_g, n_g = args[0], args[1], args[2]
    stride_g = args[3] if strided else None
    event_g = args[4] if strided else args[3]
    dst_type = ins.ops[0].type
    to_local = isinstance(dst_type, PtrType) and dst_type.addrspace == LOCAL  # else local -> global
    iid = ins.id

    def copy(st, lanes, sel):
        st.asynchronous.add(iid)
        d = _lane_array(dst_g, st, sel, lanes)
        s = _lane_array(src_g, st, sel, lanes)
        n = _lane_array(n_g, st, sel, lanes)
        stride = _lane_array(stride_g, st, sel, lanes) if strided else np.ones(lanes.shape, np.int64)
        dstep = esize * (np.ones_like(stride) if to_local else stride)
        sstep = esize * (stride if to_local else np.ones_like(stride))
        t = st.local[lanes].astype(np.int64)
        size = int(st.tpb)
        k = 0
        while True:
            i = t + k * size
            m = i < n
            if not m.any():
                break
            ln, im = lanes[m], i[m]
            src, dst_ = s[m] + im * sstep[m], d[m] + im * dstep[m]
            vals = st.load(ln, src, edt, count, iid)
            vals = vals.reshape(len(ln), count)
            recorders = [(ln, dst_, vals)]
            if size > 1:  # the shadow recorder: the work-item half a group away (lanes sorted for the trace)
                shadow = ln - t[m] + (t[m] + size // 2) % size
                o = np.argsort(shadow, kind="stable")
                st.load(shadow[o], src[o], edt, count, iid)
                recorders.append((shadow[o], dst_[o], vals[o]))
            for who, where_, v in recorders:
                for c in range(count):
                    st.atomic(who, where_ + c * edt.itemsize, _XCHG, v[:, c], edt, iid)
            k += 1
        ev = _lane_array(event_g, st, sel, lanes)
        return np.where(ev != 0, ev, 1).astype(dt if dt is not None else np.int64)
    if dst is None:
        return lambda st, lanes, sel: (copy(st, lanes, sel), None)[1]
    return put(dst, proto, copy)


def _wait_group_events(ins, base, ptypes, args, dst, proto, dt):
    iid = ins.id

    def wait(st, lanes, sel):
        st.barrier_reduce.add(iid)  # "always needed" for the redundant-barrier check: it completes copies
        return Wait(iid, (0, 1))
    return wait


def _prefetch(ins, base, ptypes, args, dst, proto, dt):
    return lambda st, lanes, sel: None


# (base names, translator) pairs for opencl_builtins.OPENCL_BUILTINS
ASYNC_BUILTINS = [
    (["async_work_group_copy", "async_work_group_strided_copy"], _async_copy),
    (["wait_group_events"], _wait_group_events),
    (["prefetch"], _prefetch),
]
