"""Which host files the index reads through clang, and their facts cached with the index's file entries.

Only what can reach a launch is parsed: files that launch (``<<<``, or OpenCL's ``clEnqueueNDRangeKernel`` /
``clSetKernelArg``, the C++ bindings' ``enqueueNDRangeKernel``/``setArg``: :mod:`simu.host.ast.opencl`), directly or in
a project header they include (a launch written in an included header, or through a macro whose body launches:
``LAUNCH_2D(k, nx, ny, …)``), then files that call a function holding a launch or a call to one (up to :data:`LEVELS`
levels up), and files that assign a field or global a launch reads (``net->hidden_n = hidden`` in another file's
``create()``). Names are matched lexically before clang is asked."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from simu.frontend.ctext import comment_free
from simu.frontend.includes import HeaderIndex
from simu.host.ast.expr import Field, _children, from_json, to_json
from simu.host.ast.facts import CallFact, FunctionFacts, LaunchFact
from simu.host.ast.opencl import CALLS as OPENCL_CALLS
from simu.host.ast.program import read_host_file
from simu.host.launchmacros import FUNCTION_MACRO

LEVELS = 4  # caller levels followed up from the functions that launch
READERS = max(1, min(8, os.cpu_count() or 1))  # clang processes reading host files side by side
MAX_HEADER_INCLUDERS = 8  # a header more sources include is shared infrastructure: its calls bring none of them in
SOURCES = {".cu", ".hip", ".cpp", ".cc", ".cxx", ".c", ".c++"}
_LAUNCH = re.compile(r"<<\s*<|\bcl(?:EnqueueNDRangeKernel|SetKernelArg)\s*\(|\bcudaLaunch(?:Cooperative)?Kernel\s*[<(]|"
                     r"\bhipLaunchKernelGGL\s*\(|\.(?:enqueueNDRangeKernel|setArg)\s*\(")  # last: OpenCL's C++ API
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_FAILURES = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError)


def program_facts(root: Path, texts: dict[str, str], entries: dict[str, dict],
                  read: Callable[[Path], list[FunctionFacts] | None] | None = None, keep: bool = True,
                  included: dict[str, list[str]] | None = None) -> tuple[list[FunctionFacts], list[str], list[str]]:
    """The facts of the host files (``texts``: relative path -> text) that can reach a launch, each read once per
    cache entry (``entries``: the index's cache entries by relative path, where ``"ast"`` keeps them; ``keep``
    false: no cache keeps them, so they are not written out); the files read, and those clang gave no AST for.
    ``included``: the project headers (relative paths) each file includes."""
    headers: list[HeaderIndex] = []  # made on first use: it walks the project

    def read_one(p: Path) -> list[FunctionFacts] | None:
        if not headers:
            headers.append(HeaderIndex(root))
            headers[0].by_name  # noqa: B018 -- built once, before reads run side by side
        return read_host_file(p, root, headers=headers[0])

    read = read or read_one
    sources = {rel: t for rel, t in texts.items() if Path(rel).suffix.lower() in SOURCES}
    done: dict[str, list[FunctionFacts]] = {}
    failed: list[str] = []

    def cached(rel: str) -> list[FunctionFacts] | None:
        entry = entries.get(rel)
        if entry is None or "ast" not in entry:
            return None
        try:
            return facts_from_json(entry["ast"]) if entry["ast"] is not None else []
        except _FAILURES:
            return None

    def attempt(rel: str) -> list[FunctionFacts] | None:
        try:
            return read(root / rel)
        except _FAILURES:
            return None

    def load(rels: list[str]) -> None:
        """Read the files of ``rels`` not read yet: from the cache entries, else through clang, side by side (each
        a clang process; the first alone: it builds the precompiled prelude when that is missing), kept in the
        order of ``rels`` whatever the order they finish in."""
        todo = [rel for rel in dict.fromkeys(rels) if rel not in done]
        known = {rel: facts for rel in todo if (facts := cached(rel)) is not None}
        missing = [rel for rel in todo if rel not in known]
        results = [attempt(rel) for rel in missing[:1]]
        if len(missing) > 1:
            with ThreadPoolExecutor(max_workers=min(READERS, len(missing) - 1)) as pool:
                results += list(pool.map(attempt, missing[1:]))
        read_now = dict(zip(missing, results, strict=True))
        for rel in todo:
            if rel in known:
                done[rel] = known[rel]
                if entries[rel]["ast"] is None:
                    failed.append(rel)
                continue
            facts = read_now[rel]
            if facts is None:
                failed.append(rel)
            done[rel] = facts or []
            entry = entries.get(rel)
            if entry is not None and keep:
                entry["ast"] = facts_to_json(facts) if facts is not None else None

    load(launching_files(root, texts, sources, included or {}))
    targets: set[str] = set()
    fields: set[str] = set()
    counted: set[int] = set()  # functions whose fields are counted
    for _ in range(LEVELS + 1):
        new: set[str] = set()
        helpers: set[str] = set()  # functions launching a kernel their callers pass (``linear_kernel(k, n, …)``)
        for rel in list(done):
            for f in done[rel]:
                if f.launches or {c.callee for c in f.calls} & (targets | OPENCL_CALLS):
                    new.add(f.name)
                    if any(x.kernel_param is not None for x in f.launches):
                        helpers.add(f.name)
                    if id(f) not in counted:
                        counted.add(id(f))
                        fields |= _fields_read(f)
        new -= targets
        targets |= new
        if not new:
            break
        load(_calling(_names_called(new), _names_called(helpers & new), sources, texts, included or {}, done))
    if fields:
        writes = re.compile(r"(?:->|\.)\s*(?:" + "|".join(re.escape(n) for n in sorted(fields)) + r")\s*=[^=]")
        load([rel for rel, t in sources.items() if rel not in done and writes.search(t)])
    # a header's functions come once per file including it: kept once (compared only with their namesakes at the
    # same place, template instantiations among them)
    kept: dict[tuple, list[FunctionFacts]] = {}
    out: list[FunctionFacts] = []
    for facts in done.values():
        for f in facts:
            same = kept.setdefault((f.name, f.file, f.line, f.params), [])
            if f not in same:
                same.append(f)
                out.append(f)
    return out, sorted(set(done) - set(failed)), sorted(failed)


def _names_called(names: set[str]) -> re.Pattern | None:
    """A pattern for a call of one of ``names`` (None when there is none)."""
    names = {n for n in names if n}
    return re.compile(r"(?<![\w.>])(?:" + "|".join(map(re.escape, sorted(names))) + r")\s*[<(]") if names else None


def _calling(pattern: re.Pattern | None, helpers: re.Pattern | None, sources: dict[str, str], texts: dict[str, str],
             included: dict[str, list[str]], done: dict) -> list[str]:
    """The sources not read yet that call a function ``pattern`` names in their own text, or a launch helper
    ``helpers`` names (it launches the kernel its caller passes) in a project header they include (a class template's
    method in a header, instantiated by the source that includes it) that at most :data:`MAX_HEADER_INCLUDERS`
    sources include: a header most of a project includes is its shared infrastructure, and reading every source
    through it would cost what indexing the whole project through clang does."""
    if pattern is None:
        return []
    includers: dict[str, int] = {}
    for rel in sources:
        for h in included.get(rel, ()):
            includers[h] = includers.get(h, 0) + 1
    calling_headers = {h for h, t in texts.items() if helpers is not None and h not in sources
                       and 0 < includers.get(h, 0) <= MAX_HEADER_INCLUDERS and helpers.search(t)}
    return [rel for rel, t in sources.items() if rel not in done
            and (pattern.search(t) or calling_headers.intersection(included.get(rel, ())))]


def launching_files(root: Path, texts: dict[str, str], sources: dict[str, str],
                    included: dict[str, list[str]]) -> list[str]:
    """The sources that launch: in their own text, or in a project header they include (``included``); a use of a
    function-like macro of the project whose body launches counts as a launch."""
    macros = {m.group(1) for t in texts.values() if "define" in t and _LAUNCH.search(t)
              for m in FUNCTION_MACRO.finditer(comment_free(t)) if _LAUNCH.search(m.group(3))}
    use = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(macros))) + r")\s*\(") if macros else None
    launches: dict[str, bool] = {}

    def launch_in(rel: str) -> bool:
        if rel not in launches:
            text = texts.get(rel)
            if text is None:
                try:
                    text = (root / rel).read_text(errors="replace")
                except OSError:
                    text = ""
            code = _DIRECTIVE.sub("", text) if "#" in text else text
            launches[rel] = bool(_LAUNCH.search(code) or use is not None and use.search(code))
        return launches[rel]

    return [rel for rel, t in sources.items()
            if _LAUNCH.search(t) or launch_in(rel) or any(launch_in(h) for h in included.get(rel, ()))]


def _fields_read(f: FunctionFacts) -> set[str]:
    """The field names a function's launches and calls read."""
    out: set[str] = set()
    seen: set[int] = set()  # expressions share subtrees: each node once

    def walk(e: object) -> None:
        if id(e) in seen:
            return
        seen.add(id(e))
        if isinstance(e, Field) and e.record != "::":
            out.add(e.name)
        for c in _children(e):
            walk(c)

    for x in f.launches:
        for part in (x.grid, x.block, x.shmem, *x.args, *(c for c, _ in x.conditions)):
            walk(part)
    for c in f.calls:
        for a in (*c.args, *(e for e, _ in c.conditions)):
            walk(a)
    return out


def facts_to_json(fs: list[FunctionFacts]) -> list[dict[str, Any]]:
    def row(x: Any) -> dict[str, Any]:
        return {k: to_json(getattr(x, k)) for k in x.__dataclass_fields__}

    return [{**row(f), "launches": [row(x) for x in f.launches], "calls": [row(c) for c in f.calls]} for f in fs]


def facts_from_json(rows: list[dict[str, Any]]) -> list[FunctionFacts]:
    out = []
    for r in rows:
        d = from_json(r)
        d["launches"] = tuple(LaunchFact(**x) for x in d.get("launches", ()))
        d["calls"] = tuple(CallFact(**x) for x in d.get("calls", ()))
        out.append(FunctionFacts(**d))
    return out
