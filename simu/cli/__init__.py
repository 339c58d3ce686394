"""The `simu` command line (typer + rich).

:func:`main` is the installed `simu` command: it hands the command to a resident checker of this code where one
runs (`simu serve`, :mod:`simu.resident`), before importing anything heavy, and runs it here otherwise.
"""

from __future__ import annotations

import sys

__all__ = ["app", "main"]


def main() -> None:
    args = sys.argv[1:]
    if args[:1] != ["serve"]:
        try:
            from simu.resident.client import forward

            code = forward(args)
        except KeyboardInterrupt:
            code = 130
        if code is not None:
            sys.exit(code)
    from simu.cli.commands import app

    app(prog_name="simu")


def __getattr__(name: str):
    """``simu.cli.app``, the typer application, imported when first asked for (not by :func:`main`'s way)."""
    if name == "app":
        from simu.cli.commands import app

        return app
    raise AttributeError(name)
