"""The precompiled shim of CUDA device compiles (simu/frontend/prelude.py): read where it cannot change what a file
sees, the shim parsed as before where it could (a macro the shim names, an include folder with a header of a name
the shim includes)."""

from __future__ import annotations

import re
from pathlib import Path

from simu.api import load_file
from simu.frontend import CompileOptions, compile_file
from simu.frontend.compile import _prelude

KERNEL = """__global__ void clamp_shift(int *a, int n) {
  __shared__ int s[64];
  s[threadIdx.x] = a[threadIdx.x] < SIMU_TEST_CAP ? a[threadIdx.x] : SIMU_TEST_CAP;
  __syncthreads();
  a[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x] + n;
}
"""


def _source(tmp_path: Path, cap: str = "#define SIMU_TEST_CAP 0x7fffffff\n") -> Path:
    src = tmp_path / "shift.cu"
    src.write_text(cap + KERNEL)
    return src


def _code(ir: str) -> list[str]:
    """The IR's code with its metadata numbers gone: read from a prelude, the shim's `using std::sinf` and its kin
    are no debug entities of the file (they name nothing a kernel holds), so clang numbers the rest otherwise."""
    return [line for line in re.sub(r"!\d+", "!N", ir).splitlines() if not line.startswith("!")]


def test_a_device_compile_reads_the_prelude_and_compiles_what_the_shim_parsed_compiles(tmp_path):
    src = _source(tmp_path)
    options = CompileOptions()
    assert _prelude("cuda", options)  # the shim is read precompiled
    with_prelude = compile_file(src, options)
    import simu.frontend.compile as compile_module

    real = compile_module._prelude
    compile_module._prelude = lambda language, options: []
    try:
        parsed = compile_file(src, options)
    finally:
        compile_module._prelude = real
    assert _code(with_prelude.ir) == _code(parsed.ir)
    kernel = load_file(src).kernel("clamp_shift")
    assert [p.name for p in kernel.params] == ["a", "n"]


def test_a_macro_the_shim_names_or_a_header_it_includes_in_an_include_folder_parses_the_shim(tmp_path):
    assert _prelude("cuda", CompileOptions(defines=("SIMU_TEST_CAP=7",)))  # a name the shim never says
    assert not _prelude("cuda", CompileOptions(defines=("CUDA_VERSION=11000",)))  # the shim tests it
    assert not _prelude("cuda", CompileOptions(clang_args=("-std=c++14",)))  # options of its own
    assert not _prelude("opencl", CompileOptions())
    # the project's limits.h comes before the shim's, for the shim's own #include <limits.h> too: the kernel
    # uses what it defines without including it (the shim read precompiled would have included the shim's)
    include = tmp_path / "include"
    include.mkdir()
    (include / "limits.h").write_text("#pragma once\n#include_next <limits.h>\n#define SIMU_TEST_CAP 99\n")
    options = CompileOptions(include_dirs=(str(include),))
    assert not _prelude("cuda", options)
    module = compile_file(_source(tmp_path, cap=""), options)
    assert "99" in module.ir


def test_a_prelude_clang_will_not_read_is_compiled_without_and_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # a prelude of this test's own
    options = CompileOptions()
    pch = Path(_prelude("cuda", options)[-1])
    pch.write_bytes(b"not a precompiled header" * 64)  # damaged, or left by another clang
    module = compile_file(_source(tmp_path), options)
    assert "clamp_shift" in module.ir and not pch.exists()
    assert Path(_prelude("cuda", options)[-1]).stat().st_size > 100_000  # the next compile reads a fresh one
