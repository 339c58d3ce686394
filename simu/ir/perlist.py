"""Analyses of a decoded function computed once per block list, or of a kernel once per kernel: the compiler, the
search's shape, its layout, its refutations and the launches run before it all ask for the same facts, and a kernel
of 100,000s of instructions (unrolled hash rounds) pays seconds for each pass over it."""

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


def once_per_kernel(compute: Callable[[Any], T]) -> Callable[[Any], T]:
    """``compute(kernel)`` cached by the kernel's identity (kept with its result, as :func:`once_per_block_list`
    keeps its list); the result is shared: callers read it, never change it."""
    cache: dict[int, tuple[Any, T]] = {}

    @functools.wraps(compute)
    def cached(kernel: Any) -> T:
        hit = cache.get(id(kernel))
        if hit is not None and hit[0] is kernel:
            return hit[1]
        found = compute(kernel)
        if len(cache) >= CACHED:
            cache.pop(next(iter(cache)))
        cache[id(kernel)] = (kernel, found)
        return found

    return cached
