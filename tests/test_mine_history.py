"""`simu mine run --history`: fixing commits found, findings matched across line shifts, fixed vs unchanged."""

from __future__ import annotations

import pytest
from mine_helpers import content, history_repo, query, run_mine

from simu.mine.history import GPU_CODE, changed_gpu_files, classify, walk


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    base = tmp_path_factory.mktemp("history")
    repo, shas = history_repo(base / "repo")
    db = base / "h.db"
    summary = run_mine(db, [str(repo)], history=True)
    return repo, shas, db, summary


def test_walk_keeps_matching_commits_that_touch_gpu_code(history):
    repo, shas, _, _ = history
    kept = walk(repo)
    # newest first; "fix a typo in the helper" matches the keywords but touches no GPU code; the first commit's
    # message does not match
    assert [c.sha for c in kept] == [shas["comment"], shas["fix"]]
    assert kept[1].paths == ["kernels.cu"] and kept[1].subject == "fix race in shift: missing barrier"
    assert walk(repo, keywords="barrier") == [kept[1]]
    assert [c.sha for c in walk(repo, max_commits=1)] == [shas["comment"]]
    assert changed_gpu_files(repo, shas["fix"] + "~1", shas["unrelated"]) == (None, [])


def test_gpu_code_patterns():
    for line in ("+    __syncthreads();", "-__global__ void k()", "+ k<<<g, b>>>(x);",
                 "+  barrier(CLK_LOCAL_MEM_FENCE);", "+ cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);",
                 "+__device__ int f();", "+ v = __shfl_down_sync(FULL, v, 1);", "-  atomicAdd(&c[i], 1);",
                 "+  atomic_inc(&count);"):
        assert GPU_CODE.search(line), line
    for line in ("+ int x = 1;", "+ // nothing here", "+ my_barrier_count++;"):
        assert not GPU_CODE.search(line), line


def test_the_fix_is_classified_fixed_across_a_line_shift(history):
    _, shas, db, summary = history
    assert not summary.failed and summary.commits == 2
    changes = {(c[0], c[3]): c for c in content(db)["changes"]}
    fixed = changes[(shas["fix"], "shift")]
    assert fixed[1:] == (shas["fix"], "fixed", "race", "shift", "s", "kernels.cu", 3, None)[1:]
    # `other` moved one line down in the fix and one more in the comment commit: still the same race
    other = changes[(shas["fix"], "other")]
    assert other[1] == "unchanged" and (other[6], other[7]) == (9, 10)
    later = changes[(shas["comment"], "other")]
    assert later[1] == "unchanged" and (later[6], later[7]) == (10, 11)
    assert not [c for c in changes.values() if c[1] == "introduced"]
    assert (summary.fixed, summary.introduced, summary.unchanged) == (1, 0, 2)


def test_history_rerun_analyses_nothing(history):
    repo, _, db, _ = history
    before = content(db)
    again = run_mine(db, [str(repo)], history=True)
    assert again.analysed == 0 and again.kernels == 0 and again.commits == 0
    assert content(db) == before
    assert query(db, "SELECT status FROM commits ORDER BY id") == [("done",), ("done",)]


def _row(fid, key, kernel="k", file="a.cu", line=1, var="v"):
    return {"id": fid, "match_key": key, "kind": "race", "severity": "error", "kernel": kernel, "variable": var,
            "first_file": file, "first_line": line, "kernel_file": file, "kernel_name": kernel}


def test_classify_is_a_multiset_match():
    both = {("a.cu", "k")}
    before = [_row(1, "x"), _row(2, "x"), _row(3, "y")]
    after = [_row(4, "x", line=7), _row(5, "z")]
    got = sorted((c["class"], c["match_key"], c["parent_finding_id"], c["commit_finding_id"])
                 for c in classify(before, after, both, both))
    assert got == [("fixed", "x", 2, None), ("fixed", "y", 3, None), ("introduced", "z", None, 5),
                   ("unchanged", "x", 1, 4)]
    # a kernel not analysed after the commit (removed, or its analysis failed): unknown, not fixed
    assert [c["class"] for c in classify([_row(1, "x")], [], both, set())] == ["unknown"]
