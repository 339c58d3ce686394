"""`simu validate` and `simu replay`: findings on real devices, and reproducers for bug reports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def validate_cmd(target: Path,
                 device: Annotated[Optional[list[str]], typer.Option(
                     "--device", metavar="DEVICE",
                     help="OpenCL/CUDA device by name substring (repeatable; 'all' for every one).")] = None,
                 runs: Annotated[int, typer.Option(metavar="N", help="Runs per schedule on each device.")] = 3,
                 schedules: Annotated[int, typer.Option(
                     metavar="N", help="Permuted work-group schedules besides the original.")] = 4,
                 fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="text or json")] = "text") -> None:
    """Replay a kernel file's launches or a findings.json on real devices and give each finding a verdict."""
    from simu.validate.commands import validate_command

    raise typer.Exit(validate_command(target, device, runs, schedules, fmt))


def replay_cmd(findings: Path,
               emit: Annotated[str, typer.Option(
                   metavar="WHAT", help="pyopencl (write a standalone script) or run (replay now).")] = "pyopencl",
               output: Annotated[Optional[Path], typer.Option(
                   "-o", "--output", metavar="FILE", help="Where to write the script.")] = None) -> None:
    """Reproduce a finding's launch: a standalone pyopencl script for a bug report, or a replay now."""
    from simu.validate.commands import replay_command

    raise typer.Exit(replay_command(findings, "script" if emit == "pyopencl" else emit, output))


