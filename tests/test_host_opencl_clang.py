"""OpenCL host code read through clang (simu.host.ast.opencl, simu.host.ast.clsites): the values behind
``clSetKernelArg``'s ``&n`` and the NDRange's size arrays, evaluated over the whole program (a wrapper's parameters
from every call site, a struct field from every assignment, a loop counter's range), refine the lexical reader's
``ArgSite``/``LaunchSite``\\ s by (file, line); a wrapper called with two sets of values makes two launches, each
taking the arguments set in its own call; a value the lexical reader knows is never replaced by a different one."""

from __future__ import annotations

import shutil
from pathlib import Path

from simu.host.ast.clang import host_language
from simu.host.ast.program import read_host_file
from simu.host.ast.values import Context, Program
from simu.host.contracts import contracts_for
from simu.host.index import build_host_index, index_host_file

PROGRAMS = Path(__file__).resolve().parent / "programs"

HOST = """#include <stdlib.h>
#include <CL/cl.h>

typedef struct { int n; int tile; } Config;
static Config cfg;

void setup(int n) { cfg.n = n; cfg.tile = 64; }

void launch(cl_command_queue q, cl_kernel k, int n, size_t local) {
    clSetKernelArg(k, 0, sizeof(int), &n);
    clSetKernelArg(k, 1, sizeof(int), &cfg.tile);
    size_t g = 1024;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &local, 0, NULL, NULL);
}

void go(cl_command_queue q, cl_kernel k) {
    int i = 0;
    float scale = 0.5f;
    int n = cfg.n;
    clSetKernelArg(k, i++, sizeof(float), (void *)&scale);
    clSetKernelArg(k, i++, sizeof(int), &n);
    size_t g[2] = {64, 64};
    size_t l[2] = {8, 8};
    clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL);
    if (i > 4)
        clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL, 0, NULL, NULL);
    for (size_t t = 16; t <= 64; t *= 2)
        clEnqueueNDRangeKernel(q, k, 1, NULL, g, &t, 0, NULL, NULL);
}

int main(void) {
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 0, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, NULL, 0, &err);
    cl_kernel k = clCreateKernel(p, "k", &err);
    cl_kernel k2 = clCreateKernel(p, "k2", &err);
    float *x = malloc(16 * sizeof(float));
    setup(7);
    launch(q, k, 3, 64);
    launch(q, k, 5, 128);
    go(q, k2);
    free(x);
    return 0;
}
"""


def _line(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def _index(tmp_path: Path):
    (tmp_path / "host.c").write_text(HOST)
    return build_host_index(tmp_path, [tmp_path / "host.c"])


def test_the_programs_sites_take_the_values_clang_reads(tmp_path: Path):
    """The corpus pair: the local size comes down ``run_sums(…, 64)`` from ``main``, ``count`` from a parameter and
    ``width`` from a field ``configure`` assigns in another file; the lexical reader knows none of them."""
    root = tmp_path / "p"
    shutil.copytree(PROGRAMS / "opencl_wrapper" / "fixed", root)
    sums = (root / "sums.c").read_text()
    lexical = index_host_file(root / "sums.c", "sums.c")
    assert lexical is not None and {a.index: a.value for a in lexical.args} == {0: None, 1: None, 2: None, 3: None}
    assert [(s.global_size, s.local_size) for s in lexical.launches] in ([(None, None)], [((None,), (None,))])

    index = build_host_index(root, sorted(p for p in root.iterdir() if p.suffix in (".c", ".h")))
    assert {"main.c", "sums.c", "layout.c"} <= set(index.clang_read) and not index.clang_conflicts
    h = next(h for h in index.files if h.path == "sums.c")
    args = {(a.line, a.index): a.value for a in h.args}
    assert args[(_line(sums, "&count"), 2)] == 4096 and args[(_line(sums, "&layout->width"), 3)] == 64
    named = [s for s in h.launches if s.kernel_name == "partial_sums"]
    assert [(s.work_dim, s.global_size, s.local_size, s.through) for s in named] == \
        [(1, (4096,), (64,), ("main at main.c:37",))]

    params = [("in", 4), ("out", 4), ("count", None), ("width", None)]
    (c,) = contracts_for(index, "partial_sums", params, None).contracts
    assert (c.block, c.grid, c.args) == ((64, 1, 1), (64, 1, 1), {"count": 4096, "width": 64})
    assert "values read through clang: called from main at main.c:37" in c.origin


def test_a_wrapper_called_with_two_local_sizes_makes_two_launches(tmp_path: Path):
    """Each launch takes the arguments set in the same call of the wrapper (``n`` = 3 with 64, 5 with 128), never a
    mix; a field assigned in another function (``cfg.tile``) is the same in both."""
    index = _index(tmp_path)
    (h,) = index.files
    launch = [s for s in h.launches if s.kernel_name == "k"]
    first = _line(HOST, "launch(q, k, 3, 64)")
    assert sorted((s.local_size, s.through) for s in launch) == [((64,), (f"main at host.c:{first}",)),
                                                                ((128,), (f"main at host.c:{first + 1}",))]
    assert len({s.variant for s in launch}) == 2 and all(s.variant for s in launch)
    n_line = _line(HOST, "sizeof(int), &n);")
    assert sorted((a.variant != "", a.value) for a in h.args if a.line == n_line) == [(False, None), (True, 3),
                                                                                    (True, 5)]
    assert {a.value for a in h.args if a.line == n_line + 1} == {64}
    made = contracts_for(index, "k", [("n", None), ("tile", None)], None).contracts
    assert sorted((c.block, c.grid, c.args["n"], c.args["tile"]) for c in made) == \
        [((64, 1, 1), (16, 1, 1), 3, 64), ((128, 1, 1), (8, 1, 1), 5, 64)]


def test_arguments_behind_casts_increments_and_fields(tmp_path: Path):
    """``clSetKernelArg(k, i++, …, (void *)&scale)``: argument ``i`` before its increment, a float value, ``n`` from a
    field set by the call ``setup(7)``; a pointer to const is not written by the call (``&cfg.tile`` stays 64)."""
    (tmp_path / "host.c").write_text(HOST)
    facts = read_host_file(tmp_path / "host.c", tmp_path)
    assert facts is not None
    program = Program(facts)
    go = next(f for f in facts if f.name == "go")
    sets = [c for c in go.calls if c.callee == "clSetKernelArg"]
    ctx = Context((None, None))
    assert [(program.values(c.args[1], go, ctx), program.values(c.args[3], go, ctx)) for c in sets] == \
        [([0], [0.5]), ([1], [7])]
    assert all(w[:2] != ("Config", "tile") for f in facts if f.name == "launch" for w in f.writes)
    index = build_host_index(tmp_path, [tmp_path / "host.c"])
    (h,) = index.files
    assert [(a.index, a.value) for a in h.args if a.line in (sets[0].line, sets[1].line)] == [(0, 0.5), (1, 7)]


def test_a_launch_no_context_makes_is_dropped(tmp_path: Path):
    """``if (i > 4)`` after two ``i++``: that enqueue is no launch of the program (a condition over a field, as
    ``n`` here, never drops one: a member may hold values no file read shows)."""
    index = _index(tmp_path)
    (h,) = index.files
    never = _line(HOST, "        clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL")
    assert never not in {s.line for s in h.launches}
    assert _line(HOST, "clEnqueueNDRangeKernel(q, k, 2, NULL, g, l") in {s.line for s in h.launches}


def test_a_value_the_host_text_knows_is_kept_and_the_difference_reported(tmp_path: Path):
    """The lexical reader reads a loop's first pass (``t`` = 16); clang reads every pass (16, 32, 64): the host
    text's value stays, the launches it would make collapse into one, and each difference is reported.  An array
    of two sizes enqueued with one dimension is read to that dimension (the grid is then known)."""
    index = _index(tmp_path)
    (h,) = index.files
    loop = _line(HOST, "clEnqueueNDRangeKernel(q, k, 1, NULL, g, &t")
    assert [(s.global_size, s.local_size) for s in h.launches if s.line == loop and s.kernel_name == "k2"] == \
        [((64,), (16,))]
    assert index.clang_conflicts == [f"host.c:{loop}: local size[0]: the host text gives 16, clang 32",
                                     f"host.c:{loop}: local size[0]: the host text gives 16, clang 64"]


def test_opencl_host_files_are_parsed_as_c_or_cpp(tmp_path: Path):
    assert host_language(Path("a.c"), "#include <CL/cl.h>\nint main(void) { return 0; }") == "c"
    assert host_language(Path("a.cpp"), "void f(cl_kernel k) { clSetKernelArg(k, 0, 4, 0); }") == "c++"
    assert host_language(Path("a.cu"), "#include <CL/cl.h>\n__global__ void k() {}") == "cuda"
    assert host_language(Path("a.c"), "int main(void) { return 0; }") == "cuda"
    (tmp_path / "b.cpp").write_text("#include <CL/cl.h>\n#include <vector>\n"
                                    "void f(cl_kernel k) { std::vector<int> v(3); int n = (int)v.size() + 2;\n"
                                    "  clSetKernelArg(k, 0, sizeof(int), &n); }\n")
    (f,) = read_host_file(tmp_path / "b.cpp", tmp_path) or []
    assert [c.callee for c in f.calls] == ["clSetKernelArg"]
