"""The `simu` command line (typer + rich). Commands parse options, call the library, render."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
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

    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def show_compile_error(exc: CompileError) -> None:
    err_console.print(f"[bold red]error:[/] {escape(str(exc.path))}: does not compile", highlight=False, soft_wrap=True)
    err_console.print(exc.diagnostics, highlight=False, markup=False, soft_wrap=True)


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
            err_console.print(f"[bold red]error:[/] {escape(fl['file'])}: does not compile: {escape(fl['error'])}",
                              highlight=False, soft_wrap=True)
    if failures and not rows:
        raise typer.Exit(2)
    if failures:
        raise typer.Exit(1)


def _load_module(file: Path, options: CompileOptions):
    """Compile and decode a file, or print clang's diagnostics and exit 2."""
    from simu.api import load_file

    try:
        return load_file(file, options)
    except CompileError as exc:
        show_compile_error(exc)
        raise typer.Exit(2)


def _load_kernel(file: Path, kernel: str | None, options: CompileOptions):
    module = _load_module(file, options)
    try:
        return module, module.kernel(kernel)
    except KeyError as exc:
        fail(str(exc.args[0]))


@app.command("run")
def run_cmd(file: Path,
            kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="Kernel name.")] = None,
            grid: Annotated[str, typer.Option(help="Blocks per grid, e.g. 4 or 4,2,1.")] = "1",
            block: Annotated[str, typer.Option(help="Threads per block, e.g. 64 or 16,16.")] = "32",
            arg: Annotated[Optional[list[str]], typer.Option("--arg", help="Scalar argument name=value.")] = None,
            buffer: Annotated[Optional[list[str]], typer.Option(
                "--buffer", help="Buffer name=dtype:length[:random|zeros|ones|ramp|const=V] or name=local:BYTES.")] = None,
            warp_size: Annotated[int, typer.Option(help="Threads per warp (32, 64 or 1).")] = 32,
            shared: Annotated[int, typer.Option("--shared", help="Dynamic shared memory bytes.")] = 0,
            seed: Annotated[int, typer.Option(help="Seed for random buffer contents.")] = 0,
            save: Annotated[Optional[Path], typer.Option(help="Write initial/final buffers (.npz: NAME.in, NAME.out).")] = None,
            load: Annotated[Optional[Path], typer.Option(help="Initial buffer contents (.npz, arrays named after parameters).")] = None,
            max_seconds: Annotated[float, typer.Option(help="Time limit of the run.")] = 5.0,
            include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
            o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Execute one launch of a kernel on the machine model and print a summary."""
    import numpy as np

    from simu.interp import Limits, run
    from simu.launch.spec import build_launch

    module, k = _load_kernel(file, kernel, compile_options(include, define, clang_arg, o1, o2, o3))
    loaded = None
    if load is not None:
        with np.load(load) as data:
            loaded = {name.removesuffix(".in"): data[name] for name in data.files}
    try:
        launch = build_launch(k, grid, block, arg, buffer, seed, warp_size, shared, loaded)
        result = run(module, k, launch, Limits(max_seconds=max_seconds))
    except SimuError as exc:
        fail(f"{file}: {k.display_name}: {exc}")
    initial = {name: np.asarray(v).copy() for name, v in launch.args.items() if isinstance(v, np.ndarray)}
    table = Table(title=f"{k.display_name} grid={launch.grid} block={launch.block}", show_header=True)
    for col in ("buffer", "dtype", "elements", "changed", "first values"):
        table.add_column(col)
    for name, out in result.buffers.items():
        changed = int(np.count_nonzero(out.view(np.uint8) != initial[name].view(np.uint8)))
        table.add_row(name, str(out.dtype), str(out.size), str(changed), np.array2string(out.ravel()[:6], precision=4))
    console.print(table)
    console.print(f"outcome: [bold]{result.outcome}[/]  steps: {result.steps}  thread-instructions: "
                  f"{result.thread_instructions}  accesses: {len(result.trace)}  time: {result.seconds:.3f} s",
                  highlight=False)
    for d in result.trace.divergences:
        console.print(f"[yellow]barrier divergence[/] in block {d.block}: waiting {d.waiting}, exited {d.exited[:8]}",
                      highlight=False)
    for e in result.memory_errors[:10]:
        console.print(f"[red]{e.kind}[/] {e.action} of {e.size} bytes at offset {e.offset} of {e.alloc} "
                      f"({e.alloc_size} bytes) by lane {e.lane}", highlight=False)
    if save is not None:
        arrays = {f"{n}.in": v for n, v in initial.items()}
        arrays.update({f"{n}.out": v for n, v in result.buffers.items()})
        np.savez(save, **arrays)
        console.print(f"wrote {save}")
    if not result.outcome.completed:
        raise typer.Exit(1)


@app.command("check")
def check_cmd(file: Path,
              kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", help="Only this kernel.")] = None,
              grid: Annotated[Optional[str], typer.Option(help="Blocks per grid, e.g. 4 or 4,2,1.")] = None,
              block: Annotated[Optional[str], typer.Option(help="Threads per block, e.g. 64 or 16,16.")] = None,
              arg: Annotated[Optional[list[str]], typer.Option("--arg", help="Scalar argument name=value.")] = None,
              buffer: Annotated[Optional[list[str]], typer.Option("--buffer", help="Buffer name=dtype:length[:fill].")] = None,
              warp_model: Annotated[str, typer.Option(help="lockstep (pre-Volta) or independent (Volta+).")] = "lockstep",
              warp_size: Annotated[int, typer.Option(help="Threads per warp.")] = 32,
              checks: Annotated[str, typer.Option(help="Comma-separated: races,barriers,memory,perf.")] = "races,barriers,memory",
              shared: Annotated[int, typer.Option("--shared", help="Dynamic shared memory bytes.")] = 0,
              seed: Annotated[int, typer.Option(help="Seed for buffer contents and the search.")] = 0,
              budget: Annotated[str, typer.Option(help="Search budget: evaluations (40) or seconds (2s).")] = "40",
              population: Annotated[int, typer.Option(help="Search population size.")] = 6,
              generations: Annotated[int, typer.Option(help="Search generations.")] = 8,
              fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
              validate: Annotated[bool, typer.Option("--validate", help="Replay each finding on an OpenCL/CUDA device "
                                                                    "and add its verdict.")] = False,
              include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
              o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Run a kernel's launches and report races, barrier problems and memory errors."""
    from simu.check import CheckSettings, check_kernel
    from simu.detect import CHECKS, DetectOptions
    from simu.launch.spec import build_launch
    from simu.report.terminal import render

    options = compile_options(include, define, clang_arg, o1, o2, o3)
    if warp_model not in ("lockstep", "independent"):
        fail(f"--warp-model must be lockstep or independent, not '{warp_model}'")
    selected = tuple(c.strip() for c in checks.split(",") if c.strip())
    unknown = [c for c in selected if c not in CHECKS]
    if unknown:
        fail(f"unknown check(s) {', '.join(unknown)}; available: {', '.join(CHECKS)}")
    module = _load_module(file, options)
    try:
        kernels = [module.kernel(kernel)] if kernel else module.kernels
    except KeyError as exc:
        fail(str(exc.args[0]))
    settings = CheckSettings(selected, DetectOptions(warp_model=warp_model))
    reports = []
    search_budget = _parse_budget(budget, population, generations)
    constraints = _cli_constraints(arg, warp_size, shared)
    for k in kernels:
        if grid or block:
            try:
                launches = [build_launch(k, grid or "1", block or "32", arg, buffer, seed, warp_size, shared)]
            except SimuError as exc:
                fail(f"{file}: {k.display_name}: {exc}")
            reports.append(check_kernel(module, k, launches, settings))
            continue
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        from simu.evolve import search_kernel

        with Progress(SpinnerColumn(), TextColumn("searching launches for [bold]{task.description}[/]"),
                      TimeElapsedColumn(), console=err_console, transient=True,
                      disable=fmt == "json" or not err_console.is_terminal) as progress:
            progress.add_task(k.display_name)
            reports.append(search_kernel(module, k, settings, constraints, search_budget, seed=seed))
    findings = [f for r in reports for f in r.findings]
    if validate:
        _validate_findings(findings, file, options)
    if fmt == "json":
        payload = {"version": __version__, "file": str(file),
                   "kernels": [{"kernel": r.kernel, "status": r.status, "reason": r.reason, "launches": r.launches,
                                "findings": [f.to_dict() for f in r.findings]} for r in reports]}
        sys.stdout.write(json.dumps(payload, indent=2, default=str) + "\n")
    else:
        for r in reports:
            if r.status != "analysed":
                err_console.print(f"[yellow]{r.kernel}: {r.status}[/]: {r.reason}", highlight=False)
        render(console, findings)
    if any(f.severity == "error" for f in findings):
        raise typer.Exit(1)


def _validate_findings(findings, file: Path, options) -> None:
    """Add a device verdict to each finding (detail['validation'] and the message)."""
    from simu.validate import validate_finding

    for f in findings:
        if f.launch is None or f.kind in ("redundant-barrier",):
            continue
        try:
            v = validate_finding(f, file, options=options)
            verdict = f.detail.get("validation", {}).get("verdict") or getattr(v, "verdict", "")
        except SimuError as exc:
            f.detail["validation"] = {"verdict": "not-run", "details": str(exc)}
            verdict = "not-run"
        if verdict:
            f.message += f" [validation: {verdict}]"


def _parse_budget(text: str, population: int, generations: int):
    from simu.evolve import Budget
    from simu.evolve.search import CHECK_GUARD_SECONDS

    try:
        if text.endswith("s"):
            return Budget(evaluations=1_000_000, seconds=float(text[:-1]), population=population,
                          generations=generations)
        # an evaluation budget still stops after CHECK_GUARD_SECONDS, so that one heavy kernel cannot stall a check
        return Budget(evaluations=int(text), seconds=CHECK_GUARD_SECONDS, population=population, generations=generations)
    except ValueError:
        fail(f"bad --budget '{text}': give evaluations (40) or seconds (2s)")


def _cli_constraints(args: list[str] | None, warp_size: int, shared: int):
    """--arg n=64 fixes an argument; --arg n=1:4096 bounds it (the search varies it inside)."""
    from simu.config import KernelConstraints

    fixed, ranges = {}, {}
    for a in args or []:
        name, _, value = a.partition("=")
        if ":" in value:
            lo, hi = value.split(":", 1)
            ranges[name] = (float(lo), float(hi))
        elif value:
            fixed[name] = int(value, 0) if value.lstrip("-").isdigit() or value.startswith("0x") else float(value)
    return KernelConstraints(args=fixed, arg_ranges=ranges, warp_size=warp_size, dynamic_shared=shared or None)


@app.command("scan")
def scan_cmd(paths: Annotated[Optional[list[Path]], typer.Argument(help="Files or folders (default: .).")] = None,
             include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
             o1: O1 = False, o2: O2 = False, o3: O3 = False,
             exclude: Annotated[Optional[list[str]], typer.Option(
                 "--exclude", help="Skip paths matching a .gitignore-style glob (repeatable).")] = None,
             budget: Annotated[Optional[float], typer.Option(help="Seconds of search per kernel [default: 5].")] = None,
             jobs: Annotated[Optional[int], typer.Option("-j", "--jobs", help="Worker processes [default: cores].")] = None,
             checks: Annotated[Optional[str], typer.Option(help="Comma-separated: races,barriers,memory,perf.")] = None,
             warp_model: Annotated[Optional[str], typer.Option(help="lockstep (pre-Volta) or independent (Volta+).")] = None,
             fail_on: Annotated[Optional[str], typer.Option(
                 help="Exit 1 on findings at or above: error, warning, performance, info or never [default: error].")] = None,
             fmt: Annotated[str, typer.Option("--format", help="text, json or sarif.")] = "text",
             output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to a file.")] = None,
             cache_dir: Annotated[Optional[Path], typer.Option(help="Result cache [default: ROOT/.simu-cache].")] = None,
             no_cache: Annotated[bool, typer.Option("--no-cache", help="Analyse everything again; store nothing.")] = False,
             changed: Annotated[bool, typer.Option("--changed", help="Only kernels staged in git (or including a staged header).")] = False,
             config: Annotated[Optional[Path], typer.Option("--config", help="Configuration file (default: searched upward).")] = None,
             validate: Annotated[bool, typer.Option("--validate", help="Replay each finding on an OpenCL/CUDA device "
                                                                   "and add its verdict.")] = False,
             debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks and full compiler output.")] = False) -> None:
    """Analyse every kernel under the paths: parallel, cached, never stopping on one bad kernel."""
    from simu.config import ConfigError
    from simu.report.scanterm import ProgressEvents, closing_line, render_scan
    from simu.scan import ScanError, ScanEvents, ScanOverrides, resolve_options, scan

    if fmt not in ("text", "json", "sarif"):
        fail(f"--format must be text, json or sarif, not '{fmt}'")
    level = 3 if o3 else 2 if o2 else 1 if o1 else None
    overrides = ScanOverrides(
        include=list(include or ()), define=list(define or ()), clang_args=list(clang_arg or ()),
        exclude=list(exclude or ()), opt_level=level, warp_model=warp_model,
        checks=[c.strip() for c in checks.split(",") if c.strip()] if checks is not None else None,
        budget=budget, jobs=jobs, fail_on=fail_on, cache_dir=str(cache_dir) if cache_dir else None,
        no_cache=no_cache, changed=changed, config=str(config) if config else None)
    try:
        options, cfg = resolve_options(list(paths or [Path(".")]), overrides)
        interactive = err_console.is_terminal and not debug
        if interactive:
            with ProgressEvents(err_console) as events:
                result = scan(options, cfg, events)
        else:
            result = scan(options, cfg, ScanEvents())
    except (ConfigError, ScanError) as exc:
        fail(str(exc))
    if not result.files and not result.note:
        fail(f"no kernel sources (.cu, .cl) under {', '.join(str(p) for p in options.paths)}")
    if validate:
        for fr in result.files:
            findings = [f for k in fr.kernels for f in k.findings]
            if findings:
                _validate_findings(findings, fr.path, CompileOptions())
    if fmt == "json":
        from simu.report.jsonreport import render_json

        text = render_json(result, debug)
    elif fmt == "sarif":
        from simu.report.sarif import render_sarif

        text = render_sarif(result)
    else:
        text = None
    if text is not None:
        if output:
            output.write_text(text)
            err_console.print(f"wrote {output}", highlight=False)
            err_console.print(closing_line(result), highlight=False)
        else:
            sys.stdout.write(text)
    elif output:
        with output.open("w") as fh:
            render_scan(Console(file=fh, width=120, no_color=True, highlight=False), result, debug)
        err_console.print(f"wrote {output}", highlight=False)
        err_console.print(closing_line(result), highlight=False)
    else:
        render_scan(console, result, debug)
    raise typer.Exit(result.exit_code())


hook_app = typer.Typer(help="Install or remove the git pre-commit hook that runs `simu scan --changed`.",
                       no_args_is_help=True)
app.add_typer(hook_app, name="hook")


@hook_app.command("install")
def hook_install(force: Annotated[bool, typer.Option("--force", help="Replace a hook that is not simu's.")] = False) -> None:
    """Write .git/hooks/pre-commit running `simu scan --changed`."""
    from simu.cli.hook import HookError, install

    try:
        console.print(install(Path.cwd(), force), highlight=False)
    except HookError as exc:
        fail(str(exc))


@hook_app.command("uninstall")
def hook_uninstall() -> None:
    """Remove simu's pre-commit hook (never a foreign one)."""
    from simu.cli.hook import HookError, uninstall

    try:
        console.print(uninstall(Path.cwd()), highlight=False)
    except HookError as exc:
        fail(str(exc))


@app.command("validate")
def validate_cmd(target: Path,
                 device: Annotated[Optional[list[str]], typer.Option(
                     "--device", help="OpenCL/CUDA device by name substring (repeatable; 'all' for every one).")] = None,
                 runs: Annotated[int, typer.Option(help="Runs per schedule on each device.")] = 3,
                 schedules: Annotated[int, typer.Option(help="Permuted work-group schedules besides the original.")] = 4,
                 fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text") -> None:
    """Replay a kernel file's launches or a findings.json on real devices and give each finding a verdict."""
    from simu.validate.commands import validate_command

    raise typer.Exit(validate_command(target, device, runs, schedules, fmt))


@app.command("replay")
def replay_cmd(findings: Path,
               emit: Annotated[str, typer.Option(help="pyopencl (write a standalone script) or run (replay now).")] = "pyopencl",
               output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Where to write the script.")] = None) -> None:
    """Reproduce a finding's launch: a standalone pyopencl script for a bug report, or a replay now."""
    from simu.validate.commands import replay_command

    raise typer.Exit(replay_command(findings, "script" if emit == "pyopencl" else emit, output))


@app.command("bench")
def bench_cmd(fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
              repeat: Annotated[int, typer.Option(help="Timed runs per kernel (fastest kept).")] = 5,
              scale: Annotated[int, typer.Option(help="Multiply launch sizes (1 = 4096 threads).")] = 1,
              suite: Annotated[str, typer.Option(help="machine (interpreter speed), detect (10M-access trace) or "
                                                     "search (random vs Simulee vs simu search on the corpus).")] = "machine",
              evaluations: Annotated[int, typer.Option(help="Evaluations per kernel for --suite search.")] = 40,
              jobs: Annotated[int, typer.Option("-j", "--jobs", help="Processes for --suite search.")] = 2,
              accesses: Annotated[int, typer.Option(help="Trace size for --suite detect.")] = 10_000_000,
              corpus: Annotated[Optional[list[Path]], typer.Option(
                  help="Corpus folders or files for --suite search (default: corpus/).")] = None,
              seed: Annotated[int, typer.Option(help="Search seed for --suite search.")] = 0) -> None:
    """Measure the machine's speed (thread-instructions/s) or the detectors' on a synthetic trace."""
    from simu.bench import median_rate, run_benchmarks

    if suite == "search":
        from pathlib import Path as _P

        from simu.bench.search import compare_modes

        roots = corpus or [_P("corpus")]
        files = sorted({p for r in roots for p in ([r] if r.is_file() else r.rglob("*")) if p.suffix in (".cu", ".cl")})
        if not files:
            fail("no corpus files found (run from the repository root, or give --corpus)")
        summary, _ = compare_modes(files, evaluations=evaluations, jobs=jobs, seed=seed)
        if fmt == "json":
            sys.stdout.write(json.dumps({"version": __version__, "search": summary}, indent=2) + "\n")
            return
        table = Table(title=f"search modes over {len(files)} corpus files (launch lines ignored, equal evaluation budgets)")
        cols = ["bugs_found", "bugs_expected", "files_fully_found", "files_with_bugs", "false_positives",
                "median_evaluations_to_first_finding", "mean_evaluations_to_first_finding",
                "p90_evaluations_to_first_finding", "median_seconds_to_first_finding", "median_seconds_per_file"]
        table.add_column("mode")
        for c in cols:
            table.add_column(c.replace("_", " "), justify="right")
        for mode, row in summary.items():
            table.add_row(mode, *[f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c]) for c in cols])
        console.print(table)
        return
    if suite == "detect":
        from simu.bench.detect import run_detect_bench

        b = run_detect_bench(accesses)
        row = {"accesses": b.accesses, "seconds": b.seconds, "trace_bytes": b.trace_bytes,
               "detector_peak_bytes": b.peak_bytes, "findings": b.findings}
        if fmt == "json":
            sys.stdout.write(json.dumps({"version": __version__, "detect": row}, indent=2) + "\n")
        else:
            console.print(f"detection over {b.accesses:,} accesses: {b.seconds:.2f} s, trace {b.trace_bytes / 2**20:.0f} MiB, "
                          f"detector peak memory {b.peak_bytes / 2**20:.0f} MiB, {b.findings} findings")
        return

    results = run_benchmarks(repeat, scale)
    med = median_rate(results)
    if fmt == "json":
        rows = [{"kernel": r.kernel, "threads": r.threads, "steps": r.steps,
                 "thread_instructions": r.thread_instructions, "accesses": r.accesses,
                 "seconds": r.seconds, "thread_instructions_per_second": r.rate} for r in results]
        sys.stdout.write(json.dumps({"version": __version__, "results": rows,
                                     "median_thread_instructions_per_second": med}, indent=2) + "\n")
        return
    table = Table(title="simu bench (thread-instructions per second)")
    for col in ("kernel", "threads", "steps", "thread-instr", "accesses", "seconds", "Minstr/s"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r.kernel, str(r.threads), str(r.steps), str(r.thread_instructions), str(r.accesses),
                      f"{r.seconds:.4f}", f"{r.rate / 1e6:.1f}")
    console.print(table)
    console.print(f"median: {med / 1e6:.1f} million thread-instructions/s")


if __name__ == "__main__":  # pragma: no cover
    app()
