"""`python -m simu`: the same as the `simu` command."""

from simu.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
