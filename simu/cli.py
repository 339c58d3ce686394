"""The `simu` command line (typer + rich). Commands parse options, call the library, render."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from simu import __version__
from simu.errors import CompileError, SimuError
from simu.frontend import CompileOptions, compile_file

app = typer.Typer(help="simu: find data races, barrier divergence and redundant barriers in GPU kernels.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
console = Console()
err_console = Console(stderr=True)

IncludeOpt = Annotated[Optional[list[str]], typer.Option("-I", "--include", help="Add an include directory.")]
DefineOpt = Annotated[Optional[list[str]], typer.Option("-D", "--define", help="Define a macro NAME[=VALUE].")]
ClangArgOpt = Annotated[Optional[list[str]], typer.Option("--clang-arg", help="Pass an argument to clang verbatim.")]
O1 = Annotated[bool, typer.Option("-O1", help="As-compiled mode at -O1.")]
O2 = Annotated[bool, typer.Option("-O2", help="As-compiled mode at -O2.")]
O3 = Annotated[bool, typer.Option("-O3", help="As-compiled mode at -O3.")]


def compile_options(include: list[str] | None, define: list[str] | None, clang_arg: list[str] | None,
                    o1: bool = False, o2: bool = False, o3: bool = False) -> CompileOptions:
    level = 3 if o3 else 2 if o2 else 1 if o1 else 0
    return CompileOptions(tuple(include or ()), tuple(define or ()), tuple(clang_arg or ()), level)


def fail(message: str, code: int = 2) -> None:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def show_compile_error(exc: CompileError) -> None:
    err_console.print(f"[bold red]error:[/] {exc.path}: does not compile", highlight=False)
    err_console.print(exc.diagnostics, highlight=False, markup=False)


def version_callback(value: bool) -> None:
    if value:
        console.print(f"simu {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """simu: find synchronization bugs in CUDA and OpenCL kernels without a GPU."""


@app.command("compile")
def compile_cmd(file: Path, output: Annotated[Optional[Path], typer.Option("-o", "--output")] = None,
                include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
                o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Compile a .cu/.cl/.ll file to LLVM IR (device side, with line tables)."""
    try:
        module = compile_file(file, compile_options(include, define, clang_arg, o1, o2, o3))
    except CompileError as exc:
        show_compile_error(exc)
        raise typer.Exit(2)
    if output:
        output.write_text(module.ir)
        console.print(f"wrote {output} ({module.options.mode})")
    else:
        sys.stdout.write(module.ir)


@app.command("kernels")
def kernels_cmd(paths: list[Path], fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
                include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
                o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """List every kernel with its parameters in files or directories."""
    from simu.api import load_file
    from simu.frontend.discover import find_sources

    options = compile_options(include, define, clang_arg, o1, o2, o3)
    try:
        files = find_sources(list(paths))
    except FileNotFoundError as exc:
        fail(f"no such file or directory: {exc}")
    rows: list[dict] = []
    failures: list[dict] = []
    for f in files:
        try:
            module = load_file(f, options)
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
            })
    if fmt == "json":
        sys.stdout.write(json.dumps({"version": __version__, "kernels": rows, "failures": failures}, indent=2) + "\n")
    else:
        table = Table(title=f"{len(rows)} kernels in {len(files) - len(failures)} files")
        for col in ("file", "kernel", "lang", "parameters"):
            table.add_column(col)
        for r in rows:
            params = ", ".join(f"{p['type']} {p['name']}" for p in r["params"])
            table.add_row(f"{r['file']}:{r['line']}", r["kernel"], r["language"], params)
        console.print(table)
        for fl in failures:
            err_console.print(f"[bold red]error:[/] {fl['file']}: does not compile: {fl['error']}", highlight=False)
    if failures and not rows:
        raise typer.Exit(2)
    if failures:
        raise typer.Exit(1)


if __name__ == "__main__":  # pragma: no cover
    app()
