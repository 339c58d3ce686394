"""`simu compile`: a source file to LLVM IR with line tables."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from simu.cli.common import (
    O1,
    O2,
    O3,
    ClangArgOpt,
    CudaPathOpt,
    DefineOpt,
    IncludeOpt,
    check_output_path,
    compile_options,
    console,
    fail,
    show_compile_error,
)
from simu.errors import CompileError
from simu.frontend import compile_file


def compile_cmd(file: Path, output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE")] = None,
                include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
                cuda_path: CudaPathOpt = None, o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Compile a .cu/.cl/.ll file to LLVM IR (device side, with line tables)."""
    check_output_path(output)
    try:
        module = compile_file(file, compile_options(include, define, clang_arg, o1, o2, o3, cuda_path))
    except CompileError as exc:
        show_compile_error(exc)
        raise typer.Exit(2) from None
    if output:
        try:
            output.write_text(module.ir)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
        console.print(f"wrote {output} ({module.options.mode})")
    else:
        sys.stdout.write(module.ir)


