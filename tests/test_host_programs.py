"""Whole programs whose bug shows only at the values the program passes (issue 28's corpus pairs): `simu scan` reads
them through clang — a dim3 set member by member and a literal float argument, a struct field set in another file's
constructor-like function, a value passed down wrappers (one recursive) from another file, an array-initialised
local size, a loop over a table of block sizes, a template argument of the launching function, a class's
``constexpr`` in the caller's ``assert`` over a size read at run time, a counter ``cudaMemset`` clears before the
launch, a size a function returns through a reference parameter (``int n = 0; read_size(path, n)``), a grid
rounded up over a block read at run time with a helper's allocation, a buffer's
length a ``cudaMalloc`` in ``main`` gives through a wrapper, values ``cudaMemcpyToSymbol`` copies
into ``__constant__`` memory (device pointers among them), a kernel whose input an earlier kernel writes at a grid
sized at run time (launched in place or by a helper it calls, or copied into the later kernel's buffer with a
device-to-device ``cudaMemcpy``), tied OpenCL arguments, indices drawn with
``<random>``, written into managed memory or copied into OpenCL buffers, two OpenCL kernels enqueued on one
buffer, a dynamic shared size computed at run time — and reports each bug
as an error at a host launch, and nothing on its fixed twin (where values the search invents would raise false
alarms: blocks past a tile, a negative scale, octaves past a table)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from simu.host.ast.expr import Choice, Const, Field, Items, Loop, Op, Param, from_json, to_json
from simu.host.ast.program import read_host_file
from simu.host.ast.scope import facts_from_json, facts_to_json
from simu.host.ast.values import Program, apply
from simu.host.index import build_host_index
from simu.scan import ScanOverrides, resolve_options, scan

PROGRAMS = Path(__file__).resolve().parent / "programs"
PAIRS = sorted(p.name for p in PROGRAMS.iterdir() if p.is_dir())


def _scan(root: Path):
    # the budget is CPU seconds: 2 s leaves a CI machine several times slower than this one the launches that find
    # each bug (at 1 s, a machine four times slower missed shared_bytes' and lowered device_copy's earlier kernel)
    over = ScanOverrides(budget=2.0, jobs=1, no_cache=True)
    return scan(*resolve_options([root], over))


def _findings(root: Path):
    result = _scan(root)
    kernels = [k for _, k in result.kernels()]
    assert kernels and all(k.status == "analysed" for k in kernels), [(k.name, k.status) for k in kernels]
    # every host file through clang: a file the text reader took instead reads no template argument
    assert result.stats.host_files["clang_failed"] == 0, result.stats.host_files
    return [f for k in kernels for f in k.findings]


@pytest.mark.parametrize("pair", PAIRS)
def test_the_bug_is_an_error_at_the_programs_launch(tmp_path: Path, pair: str):
    shutil.copytree(PROGRAMS / pair / "bug", tmp_path / pair)
    errors = [f for f in _findings(tmp_path / pair) if f.severity == "error"]
    assert errors, pair
    assert all(f.launch is not None and f.launch.origin.startswith("host launch at") for f in errors)


@pytest.mark.parametrize("pair", PAIRS)
def test_the_fixed_twin_is_clean(tmp_path: Path, pair: str):
    """Nothing at a launch the program makes; an instance of a template kernel it never runs (the other cases of
    `switch (tile)`) may keep warnings that say so, never an error."""
    shutil.copytree(PROGRAMS / pair / "fixed", tmp_path / pair)
    found = _findings(tmp_path / pair)
    assert [f for f in found if f.severity == "error" or not f.launch.origin.startswith("searched")] == []


def _launches(tmp_path: Path, pair: str, kernel: str):
    root = tmp_path / pair
    shutil.copytree(PROGRAMS / pair / "fixed", root)
    files = sorted(p for p in root.iterdir() if p.suffix in (".cu", ".h"))
    index = build_host_index(root, files)
    assert index.clang_read and not index.clang_failed, (index.clang_read, index.clang_failed)
    return index.cuda_launches_of(kernel)


def test_values_the_program_passes_are_read(tmp_path: Path):
    (x,) = _launches(tmp_path, "dim3_members", "blur")
    assert (x.grid, x.block, x.args[0], x.args[1]) == ((4, 4, 1), (16, 8, 1), 2048, pytest.approx(0.1))
    (x,) = _launches(tmp_path, "struct_field", "hidden_layer")
    assert x.args[1] == 16 and x.block == (32, 1, 1)
    assert sorted(x.args[0] for x in _launches(tmp_path, "wrapper_levels", "count_level")) == [1, 2, 3, 4, 5]
    (x,) = _launches(tmp_path, "array_local", "transpose")
    assert (x.grid, x.block) == ((4, 4, 1), (16, 16, 1))
    assert [(x.grid, x.block) for x in _launches(tmp_path, "loop_sizes", "stage")] == \
        [((128, 1, 1), (32, 1, 1)), ((64, 1, 1), (64, 1, 1)), ((32, 1, 1), (128, 1, 1))]
    (x,) = _launches(tmp_path, "template_size", "partial")
    assert (x.grid, x.block) == ((16, 1, 1), (128, 1, 1))
    (x,) = _launches(tmp_path, "tile_switch", "tiled_product")  # the case the helper's tile picks, its members
    assert (x.targs, x.grid, x.block, x.args[3]) == ("16", (3, 3, 1), (16, 16, 1), 48)
    (x,) = _launches(tmp_path, "init_members", "halo_right")  # members an initialising call assigns
    assert x.args[2:] == (96, 32)
    (x,) = _launches(tmp_path, "symbol_fields", "bucket_count")  # `&c` of a struct set member by member
    assert x.symbols == (("C", 0, (8192, 16)),) and x.shmem == 64
    # a field of the struct an option parser returns, set to one of three constants in its loop over argv
    assert sorted(x.args[1] for x in _launches(tmp_path, "option_struct", "stage_pages")) == [4096, 65536, 2097152]


def test_what_is_not_known_keeps_its_relations_to_the_arguments(tmp_path: Path):
    """``n`` comes from the command line: the grid follows it and the caller's assert restricts it, in the terms
    of the kernel's arguments, though the tile is a class's constexpr the text reader cannot read."""
    (x,) = _launches(tmp_path, "assert_constexpr", "scale")
    assert x.block == (256, 1, 1) and x.grid in (None, (None, 1, 1)) and x.args[2] is None
    assert x.grid_sym[0] == "(_a2_+256-1)/256" and "_a2_%256 == 0" in x.requires


def test_a_launch_names_the_calls_its_values_come_through(tmp_path: Path):
    launches = _launches(tmp_path, "wrapper_levels", "count_level")
    top = next(x for x in launches if x.args[0] == 5)
    assert top.through == ("octaves at pyramid.cu:18", "extract at pyramid.cu:23", "main at main.cu:8")


def test_parameters_that_are_references_to_non_const_are_outputs():
    from simu.host.ast.outputs import reference_outputs

    def decl(t: str) -> dict:
        return {"kind": "FunctionDecl", "type": {"qualType": t}}

    assert reference_outputs(decl("bool (const char *, int &, std::vector<int> &)")) == (False, True, True)
    assert reference_outputs(decl("void (const std::map<int, int> &, int &&, float)")) == (False, False, False)
    assert reference_outputs(decl("std::istream &(int &)")) == (True,)
    assert reference_outputs(decl("void ()")) == ()


def test_c_semantics_of_operators():
    assert apply("/", "i", 32, (-7, 2)) == -3 and apply("%", "i", 32, (-7, 2)) == -1
    assert apply("-", "u", 32, (0, 1)) == 2**32 - 1
    assert apply("/", "f", 64, (7.0, 2)) == 3.5
    assert apply("/", "i", 32, (1, 0)) is None
    assert apply("+", "i", 32, ()) is None  # an operator clang wrote with no operand (a fold over a pack)


def test_expressions_and_facts_round_trip_through_json(tmp_path: Path):
    e = Op("+", (Param(0, "n"), Choice((Const(1), Field("Net", "h")))), "u", 64)
    assert from_json(to_json(e)) == e
    loop = Loop(Const(0), Op("<", (Const(0), Const(3))), Const(1))
    assert from_json(to_json(Items((loop, Const(2.5))))) == Items((loop, Const(2.5)))
    shutil.copytree(PROGRAMS / "wrapper_levels" / "fixed", tmp_path / "p")
    facts = read_host_file(tmp_path / "p" / "pyramid.cu", tmp_path / "p")
    assert facts is not None and facts_from_json(facts_to_json(facts)) == facts


def test_a_guard_stops_recursion_and_a_false_branch_makes_no_launch(tmp_path: Path):
    (tmp_path / "m.cu").write_text("""#include <cuda_runtime.h>
__global__ void k(int *o, int n) { o[threadIdx.x] = n; }
const bool kUseWide = false;
void down(int *o, int n) { if (n <= 2) return; k<<<1, n>>>(o, n); down(o, n / 2); }
int main() {
    int *o; cudaMalloc(&o, 64 * sizeof(int));
    down(o, 64);
    if (kUseWide) k<<<1, 1024>>>(o, 1024);
    return 0;
}
""")
    facts = read_host_file(tmp_path / "m.cu", tmp_path)
    assert facts is not None
    program = Program(facts)
    down = next(f for f in facts if f.name == "down")
    assert sorted(c.params[1] for c in program.contexts(down)) == [2, 4, 8, 16, 32, 64]
    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    assert sorted(x.block[0] for x in index.cuda_launches_of("k")) == [4, 8, 16, 32, 64]


def test_an_int_block_size_the_program_reads_at_run_time_is_one_dimensional(tmp_path: Path):
    """``k<<<16, threads>>>`` with ``int threads`` from the command line: x is searched, y and z are 1 (a dim3 made
    from an int), not three searched dimensions."""
    from simu.host.contracts import contracts_for

    (tmp_path / "m.cu").write_text("""#include <cstdlib>
#include <cuda_runtime.h>
__global__ void k(float *o, int n) { o[threadIdx.x] = n; }
int main(int argc, char **argv) {
    int threads = atoi(argv[1]);
    float *o; cudaMalloc(&o, 4096 * sizeof(float));
    k<<<16, threads>>>(o, 4096);
    return 0;
}
""")
    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    (x,) = index.cuda_launches_of("k")
    assert (x.grid, x.block) == ((16, 1, 1), (None, 1, 1))
    (c,) = contracts_for(index, "k", [("o", 4), ("n", None)], None).contracts
    assert c.block is None and c.dims["block.y"] == "1" and c.dims["block.z"] == "1" and c.args == {"n": 4096}


def test_a_global_constant_of_the_file_is_its_own_not_another_program_s(tmp_path: Path):
    """Two programs in one folder each define ``const int tile = …`` (internal linkage): the launch of each reads its
    own file's value, not the union of both (which left the block searched)."""
    for name, tile in (("a.cu", 32), ("b.cu", 64)):
        (tmp_path / name).write_text(f"""#include <cuda_runtime.h>
__global__ void k(float *o) {{ o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }}
const int tile = {tile};
int main() {{
    float *o; cudaMalloc(&o, 4096 * sizeof(float));
    dim3 block(tile, 1, 1);
    k<<<4096 / tile, block>>>(o);
    return 0;
}}
""")
    index = build_host_index(tmp_path, [tmp_path / "a.cu", tmp_path / "b.cu"])
    expected = [("a.cu", (128, 1, 1), (32, 1, 1)), ("b.cu", (64, 1, 1), (64, 1, 1))]
    assert sorted((v.file, v.grid, v.block) for v in index.cuda_read if v.kernel == "k") == expected  # clang's
    assert sorted((x.file, x.grid, x.block) for x in index.cuda_launches_of("k")) == expected


def test_each_instantiation_of_a_launching_template_runs_at_its_own_call(tmp_path: Path):
    """``run<2>`` and ``run<8>`` share a type: each runs at its own call (it used to take every call of ``run`` and
    name the first), and the launch in it is of its own instantiation of the kernel, told from the one of another
    type beside it in the wrapper by clang's template arguments: one contract per kernel instantiation, at its call."""
    (tmp_path / "m.cu").write_text("""#include <cuda_runtime.h>
template <class T, int N> __global__ void k(T s, T *d) { d[blockIdx.x * blockDim.x + threadIdx.x] = s * N; }
template <int N> void run(double *d) {
    k<float, N><<<N, 32>>>(1.0f, (float *)d);
    k<double, N><<<N, 64>>>(1.0, d);
}
int main() {
    double *d; cudaMalloc(&d, 4096 * sizeof(double));
    run<2>(d);
    run<8>(d);
    return 0;
}
""")
    from simu.host.contracts import contracts_for

    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    params = [("s", None), ("d", 4)]
    made = {}
    for name in ("k<float, 2>", "k<float, 8>", "k<double, 8>"):
        found = contracts_for(index, name, params, None)
        made[name] = [(c.grid, c.block, c.origin.split(" (")[0], c.origin.split("called from ")[1].rstrip(")")) for c in
                      found.contracts]
    assert made == {"k<float, 2>": [((2, 1, 1), (32, 1, 1), "host launch at m.cu:9", "main at m.cu:9")],
                    "k<float, 8>": [((8, 1, 1), (32, 1, 1), "host launch at m.cu:10", "main at m.cu:10")],
                    "k<double, 8>": [((8, 1, 1), (64, 1, 1), "host launch at m.cu:10", "main at m.cu:10")]}


def test_a_type_template_s_instantiations_that_share_a_type_keep_their_own_allocations(tmp_path: Path):
    """``runTest<float>`` and ``runTest<double>`` take the same parameters: the launch in the second allocates
    ``n * sizeof(T)`` of doubles, and its kernel's buffer is that long, not the float instantiation's bytes read as
    doubles (a contract with half the length made an out-of-bounds error)."""
    (tmp_path / "m.cu").write_text("""#include <cuda_runtime.h>
template <class T, class V, bool tex> __global__ void k(V *d, T s) { d[blockIdx.x * blockDim.x + threadIdx.x].x *= s; }
template <class T, class V, bool tex> void runTest(const char *name) {
    int n = 4096;
    V *d; cudaMalloc((void **)&d, n * sizeof(V));
    k<T, V, tex><<<n / 256, 256>>>(d, (T)2);
}
int main() {
    runTest<float, float4, true>("sp");
    runTest<double, double4, true>("dp");
    return 0;
}
""")
    from simu.host.contracts import contracts_for

    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    for name, elem in (("k<float, float4, true>", 16), ("k<double, double4, true>", 32)):
        found = contracts_for(index, name, [("d", elem), ("s", None)], None).contracts
        assert {(c.grid, str(c.buffer_lengths.get("d"))) for c in found} == {((16, 1, 1), "4096")}, (name, found)


def test_a_block_size_a_call_writes_leaves_no_text_relation_of_its_initialiser(tmp_path: Path):
    """``int b = 0; cudaOccupancyMaxPotentialBlockSize(&g, &b, k); k<<<(n + b - 1) / b, b>>>``: the block is what the
    call writes at run time; the lexical grid ``(n+(0-1))/0`` (the initialiser) is no relation of the launch."""
    from simu.host.contracts import contracts_for

    (tmp_path / "m.cu").write_text("""#include <cuda_runtime.h>
__global__ void k(float *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1.0f; }
void run(float *o, int n) {
    int min_grid = 0;
    int b = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &b, k, 0, 0);
    const unsigned int grid = (n + (b - 1)) / b;
    k<<<dim3(grid), dim3(b)>>>(o, n);
}
int main() {
    float *o; cudaMalloc(&o, 10000 * sizeof(float));
    run(o, 10000);
    return 0;
}
""")
    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    (c,) = contracts_for(index, "k", [("o", 4), ("n", None)], None).contracts
    assert c.grid is None and c.block is None and c.args == {"n": 10000}
    assert not any("/0" in e for e in c.dims.values()), c.dims


def test_a_loop_multiplying_its_counter_up_to_a_size_read_at_run_time_takes_its_powers(tmp_path: Path):
    """``for (offset = 1; offset < size; offset *= 256) if (offset > 1) k<<<…>>>(…, offset)`` with ``size`` from the
    command line: ``offset`` is one of the powers 256, 65536 (the branch leaves out 1), never a value the search
    draws (3, which reads before the buffer)."""
    from simu.host.contracts import contracts_for

    (tmp_path / "m.cu").write_text("""#include <cstdlib>
#include <cuda_runtime.h>
__global__ void spread(float *b, int size, int offset) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if ((x + 1) % offset != 0 && x < size) b[x] += b[x - (x % offset + 1)];
}
int main(int argc, char **argv) {
    const int size = atoi(argv[1]);
    float *d; cudaMalloc(&d, size * sizeof(float));
    for (int offset = 1; offset < size; offset *= 256) {
        if (offset > 1) spread<<<(size + 127) / 128, 128>>>(d, size, offset);
    }
    return 0;
}
""")
    index = build_host_index(tmp_path, [tmp_path / "m.cu"])
    found = contracts_for(index, "spread", [("b", 4), ("size", None), ("offset", None)], None).contracts
    assert sorted(c.args.get("offset") for c in found) == [256, 65536], [(c.args, c.origin) for c in found]


def test_the_scan_counts_the_host_files_read_through_clang(tmp_path: Path):
    shutil.copytree(PROGRAMS / "wrapper_levels" / "fixed", tmp_path / "p")
    broken = "__global__ void z(int *o) { o[0] = 1; }\nvoid go(int *o) { z<<<1, 1>>>(o); this is not C++\n"
    (tmp_path / "p" / "broken.cu").write_text(broken)
    result = _scan(tmp_path / "p")
    assert result.stats.host_files["indexed"] == 3 and result.stats.host_files["clang"] >= 2


def test_launches_behind_the_gpu_switch_and_member_conditions_are_read(tmp_path: Path):
    """A project header declares its launch helpers only under the switch that gates its CUDA headers (darknet's
    ``#ifdef GPU``): clang reads the host file with it defined, as the kernels are compiled.  A launch whose call
    sits under ``if (l.flag)`` stays a launch although every write to ``flag`` that was read is 0: a member may hold
    values no file read shows."""
    (tmp_path / "cuda.h").write_text("#ifdef GPU\n#include \"cuda_runtime.h\"\n#define BLOCK 256\n"
                                     "dim3 grid_of(int n);\n#endif\n")
    (tmp_path / "k.cu").write_text("""#include "cuda.h"
struct layer { int flag; int n; };
__global__ void k(float *x, int n) { x[threadIdx.x] = n; }
dim3 grid_of(int n) { dim3 d((n + BLOCK - 1) / BLOCK, 1, 1); return d; }
void k_gpu(float *x, int n) { k<<<grid_of(n), BLOCK>>>(x, n); }
void forward(layer l, float *x) { if (l.flag) k_gpu(x, 77); }
layer make() { layer l; l.flag = 0; l.n = 1; return l; }
""")
    index = build_host_index(tmp_path, [tmp_path / "k.cu"])
    assert ("k.cu", 5, "k") in index.cuda_read_sites  # without GPU, clang drops the statement: BLOCK is undeclared
    assert [(v.block, v.args[1]) for v in index.cuda_read] == [((256, 1, 1), 77)]
    assert any(x.block == (256, 1, 1) and x.args[1] == 77 for x in index.cuda_launches_of("k"))


def test_a_kernel_launched_through_a_pointer_or_a_table_takes_the_launch(tmp_path: Path):
    (tmp_path / "main.cu").write_text(
        "__global__ void add(float *p, int n) { p[threadIdx.x] += n; }\n"
        "__global__ void mul(float *p, int n) { p[threadIdx.x] *= n; }\n"
        "__global__ void other(float *p, int n) { p[threadIdx.x] = n; }\n"
        "typedef void (*kernel_t)(float *, int);\n"
        "int main(int argc, char **argv) {\n  float *p;\n  cudaMalloc(&p, 1024 * sizeof(float));\n"
        "  kernel_t table[] = {add, &mul};\n  for (int i = 0; i < 2; i++)\n    table[i]<<<4, 128>>>(p, 3);\n"
        "  kernel_t k = argc > 2 ? other : add;\n  k<<<2, 64>>>(p, 5);\n  kernel_t one = table[1];\n"
        "  one<<<1, 32>>>(p, 7);\n  return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    made = {k: sorted((x.grid, x.block, x.args[1]) for x in index.cuda_launches_of(k)) for k in ("add", "mul", "other")}
    assert made == {"add": [((2, 1, 1), (64, 1, 1), 5), ((4, 1, 1), (128, 1, 1), 3)],
                    "mul": [((1, 1, 1), (32, 1, 1), 7), ((4, 1, 1), (128, 1, 1), 3)],
                    "other": [((2, 1, 1), (64, 1, 1), 5)]}


def test_a_buffer_the_host_clears_is_zero_filled_and_struct_sizes_are_values(tmp_path: Path):
    """``cudaMemset(out, 0, sizeof(float))`` before the launch: the search fills ``out`` with zeros (random bytes in
    an atomicAdd counter hand two threads one slot); ``sizeof(Detection)`` is the struct's size, so a length made
    of it is a value."""
    (x,) = _launches(tmp_path, "memset_counter", "collect")
    assert x.zeroed == (1,) and "out zero-filled as cudaMemset leaves it" in x.through
    (tmp_path / "sizes").mkdir()
    (tmp_path / "sizes" / "main.cu").write_text(
        "__global__ void k(float *out, int n, int len) {}\n"
        "struct alignas(16) Box { float lo[3]; char tag; };\nstruct Pair { char c; double d; };\n"
        "typedef struct { short a; int b[2]; } Cell;\nunion Word { int i; char c[6]; };\n"
        "void run(float *out, int n) {\n"
        "  k<<<1, 32>>>(out, n, n * (int)sizeof(Box) + (int)sizeof(Pair) * 100 + (int)sizeof(Cell) * 10000"
        " + (int)sizeof(Word) * 1000000);\n}\n")
    (y,) = build_host_index(tmp_path / "sizes", [tmp_path / "sizes" / "main.cu"]).cuda_launches_of("k")
    assert y.arg_sym[2] == "_a1_*16+1600+120000+8000000"


def test_a_memset_in_the_other_branch_does_not_clear_the_launch_s_buffer(tmp_path: Path):
    (tmp_path / "main.cu").write_text(
        "__global__ void a(int *n) { atomicAdd(n, 1); }\n__global__ void b(int *n) { n[threadIdx.x] = 1; }\n"
        "void run(int *n, bool atomic) {\n  if (atomic) {\n    cudaMemset(n, 0, 4);\n    a<<<1, 32>>>(n);\n"
        "  } else {\n    b<<<1, 32>>>(n);\n  }\n}\n"
        "int main() { int *n; cudaMalloc(&n, 128); run(n, true); run(n, false); return 0; }\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    assert {v.kernel: v.zeroed for v in index.cuda_read} == {"a": (0,), "b": ()}


def test_a_wrapper_called_only_down_one_branch_makes_no_launch_in_the_other(tmp_path: Path):
    """``run(n, true)`` alone: the text reader resolves the wrapper's ``b<<<…>>>`` at that call too, clang reads
    that the call takes the other branch: ``b`` is never launched."""
    (tmp_path / "main.cu").write_text(
        "__global__ void a(int *n) { atomicAdd(n, 1); }\n__global__ void b(int *n) { n[threadIdx.x] = 1; }\n"
        "void run(int *n, bool atomic) {\n  if (atomic) {\n    a<<<1, 32>>>(n);\n"
        "  } else {\n    b<<<1, 32>>>(n);\n  }\n}\n"
        "int main() { int *n; cudaMalloc(&n, 128); run(n, true); return 0; }\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    assert len(index.cuda_launches_of("a")) == 1 and index.cuda_launches_of("b") == []


def test_a_launch_written_with_spaced_chevrons_is_read_through_clang(tmp_path: Path):
    (tmp_path / "main.cu").write_text(
        "__global__ void k(float *p, int n) { p[threadIdx.x] = n; }\n"
        "static void run(float *p, int block) { k << < 4, block >> > (p, block * 2); }\n"
        "int main() { float *p; cudaMalloc(&p, 1024); run(p, 64); return 0; }\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    assert [(v.grid, v.block, v.args[1]) for v in index.cuda_read if v.kernel == "k"] == [((4, 1, 1), (64, 1, 1), 128)]


def test_an_api_launch_with_int_sizes_is_one_dimensional(tmp_path: Path):
    """``cudaLaunchCooperativeKernel((void *)k, blocks, threads, …)`` with ``int`` sizes: ``dim3(n)``, so y and z
    are 1 (searched in three dimensions, blocks sharing ``blockIdx.x`` raised races the program cannot have)."""
    (tmp_path / "main.cu").write_text(
        "__global__ void reduce(float *out, const float *in, int n) { out[blockIdx.x] = in[threadIdx.x]; }\n"
        "void run(float *out, float *in, int n, int threads) {\n  int blocks = n / threads;\n"
        "  void *params[] = {&out, &in, &n};\n"
        "  cudaLaunchCooperativeKernel((void *)reduce, blocks, threads, params, 0, 0);\n}\n"
        "int main(int argc, char **argv) { float *o, *i; int n = atoi(argv[1]); run(o, i, n, 256); return 0; }\n")
    (x,) = build_host_index(tmp_path, [tmp_path / "main.cu"]).cuda_launches_of("reduce")
    assert (x.grid, x.block, x.grid_sym[0]) == ((None, 1, 1), (256, 1, 1), "_a2_/256")


def test_a_stale_text_equality_between_arguments_gives_way_to_clang(tmp_path: Path):
    """``old = off; off -= sizes[k]``: the text reader saw ``old = off``; clang reads ``off`` after its update, as
    ``old`` less the block size, so the search draws ``off`` from ``old`` and its block (a witness at ``old == off``
    is no launch of the program, and makes the two blocks' ranges overlap)."""
    (tmp_path / "main.cu").write_text(
        "#include <cuda_runtime.h>\nint sizes[4];\n"
        "__global__ void back(float *d, int off, int old) { d[off + threadIdx.x] += d[old + threadIdx.x]; }\n"
        "int main(int argc, char **argv) {\n    float *d; cudaMalloc(&d, 4096);\n    int off = 0, old;\n"
        "    for (int i = 0; i < 4; i++) off += sizes[i];\n"
        "    for (int k = 3; k > 0; k--) {\n        old = off;\n        off -= sizes[k];\n"
        "        dim3 block(sizes[k]);\n        back<<<1, block>>>(d, off, old);\n    }\n    return 0;\n}\n")
    launches = build_host_index(tmp_path, [tmp_path / "main.cu"]).cuda_launches_of("back")
    assert len(launches) == 3 and all(x.arg_sym == (None, "_a2_-blockDim_x", None) for x in launches), \
        [x.arg_sym for x in launches]
    result = _scan(tmp_path)
    assert not [f for _, k in result.kernels() for f in k.findings if f.kind == "race"]


def test_a_launch_through_a_variadic_macro_in_an_included_header_is_read(tmp_path: Path):
    """The source launches nothing itself: a header it includes calls a project macro whose body launches (a
    variadic one, with the block built member by member).  The source is still read through clang."""
    (tmp_path / "launch.h").write_text(
        "#define LAUNCH_2D(F, NX, NY, TX, TY, ...) { \\\n  dim3 t, b; t.x = (TX); t.y = (TY); t.z = 1; \\\n"
        "  b.x = ((NX) + t.x - 1) / t.x; b.y = ((NY) + t.y - 1) / t.y; b.z = 1; \\\n"
        "  F<<<b, t>>>(__VA_ARGS__); }\n")
    (tmp_path / "draw.h").write_text('#include "launch.h"\n'
                                     "void draw(float *img, int w, int h) {\n"
                                     "  LAUNCH_2D(paint, w, h, 16, 8, img, w, h);\n}\n")
    (tmp_path / "main.cu").write_text(
        "__global__ void paint(float *img, int w, int h) {\n"
        "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "  if (x < w && y < h) img[y * w + x] = 1.0f;\n}\n"
        '#include "draw.h"\n'
        "int main() { float *img; cudaMalloc(&img, 64 * 32 * sizeof(float)); draw(img, 64, 32); return 0; }\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu", tmp_path / "draw.h", tmp_path / "launch.h"])
    assert index.clang_read == ["main.cu"] and not index.clang_failed
    made = [(x.grid, x.block, x.args[1:]) for x in index.cuda_launches_of("paint")]
    assert made == [((4, 4, 1), (16, 8, 1), (64, 32))], made


def test_a_file_including_thrust_takes_its_declarations_from_a_prelude(tmp_path: Path):
    """thrust and cub are ~800 headers: their declarations come from a precompiled prelude, so the dump holds the
    file's own declarations and its launch is read through clang."""
    from simu.host.ast.clang import dump, own_declarations

    (tmp_path / "sum.cu").write_text(
        "#include <thrust/device_vector.h>\n#include <thrust/reduce.h>\n"
        "__global__ void twice(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }\n"
        "float run(int n) {\n  thrust::device_vector<float> v(n, 1.0f);\n"
        "  twice<<<1, 128>>>(thrust::raw_pointer_cast(v.data()), n);\n"
        "  return thrust::reduce(v.begin(), v.end());\n}\n"
        "int main() { return (int)run(100); }\n")
    tu = dump(tmp_path / "sum.cu", libraries=True)
    assert tu is not None
    files = {Path(f).name for f, _ in own_declarations(tu)}
    assert "sum.cu" in files and not any(f.endswith(".h") for f in files), sorted(files)[:10]
    index = build_host_index(tmp_path, [tmp_path / "sum.cu"])
    assert index.clang_read == ["sum.cu"] and not index.clang_failed
    assert [(x.block, x.args[1]) for x in index.cuda_launches_of("twice")] == [((128, 1, 1), 100)]


def test_a_stale_prelude_is_built_again_before_the_parse(tmp_path: Path, monkeypatch):
    """A prelude older than a header it holds (a reinstalled package) is rebuilt at once: a file including thrust
    parsed without it dumps past the size limit, and its launches would be lost to the text reader."""
    from simu.host.ast.clang import dump

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "scale.cu").write_text(
        "#include <thrust/device_vector.h>\n"
        "__global__ void scale(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }\n"
        "int main() { thrust::device_vector<float> v(64, 1.0f);\n"
        "  scale<<<1, 64>>>(thrust::raw_pointer_cast(v.data()), 64); return 0; }\n")
    assert dump(tmp_path / "scale.cu", libraries=True) is not None
    (header,) = [h for h in (tmp_path / "cache").rglob("host-*.cuh") if "thrust" in h.read_text()]
    built = header.with_suffix(".pch").stat().st_mtime_ns
    os.utime(header, ns=(built + 10**9, built + 10**9))  # the prelude's header now newer than the prelude
    assert dump(tmp_path / "scale.cu", libraries=True) is not None
    assert header.with_suffix(".pch").stat().st_mtime_ns != built
