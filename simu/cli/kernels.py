"""`simu kernels`: every kernel of files or folders with its parameters."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from simu import __version__
from simu.cli.common import (
    O1,
    O2,
    O3,
    ClangArgOpt,
    CudaPathOpt,
    DefineOpt,
    IncludeOpt,
    console,
    err_console,
    fail,
    in_repository,
    opt_level,
)
from simu.errors import CompileError, SimuError


def kernels_cmd(paths: list[Path],
                fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="table or json")] = "table",
                include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
                cuda_path: CudaPathOpt = None, o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """List every kernel with its parameters in files or directories."""
    from simu.api import load_file
    from simu.frontend.discover import find_sources

    try:
        files = find_sources(list(paths))
    except FileNotFoundError as exc:
        fail(f"no such file or directory: {exc}")
    file_options, plan = _project_flags(paths, files, include, define, clang_arg, opt_level(o1, o2, o3),
                                        cuda_path)
    resolved = {f: f.resolve() for f in files}  # once: a large tree holds thousands of sources
    included = [{"file": str(f), "included_by": _shown(plan.included_by[resolved[f]])} for f in files
                if resolved[f] in plan.included_by]
    files = [f for f in files if resolved[f] not in plan.included_by]
    listed = {resolved[f] for f in files}
    files += [Path(_shown(h)) for h in plan.units if h not in listed]
    rows: list[dict] = []
    failures: list[dict] = []
    for f in files:
        try:
            module = load_file(f, file_options(f))
        except CompileError as exc:
            failures.append({"file": str(f), "error": exc.first, "diagnostics": exc.diagnostics})
            continue
        except SimuError as exc:
            failures.append({"file": str(f), "error": str(exc), "diagnostics": ""})
            continue
        for k in module.kernels:
            rows.append({
                "file": str(f), "kernel": k.display_name, "mangled": k.name, "language": k.language,
                "line": k.line,
                "params": [{"name": p.name, "type": p.c_type or str(p.type), "llvm_type": str(p.type),
                            "address_space": p.addrspace if p.is_pointer else None,
                            "pointer": p.is_pointer, "const": p.is_const} for p in k.params],
                **({"defined_in": _shown(Path(k.file).resolve())}
                   if k.file and Path(k.file).resolve() != Path(f).resolve() else {}),
            })
    if fmt == "json":
        sys.stdout.write(json.dumps({"version": __version__, "kernels": rows, "failures": failures,
                                     "included": included}, indent=2, ensure_ascii=False) + "\n")
    else:
        table = Table(title=f"{len(rows)} kernels in {len(files) - len(failures)} files")
        for col in ("file", "kernel", "lang", "parameters"):
            table.add_column(col)
        for r in rows:
            params = ", ".join(f"{p['type']} {p['name']}" for p in r["params"])
            table.add_row(f"{r.get('defined_in', r['file'])}:{r['line']}", r["kernel"], r["language"], params)
        console.print(table)
        for inc in included:
            err_console.print(f"[dim]{escape(inc['file'])}: included by {escape(inc['included_by'])} (its kernels are "
                              f"listed there)[/]", highlight=False, soft_wrap=True)
        for fl in failures:
            err_console.print(f"[bold red]error:[/] {escape(fl['file'])}: does not compile: {escape(fl['error'])}",
                              highlight=False, soft_wrap=True)
    if failures and not rows:
        raise typer.Exit(2)
    if failures:
        raise typer.Exit(1)


def _project_flags(paths: list[Path], files: list[Path], include, define, clang_arg, level: int | None,
                   cuda_path: Path | None = None):
    """``(file -> CompileOptions, UnitPlan)``: the command line and configuration, plus the project's own build
    flags (``compile_commands.json``, host build options of ``.cl`` files, per-file configuration tables) and
    discovered include folders; the plan says which files are fragments and which headers define kernels
    (as in `simu scan`)."""
    from simu.config import ConfigError
    from simu.frontend.compile import IR_EXTENSIONS
    from simu.frontend.discover import IgnoreRules
    from simu.frontend.includes import HeaderIndex
    from simu.scan import ScanError, ScanOverrides, resolve_options
    from simu.scan.flags import build_file_flags
    from simu.scan.units import kernel_headers, plan_units

    overrides = ScanOverrides(include=list(include or ()), define=list(define or ()),
                              clang_args=list(clang_arg or ()), opt_level=level, no_cache=not in_repository(paths[0]),
                              cuda_path=str(cuda_path) if cuda_path else None)
    try:
        options, cfg = resolve_options(list(paths), overrides)
        flags = build_file_flags(options, cfg, [f.resolve() for f in files], contracts=False)
    except (ConfigError, ScanError) as exc:
        fail(str(exc))
    rules = IgnoreRules(options.root, options.exclude)
    rules.add_excludes(options.config_base or options.root, options.config_exclude)
    sources = [f.resolve() for f in files if f.suffix.lower() not in IR_EXTENSIONS]
    plan = plan_units(sources, kernel_headers(list(paths), rules), options.include,
                      HeaderIndex(options.root, rules), options.auto_include)

    def file_options(f: Path):
        info = plan.infos.get(Path(f).resolve())
        return flags.compile_options(Path(f).resolve(), info.folders if info else [])

    return file_options, plan


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is under it."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

