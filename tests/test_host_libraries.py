"""Host code of libraries laid out as libraries: headers included as ``<lib/x.h>`` from an include root, launches in
class templates' methods through a launch helper that takes the kernel (``helper(k<T>, n, args...)``), and host
files whose dump a header library makes too large to parse whole (only the project's own declarations are)."""

from __future__ import annotations

import json
from pathlib import Path

import simu.host.ast.clang as clang
from simu.frontend.includes import HeaderIndex
from simu.host.ast.dumpsplit import in_project, project_part
from simu.host.ast.program import read_host_file
from simu.host.contracts import contracts_for
from simu.host.index import build_host_index
from simu.scan import ScanOverrides, resolve_options, scan

HELPER = """#pragma once
template <typename K, typename... Types>
inline void launch_linear(K kernel, unsigned n, Types... args) {
    if (n == 0) return;
    kernel<<<(n + 127) / 128, 128>>>(n, args...);
}
"""

# every thread below n updates the one moment: a race unless n is 1, which the optimizer passes
OPTIMIZER = """#pragma once
#include <lib/helpers.h>
template <typename T>
__global__ void update_moment(const unsigned n, float beta, const float *norm, float *moment) {
    const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    *moment = beta * *moment + (1 - beta) * *norm;
}
template <typename T>
class Optimizer {
public:
    void step(float *norm, float *moments, int layers) {
        for (int i = 0; i < layers; ++i)
            launch_linear(update_moment<T>, 1u, 0.9f, norm, moments + i);
    }
};
"""

MAIN = """#include <cuda_runtime.h>
#include <lib/optimizer.h>
int main() {
    float *norm, *moments;
    cudaMalloc(&norm, sizeof(float));
    cudaMalloc(&moments, 4 * sizeof(float));
    Optimizer<float> opt;
    opt.step(norm, moments, 4);
    return 0;
}
"""


def _library(root: Path) -> list[Path]:
    (root / "include" / "lib").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "include" / "lib" / "helpers.h").write_text(HELPER)
    (root / "include" / "lib" / "optimizer.h").write_text(OPTIMIZER)
    (root / "src" / "main.cu").write_text(MAIN)
    return [root / "include" / "lib" / "helpers.h", root / "include" / "lib" / "optimizer.h", root / "src" / "main.cu"]


def test_a_class_template_s_launch_through_a_helper_in_an_angle_included_header_has_the_values_it_passes(tmp_path):
    index = build_host_index(tmp_path, _library(tmp_path))
    made = contracts_for(index, "update_moment<float>", [("n", None), ("beta", None), ("norm", 4), ("moment", 4)],
                         None).contracts
    assert made and all(c.args.get("n") == 1 and c.block == (128, 1, 1) for c in made), made
    assert "called from step" in made[0].origin


def test_the_race_only_a_count_the_program_never_passes_shows_is_no_error_at_its_launch(tmp_path):
    _library(tmp_path)
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=1.0, jobs=1, no_cache=True)))
    kernels = [k for _, k in result.kernels() if k.name.startswith("update_moment")]
    assert kernels and all(k.status == "analysed" for k in kernels)
    assert not [f for k in kernels for f in k.findings if f.severity == "error"]


REDUCE = """#pragma once
#include <lib/helpers.h>
__global__ void block_sum(const unsigned n, float *inout);
template <typename T>
void reduce_sum(const T *data, float *workspace, unsigned n) {  // the library's API: no file instantiates it
    while (n > 1) {
        launch_linear(block_sum, n, workspace);
        n = (n + 127) / 128;
    }
}
"""


def test_a_launch_in_a_function_template_nobody_instantiates_is_read_off_the_helper_s_pattern(tmp_path):
    """``launch_linear<void (*)(…), float *>`` is declared, not defined, when only an uninstantiated template calls
    it: its pattern's launch is the one that call makes (a library's reduction that no file of the repository runs
    still launches 128-thread blocks, never the 3-thread ones the search would draw)."""
    files = _library(tmp_path)
    (tmp_path / "include" / "lib" / "reduce.h").write_text(REDUCE)
    (tmp_path / "src" / "reduce.cu").write_text("#include <lib/reduce.h>\n__global__ void block_sum(const unsigned n, "
                                                "float *inout) { if (threadIdx.x == 0) inout[blockIdx.x] = n; }\n")
    files += [tmp_path / "include" / "lib" / "reduce.h", tmp_path / "src" / "reduce.cu"]
    index = build_host_index(tmp_path, files)
    (made,) = index.cuda_launches_of("block_sum")
    assert made.block == (128, 1, 1) and made.grid_sym == ("(_a0_+127)/128", None, None), made
    assert made.through == ("reduce_sum at include/lib/reduce.h:7",)


def test_a_template_helper_s_default_argument_sizes_the_grid_of_a_launch_in_a_pattern(tmp_path):
    """In the helper's pattern ``blocks(n)`` is over a type parameter: clang leaves the call unresolved and gives no
    default for ``threads``; the helper's own default (``threads = 128``) is the argument it leaves out."""
    (tmp_path / "lib.cu").write_text("""
template <typename T> unsigned blocks(T n, unsigned threads = 128) { return (n + threads - 1) / threads; }
template <typename K, typename T, typename... A> void linear(K kernel, T n, A... args) {
    kernel<<<blocks(n), 128>>>(n, args...);
}
__global__ void block_sum(const unsigned n, float *inout) { if (threadIdx.x == 0) inout[blockIdx.x] = n; }
template <typename T> void reduce_sum(const T *data, float *ws, unsigned n) { linear(block_sum, n, ws); }
""")
    (made,) = build_host_index(tmp_path, [tmp_path / "lib.cu"]).cuda_launches_of("block_sum")
    assert made.grid_sym == ("(_a0_+128-1)/128", None, None), made


def _dump(items: list[dict]) -> bytes:
    return json.dumps({"id": "0x1", "kind": "TranslationUnitDecl", "loc": {}, "inner": items}, indent=2).encode()


def test_a_large_dump_keeps_the_project_s_declarations_each_in_its_own_file():
    items = [
        {"id": "0x2", "kind": "NamespaceDecl", "loc": {"offset": 1, "file": "/usr/include/c++/vector", "line": 3},
         "inner": [{"id": "0x3", "kind": "FunctionDecl", "loc": {"offset": 9, "line": 4}}]},
        {"id": "0x4", "kind": "FunctionDecl", "name": "run", "loc": {"offset": 1, "file": "/p/src/a.cu", "line": 7,
         "includedFrom": {"file": "/p/src/b.cu"}}},
        {"id": "0x5", "kind": "FunctionDecl", "name": "again", "loc": {"offset": 50, "line": 9}},
        {"id": "0x6", "kind": "NamespaceDecl", "name": "nlohmann", "loc": {"file": "/p/third_party/json.hpp"}},
        {"id": "0x7", "kind": "FunctionDecl", "name": "vendored", "loc": {"line": 2}},
    ]
    tu = project_part(_dump(items), in_project("/p", "/p/src/a.cu"))
    assert [(d["id"], d["loc"]["file"]) for d in tu["inner"]] == [("0x4", "/p/src/a.cu"), ("0x5", "/p/src/a.cu")]
    assert project_part(_dump(items), in_project("/p", "/p/src/a.cu"), limit=10) is None  # still too large


def test_a_host_file_whose_dump_is_past_the_limit_is_read_through_its_own_declarations(tmp_path, monkeypatch):
    files = _library(tmp_path)
    whole = read_host_file(files[-1], tmp_path, headers=HeaderIndex(tmp_path))
    monkeypatch.setattr(clang, "MAX_DUMP_BYTES", 4096)  # the shim's declarations alone are past it
    part = read_host_file(files[-1], tmp_path, headers=HeaderIndex(tmp_path))
    assert whole and part is not None
    names = {(f.name, f.file) for f in part}
    assert {("main", "src/main.cu"), ("step", "include/lib/optimizer.h"), ("launch_linear", "include/lib/helpers.h")} \
        <= names
    assert names == {(f.name, f.file) for f in whole}


def test_a_pattern_s_launch_of_a_kernel_named_over_its_parameters_is_no_instantiation_s(tmp_path):
    """``k<T><<<…>>>`` in ``run<T>``, whose instantiations clang declares without a body (an error in the template:
    shoc's MD): the pattern's launch is of no one instantiation, so it is not read under theirs — as a launch of
    every instantiation of ``k`` it gave ``compute_lj_force<double, …>`` the float instantiation's 16-byte atoms."""
    (tmp_path / "t.cu").write_text("""#include <cuda_runtime.h>
template <typename T> __global__ void k(T *d, int n) { int i = threadIdx.x; if (i < n) d[i] = 1; }
template <typename T> void run(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  k<T><<<1, 64>>>(d, n);
  report(d);
}
int main() { run<float>(64); run<double>(64); return 0; }
""")
    facts = read_host_file(tmp_path / "t.cu", tmp_path) or []
    assert [f.name for f in facts if f.launches] == []
