"""The C allocator kept from handing trace memory back to the system between launches.

A launch's trace columns are arrays of hundreds of kilobytes to megabytes, made fresh at every launch.  glibc's
allocator serves such sizes with ``mmap`` and unmaps them when freed (its threshold moves up only after a large
block is freed), so every launch pays the page faults of zeroed pages again: a fifth of a 4,096-thread scan's time.
Keeping them in the heap (served from memory the last launch freed) removes that.  Where the C library has no
``mallopt`` (not glibc), nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3  # glibc's malloc.h
MMAP_THRESHOLD = 32 << 20  # blocks under this come from the heap, reused launch after launch
TRIM_THRESHOLD = 128 << 20  # free memory at the heap's top past this goes back to the system
TOP_PAD = 16 << 20  # the heap grows by this much at a time


@cache
def keep_freed_memory() -> bool:
    """Tune the process's allocator once (every later call returns at once); whether it could be tuned."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
        mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
        return all(mallopt(option, value) == 1 for option, value in (
            (M_MMAP_THRESHOLD, MMAP_THRESHOLD), (M_TRIM_THRESHOLD, TRIM_THRESHOLD), (M_TOP_PAD, TOP_PAD)))
    except (OSError, AttributeError, TypeError):
        return False


__all__ = ["keep_freed_memory"]
