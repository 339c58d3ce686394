"""The `simu` command line (typer + rich)."""

from simu.cli.app import app

__all__ = ["app"]
