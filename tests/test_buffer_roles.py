"""Contents inferred from use (issue 29): what a kernel uses each buffer's values for (simu/evolve/roles.py), the
CSR contents drawn from it (simu/launch/graphs.py), and the severity of what those contents show."""

from __future__ import annotations

import math

import numpy as np

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.refute import refute_by_contents
from simu.evolve.roles import INFERRED, buffer_roles, split
from simu.evolve.search import Search
from simu.launch import graphs
from simu.launch.buffers import buffer_from_spec, rng_state
from simu.pipeline import CheckSettings

KERNELS = """
__global__ void best_neighbour(const int* row, const int* col, int* best, const int* score, int n) {
  int lane = threadIdx.x % 32, v = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  if (v < n) {
    int m = 0;
    for (int e = row[v] + lane; e < row[v + 1]; e += 32) { int u = col[e]; if (v < u) m = max(m, score[u]); }
    for (int d = 1; d < 32; d *= 2) m = max(m, __shfl_xor_sync(~0u, m, d));
    if (lane == 0 && best[0] < m) atomicMax(best, m);
  }
}
__global__ void best_fixed(const int* row, const int* col, int* best, const int* score, int n) {
  int lane = threadIdx.x % 32, v = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  if (v < n) {
    int m = 0;
    for (int e = row[v] + lane; e < row[v + 1]; e += 32) { int u = col[e]; if (v < u) m = max(m, score[u]); }
    for (int d = 1; d < 32; d *= 2) m = max(m, __shfl_xor_sync(~0u, m, d));
    if (lane == 0) atomicMax(best, m);
  }
}
__global__ void spmv(const int* row, const int* col, const float* val, const float* x, float* y, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) { float s = 0; for (int j = row[i]; j < row[i + 1]; j++) s += val[j] * x[col[j]]; y[i] = s; }
}
__global__ void worklist(const int* wl, const int* row, int* deg, int m) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < m) { int v = wl[i]; deg[i] = row[v + 1] - row[v]; }
}
__global__ void scatter(const int* perm, const float* in, float* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[perm[i]] = in[i];
}
__global__ void average(const int *start, const unsigned *count, float *v, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    float s = 0; int b = start[i]; int c = count[i];
    for (int j = 0; j < c; j++) s += v[b + j];
    for (int j = 0; j < c; j++) v[b + j] = s / c;
  }
}
__global__ void rows(float *rows, const unsigned *info, const unsigned *off, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  float *r = &rows[off[i]];
  for (unsigned j = 0; j < info[i]; j++) r[j] = i;
}
__device__ void normalise(float *x, int n, int stride) {
  float s = 0;
  for (int j = 0; j < n; j++) s += x[j * stride];
  for (int j = 0; j < n; j++) x[j * stride] /= s;
}
__global__ void groups(float *x, int spatial, int *size, int *offset, int g) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= spatial * g) return;
  int s = i % spatial, k = i / spatial;
  normalise(x + offset[k] * spatial + s, size[k], spatial);
}
__global__ void strided(float *x, int stride, int *size, int *offset, int g) {
  int k = threadIdx.x + blockIdx.x * blockDim.x;
  if (k < g) for (int j = 0; j < size[k]; j++) x[offset[k] + j * stride] = k;
}
__global__ void batches(int *items, const unsigned *count, const unsigned *start) {
  if (threadIdx.x == 0) {
    int *cs = &items[start[blockIdx.x]];
    for (unsigned i = 0; i < count[blockIdx.x]; i++) cs[i] += 1;
  }
}
__global__ void rgba(const int* idx, const float* img, float* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = img[idx[i] * 4 + 3];
}
"""
_MODULE: list = []


def _module():
    if not _MODULE:
        _MODULE.append(load_source(KERNELS, "cuda"))
    return _MODULE[0]


def _roles(name: str) -> dict:
    return {k: (r.kind, tuple((t.name, t.unit, t.add) for t in r.targets), r.rows)
            for k, r in buffer_roles(_module().kernel(name)).items()}


def test_csr_offsets_and_the_column_indices_their_rows_address():
    assert _roles("best_neighbour") == {"row": ("offsets", (("col", 4, 0),), None),
                                        "col": ("index", (("score", 4, 0),), "row")}
    assert _roles("spmv") == {"row": ("offsets", (("col", 4, 0), ("val", 4, 0)), None),
                              "col": ("index", (("x", 4, 0),), "row")}


def test_a_worklist_of_ids_indexes_with_the_constant_it_adds_and_a_scaled_index_its_unit():
    assert _roles("worklist") == {"wl": ("index", (("row", 4, 1),), None)}
    assert _roles("rgba") == {"idx": ("index", (("img", 16, 3),), None)}
    assert _roles("scatter") == {"perm": ("index", (("out", 4, 0),), None)}


def test_offsets_rise_from_zero_within_the_edges_and_each_row_holds_sorted_distinct_columns():
    rng = np.random.default_rng(5)
    before = rng_state(rng)
    row = graphs.offsets(rng, 101, 300, np.dtype(np.int32))
    assert row[0] == 0 and np.all(np.diff(row) >= 0) and row[-1] <= 300 and row[-1] > 100
    middle = rng_state(rng)
    col = graphs.segments(rng, 300, 50, row, np.dtype(np.int32))
    assert col.min() >= 0 and col.max() < 50
    for i in range(100):
        cols = col[row[i]:row[i + 1]]
        assert np.all(np.diff(cols) > 0), (i, cols)
    shared = [set(col[row[i]:row[i + 1]]) & set(col[row[i + 1]:row[i + 2]]) for i in range(99)]
    assert any(shared)  # neighbouring rows meet on a column: threads of different rows collide as on a real graph
    spec = {"dtype": "int32", "length": 101, "fill": "offsets", "high": 300, "rng": before}
    assert np.array_equal(buffer_from_spec(spec), row)
    again = buffer_from_spec({"dtype": "int32", "length": 300, "fill": "segments", "high": 50, "rows": spec,
                              "rng": middle})
    assert np.array_equal(again, col)


def _search(name: str, seed: int = 0) -> Search:
    m = _module()
    return Search(m, m.kernel(name), CheckSettings(), None,
                  budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=seed)


def _evaluate(s: Search, fill: str, block: int, grid: int, **args) -> None:
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.GRID] = [math.log2(grid), 0.0, 0.0]
    genes[s.layout.at.BLOCK] = [math.log2(block), 0.0, 0.0]
    genes[s.layout.at.FILL] = float(s.layout.fill_choices.index(fill))
    for j, p in enumerate(s.layout.scalars):
        genes[s.layout.at.scalar(j)] = float(args.get(p.name, block * grid))
    assert s.evaluate(genes).valid


def test_a_kernel_with_roles_draws_them_as_one_of_its_fills_and_says_so():
    s = _search("best_neighbour")
    assert f"{INFERRED}+random" in s.layout.fill_choices and split(f"{INFERRED}+zeros") == (True, "zeros")
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.FILL] = float(s.layout.fill_choices.index(f"{INFERRED}+random"))
    launch = s.layout.launch(genes)
    assert launch.buffer_specs["row"]["fill"] == "offsets" and launch.buffer_specs["col"]["fill"] == "segments"
    assert "row as CSR offsets into col" in launch.origin
    assert launch.args["row"][-1] <= launch.args["col"].size and launch.args["col"].max() < launch.args["score"].size


def test_a_race_any_graph_shows_is_an_error_and_its_fixed_twin_is_clean():
    s = _search("best_neighbour")
    _evaluate(s, f"{INFERRED}+random", block=128, grid=2, n=8)
    refute_by_contents(s)
    races = [f for f, _ in s.found.values() if f.kind == "race"]
    assert races and all(f.severity == codes.ERROR for f in races), races
    fixed = _search("best_fixed")
    _evaluate(fixed, f"{INFERRED}+random", block=128, grid=2, n=8)
    assert not fixed.found


def test_a_scatter_through_drawn_indices_still_needs_equal_values_a_warning():
    s = _search("scatter")
    _evaluate(s, f"{INFERRED}+random", block=64, grid=1, n=64)
    refute_by_contents(s)
    races = [f for f, _ in s.found.values() if f.kind == "race"]
    assert races and all(f.severity == codes.WARNING for f in races), races
    assert not [f for f, _ in s.found.values() if f.kind == "out-of-bounds"]  # drawn indices stay in bounds


def test_a_replay_script_writes_graph_contents_out_as_data():
    from simu.validate.script import _standalone

    spec = {"dtype": "int32", "length": 9, "fill": "offsets", "high": 20,
            "rng": rng_state(np.random.default_rng(1))}
    out = _standalone(spec)
    assert out["fill"] == "data" and np.array_equal(buffer_from_spec(out), buffer_from_spec(spec))
    assert _standalone({"dtype": "int32", "length": 4, "fill": "zeros"})["fill"] == "zeros"


def test_segments_given_by_a_start_and_a_count_per_thread():
    assert _roles("average") == {"start": ("starts", (("v", 4, 0),), None), "count": ("counts", (("v", 4, 0),), None)}
    assert _roles("rows") == {"off": ("starts", (("rows", 4, 0),), None), "info": ("counts", (("rows", 4, 0),), None)}
    rng = np.random.default_rng(2)
    counts = graphs.counts(rng, 50, 120, np.dtype(np.uint32))
    starts = graphs.starts(counts, 50, np.dtype(np.int32))
    assert starts[0] == 0 and np.all(starts[1:] == starts[:-1] + counts[:-1].astype(np.int64))
    assert int(starts[-1]) + int(counts[-1]) <= 120  # disjoint, one after another, inside the buffer


def test_a_segment_scaled_alike_through_further_offsets_and_a_counter_scaled_otherwise():
    """``x + offset[k] * spatial + s`` walked by ``j * spatial`` for ``j < size[k]`` (a softmax per group of a
    tree, in a device function) is a segment; ``x[offset[k] + j * stride]`` is not: disjoint starts of unscaled
    counts would still interleave, so ``offset`` stays an index."""
    target = (("x", 4, 0),)
    assert _roles("groups") == {"offset": ("starts", target, None), "size": ("counts", target, None)}
    assert _roles("strided") == {"offset": ("index", target, None)}


def test_a_race_only_random_segments_show_is_a_warning_without_a_refutation_launch():
    """Blocks walking ``&items[start[b]]`` up to ``count[b]``: random starts and counts overlap, segments laid out as
    the kernel uses them do not; when only random-content launches showed the race, it is the host's data to decide
    even where no refutation launch is afforded (``Budget.refutations`` 0)."""

    s = _search("batches")
    s.budget = Budget(evaluations=40, seconds=600, probe_seconds=120, refutations=0)
    _evaluate(s, "random", block=32, grid=8)
    _evaluate(s, f"{INFERRED}+random", block=32, grid=8)
    races = [k for k, (f, _) in s.found.items() if f.kind == "race"]
    assert races and all(s.found[k][0].severity == codes.ERROR for k in races)
    refute_by_contents(s)
    assert all(s.found[k][0].severity == codes.WARNING for k in races)
    assert "comes from 'start', which the kernel uses as offsets or segments" in s.found[races[0]][0].message


def test_overlapping_segments_of_the_searchs_bytes_are_the_hosts_data_to_decide():
    """start[i] = i with count[i] = i overlap: laid out as the kernel uses them they do not, so the races random
    or distinct contents show are warnings."""
    for name in ("average", "rows"):
        s = _search(name)
        _evaluate(s, "random", block=32, grid=1, n=32)
        refute_by_contents(s)
        races = [f for f, _ in s.found.values() if f.kind == "race"]
        assert races and all(f.severity == codes.WARNING for f in races), (name, races)


HISTOGRAM_AND_HASH = """
#define NBINS 100
__global__ void histogram(const int *bins, int n, int *hist) {
  __shared__ int s_hist[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s_hist[bins[i]] += 1;
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&hist[b], s_hist[b]);
}
__global__ void insert(const int *keys, int nkeys, int *table, int *vals, int cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nkeys) return;
  int k = keys[i];
  unsigned slot = ((unsigned)k * 2654435761u) & (unsigned)(cap - 1);
  int prev = atomicCAS(&table[slot], 0, k);  // 0: an empty slot
  if (prev == 0 || prev == k) vals[slot] = i;
}
"""


def test_indices_into_a_fixed_array_and_hash_keys_repeat_in_a_programs_data():
    module = load_source(HISTOGRAM_AND_HASH, "cuda")
    hist = buffer_roles(module.kernel("histogram"))
    assert list(hist) == ["bins"] and hist["bins"].targets[0].name == "s_hist" and hist["bins"].targets[0].size == 400
    assert {n: r.kind for n, r in buffer_roles(module.kernel("insert")).items()} == {"keys": "keys"}
    for name, block, fill in (("histogram", 128, "random"), ("insert", 64, "zeros")):
        s = Search(module, module.kernel(name), CheckSettings(), None,
                   budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
        _evaluate(s, f"{INFERRED}+{fill}", block=block, grid=2, n=256, nkeys=128, cap=64)
        refute_by_contents(s)
        races = [f for f, _ in s.found.values() if f.kind == "race"]
        assert races and all(f.severity == codes.ERROR for f in races), (name, races)


def test_a_buffer_a_constant_bounded_loop_indexes_is_drawn_at_least_that_long():
    from simu.evolve.floors import length_floors

    module = load_source(HISTOGRAM_AND_HASH, "cuda")
    assert length_floors(module.kernel("histogram")) == {"hist": 100}
    s = _search("spmv")
    genes = s.layout.initial(s.rng)
    launch = s.layout.launch(genes)
    assert launch.args["row"].size == launch.args["col"].size + 1  # CSR offsets: one more than the rows


NEAREST = r"""
__global__ void nearest(const float *x, const float *y, const long *ptr_y, long *out, long dim) {
  long b = blockIdx.x, best = 0; float best_d = 1e38f;
  for (long n = ptr_y[b] + threadIdx.x; n < ptr_y[b + 1]; n += blockDim.x) {
    float d2 = 0;
    for (long d = 0; d < dim; d++) { float t = x[b * dim + d] - y[n * dim + d]; d2 += t * t; }
    if (d2 < best_d) { best_d = d2; best = n; }
  }
  if (threadIdx.x == 0) out[b] = best;
}
"""


def test_offsets_into_rows_of_a_scalar_width_stay_inside_at_the_launchs_width():
    """``y[n * dim + d]`` for n in [ptr_y[b], ptr_y[b + 1]): offsets into rows of ``dim`` elements.  The drawn
    offsets end at most at the buffer's length divided by the launch's ``dim``, so no drawn launch reads past it."""
    m = load_source(NEAREST, "cuda")
    (role,) = buffer_roles(m.kernel("nearest")).values()
    assert role.kind == "offsets" and [(t.name, t.unit, t.by) for t in role.targets] == [("y", 4, ("dim",))]
    s = Search(m, m.kernel("nearest"), CheckSettings(), None,
               budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    for seed, dim in ((0, 3), (1, 7), (2, 40)):
        genes = s.layout.initial(s.rng)
        genes[s.layout.at.GRID] = [2.0, 0.0, 0.0]
        genes[s.layout.at.BLOCK] = [5.0, 0.0, 0.0]
        genes[s.layout.at.FILL] = float(s.layout.fill_choices.index(f"{INFERRED}+random"))
        genes[s.layout.at.SEED] = float(seed)
        genes[s.layout.at.scalar(0)] = float(dim)
        ev = s.evaluate(genes)
        assert ev.valid and "ptr_y as CSR offsets into y" in ev.launch.origin
        ptr, y = ev.launch.args["ptr_y"], ev.launch.args["y"]
        assert ptr[0] == 0 and np.all(np.diff(ptr) >= 0) and ptr[-1] * ev.launch.args["dim"] <= y.size
        assert not any(f.kind == "out-of-bounds" and f.variable == "y" for f in ev.findings), ev.findings


def test_a_loop_from_a_start_to_the_start_plus_a_count_is_a_segment_not_csr_offsets():
    """``for (i = begins[n]; i < begins[n] + counts[n]; ++i) idx[i]``: ``begins`` and ``counts`` lay out disjoint
    segments of ``idx`` (CSR offsets drawn for ``begins`` with random counts ran past them)."""
    m = load_source(r"""
__global__ void gather(const int count, const int *idx, const int *begins, const int *counts, float *out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < count) {
    int lower = begins[index], upper = lower + counts[index];
    for (int i = lower; i < upper; ++i) out[index] += (float)idx[i];
  }
}""", "cuda")
    roles = buffer_roles(m.kernel("gather"))
    assert (roles["begins"].kind, roles["begins"].partner) == ("starts", "counts")
    assert (roles["counts"].kind, [t.name for t in roles["counts"].targets]) == ("counts", ["idx"])


RAGGED = r"""
__global__ void nearest_in_batch(int batch_size, int m, const float *xyz, const int *xyz_batch_cnt,
                                 const float *query, const int *query_batch_cnt, int *out) {
  int pt = blockIdx.x * blockDim.x + threadIdx.x;
  if (pt >= m) return;
  int bs = 0, cnt = query_batch_cnt[0];
  for (int k = 1; k < batch_size; k++) { if (pt < cnt) break; cnt += query_batch_cnt[k]; bs = k; }
  int start = 0;
  for (int k = 0; k < bs; k++) start += xyz_batch_cnt[k];  // where this batch's points start
  xyz += start * 3;
  int n = xyz_batch_cnt[bs], best = -1;
  float best_d = 1e30f;
  for (int k = 0; k < n; k++) {
    float d = xyz[k * 3] - query[pt * 3];
    if (d * d < best_d) { best_d = d * d; best = k; }
  }
  out[pt] = best + start;
}
"""


def test_counts_a_kernel_sums_into_where_its_batch_starts_are_laid_out_one_after_another():
    """Stacked point batches (PointNet++'s ``xyz_batch_cnt``): a batch starts where the counts before it end, so
    counts each below the points' length but summing past it send a batch out of bounds; they are drawn summing
    within it."""
    m = load_source(RAGGED, "cuda")
    roles = buffer_roles(m.kernel("nearest_in_batch"))
    assert (roles["xyz_batch_cnt"].kind, roles["xyz_batch_cnt"].partner) == ("counts", None)
    assert [t.name for t in roles["xyz_batch_cnt"].targets] == ["xyz"]
    s = Search(m, m.kernel("nearest_in_batch"), CheckSettings(), None,
               budget=Budget(evaluations=40, seconds=600, probe_seconds=120), seed=0)
    genes = s.layout.initial(s.rng)
    genes[s.layout.at.FILL] = float(s.layout.fill_choices.index(f"{INFERRED}+random"))
    launch = s.layout.launch(genes)
    counts, xyz = launch.args["xyz_batch_cnt"], launch.args["xyz"]
    assert int(counts.astype(np.int64).sum()) * 3 <= xyz.size, (counts.sum(), xyz.size)
    assert "xyz_batch_cnt as counts of segments laid out one after another in xyz" in launch.origin
