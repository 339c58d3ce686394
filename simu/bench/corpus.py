"""The labelled corpus: `// expect:` headers, and checking a file against them.

    // expect: race shared write-write line 12
    // expect(independent): warp-race shared line 9      (only under that warp model)
    // expect(O1): race global line 4                    (only in as-compiled -O1 mode)
    // expect: clean

The `// launch:`, `// kernel:` and `// constrain:` comments a corpus file also carries are read by
:mod:`simu.launch.comments` (they are not corpus-specific: simu reads them in any kernel file).

`expect` lines list everything simu must report for the file in a configuration: nothing more and
nothing less.  A finding matches when its kind is equal, its space and access class equal the ones
given (when given) and the line is one of its two source lines (or of the sites grouped into it).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from simu.detect import Finding
from simu.launch import comments
from simu.launch.comments import LaunchLine
from simu.launch.constraints import KernelConstraints

CONFIGS = (("O0", "lockstep"), ("O1", "lockstep"), ("O0", "independent"))
_EXPECT = re.compile(r"^\s*//\s*expect(?:\(([^)]*)\))?:\s*(.*?)\s*$")


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
        lines = {l.line for l in f.all_locations}  # a grouped finding's other sites too
        return all(l in lines for l in self.lines)


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
    lines = comments.header(path)
    exps: list[Expectation] = []
    clean = False
    for line in lines:
        m = _EXPECT.match(line)
        if m:
            modes = frozenset(x.strip() for x in (m.group(1) or "").split(",") if x.strip())
            body = m.group(2)
            if body == "clean":
                clean = True
                continue
            exps.append(_parse_expect(body, modes, path))
    header = comments.parse_lines(lines)
    return CorpusFile(path, exps, header.launches, header.kernel, clean, header.constraints)


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


@dataclass
class Verdict:
    config: tuple[str, str]
    missing: list[Expectation]
    unexpected: list[Finding]
    status: str = "analysed"
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)  # everything reported in that configuration

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unexpected and self.status == "analysed"


def evaluate(cf: CorpusFile, opt: str = "O0", model: str = "lockstep", findings: list[Finding] | None = None,
             status: str = "analysed", reason: str = "") -> Verdict:
    findings = findings or []
    want = cf.expected(opt, model)
    missing = [e for e in want if not any(e.matches(f) for f in findings)]
    unexpected = [f for f in findings if not any(e.matches(f) for e in want)]
    return Verdict((opt, model), missing, unexpected, status, reason, list(findings))


def check_corpus_file(path: Path, opt: str = "O0", model: str = "lockstep",
                      module_cache: dict | None = None, limits=None) -> Verdict:
    """Compile (cached per mode), run the file's launches and compare with its labels.  ``limits`` (a
    :class:`~simu.interp.Limits`) replaces the machine's default limits (a bench fixes a generous clock so
    that the step limit, not the machine's load, ends a long launch)."""
    from simu.api import load_file
    from simu.detect import DetectOptions
    from simu.frontend import CompileOptions
    from simu.launch.record import origin_of_comment
    from simu.launch.spec import build_launch
    from simu.pipeline import CheckSettings, check_launches

    cf = parse(path)
    key = (str(path), opt)
    cache = module_cache if module_cache is not None else {}
    if key not in cache:
        cache[key] = load_file(path, host_compile_options(path, CompileOptions(opt_level=int(opt[1]))))
    module = cache[key]
    kernels = [module.kernel(cf.kernel)] if cf.kernel else module.kernels
    findings: list[Finding] = []
    status, reason = "analysed", ""
    for k in kernels:
        launches = [build_launch(k, L.grid, L.block, L.args, L.buffers, L.seed, L.warp, L.shared) for L in cf.launches]
        for launch in launches:
            launch.origin = origin_of_comment(path.name)
        settings = CheckSettings(detect=DetectOptions(warp_model=model))
        if limits is not None:
            settings = CheckSettings(detect=settings.detect, limits=limits)
        rep = check_launches(module, k, launches, settings)
        findings += rep.findings
        if rep.status != "analysed":
            status, reason = rep.status, rep.reason
    return evaluate(cf, opt, model, findings, status, reason)


def host_compile_options(path: Path, base):
    """``base`` (:class:`~simu.frontend.CompileOptions`) plus the build options the host code beside a ``.cl``
    file builds it with (the first option set, as ``simu check`` takes it): a corpus pair of host ``.c`` and
    ``.cl`` compiles as the program does."""
    import dataclasses

    from simu.host import build_host_index, parse_build_options
    from simu.host.index import HOST_EXTENSIONS

    if path.suffix.lower() != ".cl":
        return base
    beside = sorted(f for f in path.parent.iterdir() if f.suffix.lower() in HOST_EXTENSIONS and f.is_file())
    if not beside:
        return base
    site = next((b for b in build_host_index(path.parent, beside).builds_of(path) if b.options), None)
    if site is None:
        return base
    flags = parse_build_options(site.options or "")
    return dataclasses.replace(base, defines=base.defines + flags.defines,
                               clang_args=base.clang_args + flags.clang_args)


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
