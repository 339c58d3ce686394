"""How far apart two places of a project are: the rule that picks the nearest of several namesakes (a wrapper, a
``.cl`` file, a function two programs of one tree each define)."""

from __future__ import annotations


def folders_between(pa: tuple[str, ...] | list[str], pb: tuple[str, ...] | list[str]) -> int:
    """Folders between two folders given by their parts (0: the same folder)."""
    common = 0
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            break
        common += 1
    return len(pa) + len(pb) - 2 * common


def file_distance(a: str, b: str) -> int:
    """Folders between the folders of two files given as relative POSIX paths (0: the same folder)."""
    return folders_between(a.split("/")[:-1], b.split("/")[:-1])
