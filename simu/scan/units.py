"""Which files a scan compiles as translation units, from the include graph of the scanned set.

* A ``.cu`` (or ``.cl``) file that another scanned file ``#include``s is a fragment: it is not compiled on
  its own (it usually cannot be: it relies on its includer's context); its kernels are analysed through
  the includer, and the scan lists it as *included by* that file.
* A header under a scanned folder that defines kernels (``__global__``) and that no scanned file
  includes is compiled as a translation unit of its own (:mod:`simu.frontend.headers`).
* A kernel header or a fragment whose every compiled includer fails to compile is compiled on its own
  after all (``fallback``: the scan decides once those compiles are done).

Files that include each other in a cycle with no outside includer are all compiled on their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simu.errors import CompileError
from simu.frontend.compile import language_of
from simu.frontend.discover import IgnoreRules, walk
from simu.frontend.headers import defines_cuda_kernels, is_header
from simu.frontend.includes import HeaderIndex, IncludeInfo, resolve_includes


@dataclass
class UnitPlan:
    units: list[Path]  # what is compiled, in scan order
    included_by: dict[Path, Path] = field(default_factory=dict)  # fragment -> the scanned file that includes it
    infos: dict[Path, IncludeInfo] = field(default_factory=dict)  # include resolution of each scanned file
    # kernel header or fragment -> the compiled files that include it (compiled alone if they all fail)
    fallback: dict[Path, list[Path]] = field(default_factory=dict)


def kernel_headers(paths: list[Path], rules: IgnoreRules, among: set[Path] | None = None) -> list[Path]:
    """Headers under the scanned folders whose text defines a CUDA kernel; ``among``: only these files are
    considered (no walk: ``--changed``'s candidates), in the walk's order."""
    out: list[Path] = []
    for p in paths:
        if not p.is_dir():
            continue
        if among is None:
            files = walk(p, rules)
        else:
            top = p.resolve()
            files = sorted((f for f in among if top in f.parents), key=_walk_order)
        for f in files:
            if is_header(f):
                try:
                    text = f.read_text(errors="replace")
                except OSError:
                    continue
                if defines_cuda_kernels(text):
                    out.append(f)
    return out


def _walk_order(path: Path) -> tuple[str, ...]:
    """:func:`walk`'s order: a folder's files (by name) before its subfolders."""
    return (*path.parent.parts, "\0" + path.name)


def plan_units(sources: list[Path], headers: list[Path], include_dirs: list[Path], index: HeaderIndex | None,
               discover: bool = True) -> UnitPlan:
    """The translation units of a scan (see the module docstring).  Without ``index`` (no include
    discovery) only includes that resolve next to the includer or in ``include_dirs`` are followed."""
    candidates = list(dict.fromkeys([*sources, *headers]))
    infos: dict[Path, IncludeInfo] = {}
    for f in candidates:
        try:
            language = language_of(f)
        except CompileError:  # an unknown type: its compile fails later with its own message
            language = "cuda"
        infos[f] = resolve_includes(f, include_dirs, index if discover else None, language)
    scanned = set(candidates)
    includers: dict[Path, list[Path]] = {f: [] for f in candidates}
    for f in candidates:
        for h in sorted(infos[f].headers & scanned):
            if h != f:
                includers[h].append(f)
    roots = [f for f in candidates if not includers[f]]
    reached: set[Path] = set()
    for r in roots:
        reached |= infos[r].headers & scanned
    plan = UnitPlan([], infos=infos)
    header_set = set(headers) - set(sources)
    for f in candidates:
        if f in reached and f not in roots:
            if f not in header_set:
                plan.included_by[f] = next((i for i in includers[f] if i in roots), includers[f][0])
            continue
        if f in header_set and includers[f]:
            continue  # a header in an include cycle: its includers compile it
        plan.units.append(f)
    units = set(plan.units)
    for h in [*header_set, *plan.included_by]:
        through = [i for i in includers[h] if i in units]
        if through and h not in units:
            plan.fallback[h] = through
    return plan


__all__ = ["UnitPlan", "kernel_headers", "plan_units"]
