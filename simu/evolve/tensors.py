"""Findings on the data of a tensor accessor (PyTorch's packed accessor, :mod:`simu.interp.members`): at most
warnings.  The machine gives such a tensor a contiguous shape of its buffer's elements, and the program's own
tensor has the shape of its host's ``at::Tensor``, which simu does not read; a kernel that also takes the sizes as
arguments (``N``, ``H``, ``W`` beside the accessors) indexes past a dimension of simu's shape wherever the two
disagree, and two threads then meet on one element no program's launch shares.  The finding says so."""

from __future__ import annotations

from typing import Any

from simu import codes
from simu.detect.finding import Finding
from simu.pipeline import beyond_contract


def tensor_buffers(kernel: Any) -> set[str]:
    """The member buffers of ``kernel``'s tensor accessors passed by value (``alphas.data_``)."""
    out = set()
    for p in kernel.params:
        layout = getattr(p, "pointers", None)
        if layout is not None and layout.by_value:
            out |= {p.name + f.path for f in layout.fields if f.shape is not None}
    return out


def on_simus_shape(findings: list[Finding], tensors: set[str]) -> list[Finding]:
    """``findings`` with those on a tensor of ``tensors`` at most warnings that name the shape's origin."""
    if not tensors:
        return findings
    out = []
    for f in findings:
        name = f.variable.split("[", 1)[0]
        if name in tensors and codes.SEVERITY_RANK.get(f.severity, 0) > codes.SEVERITY_RANK[codes.WARNING]:
            tensor = name.rsplit(".", 1)[0]
            f = beyond_contract(f, f"the shape of tensor '{tensor}' is simu's (a contiguous one of its buffer; the "
                                   "program's is its host's at::Tensor, which simu does not read)",
                                "tensor shape")
        out.append(f)
    return out
