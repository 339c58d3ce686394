"""One rule per finding kind: names, descriptions and help text (SARIF rules, config validation, docs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str  # the finding kind
    name: str  # CamelCase, as SARIF wants
    severity: str  # default severity of the kind
    short: str
    full: str
    help: str
    tags: tuple[str, ...] = ("concurrency",)


RULES: tuple[Rule, ...] = (
    Rule("race", "DataRace", "error",
         "Data race between two threads",
         "Two threads access the same bytes of shared or global memory, at least one of them writes, the "
         "accesses are not both atomic, and no barrier or warp lockstep orders them. The result depends on the "
         "hardware schedule.",
         "Separate the two accesses with a barrier (__syncthreads() / barrier(CLK_LOCAL_MEM_FENCE)) that every "
         "thread of the block reaches, make the update atomic, or give each thread its own element. The finding "
         "names both source lines, the variable and element, the two threads and a launch that shows the race."),
    Rule("warp-race", "WarpSynchronousRace", "warning",
         "Race between threads of one warp (independent thread scheduling)",
         "Two threads of the same warp access the same bytes without __syncwarp() between them. Under the "
         "lockstep warp model (pre-Volta GPUs) they are ordered; under independent thread scheduling (Volta and "
         "later) they are not.",
         "Insert __syncwarp() between the accesses (or use warp shuffles / cooperative groups), or declare the "
         "shared array volatile and keep warp-synchronous code only for lockstep hardware.",
         ("concurrency", "warp")),
    Rule("benign-race", "BenignRace", "info",
         "Benign write-write race (all writers store the same value)",
         "Several threads write the same bytes without ordering, but every write stores the same value, so the "
         "result does not depend on the schedule. Such races are still undefined behaviour in the CUDA and "
         "OpenCL memory models.",
         "Let a single thread perform the write, or keep the pattern deliberately and suppress the finding."),
    Rule("barrier-divergence", "BarrierDivergence", "error",
         "Barrier not reached by every thread of the block",
         "Threads of one block wait at different barriers, or some threads wait at a barrier while others have "
         "exited. The behaviour is undefined: a deadlock or a barrier that does not synchronize.",
         "Move the barrier out of the thread-dependent branch or loop so that every thread of the block "
         "executes it the same number of times.",
         ("concurrency", "barrier")),
    Rule("redundant-barrier", "RedundantBarrier", "warning",
         "Barrier that orders no conflicting accesses",
         "In every explored launch this barrier separated no pair of conflicting accesses from different warps: "
         "removing it would create no race. Barriers cost time; this one may be unnecessary, or it may be "
         "misplaced (a barrier elsewhere is missing).",
         "Check whether the barrier is needed; if it only orders accesses within single warps, __syncwarp() "
         "suffices. The search is not exhaustive, so confirm before removing it.",
         ("performance", "barrier")),
    Rule("out-of-bounds", "OutOfBoundsAccess", "error",
         "Memory access outside its allocation",
         "A thread reads or writes bytes outside the buffer, shared array or local variable the pointer "
         "points into.",
         "Guard the access with the buffer length (e.g. `if (i < n)`) or fix the index computation.",
         ("memory",)),
    Rule("null", "NullPointerAccess", "error",
         "Access through a null pointer",
         "A thread dereferences a null pointer.",
         "Check the pointer before dereferencing it.", ("memory",)),
    Rule("invalid-pointer", "InvalidPointerAccess", "error",
         "Access through a pointer into no allocation",
         "A thread dereferences a pointer that points into no allocation (freed, uninitialised or computed "
         "out of range).",
         "Fix the pointer computation.", ("memory",)),
    Rule("uninitialized", "UninitializedRead", "warning",
         "Read of shared memory never written",
         "A thread reads shared/local memory that no thread has written in this launch.",
         "Initialise the shared array before reading it, with a barrier between the writes and the reads.",
         ("memory",)),
    Rule("bank-conflict", "SharedMemoryBankConflict", "performance",
         "Shared-memory bank conflict",
         "Threads of one warp access different 4-byte words in the same shared-memory bank in one instruction, "
         "which serialises the access.",
         "Pad the shared array (e.g. [N][N+1]) or change the index pattern so that consecutive threads touch "
         "consecutive words.", ("performance",)),
    Rule("uncoalesced", "UncoalescedGlobalAccess", "performance",
         "Uncoalesced global memory access",
         "A warp's global access touches many more 32-byte sectors than the minimum for its size.",
         "Make consecutive threads access consecutive addresses (structure of arrays, transposed layout, or "
         "staging through shared memory).", ("performance",)),
    Rule("divergent-branch", "DivergentBranch", "performance",
         "Branch that splits warps",
         "Threads of one warp take different sides of this branch, so the warp executes both sides one after "
         "the other.",
         "Make the condition uniform per warp where possible.", ("performance",)),
)

RULE_BY_ID = {r.id: r for r in RULES}
KNOWN_KINDS = tuple(r.id for r in RULES)


def rule_for(kind: str) -> Rule:
    """The rule of a finding kind; kinds added by a new check get a generic rule."""
    if kind in RULE_BY_ID:
        return RULE_BY_ID[kind]
    name = "".join(p.capitalize() for p in kind.replace("_", "-").split("-")) or "Finding"
    return Rule(kind, name, "warning", f"{kind} finding", f"A '{kind}' finding reported by simu.",
                "See the finding's message.")
