"""What every command shares: consoles, compile options, one-line failures, loading a file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Callable, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from simu.errors import CompileError
from simu.frontend import CompileOptions

# soft_wrap: a diagnostic stays on one line when piped (grep, editors' quickfix, CI problem matchers)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def reset_consoles() -> None:
    """Build both consoles again for the process's present streams and environment (a resident checker's worker
    has taken on its client's); in place, since every command module holds them by reference."""
    console.__init__(soft_wrap=True)
    err_console.__init__(stderr=True, soft_wrap=True)

IncludeOpt = Annotated[Optional[list[str]], typer.Option("-I", "--include", metavar="DIR",
                                                         help="Add an include directory.")]
DefineOpt = Annotated[Optional[list[str]], typer.Option("-D", "--define", metavar="NAME[=VALUE]",
                                                        help="Define a macro NAME[=VALUE].")]
ClangArgOpt = Annotated[Optional[list[str]], typer.Option("--clang-arg", metavar="ARG",
                                                          help="Pass an argument to clang verbatim.")]
CudaPathOpt = Annotated[Optional[Path], typer.Option(
    "--cuda-path", metavar="DIR",
    help="Compile against a CUDA toolkit's own headers (DIR/include) behind simu's prelude, not simu's shim "
         "(default: the configuration's cuda-path, else $CUDA_PATH or nvcc's toolkit when they exist).")]
O1 = Annotated[bool, typer.Option("-O1", metavar="", help="As-compiled mode at -O1.")]
O2 = Annotated[bool, typer.Option("-O2", metavar="", help="As-compiled mode at -O2.")]
O3 = Annotated[bool, typer.Option("-O3", metavar="", help="As-compiled mode at -O3.")]


def opt_level(o1: bool = False, o2: bool = False, o3: bool = False) -> int | None:
    return 3 if o3 else 2 if o2 else 1 if o1 else None


def compile_options(include: list[str] | None, define: list[str] | None, clang_arg: list[str] | None,
                    o1: bool = False, o2: bool = False, o3: bool = False,
                    cuda_path: Path | None = None) -> CompileOptions:
    return CompileOptions(tuple(include or ()), tuple(define or ()), tuple(clang_arg or ()),
                          opt_level(o1, o2, o3) or 0, cuda_path=resolve_cuda_path(cuda_path),
                          cuda_path_detected=cuda_path is None)


def resolve_cuda_path(cuda_path: Path | None) -> str | None:
    """--cuda-path checked (one error line, exit 2), else a toolkit found through CUDA_PATH or nvcc."""
    from simu.frontend.cuda_headers import check_cuda_path, detect_cuda_path

    if cuda_path is None:
        return detect_cuda_path()
    problem = check_cuda_path(str(cuda_path))
    if problem:
        fail(problem)
    return str(cuda_path.resolve())


def in_repository(path: Path) -> bool:
    """Whether ``path`` is inside a git repository: `simu check` and `simu kernels` keep the host index's cache in
    its ``.simu-cache`` there (outside one, nothing is written beside the file: `simu check` keeps its compiled IR in
    the user's cache folder, :func:`simu.frontend.toolchain.user_cache_dir`)."""
    from simu.frontend.discover import enclosing_repository

    return Path(path).exists() and enclosing_repository(Path(path)) is not None


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


MAX_ERROR_LINES = 5  # diagnostics shown of a file that does not compile (--debug: all of them)
MAX_LINE_CHARS = 300


def show_compile_error(exc: CompileError, debug: bool = False) -> None:
    """clang's diagnostics: all of them with ``debug``, else the first few error lines and how many more
    (a binary file given as source makes megabytes of them)."""
    err_console.print(f"[bold red]error:[/] {escape(str(exc.path))}: does not compile", highlight=False)
    text = exc.diagnostics or ""
    if debug:
        err_console.print(text, highlight=False, markup=False)
        return
    lines = text.splitlines()
    errors = [ln for ln in lines if "error:" in ln] or lines
    for ln in errors[:MAX_ERROR_LINES]:
        err_console.print(ln if len(ln) <= MAX_LINE_CHARS else ln[:MAX_LINE_CHARS] + " ...",
                          highlight=False, markup=False)
    if len(errors) > MAX_ERROR_LINES:
        err_console.print(f"... {len(errors) - MAX_ERROR_LINES} more error line{plural(len(errors) - MAX_ERROR_LINES)}"
                          " (--debug shows clang's full output)", highlight=False, markup=False)


def plural(n: int, many: str = "s", one: str = "") -> str:
    return one if n == 1 else many


def load_module(file: Path, options: CompileOptions, debug: bool = False,
                notes: Callable[[CompileError], list[str]] | None = None, cache_dir: Path | None = None):
    """Compile (through the compiled-file cache in ``cache_dir``, when given: then decoded modules are kept too, in
    the user's cache) and decode a file, or print clang's diagnostics (and ``notes(exc)``) and exit 2."""
    from simu.frontend.compilecache import compile_cached
    from simu.frontend.toolchain import user_cache_dir
    from simu.ir.snapshot import decoded_module, private_store
    from simu.scan.cache import code_fingerprint, open_compile_cache

    try:
        compiled = compile_cached(file, options, open_compile_cache(cache_dir))
        for note in compiled.notes:
            err_console.print(f"note: {file}: {note}", highlight=False, soft_wrap=True)
        store = private_store(user_cache_dir() / "decoded", code_fingerprint()) if cache_dir is not None else None
        return decoded_module(compiled.ir, str(file), compiled.language, compiled.param_names, store)
    except CompileError as exc:
        show_compile_error(exc, debug)
        for note in notes(exc) if notes is not None else []:
            err_console.print(f"note: {note}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    except UnicodeDecodeError:
        fail(f"{file}: not a text file (a .cu, .cl or .ll source is expected)")


def load_kernel(file: Path, kernel: str | None, options: CompileOptions):
    module = load_module(file, options)
    if not module.kernels:
        fail(f"no kernels in {file}")
    try:
        return module, module.kernel(kernel)
    except KeyError as exc:
        fail(str(exc.args[0]))


def check_launch_options(grid: str | None, block: str | None, warp_size: int | None, shared: int) -> None:
    """Dimensions, warp size and shared memory, checked before anything is compiled or allocated."""
    from simu.errors import LaunchError
    from simu.launch.limits import WARP_SIZES, check_launch_shape
    from simu.launch.spec import parse_dims

    if warp_size is not None and warp_size not in WARP_SIZES:
        fail(f"bad --warp-size {warp_size}: allowed {', '.join(map(str, WARP_SIZES))}")
    if shared < 0:
        fail(f"bad --shared {shared}: expected a number of bytes, 0 or more")
    try:
        gdim = parse_dims(grid, "--grid") if grid is not None else None
        bdim = parse_dims(block, "--block") if block is not None else None
        check_launch_shape(gdim, bdim)
    except LaunchError as exc:
        given = " ".join(f"{o} {v}" for o, v in (("--grid", grid), ("--block", block)) if v is not None)
        fail(str(exc) if str(exc).startswith("bad ") else f"{given}: {exc}")


def check_output_path(output: Path | None, option: str = "-o") -> None:
    """Refuse an -o whose folder does not exist, or that names a folder, before any work is done (no result
    is lost)."""
    if output is None:
        return
    if output.is_dir():
        fail(f"cannot write {option} {output}: it is a folder (give a file name)")
    if not output.parent.is_dir():
        fail(f"cannot write {option} {output}: no such folder {output.parent}")


def write_report_or_fail(result, fmt: str, output: Path | None, debug: bool = False) -> None:
    """write_report, with a file that cannot be written (permissions, a full disk) as one error line."""
    from simu.report.formats import write_report

    try:
        write_report(result, fmt, console, output, debug)
    except OSError as exc:
        if output is None:
            raise
        fail(f"cannot write {output}: {exc.strerror or exc}")


def validate_result(result, fallback_options: CompileOptions | None = None) -> None:
    """Replay every finding of a scan or check result on a device; each finding is replaced by one
    carrying its verdict (detail['validation'], and in its message)."""
    from dataclasses import replace

    from simu.errors import SimuError
    from simu.validate import validated_finding

    for fr in result.files:
        for k in fr.kernels:
            options = k.compile_options or fr.compile_options or fallback_options or CompileOptions()
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
