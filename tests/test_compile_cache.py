"""The compiled-file cache (simu/frontend/compilecache.py): a file is compiled again only when its text, a file
clang read for it, or an option changed."""

from __future__ import annotations

import os
from pathlib import Path

from simu.frontend import CompileOptions, compilecache
from simu.frontend.compilecache import CompileCache, compile_cached
from simu.scan import ScanOverrides, resolve_options, scan

KERNEL = """#include "sizes.h"
__global__ void shift(int *a) {
  __shared__ int s[64];
  s[threadIdx.x] = a[threadIdx.x];
  SYNC
  a[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
"""


def _project(tmp_path: Path, sync: str) -> Path:
    (tmp_path / "sizes.h").write_text(f"#define SYNC {sync}\n")
    (tmp_path / "shift.cu").write_text(KERNEL)
    return tmp_path / "shift.cu"


def _counting(monkeypatch) -> list[str]:
    compiled: list[str] = []
    real = compilecache.compile_file

    def counted(path, options):
        compiled.append(str(path))
        return real(path, options)

    monkeypatch.setattr(compilecache, "compile_file", counted)
    return compiled


def test_unchanged_file_is_not_compiled_again(tmp_path, monkeypatch):
    src = _project(tmp_path, "__syncthreads();")
    compiled = _counting(monkeypatch)
    cache = CompileCache(tmp_path / "cache", "salt")
    first = compile_cached(src, CompileOptions(), cache)
    second = compile_cached(src, CompileOptions(), cache)
    assert compiled == [str(src)]
    assert second.ir == first.ir and second.language == "cuda"
    assert str(tmp_path / "sizes.h") in first.deps  # clang's -MD list: the header is checked too


def test_header_edit_option_change_and_new_salt_compile_again(tmp_path, monkeypatch):
    src = _project(tmp_path, "__syncthreads();")
    compiled = _counting(monkeypatch)
    cache = CompileCache(tmp_path / "cache", "salt")
    with_barrier = compile_cached(src, CompileOptions(), cache)
    (tmp_path / "sizes.h").write_text("#define SYNC\n")
    without = compile_cached(src, CompileOptions(), cache)
    assert "barrier" in with_barrier.ir and "barrier" not in without.ir
    compile_cached(src, CompileOptions(defines=("X=1",)), cache)
    assert len(compiled) == 3
    other = CompileCache(tmp_path / "cache", "another simu")  # another code fingerprint: nothing of the old kept
    compile_cached(src, CompileOptions(), other)
    assert len(compiled) == 4


def test_a_touched_header_with_the_same_bytes_is_unchanged(tmp_path, monkeypatch):
    src = _project(tmp_path, "__syncthreads();")
    compiled = _counting(monkeypatch)
    cache = CompileCache(tmp_path / "cache", "salt")
    compile_cached(src, CompileOptions(), cache)
    st = (tmp_path / "sizes.h").stat()
    os.utime(tmp_path / "sizes.h", ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    compile_cached(src, CompileOptions(), cache)
    assert len(compiled) == 1


def test_no_cache_compiles_every_time(tmp_path, monkeypatch):
    src = _project(tmp_path, "__syncthreads();")
    compiled = _counting(monkeypatch)
    compile_cached(src, CompileOptions(), None)
    compile_cached(src, CompileOptions(), None)
    assert len(compiled) == 2


def test_scan_sees_a_header_edit_through_the_cache(tmp_path):
    """A rescan takes the compiled file from the cache; removing the barrier in the header is still seen."""
    _project(tmp_path, "__syncthreads();")
    options, config = resolve_options([tmp_path], ScanOverrides(budget=1, jobs=1))
    clean = scan(options, config)
    assert clean.stats.analysed == 1 and not clean.files[0].kernels[0].findings
    assert (options.cache_dir / compilecache.FILE_NAME).exists()
    again = scan(options, config)
    assert again.files[0].kernels[0].cached and not again.files[0].kernels[0].findings
    (tmp_path / "sizes.h").write_text("#define SYNC\n")
    racy = scan(options, config)
    kinds = {f.kind for f in racy.files[0].kernels[0].findings}
    assert "race" in kinds, kinds


def test_a_header_added_to_a_folder_on_the_search_path_compiles_again(tmp_path, monkeypatch):
    """A header that would now shadow the one clang found later on the search path is noticed by its folder."""
    src = _project(tmp_path, "__syncthreads();")
    (tmp_path / "sizes.h").unlink()
    later = tmp_path / "later"
    later.mkdir()
    (later / "sizes.h").write_text("#define SYNC __syncthreads();\n")
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    os.utime(earlier, (0, 0))  # a time the new entry will change, however coarse the file system's clock
    options = CompileOptions(include_dirs=(str(earlier), str(later)))
    compiled = _counting(monkeypatch)
    cache = CompileCache(tmp_path / "cache", "salt")
    assert "barrier" in compile_cached(src, options, cache).ir
    (earlier / "sizes.h").write_text("#define SYNC\n")
    assert "barrier" not in compile_cached(src, options, cache).ir
    assert len(compiled) == 2
