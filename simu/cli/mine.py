"""`simu mine run|status|export|report`: many repositories and their fix history into one SQLite database."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import typer

from simu.cli.common import ClangArgOpt, DefineOpt, IncludeOpt, console, err_console, fail

DbOpt = Annotated[Path, typer.Option("--db", metavar="FILE", help="The mining database (SQLite).")]


def run_cmd(sources: Annotated[list[str], typer.Argument(
                metavar="SOURCE...", help="Repository URLs, local repositories or folders, or @list.txt.")],
            db: DbOpt,
            cache: Annotated[Optional[Path], typer.Option(
                "--cache", metavar="DIR", help="Clones, trees and simu's result cache \\[default: FILE.work].")] = None,
            budget: Annotated[Optional[float], typer.Option(
                metavar="SECONDS", help="Seconds of search per kernel \\[default: 5].")] = None,
            jobs: Annotated[Optional[int], typer.Option(
                "-j", "--jobs", metavar="N", help="Local worker processes (per Dask task: 1) \\[default: cores].")
            ] = None,
            checks: Annotated[Optional[str], typer.Option(
                metavar="CHECKS", help="Comma-separated checks \\[default: races,barriers,memory].")] = None,
            warp_model: Annotated[Optional[str], typer.Option(metavar="MODEL", help="lockstep or independent.")
                                  ] = None,
            include: IncludeOpt = None, define: DefineOpt = None, clang_arg: ClangArgOpt = None,
            exclude: Annotated[Optional[list[str]], typer.Option(
                "--exclude", metavar="GLOB", help="Skip paths matching a .gitignore-style glob (repeatable).")] = None,
            history: Annotated[bool, typer.Option(
                "--history", metavar="", help="Analyse the commits that may fix synchronization bugs, before and "
                                              "after.")] = False,
            since: Annotated[Optional[str], typer.Option(
                metavar="DATE", help="History: only commits after DATE (as git log --since).")] = None,
            max_commits: Annotated[Optional[int], typer.Option(
                "--max-commits", metavar="N", help="History: at most N kept commits per repository, newest first.")
            ] = None,
            keywords: Annotated[Optional[str], typer.Option(
                metavar="REGEX", help="History: commit messages to keep \\[default: fix|error|sync|race|barrier|"
                                      "deadlock].")] = None,
            scheduler: Annotated[Optional[str], typer.Option(
                metavar="ADDRESS", help="Run the analyses on a Dask cluster, e.g. tcp://host:8786.")] = None,
            ship: Annotated[str, typer.Option(
                metavar="HOW", help="How trees reach Dask workers: sources (sent by this process) or clone.")
            ] = "sources",
            worker_cache: Annotated[Optional[str], typer.Option(
                "--worker-cache", metavar="DIR", help="Dask workers' folder \\[default: $SIMU_MINE_WORK or the "
                                                      "temporary folder].")] = None,
            max_repo_mb: Annotated[float, typer.Option(
                "--max-repo-mb", metavar="MB", help="Per repository: leave one whose clone or folder is larger "
                                                    "on disk.")] = 2000.0,
            max_kernel_files: Annotated[int, typer.Option(
                "--max-kernel-files", metavar="N", help="Per repository: leave one with more .cu/.cuh/.cl files.")
            ] = 5000,
            max_repo_seconds: Annotated[Optional[float], typer.Option(
                "--max-repo-seconds", metavar="SECONDS", help="Per repository: wall time; kernels not analysed by "
                                                              "then are left \\[default: no limit].")] = None
            ) -> None:
    """Analyse every kernel of the sources (or of their fixing commits) into the database; resumable.

    Exit codes: 0 every source done (or left at a per-repository limit), 1 some sources failed, 2 usage error,
    130 interrupted (run the same command again to continue)."""
    import sys

    from simu.cli.scan import split_checks
    from simu.mine import MineError, MineSettings, SourceError, mine, parse_sources
    from simu.mine.history import DEFAULT_KEYWORDS
    from simu.mine.limits import Limits
    from simu.mine.render import LineEvents, ProgressEvents, summary_line
    from simu.scan import ScanOverrides

    if ship not in ("sources", "clone"):
        fail(f"--ship must be sources or clone, not '{ship}'")
    if budget is not None and budget <= 0:
        fail(f"--budget must be positive, not {budget:g}")
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if max_repo_mb <= 0:
        fail(f"--max-repo-mb must be positive, not {max_repo_mb:g}")
    if max_kernel_files < 0:
        fail(f"--max-kernel-files must be 0 or more, not {max_kernel_files}")
    if max_repo_seconds is not None and max_repo_seconds <= 0:
        fail(f"--max-repo-seconds must be positive, not {max_repo_seconds:g}")
    if max_commits is not None and max_commits < 1:
        fail(f"--max-commits must be at least 1, not {max_commits}")
    try:
        re.compile(keywords or DEFAULT_KEYWORDS)
    except re.error as exc:
        fail(f"--keywords: not a regular expression: {exc}")
    if not history and (since or max_commits or keywords):
        fail("--since, --max-commits and --keywords need --history")
    try:
        parsed = parse_sources(list(sources))
    except SourceError as exc:
        fail(str(exc))
    if not parsed:
        fail("no sources (a list file with no line?)")
    overrides = ScanOverrides(include=list(include or ()), define=list(define or ()), clang_args=list(clang_arg or ()),
                              exclude=list(exclude or ()), warp_model=warp_model, checks=split_checks(checks),
                              budget=budget, jobs=jobs)
    settings = MineSettings(db, cache, overrides, history, since, max_commits, keywords or DEFAULT_KEYWORDS,
                            scheduler, ship, worker_cache, argv=sys.argv[1:],
                            limits=Limits(max_repo_mb, max_kernel_files, max_repo_seconds))
    try:
        if err_console.is_terminal:
            with ProgressEvents(err_console) as events:
                summary = mine(parsed, settings, events)
        else:
            summary = mine(parsed, settings, LineEvents(err_console))
    except MineError as exc:
        fail(str(exc))
    console.print(summary_line(summary), highlight=False, markup=False)
    if summary.interrupted:
        err_console.print(f"interrupted: what finished is stored in {db}; run the same command again to continue",
                          highlight=False, markup=False)
        raise typer.Exit(130)
    raise typer.Exit(1 if summary.failed else 0)


def _open(db: Path):
    from simu.mine.schema import SchemaError
    from simu.mine.store import connect

    try:
        return connect(db, create=False)
    except (FileNotFoundError, SchemaError) as exc:
        fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - sqlite3.DatabaseError: a file that is no database
        fail(f"{db}: {exc}")


def status_cmd(db: DbOpt) -> None:
    """What the database holds: repositories, snapshots and kernels done, pending and failed."""
    from simu.mine.queries import status
    from simu.mine.render import render_status

    conn = _open(db)
    try:
        render_status(status(conn), console)
    finally:
        conn.close()


def export_cmd(db: DbOpt,
               what: Annotated[str, typer.Option(
                   "--what", metavar="TABLE", help="findings, kernels or changes (history mode).")] = "findings",
               fmt: Annotated[str, typer.Option(
                   "--format", metavar="FORMAT", help="jsonl (an object a line), json (one document) or csv.")
               ] = "jsonl",
               output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE",
                                                              help="Write to a file \\[default: stdout].")] = None,
               with_source: Annotated[bool, typer.Option(
                   "--with-source", metavar="", help="Kernels: add their file's source text (the corpus).")] = False
               ) -> None:
    """Findings, kernels or history changes as JSON lines, one JSON document (its schema ships with simu) or CSV."""
    import sys

    from simu.mine.export import FORMATS, export
    from simu.mine.queries import EXPORTS

    if what not in EXPORTS:
        fail(f"--what must be one of {', '.join(EXPORTS)}, not '{what}'")
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, not '{fmt}'")
    conn = _open(db)
    try:
        if output is None:
            export(conn, what, fmt, sys.stdout, with_source)
            return
        try:
            with open(output, "w", newline="", encoding="utf-8") as out:
                n = export(conn, what, fmt, out, with_source)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
        err_console.print(f"wrote {n} {what} to {output}", highlight=False, markup=False)
    finally:
        conn.close()


def report_cmd(db: DbOpt,
               output: Annotated[Optional[Path], typer.Option(
                   "--output", "-o", metavar="FILE", help="Write a self-contained HTML page (charts, tables, links) "
                                                          "\\[default: a text summary on stdout].")] = None) -> None:
    """Per repository: kernels analysed, findings by severity and kind, history changes (fixed, introduced); with
    -o, an HTML page with charts and every finding linked to its file:line."""
    from rich.console import Console

    from simu.mine.queries import fixing_commits, report
    from simu.mine.render import render_report

    conn = _open(db)
    try:
        if output is not None:
            from simu.mine.html import render_html

            page = render_html(conn, f"simu mine report: {db.name}")
            try:
                output.write_text(page, encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {output}: {exc.strerror or exc}")
            err_console.print(f"wrote the report to {output}", highlight=False, markup=False)
            return
        out = console if console.is_terminal else Console(width=160, soft_wrap=True)  # piped: columns keep names
        render_report(report(conn), fixing_commits(conn), out)
    finally:
        conn.close()
