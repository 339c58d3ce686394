"""`simu run`: execute one launch on the machine model and summarise it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

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
    compile_options,
    console,
    fail,
    load_kernel,
)
from simu.errors import SimuError


def run_cmd(file: Annotated[Path, typer.Argument(metavar="FILE", help="A .cu, .cl or .ll file.")],
            kernel: Annotated[Optional[str], typer.Option("--kernel", "-k", metavar="NAME",
                                                          help="Kernel name.")] = None,
            grid: Annotated[str, typer.Option(metavar="G", help="Blocks per grid, e.g. 4 or 4,2,1.")] = "1",
            block: Annotated[str, typer.Option(metavar="B",
                                               help="Threads per block, e.g. 64 or 16,16 (at most 1024).")] = "32",
            arg: Annotated[Optional[list[str]], typer.Option(
                "--arg", metavar="NAME=VALUE", help="Scalar argument name=value (vectors: v=1,2,3).")] = None,
            buffer: Annotated[Optional[list[str]], typer.Option(
                "--buffer", metavar="NAME=DTYPE:LEN[:FILL]",
                help="Buffer name=dtype:length[:random|zeros|ones|ramp|const=V] or name=local:BYTES; an image or "
                     "texture name=dtype:HxW\\[xC][:fill][:modes] (modes: linear,norm,wrap|mirror|border); "
                     "name=same:OTHER shares OTHER's buffer.")] = None,
            warp_size: Annotated[int, typer.Option(metavar="N",
                                                   help="Threads per warp: 1, 2, 4, 8, 16, 32 or 64.")] = 32,
            shared: Annotated[int, typer.Option("--shared", metavar="BYTES",
                                                help="Dynamic shared memory bytes.")] = 0,
            seed: Annotated[int, typer.Option(metavar="N", help="Seed for random buffer contents.")] = 0,
            save: Annotated[Optional[Path], typer.Option(
                metavar="FILE", help="Write initial/final buffers (.npz: NAME.in, NAME.out).")] = None,
            load: Annotated[Optional[Path], typer.Option(
                metavar="FILE", help="Initial buffer contents (.npz, arrays named after parameters).")] = None,
            max_seconds: Annotated[float, typer.Option(metavar="SECONDS", help="Time limit of the run.")] = 5.0,
            include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
            cuda_path: CudaPathOpt = None,
            o1: O1 = False, o2: O2 = False, o3: O3 = False) -> None:
    """Execute one launch of a kernel on the machine model and print a summary."""
    import numpy as np

    from simu.interp import Limits, run
    from simu.launch.spec import build_launch

    check_launch_options(grid, block, warp_size, shared)
    check_output_path(save, "--save")
    if not max_seconds > 0:
        fail(f"bad --max-seconds {max_seconds}: expected a positive number of seconds")
    module, k = load_kernel(file, kernel, compile_options(include, define, clang_arg, o1, o2, o3, cuda_path))
    loaded = None
    if load is not None:
        try:
            with np.load(load) as data:
                loaded = {name.removesuffix(".in"): data[name] for name in data.files}
        except (OSError, ValueError) as exc:
            fail(f"cannot read --load {load}: {exc} (expected a .npz file of arrays named after parameters)")
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
        changed = 0  # elements, not bytes
        if out.size:
            before = np.ascontiguousarray(initial[name]).reshape(-1).view(np.uint8).reshape(out.size, -1)
            after = np.ascontiguousarray(out).reshape(-1).view(np.uint8).reshape(out.size, -1)
            changed = int(np.count_nonzero((after != before).any(axis=1)))
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
        try:
            np.savez(save, **arrays)
        except OSError as exc:
            fail(f"cannot write --save {save}: {exc.strerror or exc}")
        console.print(f"wrote {save}")
    if not result.outcome.completed:
        raise typer.Exit(1)


