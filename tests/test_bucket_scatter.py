"""Bucket scatters and kernels of one file run in order with no host code (issue 29, kernel sequences).

``slot = base[k] + atomicAdd(&cursor[k], 1)`` hands out a permutation only when ``base`` holds where each key's
slots start and ``cursor`` is cleared (simu/ir/buckets.py, drawn by simu/launch/graphs.py); a kernel that only
reads a buffer another kernel of its file writes reads what that kernel leaves (simu/evolve/sequence.py
``file_priors``), so a race on slots the first hands out twice is an error in search mode, and none shows when the
first hands out a permutation."""

from __future__ import annotations

import numpy as np

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.roles import buffer_roles
from simu.evolve.search import run_search
from simu.evolve.sequence import file_priors
from simu.ir.buckets import Bucket, bucket_scatters
from simu.launch import graphs
from simu.launch.buffers import buffer_from_spec
from simu.pipeline import CheckSettings

SCATTERS = """
__global__ void counting_sort(const int *key, const int *start, int *fill, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int k = key[i]; out[start[k] + atomicAdd(&fill[k], 1)] = x[i]; }
}
__global__ void loaded_twice(const int *src, const int *row, int *cursor, int *slot, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) slot[e] = row[src[e]] + atomicAdd(&cursor[src[e]], 1);
}
__global__ void other_index(const int *src, const int *row, int *cursor, int *slot, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) slot[e] = row[src[e]] + atomicAdd(&cursor[e], 1);
}
__global__ void no_cursor(const int *src, const int *row, int *slot, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) slot[e] = row[src[e]];
}
"""

PAIR = """
__global__ void edge_slots(const int *src, const int *row, int *cursor, int *slot, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) SLOT;
}
__global__ void scatter_edges(const int *slot, const int *dst, int *adj, int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < m) adj[slot[e]] = dst[e];
}
"""
FIXED = "{ const int s = src[e]; slot[e] = row[s] + atomicAdd(&cursor[s], 1); }"
RACY = "slot[e] = row[src[e]]"


def _kernels(source: str):
    m = load_source(source, "cuda")
    return m, {k.display_name.split("(")[0]: k for k in m.kernels}


def test_a_base_plus_a_counting_atomic_at_one_loaded_key_is_a_bucket_scatter():
    _, ks = _kernels(SCATTERS)
    assert bucket_scatters(ks["counting_sort"]) == (Bucket("start", "fill", "key"),)
    assert bucket_scatters(ks["loaded_twice"]) == (Bucket("row", "cursor", "src"),)  # src[e] loaded twice alike
    assert bucket_scatters(ks["other_index"]) == ()  # the counter at another index: no bucket of a key
    assert bucket_scatters(ks["no_cursor"]) == ()
    roles = buffer_roles(ks["counting_sort"])
    assert (roles["start"].kind, roles["start"].partner) == ("buckets", "key")
    assert (roles["fill"].kind, roles["fill"].partner) == ("cursor", "key")


def test_bases_are_where_each_keys_slots_start_and_replay_from_their_spec():
    keys = np.array([2, 0, 2, 5, 9, -1, 2], np.int32)  # 9 and -1 are no key of six buckets: they own no slot
    assert graphs.buckets(keys, 6, np.dtype(np.int32)).tolist() == [0, 1, 1, 4, 4, 4]
    spec = {"dtype": "int32", "length": 6, "fill": "buckets",
            "keys": {"dtype": "int32", "length": 7, "fill": "ramp", "modulo": 3}}
    assert buffer_from_spec(spec).tolist() == [0, 3, 5, 7, 7, 7]  # keys 0 1 2 0 1 2 0


def test_a_kernel_reading_what_one_other_kernel_of_its_file_writes_runs_after_it():
    m, ks = _kernels(PAIR.replace("SLOT", FIXED))
    (prior,) = file_priors(m, ks["scatter_edges"])
    assert prior.kernel == "edge_slots" and prior.alongside and prior.runs
    assert dict(prior.shared) == {3: "slot", 4: "m"}  # by name: the slots and the edge count
    assert file_priors(m, ks["edge_slots"]) == ()  # it reads nothing the other writes
    two = PAIR.replace("SLOT", FIXED) + "__global__ void reset(int *slot, int m) { slot[threadIdx.x] = 0; }"
    m2, ks2 = _kernels(two)
    assert file_priors(m2, ks2["scatter_edges"]) == ()  # two kernels write slot: which runs first is not known
    other = PAIR.replace("SLOT", FIXED).replace("int *slot, int m)", "int *slot, int m, int stride)", 1)
    m3, ks3 = _kernels(other)
    assert file_priors(m3, ks3["scatter_edges"]) == ()  # a scalar nothing here gives


def _findings(source: str):
    m, ks = _kernels(source)
    return run_search(m, ks["scatter_edges"], CheckSettings(),
                      budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0).findings


def test_slots_handed_out_twice_race_in_search_mode_and_a_permutation_does_not():
    races = [f for f in _findings(PAIR.replace("SLOT", RACY)) if f.kind == "race"]
    assert races and all(f.severity == codes.ERROR for f in races), races
    assert "slot as edge_slots leaves it run first at this launch" in races[0].launch.origin
    fixed = _findings(PAIR.replace("SLOT", FIXED))
    assert not [f for f in fixed if f.severity == codes.ERROR or f.kind == "race"], fixed
