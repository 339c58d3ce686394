"""Integer members of a struct passed by value that index a fixed-size array (simu/evolve/member_bounds.py): the
search draws them inside the array, so a params struct's level selector never runs off the struct."""

from __future__ import annotations

import numpy as np

from simu import codes
from simu.api import load_source
from simu.evolve import Budget
from simu.evolve.member_bounds import bound_members, member_bounds
from simu.evolve.search import Search, run_search
from simu.pipeline import CheckSettings

# a mip-chain builder in the style of a rasteriser's texture module: one struct of parameters passed by value,
# passed on by value to a device function (clang copies it into a local), the level being built a member
LEVELS = """
struct Params { const float *tex[8]; int width; int height; int channels; int level; };

template <int C> static __device__ void build(const Params p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int w = max(p.width >> p.level, 1);  // a level is at least one texel wide
  if (x >= w) return;
  const float *in = p.tex[p.level - 1];
  float *out = (float *)p.tex[p.level];
  out[x] = 0.5f * (in[2 * x] + in[2 * x + 1])%s;
}
__global__ void build1(const Params p) { build<1>(p); }
"""
FIXED = LEVELS % ""
RACY = LEVELS % " + out[x + 1]"


def _search_budget() -> Budget:
    return Budget(evaluations=40, seconds=600, probe_seconds=120)


def test_a_member_indexing_an_array_member_is_bounded_through_the_local_copy():
    m = load_source(FIXED, "cuda")
    k = m.kernel("build1")
    bounds = member_bounds(k)
    # tex[8] takes 64 bytes, then width, height, channels; level at byte 76, 1 .. 8 for tex[level - 1] and
    # 0 .. 7 for tex[level]: 1 .. 7
    assert bounds == {"p": ((76, 4, 1, 7),)}


def test_every_drawn_launch_keeps_the_member_inside_whatever_the_fill():
    m = load_source(FIXED, "cuda")
    k = m.kernel("build1")
    s = Search(m, k, CheckSettings(), budget=_search_budget(), seed=0)
    layout = s.layout
    for seed in range(12):
        genes = layout.initial(s.rng)
        genes[layout.at.SEED] = float(seed)
        for fill in range(len(layout.fill_choices)):
            genes[layout.at.FILL] = float(fill)
            launch = layout.launch(genes)
            level = int(np.frombuffer(launch.args["p"].tobytes()[76:80], np.int32)[0])
            assert 1 <= level <= 7, (seed, layout.fill_choices[fill], level)
            assert "p" not in launch.buffer_specs  # the record embeds the bounded bytes
        variant = layout.distinct(launch)
        if variant is not None:
            level = int(np.frombuffer(variant[0].args["p"].tobytes()[76:80], np.int32)[0])
            assert 1 <= level <= 7


def test_bound_members_keeps_the_drawn_value_varying():
    args = {"p": np.arange(8, dtype=np.int32)}
    specs = {"p": {"fill": "ramp"}}
    bound_members(args, {"p": ((4, 4, 1, 3), (8, 4, 0, 0))}, specs)
    assert args["p"].tolist() == [0, 1 + 1 % 3, 0, 3, 4, 5, 6, 7]
    assert specs == {}


def test_no_error_from_a_level_the_program_never_builds_and_the_race_still_found():
    """Drawn freely, ``level`` ran ``tex[level - 1]`` past the private copy of the struct: an out-of-bounds error
    at a level no host sets.  Bounded, the fixed kernel has no error, and a real race (each thread also reads
    its neighbour's output) is still reported as an error."""
    m = load_source(FIXED, "cuda")
    r = run_search(m, m.kernel("build1"), CheckSettings(), budget=_search_budget(), seed=0)
    assert not [f for f in r.findings if f.severity == codes.ERROR and f.space == "private"], r.findings
    m = load_source(RACY, "cuda")
    r = run_search(m, m.kernel("build1"), CheckSettings(), budget=_search_budget(), seed=0)
    assert not [f for f in r.findings if f.space == "private"], r.findings
    assert any(f.kind == "race" for f in r.findings), r.findings


# a graph in a struct passed on by value, with a pointer array indexed by a member: clang copies the whole struct
# into a local (no scalar replacement past the variable index), and every member is read from that copy
COPIED_GRAPH = """
struct Graph { int n; int level; const int *row; const int *col; int *degree[4]; };
template <int K> static __forceinline__ __device__ void visit(const Graph g) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.n) return;
  for (int e = g.row[v]; e < g.row[v + 1]; e++) atomicAdd(&g.degree[g.level][g.col[e]], K);
}
__global__ void indegree(const Graph g) { visit<1>(g); }
"""


def test_members_read_through_the_local_copy_keep_their_roles_and_bounds():
    from simu.evolve.roles import buffer_roles

    m = load_source(COPIED_GRAPH, "cuda")
    k = m.kernel("indegree")
    assert any(ins.opcode == "call" and str(ins.attrs.get("callee")).startswith("llvm.memcpy")
               for b in k.function.blocks for ins in b.instrs)
    assert member_bounds(k) == {"g": ((4, 4, 0, 3),)}  # level selects one of degree[4]
    roles = buffer_roles(k)
    assert roles["g.row"].kind == "offsets" and [t.name for t in roles["g.row"].targets] == ["g.col"]
