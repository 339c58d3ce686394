"""OpenCL launches in functions that take the kernel as a parameter, named at their call sites.

``void transform(void *work, int n, cl_kernel &k, cl_command_queue &q) { … clEnqueueNDRangeKernel(q, k, …) }``
launches whatever kernel its callers pass: ``transform(w, n, ifftKrnl, q)`` launches the kernel ``ifftKrnl`` was
made for (``ifftKrnl = clCreateKernel(prog, "ifft1D_512", …)`` in the caller's file).  The launch site keeps the
function's own sizes and arguments (its ``clSetKernelArg`` calls name the parameter too); one site per distinct
kernel its callers pass is added to the function's file, so that each of those kernels has the launch.
"""

from __future__ import annotations

import re
from dataclasses import replace

from simu.host.cscan import CSource
from simu.host.model import HostFile, LaunchSite


def parameter_launches(files: list[HostFile], texts: dict[str, str]) -> list[HostFile]:
    """``files`` with a launch site added per kernel that a caller passes to a launching function's kernel
    parameter (``texts``: host file path -> its text, for the files that may define or call such functions)."""
    sources = {rel: CSource(t) for rel, t in texts.items()}
    launching: list[tuple[str, LaunchSite, str, int]] = []  # (file, site, function, parameter index)
    for h in files:
        src = sources.get(h.path)
        if src is None or not h.launches:
            continue
        calls = {c.line: c for c in src.calls("clEnqueueNDRangeKernel")}
        for site in h.launches:
            call = calls.get(site.line)
            fn = src.enclosing(call.pos) if call is not None else None
            kernel = re.sub(r"^[*&\s(]+|[)\s]+$", "", site.kernel)
            if fn is not None and kernel in fn.params:
                launching.append((h.path, site, fn.name.split("::")[-1], fn.params.index(kernel)))
    if not launching:
        return files
    made = {h.path: h.kernels for h in files}
    added: dict[str, list[LaunchSite]] = {}
    for rel, site, function, j in launching:
        names = {site.kernel_name} if site.kernel_name else set()
        for caller, src in sources.items():
            for call in src.calls(function) if function in src.code else []:
                if j >= len(call.args):
                    continue
                var = re.sub(r"^[*&\s(]+|[)\s]+$", "", call.args[j])
                bound = [k for k in made.get(caller, ()) if k.var and _same(k.var, var) and k.name
                         and (caller != rel or k.line <= call.line)]
                if not bound:  # made elsewhere (an init function filling a reference): the one kernel of that name
                    anywhere = {k.name for ks in made.values() for k in ks if k.var and _same(k.var, var) and k.name}
                    name = anywhere.pop() if len(anywhere) == 1 else None
                else:
                    name = bound[-1].name
                if name and name not in names:
                    names.add(name)
                    added.setdefault(rel, []).append(replace(site, kernel_name=name))
    return [replace(h, launches=h.launches + tuple(added[h.path])) if h.path in added else h for h in files]


def _same(a: str, b: str) -> bool:
    """One variable, written with or without ``this->`` / member access: ``m_k`` and ``this->m_k``."""
    return a.split("->")[-1].split(".")[-1].strip() == b.split("->")[-1].split(".")[-1].strip()


def candidate_texts(texts: dict[str, str]) -> dict[str, str]:
    """Of the host files' texts, those that enqueue an NDRange or name a ``cl_kernel`` (the only ones that can
    define or call a launching function whose callers name a kernel)."""
    return {rel: t for rel, t in texts.items() if "clEnqueueNDRangeKernel" in t or "cl_kernel" in t}
