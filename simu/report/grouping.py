"""Grouping: the findings of one kernel that are one problem become one finding listing its sites.

A launch outside the program's contract (a buffer length the search chose, contents the search drew)
shows the same problem at every line that touches the buffer: shoc's s3d chemistry kernels give
hundreds of out-of-bounds warnings on one buffer with one assumption, one per `RF(k)` line.  Reported
one by one they bury everything else; reported once, with every line listed, they are one thing to
judge.

The rule (:func:`group_key`):

- A finding below error (a warning, performance finding or note) joins the findings of its kernel
  with the same kind, memory space, variable and severity and the same assumption
  (``detail["assumption_key"]``: which assumption the launch breaks -- the length of 'x', the buffer
  contents, the block a shared tile was written for, arguments n and m, build options assumed -- not the
  numbers of each finding's witness, which the clause ``detail["assumption"]`` names; or none).  A
  finding with no variable (barrier divergence, a redundant barrier) is never grouped: each is its own
  barrier.
- An error (no assumption) is grouped only where it is clearly one defect, always within one witness
  launch: out-of-bounds accesses of one variable on the same side of it (before its start or past its
  end) -- one launch overflowing one buffer at several lines is one buffer or tile sized short of what
  the launch indexes (one missing guard or size); and races of one variable *between blocks* with the
  same access class -- nothing orders two blocks of a launch, so no barrier is missing: which elements
  each block touches is the one defect (shoc's DeviceMemory write benchmarks: 136 line pairs of one
  unrolled loop).  Races within a block are never grouped: each pair may be its own missing barrier
  (a tile written, read, written again needs two).  The severity is part of the key, so an error is
  never folded into a warning.

The grouped finding is its earliest site in full (message, threads, launch, count); the other sites
(their source lines and dynamic counts) are ``Finding.also``, in source order.  Grouping runs last in
:func:`simu.report.policy.apply_policy`: overrides and suppressions judge each site first.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, replace

from simu.codes import ERROR
from simu.detect.finding import Finding, Site, sort_key

ASSUMPTION = "assumption"  # the Finding.detail keys pipeline.beyond_contract writes: the clause,
ASSUMPTION_KEY = "assumption_key"  # and which assumption it is without the witness's numbers
OUT_OF_BOUNDS = "out-of-bounds"
RACE = "race"
INTER_BLOCK = "inter-block"  # detail["scope"] of a race between threads of different blocks


def group_key(f: Finding) -> tuple | None:
    """What a finding shares with the others of its problem; None: it is never grouped."""
    if not f.variable:
        return None
    assumption = f.detail.get(ASSUMPTION)
    which = f.detail.get(ASSUMPTION_KEY) or (re.sub(r"\d+", "#", str(assumption)) if assumption else "")
    base = (f.kind, f.kernel, f.space, f.variable, f.severity, str(which))
    if f.severity != ERROR:
        return base
    if assumption or f.launch is None:
        return None
    if f.kind == OUT_OF_BOUNDS:
        offset = f.detail.get("offset")
        what = "before" if isinstance(offset, int) and offset < 0 else "past"
    elif f.kind == RACE and f.detail.get("scope") == INTER_BLOCK:
        what = str(f.detail.get("access", ""))
    else:
        return None
    return (*base, what, json.dumps(asdict(f.launch), sort_keys=True, default=str))


def _site_order(s: Site) -> tuple:
    first = s.first
    return (first.line, first.file, first.column) if first is not None else (0, "", 0)


def group_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per problem (see the module's rule), in ``sort_key`` order."""
    groups: dict[tuple, list[Finding]] = {}
    out: list[Finding | tuple] = []
    for f in findings:
        key = group_key(f)
        if key is None:
            out.append(f)
            continue
        if key not in groups:
            groups[key] = []
            out.append(key)
        groups[key].append(f)
    result = [x if isinstance(x, Finding) else _merge(groups[x]) for x in out]
    return sorted(result, key=sort_key)


def _merge(members: list[Finding]) -> Finding:
    if len(members) == 1 and not members[0].also:
        return members[0]
    lead = min(members, key=lambda f: _site_order(f.sites[0]))
    others = [s for f in members for s in (f.sites[1:] if f is lead else f.sites)]
    return replace(lead, also=tuple(sorted(others, key=_site_order)))


def site_count(findings: list[Finding]) -> int:
    """How many sites the findings stand for (a finding that groups none is one)."""
    return sum(1 + len(f.also) for f in findings)


def other_lines(f: Finding) -> list[tuple[str, int]]:
    """The (file, line) of every grouped site's source lines that the finding's own lines do not show,
    in source order."""
    own = {(loc.file, loc.line) for loc in f.locations}
    seen: dict[tuple[str, int], None] = {}
    for s in f.also:
        for loc in s.locations:
            if (loc.file, loc.line) not in own:
                seen.setdefault((loc.file, loc.line), None)
    return sorted(seen, key=lambda fl: (fl[0] != (f.first.file if f.first else ""), fl[0], fl[1]))


def line_ranges(lines: list[int]) -> list[str]:
    """Sorted line numbers as runs: [3, 4, 5, 9] -> ['3-5', '9']."""
    out: list[str] = []
    start = prev = None
    for n in sorted(set(lines)):
        if prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(f"{start}-{prev}" if prev != start else str(start))
        start = prev = n
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else str(start))
    return out
