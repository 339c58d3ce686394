"""The `simu` command line: the typer app; each command lives in its own module of this package."""

from __future__ import annotations

from typing import Annotated

import typer

from simu import __version__
from simu.cli import bench, check, hook, kernels, run, scan, validate
from simu.cli import compile as compile_
from simu.cli.common import console

app = typer.Typer(help="simu: find data races, barrier divergence and redundant barriers in GPU kernels.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def version_callback(value: bool) -> None:
    if value:
        console.print(f"simu {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """simu: find synchronization bugs in CUDA and OpenCL kernels without a GPU."""


app.command("compile")(compile_.compile_cmd)
app.command("kernels")(kernels.kernels_cmd)
app.command("run")(run.run_cmd)
app.command("check")(check.check_cmd)
app.command("scan")(scan.scan_cmd)
app.command("validate")(validate.validate_cmd)
app.command("replay")(validate.replay_cmd)
app.command("bench")(bench.bench_cmd)

hook_app = typer.Typer(help="Install or remove the git pre-commit hook that runs `simu scan --changed`.",
                       no_args_is_help=True)
hook_app.command("install")(hook.install_cmd)
hook_app.command("uninstall")(hook.uninstall_cmd)
app.add_typer(hook_app, name="hook")
