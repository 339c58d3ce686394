"""`simu check`: one file's kernels with a given launch or a searched one, reported like a scan."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from simu.cli.common import (
    O1,
    O2,
    O3,
    ClangArgOpt,
    DefineOpt,
    IncludeOpt,
    check_output_path,
    console,
    err_console,
    fail,
    load_module,
    opt_level,
    validate_result,
)
from simu.cli.scan import ChecksOpt, ConfigOpt, DebugOpt, FailOnOpt, FormatOpt, OutputOpt, ValidateOpt, split_checks


def check_cmd(file: Path,
              kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="Only this kernel.")] = None,
              grid: Annotated[Optional[str], typer.Option(help="Blocks per grid, e.g. 4 or 4,2,1.")] = None,
              block: Annotated[Optional[str], typer.Option(help="Threads per block, e.g. 64 or 16,16.")] = None,
              arg: Annotated[Optional[list[str]], typer.Option(
                  "--arg", help="Scalar argument name=value, or name=lo:hi to bound it in the search.")] = None,
              buffer: Annotated[Optional[list[str]], typer.Option(
                  "--buffer", help="Buffer name=dtype:length[:fill].")] = None,
              warp_model: Annotated[Optional[str], typer.Option(
                  help="lockstep (pre-Volta) or independent (Volta+) [default: lockstep].")] = None,
              warp_size: Annotated[int, typer.Option(help="Threads per warp.")] = 32,
              checks: ChecksOpt = None,
              shared: Annotated[int, typer.Option("--shared", help="Dynamic shared memory bytes.")] = 0,
              seed: Annotated[int, typer.Option(help="Seed for buffer contents and the search.")] = 0,
              budget: Annotated[str, typer.Option(help="Search budget: evaluations (40) or seconds (2s).")] = "40",
              population: Annotated[int, typer.Option(help="Search population size.")] = 6,
              generations: Annotated[int, typer.Option(help="Search generations.")] = 8,
              fail_on: FailOnOpt = None, fmt: FormatOpt = "text", output: OutputOpt = None, config: ConfigOpt = None,
              validate: ValidateOpt = False, debug: DebugOpt = False,
              include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
              o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Run a file's kernels (a given launch, or searched ones) and report races, barrier problems and
    memory errors, with the configuration's severities and suppressions, as `simu scan` does.

    Exit codes: 0 no finding at or above --fail-on, 1 such findings, 2 usage error or nothing could be
    analysed."""
    from simu.check import CheckOptions, CheckRequest, check_file
    from simu.config import ConfigError
    from simu.detect import DetectOptions
    from simu.frontend import CompileOptions
    from simu.pipeline import CheckSettings
    from simu.report.formats import FORMATS, write_report
    from simu.scan import ScanError, ScanOverrides, resolve_options

    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    if not file.is_file():
        fail(f"no such file: {file}")
    check_output_path(output)
    overrides = ScanOverrides(include=list(include or ()), define=list(define or ()),
                              clang_args=list(clang_arg or ()), opt_level=opt_level(o1, o2, o3),
                              warp_model=warp_model, checks=split_checks(checks), fail_on=fail_on,
                              no_cache=True, config=str(config) if config else None)
    try:
        options, cfg = resolve_options([file], overrides)
    except (ConfigError, ScanError) as exc:
        fail(str(exc))
    compile_opts = CompileOptions(tuple(str(d) for d in options.include), tuple(options.define),
                                  tuple(options.clang_args), options.opt_level)
    module = load_module(file, compile_opts)
    if kernel:
        try:
            module.kernel(kernel)
        except KeyError as exc:
            fail(str(exc.args[0]))
    settings = CheckSettings(tuple(options.checks), DetectOptions(warp_model=options.warp_model,
                                                                  strict_warp=options.strict_warp))
    request = CheckRequest(kernel=kernel, seed=seed, budget=_parse_budget(budget, population, generations))
    if grid or block:
        request.launch_args = dict(grid=grid or "1", block=block or "32", args=arg, buffers=buffer, seed=seed,
                                   warp_size=warp_size, dynamic_shared=shared)
    elif arg or warp_size != 32 or shared:
        request.constraints = _cli_constraints(arg, warp_size, shared)
    report_options = CheckOptions([file], tuple(options.checks), options.warp_model, request.budget.seconds, 1,
                                  options.fail_on, options.opt_level)
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("analysing [bold]{task.description}[/]"), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not err_console.is_terminal) as progress:
        task = progress.add_task("")
        result = check_file(file, module, settings, request, report_options, cfg, options.root,
                            on_kernel=lambda name: progress.update(task, description=name))
    result.files[0].compile_options = compile_opts
    if validate:
        validate_result(result, compile_opts)
    write_report(result, fmt, console, output, debug)
    if output is not None:
        err_console.print(f"wrote {output}", highlight=False)
    raise typer.Exit(result.exit_code())


def _parse_budget(text: str, population: int, generations: int):
    from simu.evolve import Budget
    from simu.evolve.search import CHECK_GUARD_SECONDS

    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds <= 0:
                raise ValueError
            return Budget(evaluations=1_000_000, seconds=seconds, population=population, generations=generations)
        evaluations = int(text)
        if evaluations <= 0:
            raise ValueError
        # an evaluation budget still stops after CHECK_GUARD_SECONDS, so that one heavy kernel cannot stall a check
        return Budget(evaluations=evaluations, seconds=CHECK_GUARD_SECONDS, population=population,
                      generations=generations)
    except ValueError:
        fail(f"bad --budget '{text}': give a positive number of evaluations (40) or seconds (2s)")


def _cli_constraints(args: list[str] | None, warp_size: int, shared: int):
    """--arg n=64 fixes an argument; --arg n=1:4096 bounds it (the search varies it inside)."""
    from simu.launch.constraints import KernelConstraints

    fixed, ranges = {}, {}
    for a in args or []:
        name, sep, value = a.partition("=")
        if not sep or not value:
            fail(f"bad --arg '{a}': expected name=value or name=lo:hi")
        try:
            if ":" in value:
                lo, hi = value.split(":", 1)
                ranges[name] = (float(lo), float(hi))
            else:
                fixed[name] = int(value, 0) if value.lstrip("-").isdigit() or value.startswith("0x") else float(value)
        except ValueError:
            fail(f"bad --arg '{a}': '{value}' is not a number or a lo:hi range")
    return KernelConstraints(args=fixed, arg_ranges=ranges, warp_size=warp_size, dynamic_shared=shared or None)
