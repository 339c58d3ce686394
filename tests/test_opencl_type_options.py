"""OpenCL kernels compiled once per element type (issue 28): the host's helpers that make ``-D`` options from a name
and a value (simu.host.definers), the types they pass per template instantiation, and the scan's fallback that
compiles a ``.cl`` failing on unknown type names once per common type (simu.scan.assume, FileFlags.type_variants).
Small projects of our own in tmp_path, scanned in process."""

from __future__ import annotations

from pathlib import Path

import pytest

from simu.host import build_host_index
from simu.host.cscan import CSource
from simu.host.definers import definer_calls, definers, type_spelling
from simu.host.options import HOLE, OptionHarvest, define_hints
from simu.scan import ScanOverrides, resolve_options, scan
from simu.scan.assume import unknown_types

# ---------------------------------------------------------------------------------------------------------
# host code: definers, type names, lists of options

HELPERS = r'''
#define DefineKeyValue(key, arg) " -D " #key "=" + std::string(arg)
static std::string define(const std::string &name, const std::string &value) { return "-D" + name + "=" + value; }
static std::string label(const std::string &name) { return "kernel_" + name; }
template <typename T> const char *type_name();
template <> const char *type_name<float>() { return "float"; }
template <> const char *type_name<unsigned int>() { return "uint"; }
template <typename T> struct traits;
template <> struct traits<double> { static const char *getName() { return "double"; } };
'''


def test_definers_are_found_by_what_their_bodies_do():
    found = definers(CSource(HELPERS).code)
    assert set(found) == {"DefineKeyValue", "define"}  # label() makes no -D option
    assert found["define"] == (("name", "value"), '"-D" + name + "=" + value')


def test_definer_calls_are_written_out_where_they_stand():
    src = CSource(HELPERS + 'void f() { a = define("T", type_name<T>());\n'
                            '           b = DefineKeyValue(To, traits<To>::getName()); }')
    assert [t for _, t in definer_calls(src)] == ['("-D" + ("T") + "=" + (type_name<T>()))',
                                                 '(" -D " "To" "=" + std::string((traits<To>::getName())))']
    assert define_hints(src) == (f"T={HOLE}", f"To={HOLE}")  # the names are build-option macros, values unknown


def test_type_names_from_explicit_specializations():
    src = CSource(HELPERS)
    assert type_spelling(src, "type_name<T>()", {"T": "float"}) == "float"
    assert type_spelling(src, "type_name<unsigned int>()", {}) == "uint"  # the project's own spelling
    assert type_spelling(src, "traits<T>::getName()", {"T": "double"}) == "double"
    assert type_spelling(src, "type_name<T>()", {"T": "double"}) is None  # no specialization for double here
    assert type_spelling(src, "typeid(T).name()", {"T": "float"}) is None  # a mangled name: a hole
    # specialised out of sight (by a macro, in another file), a host API type names the OpenCL C type
    assert type_spelling(src, "OclTypeTraits<cl_ulong>::type", {}) == "ulong"
    assert type_spelling(src, "OclTypeTraits<T>::type", {"T": "cl_float"}) == "float"
    assert type_spelling(src, "OclTypeTraits<T>::type", {"T": "MyType"}) is None


def test_a_list_of_options_joined():
    code = HELPERS + '''
template <typename T> void run() {
    std::vector<std::string> options = {define("N", "4")};
    options.push_back(define("T", type_name<T>()));
    options.emplace_back(" -DFAST");
    __END__;
}'''
    src = CSource(code)
    harvest = OptionHarvest(src)
    harvest.ev.types = {"T": "float"}  # what a build site inside run<float> binds
    assert harvest.values("join(options).c_str()", src.code.index("__END__")) == ["-DN=4 -DT=float  -DFAST"]


def test_unknown_types_from_clang_diagnostics():
    diag = ("a.cl:1:35: error: unknown type name 'T'\na.cl:1:51: error: unknown type name 'To'\n"
            "a.cl:3:26: error: use of undeclared identifier 'Tk'\na.cl:5:29: error: unknown type name 'T'\n")
    assert unknown_types(diag) == ["T", "To"]
    assert unknown_types(diag, {"Tk"}) == ["T", "To", "Tk"]  # a host type name clang sees only in a cast
    pasted = "a.cl:25:3: error: use of undeclared identifier 'DATA_TYPE4'\na.cl:9:1: error: unknown type name 'IN4'\n"
    assert unknown_types(pasted, set(), {"DATA_TYPE", "IN"}) == ["IN", "DATA_TYPE"]  # `VEC_DATA_TYPE(DATA_TYPE, 4)`
    assert unknown_types(pasted, set(), {"OTHER"}) == ["IN4"]  # no name of the host: as clang calls it
    from simu.scan.assume import image_suffixes

    calls = ("a.cl:33:3: error: use of undeclared identifier 'write_imageCMD_DATA_TYPE'\n"
             "a.cl:30:9: error: use of undeclared identifier 'read_imageCMD_DATA_TYPE'\n")
    assert image_suffixes(calls, {"CMD_DATA_TYPE"}) == ["CMD_DATA_TYPE"]  # `read_image ## CMD_DATA_TYPE`: f, i
    assert image_suffixes(calls, {"DATA_TYPE"}) == []


def test_a_build_option_that_renames_a_kernel_keeps_its_name():
    """``"-Dactivation=" + obfuscated_name`` with ``__kernel void activation(…)``: the kernel's own name, not a
    number that would not compile."""
    from simu.scan.assume import resolve

    cl = "__kernel void activation(__global float *x, int n) { x[get_global_id(0) % n] = 0; }\n"
    flags, assumed = resolve("-Dactivation=@?@ -DBLOCK=@?@", cl, {})
    assert assumed == ["activation=activation", "BLOCK=16"] and "activation=activation" in flags.defines


def test_a_header_macro_definer_names_the_option(tmp_path):
    (tmp_path / "common.hpp").write_text('#define DefineKeyValue(key, arg) " -D " #key "=" + std::string(arg)\n')
    (tmp_path / "use.cpp").write_text('#include "common.hpp"\ntemplate <typename T> void f() {\n'
                                      '    std::vector<std::string> o = {DefineKeyValue(Tk, traits<T>::name())};\n}\n')
    index = build_host_index(tmp_path, [tmp_path / "common.hpp", tmp_path / "use.cpp"])
    assert index.define_hints() == {"Tk": {HOLE}}


# ---------------------------------------------------------------------------------------------------------
# end to end

CONVERT_CL = """
__kernel void convert(__global const T *in, __global To *out, int n) {
    int i = get_global_id(0);
    if (i < n) out[i] = (To)(in[i] * (T)2);
}
__kernel void gather(__global T *acc) {
    __local T tile[64];
    tile[get_local_id(0)] = acc[get_global_id(0)];
    acc[get_global_id(0)] = tile[(get_local_id(0) + 1) % 64];   /* no barrier: the planted race */
}
"""
# the build is traced (program from "convert.cl", clBuildProgram in run<T, To>) and its options read per
# instantiation: the host's own types, nothing assumed
CONVERT_CPP = r"""
#include <CL/cl.h>
#include <string>
#include <vector>
template <typename T> const char *type_name();
template <> const char *type_name<float>() { return "float"; }
template <> const char *type_name<int>() { return "int"; }
template <> const char *type_name<double>() { return "double"; }
static std::string define(const std::string &name, const std::string &value) { return "-D" + name + "=" + value; }
static std::string join(const std::vector<std::string> &parts) {
    std::string out;
    for (const std::string &p : parts) out += p + " ";
    return out;
}
std::string load(const char *path);
template <typename T, typename To> void run(cl_context ctx, cl_device_id dev) {
    std::vector<std::string> options;
    options.push_back(define("T", type_name<T>()));
    options.push_back(define("To", type_name<To>()));
    std::string src = load("convert.cl");
    const char *text = src.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, NULL);
    clBuildProgram(prog, 1, &dev, join(options).c_str(), NULL, NULL);
}
int main() { run<float, int>(0, 0); run<double, double>(0, 0); return 0; }
"""
TRANSPOSE_CL = """
__kernel void transpose(__global Tk *out, __global const Tk *in) {
    __local Tk tile[16][16];
    int x = get_local_id(0), y = get_local_id(1);
    tile[y][x] = in[get_global_id(1) * 16 + get_global_id(0)];
    out[get_global_id(0) * 16 + get_global_id(1)] = tile[x][y];   /* no barrier: the planted race */
}
"""
# a library's kernel cache: the options go to a function simu does not follow, so no build is traced to
# transpose.cl; the header's macro still says that the host passes Tk as a build option
COMMON_HPP = '#pragma once\n#include <string>\n#define DefineKeyValue(key, arg) " -D " #key "=" + std::string(arg)\n'
TRANSPOSE_CPP = """
#include "common.hpp"
#include <vector>
extern const char *transpose_cl_src;
template <typename T> void transpose(void *queue) {
    std::vector<std::string> options = {DefineKeyValue(Tk, dtype_traits<T>::getName())};
    auto k = getKernel("transpose", transpose_cl_src, options);
    k(queue);
}
"""
STRANGER_CL = "__kernel void stranger(__global Foo *p) { p[get_global_id(0)] = 0; }\n"  # no host code passes Foo


def _scan(root: Path):
    options, config = resolve_options([root], ScanOverrides(budget=0.3, jobs=1, no_cache=True))
    result = scan(options, config)
    return result, {k.name: (f, k) for f, k in result.kernels()}


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    root = tmp_path_factory.mktemp("hosted")
    files = {"kernels/convert.cl": CONVERT_CL, "host/run.cpp": CONVERT_CPP, "kernels/transpose.cl": TRANSPOSE_CL,
             "src/common.hpp": COMMON_HPP, "src/transpose.cpp": TRANSPOSE_CPP, "kernels/stranger.cl": STRANGER_CL}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return _scan(root)


def test_builds_per_instantiation_take_the_hosts_types(hosted):
    result, kernels = hosted
    for name in ("convert[T=float To=int]", "convert[T=double To=double]", "gather[T=float To=int]",
                 "gather[T=double To=double]"):
        f, k = kernels[name]
        assert f.status == "ok" and k.status in ("analysed", "incomplete"), (name, f.first, k.reason)
        assert k.compile_options.assumed == ()
    # the host's own values: nothing assumed, so the race keeps its severity
    races = [x for x in kernels["gather[T=float To=int]"][1].findings if x.kind == "race"]
    assert races and any(x.severity == "error" for x in races)
    assert not any("convert.cl" in w for w in result.warnings)


def test_an_untraced_type_option_compiles_once_per_common_type(hosted):
    result, kernels = hosted
    for ty in ("float", "int", "double"):
        f, k = kernels[f"transpose[Tk={ty}]"]
        assert f.status == "ok" and k.status in ("analysed", "incomplete"), (f.first, k.reason)
        assert k.compile_options.assumed == (f"Tk={ty}",)
        # the type is a guess: the race on the tile is found, and is a warning naming the assumption
        races = [x for x in k.findings if x.kind == "race" and x.variable == "tile"]
        assert races and all(x.severity == "warning" and x.detail["assumed"] == [f"Tk={ty}"] for x in races)
        assert all(f"compiled assuming Tk={ty}" in x.message for x in races)
    assert ("kernels/transpose.cl: compiled assuming Tk = float, int, double, one variant each: the host code passes "
            "Tk as a build option and computes it at run time, and clang reads it as a type") in result.warnings


def test_a_type_no_host_code_passes_is_not_assumed(hosted):
    result, _ = hosted
    f = next(f for f in result.files if f.rel == "kernels/stranger.cl")
    assert f.status == "compile-error" and "unknown type name 'Foo'" in f.first


NOHOST_CL = """
__kernel void scale(__global T *a, __global const T *b, int n) {
    int i = get_global_id(0);
    if (i < n) a[i] = b[i] * (T)3;
}
__kernel void shift(__global T *a) {
    __local T s[64];
    s[get_local_id(0)] = a[get_global_id(0)];
    a[get_global_id(0)] = s[63 - get_local_id(0)];   /* no barrier: the planted race (across warps) */
}
"""
# an index type beside a value type: one type for both fails every way (float subscripts, fma of ints)
GATHER_CL = ("__kernel void gather(__global V *y, __global const V *x, __global const I *cols, int n) {\n"
             "    int i = get_global_id(0);\n    if (i < n) y[i] = fma(x[cols[i]], (V)2, (V)1);\n}\n")
MOD_CL = "__kernel void modk(__global T *a) { a[get_global_id(0)] = a[get_global_id(0)] % (T)4; }\n"  # int only
# more errors about T than clang reports (its limit is 20) before it meets To
LATE_CL = "".join(f"T twice{i}(T x) {{ return x + x; }}\n" for i in range(12)) + \
    "__kernel void late(__global To *b, __global T *a) { b[get_global_id(0)] = twice0(a[0]); }\n"


@pytest.fixture(scope="module")
def hostless(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostless")
    (root / "scale.cl").write_text(NOHOST_CL)
    (root / "mod.cl").write_text(MOD_CL)
    (root / "late.cl").write_text(LATE_CL)
    (root / "gather.cl").write_text(GATHER_CL)
    return _scan(root)


def test_without_host_code_unknown_types_compile_per_type(hostless):
    result, kernels = hostless
    for ty in ("float", "int", "double"):
        for kernel in ("scale", "shift"):
            f, k = kernels[f"{kernel}[T={ty}]"]
            assert f.status == "ok" and k.status in ("analysed", "incomplete"), (f.first, k.reason)
        races = [x for x in kernels[f"shift[T={ty}]"][1].findings if x.kind == "race" and x.variable == "s"]
        assert races and all(x.severity == "warning" and "types nothing defines" in x.message for x in races)
    assert ("scale.cl: compiled assuming T = float, int, double, one variant each: T is used as a type that nothing "
            "defines, and no OpenCL host code is seen") in result.warnings


def test_a_type_variant_that_does_not_compile_is_a_warning(hostless):
    result, kernels = hostless
    assert "modk[T=int]" in kernels and "modk[T=float]" not in kernels  # float % float does not compile
    f, _ = kernels["modk[T=int]"]
    assert f.status == "ok"
    assert any(w.startswith("mod.cl [T=float]: does not compile with these build options") for w in result.warnings)


def test_type_names_clang_reports_late_take_the_variants_type(hostless):
    result, kernels = hostless
    for ty in ("float", "int", "double"):
        f, k = kernels[f"late[T={ty} To={ty}]"]
        assert f.status == "ok" and k.compile_options.assumed == (f"T={ty}", f"To={ty}")
    assert "late.cl: also assuming To = each variant's type (unknown type name clang reported only after the " \
           "first)" in result.warnings


def test_an_index_type_beside_a_value_type_is_an_integer(hostless):
    result, kernels = hostless
    made = sorted(k for k in kernels if k.startswith("gather["))
    assert made == ["gather[V=double I=int]", "gather[V=float I=int]"], made
    assert all(kernels[k][0].status == "ok" for k in made)
    assert any(w.startswith("gather.cl: compiled assuming") and "also I = int (the kernel indexes with them)" in w
               for w in result.warnings)


ELEMENTWISE_CL = """
__kernel void combine(__global const float *x, __global const float *y, __global FLAG_T *flags,
                      __global float *out, int n) {
    int i = get_global_id(0);
    if (i < n) { out[i] = OPERATOR(x[i], y[i]); flags[i] = (FLAG_T)(out[i] > 0.0f); }
}
"""
# the operator and the flag type are build options a C++ helper chooses per operation (Paddle-Lite's elementwise and
# argmax kernels): -DOPERATOR(in,bias)=(in+bias), one per operator; -DFLAG_T=short or int
ELEMENTWISE_CPP = r"""
#include <string>
void Prepare(int op, bool fp16, std::string &build_options_) {
  if (op == 0) build_options_ += " -DOPERATOR(in,bias)=(in+bias) ";
  else if (op == 1) build_options_ += " -DOPERATOR(in,bias)=(in*bias) ";
  else build_options_ += " -DOPERATOR(in,bias)=fmax(in,bias) ";
  build_options_ += fp16 ? " -DFLAG_T=short " : " -DFLAG_T=int ";
}
"""


def test_a_function_like_build_option_the_host_writes_is_defined_as_one(tmp_path):
    """``-DOPERATOR(in,bias)=(in+bias)`` in the host's strings: the kernel compiles with one of the operators the
    host defines (said, as an assumption), not ``undeclared identifier 'OPERATOR'``; a type chosen between integer
    types compiles with one of them."""
    src = CSource(ELEMENTWISE_CPP)
    hints = define_hints(src)
    assert "OPERATOR=(in,bias)=(in+bias)" in hints and "FLAG_T=short" in hints
    (tmp_path / ".git").mkdir()
    (tmp_path / "cl").mkdir()
    (tmp_path / "cl" / "elementwise.cl").write_text(ELEMENTWISE_CL)
    (tmp_path / "elementwise.cc").write_text(ELEMENTWISE_CPP)
    result, kernels = _scan(tmp_path)
    f, k = kernels["combine"]
    assert k.status == "analysed", (k.status, k.reason, f.error)
    said = " ".join(result.warnings)
    assert "OPERATOR(in,bias)=" in said and "FLAG_T=int" in said, said
