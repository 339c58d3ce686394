"""The `simu` command line: the typer app; each command lives in its own module of this package."""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup

from simu import __version__
from simu.cli import bench, check, generate, hook, kernels, mine, run, scan, serve, validate
from simu.cli import compile as compile_
from simu.cli.common import console


def _plain_help(opt):
    if opt is not None:
        opt.metavar = ""  # no "<bool>" type column for --help
    return opt


class _Command(TyperCommand):
    def get_help_option(self, ctx):
        return _plain_help(super().get_help_option(ctx))


class _Group(TyperGroup):
    def get_help_option(self, ctx):
        return _plain_help(super().get_help_option(ctx))


app = typer.Typer(help="simu: find data races, barrier divergence and redundant barriers in GPU kernels.",
                  cls=_Group, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def version_callback(value: bool) -> None:
    if value:
        console.print(f"simu {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", metavar="", callback=version_callback, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """simu: find synchronization bugs in CUDA and OpenCL kernels without a GPU."""


app.command("compile", cls=_Command)(compile_.compile_cmd)
app.command("kernels", cls=_Command)(kernels.kernels_cmd)
app.command("run", cls=_Command)(run.run_cmd)
app.command("check", cls=_Command)(check.check_cmd)
app.command("scan", cls=_Command)(scan.scan_cmd)
app.command("validate", cls=_Command)(validate.validate_cmd)
app.command("replay", cls=_Command)(validate.replay_cmd)
app.command("bench", cls=_Command)(bench.bench_cmd)
app.command("generate", cls=_Command)(generate.generate_cmd)
app.command("serve", cls=_Command)(serve.serve_cmd)

hook_app = typer.Typer(help="Install or remove the git pre-commit hook that runs `simu scan --changed`.",
                       cls=_Group, no_args_is_help=True)
hook_app.command("install", cls=_Command)(hook.install_cmd)
hook_app.command("uninstall", cls=_Command)(hook.uninstall_cmd)
app.add_typer(hook_app, name="hook")

mine_app = typer.Typer(help="Mine many repositories and their fix history into an SQLite database.",
                       cls=_Group, no_args_is_help=True)
mine_app.command("run", cls=_Command)(mine.run_cmd)
mine_app.command("status", cls=_Command)(mine.status_cmd)
mine_app.command("export", cls=_Command)(mine.export_cmd)
mine_app.command("report", cls=_Command)(mine.report_cmd)
app.add_typer(mine_app, name="mine")
