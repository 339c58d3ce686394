"""What a ``define`` line says of a kernel's arguments beyond their types."""

from __future__ import annotations


def byval_arguments(header: str) -> set[int]:
    """The positions of the arguments a ``define`` line passes ``byval``."""
    start = header.find("(", header.find("@"))
    if start < 0:
        return set()
    out, depth, index, piece = set(), 0, 0, []
    for ch in header[start + 1:]:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            if "byval(" in "".join(piece):
                out.add(index)
            index, piece = index + 1, []
            continue
        piece.append(ch)
    if "byval(" in "".join(piece):
        out.add(index)
    return out
