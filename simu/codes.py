"""The one registry of names simu's stages share: severities, finding kinds, checks and statuses.

Detectors create findings of these kinds, the configuration validates severity overrides and
suppressions against them, and every reporter takes names, descriptions and help from here (the
way mypy's ``errorcodes`` serves its checker, options and formatters).  Pure data: importing this
module imports no analysis code.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- severities ---------------------------------------------------------------------------------------------
ERROR, WARNING, PERFORMANCE, INFO = "error", "warning", "performance", "info"
SEVERITIES = (ERROR, WARNING, PERFORMANCE, INFO)
SEVERITY_RANK = {ERROR: 3, WARNING: 2, PERFORMANCE: 1, INFO: 0}
FAIL_ON = (*SEVERITIES, "never")  # `--fail-on` / `fail-on`
SEVERITY_CHOICES = (*SEVERITIES, "off")  # `[tool.simu.severity]` values; off drops the kind

# -- checks (the detector modules a user selects with --checks) ----------------------------------------------
RACES, BARRIERS, MEMORY, PERF = "races", "barriers", "memory", "perf"
CHECK_NAMES = (RACES, BARRIERS, MEMORY, PERF)
DEFAULT_CHECKS = (RACES, BARRIERS, MEMORY)

# -- statuses of a kernel's analysis and of a file ----------------------------------------------------------
ANALYSED, INCOMPLETE, UNSUPPORTED, FAILED, TIMEOUT, INTERRUPTED, PENDING = (
    "analysed", "incomplete", "unsupported", "error", "timeout", "interrupted", "pending")
NOT_LAUNCHABLE = "not-launchable"  # no launch within a real GPU's limits (threads, shared memory)
ANALYSED_STATES = (ANALYSED, INCOMPLETE)  # something was judged
FILE_OK, COMPILE_ERROR = "ok", "compile-error"


@dataclass(frozen=True)
class Kind:
    """A finding kind: its id (in reports, configuration and suppressions), the check that emits it,
    its default severity and the texts reporters show."""

    id: str
    name: str  # CamelCase, as SARIF wants
    check: str
    severity: str
    short: str
    full: str
    help: str
    tags: tuple[str, ...] = ("concurrency",)


KINDS: tuple[Kind, ...] = (
    Kind("race", "DataRace", RACES, ERROR,
         "Data race between two threads",
         "Two threads access the same bytes of shared or global memory, at least one of them writes, the "
         "accesses are not both atomic, and no barrier or warp lockstep orders them. The result depends on the "
         "hardware schedule.",
         "Separate the two accesses with a barrier (__syncthreads() / barrier(CLK_LOCAL_MEM_FENCE)) that every "
         "thread of the block reaches, make the update atomic, or give each thread its own element. The finding "
         "names both source lines, the variable and element, the two threads and a launch that shows the race."),
    Kind("warp-race", "WarpSynchronousRace", RACES, WARNING,
         "Race between threads of one warp (independent thread scheduling)",
         "Two threads of the same warp access the same bytes without __syncwarp() between them. Under the "
         "lockstep warp model (pre-Volta GPUs) they are ordered; under independent thread scheduling (Volta and "
         "later) they are not.",
         "Insert __syncwarp() between the accesses (or use warp shuffles / cooperative groups), or declare the "
         "shared array volatile and keep warp-synchronous code only for lockstep hardware.",
         ("concurrency", "warp")),
    Kind("benign-race", "BenignRace", RACES, INFO,
         "Benign write-write race (all writers store the same value)",
         "Several threads write the same bytes without ordering, but every write stores the same value, so the "
         "result does not depend on the schedule. Such races are still undefined behaviour in the CUDA and "
         "OpenCL memory models.",
         "Let a single thread perform the write, or keep the pattern deliberately and suppress the finding."),
    Kind("barrier-divergence", "BarrierDivergence", BARRIERS, ERROR,
         "Barrier not reached by every thread of the block",
         "Threads of one block wait at different barriers, or some threads wait at a barrier while others have "
         "exited. The behaviour is undefined: a deadlock or a barrier that does not synchronize.",
         "Move the barrier out of the thread-dependent branch or loop so that every thread of the block "
         "executes it the same number of times.",
         ("concurrency", "barrier")),
    Kind("redundant-barrier", "RedundantBarrier", BARRIERS, WARNING,
         "Barrier that orders no conflicting accesses",
         "In every explored launch this barrier separated no pair of conflicting accesses from different warps: "
         "removing it would create no race. Barriers cost time; this one may be unnecessary, or it may be "
         "misplaced (a barrier elsewhere is missing).",
         "Check whether the barrier is needed; if it only orders accesses within single warps, __syncwarp() "
         "suffices. The search is not exhaustive, so confirm before removing it.",
         ("performance", "barrier")),
    Kind("out-of-bounds", "OutOfBoundsAccess", MEMORY, ERROR,
         "Memory access outside its allocation",
         "A thread reads or writes bytes outside the buffer, shared array or local variable the pointer "
         "points into.",
         "Guard the access with the buffer length (e.g. `if (i < n)`) or fix the index computation.",
         ("memory",)),
    Kind("null", "NullPointerAccess", MEMORY, ERROR,
         "Access through a null pointer",
         "A thread dereferences a null pointer.",
         "Check the pointer before dereferencing it.", ("memory",)),
    Kind("invalid-pointer", "InvalidPointerAccess", MEMORY, ERROR,
         "Access through a pointer into no allocation",
         "A thread dereferences a pointer that points into no allocation (freed, uninitialised or computed "
         "out of range).",
         "Fix the pointer computation.", ("memory",)),
    Kind("uninitialized", "UninitializedRead", MEMORY, WARNING,
         "Read of shared memory never written",
         "A thread reads shared/local memory that no thread has written in this launch.",
         "Initialise the shared array before reading it, with a barrier between the writes and the reads.",
         ("memory",)),
    Kind("bank-conflict", "SharedMemoryBankConflict", PERF, PERFORMANCE,
         "Shared-memory bank conflict",
         "Threads of one warp access different 4-byte words in the same shared-memory bank in one instruction, "
         "which serialises the access.",
         "Pad the shared array (e.g. [N][N+1]) or change the index pattern so that consecutive threads touch "
         "consecutive words.", ("performance",)),
    Kind("uncoalesced", "UncoalescedGlobalAccess", PERF, PERFORMANCE,
         "Uncoalesced global memory access",
         "A warp's global access touches many more 32-byte sectors than the minimum for its size.",
         "Make consecutive threads access consecutive addresses (structure of arrays, transposed layout, or "
         "staging through shared memory).", ("performance",)),
    Kind("divergent-branch", "DivergentBranch", PERF, PERFORMANCE,
         "Branch that splits warps",
         "Threads of one warp take different sides of this branch, so the warp executes both sides one after "
         "the other.",
         "Make the condition uniform per warp where possible.", ("performance",)),
)

KIND_BY_ID = {k.id: k for k in KINDS}
KIND_IDS = tuple(k.id for k in KINDS)


def kind(kind_id: str) -> Kind:
    """The registered kind; a kind added by a new check without registering gets a generic entry."""
    if kind_id in KIND_BY_ID:
        return KIND_BY_ID[kind_id]
    name = "".join(p.capitalize() for p in kind_id.replace("_", "-").split("-")) or "Finding"
    return Kind(kind_id, name, "", WARNING, f"{kind_id} finding", f"A '{kind_id}' finding reported by simu.",
                "See the finding's message.")


def severity_of(kind_id: str) -> str:
    return kind(kind_id).severity
