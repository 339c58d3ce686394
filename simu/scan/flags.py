"""Per-file compiler options: the project's own build flags on top of the command line and configuration.

Sources, in the order their options are added (a later ``-D`` of the same name wins in clang):

1. the global options (``-I``/``-D``/``--clang-arg`` and ``include``/``define``/``clang-args``);
2. for CUDA files, the ``define_macros`` of the nearest ``setup.py`` (a Python extension's CUDA build:
   :mod:`simu.frontend.setup_py`), then ``compile_commands.json`` (``--compile-commands``,
   ``compile-commands``, else found at the
   project root or in a ``build*/`` folder): :mod:`simu.frontend.compdb`;
3. for a ``.cl`` file, the build options its host program passes to ``clBuildProgram``
   (:mod:`simu.host`).  A ``.cl`` built with several distinct option strings is compiled once per
   string by a scan (:meth:`FileFlags.variants`; its kernels are named ``k[TILE=16]``, up to
   :data:`MAX_VARIANTS` strings), and with the first one found by ``simu check`` (which says so);
4. every ``[tool.simu.files."GLOB"]`` table whose glob matches the file, in file order.

Host options assembled at run time (``-DLROWS=" << lRows``) and ``-DNAME=`` names the host writes that a
``.cl`` file needs but no traced build gives it get values chosen by :mod:`simu.scan.assume`, kept in
:attr:`CompileOptions.assumed` and named in a note and in every finding of the file's kernels.  A ``.cl`` file
that fails on unknown type names the build passes is compiled again once per common type
(:meth:`FileFlags.type_variants`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import pathspec

from simu.config import Config
from simu.frontend import CompileOptions
from simu.frontend.compdb import CompileDatabase, CompileDatabaseError, find_compile_database
from simu.frontend.setup_py import setup_defines
from simu.host import BuildSite, HostIndex, parse_build_options
from simu.host.streamed import STREAMED_KEY
from simu.scan.assume import (
    COMMON_TYPES,
    IMAGE_SUFFIX,
    hinted,
    image_suffixes,
    integer_types,
    label,
    normal,
    resolve,
    unknown_types,
)
from simu.scan.options import ScanError, ScanOptions

MAX_VARIANTS = 8  # build-option sets of one .cl file compiled by a scan
# kernel files past which a command on part of a project indexes all of it: the search for the host files reaching
# them reads every host file per .cl file, and so many files reach most of a project anyway
MAX_REACH_SEEDS = 64


@dataclass
class FileFlags:
    """Computes the :class:`CompileOptions` of each scanned file; ``notes`` collects what a user should know
    (a .cl built with several option sets)."""

    options: ScanOptions
    config: Config
    host: HostIndex | None = None
    database: CompileDatabase | None = None
    cl_files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # a scan compiles a .cl failing on unknown type names once per type (type_variants): the host's names the
    # file uses as types are left to clang's diagnostics; else (simu check, simu kernels) they are guessed float
    retype: bool = False
    _hint_cache: dict[str, set[str]] | None = field(default=None, init=False, repr=False)
    _prelude_stems: set[str] | None = field(default=None, init=False, repr=False)
    # .cl file -> the host's names it uses as types, left undefined for clang to judge (assume.hinted)
    _type_names: dict[Path, set[str]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        base = self.config.root or self.options.root
        self._globs = [(pathspec.GitIgnoreSpec.from_lines([fs.glob]), fs) for fs in self.config.files]
        self._base = base

    def compile_options(self, path: Path, folders: list[Path] | tuple[Path, ...] = ()) -> CompileOptions:
        """The options of one file; a ``.cl`` file built with several option sets takes the first (noted)."""
        sites = self._host_builds(path)
        if len(sites) > 1:
            self.notes.append(f"{_rel(path, self.options.root) or path}: host code builds it with {len(sites)} "
                              f"option sets; compiled with '{sites[0].options}' ({sites[0].file}:{sites[0].line}), "
                              f"not {_listing(sites[1:])}")
        return self._options(path, folders, sites[0] if sites else None)

    def variants(self, path: Path, folders: list[Path] | tuple[Path, ...] = ()) -> list[tuple[str, CompileOptions]]:
        """``[(label, options)]``: one entry (label ``""``) per file, or one per distinct host build-option set
        of a ``.cl`` file (at most :data:`MAX_VARIANTS`), labelled with the defines that tell them apart."""
        sites = self._host_builds(path)
        if len(sites) <= 1:
            return [("", self._options(path, folders, sites[0] if sites else None))]
        if len(sites) > MAX_VARIANTS:
            self.notes.append(f"{_rel(path, self.options.root) or path}: host code builds it with {len(sites)} "
                              f"option sets; the first {MAX_VARIANTS} are compiled, not "
                              f"{_listing(sites[MAX_VARIANTS:])}")
            sites = sites[:MAX_VARIANTS]
        labels = variant_labels([normal(s.options or "") for s in sites])
        return [(label, self._options(path, folders, site)) for label, site in zip(labels, sites, strict=True)]

    def _options(self, path: Path, folders, site: BuildSite | None) -> CompileOptions:
        o = self.options
        incs = [str(d) for d in o.include]
        defines, args = list(o.define), list(o.clang_args)
        suffix = path.suffix.lower()
        if suffix in (".cu", ".cuh"):  # a Python extension's CUDA build: its setup.py's define_macros
            defines += setup_defines(path, o.root)
        if self.database is not None and suffix in (".cu", ".cuh"):
            flags = self.database.flags_for(path)
            if flags is not None:
                incs += flags.include_dirs
                defines += flags.defines
                args += flags.clang_args
        assumed: list[str] = []
        if site is not None and site.options:
            cf, assumed = resolve(site.options, _text(path), self._hints())
            incs += [str(d) for d in _existing(cf.include_dirs, path, self.options.root / site.file)]
            defines += cf.defines
            args += cf.clang_args
        if needs_host(path) and self.host is not None:
            types: list[str] = []
            preludes = self._preludes(path)
            for source in (*preludes, path):  # a streamed prelude's names are the file's too
                extra = hinted(source, {d.partition("=")[0] for d in defines}, self._hints(),
                               types if self.retype else None)
                defines += extra
                assumed += extra
            args += [a for p in preludes for a in ("-include", str(p))]
            self._type_names.setdefault(path.resolve(), set()).update(types)
        if assumed:
            where = f" ({site.file}:{site.line})" if site is not None else ""
            self._note(f"{_rel(path, self.options.root) or path}: the host code computes "
                              f"{', '.join(a.partition('=')[0] for a in assumed)} at run time{where}; compiled "
                              f"assuming {' '.join(assumed)}")
        rel = _rel(path, self._base)
        for spec, fs in self._globs:
            if rel is not None and spec.match_file(rel):
                incs += [str((self._base / d).resolve()) for d in fs.include]
                defines += fs.define
                args += fs.clang_args
        after = tuple(dict.fromkeys(str(d) for d in folders if str(d) not in incs))  # discovered: -idirafter
        return CompileOptions(tuple(dict.fromkeys(incs)), tuple(defines), tuple(args), o.opt_level, after_dirs=after,
                              cuda_path=o.cuda_path, cuda_path_detected=o.cuda_path_detected,
                              assumed=tuple(dict.fromkeys(assumed)), instance=site.instance if site else "")

    def type_variants(self, path: Path, label: str, copts: CompileOptions, diagnostics: str, typed: str = ""
                      ) -> tuple[list[tuple[str, str, CompileOptions]], str]:
        """``[(label, type, options)]`` compiling ``path`` again after it failed with ``copts`` (variant ``label``):
        one per :data:`COMMON_TYPES`, every name clang calls an unknown type name set to it -- names the host
        passes as build options (its define hints), or any name when no OpenCL host code is seen at all --, and
        a note saying so; ``([], "")`` when no such name is among the errors.  A variant that already assumes
        type ``typed`` sets the names still unknown to that type (one variant)."""
        if path.suffix.lower() != ".cl":
            return [], ""
        host = self._host_seen()
        hints = self._hints()
        names = unknown_types(diagnostics, self._type_names.get(path.resolve(), set()) if host else set(),
                              set(hints) if host else set())
        defined = {d.partition("=")[0] for d in copts.defines}
        names = [n for n in names if n not in defined and (not host or n in hints)]
        suffixes = [n for n in image_suffixes(diagnostics, set(hints) if host else set()) if n not in defined]
        if not names and not suffixes:
            return [], ""
        why = ("types the host code passes as build options and computes at run time" if host else
               "types nothing defines (no OpenCL host code seen)")
        out = [_variant(label, ty, copts, tuple(f"{n}={ty}" for n in names) +
                        tuple(f"{n}={IMAGE_SUFFIX.get(ty, 'f')}" for n in suffixes), why)
               for ty in ([typed] if typed else COMMON_TYPES)]
        mixed, indexed = ([], "") if typed or not names else self._mixed_variants(path, label, copts, names,
                                                                                  defined, why)
        out += mixed
        names = names + suffixes  # said with the types: an image call's suffix (f, i) follows each variant's type
        rel = _rel(path, self.options.root) or str(path)
        if typed:  # the same text for every type: one note
            return out, (f"{rel}: also assuming {' = '.join(names)} = each variant's type (unknown type "
                         f"name{'' if len(names) == 1 else 's'} clang reported only after the first)")
        listed, one = ", ".join(names), len(names) == 1
        it, a, s = ("it", "a ", "") if one else ("them", "", "s")
        because = (f"the host code passes {listed} as {a}build option{s} and computes {it} at run time, and clang "
                   f"reads {it} as {a}type{s}" if host else
                   f"{listed} {'is' if one else 'are'} used as {a}type{s} that nothing defines, and no OpenCL host "
                   f"code is seen")
        note = f"{rel}: compiled assuming {' = '.join(names)} = {', '.join(COMMON_TYPES)}, one variant each: {because}"
        if indexed:
            note += f"; also {indexed} = int (the kernel indexes with them) and the others float, then double"
        return out, note

    def _mixed_variants(self, path: Path, label: str, copts: CompileOptions, names: list[str], defined: set[str],
                        why: str) -> tuple[list[tuple[str, str, CompileOptions]], str]:
        """Two more variants when the kernel indexes with some of the type names and not the others (an index type
        beside a value type: one type for all fails both ways): the index types ``int``, the others ``float``, then
        ``double``; every type name of the file the host passes is set at once.  Also the index types, listed."""
        every = list(dict.fromkeys(names + sorted(n for n in self._type_names.get(path.resolve(), set())
                                                 if n not in defined)))
        ints = integer_types(_text(path), every)
        if not ints or len(ints) == len(every):
            return [], ""
        return ([_variant(label, ty, copts, tuple(f"{n}={'int' if n in ints else ty}" for n in every), why)
                 for ty in ("float", "double")], ", ".join(n for n in every if n in ints))

    def _host_seen(self) -> bool:
        """Whether any host file builds an OpenCL program, names a ``.cl`` file or writes a ``-D`` option."""
        return self.host is not None and any(h.builds or h.cl_files or h.define_hints for h in self.host.files)

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def _preludes(self, path: Path) -> list[Path]:
        """The ``.cl`` files of ``path``'s folder that host code streams in front of the programs it builds
        (:mod:`simu.host.streamed`), ``path`` itself left out."""
        if self._prelude_stems is None:
            self._prelude_stems = {s for h in self.host.files for s in h.extra.get(STREAMED_KEY, ())} \
                if self.host is not None else set()
        found = [path.parent / f"{s}.cl" for s in sorted(self._prelude_stems)]
        return [p for p in found if p.name != path.name and p.is_file()]

    def _hints(self) -> dict[str, set[str]]:
        if self._hint_cache is None:
            self._hint_cache = self.host.define_hints() if self.host is not None else {}
        return self._hint_cache

    def _host_builds(self, path: Path) -> list[BuildSite]:
        """The first build site of each distinct non-empty options string the host code builds ``path`` with."""
        if self.host is None or not needs_host(path):
            return []
        out: dict[str, BuildSite] = {}
        for s in self.host.builds_of(path, self.cl_files or [path]):
            key = normal(s.options or "")
            if key and key not in out:
                out[key] = s
        return list(out.values())


def _variant(label: str, ty: str, copts: CompileOptions, extra: tuple[str, ...], why: str
             ) -> tuple[str, str, CompileOptions]:
    """One type variant: its label, the type it assumes, the options with the ``-D`` it adds (said assumed)."""
    return (" ".join(x for x in (label, *extra) if x), ty,
            replace(copts, defines=(*copts.defines, *extra), assumed=(*copts.assumed, *extra), assumed_why=why))


def variant_labels(options: list[str]) -> list[str]:
    """Short names for option strings: the ``-D`` definitions not shared by all of them (``TILE=16 N=4``),
    else ``#1``, ``#2`` ..."""
    defs = [parse_build_options(o).defines for o in options]
    common = set(defs[0]).intersection(*map(set, defs[1:]))
    labels = [" ".join(label(d) for d in ds if d not in common) for ds in defs]
    if len(set(labels)) < len(labels) or not all(labels):
        return [f"#{i + 1}" for i in range(len(options))]
    return labels


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _listing(sites: list[BuildSite]) -> str:
    return "; ".join(f"'{s.options}' ({s.file}:{s.line})" for s in sites)


def _rel(path: Path, base: Path) -> str | None:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return None


def _existing(dirs: tuple[str, ...], cl_file: Path, host_file: Path) -> list[Path]:
    """Host ``-I`` folders are relative to the host program's working folder, unknown here: the ones that
    exist relative to the host file's folder, the .cl file's folder or as given."""
    out = []
    for d in dirs:
        p = Path(d)
        cands = [p] if p.is_absolute() else [host_file.parent / p, cl_file.parent / p]
        out += [c.resolve() for c in cands if c.is_dir()][:1]
    return out


def load_database(options: ScanOptions) -> tuple[CompileDatabase | None, str | None]:
    """The project's compile database (given, or found at the root or in ``build*/``) and a warning when a
    found one cannot be read; :class:`ScanError` when a given one cannot."""
    path = options.compile_commands
    given = path is not None
    if path is None:
        path = find_compile_database(options.root)
    if path is None:
        return None, None
    try:
        return CompileDatabase.load(path), None
    except CompileDatabaseError as exc:
        if given:
            raise ScanError(str(exc)) from None
        return None, f"{exc}; compiling without it"


def build_file_flags(options: ScanOptions, config: Config, sources: list[Path], contracts: bool = True,
                     rules=None, retype: bool = False) -> FileFlags:
    """The per-file options of a scan: its compile database and, when it scans .cl or CUDA files, the host-code
    index of the project (cached in the scan's cache folder): the build options of .cl files, and the launches
    the scan's launch contracts come from.  ``contracts``: the launches are wanted too (`simu scan`); else only
    the build options of the .cl files among ``sources`` (`simu check`, `simu kernels`).  ``rules``: the ignore
    rules the sources were found with (:class:`~simu.frontend.discover.IgnoreRules`: their walks are reused).
    ``retype``: the caller compiles again per type (:meth:`FileFlags.type_variants`).

    A scan of the whole project indexes every host file; a command on part of it (some files or folders,
    ``--changed``) only those that can reach the kernels of ``sources`` (:mod:`simu.host.reach`), so that its
    cost does not grow with the repository around them (past :data:`MAX_REACH_SEEDS` kernel files, every one)."""
    database, warning = load_database(options)
    return flags_with_host(options, config, sources, database, warning, contracts, rules, retype)


def flags_with_host(options: ScanOptions, config: Config, sources: list[Path], database: CompileDatabase | None,
                    warning: str | None, contracts: bool = True, rules=None, retype: bool = False) -> FileFlags:
    """:func:`build_file_flags` once the compile database is loaded (``warning``: why a found one was not): the
    host index is built here, the slow part, which `simu scan` runs beside the compiles that do not need it
    (:func:`needs_host`)."""
    from simu.frontend.discover import IgnoreRules, walk
    from simu.host import build_host_index, host_files
    from simu.host.reach import reaching_index

    host = None
    cl_files = [s for s in sources if s.suffix.lower() == ".cl"]
    seeds = [s for s in sources if s.suffix.lower() in (".cl", ".cu", ".cuh", ".hip")] if contracts else cl_files
    if seeds and options.host_code and options.root.is_dir():
        if rules is None:
            rules = IgnoreRules(options.root, options.exclude)
            rules.add_excludes(options.config_base or options.root, options.config_exclude)
        walked = walk(options.root, rules)
        if contracts and whole_project(options) or len(seeds) > MAX_REACH_SEEDS:
            host = build_host_index(options.root, host_files(walked), options.cache_dir)
        else:
            host = reaching_index(options.root, seeds, walked, options.cache_dir)
            cl_files = [f for f in walked if f.suffix.lower() == ".cl"]  # the nearest of a name is built
    flags = FileFlags(options, config, host, database, cl_files, retype=retype)
    if warning:
        flags.notes.append(warning)
    if host is not None and (lexical := host.lexical_only_launches()):
        flags.notes.append(f"launches read by the lexical reader alone (clang could not read their host file): "
                           f"{', '.join(lexical[:8])}{' …' if len(lexical) > 8 else ''}")
    if host is not None and host.clang_unapplied:
        flags.notes.append(f"clang's reading of the host code was not applied, the lexical reader's stands: "
                           f"{host.clang_unapplied}")
    if host is not None and host.clang_conflicts:
        flags.notes.append(f"OpenCL values the host text and clang read differently (the host text's kept): "
                           f"{'; '.join(host.clang_conflicts[:4])}{' …' if len(host.clang_conflicts) > 4 else ''}")
    return flags


def needs_host(path: Path) -> bool:
    """Whether a file's compile options come from the host index: a ``.cl`` file's do (the options its host code
    builds it with, the names it passes), any other file's only from the compile database and the configuration."""
    return path.suffix.lower() == ".cl"


def whole_project(options: ScanOptions) -> bool:
    """Whether a scan covers its whole project (its root among its paths, not ``--changed``)."""
    return not options.changed and any(p.resolve() == options.root for p in options.paths)
