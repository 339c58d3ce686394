"""The front end: toolchain versions, both compile modes, .ll input, errors, debug locations."""

import json
import re

from typer.testing import CliRunner

from simu.api import load_file
from simu.cli import app
from simu.errors import CompileError
from simu.frontend import CompileOptions, compile_file, compile_source
from simu.frontend.toolchain import clang_version, llvmlite_llvm_version

runner = CliRunner()

KERNEL = """\
__device__ int twice(int x) { return 2 * x; }
__global__ void scale(float *a, int n) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  if (t < n) tile[t] = a[t];
  __syncthreads();
  a[t] = tile[63 - t] + twice(t);
}
"""


def test_clang_and_llvmlite_share_llvm_major_version():
    assert clang_version()[0] == llvmlite_llvm_version()[0]


def test_source_faithful_mode_keeps_shared_accesses_and_promotes_locals(tmp_source):
    ir = compile_file(tmp_source("k.cu", KERNEL)).ir
    assert "alloca" not in ir.split("define")[-1] or "alloca" not in ir  # locals promoted by SROA
    assert ir.count("addrspace(3)") >= 2
    assert "llvm.nvvm.barrier.cta.sync.aligned.all" in ir
    body = ir.split("define dso_local ptx_kernel")[1].split("\n}")[0]
    assert "call" not in re.sub(r"call [^\n]*@llvm\.[^\n]*", "", body)


def test_as_compiled_mode_runs_clang_optimiser(tmp_source):
    src = tmp_source("k.cu", KERNEL)
    o0 = compile_file(src).ir
    o2 = compile_file(src, CompileOptions(opt_level=2)).ir
    assert o0 != o2
    assert CompileOptions(opt_level=2).mode == "as-compiled -O2"


def test_ll_files_are_accepted(tmp_source):
    ir = compile_file(tmp_source("k.cu", KERNEL)).ir
    module = load_file(tmp_source("k.ll", ir))
    assert [k.display_name for k in module.kernels] == ["scale"]


def test_debug_locations_map_to_source_lines(tmp_source):
    module = load_file(tmp_source("k.cu", KERNEL))
    k = module.kernel("scale")
    stores = [i for b in k.function.blocks for i in b.instrs if i.opcode == "store"]
    assert [s.loc.line for s in stores] == [5, 7]
    inlined = [i for b in k.function.blocks for i in b.instrs if i.opcode == "mul"]
    assert inlined and inlined[0].loc.line == 1 and inlined[0].loc.inlined_at.line == 7


def test_kernel_signature_from_debug_info(tmp_source):
    k = load_file(tmp_source("k.cu", KERNEL)).kernel("scale")
    assert [(p.name, p.c_type, p.is_pointer) for p in k.params] == [("a", "float*", True), ("n", "int", False)]
    assert k.line == 2


def test_shared_globals_are_named(tmp_source):
    module = load_file(tmp_source("k.cu", KERNEL))
    shared = [g for g in module.globals.values() if g.addrspace == 3]
    assert [(g.display_name, g.size) for g in shared] == [("tile", 256)]


def test_define_and_include_options(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "sizes.h").write_text("#define TILE 32\n")
    src = tmp_path / "k.cu"
    src.write_text('#include "sizes.h"\n__global__ void k(int *a) { a[threadIdx.x] = TILE + EXTRA; }\n')
    ir = compile_file(src, CompileOptions(include_dirs=(str(inc),), defines=("EXTRA=5",))).ir
    assert "37" in ir


def test_broken_file_gives_clear_error(tmp_source):
    src = tmp_source("bad.cu", "__global__ void k(int *a) {\n  a[0] = undefined_name;\n}\n")
    try:
        compile_file(src)
    except CompileError as exc:
        assert "bad.cu:2" in exc.first and "undefined_name" in exc.first
    else:
        raise AssertionError("no CompileError")


def test_cli_compile_error_exit_code_2_without_traceback(tmp_source):
    src = tmp_source("bad.cl", "__kernel void k(__global int *a) { a[0] = nope; }\n")
    result = runner.invoke(app, ["compile", str(src)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "bad.cl:1" in result.output


def test_cli_kernels_lists_others_when_one_file_fails(tmp_path):
    (tmp_path / "good.cu").write_text("__global__ void good(int *a) { a[threadIdx.x] = 1; }\n")
    (tmp_path / "bad.cu").write_text("__global__ void bad(int *a) { a[0] = nope; }\n")
    result = runner.invoke(app, ["kernels", str(tmp_path), "--format", "json"])
    data = json.loads(result.stdout)
    assert [k["kernel"] for k in data["kernels"]] == ["good"]
    assert len(data["failures"]) == 1 and data["failures"][0]["file"].endswith("bad.cu")
    assert result.exit_code == 1


def test_cli_compile_writes_ir(tmp_source, tmp_path):
    src = tmp_source("k.cu", KERNEL)
    out = tmp_path / "k.ll"
    result = runner.invoke(app, ["compile", str(src), "-o", str(out), "-O2"])
    assert result.exit_code == 0, result.output
    assert "ptx_kernel" in out.read_text()


def test_compile_source_text():
    module = compile_source("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }", "opencl", path="k.cl")
    assert "spir_kernel" in module.ir


def _check_json(tmp_path, src):
    out = tmp_path / "out.json"
    res = runner.invoke(app, ["check", str(src), "--budget", "1", "--format", "json", "-o", str(out)])
    assert out.is_file(), res.output
    return [k for f in json.loads(out.read_text())["files"] for k in f["kernels"]]


def test_cuda_register_storage_class_compiles(tmp_path):
    """C++17 dropped `register`; nvcc and g++ only warn, so benchmark code full of it must compile."""
    src = tmp_path / "flops.cu"
    src.write_text("__global__ void madd(float *data, int n) {\n"
                   "  register float s = data[threadIdx.x];\n"
                   "  for (register int i = 0; i < n; ++i) s = s * 0.99f + 0.01f;\n"
                   "  data[threadIdx.x] = s;\n}\n")
    (k,) = _check_json(tmp_path, src)
    assert k["status"] in ("analysed", "incomplete"), k["reason"]


def test_opencl_incompatible_pointer_conversion_is_a_warning(tmp_path):
    """A float4 array read through a float pointer: vendor OpenCL compilers warn, simu must not stop."""
    src = tmp_path / "solver.cl"
    src.write_text("__kernel void lanes(__global float *out) {\n"
                   "  float4 v[2];\n  v[0] = (float4)(1.0f); v[1] = (float4)(2.0f);\n"
                   "  float *f = v;\n"
                   "  out[get_global_id(0)] = f[get_global_id(0) % 8];\n}\n")
    (k,) = _check_json(tmp_path, src)
    assert k["status"] in ("analysed", "incomplete"), k["reason"]


def test_spaced_launch_chevrons_compile_under_the_files_own_names(tmp_path):
    """``k<< <1, 16 >> >(a)`` (nvcc accepts it) in a file and in a header it includes: clang reads closed-up
    copies through a VFS overlay; kernels keep the user's paths and lines; nothing is written to the tree."""
    from simu.api import load_file
    from simu.frontend.overlay import close_up

    (tmp_path / "helper.h").write_text("__global__ void k2(float *a) { a[threadIdx.x] = 0; }\n"
                                       "static void twice(float *a) { k2<< <2, 8>> >(a); }\n")
    src = tmp_path / "k.cu"
    text = ('#include "helper.h"\n__global__ void k(float *a) { a[threadIdx.x] += 1.0f; }\n'
            "int main() { float *a; cudaMalloc(&a, 64); k<< <1, 16 >> >(a); twice(a); return 0; }\n")
    src.write_text(text)
    module = load_file(src)
    where = {k.display_name: (k.file, k.line) for k in module.kernels}
    assert where == {"k": (str(src), 2), "k2": (str(tmp_path / "helper.h"), 1)}
    assert src.read_text() == text and sorted(p.name for p in tmp_path.iterdir()) == ["helper.h", "k.cu"]
    assert close_up("k<< <1, 16 >> >(a);") == "k<<< 1, 16 >>> (a);"
    assert close_up("std::vector<std::vector<int> > v; x = a << 2;") is None


def test_a_kernel_file_written_as_raw_string_literals_compiles_at_its_own_lines(tmp_path):
    """OpenCL libraries keep kernels as ``R"(…)"`` pieces that the host ``#include``\\ s into a string: the text
    inside is compiled, delimiters blanked, so kernels and findings keep the file's lines; a file with code outside
    the literals is left as it is."""
    from simu.api import load_file
    from simu.frontend.overlay import unwrap_raw_string

    src = tmp_path / "k.cl"
    text = ('// the kernels of the library\nR"(\n#define T float\n)"\n\nR"(\n'
            "__kernel void scale(__global T *a) { a[get_global_id(0)] *= 2; }\n)\";\n")
    src.write_text(text)
    module = load_file(src)
    assert [(k.display_name, k.line) for k in module.kernels] == [("scale", 7)]
    assert src.read_text() == text
    assert unwrap_raw_string('const char *s = R"(__kernel void k() {})";') is None
    assert unwrap_raw_string('R"x(a)x" R"(b)"') == "    a       b  "


def test_a_kernel_file_wrapped_in_a_stringizing_macro_compiles_at_its_own_lines(tmp_path):
    """Benchmark suites keep kernels as ``MSTRINGIFY( … )`` files that the host includes after ``#define
    MSTRINGIFY(...) #__VA_ARGS__``; lines of their own for directives come from ``\\n`` escapes.  The text inside is
    the program: the wrapper blanked, the escapes spaces, so kernels keep the file's lines."""
    from simu.api import load_file
    from simu.frontend.overlay import unwrap_stringified

    src = tmp_path / "k.cl"
    text = ("MSTRINGIFY(\n\n// a comment\n\\n#undef MAD\n\\n#define MAD(x, c) x = (x * x) + c;\n\\n\n"
            "__kernel void compute(__global float *ptr, float a)\n{\n  float x = a;\n  MAD(x, 1.0f)\n"
            "  ptr[get_global_id(0)] = x;\n}\n\n)\n")
    src.write_text(text)
    module = load_file(src)
    assert [(k.display_name, k.line) for k in module.kernels] == [("compute", 7)]
    assert src.read_text() == text
    assert unwrap_stringified("MSTRINGIFY(int x;)") is None  # no kernel inside
    assert unwrap_stringified("int y; MSTRINGIFY(__kernel void k() {})") is None  # code outside the wrapper
    assert unwrap_stringified("S(\\n#define A 1\n__kernel void k() {}\n)") == "    #define A 1\n__kernel void k() {}\n "


PRECISION_CHAIN = """#if defined(SINGLE_PRECISION)
#define VALTYPE float
#elif defined(K_DOUBLE_PRECISION)
#define VALTYPE double
#else
#error No precision defined.
#endif
__kernel void copy(__global VALTYPE *out, __global const VALTYPE *in) { out[get_global_id(0)] = in[get_global_id(0)]; }
"""


def test_an_unchosen_configuration_chain_takes_its_first_choice_and_says_so(tmp_path):
    from typer.testing import CliRunner

    from simu.cli import app
    from simu.frontend.choices import chain_choice

    assert chain_choice(PRECISION_CHAIN, 6) == ("SINGLE_PRECISION",)
    assert chain_choice("#ifndef X\n#error need X\n#endif\n", 2) == ()  # nothing to choose
    assert chain_choice("#ifdef A\n#if B\n#endif\n#else\n#error no A\n#endif\n", 5) == ("A",)
    (tmp_path / ".git").mkdir()
    (tmp_path / "st.cl").write_text(PRECISION_CHAIN)
    res = CliRunner().invoke(app, ["scan", str(tmp_path), "--no-cache", "--budget", "1", "-j", "1"])
    assert res.exit_code == 0, res.output
    assert "defined SINGLE_PRECISION" in res.output and "line 6" in res.output
    res = CliRunner().invoke(app, ["check", str(tmp_path / "st.cl"), "--budget", "4"])
    assert res.exit_code == 0 and "note:" in res.stderr and "SINGLE_PRECISION" in res.stderr
    res = CliRunner().invoke(app, ["check", str(tmp_path / "st.cl"), "-D", "K_DOUBLE_PRECISION", "--budget", "4"])
    assert res.exit_code == 0 and "SINGLE_PRECISION" not in res.stderr  # a chosen configuration is kept
