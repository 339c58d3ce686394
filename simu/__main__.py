"""`python -m simu`: the same as the `simu` command."""

from simu.cli import app

if __name__ == "__main__":  # pragma: no cover
    app(prog_name="simu")
