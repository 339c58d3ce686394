"""Host launches as launch contracts: each CUDA launch the host code makes becomes a
:class:`KernelConstraints` (fixed grid/block where known, constant scalar arguments, buffer lengths from
allocation sizes, dynamic shared size) with an origin text naming the launch ("host launch at main.cu:37").
User constraints from the configuration win: their set fields override the host launch's (:func:`merge`)."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path

from simu.host.cuda import CudaLaunch
from simu.host.index import HostIndex
from simu.launch.constraints import KernelConstraints


def host_constraints(index: HostIndex, kernel: str, params: list[tuple[str, int | None]]
                     ) -> list[tuple[KernelConstraints, str]]:
    """One contract per host launch of ``kernel``; ``params`` are its (name, pointee bytes or ``None`` for a
    scalar) in order, as the device IR gives them."""
    out = []
    for x in index.cuda_launches_of(kernel):
        c = launch_constraints(x, params)
        c.origin = f"host launch at {x.where}"
        out.append((c, c.origin))
    for site in index.launches_of(kernel):  # OpenCL: global is total work-items, grid = global / local
        c = KernelConstraints(origin=f"host launch at {site.file}:{site.line}")
        g, loc = site.global_size, site.local_size
        if loc and None not in loc and all(v > 0 for v in loc):
            c.block = tuple(list(loc) + [1] * (3 - len(loc)))[:3]  # type: ignore[assignment]
            if g and len(g) == len(loc) and None not in g and all(a % b == 0 for a, b in zip(g, loc, strict=False)):
                c.grid = tuple([a // b for a, b in zip(g, loc, strict=False)] + [1] * (3 - len(g)))[:3]  # type: ignore
        out.append((c, c.origin))
    return out


def launch_constraints(x: CudaLaunch, params: list[tuple[str, int | None]]) -> KernelConstraints:
    c = KernelConstraints()
    if x.grid and None not in x.grid and all(v > 0 for v in x.grid):
        c.grid = x.grid  # type: ignore[assignment]
    if x.block and None not in x.block and all(v > 0 for v in x.block):
        c.block = x.block  # type: ignore[assignment]
    if x.shmem is not None and x.shmem >= 0:
        c.dynamic_shared = x.shmem
    scalars = {name for name, elem in params if elem is None}
    names = {_ident(a): name for a, (name, _) in zip(x.args_text, params, strict=False) if _ident(a)}
    for i, (name, elem) in enumerate(params[:len(x.args)]):
        if elem is None and x.args[i] is not None:
            c.args[name] = x.args[i]  # type: ignore[assignment]
        if elem is not None and x.buffer_lengths[i] is not None:
            length = _length(x.buffer_lengths[i], x.buffer_elem_bytes[i], elem, names, scalars)
            if length is not None:
                c.buffer_lengths[name] = length
    return c


def merge(host: KernelConstraints, user: KernelConstraints | None) -> KernelConstraints:
    """The host launch's contract with the user's set fields on top."""
    if user is None:
        return host
    out = replace(host, args=dict(host.args), buffer_lengths=dict(host.buffer_lengths))
    for f in fields(KernelConstraints):
        v = getattr(user, f.name)
        if isinstance(v, dict):
            setattr(out, f.name, {**getattr(out, f.name), **v})
        elif v is not None:
            setattr(out, f.name, v)
    return out


def _ident(text: str) -> str | None:
    e = text.strip().strip("()").strip()
    return e if re.fullmatch(r"[A-Za-z_]\w*", e) else None


def _length(value: int | str, elem_bytes: int | None, param_elem: int, names: dict[str, str],
            scalars: set[str]) -> str | None:
    """A buffer length in the kernel parameter's elements: a number, or an expression of scalar params."""
    if isinstance(value, int):
        total = value * (elem_bytes or 1)
        return str(max(1, total // param_elem)) if param_elem > 0 else None
    expr = re.sub(r"[A-Za-z_]\w*", lambda m: names.get(m.group(0), "\0"), value)
    if "\0" in expr or not set(re.findall(r"[A-Za-z_]\w*", expr)) <= scalars:
        return None  # a host value the kernel does not receive
    if elem_bytes is None or elem_bytes == param_elem:
        return expr if elem_bytes is not None else f"({expr})//{param_elem}"
    return f"({expr})*{elem_bytes}//{param_elem}"


def kernel_contract(path: str | Path, kernel, user: KernelConstraints | None) -> KernelConstraints | None:
    """The contract ``simu check`` and the search corpus use for one kernel of ``path``: its first host
    launch in the file or the host files beside it, with the configuration's fields on top; ``user`` alone
    when no host launch is found.  (The first launch only: several launches of one kernel are not split.)"""
    from simu.host.index import HOST_EXTENSIONS, build_host_index

    p = Path(path)
    if not p.is_file():
        return user
    beside = sorted(f for f in p.parent.iterdir() if f.suffix.lower() in HOST_EXTENSIONS and f.is_file())
    index = build_host_index(p.parent, beside or [p])
    return contract_from_index(index, kernel, user, prefer=p)


def contract_from_index(index: HostIndex, kernel, user: KernelConstraints | None,
                        prefer: Path | None = None) -> KernelConstraints | None:
    """The kernel's first host launch in ``index`` as its contract, ``user``'s fields on top (``user`` alone
    when the host code never launches it).  With ``prefer`` (the kernel's own file), a launch in that file
    comes before launches elsewhere: files beside it may define and launch another kernel of that name."""
    from simu.launch.buffers import element_type

    name = re.split(r"[<(]", kernel.display_name)[0].split("::")[-1].strip()
    params = []
    for q in kernel.params:
        if q.is_pointer:
            dt, comps = element_type(q.pointee, q.pointee_size)
            params.append((q.name, dt.itemsize * comps))
        else:
            params.append((q.name, None))
    found = host_constraints(index, name, params)
    if prefer is not None:
        found.sort(key=lambda item: not _in_file(item[1], index.root, prefer))  # stable: own file first
    return merge(found[0][0], user) if found else user


def _in_file(origin: str, root: Path, path: Path) -> bool:
    """Whether an origin text ("host launch at FILE:LINE") names ``path`` (FILE relative to ``root``)."""
    where = origin.removeprefix("host launch at ").rsplit(":", 1)[0]
    try:
        return (Path(root) / where).resolve() == path.resolve()
    except OSError:
        return False
