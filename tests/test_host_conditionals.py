"""``#define``s under ``#if``/``#ifdef`` chains, kept as a preprocessor keeps them with no ``-D`` from the build
(simu/host/conditionals.py), and the buffer sizes the host reader computes from them."""

from __future__ import annotations

from pathlib import Path

from simu.host.contracts import contracts_for
from simu.host.cscan import CSource
from simu.host.index import build_host_index

DATASETS = """
#ifndef SIZES_H
# define SIZES_H
# if !defined(MINI_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif
# if !defined(N)
#  ifdef MINI_DATASET
#   define N 128
#  endif
#  ifdef STANDARD_DATASET /* the default */
#   define N 512
#  endif
#  ifdef LARGE_DATASET
#   define N 2048
#  endif
# endif
#endif
"""


def test_a_dataset_chain_gives_the_default_size():
    assert CSource(DATASETS).macros["N"] == "512"


def test_elif_else_platform_and_undecided_branches():
    macros = CSource("""
#define LEVEL 3
#if LEVEL > 4
#define TILE 64
#elif LEVEL == 3 && !defined(SMALL)
#define TILE 32
#else
#define TILE 8
#endif
#ifdef _WIN32
#define SEP 92
#else
#define SEP 47
#endif
#if 0
#define DEAD 1
#endif
#if __CUDA_ARCH__ >= 700
#define WARPS 4
#else
#define WARPS 2
#endif
""").macros
    assert macros["TILE"] == "32" and macros["SEP"] == "47" and "DEAD" not in macros
    assert macros["WARPS"] == "4"  # the build decides: the first candidate, as before


def test_an_opencl_buffer_sized_by_a_dataset_macro(tmp_path: Path):
    (tmp_path / "sizes.h").write_text(DATASETS)
    (tmp_path / "main.c").write_text("""#include <CL/cl.h>
#include "sizes.h"
int main(void) {
    cl_context ctx; cl_command_queue q; cl_program p; cl_int err; int n = N;
    cl_kernel k = clCreateKernel(p, "scale", &err);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * N * N, NULL, &err);
    size_t global[2] = {N, N}, local[2] = {32, 8};
    clSetKernelArg(k, 0, sizeof(cl_mem), (void *)&a);
    clSetKernelArg(k, 1, sizeof(int), (void *)&n);
    clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL);
    return 0;
}
""")
    (tmp_path / "k.cl").write_text("__kernel void scale(__global float *a, int n) { a[get_global_id(1) * n + "
                                   "get_global_id(0)] *= 2.0f; }\n")
    index = build_host_index(tmp_path, [tmp_path / "main.c", tmp_path / "sizes.h"])
    (c,) = contracts_for(index, "scale", [("a", 4), ("n", None)], None, cl_file="k.cl", api="opencl").contracts
    assert c.args == {"n": 512} and c.buffer_lengths == {"a": "262144"}, (c.args, c.buffer_lengths)


def test_sizeof_a_type_a_define_names_and_a_size_held_in_a_variable():
    from simu.host.cvalues import Evaluator

    src = CSource("#define DATA_TYPE float\n#define N 1024\nunsigned int bytes;\n"
                  "void init(void) { bytes = N * N * sizeof(DATA_TYPE); make(bytes); }\n")
    ev = Evaluator(src)
    pos = src.code.index("make(")
    assert ev.int_value("sizeof(DATA_TYPE)", pos) == 4
    assert ev.element_count("bytes", pos) == (4 * 1024 * 1024, None)


HYBRID = """
#define TD
unsigned reach(int *d, int n) {
#ifdef TD
  top_down<<<(n + 255) / 256, 256>>>(d, n);
#else
  bottom_up<<<(n + 255) / 256, 256>>>(d, n);
#endif
#ifdef USE_TEXTURES
  textured<<<(n + 255) / 256, 256>>>(d, n);
#endif
#if 0
  old<<<1, 1>>>(d, n);
#endif
  return 0;
}
"""


def test_launches_in_a_branch_no_build_compiles_are_none_of_the_programs():
    """``#define TD`` then ``#ifdef TD`` … ``#else``: the ``#else`` launch is dead whatever the build passes, as is
    ``#if 0``'s; one under a name only a ``-D`` could define stays (the build decides)."""
    src = CSource(HYBRID)
    assert "top_down<<<" in src.code and "textured<<<" in src.code
    assert "bottom_up" not in src.code and "old<<<" not in src.code
    assert src.code.count("\n") == HYBRID.count("\n")  # lines keep their numbers
