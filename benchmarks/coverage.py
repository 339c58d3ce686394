#!/usr/bin/env python3
"""Coverage of real projects: how many of their kernels `simu scan` analyses, and why the others are not.

For each project folder it runs ``simu scan PROJECT --format json --budget B --no-cache -j J`` (zero
configuration), or, with ``--flags``, one scan per group of files with the project's own build flags taken
from the manifest (``benchmarks/coverage_projects.toml``: the -D/-I the project's Makefile, CMakeLists or
``clBuildProgram`` option strings pass).  It then tabulates:

* simu's view: files, files compiled, kernels simu reported, kernels by status;
* the source view: every kernel *definition* in the project (``__global__`` in .cu/.hip/.cuh/.h/.hpp/.inl,
  ``__kernel`` in .cl/.clh), found by a small lexical scan, matched by name to the kernels simu reported for
  the translation units that reach it through ``#include``; a definition takes the best status of its
  matches (a template instantiated several times, a header included by several files), else
  ``compile-error`` (a translation unit reaching it failed to compile), ``not-instantiated`` (reached by a
  compiled file but no kernel of that name came back: a template nobody instantiates, code under
  ``#if``) or ``not-reached`` (no scanned file includes it);
* compile failures grouped by cause (clang's first error, normalised: ``file not found: X``, ``undeclared
  identifier: X``, ...), and by family (toolkit library headers, Thrust/CUB, third-party, build-time macros);
* unsupported, error, timeout and not-launchable kernels grouped by construct.

Output: a markdown report on stdout (or ``--md FILE``) and everything as JSON (``--json FILE``).

    python benchmarks/coverage.py run /tmp/projects/* --out /tmp/cov/before [--flags] [--budget 1] [-j 2]
    python benchmarks/coverage.py table /tmp/cov/before [--md FILE] [--json FILE]
    python benchmarks/coverage.py compare /tmp/cov/before /tmp/cov/after

``run`` keeps each scan's JSON (``OUT/PROJECT.json``, ``OUT/PROJECT.gN.json`` for flag groups) so that
``table`` can be rerun without scanning again.  The project folder should be a checkout (``git init`` in a
snapshot is enough) so that scan's project root is the project's top folder.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "coverage_projects.toml"
SKIP_DIRS = {".git", ".simu-cache", "node_modules", "__pycache__"}
CUDA_EXT = {".cu", ".hip", ".cuh", ".h", ".hpp", ".hxx", ".hh", ".inl", ".cuinc"}
OPENCL_EXT = {".cl", ".clh", ".ocl"}
STATUS_ORDER = ["analysed", "incomplete", "timeout", "not-launchable", "unsupported", "error", "interrupted",
                "compile-error", "not-instantiated", "not-reached"]
INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)


# ---------------------------------------------------------------- lexical scan of kernel definitions

@dataclass(frozen=True)
class KernelDef:
    file: str  # relative to the project
    line: int
    name: str
    language: str  # cuda | opencl


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with [start, end) replaced by spaces, newlines kept (line numbers stay true)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _strip(text: str) -> str:
    """Comments, preprocessor lines and ``__attribute__((…))`` / ``__launch_bounds__(…)`` blanked."""
    out, i, n = [], 0, len(text)
    while i < n:  # comments and string literals
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = min(j + 1, n)
        else:
            out.append(c)
            i += 1
    text = "".join(out)
    text = re.sub(r"(?m)^[ \t]*#.*$", lambda m: " " * len(m.group(0)), text)
    for m in reversed(list(re.finditer(r"\b(__attribute__|__launch_bounds__)\s*\(", text))):
        depth, j = 0, m.end() - 1
        while j < len(text):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                break
        text = _blank(text, m.start(), j)
    return text


def _close_paren(text: str, open_paren: int) -> int:
    """Index just past the parenthesis that closes the one at ``open_paren``."""
    depth, j = 0, open_paren
    while j < len(text):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        j += 1
        if depth == 0:
            break
    return j


def _definition_name(text: str, name: str, open_paren: int) -> str | None:
    """The kernel's name if the declarator at ``open_paren`` has a body; a macro with arguments between the
    return type and the name (``__global__ void LAUNCH_BOUNDS(256, 2) k(...) {``) is stepped over."""
    for _ in range(3):
        j = _close_paren(text, open_paren)
        rest = text[j:j + 400]
        if rest.lstrip().startswith("{"):
            return name
        m = re.match(r"\s*([A-Za-z_]\w*)\s*\(", rest)
        if not m:
            return None
        name, open_paren = m.group(1), j + m.end() - 1
    return None


CUDA_KERNEL_RE = re.compile(r"\b__global__\b[^;{}()#]*?\b([A-Za-z_]\w*)\s*\(")
OPENCL_KERNEL_RE = re.compile(r"\b(?:__kernel|kernel)\s+void\s+([A-Za-z_]\w*)\s*\(")


def kernel_defs(path: Path, rel: str) -> list[KernelDef]:
    """Kernel definitions of one file (declarations and kernels inside string literals are not counted)."""
    ext = path.suffix.lower()
    if ext not in CUDA_EXT and ext not in OPENCL_EXT:
        return []
    try:
        raw = path.read_text(errors="replace")
    except OSError:
        return []
    opencl = ext in OPENCL_EXT
    if ("__kernel" if opencl else "__global__") not in raw and not (opencl and "kernel" in raw):
        return []
    text = _strip(raw)
    found = []
    for m in (OPENCL_KERNEL_RE if opencl else CUDA_KERNEL_RE).finditer(text):
        name = _definition_name(text, m.group(1), m.end() - 1)
        if name is not None:
            found.append(KernelDef(rel, text.count("\n", 0, m.start()) + 1, name, "opencl" if opencl else "cuda"))
    return found


class SourceIndex:
    """Every source file of a project, its kernel definitions and its ``#include`` edges (resolved by name)."""

    def __init__(self, root: Path, vendored: tuple[str, ...] = ()):
        self.root = root.resolve()
        self.vendored = tuple(v.rstrip("/") + "/" for v in vendored)
        self.files: dict[str, Path] = {}
        for d, dirs, names in os.walk(self.root):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for name in names:
                p = Path(d) / name
                if p.suffix.lower() in CUDA_EXT | OPENCL_EXT:
                    self.files[p.relative_to(self.root).as_posix()] = p
        self.defs = {rel: kernel_defs(p, rel) for rel, p in self.files.items() if not self.is_vendored(rel)}
        self.vendored_names = {k.name for rel, p in self.files.items() if self.is_vendored(rel)
                               for k in kernel_defs(p, rel)}
        self._by_base: dict[str, list[str]] = defaultdict(list)
        for rel in self.files:
            self._by_base[rel.rsplit("/", 1)[-1]].append(rel)
        self._reach: dict[str, set[str]] = {}

    def is_vendored(self, rel: str) -> bool:
        """Third-party code the project carries (``vendored`` in the manifest): not the project's kernels."""
        return rel.startswith(self.vendored)

    def all_defs(self) -> list[KernelDef]:
        return [k for rel in sorted(self.defs) for k in self.defs[rel]]

    def _resolve(self, name: str, src: str) -> str | None:
        here = (self.files[src].parent / name).resolve()
        try:
            rel = here.relative_to(self.root).as_posix()
            if rel in self.files:
                return rel
        except ValueError:
            pass
        cands = [c for c in self._by_base.get(name.rsplit("/", 1)[-1], []) if c == name or c.endswith("/" + name)]
        if not cands:
            return None
        src_parts = src.split("/")
        return max(cands, key=lambda c: (sum(1 for a, b in zip(c.split("/"), src_parts, strict=False) if a == b), c))

    def reach(self, rel: str) -> set[str]:
        """Project files ``rel`` includes, transitively, itself included."""
        if rel in self._reach:
            return self._reach[rel]
        seen, todo = {rel}, [rel]
        while todo:
            cur = todo.pop()
            try:
                text = self.files[cur].read_text(errors="replace")
            except OSError:
                continue
            for inc in INCLUDE_RE.findall(text):
                r = self._resolve(inc, cur)
                if r is not None and r not in seen:
                    seen.add(r)
                    todo.append(r)
        self._reach[rel] = seen
        return seen


# ---------------------------------------------------------------- normalising causes

FAMILIES = [
    ("toolkit library headers (cuBLAS, cuDNN, cuRAND, cuFFT, cuSPARSE, NVTX, NVRTC, driver API)",
     re.compile(r"^(cublas|cudnn|curand|cufft|cusparse|cusolver|nvToolsExt|nvtx3|nvrtc|cuda\.h$|cudaGL|cuda_gl|"
                r"cuda_profiler|nvml|npp|cublasLt|cuda_fp16|cuda_bf16|vector_types|cuda_runtime_api|"
                r"device_launch|driver_types|math_constants|sm_\d+|math_functions\.h|device_functions|host_defines|"
                r"cuda_texture_types|texture_fetch|surface_functions|crt/|cooperative_groups|mma\.h|"
                r"cuda_pipeline|cuda_awbarrier)", re.I)),
    ("Thrust / CUB / libcu++", re.compile(r"^(thrust|cub|cuda/std|cuda/|nv/)")),
    ("OpenCL host headers", re.compile(r"^(CL/|OpenCL/)")),
]
BUILD_MACRO_HINT = re.compile(r"^[A-Z][A-Z0-9_]+$")  # e.g. BLOCK_SIZE, MAX_OUTPUTS, FPTYPE, T2
LIBC_MACROS = re.compile(r"^(U?(INT|LONG|SHRT|CHAR|LLONG)\d*_(MAX|MIN)|SIZE_MAX|FLT_\w+|DBL_\w+|RAND_MAX|CHAR_BIT|"
                         r"M_\w+|EXIT_\w+|NULL|CLOCKS_PER_SEC|INFINITY|NAN|HUGE_VALF?)$")
MACRO = "macros the build passes (-D, clBuildProgram options, #error without them)"
LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+):")


def _source_line(first: str) -> str:
    """The source line a diagnostic points at ("" when it cannot be read)."""
    m = LOCATION.match(first)
    if not m:
        return ""
    try:
        return Path(m.group("file")).read_text(errors="replace").splitlines()[int(m.group("line")) - 1]
    except (OSError, IndexError, ValueError):
        return ""


def _macro_family(ident: str, other: str) -> str:
    if LIBC_MACROS.match(ident):
        return "libc / C++ library declarations the shims lack"
    return MACRO if BUILD_MACRO_HINT.match(ident) else other


def normalise_compile(first: str, root: Path | None = None) -> tuple[str, str]:
    """(cause, family) of a file's first diagnostic line (``root``: what relative locations are relative to)."""
    msg = re.sub(r"^.*?\b(fatal error|error):\s*", "", first).strip()
    loc = LOCATION.match(first)
    if loc and root is not None and not Path(loc.group("file")).is_absolute():
        first = str(root / loc.group("file")) + first[len(loc.group("file")):]
    line = _source_line(first)
    if line.lstrip().startswith("#") and "error" in line:
        return f"#error {msg}", MACRO
    if line.lstrip().startswith(('R"', "R'")):
        return "not a translation unit: a raw string literal (source compiled at run time by NVRTC)", "other"
    if re.search(r"<<\s+<|>>\s+>", line) and "expected" in msg:
        return "kernel launch written with spaces inside the chevrons (`<< <…>> >`)", "launch syntax"
    m = re.match(r"'([^']+)' file not found", msg)
    if m:
        header = m.group(1)
        for fam, rx in FAMILIES:
            if rx.search(header):
                return f"file not found: {header}", fam
        return f"file not found: {header}", "third-party, system or generated headers"
    m = re.match(r"use of undeclared identifier '([^']+)'", msg)
    if m:
        ident = m.group(1)
        return f"undeclared identifier: {ident}", _macro_family(ident, "undeclared identifiers")
    m = re.match(r"unknown type name '([^']+)'", msg)
    if m:
        return f"unknown type name: {m.group(1)}", _macro_family(m.group(1), "unknown types")
    m = re.match(r"(redefinition of|conflicting types for|typedef redefinition.*?) '([^']+)'", msg)
    if m:
        return f"{m.group(1)}: {m.group(2)}", "redefinitions (project vs shim headers)"
    m = re.match(r"no member named '([^']+)' in '([^']+)'", msg)
    if m:
        return f"no member '{m.group(1)}' in {m.group(2)}", "missing declarations in the shims"
    m = re.match(r"no (matching function|template named|type named) .*?'([^']+)'", msg)
    if m:
        return f"no {m.group(1)}: {m.group(2)}", "missing declarations in the shims"
    if not msg:
        return "(no diagnostic)", "other"
    return msg[:110], "other"


def normalise_kernel(reason: str) -> str:
    """The construct (or cause) of an unsupported/error/timeout/not-launchable kernel, without locations."""
    msg = re.sub(r"^\S*:\d+:\d+:\s*", "", reason or "").strip()
    msg = re.sub(r"^unsupported:\s*", "", msg)
    if msg.startswith("analysis used more than"):
        return "analysis over the CPU budget"
    cut = re.split(r"[`'\"(:]", msg, maxsplit=1)[0].strip()
    return (cut or msg)[:90] or "(no reason)"


# ---------------------------------------------------------------- one project's report

@dataclass
class ProjectReport:
    name: str
    mode: str
    seconds: float = 0.0
    files: int = 0
    files_ok: int = 0
    fragments: int = 0  # files analysed through the file that includes them (counted in files, not compiled)
    kernels: int = 0  # what simu reported
    kernel_status: Counter = field(default_factory=Counter)
    defs: int = 0
    unlisted: int = 0  # kernels simu reported under a name no lexical definition has (macro-made)
    def_status: Counter = field(default_factory=Counter)
    compile_causes: list[dict] = field(default_factory=list)  # one per failed file
    kernel_causes: list[dict] = field(default_factory=list)  # one per failed kernel definition
    finding_kinds: Counter = field(default_factory=Counter)  # kernels (simu's) with a finding of that kind
    severities: Counter = field(default_factory=Counter)  # findings by severity and kind (see count_findings)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["kernel_status"] = dict(self.kernel_status)
        d["def_status"] = dict(self.def_status)
        d["finding_kinds"] = dict(self.finding_kinds)
        d["severities"] = dict(self.severities)
        return d

    def count_findings(self, kernel: dict) -> None:
        """One reported kernel's findings: kinds per kernel, errors by kind and by where their launch came
        from (a host launch or the search), warnings."""
        found = kernel.get("findings", [])
        self.finding_kinds.update({x["kind"] for x in found})
        errors = [x for x in found if x.get("severity") == "error"]
        self.severities["kernels with an error"] += bool(errors)
        self.severities["analysed kernels"] += kernel.get("status") in ("analysed", "incomplete")
        for x in errors:
            kind = x["kind"] if x["kind"] in ("race", "out-of-bounds") else "other"
            self.severities[f"errors: {kind}"] += 1
            host = (x.get("launch") or {}).get("origin", "").startswith("host launch")
            self.severities["errors on a host launch" if host else "errors on a searched launch"] += 1
        self.severities["errors"] += len(errors)
        self.severities["warnings"] += sum(x.get("severity") == "warning" for x in found)
        # a grouped finding (JSON schema 2) stands for its other sites too: the ungrouped counts
        self.severities["error sites"] += sum(1 + len(x.get("also", ())) for x in errors)
        self.severities["warning sites"] += sum(1 + len(x.get("also", ())) for x in found
                                                if x.get("severity") == "warning")


def _rank(status: str) -> int:
    return STATUS_ORDER.index(status) if status in STATUS_ORDER else len(STATUS_ORDER)


def _base_name(name: str) -> str:
    name = re.sub(r"\s*\[[^\]]*\]$", "", name)  # a .cl variant's build-option label: `k[DIM=24 N_GP=13824]`
    name = re.sub(r"<.*", "", name)  # template arguments
    name = re.sub(r"\(.*", "", name)
    return name.split("::")[-1].strip().split()[-1] if name.strip() else name


def tabulate(root: Path, scans: list[dict], name: str, mode: str, seconds: float = 0.0,
             vendored: tuple[str, ...] = ()) -> ProjectReport:
    """One project's report from its scan JSON documents (several when flag groups split the files).

    Files under ``vendored`` folders count in simu's view (files, kernels) but not in the source view nor
    in the causes: they are somebody else's kernels."""
    index = SourceIndex(root, vendored)
    rep = ProjectReport(name=name, mode=mode, seconds=seconds)
    best: dict[KernelDef, tuple[str, str, str]] = {}  # def -> (status, reason, where)
    extra: Counter = Counter()

    def note(k: KernelDef, status: str, reason: str, where: str) -> None:
        if k not in best or _rank(status) < _rank(best[k][0]):
            best[k] = (status, reason, where)

    for doc in scans:
        for f in doc["files"]:
            if "unknown kernel source type" in (f.get("diagnostic") or ""):
                continue  # a header named in a flag group, to a simu that takes no headers: not scanned
            rep.files += 1
            rel = f["path"]
            if index.is_vendored(rel):
                rep.files_ok += f["status"] == "ok"
                for kr in f["kernels"]:
                    rep.kernels += 1
                    rep.kernel_status[kr["status"]] += 1
                    rep.count_findings(kr)
                continue
            if f.get("included_by"):
                rep.fragments += 1  # a .cu another scanned file includes: its kernels are reported there
                continue
            reach = index.reach(rel) if rel in index.files else {rel}
            reachable = [k for r in reach for k in index.defs.get(r, [])]
            if f["status"] != "ok":
                cause, family = normalise_compile(f.get("diagnostic") or "", index.root)
                rep.compile_causes.append({"file": rel, "cause": cause, "family": family,
                                           "first": f.get("diagnostic") or "", "status": f["status"],
                                           "kernels": len(reachable),
                                           "defs": sorted(f"{k.file}:{k.line}" for k in reachable)})
                for k in reachable:
                    note(k, "compile-error", cause, f.get("diagnostic") or "")
                continue
            rep.files_ok += 1
            by_name: dict[str, list[KernelDef]] = defaultdict(list)
            for k in reachable:
                by_name[k.name].append(k)
            seen_names = set()
            for kr in f["kernels"]:
                rep.kernels += 1
                rep.kernel_status[kr["status"]] += 1
                rep.count_findings(kr)
                w = kr.get("where") or {}
                where = f"{w.get('file', rel)}:{w.get('line', 0)}" if w else f"{rel}:{kr.get('line', 0)}"
                base = _base_name(kr["name"])
                seen_names.add(base)
                matches = by_name.get(base)
                if not matches and base in index.vendored_names:
                    continue  # a vendored library's kernel instantiated by the project (cub::DeviceReduce...)
                if not matches:
                    extra[(rel, base)] += 1
                    k = KernelDef(rel, kr.get("line", 0), base, f.get("language", ""))
                    matches = [k]
                for k in matches:
                    note(k, kr["status"], kr.get("reason") or "", where)
            for k in reachable:
                if k.name not in seen_names:
                    note(k, "not-instantiated", "", f"{k.file}:{k.line}")
    # the yardstick is the lexical definitions only: kernels simu reports that no lexical definition names
    # (made by macros, e.g. ``__kernel void NAME##_f(...)``) are counted apart, so that compiling more
    # variants never moves the denominator
    all_defs = set(index.all_defs())
    rep.unlisted = len(set(best) - all_defs)
    rep.defs = len(all_defs)
    for k in sorted(all_defs, key=lambda k: (k.file, k.line, k.name)):
        status, reason, where = best.get(k, ("not-reached", "", f"{k.file}:{k.line}"))
        rep.def_status[status] += 1
        if status in ("unsupported", "error", "timeout", "not-launchable", "interrupted"):
            rep.kernel_causes.append({"kernel": k.name, "def": f"{k.file}:{k.line}", "status": status,
                                      "cause": normalise_kernel(reason), "reason": reason, "where": where})
    return rep


# ---------------------------------------------------------------- running scans

def _simu(args: list[str], cwd: Path, out: Path) -> float:
    t = time.monotonic()
    cmd = [sys.executable, "-m", "simu", "scan", *args, "--format", "json", "-o", str(out)]
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.monotonic() - t


def manifest() -> dict:
    return tomllib.loads(MANIFEST.read_text())["project"] if MANIFEST.is_file() else {}


def _kernel_header(p: Path) -> bool:
    if p.suffix.lower() not in (CUDA_EXT | OPENCL_EXT) - {".cu", ".hip", ".cl"} or not p.is_file():
        return False
    try:
        return "__global__" in p.read_text(errors="replace")
    except OSError:
        return False


def scan_plan(root: Path, spec: dict | None, flags: bool) -> list[tuple[list[str], list[str]]]:
    """(paths relative to the root, extra scan options) for each scan of one project."""
    if not flags or not spec:
        return [(["."], [])]

    def opts(group: dict) -> list[str]:
        o = []
        for d in group.get("define", []):
            o += ["-D", d]
        for i in group.get("include", []):
            o += ["-I", str((root / i).resolve())]
        for a in group.get("clang-args", []):
            o += [f"--clang-arg={a}"]
        return o

    base = {"define": spec.get("define", []), "include": spec.get("include", []),
            "clang-args": spec.get("clang-args", [])}
    plan, grouped = [], []
    # translation units, and the headers that define kernels: a group's headers go with its files (scan
    # analyses a header through the group file that includes it, or alone when none does)
    all_files = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*"))
                 if ".git" not in p.parts and (p.suffix in (".cu", ".hip", ".cl") or _kernel_header(p))]
    for g in spec.get("group", []):
        files = [f for f in all_files if any(fnmatch.fnmatch(f, pat) for pat in g["files"])]
        if not files:
            continue
        grouped += files
        merged = {k: base[k] + g.get(k, []) for k in base}
        plan.append((files, opts(merged)))
    rest = ["."]
    excl = [x for f in grouped for x in ("--exclude", "/" + f)]
    plan.insert(0, (rest, opts(base) + excl))
    return plan


def run(projects: list[Path], out: Path, flags: bool, budget: float, jobs: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    specs = manifest()
    for root in projects:
        root = root.resolve()
        name = root.name
        plan = scan_plan(root, specs.get(name), flags)
        commands, secs = [], 0.0
        for n, (paths, extra) in enumerate(plan):
            dest = out / (f"{name}.json" if n == 0 else f"{name}.g{n}.json")
            args = [*paths, "--budget", str(budget), "--no-cache", "-j", str(jobs), *extra]
            commands.append("simu scan " + " ".join(args) + " --format json")
            secs += _simu(args, root, dest)
            if not dest.is_file():
                dest.write_text(json.dumps({"files": [], "error": "scan wrote no report"}))
        (out / f"{name}.meta.json").write_text(json.dumps({"root": str(root), "mode": "flags" if flags else "zero",
                                                           "commands": commands, "seconds": round(secs, 1)}))
        print(f"{name}: {secs:.0f} s", file=sys.stderr)


def load(out: Path) -> list[ProjectReport]:
    reps = []
    for meta_path in sorted(out.glob("*.meta.json")):
        meta = json.loads(meta_path.read_text())
        name = meta_path.name[: -len(".meta.json")]
        paths = sorted(out.glob(f"{name}.json")) + sorted(out.glob(f"{name}.g*.json"))
        scans = [json.loads(p.read_text()) for p in paths]
        vendored = tuple(manifest().get(name, {}).get("vendored", []))
        reps.append(tabulate(Path(meta["root"]), scans, name, meta["mode"], meta.get("seconds", 0.0), vendored))
    return reps


# ---------------------------------------------------------------- rendering

def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f} %" if b else "-"


def summary_rows(reps: list[ProjectReport]) -> list[list[str]]:
    rows, tot = [], ProjectReport("**total**", "")
    for r in [*reps, tot]:
        if r is not tot:
            for a in ("files", "files_ok", "fragments", "kernels", "defs", "seconds"):
                setattr(tot, a, getattr(tot, a) + getattr(r, a))
            tot.kernel_status.update(r.kernel_status)
            tot.def_status.update(r.def_status)
        d = r.def_status
        ok = d["analysed"] + d["incomplete"]
        failed_kernels = sum(d[s] for s in ("unsupported", "error", "interrupted"))
        files = f"{r.files} ({r.fragments} included)" if r.fragments else str(r.files)
        rows.append([r.name, files, str(r.files_ok), str(r.kernels),
                     f"{r.kernel_status['analysed']}/{r.kernel_status['incomplete']}", str(r.defs),
                     str(d["analysed"]), str(d["incomplete"]), f"**{ok} ({_pct(ok, r.defs)})**", str(d["timeout"]),
                     str(d["not-launchable"]), str(failed_kernels), str(d["compile-error"]),
                     str(d["not-instantiated"]), str(d["not-reached"]), f"{r.seconds:.0f}"])
    return rows


HEAD = ["project", "files", "compiled", "kernels (simu)", "analysed/incomplete (simu)", "kernel defs",
        "analysed", "incomplete", "analysed+incomplete", "timeout", "not-launchable", "unsupported/error",
        "compile-error", "not instantiated", "not reached", "s"]


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def render(reps: list[ProjectReport], top: int = 25) -> str:
    parts = [_table(HEAD, summary_rows(reps)), ""]
    unlisted = [f"{r.name} {r.unlisted}" for r in reps if r.unlisted]
    if unlisted:
        parts += ["Kernels simu reported under names no lexical definition has (macro-made; not in the kernel "
                  "defs above): " + ", ".join(unlisted) + ".", ""]
    fam, causes, fam_defs = Counter(), defaultdict(list), defaultdict(set)
    for r in reps:
        for c in r.compile_causes:
            fam[c["family"]] += 1
            fam_defs[c["family"]].update((r.name, d) for d in c.get("defs", []))
            causes[c["cause"]].append((r.name, c))
    parts.append("Compile failures by family (files, distinct kernel definitions those files reach):\n")
    parts.append(_table(["files", "kernels", "family"], [[str(n), str(len(fam_defs[f])), f]
                                                         for f, n in fam.most_common()]))
    parts.append("\nCompile failures by cause (first clang error; files, distinct kernel definitions those files "
                 "reach, example):\n")
    rows = []
    for cause, items in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]:
        projs = sorted({p for p, _ in items})
        ex = items[0][1]
        defs = {(p, d) for p, c in items for d in c.get("defs", [])}
        rows.append([str(len(items)), str(len(defs)), f"`{cause}`", ", ".join(projs),
                     f"`{ex['first'][:140]}`"])
    parts.append(_table(["files", "kernels", "cause", "projects", "example"], rows))
    kc = defaultdict(list)
    for r in reps:
        for c in r.kernel_causes:
            kc[(c["status"], c["cause"])].append((r.name, c))
    parts.append("\nKernels compiled but not analysed, by construct (kernel definitions, example):\n")
    rows = []
    for (status, cause), items in sorted(kc.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]:
        ex = items[0][1]
        rows.append([str(len(items)), status, f"`{cause}`", ", ".join(sorted({p for p, _ in items})),
                     f"{ex['kernel']} ({ex['where']}): `{ex['reason'][:120]}`"])
    parts.append(_table(["kernels", "status", "construct", "projects", "example"], rows))
    cols = ["analysed kernels", "kernels with an error", "errors", "errors: race", "errors: out-of-bounds",
            "errors: other", "errors on a host launch", "errors on a searched launch", "warnings", "error sites",
            "warning sites"]
    if any(r.severities for r in reps):
        parts.append("\nFindings by severity (kernels as simu reports them, with template instances):\n")
        parts.append(_table(["project", *cols], [[r.name, *(str(r.severities[c]) for c in cols)] for r in reps]))
    kinds = sorted({k for r in reps for k in r.finding_kinds})
    if kinds:
        parts.append("\nKernels (simu's) with at least one finding of each kind:\n")
        parts.append(_table(["project", *kinds], [[r.name, *(str(r.finding_kinds[k]) for k in kinds)] for r in reps]))
    return "\n".join(parts) + "\n"


def compare(before: list[ProjectReport], after: list[ProjectReport]) -> str:
    """Before → after per project and in total (source view), as a markdown table."""
    def totals(reps: list[ProjectReport]) -> ProjectReport:
        t = ProjectReport("**total**", "")
        for r in reps:
            for a in ("files", "files_ok", "kernels", "defs"):
                setattr(t, a, getattr(t, a) + getattr(r, a))
            t.def_status.update(r.def_status)
            t.kernel_status.update(r.kernel_status)
        return t

    b = {r.name: r for r in before}
    b["**total**"] = totals(before)
    rows = []
    for r in [*after, totals(after)]:
        o = b.get(r.name) or ProjectReport(r.name, "")

        def ok(x: ProjectReport) -> int:
            return x.def_status["analysed"] + x.def_status["incomplete"]

        rows.append([r.name, f"{o.files_ok}/{o.files} → {r.files_ok}/{r.files}",
                     f"{o.kernel_status['analysed']} → {r.kernel_status['analysed']}",
                     f"{o.defs} → {r.defs}",
                     f"{o.def_status['analysed']} → {r.def_status['analysed']}",
                     f"{ok(o)} ({_pct(ok(o), o.defs)}) → **{ok(r)} ({_pct(ok(r), r.defs)})**"])
    return _table(["project", "files compiled", "kernels analysed (simu)", "kernel defs", "defs analysed",
                   "defs analysed+incomplete"], rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="scan projects and tabulate")
    r.add_argument("projects", nargs="+", type=Path)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--flags", action="store_true", help="the project's own build flags from the manifest")
    r.add_argument("--budget", type=float, default=1.0)
    r.add_argument("-j", "--jobs", type=int, default=2)
    for p in (r, t := sub.add_parser("table", help="tabulate kept scans")):
        p.add_argument("--md", type=Path)
        p.add_argument("--json", type=Path)
    t.add_argument("out", type=Path)
    c = sub.add_parser("compare", help="before/after")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "compare":
        print(compare(load(a.before), load(a.after)))
        return 0
    if a.cmd == "run":
        run(a.projects, a.out, a.flags, a.budget, a.jobs)
    reps = load(a.out)
    md = render(reps)
    if a.md:
        a.md.write_text(md)
    else:
        print(md)
    if a.json:
        a.json.write_text(json.dumps([x.to_dict() for x in reps], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
