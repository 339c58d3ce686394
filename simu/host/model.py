"""The host-code index's data: what one host file says about the kernels it builds and launches.

Plain frozen dataclasses, JSON-able (:func:`host_file_to_dict` / :func:`host_file_from_dict`) so that
the index is cached between scans.  Every site records the source text of what it could not
evaluate next to the value when it could (``None`` = not recoverable): resolving launches is the
launch-contract stage's work.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class BuildSite:
    """A program built with options: ``clBuildProgram(program, n, devices, OPTIONS, ...)``."""

    file: str  # host file, relative to the project root
    line: int
    program: str  # the program expression (a variable name, usually)
    sources: tuple[str, ...]  # base names of the .cl files it is built from (may be empty: not found)
    options_text: str  # the options argument as written
    options: str | None  # its value ("" for NULL), None if not recoverable; run-time pieces: simu.host.options
    # without a .cl file name: identifiers that hold the program's embedded source (cl_source_gemmN)
    source_vars: tuple[str, ...] = ()
    # in a function template whose instantiations build with different options (``-DN_GP=`` of a size
    # ``sizeof(T)`` picks): which one (``RunTest<float>``); its launches are those of the same instantiation
    instance: str = ""


@dataclass(frozen=True)
class KernelSite:
    """``k = clCreateKernel(program, "name", ...)``, ``cl::Kernel k(program, "name")``, ``k = helper(..., "name")``."""

    file: str
    line: int
    var: str  # what the kernel is assigned to ("" if nothing)
    program: str
    name: str | None  # the kernel name, None if not a recoverable string
    # the .cl files its program is built from, when the site itself tells (a kernel-creating helper's call:
    # simu.host.launchers); empty: see the builds of ``program``
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class ArgSite:
    """``clSetKernelArg(kernel, index, size, value)``."""

    file: str
    line: int
    kernel: str
    index: int | None
    index_text: str
    size_text: str
    value_text: str
    value: int | float | None  # the constant behind ``&value`` when recoverable
    defaults: tuple[str, ...] = ()  # host values of that constant taken at their command-line defaults
    instance: str = ""  # in a function template whose instantiations differ here: which one (``runTest<float>``)
    state: str = ""  # a value the host computes from program state simu does not read (simu.host.state)
    # one of the calls of its function that clang reads with different values (simu.host.ast.clsites): the launch
    # sites of the same ``variant`` take it
    variant: str = ""
    # with ``index`` unknown (a counter an earlier branch may or may not step), the counter's steps after it on the
    # same straight line: the argument is that many before the kernel's last (simu.host.clregistry.counter_tail)
    tail: int | None = None


TAIL_BASE = 1000  # an argument position counted from the kernel's last one, in relations: _a1002_ is the third last


@dataclass(frozen=True)
class LaunchSite:
    """``clEnqueueNDRangeKernel(queue, kernel, dim, offset, global, local, ...)``."""

    file: str
    line: int
    kernel: str  # the kernel expression
    kernel_name: str | None  # from the clCreateKernel that kernel variable was assigned by
    work_dim_text: str
    work_dim: int | None
    offset_text: str
    global_text: str  # the argument as written
    global_init: str  # what the array/variable it names was initialised with
    global_size: tuple[int | None, ...] | None
    local_text: str
    local_init: str
    local_size: tuple[int | None, ...] | None
    api: str = "opencl"
    # work-groups per axis as simu.host.relations expressions of the kernel's arguments (_a2_), where known:
    # a launcher method's round-up of a global size passed as an argument (simu.host.launchers)
    grid_sym: tuple[str | None, ...] = ()
    # comparisons of the kernel's arguments (_a3_ >= 2) the host asserts or branches on before launching
    # (simu.host.relations.conditions, simu.host.opencl.launch_requires)
    requires: tuple[str, ...] = ()
    instance: str = ""  # as ArgSite.instance: the function template's instantiation it is made in
    defaults: tuple[str, ...] = ()  # host values its NDRange took at their command-line defaults (ArgSite.defaults)
    variant: str = ""  # as ArgSite.variant: one launch of those the calls of its function make
    through: tuple[str, ...] = ()  # the calls (and loop values) clang read its values through, innermost first
    # per argument position, its value as a simu.host.relations expression of the others' (_a1_), where clang read
    # them passing one value (simu.host.ast.clrelations)
    arg_sym: tuple[str | None, ...] = ()
    # per argument position, the bytes of the clCreateBuffer it passes, a number or over the others (_a1_*_a1_*4)
    length_sym: tuple[str | None, ...] = ()
    # (argument, kind, value, argument the value is) for buffers the host filled before (simu.host.ast.clcontents)
    contents: tuple[tuple[int, str, int | float | None, int | None], ...] = ()
    priors: tuple[Any, ...] = ()  # simu.launch.constraints.Prior: kernels launched before on its buffers (clpriors)


@dataclass(frozen=True)
class WrapperSite:
    """A function that builds a program from what its callers pass: ``build(file, options)`` around
    ``clBuildProgram``.  Its call sites (in any host file) become build sites."""

    function: str
    options_index: int | None  # the parameter holding the options (None: the build's own options)
    build: BuildSite  # the clBuildProgram inside it
    macro: tuple[str, ...] | None = None  # a function-like macro: its parameters (options read where it is used)


@dataclass(frozen=True)
class HostFile:
    """Everything one host file contributes to the index."""

    path: str  # relative to the project root
    cl_files: tuple[str, ...] = ()  # base names of the .cl files it names
    builds: tuple[BuildSite, ...] = ()
    kernels: tuple[KernelSite, ...] = ()
    args: tuple[ArgSite, ...] = ()
    launches: tuple[LaunchSite, ...] = ()
    wrappers: tuple[WrapperSite, ...] = ()
    define_hints: tuple[str, ...] = ()  # every -DNAME[=VALUE] its string literals hold (simu.host.options)
    extra: dict[str, Any] = field(default_factory=dict)  # room for later extractors (CUDA launches)


_SITES = {"builds": BuildSite, "kernels": KernelSite, "args": ArgSite, "launches": LaunchSite}


def host_file_to_dict(h: HostFile) -> dict[str, Any]:
    return asdict(h)


def host_file_from_dict(d: dict[str, Any]) -> HostFile:
    def site(cls, row: dict[str, Any]):
        return cls(**{k: tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
                      for k, v in row.items()})

    wrappers = tuple(WrapperSite(w["function"], w["options_index"], site(BuildSite, w["build"]),
                                 tuple(w["macro"]) if w.get("macro") is not None else None)
                     for w in d.get("wrappers", ()))
    return HostFile(d["path"], tuple(d.get("cl_files", ())),
                    **{k: tuple(site(cls, r) for r in d.get(k, ())) for k, cls in _SITES.items()},
                    wrappers=wrappers, define_hints=tuple(d.get("define_hints", ())), extra=dict(d.get("extra", {})))


def variable_text(expr: str) -> str:
    """The variable an argument expression names, as written (``&k``, ``* k`` and ``k`` are ``k``): how a
    ``clSetKernelArg`` and a ``clEnqueueNDRangeKernel`` are matched to one kernel variable."""
    return re.sub(r"\s+", "", expr).lstrip("&*")
