"""`simu generate`: random kernels with known answers (simu.generate), one file per kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def generate_cmd(output: Annotated[Path, typer.Option("-o", "--output", metavar="DIR",
                                                      help="Folder to write the kernels into (created).")],
                 count: Annotated[int, typer.Option("-n", "--count", metavar="N", help="How many kernels.")] = 10,
                 seed: Annotated[int, typer.Option(metavar="S", help="Kernel i gets seed S + i.")] = 0,
                 mode: Annotated[str, typer.Option(
                     metavar="MODE",
                     help="basic, vector, barrier, atomic-section, atomic-reduction, all, or warp (CUDA).")] = "basic",
                 lang: Annotated[str, typer.Option(metavar="LANG", help="opencl or cuda.")] = "opencl",
                 plant: Annotated[str, typer.Option(
                     metavar="KIND", help="A bug to plant (drop-barrier, non-injective, divergent-barrier, "
                                          "inter-block, redundant-barrier, out-of-bounds, warp-no-syncwarp), "
                                          "random (one that applies to the mode) or none.")] = "none",
                 emi: Annotated[bool, typer.Option("--emi", help="Insert dead code (EMI) that must not change "
                                                                 "the verdict.")] = False) -> None:
    """Write N random kernels whose expected findings are in their `// expect:` headers."""
    from simu.cli.common import console, fail
    from simu.generate import GenerateError, kernel
    from simu.generate.model import check_choice

    if count < 0:
        fail(f"-n must be at least 0, got {count}")
    try:
        check_choice(mode, lang, plant)
    except GenerateError as exc:
        fail(str(exc))
    if output.exists() and not output.is_dir():
        fail(f"{output} exists and is not a folder")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create {output}: {exc.strerror or exc}")
    written = 0
    for i in range(count):
        try:
            k = kernel(seed + i, mode, lang, plant, emi)
        except GenerateError as exc:
            fail(f"seed {seed + i}: {exc}")
        (output / k.filename).write_text(k.source)
        written += 1
    console.print(f"wrote {written} kernel{'s' if written != 1 else ''} to {output}", highlight=False)
