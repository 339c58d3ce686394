"""Dense segments (every thread hits a few words) are sampled, not paired exhaustively: the same races come out."""

from __future__ import annotations

import numpy as np
import pytest

from simu.detect import pairs
from simu.detect.pairs import diversity_tier, segment_row_cap

INDEGREE = """
__global__ void indegree(int nodes, const int *nindex, const int *nlist, int *indeg) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nodes; v += stride) {
    for (int e = nindex[v]; e < nindex[v + 1]; ++e) {
      const int u = nlist[e];
      indeg[u] += 1;
    }
  }
}
"""


def test_row_cap_keeps_the_cap_under_the_budget():
    sizes = np.array([256] * 100)
    assert segment_row_cap(sizes, 256, budget=10**9) == 256
    k = segment_row_cap(sizes, 256, budget=100_000)
    assert 100 * k * (k - 1) // 2 <= 100_000 < 100 * (k + 1) * k // 2
    assert segment_row_cap(sizes, 256, budget=10) == pairs.MIN_SEGMENT_ROWS


def test_tiers_put_each_instruction_and_warp_first():
    key = np.zeros(8, np.int64)
    instr = np.array([1, 1, 1, 1, 2, 2, 2, 2])
    warp = np.array([0, 0, 1, 1, 0, 0, 1, 1])
    lane = np.array([0, 0, 32, 33, 1, 1, 40, 40])
    tier = diversity_tier(key, (instr, warp), (instr, lane))
    assert tier.tolist() == [0, 2, 0, 1, 0, 2, 0, 2]


def _findings(tmp_path, monkeypatch, budget):
    from simu.api import load_file
    from simu.frontend import CompileOptions
    from simu.launch.spec import build_launch
    from simu.pipeline import CheckSettings, check_launches

    monkeypatch.setattr(pairs, "PAIR_BUDGET", budget)
    path = tmp_path / "indegree.cu"
    path.write_text(INDEGREE)
    module = load_file(path, CompileOptions())
    k = module.kernels[0]
    n = 4096
    launch = build_launch(k, "4", "128", [f"nodes={n}"],
                          [f"nindex=int32:{n + 1}:ramp", f"nlist=int32:{n}:random", "indeg=int32:4096:zeros"], 0, 32, 0)
    launch.args["nlist"][:] = np.abs(launch.args["nlist"]) % 8  # every thread adds to one of 8 counters
    rep = check_launches(module, k, [launch], CheckSettings())
    return sorted((f.kind, f.detail.get("access"), tuple(sorted({f.first.line, f.second.line})))
                  for f in rep.findings)


@pytest.mark.parametrize("budget", [1_000])
def test_sampled_dense_segments_report_the_same_races(tmp_path, monkeypatch, budget):
    full = _findings(tmp_path, monkeypatch, 10**9)
    assert ("race", "read-write", (7,)) in full and ("race", "write-write", (7,)) in full
    assert _findings(tmp_path, monkeypatch, budget) == full


ATOMICS_AND_A_READ = """
__kernel void k(__global const uint *in, __global uint *racc)
{
    __local uint a[4];
    const uint lid = get_local_id(0);
    if (lid < 4) a[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&a[0], in[get_global_id(0)]);
    if (lid < 4) atomic_add(&racc[lid], a[lid]);
}
"""


@pytest.mark.parametrize("block", [255, 256, 512])
def test_a_plain_read_among_more_atomics_than_the_cap_still_races(tmp_path, block):
    from simu.api import load_file
    from simu.frontend import CompileOptions
    from simu.launch.spec import build_launch
    from simu.pipeline import CheckSettings, check_launches

    path = tmp_path / "k.cl"
    path.write_text(ATOMICS_AND_A_READ)
    module = load_file(path, CompileOptions())
    k = module.kernels[0]
    launch = build_launch(k, "2", str(block), [], [f"in=uint32:{2 * block}", "racc=uint32:4:zeros"], 0, 32, 0)
    rep = check_launches(module, k, [launch], CheckSettings())
    assert [(f.kind, f.variable, f.detail.get("access")) for f in rep.findings] == [("race", "a", "read-write")]


def test_only_words_two_threads_can_conflict_on_are_candidates():
    """A word is judged by the race and barrier checks only when it is modified, touched by two lanes and not by
    atomics alone (two atomics never conflict): the rest cannot hold a race or a needed barrier."""
    from simu.interp.trace import ATOMIC, READ, WRITE

    # word: 0 atomics of two lanes; 1 atomics and a plain read; 2 reads only; 3 one lane; 4 written and read
    word = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    lane = np.array([0, 1, 0, 1, 0, 1, 5, 5, 0, 1])
    action = np.array([ATOMIC, ATOMIC, ATOMIC, READ, READ, READ, WRITE, READ, WRITE, READ])
    kept = pairs.candidate_words(word, lane, action, [])
    assert sorted(set(word[kept].tolist())) == [1, 4]


ATOMIC_COUNTER = """
__global__ void count(int *counter, int *seen, int peek) {
  atomicAdd(counter, 1);
  if (peek && threadIdx.x == 0 && blockIdx.x == 1) seen[0] = *counter;
}
"""


def test_atomics_of_many_blocks_race_with_a_plain_read_only(tmp_path):
    import json

    from typer.testing import CliRunner

    from simu.cli import app

    src = tmp_path / "count.cu"
    src.write_text(ATOMIC_COUNTER)
    runner = CliRunner()
    found = {}
    for peek in (0, 1):
        res = runner.invoke(app, ["check", str(src), "--kernel", "count", "--grid", "4", "--block", "64",
                                  "--buffer", "counter=int32:1", "--buffer", "seen=int32:1", "--arg", f"peek={peek}",
                                  "--format", "json"])
        kernel = json.loads(res.stdout)["files"][0]["kernels"][0]
        found[peek] = [f["kind"] for f in kernel["findings"] if f["severity"] == "error"]
    assert found[0] == []
    assert found[1], "the plain read races with the other blocks' atomics"


@pytest.mark.parametrize("ranges", [(5, 3, 7), (300, 200, 50), (1 << 20, 4, 9), (3, 1 << 40, 2)])
def test_group_ranks_number_tuples_in_lexicographic_order(ranges):
    """One combined key where the columns' ranges allow it, column by column or by a sort where they do not: the
    same ranks either way (the first column most significant)."""
    rng = np.random.default_rng(7)
    cols = [rng.integers(-r // 2, r - r // 2, 5000) for r in ranges]
    ids, n = pairs.group_ranks(*cols)
    _, expected = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
    assert n == int(expected.max()) + 1
    assert (ids == expected.reshape(-1)).all()
