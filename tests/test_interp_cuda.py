"""CUDA kernels run on the SIMT machine (simu.interp), checked against numpy references.

Kernel sources live in tests/cuda_kernels/*.cu; each file is compiled once per test process
(``_module``).  Every kernel runs over at least two launches, including non-power-of-two sizes
and 2-D/3-D blocks and grids where the kernel is written for them.  Results checked here never
depend on the order in which the machine runs threads (atomics are checked through
order-independent properties).

The tests at the end pin interpreter bugs that were found and fixed.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from simu.api import load_source
from simu.interp import Limits, run
from simu.launch import Launch

KERNELS = Path(__file__).resolve().parent / "cuda_kernels"
FULL = 0xFFFFFFFF


@functools.lru_cache(maxsize=None)
def _module(name: str):
    return load_source((KERNELS / name).read_text(), "cuda", path=name)


def _src_module(src: str, name: str):
    return load_source(src, "cuda", path=name)


def _run(module, kernel, grid, block, args, **kw):
    limits = kw.pop("limits", None)
    r = run(module, kernel, Launch(grid=grid, block=block, args=args, **kw), limits=limits)
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors, r.memory_errors[:3]
    assert not r.trace.divergences, r.trace.divergences[:3]
    return r


def _zeros(n, dtype=np.int32):
    return np.zeros(n, dtype)


def _nthreads(grid, block):
    return int(np.prod(grid)) * int(np.prod(block))


def _rng(seed):
    return np.random.default_rng(seed)


# ==============================================================================================
# Warp shuffles
# ==============================================================================================

def shfl_reference(v, tpb, width, mode, arg, warp=32):
    """PTX shfl.sync semantics over segments of ``width`` lanes of each ``warp``-lane warp."""
    T = len(v)
    g = np.arange(T)
    lane = (g % tpb) % warp
    base = g - lane
    seg = lane - lane % width
    arg = np.broadcast_to(np.asarray(arg, np.int64), (T,))
    if mode == "idx":
        j = seg + arg % width
        ok = np.ones(T, bool)
    elif mode == "up":
        j = lane - arg
        ok = j >= seg
    elif mode == "down":
        j = lane + arg
        ok = j < seg + width
    else:
        j = lane ^ arg
        ok = (j >= seg) & (j < seg + width)
    src = np.where(ok, base + j, g)
    return v[src]


SHFL_TYPES = {"int": np.int32, "float": np.float32, "double": np.float64, "long long": np.int64}


def _shfl_input(dtype, n, seed):
    r = _rng(seed)
    if dtype == np.int64:
        return (r.integers(-2**62, 2**62, n, dtype=np.int64))  # both halves matter
    if dtype == np.int32:
        return r.integers(-2**31, 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    return (r.standard_normal(n) * 1e3).astype(dtype)


@pytest.mark.parametrize("ctype", list(SHFL_TYPES))
@pytest.mark.parametrize("grid,block,width,src_mul,delta,lane_mask", [
    ((2, 1, 1), (64, 1, 1), 32, 5, 3, 17),
    ((1, 2, 1), (16, 4, 2), 16, 3, 5, 6),    # 2-D grid, 3-D block of 128 threads
    ((3, 1, 1), (32, 3, 1), 8, 7, 2, 5),     # 3 blocks of 96 threads
    ((1, 1, 1), (96, 1, 1), 4, 1, 1, 3),
])
def test_shuffle_modes(ctype, grid, block, width, src_mul, delta, lane_mask):
    m = _module("warp.cu")
    dt = SHFL_TYPES[ctype]
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    v = _shfl_input(dt, n, seed=n + width)
    outs = {k: np.zeros(n, dt) for k in ("o_idx", "o_up", "o_down", "o_xor")}
    r = _run(m, f"shfl_modes<{ctype}>", grid, block,
             {"in": v, **outs, "width": width, "src_mul": src_mul, "delta": delta, "lane_mask": lane_mask})
    lane = (np.arange(n) % tpb) % 32
    np.testing.assert_array_equal(r.buffers["o_idx"], shfl_reference(v, tpb, width, "idx", (lane * src_mul + 1) % 32))
    np.testing.assert_array_equal(r.buffers["o_up"], shfl_reference(v, tpb, width, "up", delta))
    np.testing.assert_array_equal(r.buffers["o_down"], shfl_reference(v, tpb, width, "down", delta))
    np.testing.assert_array_equal(r.buffers["o_xor"], shfl_reference(v, tpb, width, "xor", lane_mask))


@pytest.mark.parametrize("grid,block", [((2, 1, 1), (64, 1, 1)), ((1, 1, 1), (32, 4, 1)), ((3, 1, 1), (160, 1, 1))])
def test_butterfly_sum_width32(grid, block):
    m = _module("warp.cu")
    n = _nthreads(grid, block)
    v = _rng(n).integers(-1000, 1000, n).astype(np.int32)
    r = _run(m, "xor_sum32", grid, block, {"in": v, "out": _zeros(n)})
    np.testing.assert_array_equal(r.buffers["out"], np.repeat(v.reshape(-1, 32).sum(1), 32))


@pytest.mark.parametrize("grid,block", [((2, 1, 1), (128, 1, 1)), ((3, 1, 1), (32, 3, 1)), ((1, 1, 1), (1024, 1, 1))])
def test_warp_shuffle_block_scan(grid, block):
    m = _module("warp.cu")
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    v = _rng(tpb).integers(-50, 50, n).astype(np.int32)
    r = _run(m, "warp_block_scan", grid, block, {"in": v, "out": _zeros(n)})
    np.testing.assert_array_equal(r.buffers["out"], np.cumsum(v.reshape(-1, tpb), axis=1).ravel())


# ==============================================================================================
# Warp votes
# ==============================================================================================

def _per_warp(x, tpb, warp=32):
    """Group a per-thread array by warp: shape (nwarps, warp); blocks are whole warps here."""
    assert tpb % warp == 0
    return x.reshape(-1, warp)


def _mask(bits):
    """Ballot of a (nwarps, 32) bool array -> uint32 per warp."""
    return (bits.astype(np.uint64) << np.arange(32, dtype=np.uint64)).sum(1).astype(np.uint32)


@pytest.mark.parametrize("grid,block", [((2, 1, 1), (32, 2, 1)), ((2, 2, 1), (16, 4, 2)), ((1, 1, 1), (96, 1, 1))])
def test_votes_with_divergence(grid, block):
    m = _module("warp.cu")
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    p = _rng(n).integers(-30, 120, n).astype(np.int32)
    p[:32] = np.abs(p[:32])  # first warp: all non-negative
    p[32:64] = np.minimum(p[32:64], 100)  # second warp: nothing above 100
    names = ("bal", "any_big", "all_nonneg", "act", "div_bal", "div_all", "div_any", "tail_act")
    outs = {k: (_zeros(n, np.uint32) if k in ("bal", "act", "div_bal", "tail_act") else _zeros(n)) for k in names}
    outs["tail_act"][:] = 0xDEADBEEF
    r = _run(m, "votes", grid, block, {"in": p, **outs})
    b = r.buffers
    P = _per_warp(p, tpb)
    lane = np.arange(32)
    then = (lane % 3 == 0)[None, :].repeat(len(P), 0)
    rep = lambda per_warp: np.repeat(per_warp, 32)  # noqa: E731
    np.testing.assert_array_equal(b["bal"], rep(_mask(P > 0)))
    np.testing.assert_array_equal(b["any_big"], rep((P > 100).any(1).astype(np.int32)))
    np.testing.assert_array_equal(b["all_nonneg"], rep((P >= 0).all(1).astype(np.int32)))
    assert (P >= 0).all(1)[0] and not (P > 100).any(1)[1]
    then_mask, else_mask = _mask(then[:1])[0], _mask(~then[:1])[0]
    np.testing.assert_array_equal(b["act"], np.where(then.ravel(), then_mask, else_mask))
    # ballot/all/any restricted to the lanes of each side of the branch
    exp_bal = np.where(then, rep(_mask((P > 0) & then)).reshape(-1, 32), rep(_mask((P < 0) & ~then)).reshape(-1, 32))
    np.testing.assert_array_equal(b["div_bal"], exp_bal.ravel())
    all_then = ((P > 0) | ~then).all(1)
    all_else = ((P < 60) | then).all(1)
    np.testing.assert_array_equal(b["div_all"], np.where(then, all_then[:, None], all_else[:, None]).ravel())
    any_then = ((P > 50) & then).any(1)
    any_else = ((P == 7) & ~then).any(1)
    np.testing.assert_array_equal(b["div_any"], np.where(then, any_then[:, None], any_else[:, None]).ravel())
    tail = P > 40
    exp_tail = np.where(tail, rep(_mask(tail)).reshape(-1, 32), 0xDEADBEEF).ravel()
    np.testing.assert_array_equal(b["tail_act"], exp_tail)


@pytest.mark.parametrize("grid,block", [((1, 1, 1), (40, 1, 1)), ((2, 1, 1), (10, 7, 1))])
def test_activemask_partial_warp(grid, block):
    m = _module("warp.cu")
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    r = _run(m, "active_partial", grid, block, {"act": _zeros(n, np.uint32), "lane_id": _zeros(n)})
    local = np.arange(n) % tpb
    warp_start = local - local % 32
    lanes_in_warp = np.minimum(32, tpb - warp_start)
    exp = np.where(lanes_in_warp == 32, FULL, (1 << lanes_in_warp) - 1).astype(np.uint32)
    np.testing.assert_array_equal(r.buffers["act"], exp)
    np.testing.assert_array_equal(r.buffers["lane_id"], local % 32)


# ==============================================================================================
# Warp size of the launch
# ==============================================================================================



@pytest.mark.parametrize("ws", [32, 16, 8, 1, 64])
@pytest.mark.parametrize("grid,block", [((2, 1, 1), (64, 1, 1)), ((1, 2, 1), (32, 4, 1))])
def test_warp_sum_follows_warp_size(ws, grid, block):
    """width = warpSize: each warp of ``ws`` lanes sums its own values only."""
    m = _module("warp.cu")
    n = _nthreads(grid, block)
    v = _rng(ws * n).integers(-100, 100, n).astype(np.int32)
    out = np.full(n // ws, -1, np.int32)
    r = _run(m, "warp_sum", grid, block, {"in": v, "out": out, "lane_out": _zeros(n)}, warp_size=ws)
    sums = v.reshape(-1, ws).sum(1)
    np.testing.assert_array_equal(r.buffers["out"], sums)
    np.testing.assert_array_equal(r.buffers["lane_out"], np.repeat(sums, ws))


@pytest.mark.parametrize("ws", [32, 16, 1])
def test_warp_size_changes_votes_and_lanes(ws):
    """__ballot_sync / __activemask / __lanemask_lt follow a launch's (narrower) warp."""
    m = _module("warp.cu")
    for grid, block in (((1, 1, 1), (64, 1, 1)), ((2, 1, 1), (16, 2, 1))):
        n = _nthreads(grid, block)
        tpb = int(np.prod(block))
        r = _run(m, "active_partial", grid, block, {"act": _zeros(n, np.uint32), "lane_id": _zeros(n)},
                 warp_size=ws)
        np.testing.assert_array_equal(r.buffers["act"], np.full(n, (1 << ws) - 1 if ws < 32 else FULL, np.uint32))
        np.testing.assert_array_equal(r.buffers["lane_id"], (np.arange(n) % tpb) % ws)


# ==============================================================================================
# Atomics
# ==============================================================================================

@pytest.mark.parametrize("grid,block,n", [((3, 1, 1), (50, 1, 1), 137), ((2, 1, 1), (96, 1, 1), 192),
                                          ((1, 1, 1), (20, 1, 1), 13)])
def test_atomic_mix(grid, block, n):
    m = _module("atomics.cu")
    vals = _rng(n).integers(-5000, 5000, n).astype(np.int32)
    args = {
        "vals": vals,
        "iacc": np.array([0, 11, 1000], np.int32),
        "uacc": np.array([7, 5], np.uint32),
        "facc": np.array([0.25], np.float32),
        "ullacc": np.array([2**63 + 3], np.uint64),
        "tickets": np.full(n, -1, np.int32),
        "mn": np.array([2**31 - 1], np.int32), "mx": np.array([-2**31], np.int32),
        "umn": np.array([FULL], np.uint32), "umx": np.array([0], np.uint32),
        "inc": np.array([0], np.uint32), "inc_old": np.full(n, 99, np.uint32),
        "bits_and": np.array([FULL], np.uint32), "bits_or": np.zeros(4, np.uint32),
        "bits_xor": np.array([0x5A5A5A5A], np.uint32), "n": n,
    }
    b = _run(m, "atomic_mix", grid, block, args).buffers
    v64 = vals.astype(np.int64)
    np.testing.assert_array_equal(np.sort(b["tickets"]), np.arange(n))
    assert b["iacc"].tolist() == [n, 11 + int(v64.sum()), 1000 - int(v64.sum())]
    u = vals.view(np.uint32).astype(np.uint64)
    assert int(b["uacc"][0]) == (7 + int((u * 2654435761).sum())) % 2**32
    assert int(b["uacc"][1]) == (5 - 3 * n) % 2**32
    assert float(b["facc"][0]) == 0.25 + float(((vals & 15) * 0.5).sum())
    assert int(b["ullacc"][0]) == (2**63 + 3 + sum(int(x) << 29 for x in u)) % 2**64
    assert b["mn"][0] == vals.min() and b["mx"][0] == vals.max()
    assert b["umn"][0] == vals.view(np.uint32).min() and b["umx"][0] == vals.view(np.uint32).max()
    assert b["inc"][0] == n % 7
    np.testing.assert_array_equal(np.sort(b["inc_old"]), np.sort(np.arange(n) % 7))
    t = np.arange(n)
    assert b["bits_and"][0] == np.bitwise_and.reduce(~(np.uint32(1) << (t % 32).astype(np.uint32)))
    for k in range(4):
        sel = vals[t % 4 == k]
        exp = np.bitwise_or.reduce((np.uint32(1) << (sel & 31).astype(np.uint32))) if len(sel) else 0
        assert b["bits_or"][k] == exp
    assert b["bits_xor"][0] == np.bitwise_xor.reduce(vals.view(np.uint32), initial=np.uint32(0x5A5A5A5A))


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 1000), ((3, 1, 1), (33, 1, 1), 77)])
def test_atomic_cas_max(grid, block, n):
    m = _module("atomics.cu")
    x = (_rng(n).standard_normal(n) * 100).astype(np.float32)
    r = _run(m, "cas_max", grid, block, {"x": x, "fmax_out": np.array([-np.inf], np.float32),
                                          "imax_out": np.array([-2**31], np.int32), "n": n})
    assert r.buffers["fmax_out"][0] == x.max()
    assert r.buffers["imax_out"][0] == (x * np.float32(4)).astype(np.int32).max()


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 100), ((5, 1, 1), (7, 1, 1), 35)])
def test_atomic_exch_permutation(grid, block, n):
    m = _module("atomics.cu")
    args = {"slot": np.array([-1], np.int32), "olds": _zeros(n), "fslot": np.array([-2.0], np.float32),
            "folds": _zeros(n, np.float32), "uslot": np.array([42], np.uint64), "uolds": _zeros(n, np.uint64),
            "n": n}
    b = _run(m, "exch", grid, block, args).buffers
    t = np.arange(n)
    np.testing.assert_array_equal(np.sort(np.append(b["olds"], b["slot"])), np.sort(np.append(t + 1, -1)))
    np.testing.assert_array_equal(np.sort(np.append(b["folds"], b["fslot"])),
                                  np.sort(np.append(t * 0.25, -2.0)).astype(np.float32))
    useq = (t.astype(np.uint64) << np.uint64(32)) + np.uint64(7)
    np.testing.assert_array_equal(np.sort(np.append(b["uolds"], b["uslot"])), np.sort(np.append(useq, np.uint64(42))))


@pytest.mark.parametrize("grid,block,n,nbins", [((3, 1, 1), (64, 1, 1), 1000, 10), ((2, 1, 1), (37, 1, 1), 300, 64)])
def test_shared_histogram_dynamic_shared(grid, block, n, nbins):
    m = _module("atomics.cu")
    data = _rng(n).integers(0, 256, n).astype(np.uint8)
    r = _run(m, "shared_hist", grid, block, {"data": data, "hist": _zeros(nbins, np.uint32), "n": n, "nbins": nbins},
             dynamic_shared=4 * nbins)
    np.testing.assert_array_equal(r.buffers["hist"], np.bincount(data % nbins, minlength=nbins))


# ==============================================================================================
# Shared memory: reductions, scans, transpose, matmul, barrier reductions
# ==============================================================================================

@pytest.mark.parametrize("grid,block,n", [((4, 1, 1), (64, 1, 1), 500), ((2, 1, 1), (128, 1, 1), 333),
                                          ((3, 1, 1), (16, 1, 1), 90)])
def test_shared_tree_reduction(grid, block, n):
    m = _module("shared.cu")
    x = _rng(n).integers(-100, 100, n).astype(np.float32)  # integers: exact in any order
    nb = grid[0]
    r = _run(m, "reduce_tree", grid, block, {"in": x, "out": _zeros(nb, np.float32), "n": n},
             dynamic_shared=4 * block[0])
    per = 2 * block[0]
    exp = [x[b * per:(b + 1) * per].sum() for b in range(nb)]
    np.testing.assert_array_equal(r.buffers["out"], np.array(exp, np.float32))


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 1000), ((3, 1, 1), (256, 1, 1), 777),
                                          ((1, 1, 1), (512, 1, 1), 5000)])
def test_warp_synchronous_volatile_reduction(grid, block, n):
    m = _module("shared.cu")
    x = _rng(n).integers(-1000, 1000, n).astype(np.int32)
    nb, bs = grid[0], block[0]
    r = _run(m, "reduce_warpsync", grid, block, {"in": x, "out": _zeros(nb), "n": n})
    i = np.arange(n)
    owner = (i // bs) % nb  # grid-stride: element i goes to block (i // bs) % nb
    np.testing.assert_array_equal(r.buffers["out"], np.bincount(owner, weights=x, minlength=nb).astype(np.int32))


@pytest.mark.parametrize("grid,block,n", [((3, 1, 1), (100, 1, 1), 250), ((2, 1, 1), (64, 1, 1), 128),
                                          ((4, 1, 1), (33, 1, 1), 120)])
def test_block_scan_double_buffer(grid, block, n):
    m = _module("shared.cu")
    x = _rng(n).integers(-20, 20, n).astype(np.int32)
    bs = block[0]
    r = _run(m, "block_scan", grid, block, {"in": x, "out": np.full(n, 7, np.int32), "n": n},
             dynamic_shared=2 * 4 * bs)
    pad = np.zeros(grid[0] * bs, np.int32)
    pad[:n] = x
    np.testing.assert_array_equal(r.buffers["out"], np.cumsum(pad.reshape(-1, bs), 1).ravel()[:n])


@pytest.mark.parametrize("rows,cols,block", [(37, 20, (16, 4, 1)), (16, 48, (16, 16, 1)), (5, 70, (16, 8, 1))])
def test_transpose_padded_tile(rows, cols, block):
    m = _module("shared.cu")
    a = _rng(rows * cols).standard_normal((rows, cols)).astype(np.float32)
    grid = (-(-cols // 16), -(-rows // 16), 1)
    r = _run(m, "transpose", grid, block, {"in": a, "out": np.zeros((cols, rows), np.float32),
                                            "rows": rows, "cols": cols})
    np.testing.assert_array_equal(r.buffers["out"], a.T)


@pytest.mark.parametrize("M,N,K", [(13, 19, 11), (8, 8, 24), (1, 30, 3)])
def test_tiled_matmul(M, N, K):
    m = _module("shared.cu")
    rng = _rng(M * N * K)
    A = rng.integers(-4, 5, (M, K)).astype(np.float32)
    B = rng.integers(-4, 5, (K, N)).astype(np.float32)
    grid = (-(-N // 8), -(-M // 8), 1)
    r = _run(m, "matmul", grid, (8, 8, 1), {"A": A, "B": B, "C": np.full((M, N), np.nan, np.float32),
                                             "M": M, "N": N, "K": K})
    np.testing.assert_array_equal(r.buffers["C"], A @ B)


@pytest.mark.parametrize("grid,block", [((2, 2, 1), (4, 4, 3)), ((1, 1, 3), (8, 5, 1)), ((3, 1, 1), (7, 1, 1))])
def test_syncthreads_count_and_or(grid, block):
    m = _module("shared.cu")
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    p = _rng(n).integers(-6, 95, n).astype(np.int32)
    p[:tpb] = np.abs(p[:tpb])  # block 0: every predicate of _and true
    r = _run(m, "sync_reductions", grid, block, {"in": p, "cnt": _zeros(n), "all_pos": _zeros(n), "any_big": _zeros(n)})
    P = p.reshape(-1, tpb)
    rep = lambda x: np.repeat(x, tpb)  # noqa: E731
    np.testing.assert_array_equal(r.buffers["cnt"], rep((P > 0).sum(1)))
    np.testing.assert_array_equal(r.buffers["all_pos"], rep((P > -5).all(1).astype(np.int32)))
    np.testing.assert_array_equal(r.buffers["any_big"], rep((P > 90).any(1).astype(np.int32)))
    assert r.buffers["all_pos"][0] == 1


@pytest.mark.parametrize("grid,block,n", [((3, 1, 1), (45, 1, 1), 130), ((2, 1, 1), (64, 1, 1), 128)])
def test_dynamic_shared_two_arrays(grid, block, n):
    m = _module("shared.cu")
    x = _rng(n).standard_normal(n).astype(np.float32)
    bs = block[0]
    r = _run(m, "dyn_two", grid, block, {"in": x, "out": _zeros(n, np.float32), "iout": _zeros(n), "n": n},
             dynamic_shared=8 * bs)
    g = np.arange(n)
    src = (g // bs) * bs + (bs - 1 - g % bs)
    padded = np.full(grid[0] * bs, -1.0, np.float32)
    padded[:n] = x
    np.testing.assert_array_equal(r.buffers["out"], padded[src])
    np.testing.assert_array_equal(r.buffers["iout"], src)


# ==============================================================================================
# Device helpers, templates, constant memory, structs, integers, float math, 3-D indexing
# ==============================================================================================

def _collatz(x, cap=60):
    steps = 0
    while x != 1:
        if steps >= cap:
            return -1
        x = 3 * x + 1 if x & 1 else x // 2
        x &= 0xFFFFFFFF
        steps += 1
    return steps


def _is_prime(v):
    return v >= 2 and all(v % d for d in range(2, int(v ** 0.5) + 1))


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 100), ((3, 1, 1), (31, 1, 1), 93)])
def test_device_helpers_loops_early_returns(grid, block, n):
    m = _module("misc.cu")
    v = _rng(n).integers(-500, 3000, n).astype(np.int32)
    v[:6] = [1, 2, 27, 97, 0, -7]
    r = _run(m, "helpers", grid, block, {"in": v, "clen": _zeros(n), "prime": _zeros(n), "dsum": _zeros(n), "n": n})
    np.testing.assert_array_equal(r.buffers["clen"], [_collatz(int(x) if x > 0 else 1) for x in v])
    np.testing.assert_array_equal(r.buffers["prime"], [int(_is_prime(int(x))) for x in v])
    np.testing.assert_array_equal(r.buffers["dsum"], [sum(map(int, str(abs(int(x))))) for x in v])


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (32, 1, 1), 101), ((1, 1, 1), (64, 1, 1), 64)])
def test_template_instantiations(grid, block, n):
    m = _module("misc.cu")
    rng = _rng(n)
    xi = rng.integers(-20, 20, n).astype(np.int32)
    yi = rng.integers(-20, 20, n).astype(np.int32)
    ri = _run(m, "axpy_clamp<int, 2>", grid, block, {"a": 3, "x": xi, "y": yi.copy(), "n": n})
    np.testing.assert_array_equal(ri.buffers["y"], np.clip(3 * xi + yi, -50, 50))
    xf = (rng.integers(-80, 80, n) / 4).astype(np.float32)  # quarters: products exact
    yf = (rng.integers(-80, 80, n) / 8).astype(np.float32)
    rf = _run(m, "axpy_clamp<float, 1>", (-(-n // block[0]), 1, 1), block, {"a": 2.5, "x": xf, "y": yf.copy(), "n": n})
    np.testing.assert_array_equal(rf.buffers["y"], np.clip(np.float32(2.5) * xf + yf, -50, 50))
    d = rng.standard_normal(n)
    rd = _run(m, "scale_t<double>", (-(-n // block[0]), 1, 1), block, {"data": d.copy(), "factor": 2.5, "n": n})
    np.testing.assert_array_equal(rd.buffers["data"], d * 2.5)
    names = {k.display_name for k in m.kernels}
    assert {"axpy_clamp<int, 2>", "axpy_clamp<float, 1>", "scale_t<double>"} <= names


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (32, 1, 1), 200), ((1, 1, 1), (50, 1, 1), 7)])
def test_constant_memory_stencil(grid, block, n):
    m = _module("misc.cu")
    x = _rng(n).integers(-64, 64, n).astype(np.float32)
    r = _run(m, "stencil_const", grid, block, {"in": x, "out": _zeros(n, np.float32), "iout": _zeros(n), "n": n})
    w = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], np.float32)
    idx = np.clip(np.arange(n)[:, None] + np.arange(-2, 3)[None, :], 0, n - 1)
    exp = np.zeros(n, np.float32)
    for k in range(5):  # same summation order as the kernel
        exp = exp + w[k] * x[idx[:, k]]
    np.testing.assert_array_equal(r.buffers["out"], exp)
    lut = np.array([10, 20, 30, 40])
    np.testing.assert_array_equal(r.buffers["iout"], x.astype(np.int32) * 3 - 7 + lut[np.arange(n) & 3])


PARTICLE = np.dtype([("pos", "<f4", (3,)), ("mass", "<f4"), ("id", "<i4"), ("flags", "<i4")])
CELL = np.dtype({"names": ["count", "sum", "tag"], "formats": ["<i4", ("<f4", (3,)), "<i2"],
                 "offsets": [0, 4, 16], "itemsize": 20})


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (32, 1, 1), 50), ((1, 1, 1), (40, 1, 1), 33)])
def test_structs_and_vector_types_in_memory(grid, block, n):
    m = _module("structs.cu")
    rng = _rng(n)
    a = rng.integers(-9, 9, (n, 4)).astype(np.float32)
    b = rng.integers(-9, 9, (n, 4)).astype(np.float32)
    p = rng.integers(-1000, 1000, (n, 2)).astype(np.int32)
    parts = np.zeros(n, PARTICLE)
    parts["pos"] = rng.standard_normal((n, 3))
    parts["mass"] = rng.random(n)
    parts["id"] = np.arange(n) * 3
    parts["flags"] = rng.integers(0, 8, n)
    cells = np.zeros(7, CELL)
    cells["tag"] = np.arange(7)
    args = {"a": a, "b": b, "c": np.zeros((n, 4), np.float32), "p": p, "q": np.zeros((n, 2), np.int32),
            "parts": parts, "moved": np.zeros(n, PARTICLE), "cells": cells, "n": n}
    res = _run(m, "struct_memory", grid, block, args).buffers
    np.testing.assert_array_equal(res["c"], np.stack([a[:, 0] + b[:, 0], a[:, 1] * b[:, 1], a[:, 2] - b[:, 2],
                                                      a[:, 3] * 2], 1))
    np.testing.assert_array_equal(res["q"], np.stack([p[:, 0] * p[:, 1], p[:, 0] - p[:, 1]], 1))
    exp = parts.copy()
    exp["pos"][:, 0] += exp["mass"]
    exp["pos"][:, 1] -= exp["id"].astype(np.float32)
    exp["pos"][:, 2] *= 2
    exp["flags"] |= (exp["id"] & 1) << 4
    for f in PARTICLE.names:
        np.testing.assert_array_equal(res["moved"][f], exp[f])
    i = np.arange(n)
    np.testing.assert_array_equal(res["cells"]["count"], np.bincount(i % 7, minlength=7))
    sums = np.zeros((7, 3), np.float32)
    np.add.at(sums, (i % 7, i % 3), a[:, 0])
    np.testing.assert_array_equal(res["cells"]["sum"], sums)
    np.testing.assert_array_equal(res["cells"]["tag"], np.arange(7))


def _int_inputs(n, seed):
    rng = _rng(seed)
    a = rng.integers(-2**31, 2**31, n).astype(np.int32)
    b = rng.integers(-2**31, 2**31, n).astype(np.int32)
    b[b == 0] = 3
    b[:4] = [-1, 7, -7, 1]
    a[:4] = [-2**31 + 1, -9, 9, -2**31]
    ua = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ub = rng.integers(1, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ub[:3] = [1, 0xFFFFFFFF, 3]
    la = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    lb = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    return a, b, ua, ub, la, lb


def _c_div(x, y):
    x, y = x.astype(object), y.astype(object)
    q = np.array([abs(p) // abs(d) * (1 if (p >= 0) == (d > 0) else -1) for p, d in zip(x, y, strict=False)], object)
    return q, x - q * y


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 128), ((3, 1, 1), (23, 1, 1), 69)])
def test_integer_exactness(grid, block, n):
    m = _module("misc.cu")
    a, b, ua, ub, la, lb = _int_inputs(n, n)
    outs = {k: _zeros(n) for k in ("add_wrap", "mul_wrap", "sdiv", "smod", "shl", "ashr")}
    outs.update({k: _zeros(n, np.uint32) for k in ("udiv", "umod", "lshr")})
    outs.update(lmul=_zeros(n, np.int64), ulmul=_zeros(n, np.uint64), ldiv=_zeros(n, np.int64),
                narrow=_zeros(4 * n), bitfns=_zeros(4 * n))
    r = _run(m, "int_ops", grid, block, {"a": a, "b": b, "ua": ua, "ub": ub, "la": la, "lb": lb, **outs, "n": n})
    o = r.buffers
    i = np.arange(n)
    sh = (i % 32).astype(np.uint32)
    au = a.view(np.uint32)
    np.testing.assert_array_equal(o["add_wrap"], (au + np.uint32(2**31 - 1)).view(np.int32))
    np.testing.assert_array_equal(o["mul_wrap"], (au * b.view(np.uint32)).view(np.int32))
    np.testing.assert_array_equal(o["udiv"], ua // ub)
    np.testing.assert_array_equal(o["umod"], ua % ub)
    q, rem = _c_div(a, b)
    q = np.array([int(x) if int(x) < 2**31 else -2**31 for x in q])  # INT_MIN / -1 is not in the data
    np.testing.assert_array_equal(o["sdiv"], q)
    np.testing.assert_array_equal(o["smod"], rem.astype(np.int64))
    np.testing.assert_array_equal(o["shl"], (au << sh).view(np.int32))
    np.testing.assert_array_equal(o["ashr"], a >> sh.astype(np.int32))
    np.testing.assert_array_equal(o["lshr"], ua >> sh)
    np.testing.assert_array_equal(o["lmul"], (la.view(np.uint64) * lb.view(np.uint64)).view(np.int64))
    np.testing.assert_array_equal(o["ulmul"], ua.astype(np.uint64) * ub.astype(np.uint64))
    lq, _ = _c_div(la, lb | 1)
    np.testing.assert_array_equal(o["ldiv"], lq.astype(np.int64))
    nar = o["narrow"].reshape(n, 4)
    np.testing.assert_array_equal(nar[:, 0], a.astype(np.int8))
    np.testing.assert_array_equal(nar[:, 1], a.astype(np.uint16))
    np.testing.assert_array_equal(nar[:, 2], (ua >> np.uint32(7)).astype(np.int16))
    np.testing.assert_array_equal(nar[:, 3], (a ^ b).astype(np.uint8))
    bf = o["bitfns"].reshape(n, 4)
    np.testing.assert_array_equal(bf[:, 0], [bin(int(x)).count("1") for x in ua])
    np.testing.assert_array_equal(bf[:, 1], [32 - int(x).bit_length() for x in au])
    np.testing.assert_array_equal(bf[:, 2], [(int(x) & -int(x)).bit_length() for x in au])
    np.testing.assert_array_equal(bf[:, 3].view(np.uint32), [int(f"{int(x):032b}"[::-1], 2) for x in ua])


@pytest.mark.parametrize("grid,block,n", [((2, 1, 1), (64, 1, 1), 300), ((1, 1, 1), (37, 1, 1), 37)])
def test_float_math_within_2ulp(grid, block, n):
    m = _module("misc.cu")
    rng = _rng(n)
    x = (rng.standard_normal(n) * 6).astype(np.float32)
    y = (rng.standard_normal(n) * 3).astype(np.float32)
    z = rng.standard_normal(n).astype(np.float32)
    y[y == 0] = 1.5
    x[0], y[0] = np.nan, 2.0   # fminf ignores a NaN operand
    x[1], y[1] = 3.0, np.nan
    names = ("o_sqrt", "o_exp", "o_sin", "o_fmin", "o_fma", "o_fdiv", "o_log", "o_pow", "o_rsqrt", "o_atan2")
    r = _run(m, "float_math", grid, block,
             {"x": x, "y": y, "z": z, **{k: _zeros(n, np.float32) for k in names}, "n": n})
    o = r.buffers
    X, Y, Z = (v.astype(np.float64) for v in (x, y, z))
    f32 = np.float32
    np.testing.assert_array_equal(o["o_fmin"], np.fmin(x, y))
    ok = slice(2, None)  # lanes without NaN inputs
    checks = {
        "o_sqrt": np.sqrt(np.abs(x)),
        "o_exp": np.exp(X * 0.25).astype(f32),
        "o_sin": np.sin(X).astype(f32),
        "o_fma": (X * Y + Z).astype(f32),  # a*b is exact in double: one rounding
        "o_fdiv": x / y,
        "o_log": np.log(np.abs(y) + f32(1)).astype(f32),
        "o_pow": np.power(np.abs(X), 0.75).astype(f32),
        "o_rsqrt": (1.0 / np.sqrt(np.abs(Y) + 0.5)).astype(f32),
        "o_atan2": np.arctan2(X, Y).astype(f32),
    }
    for k, ref in checks.items():
        np.testing.assert_array_max_ulp(o[k][ok], ref[ok].astype(f32), maxulp=2, dtype=f32)
    # fmaf is fused: (1 + 2^-13)(1 - 2^-13) - 1 = -2^-26, not 0
    r2 = _run(m, "float_math", (1, 1, 1), (4, 1, 1),
              {"x": np.full(4, 1 + 2**-13, f32), "y": np.full(4, 1 - 2**-13, f32), "z": np.full(4, -1, f32),
               **{k: _zeros(4, f32) for k in names}, "n": 4})
    np.testing.assert_array_equal(r2.buffers["o_fma"], np.full(4, -2.0**-26, f32))


@pytest.mark.parametrize("grid,block,dims", [((2, 3, 1), (4, 2, 4), (7, 5, 9)), ((1, 1, 2), (8, 8, 2), (8, 8, 11)),
                                             ((3, 1, 1), (2, 5, 3), (5, 5, 3))])
def test_3d_indexing_grid_stride(grid, block, dims):
    m = _module("misc.cu")
    nx, ny, nz = dims
    out = np.full(nx * ny * nz, -1, np.int32)
    r = _run(m, "coords3d", grid, block, {"out": out, "nx": nx, "ny": ny, "nz": nz})
    z, y, x = np.indices((nz, ny, nx))
    exp = x * 10000 + y * 100 + z
    covered = (x < grid[0] * block[0]) & (y < grid[1] * block[1])
    np.testing.assert_array_equal(r.buffers["out"], np.where(covered, exp, -1).ravel())


def test_fma_double_single_rounding():
    m = _module("misc.cu")
    e = 2.0 ** -30
    a = np.array([1 + e, 1 + e, 3.0], np.float64)
    b = np.array([1 - e, 1 - e, 0.1], np.float64)
    c = np.array([-1.0, 0.0, -0.3], np.float64)
    # one rounding of the exact a*b+c (float(Fraction) rounds to nearest)
    exp = np.array([float(Fraction(p) * Fraction(q) + Fraction(s)) for p, q, s in zip(a, b, c, strict=False)])
    assert exp[0] == -2.0 ** -60
    for grid, block in ((1, 3), (1, 32)):
        r = _run(m, "fma_double", grid, block, {"a": a, "b": b, "c": c, "o": np.zeros(3), "n": 3})
        np.testing.assert_array_equal(r.buffers["o"], exp)


def test_mul64hi():
    m = _module("misc.cu")
    x = np.array([2**64 - 1, 2**63 + 5, 12345, 2**40 + 7], np.uint64)
    y = np.array([2**64 - 1, 2**62 + 3, 2**63, 2**40 + 9], np.uint64)
    exp = np.array([(int(p) * int(q)) >> 64 for p, q in zip(x, y, strict=False)], np.uint64)
    xs, ys = x.view(np.int64), y.view(np.int64)
    sexp = np.array([(int(p) * int(q)) >> 64 for p, q in zip(xs, ys, strict=False)], np.int64)
    for block in (4, 32):
        r = _run(m, "mul64hi", 1, block, {"x": x, "y": y, "hi": np.zeros(4, np.uint64), "shi": np.zeros(4, np.int64),
                                          "n": 4})
        np.testing.assert_array_equal(r.buffers["hi"], exp)
        np.testing.assert_array_equal(r.buffers["shi"], sexp)


# ==============================================================================================
# Runs that do not complete
# ==============================================================================================

def test_infinite_loop_hits_time_limit():
    m = _module("faults.cu")
    for grid, block in (((1, 1, 1), (32, 1, 1)), ((2, 1, 1), (8, 3, 1))):
        n = _nthreads(grid, block)
        res = run(m, "spin_forever", Launch(grid=grid, block=block, args={"flag": _zeros(1), "out": _zeros(n)}),
                  limits=Limits(max_seconds=1, max_steps=10**12))
        assert res.outcome.status == "incomplete"
        assert "limit" in res.outcome.reason and "time" in res.outcome.reason
        assert res.seconds < 10


def test_infinite_loop_hits_step_limit():
    m = _module("faults.cu")
    res = run(m, "spin_forever", Launch(grid=2, block=16, args={"flag": _zeros(1), "out": _zeros(32)}),
              limits=Limits(max_seconds=30, max_steps=5000))
    assert res.outcome.status == "incomplete"
    assert "limit" in res.outcome.reason and "step" in res.outcome.reason


def test_failing_assert_reports_its_line():
    m = _module("faults.cu")
    src = (KERNELS / "faults.cu").read_text().splitlines()
    line = next(k for k, text in enumerate(src, 1) if "ASSERT-LINE" in text)
    n = 40
    good = np.arange(n, dtype=np.int32)
    ok = _run(m, "checked", 2, 32, {"in": good, "out": _zeros(n), "n": n})
    np.testing.assert_array_equal(ok.buffers["out"], 2 * good)
    for grid, block in ((2, 32), ((1, 1, 1), (48, 1, 1))):
        bad = good.copy()
        bad[17] = -3
        res = run(m, "checked", Launch(grid=grid, block=block, args={"in": bad, "out": _zeros(n), "n": n}))
        assert res.outcome.status == "error"
        assert res.outcome.loc is not None and res.outcome.loc.line == line, res.outcome
        assert "assert" in res.outcome.reason.lower()


# ==============================================================================================
# Regression tests for interpreter bugs found while writing this file
# ==============================================================================================

STRUCT_REASON = ("simu/ir/module.py decodes operand and result types from llvmlite's printed text "
                 "(_Decoder.operand/instruction: str(o.type), str(i.type), str(o)), where the global LLVMContext "
                 "has renamed %struct.X to %struct.X.N and a named struct prints as '%X = type {...}'; "
                 "TypeParser only knows the names of the original IR text (and _NAMED_TYPE skips quoted "
                 "C++ names such as %\"class.cooperative_groups::thread_block\")")


@pytest.mark.parametrize("grid,block", [((2, 1, 1), (96, 1, 1)), ((1, 1, 1), (64, 2, 1))])
def test_cooperative_groups_tiles(grid, block):
    m = _module("coop_groups.cu")
    n = _nthreads(grid, block)
    tpb = int(np.prod(block))
    v = _rng(n).integers(-100, 100, n).astype(np.int32)
    names = ("sum16", "sum32", "rank16", "meta16", "rank32", "meta32")
    r = _run(m, "cg_tiles", grid, block, {"in": v, **{k: _zeros(n) for k in names}})
    local = np.arange(n) % tpb
    for size in (16, 32):
        np.testing.assert_array_equal(r.buffers[f"sum{size}"], np.repeat(v.reshape(-1, size).sum(1), size))
        np.testing.assert_array_equal(r.buffers[f"rank{size}"], local % size)
        np.testing.assert_array_equal(r.buffers[f"meta{size}"], local // size)


STRUCT_VALUE_SOURCES = {
    "make_float4": r"""
__global__ void k(const float4 *a, float4 *c, int2 *q) {
  int i = threadIdx.x;
  float4 x = a[i];
  c[i] = make_float4(x.x + 1.0f, x.y * 2.0f, x.z, x.w);
  q[i] = make_int2(i, -i);
}""",
    "constant_struct": r"""
struct Params { int scale; int bias; short lut[4]; };
__constant__ Params c_params = {3, -7, {10, 20, 30, 40}};
__global__ void k(const float4 *a, float4 *c, int2 *q) {
  int i = threadIdx.x;
  c[i] = a[i];
  q[i].x = i * c_params.scale + c_params.bias;
  q[i].y = c_params.lut[i & 3];
}""",
    "shared_struct_array": r"""
struct P { int a; int b; };
__global__ void k(const float4 *a, float4 *c, int2 *q) {
  __shared__ P sp[64];
  int i = threadIdx.x;
  sp[i].a = i; sp[i].b = -i;
  c[i] = a[i];
  __syncthreads();
  q[i].x = sp[blockDim.x - 1 - i].a;
  q[i].y = sp[blockDim.x - 1 - i].b;
}""",
}


@pytest.mark.parametrize("case", [
    "make_float4",
    "constant_struct",
    "shared_struct_array",
])
def test_struct_values_and_struct_globals(case):
    """Struct-typed SSA values (make_float4) and struct-typed __constant__/__shared__ globals."""
    m = _src_module(STRUCT_VALUE_SOURCES[case], f"{case}.cu")
    for n in (8, 40):
        a = np.arange(4 * n, dtype=np.float32).reshape(n, 4)
        r = _run(m, "k", 1, n, {"a": a, "c": np.zeros((n, 4), np.float32), "q": np.zeros((n, 2), np.int32)})
        i = np.arange(n)
        if case == "make_float4":
            np.testing.assert_array_equal(r.buffers["c"], a * [1, 2, 1, 1] + [1, 0, 0, 0])
            np.testing.assert_array_equal(r.buffers["q"], np.stack([i, -i], 1))
        elif case == "constant_struct":
            np.testing.assert_array_equal(r.buffers["q"], np.stack([3 * i - 7, np.array([10, 20, 30, 40])[i & 3]], 1))
        else:
            np.testing.assert_array_equal(r.buffers["q"], np.stack([n - 1 - i, -(n - 1 - i)], 1))


@pytest.mark.parametrize("ws", [16, 1])
def test_default_width_shuffle_stays_inside_narrow_warp(ws):
    m = _module("warp.cu")
    for grid, block in (((1, 1, 1), (32, 1, 1)), ((2, 1, 1), (16, 2, 1))):
        n = _nthreads(grid, block)
        v = np.arange(n, dtype=np.int32) * 3 + 1
        r = _run(m, "shfl_default_width", grid, block, {"in": v, "down8": _zeros(n), "xor1": _zeros(n)},
                 warp_size=ws)
        lane = np.arange(n) % ws
        np.testing.assert_array_equal(r.buffers["down8"], np.where(lane + 8 < ws, np.roll(v, -8), v))
        partner = np.arange(n) ^ 1
        np.testing.assert_array_equal(r.buffers["xor1"], np.where((lane ^ 1) < ws, v[partner % n], v))


def test_votes_with_warp_size_64():
    m = _module("warp.cu")
    for block in (64, 128):
        z = lambda dt=np.int32, block=block: np.zeros(block, dt)  # noqa: E731
        r = _run(m, "votes_wide", 1, block, {"all_out": z(), "any_out": z(), "bal": z(np.uint32), "act": z(np.uint32)},
                 warp_size=64)
        np.testing.assert_array_equal(r.buffers["all_out"], np.zeros(block))   # lane 0 of each warp votes no
        np.testing.assert_array_equal(r.buffers["any_out"], np.ones(block))    # lane 63 votes yes
        np.testing.assert_array_equal(r.buffers["bal"], np.full(block, 0x55555555, np.uint32))
        np.testing.assert_array_equal(r.buffers["act"], np.full(block, FULL, np.uint32))


def test_width32_shuffles_with_warp_size_64():
    m = _module("warp.cu")
    for grid in (1, 2):
        n = 128 * grid
        v = _rng(n).integers(-100, 100, n).astype(np.int32)
        r = _run(m, "xor_sum32", grid, 128, {"in": v, "out": _zeros(n)}, warp_size=64)
        np.testing.assert_array_equal(r.buffers["out"], np.repeat(v.reshape(-1, 32).sum(1), 32))


def test_shuffle_source_lane_modulo_width():
    m = _module("warp.cu")
    for grid, block in (((1, 1, 1), (32, 1, 1)), ((2, 1, 1), (32, 2, 1))):
        n = _nthreads(grid, block)
        tpb = int(np.prod(block))
        v = _rng(n).integers(-1000, 1000, n).astype(np.int32)
        r = _run(m, "shfl_far_src", grid, block, {"in": v, "plus33": _zeros(n), "minus1": _zeros(n),
                                                   "plus40_w16": _zeros(n)})
        lane = (np.arange(n) % tpb) % 32
        got = {k: r.buffers[k] for k in ("plus33", "minus1", "plus40_w16")}
        exp = {"plus33": shfl_reference(v, tpb, 32, "idx", (lane + 1) % 32),
               "minus1": shfl_reference(v, tpb, 32, "idx", (lane - 1) % 32),
               "plus40_w16": shfl_reference(v, tpb, 16, "idx", (lane + 40) % 16)}
        bad = [k for k in got if not np.array_equal(got[k], exp[k])]
        assert not bad, f"wrong shuffles: {bad}"


def test_a_by_value_struct_given_longer_is_copied_per_thread_at_the_structs_size():
    """A by-value struct's value drawn as long as a buffer (the search draws it so, one struct per thread) gives
    each thread a copy of the one struct its debug info sizes (24 bytes), not of the whole value: the launch reads
    the same, and its threads' copies take T x 24 bytes instead of T x T x 24."""
    src = ("struct Graph { int nodes, edges; int *nindex, *nlist; };\n"
           "__global__ void degree(const Graph g, int *out) {\n"
           "  int v = threadIdx.x;\n  if (v < g.nodes) out[v] = g.nindex[v + 1] - g.nindex[v];\n}\n")
    m = load_source(src, "cuda", path="graph.cu")
    (g,) = [p for p in m.kernel().params if p.name == "g"]
    assert g.byval and g.pointee_size == 24
    threads = 64
    value = np.zeros(6 * threads, np.int32)  # 64 structs' worth: only the first is the parameter
    value[:2] = [40, 80]
    nindex = (np.arange(65) * 2).astype(np.int32)
    r = run(m, None, Launch(1, threads, {"g": value, "out": np.zeros(threads, np.int32), "nindex": nindex,
                                         "nlist": np.zeros(80, np.int32)},
                            pointers={"g": [[8, 1, 8, "nindex", 0, 0], [16, 1, 8, "nlist", 0, 0]]}))
    assert r.outcome.completed
    assert (r.buffers["out"] == np.r_[np.full(40, 2), np.zeros(24)]).all()
    (copies,) = [a for a in r.allocations if a is not None and a.name == "g"]
    assert copies.instance_size == 24 and copies.instances == threads
    assert (r.buffers["g"][:2] == [40, 80]).all() and r.buffers["g"].shape == (6,)


def test_a_struct_passed_by_value_is_each_threads_own_copy(tmp_path):
    """A kernel that advances its by-value random generator (``rng.state = …``) changes its own copy, as CUDA's
    parameters are: no race between the threads, and each reads the launch's value first (tiny-cuda-nn's
    generate_random_kernel raced on its pcg32 before)."""
    import json

    from typer.testing import CliRunner

    from simu.cli import app

    src = ("struct Rng { unsigned long long state, inc; };\n"
           "__global__ void gen(int n, Rng rng, unsigned long long *out) {\n"
           "  int i = threadIdx.x;\n  if (i >= n) return;\n  rng.state += i;\n"
           "  out[i] = rng.state * 3 + rng.inc;\n}\n")
    m = load_source(src, "cuda", path="byval.cu")
    (param,) = [p for p in m.kernel().params if p.name == "rng"]
    assert param.byval
    r = run(m, None, Launch(1, 8, {"n": 8, "rng": np.array([10, 1], np.uint64), "out": np.zeros(8, np.uint64)}))
    assert (r.buffers["out"] == (10 + np.arange(8)) * 3 + 1).all()
    assert (r.buffers["rng"] == [10, 1]).all()  # the launch's value, whatever the threads did to their copies
    (tmp_path / "byval.cu").write_text(src)
    res = CliRunner().invoke(app, ["check", str(tmp_path / "byval.cu"), "--budget", "1", "--format", "json"])
    findings = [f for file in json.loads(res.stdout)["files"] for k in file["kernels"] for f in k["findings"]]
    assert not [f for f in findings if f["kind"] == "race"], findings


def test_scalbn_scales_by_powers_of_two_as_ldexp_does():
    """``scalbnf(x, n)`` / ``scalbn`` (a frequency encoding's ``scalbnf(1.0f, level)``): x * 2^n, in each precision."""
    src = """__global__ void scal(float *out, const float *in, double *wide) {
    int i = threadIdx.x;
    out[i] = scalbnf(in[i], i - 2);
    wide[i] = scalbn((double)in[i], i);
}"""
    m = _src_module(src, "scalbn.cu")
    x = np.array([1.5, -3.0, 0.75, 1e-3, 6.0, 2.0, 0.0, 5.0], np.float32)
    out, wide = np.zeros(8, np.float32), np.zeros(8, np.float64)
    r = _run(m, "scal", (1, 1, 1), (8, 1, 1), {"out": out, "in": x, "wide": wide})
    n = np.arange(8)
    np.testing.assert_array_equal(r.buffers["out"], np.ldexp(x, n - 2).astype(np.float32))
    np.testing.assert_array_equal(r.buffers["wide"], np.ldexp(x.astype(np.float64), n))
