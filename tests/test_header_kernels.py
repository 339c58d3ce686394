"""Kernels that live in headers: a header compiled as its own translation unit, template kernels
instantiated for common element types when nothing instantiates them."""

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.api import load_file
from simu.cli import app
from simu.frontend import language_of
from simu.scan import ScanOverrides, resolve_options, scan

runner = CliRunner()

TEMPLATES = """#pragma once
namespace kern {
// every thread writes its element, then thread 0 reads its neighbour's without a barrier: a race
template <typename T>
__global__ void shift(T *data) {
  __shared__ T tile[64];
  tile[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

template <typename T, int BLOCK>
__global__ void fill(T *out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = T(BLOCK);
}
}  // namespace kern

__global__ void plain(int *out) { out[threadIdx.x] = 1; }
"""


def test_header_language_is_cuda_unless_it_looks_like_opencl(tmp_path):
    cu = tmp_path / "k.hpp"
    cu.write_text(TEMPLATES)
    cl = tmp_path / "k.h"
    cl.write_text("__kernel void add(__global float *a) { a[get_global_id(0)] += 1.0f; }\n")
    assert language_of(cu) == "cuda" and language_of(cl) == "opencl"
    assert [k.display_name for k in load_file(cl).kernels] == ["add"]


def test_template_kernels_of_a_header_are_instantiated(tmp_path):
    hdr = tmp_path / "kernels.hpp"
    hdr.write_text(TEMPLATES)
    module = load_file(hdr)
    names = sorted(k.display_name for k in module.kernels)
    # one type parameter: float, double and int; several: the first combination that compiles
    assert names == ["fill<float, 32>", "plain", "shift<double>", "shift<float>", "shift<int>"]
    assert {Path(k.file).name for k in module.kernels} == {"kernels.hpp"}  # positions point into the header


def test_only_the_element_types_that_compile_are_instantiated(tmp_path):
    hdr = tmp_path / "bits.cuh"
    hdr.write_text("template <typename T>\n__global__ void mask(T *a) { a[threadIdx.x] = a[threadIdx.x] % 3; }\n")
    assert [k.display_name for k in load_file(hdr).kernels] == ["mask<int>"]  # % needs an integer type


def test_a_template_instantiated_by_the_header_itself_is_left_alone(tmp_path):
    hdr = tmp_path / "launch.cuh"
    hdr.write_text("template <typename T>\n__global__ void k(T *a) { a[threadIdx.x] = T(1); }\n"
                   "inline void run(double *a) { k<double><<<1, 32>>>(a); }\n")
    assert [k.display_name for k in load_file(hdr).kernels] == ["k<double>"]


def test_check_a_header_on_the_command_line(tmp_path):
    hdr = tmp_path / "kernels.hpp"
    hdr.write_text(TEMPLATES)
    r = runner.invoke(app, ["check", str(hdr), "--kernel", "shift<float>", "--budget", "3", "--format", "json"])
    assert r.exit_code == 1, r.output
    report = json.loads(r.output)
    kernels = [k for f in report["files"] for k in f["kernels"]]
    assert [k["name"] for k in kernels] == ["shift<float>"]
    assert any(f["kind"] == "race" for f in kernels[0]["findings"])


def test_scan_compiles_a_kernel_header_that_nothing_includes(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "kernels.cuh").write_text(TEMPLATES)
    (tmp_path / "lib" / "used.cuh").write_text("__global__ void used(float *a) { a[threadIdx.x] = 1.0f; }\n")
    (tmp_path / "lib" / "decls.h").write_text("int host_only(int);\n")  # defines no kernel: not compiled
    (tmp_path / "main.cu").write_text('#include "lib/used.cuh"\n')
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))
    by_file = {f.rel: sorted(k.name for k in f.kernels) for f in result.files}
    assert by_file == {"main.cu": ["used"],
                       "lib/kernels.cuh": ["fill<float, 32>", "plain", "shift<double>", "shift<float>", "shift<int>"]}
    shift = {k.name: k for _, k in result.kernels()}["shift<float>"]
    assert shift.status == "analysed" and any(f.kind == "race" for f in shift.findings)


def test_a_cu_file_whose_templates_only_host_code_instantiates(tmp_path):
    # the pattern of a kernel file included by a .cpp host file that simu does not compile: alone, the
    # file has template kernels and no instantiation
    cu = tmp_path / "kernels.cu"
    cu.write_text("template <typename T, unsigned int N>\n__global__ void __launch_bounds__(256)\n"
                  "scale(T *a) { if (threadIdx.x < N) a[threadIdx.x] *= T(2); }\n"
                  "template <typename T>\n__global__ void used(T *a) { a[threadIdx.x] = T(0); }\n"
                  "void launch(int *a) { used<int><<<1, 32>>>(a); }\n")
    names = sorted(k.display_name for k in load_file(cu).kernels)
    assert names == ["scale<float, 32U>", "used<int>"]  # `used` is instantiated by the file itself


def test_kernels_lists_fragments_through_their_includer_and_kernel_headers(tmp_path, monkeypatch):
    (tmp_path / "src" / "parts").mkdir(parents=True)
    (tmp_path / "lib").mkdir()
    (tmp_path / "src" / "main.cu").write_text('typedef float Elem;\n#include "parts/frag.cu"\n'
                                              "__global__ void m(float *a) { a[0] = 1; }\n")
    (tmp_path / "src" / "parts" / "frag.cu").write_text("__global__ void f(Elem *a) { a[0] = 2; }\n")
    (tmp_path / "lib" / "k.cuh").write_text("template <typename T>\n__global__ void t(T *a) { a[0] = T(1); }\n")
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["kernels", ".", "--format", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["failures"] == [] and doc["included"] == [{"file": "src/parts/frag.cu", "included_by": "src/main.cu"}]
    rows = {(k["file"], k["kernel"], k.get("defined_in")) for k in doc["kernels"]}
    assert rows == {("src/main.cu", "f", "src/parts/frag.cu"), ("src/main.cu", "m", None),
                    ("lib/k.cuh", "t<float>", None), ("lib/k.cuh", "t<double>", None), ("lib/k.cuh", "t<int>", None)}


def test_instantiations_settle_every_kernel_in_few_clang_runs(tmp_path):
    hdr = tmp_path / "mixed.cuh"
    hdr.write_text("template <typename T, int N>\n__global__ void shr(T *a) { a[threadIdx.x] = a[threadIdx.x] >> N; }\n"
                   "template <typename T>\n__global__ void rem(T *a) { a[threadIdx.x] = a[threadIdx.x] % 3; }\n"
                   "template <typename T, bool B>\n__global__ void pick(T *a) { if (B) a[threadIdx.x] = T(1); }\n")
    names = sorted(k.display_name for k in load_file(hdr).kernels)
    assert names == ["pick<float, true>", "rem<int>", "shr<int, 32>"]


def test_choose_instantiations_moves_only_the_blamed_lines():
    from simu.frontend.headers import TemplateKernel, TemplateParam, choose_instantiations

    one = TemplateKernel("k", (TemplateParam("T", "type"),), "T *")
    two = TemplateKernel("ns::m", (TemplateParam("T", "type"), TemplateParam("N", "int")), "T *, int")
    runs = []

    def failing(lines):  # only int compiles, for every kernel
        runs.append(list(lines))
        return {i for i, line in enumerate(lines) if "<int" not in line}

    assert choose_instantiations([one, two], failing) == [
        "template __global__ void k<int>(int *);", "template __global__ void ns::m<int, 32>(int *, int);"]
    # m: (float, 32) -> (double, 32) -> (float, 64) -> (int, 32); k is settled on the way: four runs in all
    assert len(runs) == 4
    assert choose_instantiations([one], lambda lines: None) == []  # an error no line is blamed for


def test_the_types_a_file_instantiates_its_templates_at_are_the_ones_tried(tmp_path):
    """A class template whose launching member the file instantiates at float and double only: its template kernel
    is compiled at those two types, not also at int (an instantiation the program never makes)."""
    from simu.frontend.headers import explicit_types

    hdr = tmp_path / "layer.cuh"
    hdr.write_text("template <typename T>\n"
                   "__global__ void scale(T *a, int n) { if (threadIdx.x < n) a[threadIdx.x] *= 2; }\n"
                   "template <typename T> struct Layer { void run(T *a, int n); };\n"
                   "template class Layer<float>;\ntemplate void Layer<double>::run(double *, int);\n")
    assert explicit_types(hdr.read_text()) == ("float", "double")
    assert explicit_types("template <> __global__ void k<int>(int *);\n") == ("float", "double", "int")
    assert sorted(k.display_name for k in load_file(hdr).kernels) == ["scale<double>", "scale<float>"]


def test_a_kernel_header_is_compiled_alone_when_every_includer_fails(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "ops.cuh").write_text("#pragma once\n__global__ void op(float *a) { a[threadIdx.x] = 1; }\n")
    (tmp_path / "inc" / "fine.cuh").write_text("#pragma once\n__global__ void fine(float *a) { a[0] = 2; }\n")
    # both includers need a third-party library simu cannot see in their own kernel (so that no device-only
    # slice compiles them either); the third one compiles
    bad = "__global__ void uses_sdk(float *a) { a[0] = NO_SDK_SCALE; }\n"
    (tmp_path / "a.cu").write_text('#include <no_sdk/api.hpp>\n#include "inc/ops.cuh"\n#include "inc/fine.cuh"\n' + bad)
    (tmp_path / "b.cu").write_text('#include <no_sdk/api.hpp>\n#include "inc/ops.cuh"\n' + bad)
    (tmp_path / "c.cu").write_text('#include "inc/fine.cuh"\n')
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=0.5, jobs=2, no_cache=True)))
    files = {f.rel: f for f in result.files}
    assert files["a.cu"].status == files["b.cu"].status == "compile-error"
    assert [k.name for k in files["inc/ops.cuh"].kernels] == ["op"]  # compiled on its own
    assert files["inc/ops.cuh"].kernels[0].status == "analysed"
    assert "inc/fine.cuh" not in files  # c.cu compiled it
    assert [k.name for k in files["c.cu"].kernels] == ["fine"]
    assert any("inc/ops.cuh: compiled on its own" in w and "a.cu, b.cu" in w for w in result.warnings)
    assert result.stats.files == len(result.files) == 4
