"""`simu bench --suite generated`: the detectors' precision and recall on a folder of labelled kernels.

Every file (one kernel, `// expect:` labels, `// launch:` lines; a generated one also says
`// generated: seed=S mode=M lang=L plant=P emi=0|1`) is judged in up to two settings:

* **given** — its launch lines run as written, at -O0 under the lockstep warp model, plus -O0 under
  the independent model when it has `expect(independent)` labels (:func:`simu.bench.corpus.check_corpus_file`);
* **search** (``--search``) — its launch lines are ignored and simu's search finds launches with a
  fixed evaluation budget (:func:`simu.bench.search.search_findings`).

Scoring, per file and setting: an expected finding that was reported is a true positive, one that was
not a false negative; a reported finding no label expects is a false positive when its severity is
*error*, an *unexpected warning* when it is a warning or a performance note (counted apart, never in
precision), and ignored when it is info (benign races).  Files whose analysis ended incomplete (a launch
stopped, not launchable, unsupported) are scored on what was found and listed with the reason; files
that could not be judged at all (compile error, a crash) are listed as failed and not scored.

Results depend on the files, the seed and the evaluation budget only: the search's time guards are set
far above what the budget needs (its clock is CPU time) and the machine's per-launch clock far above
its step limit, so neither ``-j`` nor the machine's load changes a verdict.
"""

from __future__ import annotations

import dataclasses
import re
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from simu import codes
from simu.evolve import Budget
from simu.evolve.budget import CHECK_GUARD_SECONDS, REFUTE_STEPS_PER_SECOND

GENERATED = re.compile(r"^\s*//\s*generated:\s*(.*?)\s*$")
SETTINGS = ("given", "search")
LAUNCH_SECONDS = 120.0  # the machine's clock per launch: far above what its step limit allows
SEARCH_GUARD_SECONDS = 3600.0  # CPU seconds: never reached by a search of the default budget


@dataclass
class FileScore:
    """One file judged in one setting."""

    path: str
    setting: str
    lang: str
    mode: str
    plant: str
    seed: int | None = None
    status: str = codes.ANALYSED  # analysed | incomplete | timeout | ... | failed (not scored)
    reason: str = ""
    expected: list[str] = field(default_factory=list)
    tp: list[tuple[str, str]] = field(default_factory=list)  # (kind, label text)
    fn: list[tuple[str, str]] = field(default_factory=list)
    fp: list[tuple[str, str]] = field(default_factory=list)  # (kind, finding text), error severity
    warnings: list[tuple[str, str]] = field(default_factory=list)  # unexpected warnings / performance notes
    reported: list[str] = field(default_factory=list)  # every finding, for triage

    @property
    def scored(self) -> bool:
        return self.status != "failed"


def generated_header(path: Path) -> dict[str, str]:
    """The ``key=value`` words of a file's ``// generated:`` line ({} for a file without one)."""
    from simu.launch.comments import header

    for line in header(path):
        m = GENERATED.match(line)
        if m:
            return dict(w.partition("=")[::2] for w in m.group(1).split() if "=" in w)
    return {}


def kernel_files(roots: list[Path]) -> list[Path]:
    """The ``.cl`` and ``.cu`` files under ``roots``, sorted; ValueError names a root that does not exist."""
    out: set[Path] = set()
    for r in roots:
        if not r.exists():
            raise ValueError(f"no such file or folder: {r}")
        out |= {p for p in ([r] if r.is_file() else r.rglob("*")) if p.suffix in (".cl", ".cu") and p.is_file()}
    return sorted(out)


def _describe(f: Any) -> str:
    lines = ",".join(str(loc.line) for loc in (f.first, f.second) if loc)
    access = f.detail.get("access", "")
    return " ".join(x for x in (f.kind, f.space, access, f"lines {lines}" if lines else "", f"({f.severity})") if x)


def _sort_unexpected(score: FileScore, unexpected: list, seen: set, tag: str) -> None:
    for f in unexpected:
        if f.key in seen:  # the same finding in a second configuration counts once
            continue
        seen.add(f.key)
        if f.severity == codes.ERROR:
            score.fp.append((f.kind, tag + _describe(f)))
        elif f.severity in (codes.WARNING, codes.PERFORMANCE):
            score.warnings.append((f.kind, tag + _describe(f)))


def _score_config(score: FileScore, cf, opt: str, model: str, findings: list, seen: set, only_model: bool) -> None:
    """Add one configuration's verdict: labels of that configuration (only those naming the model when
    ``only_model``), then the unexpected findings."""
    from simu.bench.corpus import evaluate

    v = evaluate(cf, opt, model, findings)
    missing_ids = {id(e) for e in v.missing}
    tag = f"({model}) " if only_model else ""
    for e in cf.expected(opt, model):
        if only_model and model not in e.modes:
            continue
        score.expected.append(tag + e.text)
        (score.fn if id(e) in missing_ids else score.tp).append((e.kind, tag + e.text))
    score.reported += [tag + _describe(f) for f in findings]
    _sort_unexpected(score, v.unexpected, seen, tag)


def _has_independent(cf) -> bool:
    return any("independent" in e.modes for e in cf.expectations)


def score_file(path: Path, setting: str = "given", seed: int = 0, evaluations: int = 40) -> FileScore:
    """Judge one file in one setting (see the module's docstring); never raises."""
    head = generated_header(path)
    lang = head.get("lang") or ("cuda" if path.suffix == ".cu" else "opencl")
    score = FileScore(str(path), setting, lang, head.get("mode", "corpus"), head.get("plant", ""),
                      int(head["seed"]) if head.get("seed", "").isdigit() else None)
    try:
        _judge(path, score, setting, seed, evaluations)
    except Exception as exc:  # noqa: BLE001 - a file that cannot be judged is a result, the bench goes on
        score.status = "failed"
        score.reason = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
        if not _expected_failure(exc):
            score.reason += " [internal: " + traceback.format_exception(exc)[-2].strip()[:200] + "]"
        score.tp, score.fn, score.fp, score.warnings = [], [], [], []
    if not score.plant:
        score.plant = "none" if not score.expected else "labelled"
    return score


def _expected_failure(exc: Exception) -> bool:
    from simu.errors import SimuError

    return isinstance(exc, (SimuError, ValueError, OSError))


def _judge(path: Path, score: FileScore, setting: str, seed: int, evaluations: int) -> None:
    from simu.bench.corpus import check_corpus_file, parse
    from simu.detect import DetectOptions
    from simu.interp import Limits
    from simu.pipeline import CheckSettings

    cf = parse(path)
    limits = Limits(max_seconds=LAUNCH_SECONDS)
    cache: dict = {}
    seen: set = set()
    models = ["lockstep"] + (["independent"] if _has_independent(cf) else [])
    for model in models:
        if setting == "given":
            if not cf.launches:
                raise ValueError("no `// launch:` line")
            v = check_corpus_file(path, "O0", model, cache, limits)
            findings = v.findings
            status, reason = v.status, v.reason
        else:
            from simu.bench.search import search_findings

            run = search_findings(path, "full", evaluations, seed, cache, SEARCH_GUARD_SECONDS, LAUNCH_SECONDS,
                                  CheckSettings(detect=DetectOptions(warp_model=model), limits=limits), FixedBudget)
            findings, status, reason = run.findings, run.status, run.reason
        if status != codes.ANALYSED and score.status == codes.ANALYSED:
            score.status, score.reason = status, reason
        _score_config(score, cf, "O0", model, findings, seen, model != "lockstep")


@dataclasses.dataclass
class FixedBudget(Budget):
    """`simu check`'s search budget, its severity refutations fixed at what `simu check`'s guard allows
    rather than at the far larger guard the bench sets (so they cost what they cost in `simu check`)."""

    def refutation_steps(self) -> int:
        return int(REFUTE_STEPS_PER_SECOND * CHECK_GUARD_SECONDS)


def _task(args: tuple[str, str, int, int]) -> FileScore:
    path, setting, seed, evaluations = args
    return score_file(Path(path), setting, seed, evaluations)


def run_accuracy(files: list[Path], search: bool = False, jobs: int = 1, seed: int = 0,
                 evaluations: int = 40) -> list[FileScore]:
    """Score every file (given launches; with ``search`` also searched ones) in ``jobs`` processes.  The
    order of the result is the files' order, whatever ``jobs`` is."""
    settings = SETTINGS if search else SETTINGS[:1]
    tasks = [(str(f), s, seed, evaluations) for s in settings for f in files]
    if jobs > 1 and len(tasks) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            return list(pool.map(_task, tasks, chunksize=1))
    return [_task(t) for t in tasks]


# -- aggregation ----------------------------------------------------------------------------------------------

def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _bucket() -> dict[str, Any]:
    return {"files": 0, "exact": 0, "tp": 0, "fn": 0, "fp": 0, "unexpected_warnings": 0, "incomplete": 0,
            "failed": 0}


def _finish(b: dict[str, Any]) -> dict[str, Any]:
    b["precision"] = _ratio(b["tp"], b["tp"] + b["fp"])
    b["recall"] = _ratio(b["tp"], b["tp"] + b["fn"])
    return b


def _add_file(b: dict[str, Any], s: FileScore) -> None:
    b["files"] += 1
    if not s.scored:
        b["failed"] += 1
        return
    b["incomplete"] += s.status != codes.ANALYSED
    b["exact"] += not s.fn and not s.fp
    b["tp"] += len(s.tp)
    b["fn"] += len(s.fn)
    b["fp"] += len(s.fp)
    b["unexpected_warnings"] += len(s.warnings)


def summarise(scores: list[FileScore]) -> dict[str, Any]:
    """Per setting: totals and buckets by mode, by planted kind and by finding kind (true positives and
    false negatives under the label's kind, false positives under the reported one; no file counts there)."""
    out: dict[str, Any] = {}
    for setting in SETTINGS:
        rows = [s for s in scores if s.setting == setting]
        if not rows:
            continue
        total = _bucket()
        by_mode: dict[str, dict] = {}
        by_plant: dict[str, dict] = {}
        by_kind: dict[str, dict] = {}
        for s in rows:
            _add_file(total, s)
            _add_file(by_mode.setdefault(s.mode, _bucket()), s)
            _add_file(by_plant.setdefault(s.plant, _bucket()), s)
            for name, items in (("tp", s.tp), ("fn", s.fn), ("fp", s.fp), ("unexpected_warnings", s.warnings)):
                for kind, _ in items:
                    by_kind.setdefault(kind, _bucket())[name] += 1
        for k in by_kind.values():
            del k["files"], k["exact"], k["incomplete"], k["failed"]
        out[setting] = {"total": _finish(total),
                        "by_mode": {k: _finish(v) for k, v in sorted(by_mode.items())},
                        "by_plant": {k: _finish(v) for k, v in sorted(by_plant.items())},
                        "by_kind": {k: _finish(v) for k, v in sorted(by_kind.items())}}
    return out


def triage(scores: list[FileScore]) -> dict[str, list[dict[str, Any]]]:
    """The files a person should look at: false positives, false negatives, incomplete and failed ones."""
    def row(s: FileScore, **extra: Any) -> dict[str, Any]:
        return {"path": s.path, "setting": s.setting, "mode": s.mode, "plant": s.plant, "expected": s.expected,
                "reported": s.reported, **extra}

    return {
        "false_positives": [row(s, false_positives=[t for _, t in s.fp]) for s in scores if s.fp],
        "false_negatives": [row(s, missed=[t for _, t in s.fn]) for s in scores if s.fn],
        "incomplete": [row(s, status=s.status, reason=s.reason) for s in scores
                       if s.scored and s.status != codes.ANALYSED],
        "failed": [row(s, reason=s.reason) for s in scores if not s.scored],
    }


def report_dict(scores: list[FileScore], seed: int, evaluations: int, search: bool) -> dict[str, Any]:
    """The JSON document of ``simu bench --suite generated``."""
    from simu import __version__

    return {"version": __version__, "suite": "generated", "seed": seed, "evaluations": evaluations,
            "settings": list(SETTINGS if search else SETTINGS[:1]), "files": len({s.path for s in scores}),
            "summary": summarise(scores), **triage(scores), "scores": [asdict(s) for s in scores]}
