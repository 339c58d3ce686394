"""What every command shares: consoles, compile options, one-line failures, loading a file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from simu.errors import CompileError
from simu.frontend import CompileOptions

# soft_wrap: a diagnostic stays on one line when piped (grep, editors' quickfix, CI problem matchers)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)

IncludeOpt = Annotated[Optional[list[str]], typer.Option("-I", "--include", help="Add an include directory.")]
DefineOpt = Annotated[Optional[list[str]], typer.Option("-D", "--define", help="Define a macro NAME[=VALUE].")]
ClangArgOpt = Annotated[Optional[list[str]], typer.Option("--clang-arg", help="Pass an argument to clang verbatim.")]
O1 = Annotated[bool, typer.Option("-O1", help="As-compiled mode at -O1.")]
O2 = Annotated[bool, typer.Option("-O2", help="As-compiled mode at -O2.")]
O3 = Annotated[bool, typer.Option("-O3", help="As-compiled mode at -O3.")]


def opt_level(o1: bool = False, o2: bool = False, o3: bool = False) -> int | None:
    return 3 if o3 else 2 if o2 else 1 if o1 else None


def compile_options(include: list[str] | None, define: list[str] | None, clang_arg: list[str] | None,
                    o1: bool = False, o2: bool = False, o3: bool = False) -> CompileOptions:
    return CompileOptions(tuple(include or ()), tuple(define or ()), tuple(clang_arg or ()),
                          opt_level(o1, o2, o3) or 0)


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def show_compile_error(exc: CompileError) -> None:
    err_console.print(f"[bold red]error:[/] {escape(str(exc.path))}: does not compile", highlight=False)
    err_console.print(exc.diagnostics, highlight=False, markup=False)


def load_module(file: Path, options: CompileOptions):
    """Compile and decode a file, or print clang's diagnostics and exit 2."""
    from simu.api import load_file

    try:
        return load_file(file, options)
    except CompileError as exc:
        show_compile_error(exc)
        raise typer.Exit(2) from None


def load_kernel(file: Path, kernel: str | None, options: CompileOptions):
    module = load_module(file, options)
    try:
        return module, module.kernel(kernel)
    except KeyError as exc:
        fail(str(exc.args[0]))


def check_output_path(output: Path | None) -> None:
    """Refuse an -o whose folder does not exist before any work is done (no result is lost)."""
    if output is not None and not output.parent.is_dir():
        fail(f"cannot write {output}: no such folder {output.parent}")


def validate_result(result, fallback_options: CompileOptions | None = None) -> None:
    """Replay every finding of a scan or check result on a device; each finding is replaced by one
    carrying its verdict (detail['validation'], and in its message)."""
    from dataclasses import replace

    from simu.errors import SimuError
    from simu.validate import validated_finding

    for fr in result.files:
        options = fr.compile_options or fallback_options or CompileOptions()
        for k in fr.kernels:
            judged = []
            for f in k.findings:
                if f.launch is None or f.kind == "redundant-barrier":
                    judged.append(f)
                    continue
                try:
                    v = validated_finding(f, fr.path, options=options)
                    verdict = v.detail["validation"]["verdict"]
                except SimuError as exc:
                    v, verdict = f.with_detail(validation={"verdict": "not-run", "details": str(exc)}), "not-run"
                judged.append(replace(v, message=f"{f.message} [validation: {verdict}]"))
            k.findings = judged
