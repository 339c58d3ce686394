"""What the front end chooses when no build option does: the macros that gate the CUDA headers of a .cu
file, the first choice of an ``#error`` chain (in the file or a header), autoconf ``config.h`` stand-ins,
and what nvcc tolerates that clang would not (narrowing in initialisers, the limits macros)."""

from pathlib import Path

import pytest

from simu.errors import CompileError
from simu.frontend import CompileOptions, compile_file
from simu.frontend.choices import branch_macros, chain_choice
from simu.frontend.generated import configure
from simu.frontend.guards import CUDA_HEADERS, cuda_guards, option_macros, scan_text
from simu.scan import ScanOverrides, resolve_options, scan


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


# a library header shared by a CPU-only and a GPU build: the CUDA headers only when USE_GPU is defined
PROJECT_H = """#ifndef PROJECT_H
#define PROJECT_H
#include <stdlib.h>
#ifdef USE_GPU
  #define TILE 64
  #include "cuda_runtime.h"
  #include "cublas_v2.h"
  #ifdef WITH_DNN
  #include "vendor_dnn.h"
  #endif
#endif
#if defined(USE_GPU)
cublasHandle_t handle_of(int device);
#endif
#endif
"""

SCALE_CU = """#include "project.h"
__global__ void scale(float *a, float s) {
  __shared__ float t[TILE];
  t[threadIdx.x] = a[threadIdx.x] * s;
  __syncthreads();
  a[threadIdx.x] = t[TILE - 1 - threadIdx.x];
}
"""


def test_the_shim_provides_every_header_a_guard_may_gate():
    from simu.frontend.cuda_headers import SHIM_DIR

    assert all((SHIM_DIR / h).is_file() for h in CUDA_HEADERS)


def test_a_macro_that_gates_the_cuda_headers_is_read_lexically(tmp_path):
    root = write(tmp_path, {"include/project.h": PROJECT_H, "src/scale.cu": SCALE_CU})
    guards = cuda_guards(root / "src/scale.cu", [root / "include"])
    assert [(g.macro, g.file.name, g.line, g.header) for g in guards] == [("USE_GPU", "project.h", 4, "cuda_runtime.h")]
    assert cuda_guards(root / "src/scale.cu", [root / "include"], {"USE_GPU"}) == []
    assert cuda_guards(root / "src/scale.cu", []) == []  # the header is not reached: nothing to read
    # only includes at the branch's own level count: the nested WITH_DNN branch is its own
    branches, defined, _ = scan_text(PROJECT_H)
    assert [(m, ln) for m, ln, _ in branches] == [("WITH_DNN", 8), ("USE_GPU", 4), ("USE_GPU", 12)]
    assert "PROJECT_H" in defined
    assert option_macros(("A=2", "B"), ("-DC", "-U", "D", "-UE=1", "-O2")) == {"A", "B", "C", "D", "E"}


@pytest.mark.parametrize("block, chosen", [
    # a header simu cannot provide in the same branch: defining the macro would only trade errors
    ('#ifdef USE_GPU\n#include <cuda_runtime.h>\n#include <vendor_dnn.h>\n#endif\n', []),
    # the compiler's own macros, #ifndef branches and conditions on values are never chosen
    ('#ifdef __CUDACC__\n#include <cuda_runtime.h>\n#endif\n', []),
    ('#ifndef CPU_ONLY\n#include <cuda_runtime.h>\n#endif\n', []),
    ('#if CUDA_MAJOR > 10\n#include <cuda_runtime.h>\n#endif\n', []),
    # a macro the project defines itself is its own business
    ('#define HAVE_CUDA\n#ifdef HAVE_CUDA\n#include <cuda.h>\n#endif\n', []),
    # no CUDA header: not a CUDA gate
    ('#ifdef USE_THREADS\n#include <pthread.h>\n#endif\n', []),
    ('#if defined(_WIN32)\n#include <windows.h>\n#elif defined(USE_CUDA)\n#include <cuda.h>\n#endif\n', ["USE_CUDA"]),
    ('#if ENABLE_GPU // the accelerated build\n#include <curand.h>\n#endif\n', ["ENABLE_GPU"]),
])
def test_which_branches_are_cuda_gates(tmp_path, block, chosen):
    (tmp_path / "k.cu").write_text(block + "__global__ void k(int *a) { a[threadIdx.x] = 0; }\n")
    assert [g.macro for g in cuda_guards(tmp_path / "k.cu", [])] == chosen


def test_a_cu_file_compiles_with_its_cuda_gate_on_and_says_so(tmp_path):
    root = write(tmp_path, {"include/project.h": PROJECT_H, "src/scale.cu": SCALE_CU})
    module = compile_file(root / "src/scale.cu", CompileOptions(include_dirs=(str(root / "include"),)))
    assert "@_Z5scalePff" in module.ir
    assert "USE_GPU" in module.options.defines and "WITH_DNN" not in module.options.defines
    assert "defined USE_GPU" in module.notes[0] and "project.h:4" in module.notes[0]
    # an option that names the macro decides: -UUSE_GPU leaves the gate off (and the file fails as it would)
    with pytest.raises(CompileError) as exc:
        compile_file(root / "src/scale.cu", CompileOptions(include_dirs=(str(root / "include"),),
                                                           clang_args=("-UUSE_GPU",)))
    assert "TILE" in exc.value.diagnostics


def test_kernels_behind_the_gate_are_seen_even_when_the_file_compiles_without_it(tmp_path):
    (tmp_path / "k.cu").write_text('#ifdef GPU\n#include "cuda_runtime.h"\n'
                                   "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n#endif\n"
                                   "int host_only(void) { return 0; }\n")
    module = compile_file(tmp_path / "k.cu")
    assert "@_Z1kPi" in module.ir and "defined GPU" in module.notes[0]


def test_a_gate_that_breaks_the_file_is_left_off_when_the_file_compiles_without_it(tmp_path):
    (tmp_path / "k.cu").write_text('#ifdef GPU\n#include "cuda.h"\nint broken = undeclared_name;\n#endif\n'
                                   "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n")
    module = compile_file(tmp_path / "k.cu")
    assert "@_Z1kPi" in module.ir and module.notes == [] and "GPU" not in module.options.defines


def test_a_project_compiles_at_zero_configuration_through_its_cuda_gate(tmp_path):
    root = write(tmp_path, {".git/HEAD": "", "include/project.h": PROJECT_H, "src/scale.cu": SCALE_CU})
    result = scan(*resolve_options([root], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))
    (f,) = [f for f in result.files if f.rel == "src/scale.cu"]
    assert f.status == "ok", f.first
    assert [k.status for k in f.kernels] in (["analysed"], ["incomplete"])
    assert any("src/scale.cu: " in w and "defined USE_GPU" in w for w in result.warnings)


TIMER_H = """#pragma once
#include "config.h"
#if defined(_WIN32)
#  define STAMP long
#elif defined(HAVE_FAST_CLOCK) && defined(HAVE_FAST_CLOCK_ID)
#  define STAMP unsigned long long
#elif defined(HAVE_SLOW_CLOCK)
#  define STAMP unsigned
#else
#  error No clock to time with.
#endif
"""

# an autoheader template: each `#undef X` is a slot that ./configure fills
CONFIG_H_IN = """/* config.h.in.  Generated from configure.ac by autoheader.  */
/* Define to 1 if you have a fast clock. */
#undef HAVE_FAST_CLOCK

/* Define to 1 if the fast clock has an id. */
#undef HAVE_FAST_CLOCK_ID

#undef HAVE_SLOW_CLOCK

/* Define to the equivalent of the C99 'restrict' keyword, or to nothing if this is not supported. */
#undef restrict
"""


def test_branch_choices():
    assert branch_macros("elif", "defined(A) && defined B") == ("A", "B")
    assert branch_macros("if", "defined(_WIN32)") == () and branch_macros("ifdef", "WIN32") == ()
    assert branch_macros("if", "!defined(A)") == () and branch_macros("if", "defined(A) || defined(B)") == ("A",)
    # nvcc's own name is simu's to choose (it compiles CUDA as nvcc does); other compilers' are not
    assert branch_macros("if", "defined(__NVCC__) || defined(__NVCOMPILER_CUDA__)") == ("__NVCC__",)
    assert branch_macros("elif", "defined(__HIP_PLATFORM_HCC__)") == ()
    assert branch_macros("if", "(defined(A) || defined(B)) && defined(C)") == ()
    assert branch_macros("ifdef", "A /* the first */") == ("A",)
    assert chain_choice(TIMER_H, 10) == ("HAVE_FAST_CLOCK", "HAVE_FAST_CLOCK_ID")  # _WIN32 is the platform's
    assert chain_choice("#ifndef X\n#error need X\n#endif\n", 2) == ()
    assert chain_choice("#ifndef X\n#elif defined(Y)\n#else\n#error Y\n#endif\n", 4) == ("Y",)


def test_an_autoconf_template_stands_in_with_every_slot_empty():
    text = configure(CONFIG_H_IN)
    assert "/* #undef HAVE_FAST_CLOCK */" in text and "\n#undef" not in text
    assert "#define restrict __restrict" in text  # what configure writes for GCC and clang (C++ needs it)
    # a CMake template's literal #undef is the project's own
    assert "\n#undef LEGACY\n" in configure("#cmakedefine USE_X\n#undef LEGACY\n")


def test_an_error_chain_in_a_header_behind_an_autoconf_config_h_takes_its_first_choice(tmp_path):
    root = write(tmp_path, {
        ".git/HEAD": "", "configure.ac": "AC_CONFIG_HEADERS([config/config.h])\n",
        "config/config.h.in": CONFIG_H_IN, "src/common/Timer.h": TIMER_H,
        "src/cuda/stamp.cu": '#include "Timer.h"\n'
                             "__global__ void stamp(STAMP * restrict out) { out[threadIdx.x] = 1; }\n",
    })
    result = scan(*resolve_options([root], ScanOverrides(budget=0.5, jobs=1, no_cache=True)))
    (f,) = [f for f in result.files if f.rel == "src/cuda/stamp.cu"]
    assert f.status == "ok", f.first
    (note,) = [w for w in result.warnings if "src/cuda/stamp.cu: " in w]
    assert "defined HAVE_FAST_CLOCK, HAVE_FAST_CLOCK_ID" in note and "line 10 of" in note and "Timer.h" in note


def test_what_nvcc_tolerates_compiles(tmp_path):
    # braced narrowing of a constant (nvcc warns) and the limits macros with no #include (nvcc's headers have them)
    (tmp_path / "k.cu").write_text("__global__ void k(int *out, unsigned *m) {\n"
                                   "  int init[4] = {0.0, 1.0, 0.0, 1.0};\n"
                                   "  out[threadIdx.x] = init[threadIdx.x % 4];\n"
                                   "  if (threadIdx.x == 0) *m = UINT_MAX - INT_MAX;\n}\n")
    assert "@_Z1kPiPj" in compile_file(tmp_path / "k.cu").ir


def test_a_file_that_names_nvcc_in_its_compiler_chain_compiles_as_nvcc(tmp_path):
    (tmp_path / "k.cu").write_text(
        "#if defined(__NVCC__) || defined(__NVCOMPILER_CUDA__)\n#define API(fn) cuda ## fn\n"
        "#elif defined(__HIP_PLATFORM_HCC__)\n#define API(fn) hip ## fn\n#else\n#error Unsupported compiler\n#endif\n"
        "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n"
        "void run(int *a) { k<<<1, 32>>>(a); API(DeviceSynchronize)(); }\n")
    module = compile_file(tmp_path / "k.cu")
    assert "@_Z1kPi" in module.ir and any("__NVCC__" in n for n in module.notes), module.notes


COMMON_CL = """#pragma once
// the host passes one of: -DCL_DTYPE_float, -DCL_DTYPE_half
#ifdef CL_DTYPE_float
#define CL_DTYPE float
#endif
#ifdef CL_DTYPE_half
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define CL_DTYPE half
#endif
"""

RELU_CL = """#include "common.h"
__kernel void relu(__global const CL_DTYPE *in, __global CL_DTYPE *out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i] > (CL_DTYPE)0 ? in[i] : (CL_DTYPE)0;
}
"""


def test_a_type_a_header_defines_only_under_ifdef_choices_takes_the_first(tmp_path: Path):
    """``CL_DTYPE`` is defined only under ``#ifdef CL_DTYPE_float`` or ``#ifdef CL_DTYPE_half`` (the host's build
    options choose): the kernel compiles with the first choice, and the note says so; a header that also defines it
    unconditionally is no such choice."""
    write(tmp_path, {"kernels/common.h": COMMON_CL, "kernels/relu.cl": RELU_CL})
    module = compile_file(tmp_path / "kernels" / "relu.cl", CompileOptions())
    assert "@relu(" in module.ir and "CL_DTYPE_float" in module.options.defines
    assert any("defined CL_DTYPE_float, the first choice under which" in n and "common.h" in n for n in module.notes)
    write(tmp_path, {"kernels/common.h": COMMON_CL + "#ifndef CL_DTYPE\n#define CL_DTYPE double\n#endif\n"})
    from simu.frontend.choices import definition_choice
    error = f"{tmp_path / 'kernels' / 'relu.cl'}:2:35: error: unknown type name 'CL_DTYPE'"
    assert definition_choice(error, ()) == ((), "")


def test_a_static_assertion_on_the_architecture_chooses_it(tmp_path: Path):
    """``static_assert(__CUDA_ARCH__ >= MIN_ARCH * 10)`` with a minimum above simu's sm_70: compiled for the
    smallest known architecture that meets it, and the note says so."""
    (tmp_path / "k.cu").write_text(
        "#define MIN_ARCH 75\n#if defined(__CUDA_ARCH__)\n"
        "static_assert(__CUDA_ARCH__ >= MIN_ARCH * 10, \"MIN_ARCH must bound __CUDA_ARCH__ from below\");\n#endif\n"
        "__global__ void k(int *a) { a[threadIdx.x] = __CUDA_ARCH__; }\n")
    module = compile_file(tmp_path / "k.cu")
    assert "@_Z1kPi" in module.ir and "store i32 750" in module.ir
    assert any("compiled for sm_75: a static assertion" in n for n in module.notes), module.notes


def test_a_special_register_in_a_header_included_with_angle_brackets_is_escaped(tmp_path: Path):
    """nvcc takes ``asm("mov.u32 %0, %laneid;" : "=r"(r))``, clang wants ``%%laneid``: the project header is read
    through a rewritten copy wherever it is included from, ``<lib/lane.h>`` too."""
    write(tmp_path, {"include/lib/lane.h": "__device__ unsigned lane_id() {\n  unsigned r;\n"
                                           "  asm volatile(\"mov.u32 %0, %laneid;\" : \"=r\"(r));\n  return r;\n}\n",
                     "k.cu": "#include <lib/lane.h>\n__global__ void k(unsigned *a) { a[threadIdx.x] = lane_id(); }\n"})
    module = compile_file(tmp_path / "k.cu", CompileOptions(include_dirs=(str(tmp_path / "include"),)))
    assert "@_Z1kPj" in module.ir and "laneid" in module.ir
