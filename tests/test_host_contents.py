"""Contents the host writes before copying a buffer to the device (simu.host.ast.contents): the fill each host loop
makes, the copy that hands it to a launch, and the contract fill the search draws it with."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simu.host.ast.program import read_host_file
from simu.host.ast.scope import facts_from_json, facts_to_json
from simu.host.index import build_host_index
from simu.launch.buffers import draw_buffer, fill_arguments

KERNEL = """#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void k(const int *a, const float *b, int *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[a[i]] += (int)b[i];
}
__global__ void touch(int *a, int n) { a[threadIdx.x] = 0; }
"""


def _launch(tmp_path: Path, body: str, kernel: str = "k"):
    (tmp_path / "main.cu").write_text(KERNEL + "int main(int argc, char **argv) {\n" + body + "\n    return 0;\n}\n")
    index = build_host_index(tmp_path, [tmp_path / "main.cu"])
    assert index.clang_read and not index.clang_failed
    return index.cuda_launches_of(kernel)


ALLOC = """    int n = 1024;
    int *a = (int *)malloc(n * sizeof(int)); float *b = (float *)malloc(n * sizeof(float));
    int *d_a, *d_c; float *d_b;
    cudaMalloc(&d_a, n * sizeof(int)); cudaMalloc(&d_b, n * sizeof(float)); cudaMalloc(&d_c, n * sizeof(int));
"""
COPY = """    cudaMemcpy(d_a, a, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice);
"""
LAUNCH = "    k<<<n / 256, 256>>>(d_a, d_b, d_c, n);"


def test_each_kind_of_loop_fill(tmp_path: Path):
    (x,) = _launch(tmp_path, ALLOC + "    for (int i = 0; i < n; i++) { a[i] = rand() % n; b[i] = 2.5f; }\n"
                   + COPY + LAUNCH)
    assert sorted(x.contents) == [(0, "below", 1024, None), (1, "const", 2.5, None)]  # n is known: a number
    (x,) = _launch(tmp_path, ALLOC + "    for (int i = 0; i < n; i++) { a[i] = i; b[i] = rand() / (float)RAND_MAX; }\n"
                   + COPY + LAUNCH)
    assert sorted(c[:2] for c in x.contents) == [(0, "ramp"), (1, "unit")]
    assert any("as the host fills it (element k holds k)" in t for t in x.through)


def test_what_the_host_reads_or_overwrites_is_not_a_fill(tmp_path: Path):
    read = ALLOC + "    FILE *f = fopen(argv[1], \"r\");\n" \
        "    for (int i = 0; i < n; i++) { fscanf(f, \"%d\", &a[i]); b[i] = a[i] * 0.5f; }\n" + COPY + LAUNCH
    (x,) = _launch(tmp_path, read)
    assert x.contents == ()
    twice = ALLOC + "    for (int i = 0; i < n; i++) a[i] = 0;\n    for (int i = 0; i < n / 2; i++) a[i] = i;\n" \
        + COPY + LAUNCH
    (x,) = _launch(tmp_path, twice)
    assert x.contents == ()
    one = ALLOC + "    a[0] = 7;\n" + COPY + LAUNCH  # one element, not the array
    (x,) = _launch(tmp_path, one)
    assert x.contents == ()


def test_a_kernel_run_on_the_buffer_in_between_takes_the_fill_away(tmp_path: Path):
    body = ALLOC + "    for (int i = 0; i < n; i++) { a[i] = 3; b[i] = 1.0f; }\n" + COPY \
        + "    touch<<<1, 32>>>(d_a, n);\n" + LAUNCH
    (x,) = _launch(tmp_path, body)
    assert [c[:3] for c in x.contents] == [(1, "const", 1.0)]


def test_copies_survive_the_fact_cache(tmp_path: Path):
    (tmp_path / "main.cu").write_text(KERNEL + "int main() {\n" + ALLOC
                                      + "    for (int i = 0; i < n; i++) a[i] = rand() % 7;\n" + COPY + LAUNCH
                                      + "\n}\n")
    facts = read_host_file(tmp_path / "main.cu", tmp_path)
    assert facts is not None
    main = next(f for f in facts if f.name == "main")
    assert [c[2] for c in main.copies] == ["below"]
    assert facts_from_json(facts_to_json(facts)) == facts


def test_contract_fills_draw_what_the_host_writes():
    rng = np.random.default_rng(1)
    fill, extra = fill_arguments("below:n", {"n": 5}, 1000)
    arr, spec = draw_buffer(np.dtype(np.int32), 1000, fill, rng, threads=64, **extra)
    assert arr.min() >= 0 and arr.max() <= 4 and len(set(arr.tolist())) == 5 and spec["high"] == 5
    fill, extra = fill_arguments("ramp:length", {}, 300)
    arr, _ = draw_buffer(np.dtype(np.int32), 300, fill, rng, threads=64, **extra)
    assert arr.tolist() == list(range(300))  # not modulo the thread count: the host wrote k into element k
    fill, extra = fill_arguments("const:2.5", {}, 4)
    assert draw_buffer(np.dtype(np.float32), 4, fill, rng, **extra)[0].tolist() == [2.5] * 4
    assert fill_arguments("zeros", {}, 4) == ("zeros", {})


def test_an_array_a_helper_fills(tmp_path: Path):
    helpers = "void random_indices(int *v, int count, int bound) {\n" \
        "    for (int i = 0; i < count; i++) v[i] = rand() % bound;\n}\n" \
        "void ones(float *v, int count) { for (int i = 0; i < count; ++i) v[i] = 1.0f; }\n"
    body = ALLOC + "    random_indices(a, n, 100);\n    ones(b, n);\n" + COPY + LAUNCH
    (tmp_path / "main.cu").write_text(KERNEL + helpers + "int main(int argc, char **argv) {\n" + body + "\n}\n")
    (x,) = build_host_index(tmp_path, [tmp_path / "main.cu"]).cuda_launches_of("k")
    assert sorted(c[:3] for c in x.contents) == [(0, "below", 100), (1, "const", 1.0)]
