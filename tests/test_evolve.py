"""The launch search (simu/evolve): dictionary, operators, decoding, determinism, cache,
constraints, shrinking, and the gated bugs only the full search reaches."""

import random
from pathlib import Path

import numpy as np
import pytest

from simu.api import load_source
from simu.check import CheckSettings
from simu.evolve import Budget, run_search
from simu.evolve.dictionary import argument_constants
from simu.evolve.genes import Genes
from simu.evolve.operators import mutate
from simu.evolve.search import Search
from simu.launch.buffers import PLAIN_FILLS, buffer_from_spec
from simu.launch.constraints import KernelConstraints

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

GATED_CUDA = r"""
#define BLOCK 128
__global__ void __launch_bounds__(BLOCK) gated(const int *in, int *out, int n, int mode, int flags, int shift) {
  __shared__ int tile[BLOCK];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  tile[t] = g < n ? in[g] : 0;
  if (mode == 5) {
    out[g % n] = tile[(t + 1) % BLOCK];  // reads a neighbour's slot with no barrier: a race
    return;
  }
  __syncthreads();
  switch (flags) { case 12: case 40: out[g % n] = 1; break; default: break; }
  if ((flags & 64) && shift + 3 < 0) out[0] = tile[0];
  out[g % n] = tile[(t + 1) % BLOCK];
}
"""


def _module(src=GATED_CUDA, lang="cuda"):
    return load_source(src, lang)


def test_dictionary_reads_the_constants_each_argument_is_compared_with():
    m = _module()
    per, pool = argument_constants(m.kernels[0])
    assert 5 in per["mode"]  # mode == 5 (equality: the constant itself)
    assert {12, 40, 64} <= set(per["flags"])  # switch cases and the bit mask
    assert {-4, -3, -2} <= set(per["shift"])  # shift + 3 < 0: the bound, moved back by the +3, and its neighbours
    assert {5, 12, 40, 64} <= set(pool)


def test_dictionary_tries_the_values_that_put_an_argument_minus_a_constant_before_an_address():
    m = load_source("""
__kernel void tail(__global const float *x, __global float *y, const int count) {
  const int idx = get_global_id(0) << 3;
  const int index = (idx + 8) > count ? (count - 8) : idx;  // before the buffers when count < 8
  vstore8(vload8(0, x + index), 0, y + index);
}
""", "opencl")
    per, pool = argument_constants(m.kernels[0])
    assert {7, 8} <= set(per["count"])
    assert -1 not in pool


def test_mutation_steps_dimensions_in_range_and_jumps_to_dictionary_words():
    rng = random.Random(1)
    at = Genes(1)
    genes = [1.0, 0.0, 0.0, 7.0, 0.0, 0.0, 4.0, 3.0, 0.0]
    assert len(genes) == at.size
    seen = set()
    for cauchy in (False, True):
        for _ in range(300):
            child = mutate(genes, rng, cauchy, at, rate=1.0, dictionary=[[5]])
            assert all(0.0 <= g <= 10.0 for g in child[at.DIMS])
            assert 0 <= int(child[at.FILL]) < len(PLAIN_FILLS)
            seen.add(child[at.scalar(0)])
    assert 5.0 in seen  # the dictionary word
    assert len(seen) > 20  # and ordinary normal/Cauchy steps


def test_search_is_deterministic_under_a_seed_and_caches_launches():
    m = _module()
    k = m.kernels[0]
    a = run_search(m, k, CheckSettings(), None, Budget(evaluations=24, seconds=60), "full", seed=3)
    b = run_search(m, k, CheckSettings(), None, Budget(evaluations=24, seconds=60), "full", seed=3)
    assert [f.key for f in a.findings] == [f.key for f in b.findings]
    assert a.stats.evaluations == b.stats.evaluations
    s = Search(m, k, CheckSettings(), None, Budget(evaluations=10, seconds=60), "full", seed=0)
    genes = s.layout.initial(s.rng)
    s.evaluate(genes)
    s.evaluate(list(genes))
    assert s.stats.evaluations == 1 and s.stats.cache_hits == 1


def test_full_search_reaches_the_gated_race_and_shrinks_its_witness():
    m = _module()
    res = run_search(m, m.kernels[0], CheckSettings(), None, Budget(evaluations=40, seconds=60), "full", seed=0)
    races = [f for f in res.findings if f.kind == "race"]
    assert races, [f.kind for f in res.findings]
    assert res.stats.first_finding_eval is not None and res.stats.first_finding_eval <= 20
    race = races[0]
    assert {race.first.line, race.second.line} == {7, 9}  # tile[t] = ... and the neighbour's read
    assert race.launch is not None
    # shrinking: the witness is no larger than the launch that first showed the race
    s = Search(m, m.kernels[0], CheckSettings(), None, Budget(evaluations=40, seconds=60), "full", seed=0)
    s.evolve()
    before = {key: s.layout.launch(genes).total_threads for key, (_, genes) in s.found.items()}
    s.shrink()
    after = {key: s.layout.launch(genes).total_threads for key, (_, genes) in s.found.items()}
    assert all(after[k] <= before[k] for k in before) and any(after[k] < before[k] for k in before)


def test_constraints_fix_the_block_and_bound_arguments():
    m = _module()
    c = KernelConstraints(block=(64, 1, 1), arg_ranges={"mode": (0, 3)}, args={"flags": 0})
    s = Search(m, m.kernels[0], CheckSettings(), c, Budget(evaluations=12, seconds=60), "full", seed=0)
    s.evolve()
    assert s.cache
    for ev in s.cache.values():
        assert ev.launch.block == (64, 1, 1)
        assert 0 <= ev.launch.args["mode"] <= 3
        assert ev.launch.args["flags"] == 0


@pytest.mark.parametrize("rel", ["cuda/gated/scan_suffix_mode_race.cu", "opencl/gated/softmax_mode_race.cl"])
def test_gated_bugs_need_the_full_search(rel):
    """Random launches from the same prior miss a bug behind `mode == 5`; the full search reads
    the constant off the kernel and finds it within the same budget."""
    from simu.bench.search import search_corpus_file

    full = search_corpus_file(CORPUS / rel, "full", evaluations=40, seed=0, guard_seconds=600, probe_seconds=120)
    rand = search_corpus_file(CORPUS / rel, "random", evaluations=40, seed=0, guard_seconds=600, probe_seconds=120)
    assert full.found == full.expected and not full.unexpected
    assert rand.found < rand.expected


BIG_BUFFER_CUDA = r"""
__global__ void big(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[0] += a[i];  // every thread writes a[0]: a race
}
"""


def test_witnesses_with_buffers_over_64_kib_replay_exactly():
    """Every buffer the search draws carries its spec: a witness launch is replayable whatever its size."""
    m = _module(BIG_BUFFER_CUDA)
    k = m.kernels[0]
    c = KernelConstraints(args={"n": 40000}, buffer_lengths={"a": "n"})
    res = run_search(m, k, CheckSettings(), c, Budget(evaluations=12, seconds=60), "full", seed=0)
    assert res.findings
    for f in res.findings:
        spec = f.launch.buffers["a"]
        assert spec["fill"] != "unknown" and spec["length"] == 40000
        assert buffer_from_spec(spec).nbytes > 64 * 1024
    s = Search(m, k, CheckSettings(), c, Budget(evaluations=12, seconds=60), "full", seed=0)
    s.evolve()
    s.shrink()
    assert s.found
    for finding, genes in s.found.values():
        launch = s.layout.launch(genes)
        spec = finding.launch.buffers["a"]
        assert spec["fill"] != "unknown"
        assert np.array_equal(buffer_from_spec(spec), launch.args["a"])


def test_layout_backs_images_textures_and_samplers_with_arrays():
    from simu.launch.images import DEFAULT_SAMPLER

    cl = load_source("__kernel void k(read_only image2d_t img, sampler_t s, write_only image2d_t o, int n) {\n"
                     "  int x = get_global_id(0), y = get_global_id(1);\n"
                     "  write_imagef(o, (int2)(x, y), read_imagef(img, s, (int2)(x + n, y)));\n}\n", "opencl")
    s = Search(cl, cl.kernels[0], CheckSettings(), None, Budget(evaluations=4, seconds=60), "full", seed=0)
    assert [p.name for p in s.layout.scalars] == ["n"]  # images and samplers are no genes
    for _ in range(5):
        launch = s.layout.launch(s.layout.initial(s.rng))
        gx, gy, _ = launch.global_size
        for name in ("img", "o"):
            a = launch.args[name]
            assert a.dtype == np.float32 and a.ndim == 3 and a.shape[2] == 4
            assert a.shape[1] >= gx and a.shape[0] >= gy and a.shape[0] * a.shape[1] >= launch.total_threads
            np.testing.assert_array_equal(buffer_from_spec(launch.buffer_specs[name]), a)
        assert launch.args["s"] == DEFAULT_SAMPLER
    res = run_search(cl, cl.kernels[0], CheckSettings(), None, Budget(evaluations=6, seconds=60), "full", seed=0)
    assert res.status == "analysed", res.reason

    cu = load_source("__global__ void k(cudaTextureObject_t t, int *o) { o[threadIdx.x] = tex1Dfetch<int>(t, 0); }",
                     "cuda")
    c = KernelConstraints(buffer_lengths={"t": "7"}, fills={"t": "ones"})
    s = Search(cu, cu.kernels[0], CheckSettings(), c, Budget(evaluations=4, seconds=60), "full", seed=0)
    assert s.layout.scalars == []
    launch = s.layout.launch(s.layout.initial(s.rng))
    assert launch.args["t"].dtype == np.int32 and launch.args["t"].tolist() == [1] * 7
