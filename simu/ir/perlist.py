"""Analyses of a decoded function computed once per block list: the compiler, the search's shape and its layout
all ask for the same function's facts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
CACHED = 64  # block lists kept per analysis


def once_per_block_list(compute: Callable[[list[Any]], T]) -> Callable[[list[Any]], T]:
    """``compute(blocks)`` cached by the list's identity (the list is kept with its result, so its id is not reused
    while cached); the oldest of :data:`CACHED` lists is dropped first."""
    cache: dict[int, tuple[list[Any], T]] = {}

    @functools.wraps(compute)
    def cached(blocks: list[Any]) -> T:
        hit = cache.get(id(blocks))
        if hit is not None and hit[0] is blocks:
            return hit[1]
        found = compute(blocks)
        if len(cache) >= CACHED:
            cache.pop(next(iter(cache)))
        cache[id(blocks)] = (blocks, found)
        return found

    return cached
