"""`simu scan`: every kernel of a project, in parallel, cached, never stopping on one bad kernel."""

from __future__ import annotations

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
    err_console,
    fail,
    opt_level,
    validate_result,
    write_report_or_fail,
)

ChecksOpt = Annotated[Optional[str], typer.Option(
    metavar="CHECKS", help="Comma-separated checks: races, barriers, memory, perf \\[default: races,barriers,memory].")]
WarpModelOpt = Annotated[Optional[str], typer.Option(
    metavar="MODEL", help="lockstep (pre-Volta) or independent (Volta+) \\[default: lockstep].")]
FailOnOpt = Annotated[Optional[str], typer.Option(
    metavar="SEVERITY", help="Exit 1 on findings at or above: error, warning, performance, info or never "
                             "\\[default: error].")]
FormatOpt = Annotated[str, typer.Option("--format", metavar="FORMAT", help="text, json or sarif.")]
OutputOpt = Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE",
                                                   help="Write the report to a file.")]
ConfigOpt = Annotated[Optional[Path], typer.Option("--config", metavar="FILE",
                                                   help="Configuration file \\[default: searched upward].")]
ValidateOpt = Annotated[bool, typer.Option("--validate", metavar="",
                                           help="Replay each finding on an OpenCL/CUDA device and add its verdict.")]
MaxStaticSharedOpt = Annotated[Optional[str], typer.Option(
    "--max-static-shared", metavar="BYTES",
    help="Static shared memory a block may use, e.g. 49152 or 100KiB \\[default: 48KiB].")]
MaxDynamicSharedOpt = Annotated[Optional[str], typer.Option(
    "--max-dynamic-shared", metavar="BYTES",
    help="Dynamic shared memory a block may use \\[default: 227KiB].")]
CompileCommandsOpt = Annotated[Optional[Path], typer.Option(
    "--compile-commands", metavar="FILE",
    help="The project's compile_commands.json \\[default: found at the root or in build*/].")]
DebugOpt = Annotated[bool, typer.Option("--debug", metavar="", help="Show tracebacks and full compiler output.")]


def split_checks(checks: str | None) -> list[str] | None:
    if checks is None:
        return None
    names = [c.strip() for c in checks.split(",") if c.strip()]
    if not names:  # an empty list would run no check at all and pass every kernel
        from simu.codes import CHECK_NAMES

        fail(f"bad --checks '{checks}': give one or more of {', '.join(CHECK_NAMES)}")
    return names


def size_option(name: str, value: str | None) -> int | None:
    """A byte-count option (``49152``, ``100KiB``) or a one-line usage error."""
    if value is None:
        return None
    from simu.config import parse_size

    try:
        return parse_size(int(value) if value.strip().isdigit() else value)
    except ValueError as exc:
        fail(f"{name}: {exc}")


def scan_cmd(paths: Annotated[Optional[list[Path]], typer.Argument(
                 metavar="PATH...", help="Files or folders \\[default: .].")] = None,
             include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
             cuda_path: CudaPathOpt = None, o1: O1 = False, o2: O2 = False, o3: O3 = False,
             exclude: Annotated[Optional[list[str]], typer.Option(
                 "--exclude", metavar="GLOB", help="Skip paths matching a .gitignore-style glob (repeatable).")] = None,
             budget: Annotated[Optional[float], typer.Option(
                 metavar="SECONDS", help="Seconds of search per kernel \\[default: 5].")] = None,
             jobs: Annotated[Optional[int], typer.Option(
                 "-j", "--jobs", metavar="N", help="Worker processes \\[default: cores].")] = None,
             checks: ChecksOpt = None, warp_model: WarpModelOpt = None, fail_on: FailOnOpt = None,
             fmt: FormatOpt = "text", output: OutputOpt = None,
             cache_dir: Annotated[Optional[Path], typer.Option(
                 metavar="DIR", help="Result cache \\[default: ROOT/.simu-cache].")] = None,
             no_cache: Annotated[bool, typer.Option(
                 "--no-cache", metavar="", help="Analyse everything again; store nothing.")] = False,
             changed: Annotated[bool, typer.Option(
                 "--changed", metavar="", help="Only kernels staged in git (or including a staged header).")] = False,
             max_static_shared: MaxStaticSharedOpt = None, max_dynamic_shared: MaxDynamicSharedOpt = None,
             config: ConfigOpt = None, compile_commands: CompileCommandsOpt = None, validate: ValidateOpt = False,
             debug: DebugOpt = False) -> None:
    """Analyse every kernel under the paths: parallel, cached, never stopping on one bad kernel.

    Exit codes: 0 no finding at or above --fail-on, 1 such findings, 2 usage error or nothing could be
    analysed, 130 interrupted."""
    from simu.scan.pool import start_early

    start_early()  # the workers' imports overlap the command's own and the reading of the project
    from simu.config import ConfigError
    from simu.report.formats import FORMATS
    from simu.report.scanterm import ProgressEvents, closing_line
    from simu.scan import ScanError, ScanEvents, ScanOverrides, resolve_options, scan

    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    check_output_path(output)
    overrides = ScanOverrides(
        include=list(include or ()), define=list(define or ()), clang_args=list(clang_arg or ()),
        exclude=list(exclude or ()), opt_level=opt_level(o1, o2, o3), warp_model=warp_model,
        checks=split_checks(checks), budget=budget, jobs=jobs, fail_on=fail_on,
        cache_dir=str(cache_dir) if cache_dir else None, no_cache=no_cache, changed=changed,
        config=str(config) if config else None,
        max_static_shared=size_option("--max-static-shared", max_static_shared),
        max_dynamic_shared=size_option("--max-dynamic-shared", max_dynamic_shared),
        compile_commands=str(compile_commands) if compile_commands else None,
        cuda_path=str(cuda_path) if cuda_path else None)
    try:
        options, cfg = resolve_options(list(paths or [Path(".")]), overrides)
        if err_console.is_terminal and not debug:
            with ProgressEvents(err_console) as events:
                result = scan(options, cfg, events)
        else:
            result = scan(options, cfg, ScanEvents())
    except (ConfigError, ScanError) as exc:
        fail(str(exc))
    if not result.files and not result.note:
        fail(f"no kernel sources (.cu, .cl) under {', '.join(str(p) for p in options.paths)}")
    if validate:
        validate_result(result)
    write_report_or_fail(result, fmt, output, debug)
    if output is not None:
        err_console.print(f"wrote {output}", highlight=False)
        err_console.print(closing_line(result), highlight=False)
    raise typer.Exit(result.exit_code())
