"""The functions behind ``simu validate`` and ``simu replay`` (the CLI wires them; each returns
an exit code and prints with rich)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rich.console import Console
from rich.table import Table

from simu.errors import CompileError, SimuError

VERDICT_STYLE = {
    "confirmed-on-hardware": "bold red",
    "confirmed-in-model": "red",
    "not-observed": "yellow",
    "match": "green",
    "model-mismatch": "bold magenta",
    "nondeterministic": "cyan",
    "not-applicable": "dim",
    "skipped": "dim",
    "error": "bold red",
}
EMITS = ("script", "launch", "run")


def _consoles() -> tuple[Console, Console]:
    return Console(), Console(stderr=True)


def validate_command(target: Path, device: list[str] | None, runs: int, schedules: int, fmt: str) -> int:
    """Validate a kernel source file (its ``// launch:`` lines, else a launch search) or a
    findings JSON file (``simu check/scan --format json``) on devices.

    Exit codes: 0 validated (no model mismatch), 1 a model mismatch, 2 nothing could be replayed,
    simu failed, or bad input.
    """
    from simu.validate.kernels import validate_file

    out, err = _consoles()
    if fmt not in ("text", "json"):
        err.print(f"[bold red]error:[/] --format must be text or json, not '{fmt}'", highlight=False)
        return 2
    if runs < 1 or schedules < 0:
        err.print("[bold red]error:[/] --runs must be at least 1 and --schedules at least 0", highlight=False)
        return 2
    if not Path(target).exists():
        err.print(f"[bold red]error:[/] no such file: {target}", highlight=False)
        return 2
    try:
        report = validate_file(Path(target), device, runs, schedules)
    except CompileError as exc:
        err.print(f"[bold red]error:[/] {exc.path}: does not compile", highlight=False)
        err.print(exc.diagnostics, highlight=False, markup=False)
        return 2
    except (SimuError, json.JSONDecodeError, KeyError, ValueError) as exc:
        err.print(f"[bold red]error:[/] {target}: {exc}", highlight=False)
        return 2
    if fmt == "json":
        out.print_json(json.dumps(report.to_dict(), default=str))
    else:
        render_report(out, report)
    return report.exit_code()


def _launch_text(r) -> str:
    def dim(t):
        t = tuple(t)
        while len(t) > 1 and t[-1] == 1:
            t = t[:-1]
        return "x".join(str(x) for x in t)

    return f"{dim(r.launch.grid)} x {dim(r.launch.block)}"


def _findings_text(r) -> str:
    parts = []
    for f in r.findings[:4]:
        lines = ",".join(str(l.line) for l in (f.first, f.second) if l is not None)
        parts.append(f"{f.kind}" + (f" L{lines}" if lines else ""))
    if len(r.findings) > 4:
        parts.append(f"+{len(r.findings) - 4}")
    return "\n".join(parts) or "-"


def _device_text(r) -> str:
    rows = []
    for name, d in r.details.get("devices", {}).items():
        short = re.sub(r"^Portable Computing Language: ", "PoCL ", name)
        if d.get("errors") and not d.get("runs"):
            rows.append(f"{short}: failed")
            continue
        text = f"{short}: {d.get('outcomes', 0)} outcome(s) in {d.get('runs', 0)} runs"
        if d.get("differing_schedules"):
            text += f"; {d['differing_schedules']}/{d.get('schedules_run', 0)} schedules differ"
        if d.get("differing_runs"):
            text += f"; {d['differing_runs']} run(s) differ"
        if d.get("mismatching_runs"):
            text += f"; {d['mismatching_runs']} run(s) differ from simu"
        rows.append(text)
    return "\n".join(rows) or "-"


def _model_text(r) -> str:
    m = r.details.get("model")
    if not m:
        return "-"
    return f"{m['outcomes']} outcome(s) in {m['schedules']} schedules"


def render_report(console: Console, report) -> None:
    table = Table(title=f"validation of {report.path}", show_lines=True)
    for col in ("kernel", "launch", "findings", "verdict", "device", "model", "why"):
        table.add_column(col, overflow="fold")
    for r in report.results:
        why = ""
        if r.mismatches:
            why = "first difference: " + str(r.mismatches[0])
        elif r.verdict == "confirmed-in-model":
            matched = [d.get("matches_model") for d in r.details.get("devices", {}).values() if d.get("matches_model")]
            why = f"device output = simu schedule '{matched[0]}'" if matched else ""
        elif r.verdict == "confirmed-on-hardware":
            diffs = [d["first_difference"] for d in r.details.get("devices", {}).values() if d.get("first_difference")]
            if diffs:
                d = diffs[0]
                why = (f"{d['buffer']}[{d['index']}]: {d['values'][0]!r} vs {d['values'][1]!r} "
                       f"({' / '.join(d['between'])})")
        if r.details.get("notes"):
            why = (why + "\n" if why else "") + "; ".join(r.details["notes"][:2])
        style = VERDICT_STYLE.get(r.verdict, "")
        table.add_row(r.kernel, _launch_text(r), _findings_text(r), f"[{style}]{r.verdict}[/]" if style else r.verdict,
                      _device_text(r), _model_text(r), why)
    console.print(table)
    for n in report.notes:
        console.print(f"[yellow]note:[/] {n}", highlight=False)
    counts = report.counts()
    summary = ", ".join(f"{v} {k}" for k, v in counts.items()) or "nothing validated"
    console.print(f"{len(report.results)} launch(es): {summary}", highlight=False)


def replay_command(finding_json: Path, emit: str, output: Path | None) -> int:
    """Reproduce the launch of the finding(s) in a JSON file.

    ``emit``: ``script`` writes a standalone Python replay script (numpy + pyopencl, or CuPy for
    CUDA) to ``output`` (a file, or a folder when there are several findings; stdout without
    ``output``); ``launch`` prints the rebuilt launch (grid, block, scalars, buffer specs) as
    JSON; ``run`` replays it now on the default device and prints the outputs (saved as .npz to
    ``output`` when given).  Exit codes: 0 done, 2 bad input or nothing replayable.
    """
    from dataclasses import asdict

    from simu.validate.findings_file import load_findings

    out, err = _consoles()
    if emit not in EMITS:
        err.print(f"[bold red]error:[/] --emit must be one of {', '.join(EMITS)}, not '{emit}'", highlight=False)
        return 2
    try:
        items = load_findings(finding_json)
    except (OSError, ValueError) as exc:
        err.print(f"[bold red]error:[/] {finding_json}: cannot read findings: {exc}", highlight=False)
        return 2
    items = [(f, src) for f, src in items if f.launch is not None]
    if not items:
        err.print(f"[bold red]error:[/] {finding_json}: no finding with a launch record", highlight=False)
        return 2

    def source_of(f, src):
        if f.first is not None and Path(f.first.file).is_file():
            return Path(f.first.file)
        return Path(src) if src else None

    try:
        if emit == "launch":
            from simu.launch.record import record_of
            from simu.validate.replay import launch_from_record

            docs = []
            for f, src in items:
                rl = launch_from_record(f.launch)
                docs.append({"kernel": f.kernel, "kind": f.kind, "source": str(source_of(f, src) or ""),
                             "exact": rl.exact, "launch": asdict(record_of(rl.launch))})
            text = json.dumps(docs if len(docs) > 1 else docs[0], indent=2, default=str)
            if output:
                Path(output).write_text(text + "\n")
                err.print(f"wrote {output}", highlight=False)
            else:
                out.print_json(text)
            return 0
        if emit == "script":
            from simu.validate.script import emit_replay_script

            if len(items) == 1 or output is None or (output.suffix == ".py" and not output.is_dir()):
                f, src = items[0]
                text = emit_replay_script(f, source_of(f, src))
                if output:
                    Path(output).write_text(text)
                    Path(output).chmod(0o755)
                    err.print(f"wrote {output}", highlight=False)
                else:
                    out.file.write(text)
                if len(items) > 1:
                    err.print(f"[yellow]note:[/] {len(items)} findings in the file; wrote the first "
                              f"(give a folder as --output for all)", highlight=False)
                return 0
            Path(output).mkdir(parents=True, exist_ok=True)
            for i, (f, src) in enumerate(items, 1):
                name = re.sub(r"[^A-Za-z0-9_]+", "_", f.kernel).strip("_")
                path = Path(output) / f"replay_{i:02d}_{name}_{f.kind}.py"
                path.write_text(emit_replay_script(f, source_of(f, src)))
                path.chmod(0o755)
            err.print(f"wrote {len(items)} scripts to {output}", highlight=False)
            return 0
        return _replay_now(items, output, source_of, out, err)
    except CompileError as exc:
        err.print(f"[bold red]error:[/] {exc.path}: does not compile", highlight=False)
        return 2
    except (SimuError, FileNotFoundError, ValueError) as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return 2


def _replay_now(items, output, source_of, out: Console, err: Console) -> int:
    import numpy as np

    from simu.validate.replay import launch_from_record
    from simu.validate.targets import devices_for, load_target

    saved = {}
    code = 0
    for i, (f, src) in enumerate(items, 1):
        path = source_of(f, src)
        if path is None:
            err.print(f"[yellow]note:[/] {f.kernel}: no source file; skipped", highlight=False)
            continue
        target = load_target(path, f.kernel)
        devices, notes = devices_for(None, target.language)
        for n in notes:
            err.print(f"[yellow]note:[/] {n}", highlight=False)
        if not devices:
            code = 2
            continue
        rl = launch_from_record(f.launch, target.kernel)
        dev = devices[0]
        res = dev.run(target.source, target.info, rl.launch, None, target.build_options)
        table = Table(title=f"{f.kind} in {f.kernel} on {dev.name}" + ("" if rl.exact else " (inexact buffers)"))
        for col in ("buffer", "dtype", "elements", "changed", "first values"):
            table.add_column(col)
        for name, arr in res.items():
            init = rl.launch.args[name]
            a = np.ascontiguousarray(arr).view(np.uint8).reshape(arr.size, -1)
            b = np.ascontiguousarray(init).view(np.uint8).reshape(arr.size, -1)
            changed = int(np.count_nonzero((a != b).any(axis=1)))
            table.add_row(name, str(arr.dtype), str(arr.size), str(changed),
                          np.array2string(arr.reshape(-1)[:6], precision=4))
            saved[f"{i}.{name}" if len(items) > 1 else name] = arr
        out.print(table)
    if output and saved:
        np.savez(output, **saved)
        err.print(f"wrote {output}", highlight=False)
    return code
