"""Host launches as launch contracts: each launch the host code makes (CUDA ``<<<>>>`` / ``cudaLaunchKernel``, OpenCL
``clEnqueueNDRangeKernel``) becomes a :class:`KernelConstraints` (fixed grid/block where known, constant scalar
arguments, buffer lengths from allocation sizes, dynamic shared size) with an origin text naming the launch
("host launch at main.cu:37").  A kernel launched from several sites with different configurations has one
contract per distinct launch (at most :data:`MAX_CONTRACTS`; the search explores each, see
:func:`simu.evolve.search_kernel`).  User constraints from the configuration win: their set fields override the
host launch's (:func:`merge`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path

from simu.host.ast.nodes import param_words
from simu.host.bufferfacts import aliases, buffer_facts, identifier
from simu.host.clbuffers import buffers_in, local_size_at
from simu.host.cuda import DEFINES_KEY, CudaLaunch
from simu.host.index import HostIndex
from simu.host.lengths import Params, host_length, length_factor
from simu.host.model import TAIL_BASE, HostFile, LaunchSite, variable_text
from simu.host.opencl import arg_variable
from simu.host.relations import ARG, norm
from simu.launch.constraints import DIMS, KernelConstraints

MAX_CONTRACTS = 4  # distinct host launches of one kernel explored; the others are named in a note


@dataclass
class HostContracts:
    """The contracts of one kernel: one per distinct host launch (configuration on top), the launches past
    :data:`MAX_CONTRACTS` that are not explored, and the configuration's own constraints."""

    contracts: list[KernelConstraints] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # origins of the distinct launches left out
    user: KernelConstraints | None = None

    def for_search(self) -> list[KernelConstraints] | KernelConstraints | None:
        """What the search takes: the host contracts, or the configuration's constraints when the host code
        never launches the kernel."""
        return self.contracts if self.contracts else self.user

    def note(self, kernel: str) -> str | None:
        if not self.skipped:
            return None
        return (f"kernel {kernel}: host code launches it with {len(self.contracts) + len(self.skipped)} distinct "
                f"configurations; the first {len(self.contracts)} are analysed, not the "
                f"{', '.join(o.removeprefix('host launch at ') for o in self.skipped)} one(s)")


def host_constraints(index: HostIndex, kernel: str, params: Params, files: set[str] | None = None,
                     cl_file: str | None = None, api: str | None = None, targs: str = "", instance: str = "",
                     types: tuple[str, ...] = ()) -> list[tuple[KernelConstraints, str]]:
    """One contract per host launch of ``kernel``; ``params`` are its (name, pointee bytes or ``None`` for a
    scalar) in order, as the device IR gives them.  ``files``: host files (relative to the index root) the
    kernel is defined in: when they launch it, launches elsewhere (another kernel of the same name) are not
    its.  ``cl_file``: the ``.cl`` file it comes from (relative to the index root): launches of a program
    built from another ``.cl`` file are not its; when some launches' programs are known to be built from it,
    or sit in host files of its folder, only those are.  ``api``: ``"cuda"`` or ``"opencl"``, the kind of
    launch a kernel of that language can have (``None``: both); a CUDA and an OpenCL kernel of one name differ.
    ``targs``: a template kernel's arguments (``float,256``): launches of other instantiations are not its, nor are
    those clang read as instantiating other parameter ``types`` (:func:`param_words`)."""
    out = []
    launches = _instantiation(index.cuda_launches_of(kernel), targs) if api != "opencl" else []
    if types:  # clang read which instantiation a launch makes: another instantiation's launches are not this one's
        launches = [x for x in launches if not x.signature or param_words(x.signature) == types]
    own = [x for x in launches if files and (x.file in files or x.launch_file in files)]
    if files and not own:  # a file that defines its own namesake kernel launches that one, not this
        launches = [x for x in launches if not _defines_own(index, x.launch_file or x.file, kernel)]
    for x in own or launches:
        c = launch_constraints(x, params)
        _at_least_one_group(c, params)
        c.origin = f"host launch at {x.where}{_searched(c)}{_defaults(x.defaults)}{_through(x.through)}"
        out.append((c, c.origin))
    by_path = {h.path: h for h in index.files}
    for site, h in _opencl_launches(index, kernel, by_path, cl_file, instance) if api != "cuda" else []:
        if _sets_past(h, site, len(params)):
            continue  # it sets an argument the kernel does not have: another kernel the variable may hold
        c = KernelConstraints(origin=f"host launch at {site.file}:{site.line}"
                                     + (f" in {site.instance}" if site.instance else ""))
        g, loc = site.global_size, site.local_size
        if loc and None not in loc and all(v > 0 for v in loc):
            c.block = tuple(list(loc) + [1] * (3 - len(loc)))[:3]  # type: ignore[assignment]
            if g and len(g) == len(loc) and None not in g and all(a % b == 0 for a, b in zip(g, loc, strict=False)):
                c.grid = tuple([a // b for a, b in zip(g, loc, strict=False)] + [1] * (3 - len(g)))[:3]  # type: ignore
        last = _last_args(h, site, params)
        defaults = _opencl_args(h, site, params, c, last)
        names = [name if elem is None else None for name, elem in params]
        for i, e in enumerate(site.arg_sym[:len(params)]):  # one value passed as two arguments: one drawn
            if names[i] is not None and names[i] not in c.args and e is not None \
                    and (expr := _named(e, names)) is not None:
                c.derived[names[i]] = expr  # type: ignore[index]
        c.derived = _ordered(c.derived)
        buffer_facts(c, params, site.length_sym, site.contents, site.priors)  # simu.host.ast.clcontents, clpriors
        aliases(tuple(arg_variable(last[i].value_text) or "" if i in last else "" for i in range(len(params))),
                params, c)  # clSetKernelArg(k, 0, sizeof(cl_mem), &buf); clSetKernelArg(k, 1, …, &buf)
        c.requires = _requirements(site.requires, names)
        if c.grid is None:
            for axis, e in enumerate(site.grid_sym[:3]):
                if e is not None and (expr := _named(e, names)) is not None:
                    c.dims[f"grid.{'xyz'[axis]}"] = expr
        if c.block is None and g is not None:  # a work-group has the NDRange's dimensions, whoever sizes it
            c.dims.update({f"block.{'xyz'[axis]}": "1" for axis in range(len(g), 3)})
        if c.block is None and loc:  # the components of a local size the host gives (`{1, min(256, w), 1}`)
            c.dims.update({f"block.{'xyz'[axis]}": str(v) for axis, v in enumerate(loc[:3]) if v is not None and v > 0})
        _at_least_one_group(c, params)
        c.origin += _searched(c) + _defaults(tuple(sorted(set(defaults) | set(site.defaults)))) + \
            _through(site.through)
        out.append((c, c.origin))
    return out


def _through(through: tuple[str, ...]) -> str:
    """`` (values read through clang: called from loop at a.cu:14, main at b.cu:30; loop value 2)``."""
    if not through:
        return ""
    calls = [t for t in through if " at " in t]
    rest = [t for t in through if " at " not in t]
    parts = ([f"called from {', '.join(calls)}"] if calls else []) + rest
    return f" (values read through clang{': ' + '; '.join(parts) if parts else ''})"


def _defines_own(index: HostIndex, path: str, kernel: str) -> bool:
    """Whether host file ``path`` defines a kernel named ``kernel`` itself (:data:`simu.host.index.DEFINES_KEY`)."""
    h = next((h for h in index.files if h.path == path), None)
    return h is not None and kernel in h.extra.get(DEFINES_KEY, ())


def _instantiation(launches: list[CudaLaunch], targs: str) -> list[CudaLaunch]:
    """The launches of one instantiation of a template kernel: those whose template arguments are known and equal
    ``targs``, and those whose are not known; all of them when none is known to match.  A launch whose arguments
    are deduced (``k<<<g, b>>>(real_ptr)``) inside a function template instantiated with every type ``targs`` names
    (``RunTest<double>`` for ``k<double>``) is this instantiation's, and then one in another instantiation is not."""
    if not targs:
        return launches
    mine = [x for x in launches if not x.targs or _same_targs(x.targs, targs)]
    if any(_same_targs(x.targs, targs) for x in mine):
        return mine
    if launches and all(x.targs and _concrete(x.targs) for x in launches) and _concrete(targs):
        return []  # k<32><<<…>>> only (k<16> under if (block_size == 16) with 32): none is k<16>'s
    types = {a.strip() for a in targs.split(",") if not re.fullmatch(r"[-+]?\d+[uUlL]*|true|false", a.strip())}
    deduced = [x for x in mine if x.instance and types and types <= set(x.instance)]
    if deduced:
        return [x for x in mine if not x.instance or x in deduced]
    return launches


def _same_targs(a: str, b: str) -> bool:
    """Template argument lists alike but for spaces, integer suffixes (``524288UL`` = ``524288``) and how a bool is
    spelled (clang's instantiation gives ``0``, the kernel's name ``false``)."""
    def norm_(t: str) -> list[str]:
        return re.sub(r"\b(\d+)[uUlL]+\b", r"\1", re.sub(r"\s+", "", t)).split(",")

    def same(x: str, y: str) -> bool:  # clang writes a bool's true as its 1-bit value, -1
        return x == y or {x, y} in ({"false", "0"}, {"true", "1"}, {"true", "-1"})
    ours, theirs = norm_(a), norm_(b)
    return len(ours) == len(theirs) and all(same(x, y) for x, y in zip(ours, theirs, strict=True))


def _concrete(targs: str) -> bool:
    """Whether a template argument list is made of numbers and basic types only (two such lists that differ are
    different instantiations; a name such as ``MEMORY`` or ``T`` may still stand for either)."""
    basic = r"(?:unsigned\s+|signed\s+)?(?:char|short|int|long(?:\s+long)?|float|double|bool|half|size_t)"
    return all(re.fullmatch(rf"\s*(?:[-+]?\d+[uUlL]*|{basic}|true|false)\s*", a) for a in targs.split(","))


SEARCH_THREADS = 4096  # the search's thread budget (evolve.genome.Layout.max_total_threads), the range's top


def _at_least_one_group(c: KernelConstraints, params: Params) -> None:
    """A grid component the host computes as ``n/256`` of a searched integer argument (``global = nAtom`` with groups
    of 256): the program only launches with ``n >= 256``, so ``n`` is drawn from [256, budget], not from the small
    values that give no group (every draw of them would be rejected: no launch of the program)."""
    ints = {name for name, elem in params if elem is None}
    for expr in (e for k, e in c.dims.items() if k.startswith("grid.")):
        m = re.fullmatch(r"\(?([A-Za-z_]\w*)\)?/(\d+)", norm(expr))
        if m and m.group(1) in ints and m.group(1) not in c.args and m.group(1) not in c.derived \
                and m.group(1) not in c.arg_ranges and int(m.group(2)) > 1:
            c.arg_ranges[m.group(1)] = (int(m.group(2)), max(int(m.group(2)), SEARCH_THREADS))


def _searched(c: KernelConstraints) -> str:
    """What of a host launch the search still chooses: `` (grid searched: not constant in the host code)``, or
    derives from the arguments: `` (grid.x = (size-1)/512+1, grid.y = n from the host code; grid.z searched)``;
    then the arguments it derives and what the host requires (asserts, branch conditions):
    `` (…; group_offset = n; requires w1/w2 == h1/h2)``."""
    parts = []
    missing = [part for part in ("grid", "block") if getattr(c, part) is None]
    known = [f"{k} = {v}" for k, v in c.dims.items() if k.split(".")[0] in missing and v != "1"]
    if missing and not known:
        parts.append(f"{' and '.join(missing)} searched: not constant in the host code")
    elif missing:
        free = [k for k in DIMS if k.split(".")[0] in missing and k not in c.dims]
        parts.append(f"{', '.join(known)} from the host code{'; ' + ', '.join(free) + ' searched' if free else ''}")
    if c.derived:
        parts.append(", ".join(f"{k} = {v}" for k, v in c.derived.items()))
    if c.shared_bytes:
        parts.append(f"dynamic shared bytes = {c.shared_bytes}")
    if c.requires:
        parts.append("requires " + ", ".join(c.requires))
    if c.same:
        parts.append(", ".join(f"{k} is {v}'s buffer" for k, v in c.same.items()))
    return f" ({'; '.join(parts)})" if parts else ""


def _defaults(names: tuple[str, ...]) -> str:
    """`` (with the command line's defaults: size, n)``: values the program takes when run without options
    (:mod:`simu.host.cmdline`); `` (on the first pass of the loop at line 151: threads)``: values of a loop's
    first pass (:mod:`simu.host.loops`, noted ``@loop LINE NAME``); `` (when the device call retried in the loop at
    line 93 succeeds: memSize)``: a fallback loop's start value (``@ok LINE NAME``).  Other options, passes and
    failures make other launches."""
    plain = [n for n in names if not n.startswith("@")]
    marked: dict[tuple[str, str], set[str]] = {}
    for n in names:
        if n.startswith(("@loop ", "@ok ")):
            kind, line, var = n.split(" ", 2)
            marked.setdefault((kind, line), set()).add(var)
    out = f" (with the command line's defaults: {', '.join(plain)})" if plain else ""
    for (kind, line), vars_ in sorted(marked.items(), key=lambda kv: int(kv[0][1])):
        what = "on the first pass of the loop" if kind == "@loop" else "when the device call retried in the loop"
        out += f" ({what} at line {line}{' succeeds' if kind == '@ok' else ''}: {', '.join(sorted(vars_))})"
    return out


def distinct_contracts(found: list[tuple[KernelConstraints, str]], user: KernelConstraints | None
                       ) -> HostContracts:
    """The distinct contracts among the host launches (configuration merged on top; two launches alike but for
    their site count once, the first site naming it), the first :data:`MAX_CONTRACTS` of them explored."""
    seen: dict[str, KernelConstraints] = {}
    for c, _ in found:
        m = merge(c, user)
        key = repr({k: v for k, v in m.key().items() if k != "origin"})
        seen.setdefault(key, m)
    kept = list(seen.values())
    return HostContracts(kept[:MAX_CONTRACTS], [c.origin or "" for c in kept[MAX_CONTRACTS:]], user)


def launch_constraints(x: CudaLaunch, params: list[tuple[str, int | None]]) -> KernelConstraints:
    c = KernelConstraints()
    if x.grid and None not in x.grid and all(v > 0 for v in x.grid):
        c.grid = x.grid  # type: ignore[assignment]
    if x.block and None not in x.block and all(v > 0 for v in x.block):
        c.block = x.block  # type: ignore[assignment]
    if x.shmem is not None and x.shmem >= 0:
        c.dynamic_shared = x.shmem
    elif x.shmem_sym:  # the bytes the host computes from the arguments and the block
        c.shared_bytes = _named(x.shmem_sym, [name if elem is None else None for name, elem in params])
    scalars = {name for name, elem in params if elem is None}
    names = {identifier(a): name for a, (name, _) in zip(x.args_text, params, strict=False) if identifier(a)}
    for i, (name, elem) in enumerate(params[:len(x.args)]):
        if elem is None and x.args[i] is not None:
            c.args[name] = x.args[i]  # type: ignore[assignment]
        if elem is not None and x.buffer_lengths[i] is not None:
            length = host_length(x.buffer_lengths[i], x.buffer_elem_bytes[i], elem, names, scalars)
            if length is not None:
                c.buffer_lengths[name] = length
            elif (factor := length_factor(x.buffer_lengths[i], x.buffer_elem_bytes[i], elem)) is not None:
                c.length_factors[name] = factor
    _relations(x, params, c)
    for i in x.zeroed:
        if i < len(params) and params[i][1] is not None:
            c.fills[params[i][0]] = "zeros"  # the host clears it before launching (cudaMemset)
    buffer_facts(c, params, x.clang_lengths, x.contents, x.priors)  # simu.host.ast.allocations, contents, sequence
    for (name, elem), text in zip(params, x.arg_state, strict=False):
        if elem is None and text:
            c.state[name] = text
    c.symbols = {name: (offset, values) for name, offset, values in x.symbols}
    aliases(x.args_text, params, c)
    return c


def _relations(x: CudaLaunch, params: Params, c: KernelConstraints) -> None:
    """The launch's relations (:mod:`simu.host.relations`) in the kernel's parameter names: grid and block
    components that are not constant, and scalar arguments that follow from others."""
    names = [name if elem is None else None for name, elem in params]

    def named(expr: str | None) -> str | None:
        return None if expr is None else _named(expr, names)

    for part, const, sym in (("grid", x.grid, x.grid_sym), ("block", x.block, x.block_sym)):
        if getattr(c, part) is not None or sym is None:
            continue
        for axis, (v, e) in enumerate(zip(const or (None,) * 3, sym, strict=True)):
            expr = str(v) if v is not None else named(e)
            if expr is not None:
                c.dims[f"{part}.{'xyz'[axis]}"] = expr
    for i, e in enumerate(x.arg_sym[:len(params)]):
        name = names[i]
        expr = named(e)
        if name is not None and name not in c.args and expr is not None:
            c.derived[name] = expr
    c.requires = _requirements(x.requires, names)
    c.derived = _ordered(c.derived)


def _ordered(derived: dict[str, str]) -> dict[str, str]:
    """Derived arguments in an order where each follows what it uses; those in a cycle (relations.py keeps none)
    stay searched."""
    order: dict[str, str] = {}
    pending = dict(derived)
    while pending:
        ready = [n for n, e in pending.items() if not set(re.findall(r"[A-Za-z_]\w*", e)) & (set(pending) - {n})]
        if not ready:
            break
        for n in ready:
            order[n] = pending.pop(n)
    return order


def _requirements(requires: tuple[str, ...], names: list[str | None]) -> list[str]:
    """A launch's requirements (comparisons over argument positions, CUDA's or OpenCL's) in the kernel's scalar
    parameter names; one naming anything else (a pointer, a position past the parameters) is dropped."""
    return [r for r in (_named(e, names) for e in requires) if r is not None]


def _named(expr: str, names: list[str | None]) -> str | None:
    """A relation over argument positions (``_a2_``) in the kernel's scalar parameter names (``None`` when it
    names a position that is not a scalar parameter)."""
    bad = False

    def one(m: re.Match[str]) -> str:
        nonlocal bad
        i = int(m.group(1))
        if i >= TAIL_BASE:  # counted from the last parameter (ArgSite.tail)
            i = len(names) - 1 - (i - TAIL_BASE)
        if not 0 <= i < len(names) or names[i] is None:
            bad = True
            return "_"
        return names[i] or "_"

    out = ARG.sub(one, expr)
    return None if bad else out


def merge(host: KernelConstraints, user: KernelConstraints | None) -> KernelConstraints:
    """The host launch's contract with the user's set fields on top."""
    if user is None:
        return host
    out = replace(host, args=dict(host.args), buffer_lengths=dict(host.buffer_lengths))
    for f in fields(KernelConstraints):
        v = getattr(user, f.name)
        if isinstance(v, dict):
            setattr(out, f.name, {**getattr(out, f.name), **v})
        elif v is not None and not (isinstance(v, (list, tuple)) and not v):  # an empty list says nothing
            setattr(out, f.name, v)
    # what the user fixes is no longer derived from the host's relations
    out.dims = {k: e for k, e in out.dims.items() if getattr(user, k.split(".")[0]) is None}
    out.derived = {k: e for k, e in out.derived.items() if k not in user.args and k not in user.arg_ranges}
    if user.dynamic_shared:
        out.shared_bytes = None
    return out


def with_header_launch(path: str | Path | None, configured: KernelConstraints | None,
                       kernel: str | None = None) -> KernelConstraints | None:
    """The configuration's constraints on top of what the kernel file's header says: the launch it gives in
    GPUVerify's options (``//--local_size=64 --num_groups=16``: :func:`simu.launch.comments.file_launch`), a launch
    the user gave, and its ``// constrain:`` line for ``kernel`` (:func:`~simu.launch.comments.file_constraints`)."""
    from simu.launch.comments import file_constraints, file_launch

    if not path:
        return configured
    header = file_launch(path)
    written = file_constraints(path, kernel)
    if written is not None:
        header = written if header is None else merge(header, written)
    return configured if header is None else merge(header, configured)


def kernel_contracts(path: str | Path, kernel, user: KernelConstraints | None,
                     cache_dir: Path | None = None) -> HostContracts:
    """The contracts ``simu check`` and the search corpus use for one kernel of ``path``: its host launches in
    the file or the host files beside it, with the configuration's fields on top (only ``user`` when no host
    launch is found).  ``cache_dir``: the host index's cache folder (:mod:`simu.host.filecache`)."""
    from simu.host.index import HOST_EXTENSIONS

    p = Path(path)
    if not p.is_file():
        return HostContracts(user=user)
    beside = sorted(f for f in p.parent.iterdir() if f.suffix.lower() in HOST_EXTENSIONS and f.is_file())
    index = _folder_index(p.parent, tuple((f, *_stamp(f)) for f in beside or [p]), cache_dir)
    return file_contracts(index, p.name, kernel, user)


def file_contracts(index: HostIndex, rel: str, kernel, user: KernelConstraints | None) -> HostContracts:
    """The contracts of a kernel defined in ``rel`` (relative to the index's root): a ``.cl`` file's kernel takes
    the launches of programs built from it, a CUDA file's the CUDA launches."""
    suffix = Path(rel).suffix.lower()
    api = "opencl" if suffix == ".cl" else "cuda" if suffix in (".cu", ".cuh", ".hip") else None
    return contracts_from_index(index, kernel, user, files={rel}, cl_file=rel if suffix == ".cl" else None, api=api)


@lru_cache(maxsize=8)
def _folder_index(folder: Path, files: tuple[tuple[Path, int, int], ...], cache_dir: Path | None = None
                  ) -> HostIndex:
    """The host index of the files beside a checked file, built once per state of those files (their sizes and
    modification times are part of the key): every kernel of a file asks for it.  Their includes may name the
    project's headers in another folder (``BLOCK`` from ``include/darknet.h``): those are listed when an include is
    not next to its includer (:func:`_project_headers`)."""
    from simu.host.index import build_host_index

    return build_host_index(folder, [f for f, _, _ in files], cache_dir, headers=lambda: _project_headers(folder))


HEADER_EXTENSIONS = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh"})
MAX_PROJECT_HEADERS = 5000


@lru_cache(maxsize=8)
def _project_headers(folder: Path) -> tuple[Path, ...]:
    """The headers of the git repository holding ``folder`` (its ignore rules honoured; none outside one, and
    at most :data:`MAX_PROJECT_HEADERS`): what ``simu scan`` of the project would resolve includes among."""
    from simu.frontend.discover import IgnoreRules, enclosing_repository, walk

    repo = enclosing_repository(folder)
    if repo is None:
        return ()
    found = [f for f in walk(repo, IgnoreRules(repo)) if f.suffix.lower() in HEADER_EXTENSIONS]
    return tuple(found[:MAX_PROJECT_HEADERS])


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def kernel_contract(path: str | Path, kernel, user: KernelConstraints | None) -> KernelConstraints | None:
    """The first of :func:`kernel_contracts` (or ``user`` when the host code never launches the kernel)."""
    found = kernel_contracts(path, kernel, user)
    return found.contracts[0] if found.contracts else user


def contracts_from_index(index: HostIndex, kernel, user: KernelConstraints | None, files: set[str] | None = None,
                         cl_file: str | None = None, api: str | None = None) -> HostContracts:
    """The kernel's distinct host launches in ``index`` as its contracts, ``user``'s fields on top (see
    :func:`host_constraints` for ``files``, ``cl_file`` and ``api``)."""
    return contracts_for(index, kernel.display_name, kernel_params(kernel), user, files, cl_file, api,
                         types=tuple(p.c_type or "" for p in kernel.params))


def contracts_for(index: HostIndex, name: str, params: Params, user: KernelConstraints | None,
                  files: set[str] | None = None, cl_file: str | None = None, api: str | None = None,
                  instance: str = "", types: tuple[str, ...] = ()) -> HostContracts:
    """:func:`contracts_from_index` for a kernel known by its display name and :func:`kernel_params` (what a scan
    worker reports of it); ``instance``: the function template instantiation whose build compiled it
    (``BuildSite.instance``): launches made in another instantiation are not its; ``types``: its parameters' C
    types (a template kernel's launches that clang read as another instantiation's are not its)."""
    return distinct_contracts(host_constraints(index, source_name(name), params, files, cl_file, api,
                                               template_args(name), instance,
                                               param_words(f"({','.join(types)})") if template_args(name) and
                                               all(types) else ()), user)


def source_name(display_name: str) -> str:
    """The name host code launches a kernel by: ``ns::k<int>(float*)`` -> ``k``."""
    return re.split(r"[<(]", display_name)[0].split("::")[-1].strip()


def template_args(display_name: str) -> str:
    """A template kernel's arguments as a launch writes them, spaces removed: ``ns::k<float, 256>(float*)`` ->
    ``float,256`` (``""`` for a kernel that is no template)."""
    head = display_name.split("(")[0]
    i = head.find("<")
    return "".join(head[i + 1:head.rindex(">")].split()) if i >= 0 and ">" in head[i:] else ""


def kernel_params(kernel) -> Params:
    """(name, bytes of one pointee element, or ``None`` for a scalar) per parameter of a decoded kernel."""
    from simu.launch.buffers import element_type

    out: Params = []
    for q in kernel.params:
        if q.is_pointer:
            dt, comps = element_type(q.pointee, q.pointee_size)
            out.append((q.name, dt.itemsize * comps))
        else:
            out.append((q.name, None))
    return out


# -- OpenCL arguments -----------------------------------------------------------------------------------------

def _unqualified(instance: str) -> str:
    """``RunTest<double>`` for ``Bench::RunTest<double>``: a build names its wrapper's instantiation unqualified."""
    name, _, targs = instance.partition("<")
    return name.split("::")[-1] + "<" + re.sub(r"\s+", "", targs)


def _opencl_launches(index: HostIndex, kernel: str, by_path: dict[str, HostFile], cl_file: str | None,
                     instance: str = "") -> list[tuple[LaunchSite, HostFile]]:
    """The NDRange launches of ``kernel`` that may be of ``cl_file``'s kernel (see :func:`host_constraints`),
    of the function template instantiation ``instance`` where both the build and the launch name one."""
    sites = [(site, by_path[site.file]) for site in index.launches_of(kernel) if site.file in by_path
             and not (instance and site.instance and _unqualified(site.instance) != _unqualified(instance))]
    if not cl_file:
        return sites
    judged = [(site, h, _built_from(index, h, site, cl_file)) for site, h in sites]
    known = [(site, h) for site, h, built in judged if built is True]
    if known:
        return known
    folder = Path(cl_file).parent.as_posix()
    maybe = [(site, h) for site, h, built in judged if built is None]
    near = [(site, h) for site, h in maybe if Path(site.file).parent.as_posix() == folder]
    return near or maybe


def _built_from(index: HostIndex, h: HostFile, site: LaunchSite, cl_file: str) -> bool | None:
    """Whether the launched kernel's program is built from ``cl_file`` (``None``: not known)."""
    from simu.host.options import names_source

    cl_name = Path(cl_file).name
    made = [k for k in h.kernels if k.var and variable_text(k.var) == variable_text(site.kernel)
            and k.line <= site.line and k.name in (None, site.kernel_name)]
    if not made:
        return None
    last = [k for k in made if k.line == made[-1].line]  # a registry's sites there: one per (name, path) it pairs
    if made[-1].sources:  # a kernel-creating helper's call names it (a path names the folder too)
        return any(s == cl_name or ("/" in s and ("/" + Path(cl_file).as_posix()).endswith("/" + s.lstrip("./")))
                   for k in last for s in k.sources)
    program = variable_text(made[-1].program)
    builds = _builds_before(index, site.file, program, made[-1].line)
    stem = Path(cl_name).stem
    if any(cl_name in b.sources or any(names_source(v, stem) for v in b.source_vars) for b in builds):
        return True
    return False if any(b.sources for b in builds) else None


def _builds_before(index: HostIndex, file: str, program: str, line: int) -> list:
    """The builds of ``program`` a kernel created at ``line`` takes: the last before it (a variable rebuilt from one
    ``.cl`` file after another), or all when none comes before (a helper defined below its caller)."""
    builds = [b for b in index.builds if b.file == file and variable_text(b.program) == program]
    before = [b for b in builds if b.line <= line]
    last = max((b.line for b in before), default=None)
    return [b for b in before if b.line == last] if before else builds


def _sets_past(h: HostFile, site: LaunchSite, count: int) -> bool:
    """Whether the arguments set on the launch's kernel variable since its previous launch in the file reach past
    ``count`` parameters (in the launch's own frame: a branch that sets two more is another frame's launch)."""
    kernel = variable_text(site.kernel)
    before = max((x.line for x in h.launches if x.line < site.line and variable_text(x.kernel) == kernel), default=0)
    return any(a.index is not None and a.index >= count and before < a.line <= site.line
               and variable_text(a.kernel) == kernel and a.variant in ("", site.variant) for a in h.args)


def _last_args(h: HostFile, site: LaunchSite, params: Params) -> dict:
    """The last ``clSetKernelArg`` / ``setArg`` of each argument before the launch."""
    last = {}
    for a in sorted(h.args, key=lambda a: (a.line, bool(a.variant))):  # a launch's own variant wins at a line
        at = a.index if a.index is not None else len(params) - 1 - a.tail if a.tail is not None else None
        if at is not None and 0 <= at < len(params) and a.line <= site.line \
                and variable_text(a.kernel) == variable_text(site.kernel) and a.instance in ("", site.instance) \
                and a.variant in ("", site.variant):
            last[at] = a
    return last


def _opencl_args(h: HostFile, site: LaunchSite, params: Params, c: KernelConstraints, last: dict
                 ) -> tuple[str, ...]:
    """Scalar values and buffer lengths from the ``clSetKernelArg`` / ``setArg`` calls before the launch:
    ``clSetKernelArg(k, 2, sizeof(int), &n)`` with ``n`` constant fixes argument 2; a ``cl_mem`` made by
    ``clCreateBuffer(ctx, flags, n * sizeof(float), ...)`` gives its argument's length.  Returns the host values
    taken at their command-line defaults (:mod:`simu.host.cmdline`); ``last``: :func:`_last_args`."""
    scalars = {name for name, elem in params if elem is None}
    used: set[str] = set()
    names = {}  # host variable -> the scalar parameter it is passed as
    for i, a in last.items():
        var = arg_variable(a.value_text)
        if var and params[i][1] is None:
            names[var] = params[i][0]
    for i, a in last.items():
        name, elem = params[i]
        if elem is None:
            if a.value is not None:
                c.args[name] = a.value
                used.update(a.defaults)
            elif a.state:
                c.state[name] = a.state
            continue
        local = local_size_at(h.extra, variable_text(a.kernel), i, a.line)
        if local is not None:  # a __local argument: its size per work-group
            length = host_length(local["length"], local["elem_bytes"], elem, names, scalars)
            if length is not None:
                c.buffer_lengths[name] = length
            continue
        var = arg_variable(a.value_text)
        alloc = buffers_in(h.extra, var, a.line, site.instance) if var else None
        if alloc is not None and alloc["length"] is not None:
            length = host_length(alloc["length"], alloc["elem_bytes"], elem, names, scalars)
            if length is not None:
                c.buffer_lengths[name] = length
    return tuple(sorted(used))
