"""The Finding model: one reportable problem, frozen, JSON-serialisable, replayable.

Findings are values: a later stage (policy, validation) makes a new one with
:func:`dataclasses.replace`, never changes one in place.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import Any

from simu.codes import SEVERITY_RANK
from simu.launch.record import LaunchRecord


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int
    text: str = ""
    function: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class ThreadRef:
    block: tuple[int, int, int]
    thread: tuple[int, int, int]
    action: str = ""  # read | write | atomic

    def __str__(self) -> str:
        return f"thread {_dim(self.thread)} of block {_dim(self.block)}"


def _dim(t: tuple[int, int, int]) -> str:
    return "(" + ",".join(str(x) for x in t) + ")"


@dataclass(frozen=True)
class Site:
    """Where one finding a grouped finding stands for happened: its source lines and dynamic count."""

    first: SourceLocation | None
    second: SourceLocation | None = None
    count: int = 1

    @property
    def locations(self) -> tuple[SourceLocation, ...]:
        return tuple(loc for loc in (self.first, self.second) if loc is not None)


_IGNORE = re.compile(r"simu:\s*ignore(?:\[([^\]]*)\])?")


@dataclass(frozen=True)
class Finding:
    kind: str  # an id of simu.codes.KINDS
    severity: str
    kernel: str
    message: str
    first: SourceLocation | None = None
    second: SourceLocation | None = None
    space: str = ""  # shared | global | constant | private
    variable: str = ""
    element: int | None = None
    threads: tuple[ThreadRef, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)  # e.g. {"access": "write-write", "scope": "inter-warp"}
    launch: LaunchRecord | None = None
    count: int = 1
    # the other findings of one problem folded into this one (report/grouping.py): their sites, in order
    also: tuple[Site, ...] = ()

    @cached_property  # asked for every finding of every searched launch: computed once per finding
    def key(self) -> tuple:
        """De-duplication key: kind, the (unordered) pair of source locations and the access class."""
        locs = sorted(((loc.file, loc.line, loc.column) for loc in self.locations))
        return (self.kind, self.kernel, tuple(locs), self.detail.get("access", ""))

    @property
    def locations(self) -> tuple[SourceLocation, ...]:
        return tuple(loc for loc in (self.first, self.second) if loc is not None)

    @property
    def sites(self) -> tuple[Site, ...]:
        """Every site this finding stands for: its own, then the ones grouped into it."""
        return (Site(self.first, self.second, self.count), *self.also)

    @property
    def all_locations(self) -> tuple[SourceLocation, ...]:
        """The source locations of every site (its own two first)."""
        return tuple(loc for s in self.sites for loc in s.locations)

    def inline_suppression(self, line_text) -> str | None:
        """Why a `// simu: ignore[kind]` comment on either line hides this finding, or None.
        ``line_text(file, line)`` returns a source line."""
        for loc in self.locations:
            m = _IGNORE.search(line_text(loc.file, loc.line))
            if m is None:
                continue
            kinds = {k.strip() for k in (m.group(1) or "").split(",") if k.strip()}
            if not kinds or self.kind in kinds:
                return f"inline comment at line {loc.line}"
        return None

    def with_detail(self, **extra: Any) -> Finding:
        return replace(self, detail={**self.detail, **extra})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Finding:
        def loc(x):
            return SourceLocation(**x) if x else None

        launch = d.get("launch")
        return Finding(
            kind=d["kind"], severity=d["severity"], kernel=d["kernel"], message=d["message"],
            first=loc(d.get("first")), second=loc(d.get("second")), space=d.get("space", ""),
            variable=d.get("variable", ""), element=d.get("element"),
            threads=tuple(ThreadRef(tuple(t["block"]), tuple(t["thread"]), t.get("action", ""))
                          for t in d.get("threads", [])),
            detail=d.get("detail", {}), launch=LaunchRecord.from_dict(launch) if launch else None,
            count=d.get("count", 1),
            also=tuple(Site(loc(x.get("first")), loc(x.get("second")), x.get("count", 1)) for x in d.get("also", ())))


def sort_key(f: Finding) -> tuple:
    return (-SEVERITY_RANK.get(f.severity, 0), f.first.line if f.first else 0, f.kind)


def deduplicate(findings: list[Finding]) -> list[Finding]:
    """Merge findings with the same key, summing their dynamic counts (the first one's details kept)."""
    seen: dict[tuple, Finding] = {}
    for f in findings:
        prev = seen.get(f.key)
        seen[f.key] = f if prev is None else replace(prev, count=prev.count + f.count)
    return sorted(seen.values(), key=sort_key)
