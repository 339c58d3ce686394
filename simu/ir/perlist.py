"""Analyses of a decoded function computed once per block list, or of a kernel once per kernel: the compiler, the
search's shape, its layout, its refutations and the launches run before it all ask for the same facts, and a kernel
of 100,000s of instructions (unrolled hash rounds) pays seconds for each pass over it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
CACHED = 64  # block lists kept per analysis


def once_per_object(compute: Callable[[Any], T]) -> Callable[[Any], T]:
    """``compute(x)`` cached by the identity of ``x`` (a block list, a kernel), kept with its result so that its id is
    not reused while cached; the oldest of :data:`CACHED` is dropped first.  The result is shared: callers read it,
    never change it."""
    cache: dict[int, tuple[Any, T]] = {}

    @functools.wraps(compute)
    def cached(x: Any) -> T:
        hit = cache.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
        found = compute(x)
        if len(cache) >= CACHED:
            cache.pop(next(iter(cache)))
        cache[id(x)] = (x, found)
        return found

    return cached


once_per_block_list = once_per_object  # a decoded function's facts, by its block list
once_per_kernel = once_per_object  # a kernel's facts (its parameters and its function)
