"""Per-file compiler options: the project's own build flags on top of the command line and configuration.

Sources, in the order their options are added (a later ``-D`` of the same name wins in clang):

1. the global options (``-I``/``-D``/``--clang-arg`` and ``include``/``define``/``clang-args``);
2. ``compile_commands.json`` for CUDA files (``--compile-commands``, ``compile-commands``, else found at the
   project root or in a ``build*/`` folder): :mod:`simu.frontend.compdb`;
3. for a ``.cl`` file, the build options its host program passes to ``clBuildProgram``
   (:mod:`simu.host`).  A ``.cl`` built with several distinct option strings is compiled with the
   first one found (host files in path order, then line order); the scan warns and names the others;
4. every ``[tool.simu.files."GLOB"]`` table whose glob matches the file, in file order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from simu.config import Config
from simu.frontend import CompileOptions
from simu.frontend.compdb import CompileDatabase, CompileDatabaseError, find_compile_database
from simu.host import BuildSite, HostIndex, parse_build_options
from simu.scan.options import ScanError, ScanOptions


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

    def __post_init__(self) -> None:
        base = self.config.root or self.options.root
        self._globs = [(pathspec.GitIgnoreSpec.from_lines([fs.glob]), fs) for fs in self.config.files]
        self._base = base

    def compile_options(self, path: Path, folders: list[Path] | tuple[Path, ...] = ()) -> CompileOptions:
        o = self.options
        incs = [str(d) for d in o.include]
        defines, args = list(o.define), list(o.clang_args)
        suffix = path.suffix.lower()
        if self.database is not None and suffix in (".cu", ".cuh"):
            flags = self.database.flags_for(path)
            if flags is not None:
                incs += flags.include_dirs
                defines += flags.defines
                args += flags.clang_args
        if self.host is not None and suffix == ".cl":
            site = self._host_build(path)
            if site is not None and site.options:
                cf = parse_build_options(site.options)
                incs += [str(d) for d in _existing(cf.include_dirs, path, self.options.root / site.file)]
                defines += cf.defines
                args += cf.clang_args
        rel = _rel(path, self._base)
        for spec, fs in self._globs:
            if rel is not None and spec.match_file(rel):
                incs += [str((self._base / d).resolve()) for d in fs.include]
                defines += fs.define
                args += fs.clang_args
        incs += [str(d) for d in folders if str(d) not in incs]
        return CompileOptions(tuple(dict.fromkeys(incs)), tuple(defines), tuple(args), o.opt_level)

    def _host_build(self, path: Path) -> BuildSite | None:
        sites = self.host.builds_of(path, self.cl_files or [path]) if self.host else []
        with_options = [s for s in sites if s.options]
        distinct = list(dict.fromkeys(s.options for s in with_options))
        if len(distinct) > 1:
            first = with_options[0]
            others = "; ".join(f"'{s.options}' ({s.file}:{s.line})" for s in with_options
                               if s.options != first.options)
            self.notes.append(f"{_rel(path, self.options.root) or path}: host code builds it with "
                              f"{len(distinct)} option sets; compiled with '{first.options}' ({first.file}:"
                              f"{first.line}), not {others}")
        return with_options[0] if with_options else None


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


def build_file_flags(options: ScanOptions, config: Config, sources: list[Path]) -> FileFlags:
    """The per-file options of a scan: its compile database and, when it scans .cl files, the host-code index
    of the project (cached in the scan's cache folder)."""
    from simu.frontend.discover import IgnoreRules, walk
    from simu.host import build_host_index, host_files

    database, warning = load_database(options)
    host = None
    cl_files = [s for s in sources if s.suffix.lower() == ".cl"]
    if cl_files and options.host_code and options.root.is_dir():
        rules = IgnoreRules(options.root, options.exclude)
        rules.add_excludes(options.config_base or options.root, options.config_exclude)
        host = build_host_index(options.root, host_files(walk(options.root, rules)), options.cache_dir)
    flags = FileFlags(options, config, host, database, cl_files)
    if warning:
        flags.notes.append(warning)
    return flags
