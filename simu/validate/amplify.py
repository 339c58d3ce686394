"""Schedule amplification on a device: run an OpenCL kernel with its work-groups (and warps of
work-items) in a chosen order, after CLFuzz's idea of permuting group ids.

An OpenCL device executes physical work-groups in an order of its own (PoCL's CPU driver walks
them roughly in id order over its worker threads).  The rewritten kernel gives each *physical*
group a *logical* group id through a permutation, so the logical groups run in the permuted
order, and likewise permutes warp-sized chunks of work-items inside each group (PoCL runs the
work-items of a group one chunk after another between barriers).  The same
:class:`~simu.launch.model.Schedule` drives simu's machine, so both sides see "block 3 first,
then block 0, ..." for the same schedule.

The rewrite is textual and small:

* a prelude defines ``__simu_group_id(d, p)``, ``__simu_local_id(d, p)`` and
  ``__simu_global_id(d, p)`` (written with the real work-item functions), then
  ``#define get_group_id(d) __simu_group_id((uint)(d), __simu_perm)`` and the same for
  ``get_local_id``, ``get_global_id``, ``get_local_linear_id`` and ``get_global_linear_id``,
  then ``#line 1`` so that diagnostics keep the user's line numbers;
* strategy ``"argument"`` (one build for every schedule): each ``__kernel`` signature gets a
  last parameter ``__global const uint *__simu_perm``, found by scanning the source with
  comments and strings masked out and matching the parameter list's parentheses;
* strategy ``"constant"`` (one build per schedule): the permutation is a program-scope
  ``__constant uint __simu_perm[]`` array and no signature changes.  Used automatically when
  the argument build fails, i.e. when a non-kernel helper function calls a work-item function
  (``__simu_perm`` is not in scope there), when a kernel calls another kernel, or when a
  kernel's signature is produced by a macro.

Limits: ``get_num_groups``, ``get_local_size``, ``get_global_size`` and ``get_global_offset``
are unchanged (a permutation does not change sizes); sub-group functions see physical
work-items, so the work-item permutation is switched off for sources that use sub-groups (the
group permutation stays); a kernel that relies on which *physical* work-items run together
(lockstep warp-synchronous code) may behave differently on the device under a work-item
permutation, which is a legitimate outcome of its race; the rewrite does not look inside
``#include``d files other than through the compiler (they see the macros, like the source).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simu.launch.model import Launch, Schedule

PERM_PARAM = "__simu_perm"

_HELPERS = r"""
uint __simu_group_linear(void) {
    return (uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}
size_t __simu_group_id(uint d, __SIMU_SPACE const uint *p) {
    const size_t g = p[2u + __simu_group_linear()];
    if (d == 0u) return g % get_num_groups(0);
    if (d == 1u) return (g / get_num_groups(0)) % get_num_groups(1);
    if (d == 2u) return g / (get_num_groups(0) * get_num_groups(1));
    return 0;
}
size_t __simu_local_linear(__SIMU_SPACE const uint *p) {
    const size_t l = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    const size_t w = p[1];
    if (w == 0) return l;
    const size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    const size_t c = l / w;
    if ((c + 1) * w > n) return l;  /* a trailing partial warp stays in place */
    return (size_t)p[2u + p[0] + c] * w + l % w;
}
size_t __simu_local_id(uint d, __SIMU_SPACE const uint *p) {
    const size_t l = __simu_local_linear(p);
    if (d == 0u) return l % get_local_size(0);
    if (d == 1u) return (l / get_local_size(0)) % get_local_size(1);
    if (d == 2u) return l / (get_local_size(0) * get_local_size(1));
    return 0;
}
size_t __simu_global_id(uint d, __SIMU_SPACE const uint *p) {
    if (d > 2u) return 0;
    return __simu_group_id(d, p) * get_local_size(d) + __simu_local_id(d, p) + get_global_offset(d);
}
size_t __simu_global_linear(__SIMU_SPACE const uint *p) {
    return ((__simu_global_id(2, p) - get_global_offset(2)) * get_global_size(1)
            + (__simu_global_id(1, p) - get_global_offset(1))) * get_global_size(0)
           + (__simu_global_id(0, p) - get_global_offset(0));
}
#define get_group_id(d) __simu_group_id((uint)(d), __simu_perm)
#define get_local_id(d) __simu_local_id((uint)(d), __simu_perm)
#define get_global_id(d) __simu_global_id((uint)(d), __simu_perm)
#define get_local_linear_id() __simu_local_linear(__simu_perm)
#define get_global_linear_id() __simu_global_linear(__simu_perm)
"""

_SUBGROUP = re.compile(r"\b(sub_group_\w+|get_sub_group_\w+|get_num_sub_groups|get_max_sub_group_size|"
                       r"get_enqueued_num_sub_groups|intel_sub_group_\w+)\s*\(")


def mask_comments_and_strings(source: str) -> str:
    """The source with comments, string and character literals blanked (same length, newlines kept)."""
    out = list(source)
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i + 1, j - 1):
                out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class KernelSignature:
    name: str
    open_paren: int   # index of "(" of the parameter list
    close_paren: int  # index of the matching ")"
    empty: bool       # "()" or "(void)"


_KERNEL_KW = re.compile(r"\b(__kernel|kernel)\b")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def kernel_signatures(source: str) -> list[KernelSignature]:
    """Every ``__kernel``/``kernel`` function declarator in the source (definitions and prototypes)."""
    text = mask_comments_and_strings(source)
    # blank preprocessor lines too: "#define KERNEL __kernel" is not a kernel
    text = re.sub(r"(?m)^[ \t]*#.*(?:\\\n.*)*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out: list[KernelSignature] = []
    for m in _KERNEL_KW.finditer(text):
        i = m.end()
        last_ident = None
        while i < len(text):
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                break
            im = _IDENT.match(text, i)
            if im and im.group(0) in ("__attribute__", "__attribute"):
                i = im.end()
                while i < len(text) and text[i].isspace():
                    i += 1
                if i < len(text) and text[i] == "(":
                    close = _match_paren(text, i)
                    if close < 0:
                        break
                    i = close + 1
                continue
            if im:
                last_ident = im.group(0)
                i = im.end()
                continue
            if text[i] == "*":
                i += 1
                continue
            if text[i] == "(" and last_ident:
                close = _match_paren(text, i)
                if close < 0:
                    break
                inner = text[i + 1:close].strip()
                out.append(KernelSignature(last_ident, i, close, inner in ("", "void")))
            break
    return out


def _match_paren(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def uses_subgroups(source: str) -> bool:
    return bool(_SUBGROUP.search(mask_comments_and_strings(source)))


def permuted_source(source: str, strategy: str = "argument", perm: np.ndarray | None = None) -> str:
    """The source rewritten to read group and work-item ids through ``__simu_perm``.

    ``strategy="argument"``: every kernel takes ``__global const uint *__simu_perm`` as its last
    parameter (pass :func:`permutation_buffer` there).  ``strategy="constant"``: ``perm`` is
    baked into the program as a ``__constant`` array.
    """
    if strategy == "argument":
        sigs = kernel_signatures(source)
        parts = []
        last = 0
        for s in sigs:
            if s.empty:
                parts.append(source[last:s.open_paren + 1])
                parts.append(f"__global const uint *{PERM_PARAM}")
                last = s.close_paren
            else:
                parts.append(source[last:s.close_paren])
                parts.append(f", __global const uint *{PERM_PARAM}")
                last = s.close_paren
        parts.append(source[last:])
        body = "".join(parts)
        prelude = "#define __SIMU_SPACE __global\n" + _HELPERS
    elif strategy == "constant":
        if perm is None:
            raise ValueError("the constant strategy needs the permutation")
        values = ", ".join(f"{int(v)}u" for v in np.asarray(perm).reshape(-1))
        body = source
        prelude = ("#define __SIMU_SPACE __constant\n"
                   f"__constant uint {PERM_PARAM}[{len(np.asarray(perm).reshape(-1))}] = {{{values}}};\n" + _HELPERS)
    else:
        raise ValueError(f"unknown strategy {strategy!r} (argument or constant)")
    return prelude + "#line 1\n" + body


def permutation_buffer(launch: Launch, schedule: Schedule | None, permute_items: bool = True) -> np.ndarray:
    """The ``__simu_perm`` contents for ``schedule`` (identity when ``None``).

    Layout: ``[G, W, group_perm[0..G), chunk_perm[0..C)]`` where physical group ``g`` takes
    logical group ``group_perm[g]`` and physical chunk ``c`` of ``W`` work-items takes logical
    warp ``chunk_perm[c]``; ``W = 0`` leaves work-items alone.
    """
    G = launch.num_blocks
    W = (schedule.unit if schedule is not None and schedule.unit else None) or launch.warp_size
    chunks = -(-launch.threads_per_block // W)
    groups = np.arange(G, dtype=np.uint32) if schedule is None or schedule.block_order is None \
        else np.asarray(schedule.block_order, np.uint32)
    if len(groups) != G or sorted(groups.tolist()) != list(range(G)):
        raise ValueError(f"block order is not a permutation of {G} groups")
    order = None if schedule is None else schedule.warp_order
    if not permute_items or order is None or W >= launch.threads_per_block:
        return np.concatenate([np.array([G, 0], np.uint32), groups, np.zeros(chunks, np.uint32)])
    warps = np.asarray(order, np.uint32)
    if len(warps) != chunks or sorted(warps.tolist()) != list(range(chunks)):
        raise ValueError(f"warp order is not a permutation of {chunks} warps")
    full = launch.threads_per_block // W
    if full < chunks and int(warps[-1]) != full:
        raise ValueError("a trailing partial warp must stay last in the warp order")
    return np.concatenate([np.array([G, W], np.uint32), groups, warps])


def device_schedules(launch: Launch, count: int, seed: int = 0, *, warps: bool = True) -> list[Schedule]:
    """``count`` schedules for amplification: reversed order first, then random ones from ``seed``."""
    out: list[Schedule] = []
    if count <= 0:
        return out
    out.append(Schedule.reverse(launch, warps=warps))
    for i in range(1, count):
        out.append(Schedule.random(launch, seed * 1000 + i, warps=warps))
    return out
