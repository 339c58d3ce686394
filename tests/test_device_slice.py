"""A CUDA file whose host side does not compile (missing third-party headers, host-only code) is compiled
from its device-only slice: missing headers become empty stand-ins, the declarations clang rejects are left
out, template kernels that only host code instantiated are instantiated for common element types."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simu.api import load_file
from simu.cli import app
from simu.errors import CompileError
from simu.frontend import CompileOptions, compile_file
from simu.frontend.declarations import declaration_at, declarations
from simu.scan import ScanOverrides, resolve_options, scan

runner = CliRunner()

# a framework header: third-party host libraries (not installed), a grid-stride loop macro, host classes
COMMON = """#ifndef FW_COMMON_HPP_
#define FW_COMMON_HPP_
#include <thirdparty/shared_ptr.hpp>
#include <thirdparty/logging.h>
#include <vector>
#include "fw/proto/fw.pb.h"

#define FW_KERNEL_LOOP(i, n) \\
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

#define INSTANTIATE_CLASS(classname) \\
  template class classname<float>; \\
  template class classname<double>

namespace fw {
using thirdparty::shared_ptr;
const int FW_THREADS = 128;
inline int fw_blocks(const int n) { return (n + FW_THREADS - 1) / FW_THREADS; }

template <typename Dtype>
class Layer {
 public:
  explicit Layer(const LayerParameter& param) : param_(param), count_(0) {}
  int count() const { return count_; }
  void Forward_gpu(const std::vector<Dtype*>& bottom, const std::vector<Dtype*>& top);
 protected:
  LayerParameter param_;
  shared_ptr<Dtype> blob_;
  int count_;
};
}  // namespace fw
#endif
"""

LAYER = """#include <vector>
#include "fw/common.hpp"

namespace fw {

// each element reads its right neighbour, which another thread writes: a race
template <typename Dtype>
__global__ void ShiftForward(const int n, Dtype* data) {
  FW_KERNEL_LOOP(index, n) {
    data[index] = data[index + 1];
  }
}

template <typename Dtype>
__global__ void ScaleForward(const int n, const Dtype* in, Dtype* out, Dtype s) {
  FW_KERNEL_LOOP(index, n) {
    out[index] = in[index] * s;
  }
}

template <typename Dtype>
void Layer<Dtype>::Forward_gpu(const std::vector<Dtype*>& bottom, const std::vector<Dtype*>& top) {
  const int count = this->count();
  Dtype s = this->param_.scale_param().scale();
  ShiftForward<Dtype><<<fw_blocks(count), FW_THREADS>>>(count, top[0]);
  ScaleForward<Dtype><<<fw_blocks(count), FW_THREADS>>>(count, bottom[0], top[0], s);
  CHECK_EQ(cudaGetLastError(), cudaSuccess) << "launch failed";
}

INSTANTIATE_CLASS(Layer);

}  // namespace fw
"""


def _project(tmp_path: Path, layer: str = LAYER) -> Path:
    (tmp_path / "include" / "fw").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "fw" / "common.hpp").write_text(COMMON)
    cu = tmp_path / "src" / "layer.cu"
    cu.write_text(layer)
    return cu


def test_declarations_are_found_lexically():
    text = ("namespace a {\nclass C : public B {\n public:\n  C() : x_(1), y_{2} { go(); }\n  int x_;\n"
            " private:\n  int y_;\n};\nFOO(bar)\ntemplate <typename T>\n__global__ void k(T *p) { p[0] = 1; }\n"
            "struct __align__(8) S { int v; };\nint table[] = {1, 2};\nbool operator==(S a, S b) { return 1; }\n}\n")
    decls = declarations(text)
    assert len(decls) == 1 and decls[0].container

    def at(snippet: str) -> str:
        d = declaration_at(decls, text.index(snippet))
        return " ".join(text[d.start:d.end].split()) if d else ""

    assert at("go()") == "C() : x_(1), y_{2} { go(); }"  # a member, its initialiser list and body
    assert at("int y_") == "int y_;"  # access labels belong to no member
    assert at("public B").startswith("class C") and at("public B").endswith("};")
    assert at("bar") == "FOO(bar)"  # a macro invocation alone on its line, without ';'
    assert at("p[0]").startswith("template <typename T>") and declaration_at(decls, text.index("p[0]")).kernel
    assert at("int v") == "int v;"
    assert at("1, 2") == "int table[] = {1, 2};"
    assert at("return 1") == "bool operator==(S a, S b) { return 1; }"


def test_kernels_behind_missing_third_party_headers_are_analysed(tmp_path):
    cu = _project(tmp_path)
    options = CompileOptions(include_dirs=(str(tmp_path / "include"),))
    module = compile_file(cu, options)
    note = " ".join(module.notes)
    assert "device-only slice" in note and "thirdparty/shared_ptr.hpp" in note, module.notes
    assert "statement" in note  # the host function stays, less the statements that need the missing headers
    module = load_file(cu, options)
    names = sorted(k.display_name for k in module.kernels)
    # ShiftForward's launch stays in Forward_gpu, which the explicit instantiations instantiate for float and
    # double; ScaleForward's launch needed `s`, read through a missing header: only host code instantiated it,
    # so it is instantiated for the common element types
    assert names == ["ScaleForward<double>", "ScaleForward<float>", "ScaleForward<int>",
                     "ShiftForward<double>", "ShiftForward<float>"]
    assert {Path(k.file).name for k in module.kernels} == {"layer.cu"}  # positions in the user's file


def test_scan_finds_the_planted_race_and_says_how_the_file_was_compiled(tmp_path):
    _project(tmp_path)
    (tmp_path / "simu.toml").write_text('include = ["include"]\n')
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=1.0, jobs=1, no_cache=True)))
    by_file = {f.rel: f for f in result.files}
    layer = by_file["src/layer.cu"]
    assert layer.status == "ok"
    kernels = {k.name: k for k in layer.kernels}
    shift = kernels["ShiftForward<float>"]
    assert shift.status == "analysed" and any(f.kind == "race" for f in shift.findings)
    scale = kernels["ScaleForward<float>"]
    assert scale.status == "analysed" and not [f for f in scale.findings if f.kind == "race"]
    assert any("src/layer.cu" in w and "device-only slice" in w for w in result.warnings), result.warnings


def test_zero_configuration_finds_the_project_headers_too(tmp_path, monkeypatch):
    cu = _project(tmp_path)
    (tmp_path / ".git").mkdir()  # the project's root
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["check", str(cu), "--kernel", "ShiftForward<float>", "--budget", "2",
                            "--format", "json"])
    assert r.exit_code == 1, r.output
    report = json.loads(r.stdout)
    kernels = [k for f in report["files"] for k in f["kernels"]]
    assert any(f["kind"] == "race" for f in kernels[0]["findings"])


def test_a_genuine_error_in_a_kernel_stays_a_compile_error(tmp_path):
    cu = _project(tmp_path, LAYER.replace("data[index] = data[index + 1];", "data[index] = undeclared_thing;"))
    with pytest.raises(CompileError) as err:
        compile_file(cu, CompileOptions(include_dirs=(str(tmp_path / "include"),)))
    assert "thirdparty/shared_ptr.hpp" in err.value.diagnostics  # the file's own first error, unchanged


def test_a_kernel_that_needs_what_host_code_lost_stays_a_compile_error(tmp_path):
    # a device helper uses a third-party macro: the helper is left out, and the kernel that calls it fails
    layer = LAYER.replace("template <typename Dtype>\nvoid Layer",
                          "__device__ float helper(float x) { CHECK_GT(x, 0); return x; }\n"
                          "__global__ void Plain(float* a) { a[threadIdx.x] = helper(a[threadIdx.x]); }\n"
                          "template <typename Dtype>\nvoid Layer")
    cu = _project(tmp_path, layer)
    with pytest.raises(CompileError):
        compile_file(cu, CompileOptions(include_dirs=(str(tmp_path / "include"),)))


def test_a_scan_takes_a_host_only_file_that_does_not_compile_as_holding_no_kernel(tmp_path):
    """A framework's bindings file (no kernel in it or its headers) that needs headers simu lacks loses no kernel:
    the scan notes it instead of counting a failed file; a file with a kernel still fails."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "bind.cu").write_text('#include "ops.h"\n#include <torch/extension.h>\n'
                                      "torch::Tensor run(torch::Tensor x) { return ops(x); }\n")
    (tmp_path / "ops.h").write_text("#pragma once\nint ops(int);\n")
    (tmp_path / "k.cu").write_text("__global__ void k(float *a) { a[threadIdx.x] = undeclared_thing; }\n")
    result = scan(*resolve_options([tmp_path], ScanOverrides(budget=1.0, jobs=1, no_cache=True)))
    status = {f.path.name: (f.status, len(f.kernels)) for f in result.files}
    assert status == {"bind.cu": ("ok", 0), "k.cu": ("compile-error", 0)}, status
    assert any(w.startswith("bind.cu: holds no kernel (its host side does not compile") for w in result.warnings)


def test_a_template_kernel_that_cannot_be_instantiated_is_left_out(tmp_path):
    # the same in a template kernel: clang sees the error only when it is instantiated, which fails for
    # every element type; the other kernels of the file are still compiled
    layer = LAYER.replace("template <typename Dtype>\n__global__ void ScaleForward",
                          "__device__ float helper(float x) { CHECK_GT(x, 0); return x; }\n"
                          "template <typename Dtype>\n__global__ void ScaleForward")
    layer = layer.replace("out[index] = in[index] * s;", "out[index] = helper(in[index]) * s;")
    cu = _project(tmp_path, layer)
    module = load_file(cu, CompileOptions(include_dirs=(str(tmp_path / "include"),)))
    assert sorted(k.display_name for k in module.kernels) == ["ShiftForward<double>", "ShiftForward<float>"]


def test_a_file_with_no_kernel_keeps_its_error(tmp_path):
    cu = _project(tmp_path, '#include "fw/common.hpp"\nint host_only() { return fw::FW_THREADS; }\n')
    with pytest.raises(CompileError):
        compile_file(cu, CompileOptions(include_dirs=(str(tmp_path / "include"),)))


# ---------------------------------------------------------------------------------------------
# A missing third-party header, wherever it is included from (issue 28)
# ---------------------------------------------------------------------------------------------

KERNEL = "__global__ void k(real *a, int n) { int i = threadIdx.x; if (i < n) a[i] = a[i] + 1; }\n"
HOST = "int main(int argc, char **argv) { return parse(argc, argv); }\n"
CXXOPTS_HOST = ('inline int parse(int argc, char **argv) { cxxopts::Options o("app", "demo");\n'
                '  return o.parse(argc, argv)["n"].as<int>(); }\n')
CHAIN = ("#if defined(USE_FLOAT)\ntypedef float real;\n#elif defined(USE_DOUBLE)\ntypedef double real;\n"
         "#else\n#error \"define USE_FLOAT or USE_DOUBLE\"\n#endif\n")

MISSING_LAYOUTS = {
    # the .cu file itself
    "the-file": {"k.cu": "#include <cxxopts.hpp>\ntypedef float real;\n" + CXXOPTS_HOST + KERNEL + HOST},
    # the project's base header, as in a decoder whose common.h needs an FST library and cxxopts
    "base-header": {"common.h": "#pragma once\n#include <fst/types.h>\n#include \"cxxopts.hpp\"\n"
                                "typedef float real;\ntypedef int32 StateId;\n" + CXXOPTS_HOST,
                    "k.cu": '#include "common.h"\n' + KERNEL + HOST},
    "header-of-a-header": {"util/base.h": "#pragma once\n#include <fst/fstlib.h>\nusing fst::StdArc;\n"
                                          "typedef StdArc::Weight Weight;\n",
                           "common.h": '#pragma once\n#include "util/base.h"\n#include <cxxopts.hpp>\n'
                                       "typedef float real;\n" + CXXOPTS_HOST,
                           "k.cu": '#include "common.h"\n' + KERNEL + HOST},
    # the missing header stops clang before the #error chain that the file's own compile would have chosen
    "before-an-error-chain": {"common.h": "#pragma once\n#include <cxxopts.hpp>\n" + CHAIN + CXXOPTS_HOST,
                              "k.cu": '#include "common.h"\n' + KERNEL + HOST},
    # chosen by the file's own compile, then the missing header: the choice is made again in the slice
    "after-an-error-chain": {"common.h": "#pragma once\n" + CHAIN + "#include <cxxopts.hpp>\n" + CXXOPTS_HOST,
                             "k.cu": '#include "common.h"\n' + KERNEL + HOST},
    # the chain's chosen branch includes a header that is missing too
    "inside-the-chosen-branch": {"common.h": "#pragma once\n#if defined(WITH_FST)\n#include <fst/fstlib.h>\n"
                                             "typedef float real;\ntypedef fst::StdArc::Weight Weight;\n"
                                             "#elif defined(WITH_OTHER)\n#include <other.h>\ntypedef float real;\n"
                                             "#else\n#error \"pick a backend\"\n#endif\n"
                                             "inline int parse(int, char **) { return Weight::One().Value(); }\n",
                                 "k.cu": '#include "common.h"\n' + KERNEL + HOST},
    # the chain sits inside the kernel's body (a loop style the build picks)
    "a-chain-inside-the-kernel": {"k.cu": "#include <nvml.h>\ntypedef float real;\n"
                                          "__global__ void k(real *a, int n) {\n#if defined(GRID_STRIDE)\n"
                                          "  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] += 1;\n"
                                          "#elif defined(BLOCK_STRIDE)\n  a[threadIdx.x] += 1;\n"
                                          "#else\n#error \"pick a loop\"\n#endif\n}\n"
                                          "int main() { nvmlInit(); return 0; }\n"},
    # a checked-in protoc header whose version check tests a macro of the missing protobuf headers
    "a-version-check": {"model.pb.h": "#pragma once\n#include <google/protobuf/port_def.inc>\n"
                                      "#if PROTOBUF_VERSION < 3021000\n#error This file was generated by a newer \\\n"
                                      "version of protoc\n#endif\n#include <google/protobuf/message.h>\n"
                                      "class Model : public ::google::protobuf::Message { public: int n() const; };\n"
                                      "inline int parse(int, char **) { return Model().n(); }\n",
                        "k.cu": '#include "model.pb.h"\ntypedef float real;\n' + KERNEL + HOST},
    "deep-relative-path": {"a/b/c/d/e/k.cu": '#include "../../../../../../third_party/cxxopts.hpp"\n'
                                             "typedef float real;\n" + CXXOPTS_HOST + KERNEL + HOST},
    "absolute-path": {"k.cu": '#include "/nonexistent-simu-test/cxxopts.hpp"\ntypedef float real;\n'
                              + CXXOPTS_HOST + KERNEL + HOST},
}


def _layout(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / ".git").mkdir()
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return next(tmp_path / rel for rel in files if rel.endswith(".cu"))


@pytest.mark.parametrize("layout", sorted(MISSING_LAYOUTS))
def test_a_missing_header_never_fails_kernels_that_do_not_need_it(tmp_path, layout):
    cu = _layout(tmp_path, MISSING_LAYOUTS[layout])
    module = compile_file(cu)
    note = module.notes[-1]
    assert "replaced by empty stand-ins" in note and "device-only slice" in note, module.notes
    if layout == "a-chain-inside-the-kernel":
        assert "defined GRID_STRIDE, the first choice of the #if chain" in note
    elif "chain" in layout:
        assert "defined USE_FLOAT, the first choice of the #if chain" in note
    if layout == "inside-the-chosen-branch":
        assert "defined WITH_FST" in note and "fst/fstlib.h" in note
    if layout == "a-version-check":
        assert "the #error on line 4 of model.pb.h left out" in note
    assert [k.display_name for k in load_file(cu).kernels] == ["k"]


def test_the_base_header_case_end_to_end(tmp_path):
    cu = _layout(tmp_path, MISSING_LAYOUTS["base-header"])
    r = runner.invoke(app, ["check", str(cu), "--budget", "2", "--format", "json"])
    assert r.exit_code == 0, r.output
    (kernel,) = [k for f in json.loads(r.stdout)["files"] for k in f["kernels"]]
    assert kernel["name"] == "k" and kernel["status"] == "analysed"
    r = runner.invoke(app, ["check", str(cu), "--budget", "2"])
    assert "missing headers fst/types.h, cxxopts.hpp replaced by empty stand-ins" in r.output


def test_a_kernel_that_needs_the_missing_header_fails_with_one_line(tmp_path):
    files = dict(MISSING_LAYOUTS["base-header"])
    files["k.cu"] = '#include "common.h"\n' + KERNEL.replace("real *a", "StateId *a") + HOST
    cu = _layout(tmp_path, files)
    with pytest.raises(CompileError) as err:
        compile_file(cu)
    assert "\n" not in err.value.first and "common.h:2:10: fatal error: 'fst/types.h' file not found" in err.value.first
    r = runner.invoke(app, ["check", str(cu), "--budget", "2"])
    assert r.exit_code == 2 and "'fst/types.h' file not found" in r.output


def test_an_error_directive_stays_when_no_header_is_missing(tmp_path):
    # the rule is about missing headers: a project's own #error, reached with every header present, is the error
    cu = _layout(tmp_path, {"k.cu": "#ifndef TILE\n#error \"build with -DTILE=...\"\n#endif\n"
                                    "typedef float real;\n" + KERNEL + "int host() { return undeclared(); }\n"})
    with pytest.raises(CompileError) as err:
        compile_file(cu)
    assert "build with -DTILE" in err.value.first


def test_sources_under_usr_src_are_the_projects():
    # a container keeps its sources in /usr/src/app: only the system's own folders are never sliced
    from simu.frontend.device_slice import _system_roots

    roots = _system_roots((), Path("/nonexistent-tmp"))
    assert Path("/usr/include").resolve() in roots and Path("/usr") not in roots
    assert not any(Path("/usr/src/app/k.cu").is_relative_to(r) for r in roots)


def test_statements_of_a_host_function_are_found_lexically():
    from simu.frontend.declarations import statement_at, structure_text

    text = ("void launch(int n) {\n  if (n < 0) { throw E{fmt::format(\"bad {}\", n)}; }\n"
            "  auto s = fmt::format(\"x {}\", n);\n  for (int i = 0; i < n; ++i) { log(fmt::x); }\n"
            "  if (fmt::z(n)) {\n    n = 1;\n  } else {\n    n = 2;\n  }\n  go([&] { return fmt::y; });\n"
            "  LOG(INFO) << fmt::v(n)\n  ;\n  last(fmt::u)\n}\n")
    (decl,) = declarations(text)
    blank = structure_text(text)

    def at(snippet: str) -> str:
        span = statement_at(blank, text.index(snippet), decl.block)
        return " ".join(text[span[0]:span[1]].split()) if span else ""

    assert at('fmt::format("bad') == 'fmt::format("bad {}", n)'  # a braced initialiser's element: E{} stays
    assert at('fmt::format("x') == 'auto s = fmt::format("x {}", n);'
    assert at("fmt::x") == "log(fmt::x);"
    assert at("fmt::z") == "if (fmt::z(n)) { n = 1; }"  # its else goes in a later round, as clang says
    assert at("fmt::y") == "return fmt::y;"
    assert at("fmt::v") == "LOG(INFO) << fmt::v(n) ;"
    assert at("fmt::u") == "last(fmt::u)"


def test_a_launch_stays_when_only_its_error_message_needs_a_missing_library(tmp_path):
    """A launcher whose argument check formats its message with a library the checkout lacks (a submodule not
    fetched) keeps its launch: the template kernel is instantiated at the host's own template argument, which no
    common element type could give."""
    (tmp_path / "launch.cu").write_text(
        "#include <fmt/format.h>\n#include <stdexcept>\n"
        "template <int N> __global__ void rotate(float *a) {\n"
        "  __shared__ float t[N];\n  t[threadIdx.x] = a[threadIdx.x];\n"
        "  a[threadIdx.x] = t[(threadIdx.x + 1) % N];\n}\n"
        "template <int N> void run(float *a, int n) {\n"
        "  if (n > N) throw std::runtime_error{fmt::format(\"at most {} threads\", N)};\n"
        "  rotate<N><<<1, N>>>(a);\n}\n"
        "void go(float *a, int n) { run<64>(a, n); }\n")
    module = compile_file(tmp_path / "launch.cu", CompileOptions())
    note = " ".join(module.notes)
    assert "fmt/format.h" in note and "statements that did not compile left out" in note, note
    assert [k.display_name for k in load_file(tmp_path / "launch.cu", CompileOptions()).kernels] == ["rotate<64>"]
