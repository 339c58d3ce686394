"""The labelled corpus (DESIGN.md §6): parsing `// expect:` and `// launch:` headers and checking a file.

    // expect: race shared write-write line 12
    // expect(independent): warp-race shared line 9      (only under that warp model)
    // expect(O1): race global line 4                    (only in as-compiled -O1 mode)
    // expect: clean
    // launch: grid=4 block=64 n=100 [warp=32] [shared=BYTES] [buf=float32:1024[:fill]]
    // kernel: name                                      (when the file has several kernels)
    // constrain: block=32,8 stride=32 n=1:512 len:L=n*stride fill:row_ptr=ramp
    //     (what a user would put in simu.toml for launch-free analysis: the search honours it)

`expect` lines list everything simu must report for the file in a configuration: nothing more and
nothing less.  A finding matches when its kind is equal, its space and access class equal the ones
given (when given) and the line is one of its two source lines.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from simu.config import KernelConstraints
from simu.detect import Finding

CONFIGS = (("O0", "lockstep"), ("O1", "lockstep"), ("O0", "independent"))
_EXPECT = re.compile(r"^\s*//\s*expect(?:\(([^)]*)\))?:\s*(.*?)\s*$")
_LAUNCH = re.compile(r"^\s*//\s*launch:\s*(.*?)\s*$")
_KERNEL = re.compile(r"^\s*//\s*kernel:\s*(\S+)")
_CONSTRAIN = re.compile(r"^\s*//\s*constrain:\s*(.*?)\s*$")


@dataclass
class Expectation:
    kind: str
    space: str | None = None
    access: str | None = None
    lines: tuple[int, ...] = ()
    modes: frozenset[str] = frozenset()  # empty = every configuration
    text: str = ""

    def applies(self, opt: str, model: str) -> bool:
        return not self.modes or (self.modes & {opt, model}) == self.modes & {"O0", "O1", "O2", "O3", "lockstep",
                                                                               "independent"} and \
            all(m in (opt, model) for m in self.modes)

    def matches(self, f: Finding) -> bool:
        if f.kind != self.kind:
            return False
        if self.space and f.space != self.space:
            return False
        if self.access and f.detail.get("access") != self.access:
            return False
        lines = {l.line for l in (f.first, f.second) if l is not None}
        return all(l in lines for l in self.lines)


@dataclass
class LaunchLine:
    grid: str = "1"
    block: str = "32"
    args: list[str] = field(default_factory=list)
    buffers: list[str] = field(default_factory=list)
    warp: int = 32
    shared: int = 0
    seed: int = 0


@dataclass
class CorpusFile:
    path: Path
    expectations: list[Expectation]
    launches: list[LaunchLine]
    kernel: str | None
    clean: bool
    constraints: KernelConstraints | None = None

    def expected(self, opt: str, model: str) -> list[Expectation]:
        return [e for e in self.expectations if e.applies(opt, model)]


def parse(path: Path) -> CorpusFile:
    exps: list[Expectation] = []
    launches: list[LaunchLine] = []
    kernel = None
    clean = False
    constraints = None
    for line in path.read_text().splitlines()[:40]:
        m = _CONSTRAIN.match(line)
        if m:
            constraints = parse_constraints(m.group(1))
            continue
        m = _EXPECT.match(line)
        if m:
            modes = frozenset(x.strip() for x in (m.group(1) or "").split(",") if x.strip())
            body = m.group(2)
            if body == "clean":
                clean = True
                continue
            exps.append(_parse_expect(body, modes, path))
            continue
        m = _LAUNCH.match(line)
        if m:
            launches.append(_parse_launch(m.group(1)))
            continue
        m = _KERNEL.match(line)
        if m:
            kernel = m.group(1)
    return CorpusFile(path, exps, launches, kernel, clean, constraints)


def parse_constraints(text: str) -> KernelConstraints:
    """A `// constrain:` line, read into the same object as a `[tool.simu.kernels.NAME]` table."""
    c = KernelConstraints()
    for tok in text.split():
        name, _, value = tok.partition("=")
        if name.startswith("len:"):
            c.buffer_lengths[name[4:]] = value
        elif name.startswith("fill:"):
            c.fills[name[5:]] = value
        elif name == "grid":
            c.grid = value
        elif name == "block":
            c.block = value
        elif name == "warp":
            c.warp_size = int(value)
        elif name == "shared":
            c.dynamic_shared = int(value)
        elif re.fullmatch(r"-?\d+:-?\d+", value):
            lo, hi = value.split(":")
            c.arg_ranges[name] = (float(lo), float(hi))
        elif re.fullmatch(r"-?\d+", value):
            c.args[name] = int(value)
        elif re.fullmatch(r"-?\d*\.\d*(e-?\d+)?", value):
            c.args[name] = float(value)
        else:
            raise ValueError(f"cannot read constraint '{tok}'")
    return c


def _parse_expect(body: str, modes: frozenset[str], path: Path) -> Expectation:
    words = body.split()
    if not words:
        raise ValueError(f"{path}: empty expect line")
    e = Expectation(words[0], modes=modes, text=body)
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("shared", "global", "constant", "private"):
            e.space = w
        elif w in ("read-write", "write-write"):
            e.access = w
        elif w in ("line", "lines"):
            e.lines = tuple(int(x) for x in words[i + 1].split(","))
            i += 1
        else:
            raise ValueError(f"{path}: cannot read '{w}' in expect line '{body}'")
        i += 1
    return e


def _parse_launch(text: str) -> LaunchLine:
    L = LaunchLine()
    for tok in text.split():
        name, _, value = tok.partition("=")
        if name == "grid":
            L.grid = value
        elif name == "block":
            L.block = value
        elif name == "warp":
            L.warp = int(value)
        elif name == "shared":
            L.shared = int(value)
        elif name == "seed":
            L.seed = int(value)
        elif ":" in value:
            L.buffers.append(tok)
        else:
            L.args.append(tok)
    return L


@dataclass
class Verdict:
    config: tuple[str, str]
    missing: list[Expectation]
    unexpected: list[Finding]
    status: str = "analysed"
    reason: str = ""

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unexpected and self.status == "analysed"


def evaluate(cf: CorpusFile, opt: str = "O0", model: str = "lockstep", findings: list[Finding] | None = None,
             status: str = "analysed", reason: str = "") -> Verdict:
    findings = findings or []
    want = cf.expected(opt, model)
    missing = [e for e in want if not any(e.matches(f) for f in findings)]
    unexpected = [f for f in findings if not any(e.matches(f) for e in want)]
    return Verdict((opt, model), missing, unexpected, status, reason)


def check_corpus_file(path: Path, opt: str = "O0", model: str = "lockstep", module_cache: dict | None = None) -> Verdict:
    """Compile (cached per mode), run the file's launches and compare with its labels."""
    from simu.api import load_file
    from simu.detect import DetectOptions
    from simu.frontend import CompileOptions
    from simu.launch.spec import build_launch
    from simu.pipeline import CheckSettings, check_launches

    cf = parse(path)
    key = (str(path), opt)
    cache = module_cache if module_cache is not None else {}
    if key not in cache:
        cache[key] = load_file(path, CompileOptions(opt_level=int(opt[1])))
    module = cache[key]
    kernels = [module.kernel(cf.kernel)] if cf.kernel else module.kernels
    findings: list[Finding] = []
    status, reason = "analysed", ""
    for k in kernels:
        launches = [build_launch(k, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared) for L in cf.launches]
        rep = check_launches(module, k, launches, CheckSettings(detect=DetectOptions(warp_model=model)))
        findings += rep.findings
        if rep.status != "analysed":
            status, reason = rep.status, rep.reason
    return evaluate(cf, opt, model, findings, status, reason)


def main(argv: list[str]) -> int:
    """`python -m simu.bench.corpus [files or dirs]`: print every mismatch between labels and findings."""
    from simu.frontend.discover import find_sources

    files = find_sources(argv or ["corpus"])
    bad = 0
    cache: dict = {}
    for f in files:
        if f.suffix == ".ll":
            continue
        for opt, model in CONFIGS:
            try:
                v = check_corpus_file(f, opt, model, cache)
            except Exception as exc:  # report and go on: this is a development tool
                print(f"{f} [{opt},{model}]: ERROR {type(exc).__name__}: {exc}")
                bad += 1
                continue
            if not v.ok:
                bad += 1
                print(f"{f} [{opt},{model}]: status={v.status} {v.reason}")
                for e in v.missing:
                    print(f"    missing: {e.text}")
                for u in v.unexpected:
                    lines = ",".join(str(l.line) for l in (u.first, u.second) if l)
                    print(f"    unexpected: {u.kind} {u.space} {u.detail.get('access', '')} lines {lines}: {u.message}")
    print(f"{len(files)} files, {bad} mismatching configurations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
