"""The one registry of output formats: every command that reports findings writes through it.

A format renders a :class:`~simu.report.results.ScanResult` (a ``simu check`` is a scan of one
file) to a rich console (text) or to a string (JSON, SARIF); :func:`write_report` sends either to
standard output or to a file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from simu.report.jsonreport import render_json
from simu.report.results import ScanResult
from simu.report.sarif import render_sarif
from simu.report.scanterm import render_scan

TEXT_FORMATS: dict[str, Callable[[Console, ScanResult, bool], None]] = {"text": render_scan}
DOCUMENT_FORMATS: dict[str, Callable[[ScanResult, bool], str]] = {
    "json": render_json,
    "sarif": lambda result, debug: render_sarif(result),
}
FORMATS = (*TEXT_FORMATS, *DOCUMENT_FORMATS)


def write_report(result: ScanResult, fmt: str, console: Console, output: Path | None = None,
                 debug: bool = False) -> None:
    """Render ``result`` in ``fmt`` to ``console`` or, with ``output``, to that file (parent folders
    must exist: the caller checks that before the analysis, so no result is lost)."""
    if fmt in DOCUMENT_FORMATS:
        text = DOCUMENT_FORMATS[fmt](result, debug)
        if output is not None:
            output.write_text(text, encoding="utf-8")
        else:
            _write_utf8(console.file, text)
        return
    render = TEXT_FORMATS[fmt]
    if output is not None:
        with output.open("w", encoding="utf-8") as fh:
            render(Console(file=fh, width=120, no_color=True, highlight=False, soft_wrap=True), result, debug)
    else:
        render(console, result, debug)


def _write_utf8(stream, text: str) -> None:
    """Documents are UTF-8 (file names as they are), also on a stream whose locale cannot encode them."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            raise
        stream.flush()
        buffer.write(text.encode("utf-8", "surrogateescape"))
        buffer.flush()
