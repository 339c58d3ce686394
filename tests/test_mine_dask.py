"""`simu mine run --scheduler`: the analyses as Dask tasks give the database the local pool gives."""

from __future__ import annotations

import pytest
from mine_helpers import content, history_repo, query, run_mine

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    # in-process: one worker thread, no dashboard; the analyses still run in simu's worker processes
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        with distributed.Client(cl) as c:
            yield c


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    base = tmp_path_factory.mktemp("dask")
    repo, _ = history_repo(base / "repo")
    folder = base / "folder"
    folder.mkdir()
    (folder / "w.cu").write_text("__global__ void w(int *o) { o[0] = threadIdx.x; }\n")
    return base, repo, folder


@pytest.fixture(scope="module")
def local_history(sources):
    base, repo, _ = sources
    run_mine(base / "local-history.db", [str(repo)], history=True)
    return content(base / "local-history.db")


@pytest.mark.parametrize("ship", ["sources", "clone"])
def test_history_on_dask_stores_what_the_local_pool_stores(client, sources, local_history, ship):
    base, repo, _ = sources
    remote = base / f"dask-{ship}.db"
    summary = run_mine(remote, [str(repo)], history=True, scheduler=client, ship=ship,
                       worker_work=str(base / f"worker-{ship}"))
    assert not summary.failed and summary.fixed == 1
    assert content(remote) == local_history
    assert query(remote, "SELECT backend FROM runs") == [("dask",)]


def test_head_mode_on_dask_with_a_folder_and_a_bad_source(client, sources):
    base, repo, folder = sources
    args = [str(repo), str(folder), str(base / "missing")]
    local = base / "head-local.db"
    run_mine(local, args)
    remote = base / "head-dask.db"
    summary = run_mine(remote, args, scheduler=client, worker_work=str(base / "worker-head"))
    assert [s for s, _ in summary.failed] == [str(base / "missing")]
    assert content(remote) == content(local)
    assert len(content(remote)["kernels"]) == 3
    # the same command again: nothing is submitted
    again = run_mine(remote, args, scheduler=client, worker_work=str(base / "worker-head"))
    assert again.snapshots == 0 and again.kernels == 0
