"""The Finding model: one reportable problem, JSON-serialisable, replayable."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "performance", "info")
SEVERITY_RANK = {"error": 3, "warning": 2, "performance": 1, "info": 0}


@dataclass
class SourceLocation:
    file: str
    line: int
    column: int
    text: str = ""
    function: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class ThreadRef:
    block: tuple[int, int, int]
    thread: tuple[int, int, int]
    action: str = ""  # read | write | atomic

    def __str__(self) -> str:
        return f"thread {_dim(self.thread)} of block {_dim(self.block)}"


def _dim(t: tuple[int, int, int]) -> str:
    return "(" + ",".join(str(x) for x in t) + ")"


@dataclass
class LaunchRecord:
    """Everything needed to replay the launch that showed a finding."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    scalars: dict[str, Any] = field(default_factory=dict)
    buffers: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {dtype, length, fill?}
    seed: int = 0
    warp_size: int = 32
    dynamic_shared: int = 0


@dataclass
class Finding:
    kind: str  # race | benign-race | warp-race | barrier-divergence | redundant-barrier | out-of-bounds | ...
    severity: str
    kernel: str
    message: str
    first: SourceLocation | None = None
    second: SourceLocation | None = None
    space: str = ""  # shared | global | constant | private
    variable: str = ""
    element: int | None = None
    threads: list[ThreadRef] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)  # e.g. {"access": "write-write", "scope": "inter-warp"}
    launch: LaunchRecord | None = None
    count: int = 1

    @property
    def key(self) -> tuple:
        """De-duplication key: kind, the (unordered) pair of source locations and the access class."""
        locs = sorted(((l.file, l.line, l.column) for l in (self.first, self.second) if l is not None))
        return (self.kind, self.kernel, tuple(locs), self.detail.get("access", ""))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Finding":
        def loc(x):
            return SourceLocation(**x) if x else None

        launch = d.get("launch")
        lr = None
        if launch:
            lr = LaunchRecord(**{**launch, "grid": tuple(launch["grid"]), "block": tuple(launch["block"])})
        return Finding(
            kind=d["kind"], severity=d["severity"], kernel=d["kernel"], message=d["message"],
            first=loc(d.get("first")), second=loc(d.get("second")), space=d.get("space", ""),
            variable=d.get("variable", ""), element=d.get("element"),
            threads=[ThreadRef(tuple(t["block"]), tuple(t["thread"]), t.get("action", "")) for t in d.get("threads", [])],
            detail=d.get("detail", {}), launch=lr, count=d.get("count", 1))


def deduplicate(findings: list[Finding]) -> list[Finding]:
    """Merge findings with the same key, summing their dynamic counts (first one kept)."""
    seen: dict[tuple, Finding] = {}
    for f in findings:
        prev = seen.get(f.key)
        if prev is None:
            seen[f.key] = f
        else:
            prev.count += f.count
    return sorted(seen.values(), key=lambda f: (-SEVERITY_RANK[f.severity], f.first.line if f.first else 0, f.kind))
