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
    CudaPathOpt,
    DefineOpt,
    IncludeOpt,
    check_launch_options,
    check_output_path,
    err_console,
    fail,
    in_repository,
    load_module,
    opt_level,
    validate_result,
    write_report_or_fail,
)
from simu.cli.scan import (
    ChecksOpt,
    CompileCommandsOpt,
    ConfigOpt,
    DebugOpt,
    FailOnOpt,
    FormatOpt,
    MaxDynamicSharedOpt,
    MaxStaticSharedOpt,
    OutputOpt,
    ValidateOpt,
    size_option,
    split_checks,
)


def check_cmd(file: Annotated[Path, typer.Argument(metavar="FILE", help="A .cu, .cl or .ll file.")],
              kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", metavar="NAME",
                                                            help="Only this kernel.")] = None,
              grid: Annotated[Optional[str], typer.Option(
                  metavar="G", help="Blocks per grid, e.g. 4 or 4,2,1 (the rest of the launch is searched).")] = None,
              block: Annotated[Optional[str], typer.Option(
                  metavar="B", help="Threads per block, e.g. 64 or 16,16 (at most 1024).")] = None,
              arg: Annotated[Optional[list[str]], typer.Option(
                  "--arg", metavar="NAME=VALUE",
                  help="Scalar argument name=value (vectors: v=1,2,3), or name=lo:hi to bound it in the search.")
              ] = None,
              buffer: Annotated[Optional[list[str]], typer.Option(
                  "--buffer", metavar="NAME=DTYPE:LEN[:FILL]",
                  help="Buffer name=dtype:length[:fill]; an image or texture name=dtype:HxW\\[xC][:fill][:modes] "
                       "(modes: linear,norm,wrap|mirror|border); name=same:OTHER shares OTHER's buffer.")] = None,
              warp_model: Annotated[Optional[str], typer.Option(
                  metavar="MODEL", help="lockstep (pre-Volta) or independent (Volta+) \\[default: lockstep].")] = None,
              warp_size: Annotated[Optional[int], typer.Option(
                  metavar="N", help="Threads per warp: 1, 2, 4, 8, 16, 32 or 64 \\[default: 32].")] = None,
              checks: ChecksOpt = None,
              shared: Annotated[int, typer.Option("--shared", metavar="BYTES", help="Dynamic shared memory bytes.")
                                ] = 0,
              seed: Annotated[int, typer.Option(metavar="N", help="Seed for buffer contents and the search.")] = 0,
              budget: Annotated[str, typer.Option(
                  metavar="N|Ts", help="Search budget: evaluations (40) or seconds (2s).")] = "40",
              population: Annotated[int, typer.Option(metavar="N", help="Search population size.")] = 6,
              generations: Annotated[int, typer.Option(metavar="N", help="Search generations.")] = 8,
              fail_on: FailOnOpt = None, fmt: FormatOpt = "text", output: OutputOpt = None, config: ConfigOpt = None,
              max_static_shared: MaxStaticSharedOpt = None, max_dynamic_shared: MaxDynamicSharedOpt = None,
              validate: ValidateOpt = False, debug: DebugOpt = False, compile_commands: CompileCommandsOpt = None,
              include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
              cuda_path: CudaPathOpt = None, o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Run a file's kernels (a given launch, or searched ones) and report races, barrier problems and
    memory errors, with the configuration's severities and suppressions, as `simu scan` does.

    A launch given in part (--grid/--block without every scalar --arg, say) fixes those values and the
    search fills in the rest; only a complete one runs as given.

    Exit codes: 0 no finding at or above --fail-on, 1 such findings, 2 usage error or nothing could be
    analysed."""
    from simu.check import CheckOptions, CheckRequest, check_file
    from simu.config import ConfigError
    from simu.detect import DetectOptions
    from simu.frontend.toolchain import user_cache_dir
    from simu.pipeline import CheckSettings
    from simu.report.formats import FORMATS
    from simu.scan import ScanError, ScanOverrides, resolve_options
    from simu.scan.flags import build_file_flags

    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    if file.is_dir():
        fail(f"{file} is a folder: simu check takes one file (simu scan {file} analyses a folder)")
    if not file.is_file():
        fail(f"no such file: {file}")
    check_output_path(output)
    request_budget = _parse_budget(budget, population, generations)
    check_launch_options(grid, block, warp_size, shared)
    overrides = ScanOverrides(include=list(include or ()), define=list(define or ()),
                              clang_args=list(clang_arg or ()), opt_level=opt_level(o1, o2, o3),
                              warp_model=warp_model, checks=split_checks(checks), fail_on=fail_on,
                              no_cache=not in_repository(file), config=str(config) if config else None,
                              max_static_shared=size_option("--max-static-shared", max_static_shared),
                              max_dynamic_shared=size_option("--max-dynamic-shared", max_dynamic_shared),
                              compile_commands=str(compile_commands) if compile_commands else None,
                              cuda_path=str(cuda_path) if cuda_path else None)
    try:
        options, cfg = resolve_options([file], overrides)
        flags = build_file_flags(options, cfg, [file.resolve()])  # the host files `simu scan FILE` reads
    except (ConfigError, ScanError) as exc:
        fail(str(exc))
    info, index = _discover_includes(file, options)
    compile_opts = flags.compile_options(file, info.folders if info else [])
    for note in flags.notes:
        err_console.print(f"note: {note}", highlight=False)
    module = load_module(file, compile_opts, debug,
                         notes=lambda exc: _compile_notes(exc, file, info, index, options.include),
                         cache_dir=options.cache_dir or user_cache_dir() / "compiled")
    if not module.kernels:
        fail(f"no kernels in {file}")
    if kernel:
        try:
            module.kernel(kernel)
        except KeyError as exc:
            fail(str(exc.args[0]))
    kernels = [module.kernel(kernel)] if kernel else module.kernels
    check_given_values(file, kernels, arg, buffer)
    check_configured(cfg, kernels)
    settings = CheckSettings(tuple(options.checks), DetectOptions(warp_model=options.warp_model,
                                                                  strict_warp=options.strict_warp),
                             options.limits())
    request = CheckRequest(kernel=kernel, seed=seed, budget=request_budget, host_cache=options.cache_dir,
                           host=flags.host, host_root=options.root)
    if grid or block or arg or buffer or warp_size or shared:
        request.launch_args = dict(grid=grid, block=block, args=arg, buffers=buffer, seed=seed,
                                   warp_size=warp_size, dynamic_shared=shared)
    report_options = CheckOptions([file], tuple(options.checks), options.warp_model, request.budget.seconds, 1,
                                  options.fail_on, options.opt_level)
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("analysing [bold]{task.description}[/]"), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=not err_console.is_terminal) as progress:
        task = progress.add_task("")
        result = check_file(file, module, settings, request, report_options, cfg, options.root,
                            on_kernel=lambda name: progress.update(task, description=name))
    result.files[0].compile_options = compile_opts
    if request.launch_args is not None:
        _note_partial(result, kernels, request.launch_args)
    seen = {n for k in module.kernels for n in (k.name, k.display_name, k.display_name.split("<")[0])}
    for name in cfg.kernels:
        if name not in seen:
            result.warnings.append(f"the configuration ({_source(cfg)}) constrains kernel '{name}', which is not in "
                                   f"{file} (kernels: {', '.join(k.display_name for k in module.kernels)})")
    if validate:
        validate_result(result, compile_opts)
    write_report_or_fail(result, fmt, output, debug)
    if output is not None:
        err_console.print(f"wrote {output}", highlight=False)
    raise typer.Exit(result.exit_code())


def _discover_includes(file: Path, options):
    """Include discovery for one file, as `simu scan` does it (folders after the system's, stand-ins for
    generated headers); ``(None, None)`` when disabled."""
    from simu.errors import CompileError
    from simu.frontend import language_of
    from simu.frontend.discover import IgnoreRules
    from simu.frontend.includes import HeaderIndex, resolve_includes

    if not options.auto_include:
        return None, None
    root = options.root if options.root.is_dir() else file.resolve().parent
    rules = IgnoreRules(root, options.exclude)
    rules.add_excludes(options.config_base or root, options.config_exclude)
    index = HeaderIndex(root, rules)
    try:
        language = language_of(file)
    except CompileError:
        return None, None
    return resolve_includes(file, options.include, index, language), index


def _compile_notes(exc, file: Path, info, index, include_dirs: list[Path]) -> list[str]:
    """What to add to clang's diagnostics: a missing header that the build generates; the files that
    include this one (a fragment compiled alone lacks their context)."""
    from simu.frontend.discover import IgnoreRules, enclosing_repository
    from simu.frontend.includes import HeaderIndex, explain_missing, includers_of

    notes = []
    first = explain_missing(exc.first, info, index)
    if first != exc.first:
        notes.append(first)
    if index is not None:
        if enclosing_repository(index.root) is None and index.root.parent != index.root:
            index = HeaderIndex(index.root.parent, IgnoreRules(index.root.parent))  # no project: one folder up
        found = includers_of(file, index, include_dirs)
        if found:
            names = ", ".join(_shown(p) for p in found[:3])
            notes.append(f"{file.name} is included by {names}{' and others' if len(found) > 3 else ''}: it may "
                         f"need that file's context (simu scan analyses its kernels through the includer)")
    return notes


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _note_partial(result, kernels: list, given: dict) -> None:
    """Say which part of a launch given in part the search chose (the launch of each finding names it)."""
    from simu.check import _own
    from simu.launch.spec import is_complete

    launches = {k.name: k.launches for _, k in result.kernels()}
    for k in kernels:
        own = _own(k, given)
        if is_complete(k, own.get("grid"), own.get("block"), own.get("args")):
            continue
        fixed = {a.partition("=")[0].strip() for a in own.get("args") or [] if ":" not in a.partition("=")[2]}
        free = [d for d in ("grid", "block") if own.get(d) is None]
        free += [p.name for p in k.params if not p.is_pointer and p.name not in fixed]
        err_console.print(f"note: {k.display_name}: launch given in part; the search chose {', '.join(free)} "
                          f"({launches.get(k.display_name, 0)} launches)", highlight=False)


def check_given_values(file: Path, kernels: list, args: list[str] | None, buffers: list[str] | None) -> None:
    """Every --arg / --buffer names a parameter of a checked kernel and has a value that parameter takes."""
    from simu.errors import LaunchError
    from simu.launch.limits import check_memory, describe_params
    from simu.launch.spec import parse_arg, parse_buffer_spec

    for option, texts in (("--arg", args), ("--buffer", buffers)):
        for text in texts or []:
            name = text.partition("=")[0].strip()
            owners = [k for k in kernels if any(p.name == name for p in k.params)] or kernels[:1]
            if len(kernels) > 1 and not any(p.name == name for p in owners[0].params):
                params = "; ".join(f"{k.display_name}: {describe_params(k)}" for k in kernels)
                fail(f"{option} '{text}': no kernel of {file} has a parameter '{name}' ({params})")
            for k in owners:
                try:
                    if option == "--arg":
                        parse_arg(text, k, allow_range=True)
                    else:
                        check_memory(parse_buffer_spec(text, k).nbytes, what=f"--buffer '{text}'")
                except LaunchError as exc:
                    fail(str(exc))


def check_configured(cfg, kernels: list) -> None:
    """The configured constraints of the checked kernels name their real parameters."""
    from simu.errors import LaunchError
    from simu.launch.spec import check_constraints

    for k in kernels:
        c = cfg.kernels.get(k.display_name) or cfg.kernels.get(k.name) or cfg.kernels.get(k.display_name.split("<")[0])
        if c is None:
            continue
        try:
            check_constraints(k, c)
        except LaunchError as exc:
            fail(f"{_source(cfg)}: [kernels.{k.display_name}]: {exc}")


def _source(cfg) -> str:
    return str(cfg.source) if getattr(cfg, "source", None) else "configuration"


def _parse_budget(text: str, population: int, generations: int):
    from simu.evolve import Budget
    from simu.evolve.budget import CHECK_GUARD_SECONDS

    if population < 1 or generations < 1:
        fail(f"bad --population {population} / --generations {generations}: expected positive numbers")
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not seconds > 0 or seconds == float("inf"):
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
