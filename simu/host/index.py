"""The host-code index: one per scanned project, built once per scan and cached by file size and mtime.

It reads the project's C/C++ host files (``.c .cc .cpp .cxx .h .hpp`` and the host side of ``.cu``)
and keeps, per file, the sites :mod:`simu.host.opencl` finds.  Consumers ask it questions in terms
of scanned kernel files: :meth:`HostIndex.builds_of` (the OpenCL build options a ``.cl`` file is
built with) now; launches of a kernel next (the launch-contract work reads :attr:`HostIndex.files`).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu.host.ast.clang import OPENCL_HOST_INCLUDE  # noqa: F401 - simu's CL/cl.h, named here for its users
from simu.host.ast.clsites import Frame, opencl_frames, refine_sites
from simu.host.ast.launches import LaunchValues, launch_values
from simu.host.ast.merge import followed_calls, merge_launches
from simu.host.ast.scope import program_facts
from simu.host.ast.values import Program
from simu.host.clbuffers import EXTRA_KEY as CL_BUFFERS
from simu.host.clbuffers import LOCAL_KEY, cl_buffers, local_sizes
from simu.host.cmdline import merge_defaults, option_defaults
from simu.host.cscan import TEMPLATE_ARGS, CSource, kernel_names
from simu.host.cuda import (
    DEFINES_KEY,
    WRAPPERS_KEY,
    CudaLaunch,
    cuda_launches_of,
    extract_cuda,
    to_extra,
    wrapper_templates,
)
from simu.host.filecache import NAME as CACHE_FILE
from simu.host.filecache import HostFileCache, digest, entry_key
from simu.host.headermacros import HeaderMacros
from simu.host.kernelparams import candidate_texts, parameter_launches
from simu.host.launchers import CLASSES_KEY, HELPERS_KEY, kernel_helpers, launcher_classes
from simu.host.launchmacros import Macro, expand_hip_launches, expand_launch_macros, launch_macros
from simu.host.model import BuildSite, HostFile, LaunchSite, host_file_from_dict, host_file_to_dict
from simu.host.opencl import cl_mentions, extract, wrapper_calls
from simu.host.options import define_hints, names_source
from simu.host.paths import file_distance
from simu.host.streamed import STREAMED_KEY, mapped_defines, streamed_sources, streamed_types

HOST_EXTENSIONS = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".cu", ".hip"})
MAX_HOST_BYTES = 4 << 20  # a larger "host file" is generated data, not code
CACHE_NAME = CACHE_FILE  # in the scan's cache folder (simu.host.filecache)
CACHE_VERSION = 16  # 2: OpenCL launch sites keep their grid relation (LaunchSite.grid_sym); 3: `<< <` launches;
# 4: OpenCL launch sites keep their requirements (LaunchSite.requires), CUDA ones read over unexpanded locals;
# 5: command-line defaults (simu.host.cmdline), launches in function templates per instantiation; 6: header
# constants and one-return integer functions; 7: ArgSite.defaults; 8: wrapper templates bind their type parameters;
# 9: a loop's first pass (simu.host.loops), OpenCL launches in function templates per instantiation; 10:
# CudaLaunch.instance; 11: function-like macros that launch, expanded where used (simu.host.launchmacros);
# 12: arguments computed from program state (CudaLaunch.arg_state, ArgSite.state: simu.host.state); 13: builds per
# function template instantiation (BuildSite.instance); 14: macros that allocate (clMalloc) expanded too; 15:
# LaunchSite.defaults; 16: OpenCL host files' clang facts (C/C++, the OpenCL shim; ArgSite/LaunchSite.variant)


@dataclass
class HostIndex:
    root: Path
    files: list[HostFile] = field(default_factory=list)
    wrapped: list[BuildSite] = field(default_factory=list)  # builds made at the call sites of wrappers
    # (file, line) of builds whose options come from a wrapper's parameter, resolved at its call sites
    templates: set[tuple[str, int]] = field(default_factory=set)
    # CUDA launches made at the call sites of wrapper functions in other files; (file, line) of the launches
    # inside those wrappers they replace
    cuda_wrapped: list[CudaLaunch] = field(default_factory=list)
    cuda_replaced: set[tuple[str, int]] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)  # command-line option -> its default (host.cmdline)
    parsed: int = 0  # host files read and parsed by this build (index_host_file)
    reused: int = 0  # host files whose sites came from the cache on disk, unparsed
    reach: Any = None  # for an index of the files reaching some kernels: what was searched (simu.host.reach)
    # CUDA launches read through clang with the values the program passes (simu.host.ast), the (file, line, kernel)
    # of every <<<>>> it read, the host files it read and those it could not (the lexical reader alone serves those)
    cuda_read: list[LaunchValues] = field(default_factory=list)
    cuda_read_sites: set[tuple[str, int, str]] = field(default_factory=set)
    cuda_followed: frozenset[tuple[str, str]] = frozenset()  # the calls clang followed into functions (merge)
    clang_read: list[str] = field(default_factory=list)
    clang_failed: list[str] = field(default_factory=list)
    # the OpenCL calls clang read, per function and frame (simu.host.ast.clsites), and the values where it and the
    # lexical reader disagree (the lexical value kept): "host.c:14: local size[0]: the host text gives 64, clang 32"
    opencl_read: dict[int, list[Frame]] = field(default_factory=dict)
    clang_conflicts: list[str] = field(default_factory=list)
    clang_unapplied: str = ""  # what of clang's reading an internal failure left out (the lexical reader's stands)
    # kernel name -> its merged CUDA launches: every instantiation of a template asks for the same name, and the
    # merge pairs each lexical launch with each launch clang read (an index is not changed once built)
    _cuda_merged: dict[str, tuple[CudaLaunch, ...]] = field(default_factory=dict, repr=False, compare=False)

    def lexical_only_launches(self) -> list[str]:
        """``file:line`` of the CUDA and OpenCL launches in host files clang could not read (the lexical reader's
        alone)."""
        failed = set(self.clang_failed)
        return list(dict.fromkeys([f"{x.file}:{x.line}" for h in self.files if h.path in failed
                                   for x in [*cuda_launches_of(h.extra, None), *h.launches]]))

    @property
    def builds(self) -> list[BuildSite]:
        return [b for h in self.files for b in h.builds if (b.file, b.line) not in self.templates] + self.wrapped

    def builds_of(self, cl_file: Path, cl_files: list[Path] | None = None) -> list[BuildSite]:
        """Build sites whose program is made from ``cl_file`` (matched by base name; when several scanned
        ``.cl`` files share that name, the one nearest to the host file)."""
        name = cl_file.name
        stem = Path(name).stem
        return [b for b in self.builds
                if (name in b.sources or not b.sources and any(names_source(v, stem) for v in b.source_vars))
                and self._nearest(b.file, name, cl_files or [cl_file]) == cl_file.resolve()]

    def define_hints(self) -> dict[str, set[str]]:
        """Every ``-DNAME`` the project's host code writes in a string: NAME -> the values it gives it (``""``
        for none, :data:`simu.host.options.HOLE` for one computed at run time)."""
        out: dict[str, set[str]] = {}
        for h in self.files:
            for d in h.define_hints:
                name, _, value = d.partition("=")
                out.setdefault(name, set()).add(value)
        return out

    def launches_of(self, kernel_name: str) -> list[LaunchSite]:
        return [s for h in self.files for s in h.launches if s.kernel_name == kernel_name]

    def cuda_launches_of(self, kernel_name: str) -> list[CudaLaunch]:
        """The CUDA launches of a kernel (by its source name) in every host file; a wrapper function called from
        other files launches at those call sites (one launch each), not where its ``<<<>>>`` is."""
        if kernel_name not in self._cuda_merged:
            self._cuda_merged[kernel_name] = tuple(self._merged_cuda_launches(kernel_name))
        return list(self._cuda_merged[kernel_name])

    def _merged_cuda_launches(self, kernel_name: str) -> list[CudaLaunch]:
        own = [x for h in self.files for x in cuda_launches_of(h.extra, kernel_name)
               if x.via or (x.file, x.line) not in self.cuda_replaced]
        text = own + [x for x in self.cuda_wrapped if x.kernel == kernel_name]
        short = kernel_name.split("::")[-1]
        return merge_launches(text, [v for v in self.cuda_read if v.kernel == short], self.cuda_read_sites,
                              self.cuda_followed)

    def _nearest(self, host_rel: str, name: str, cl_files: list[Path]) -> Path | None:
        same = [p.resolve() for p in cl_files if p.name == name]
        if len(same) <= 1:
            return same[0] if same else None
        host_dir = (self.root / host_rel).parent.resolve()

        def distance(p: Path) -> tuple[int, str]:
            common = os.path.commonpath([str(host_dir), str(p.parent)])
            return (len(host_dir.parts) + len(p.parent.parts) - 2 * len(Path(common).parts), str(p))

        return min(same, key=distance)


def index_host_file(path: Path, rel: str, header_macros: dict[str, str] | None = None,
                    text: str | None = None, options: dict[str, str] | None = None,
                    functions: dict[str, tuple[tuple[str, ...], str]] | None = None,
                    macros: dict[str, Macro] | None = None) -> HostFile | None:
    """The sites of one host file, or ``None`` if it cannot be read as text.  ``header_macros``: those of
    the project headers it includes (its own definitions win); ``text``: the file's text when already read;
    ``options``: the project's command-line option defaults (:mod:`simu.host.cmdline`); ``functions``: the one-return
    integer functions of its project headers (:func:`~simu.host.cscan.int_functions`); ``macros``: the function-like
    macros of those headers that launch kernels, expanded where the file uses them with its own
    (:mod:`simu.host.launchmacros`)."""
    text = _read_host(path) if text is None else text
    if text is None:
        return None
    text = expand_hip_launches(expand_launch_macros(text, {**(macros or {}), **launch_macros(text)}))
    src = CSource(text)
    src.project_options = options or {}  # type: ignore[attr-defined]
    src.header_functions = functions or {}
    for k, v in (header_macros or {}).items():
        src.macros.setdefault(k, v)
    cl = extract(src, rel)
    launches = "<<<" in text or "cudaLaunch" in text or re.search(r"<<\s+<", text) is not None
    extra = to_extra(extract_cuda(src, rel)) if launches else {}
    if launches and (defined := kernel_names(src.code, bodies=True)):
        extra[DEFINES_KEY] = defined  # the kernels it defines: its launches of them are of these, not namesakes
    if extra:
        templates = wrapper_templates(src, rel)
        if templates:
            extra[WRAPPERS_KEY] = templates
    if cl.args and ("clCreateBuffer" in text or "Buffer" in text):
        extra[CL_BUFFERS] = cl_buffers(src)
    if cl.args:
        extra[LOCAL_KEY] = local_sizes(src)
    if cl.kernels and (helpers := kernel_helpers(src)):
        extra[HELPERS_KEY] = helpers
    if ("clSetKernelArg" in text or "clEnqueueNDRangeKernel" in text or "cl_kernel" in text) and \
            (classes := launcher_classes(src)):
        extra[CLASSES_KEY] = classes
    if stems := streamed_sources(src):
        extra[STREAMED_KEY] = stems
    return HostFile(rel, tuple(sorted({n for _, n in cl_mentions(src)})), tuple(cl.builds), tuple(cl.kernels),
                    tuple(cl.args), tuple(cl.launches), tuple(cl.wrappers),
                    tuple(dict.fromkeys((*define_hints(src), *streamed_types(src), *mapped_defines(src)))), extra=extra)


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.resolve().relative_to(root).as_posix()
    except (OSError, ValueError):
        return None


def _read_host(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_HOST_BYTES:
            return None
        return path.read_text(errors="replace")
    except OSError:
        return None


def build_host_index(root: Path, files: list[Path], cache_dir: Path | None = None,
                     headers: list[Path] | tuple[Path, ...] | Callable[[], list[Path]] = ()) -> HostIndex:
    """Index the host files (absolute paths under ``root``); reuse the cached entries of unchanged files
    (:mod:`simu.host.filecache`).  ``headers``: more project headers their includes may name (besides ``files``),
    read for macros only (or a function giving them, called when an include is first looked up)."""
    root = root.resolve()
    index = HostIndex(root)
    headers = HeaderMacros([*files, *headers]) if not callable(headers) else HeaderMacros(files, headers)
    texts: dict[str, str] = {}  # host file -> its text, read once for the passes over the whole index too
    read: list[tuple[Path, str]] = []
    for path in files:
        rel = _relative(path, root)
        if rel is None:
            continue
        text = _read_host(path)
        if text is None:
            continue
        texts[rel] = text
        read.append((path, rel))
    index.options = merge_defaults([option_defaults(t) for t in texts.values() if '"' in t or "DEFINE_" in t])
    store = HostFileCache(cache_dir, extractor_version())
    seen: dict[Path, tuple[str, str]] = {}  # header -> (its digest, its text)
    entries: dict[str, dict] = {}  # host file -> its cache entry: {"data": its sites, "ast": its clang facts}
    keys: dict[str, str] = {}
    reused: set[str] = set()
    includes: dict[str, list[str]] = {}  # host file -> the project headers it includes (relative paths)
    for path, rel in read:
        text = texts[rel]
        included = headers.headers_of(path, text)
        includes[rel] = [r for h in included if (r := _relative(h, root)) is not None]
        key = _entry_key(root, rel, text, included, index.options, seen)
        hit = store.get(key)
        if hit is not None:
            try:
                index.files.append(host_file_from_dict(hit["data"]))
                index.reused += 1
                entries[rel], keys[rel] = hit, key
                reused.add(rel)
                continue
            except (KeyError, TypeError):
                pass
        h = index_host_file(path, rel, headers.macros(included), text, index.options, headers.functions(included),
                            headers.launch_macros(included))
        if h is None:
            continue
        index.files.append(h)
        index.parsed += 1
        entries[rel], keys[rel] = {"data": host_file_to_dict(h)}, key
    clang_known = {rel for rel, e in entries.items() if "ast" in e}
    # simu.host.ast keeps each file's clang facts in its cache entry ("ast"), read once per content too
    facts, index.clang_read, index.clang_failed = program_facts(root, texts, entries, keep=store.conn is not None,
                                                                       included=includes)
    program: Program | None = None
    try:
        program = Program(facts)
        index.cuda_read = launch_values(program)
        index.cuda_read_sites = {(f.file, x.line, x.kernel) for f in facts for x in f.launches}
        index.cuda_followed = followed_calls(index.cuda_read)
        index.opencl_read = opencl_frames(program)
    except _CLANG_FAILURES as exc:  # the lexical reader alone, and the scan's note says so
        index.cuda_read, index.cuda_read_sites, index.cuda_followed = [], set(), frozenset()
        index.opencl_read = {}
        index.clang_unapplied = f"its launch values ({type(exc).__name__}: {exc})"
    for rel, entry in entries.items():
        if rel not in reused or "ast" in entry and rel not in clang_known:
            store.put(keys[rel], entry)
    store.close()
    index.wrapped, index.templates = _wrapped_builds(index, files)
    index.cuda_wrapped, index.cuda_replaced = _wrapped_cuda(index, files, headers)
    _launcher_sites(index, files, headers)
    index.files = parameter_launches(index.files, candidate_texts(texts))
    if program is not None and index.opencl_read:
        try:  # the OpenCL sites with clang's values, where the lexical reader has none
            refined = refine_sites(index.files, program, index.opencl_read)
            index.files, index.clang_conflicts = refined.files, refined.conflicts
        except _CLANG_FAILURES as exc:  # the lexical reader's sites stand alone, and the scan's note says so
            index.clang_unapplied = f"its OpenCL values ({type(exc).__name__}: {exc})"
    return index


_CLANG_FAILURES = (RecursionError, ValueError, TypeError, KeyError, IndexError, OverflowError, AttributeError)


def _entry_key(root: Path, rel: str, text: str, included: list[Path], options: dict[str, str],
               seen: dict[Path, tuple[str, str]]) -> str:
    """A host file's cache key (:func:`simu.host.filecache.entry_key`): its headers by path and digest, and the
    option defaults whose names it or its headers mention."""
    marks = []
    for h in included:
        if h not in seen:
            try:
                data = h.read_bytes() if h.stat().st_size <= MAX_HOST_BYTES else b""
            except OSError:
                data = b""
            seen[h] = (digest(data), data.decode(errors="replace"))
        try:
            name = h.relative_to(root).as_posix()
        except ValueError:
            name = h.as_posix()
        marks.append((name, seen[h][0]))
    mentioned = {k: v for k, v in options.items() if k in text or any(k in seen[h][1] for h in included)}
    return entry_key(rel, text, marks, mentioned)


def _launcher_sites(index: HostIndex, files: list[Path], headers: HeaderMacros) -> None:
    """The kernels made by kernel-creating helpers and the arguments and launches of launcher objects
    (:mod:`simu.host.launchers`), added to the files they are called in as the raw API's sites; a launch names
    the kernel its kernel variable was made for (in its file, else the one kernel of that variable elsewhere)."""
    from dataclasses import replace

    from simu.host.launchers import forwarders, merge_classes, resolve

    helpers = [x for h in index.files for x in h.extra.get(HELPERS_KEY, ())]
    classes = merge_classes(x for h in index.files for x in h.extra.get(CLASSES_KEY, ()))
    if not helpers and not classes:
        return
    sources: dict[str, CSource | None] = {}

    def source(path: Path) -> tuple[str, CSource] | None:
        try:
            rel = path.resolve().relative_to(index.root).as_posix()
        except ValueError:
            return None
        if rel not in sources:
            text = _read_host(path)
            src = CSource(text) if text else None
            if src is not None:
                src.project_options = index.options  # type: ignore[attr-defined]
                headers.prepare(src, path, text)
            sources[rel] = src
        src = sources[rel]
        return (rel, src) if src is not None else None

    def mentioning(names: set[str]) -> list[tuple[str, CSource]]:
        out = []
        for path in files:
            if names and (text := _read_host(path)) and any(n in text for n in names):
                if (hit := source(path)) is not None:
                    out.append(hit)
        return out

    if helpers:
        helpers += [f for _, src in mentioning({h["function"] for h in helpers}) for f in forwarders(helpers, src)]
    names = {h["function"] for h in helpers} | set(classes)
    mentions: dict[int, list[str]] = {}

    def cl_names(src: CSource) -> list[str]:
        if id(src) not in mentions:
            mentions[id(src)] = [n for _, n in cl_mentions(src)]
        return mentions[id(src)]

    found = resolve(helpers, classes, mentioning(names), cl_names)
    if not found:
        return
    made = [k for s in found.values() for k in s.kernels] + [k for h in index.files for k in h.kernels]

    def together(rel: str, a: int, b: int) -> bool:
        """Whether lines ``a`` and ``b`` of a file are in one function."""
        src = sources.get(rel)
        if src is None:
            return True
        fa, fb = src.enclosing(src.offset_of(a) + 1), src.enclosing(src.offset_of(b) + 1)
        return fa is not None and fa == fb
    files_out = []
    for h in index.files:
        s = found.get(h.path)
        if s is None:
            files_out.append(h)
            continue
        # the launcher objects' launches, and the file's own ``clEnqueueNDRangeKernel`` of a kernel variable a
        # helper made (``getKernel(&m_k, p, "scan")``): named by what was made for the variable
        launches = tuple(replace(x, kernel_name=name) for x in h.launches + tuple(s.launches)
                         for name in ([x.kernel_name] if x.kernel_name is not None else
                                      _kernels_of(made, x, lambda a, b, rel=h.path: together(rel, a, b))))
        files_out.append(replace(h, kernels=h.kernels + tuple(s.kernels), args=h.args + tuple(s.args),
                                 launches=launches))
    index.files = files_out


def _kernels_of(made: list, launch: LaunchSite, together) -> list[str | None]:
    """The kernel names of the kernel variable a launch uses.  Made in the launch's own function: the last made
    before it.  Made elsewhere in its file (a constructor choosing among kernels for a member: ``switch (kind) {
    case A: m_k = make("a"); ...}``): each name made for it (a launch per name).  Else the one name made for that
    variable (or member name) in other files."""
    def norm(e: str) -> str:
        return re.sub(r"\s+", "", e).lstrip("&*")

    var = norm(launch.kernel)
    same = [k for k in made if k.file == launch.file and k.var and norm(k.var) == var and k.name]
    if same:
        local = [k for k in same if k.line <= launch.line and together(k.line, launch.line)]
        if local:
            return [local[-1].name]
        return list(dict.fromkeys(k.name for k in same))
    names = {k.name for k in made if k.var and norm(k.var) == var and k.name}
    if not names:  # m_data->m_solver->m_sortKernel: a member made as m_sortKernel elsewhere
        tail = re.split(r"->|\.", var)[-1]
        names = {k.name for k in made if k.var and re.split(r"->|\.", norm(k.var))[-1] == tail and k.name}
    return [names.pop()] if len(names) == 1 else [None]


def _wrapped_cuda(index: HostIndex, files: list[Path], headers: HeaderMacros
                  ) -> tuple[list[CudaLaunch], set[tuple[str, int]]]:
    """One CUDA launch per call of a wrapper function (``extern "C" void softmax_gpu(…)`` around ``<<<>>>`` in a
    ``.cu``) from another host file, evaluated in the calling file (its constants, its argument texts); a file that
    defines a function of the same name calls its own, and a namesake defined in a folder nearer the caller is the
    one it calls.  Also the (file, line) of each wrapper's launch that such
    calls resolve, which then stands for nothing of its own."""
    from simu.host.cuda import resolve_call
    from simu.host.cvalues import Evaluator

    templates = [t for h in index.files for t in h.extra.get(WRAPPERS_KEY, ())]
    if not templates:
        return [], set()
    by_name: dict[str, list[dict]] = {}
    for t in templates:
        by_name.setdefault(t["function"], []).append(t)
    callers: list[tuple[Path, str, str, CSource, list[str], set[str]]] = []
    defined_in: dict[str, set[str]] = {}  # wrapper name -> host files defining a function of that name
    for path in files:
        text = _read_host(path)
        if not text:
            continue
        called = set(re.findall(rf"(?<![\w.>])([A-Za-z_]\w*)\s*{TEMPLATE_ARGS}?\(", text))
        used = [n for n in by_name if n in called]
        if not used:
            continue
        try:
            rel = path.resolve().relative_to(index.root).as_posix()
        except ValueError:
            continue
        src = CSource(text)
        src.project_options = index.options  # type: ignore[attr-defined]
        defined = {f.name.split("::")[-1] for f in src.functions()}
        for n in defined & set(used):
            defined_in.setdefault(n, set()).add(rel)
        callers.append((path, text, rel, src, used, defined))
    out: list[CudaLaunch] = []
    replaced: set[tuple[str, int]] = set()
    for path, text, rel, src, used, defined in callers:
        ev: Evaluator | None = None
        for name in used:
            if name in defined:
                continue  # a namesake of this file's own
            # a namesake defined nearer the caller is the one it calls (shoc's OpenCL and CUDA FFT `check`)
            nearest = min((file_distance(rel, d) for d in defined_in.get(name, ())), default=None)
            for t in by_name[name]:
                if t["file"] == rel:
                    continue  # calls in the wrapper's own file are resolved there
                if nearest is not None and file_distance(rel, t["file"]) > nearest:
                    continue
                if ev is None:
                    headers.prepare(src, path, text)
                    ev = Evaluator(src)
                for call in src.calls(name):
                    out += resolve_call(src, ev, rel, t, call)
                    replaced.add((t["file"], t["line"]))
    return out, replaced


def _wrapped_builds(index: HostIndex, files: list[Path]) -> tuple[list[BuildSite], set[tuple[str, int]]]:
    """One build site per call of a wrapper function (one level): the options and ``.cl`` file name its
    caller passes, evaluated in the caller's file.  A wrapper called in the file that defines it takes only
    those calls (shoc defines a ``runTest`` per benchmark).  Also the builds inside wrappers whose options
    parameter the calls filled in (templates, no build of their own)."""
    wrappers = [w for h in index.files for w in h.wrappers]
    if not wrappers:
        return [], set()
    names = {w.function for w in wrappers}
    per: list[list[BuildSite]] = [[] for _ in wrappers]
    for path in files:
        try:
            text = path.read_text(errors="replace") if path.stat().st_size <= MAX_HOST_BYTES else ""
        except OSError:
            continue
        used = [n for n in names if re.search(rf"\b{re.escape(n)}\s*[(<]", text)]
        if not used:
            continue
        src = CSource(text)
        src.project_options = index.options  # type: ignore[attr-defined]  # -DN=" + toString(size) at its default
        rel = path.resolve().relative_to(index.root).as_posix()
        for i, w in enumerate(wrappers):
            if w.function in used:
                per[i] += wrapper_calls(src, rel, w)
    out: list[BuildSite] = []
    templates = set()
    for w, sites in zip(wrappers, per, strict=True):
        own = [b for b in sites if b.file == w.build.file]
        out += own or sites
        if sites and w.options_index is not None:
            templates.add((w.build.file, w.build.line))
    return out, templates


def host_files(walked: list[Path]) -> list[Path]:
    """The host sources among walked files."""
    return [p for p in walked if p.suffix.lower() in HOST_EXTENSIONS]


@functools.cache
def extractor_version() -> str:
    """Entries never outlive a change of the extractors (the code's own hash; read once a process: a resident
    checker stops when simu's sources change)."""
    import hashlib

    h = hashlib.sha256(str(CACHE_VERSION).encode())
    here = Path(__file__).parent
    for f in sorted(here.rglob("*.py")):  # simu/host and its subpackages
        h.update(f.read_bytes())
    return h.hexdigest()[:16]
