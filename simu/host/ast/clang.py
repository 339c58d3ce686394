"""clang's JSON AST of a host file: the declarations the file itself (and its project headers) makes.

The host side of a CUDA file is parsed with the bundled clang (``--cuda-host-only -fsyntax-only``) against simu's
shim headers.  Those headers and the common C++ standard headers are compiled once into a precompiled header
(cached per clang, shim and flags in the user's cache folder): clang's dump skips what a PCH declares, so the dump
of a file is its own declarations (~0.5 MB, 0.1 s) instead of 50-150 MB of headers.  A file clang cannot fully
parse still has an AST (a missing header is an error, but ``main()`` is kept), so its facts are read as far as
they go.

OpenCL host files (:func:`host_language`: they call the OpenCL API and launch nothing with ``<<<``) are parsed as
what they are, C or C++, against simu's ``CL/cl.h`` (:data:`OPENCL_HOST_INCLUDE`, force-included so that it sits in
the prelude too): a C file keeps C's rules (``float *x = malloc(n)``), its C library the musl headers the ziglang
wheel ships, so no system header is needed.  The CUDA mode finds simu's ``CL/cl.h`` too (a helper file of OpenCL
host code that calls no OpenCL function, parsed as C++, still sees the types its project headers name).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

from simu.frontend.cuda_headers import shim_arguments
from simu.frontend.overlay import spaced_launch_overlay
from simu.frontend.prelude import precompiled
from simu.frontend.stand_ins import dependencies, header_missing, write_stand_ins
from simu.frontend.toolchain import INCLUDE_DIR, clang_command
from simu.host.ast.dumpsplit import project_part

Node = dict[str, Any]

# the standard headers host code includes most; each behind __has_include, so a missing libstdc++ costs nothing
_PCH_HEADERS = ("vector", "string", "iostream", "algorithm", "map", "set", "memory", "sstream", "fstream",
                "cstdio", "cstdlib", "cstring", "cmath", "cassert", "chrono", "numeric", "functional",
                "unordered_map", "utility", "random", "iomanip", "limits", "stdio.h", "stdlib.h", "string.h",
                "math.h", "assert.h", "time.h")
# CUDA's C++ libraries (CCCL: thrust, cub), in a second prelude for the files that include them: ~800 headers whose
# declarations would otherwise fill the dump (a 450 MB dump in 14 s becomes 10 MB in 0.2 s).  They do not all compile
# against the shim's C library, so that prelude keeps its errors (clang builds and reads it with errors allowed).
_LIBRARY_HEADERS = ("thrust/device_vector.h", "thrust/host_vector.h", "thrust/execution_policy.h", "thrust/sort.h",
                    "thrust/reduce.h", "thrust/scan.h", "thrust/transform.h", "thrust/transform_reduce.h",
                    "thrust/copy.h", "thrust/fill.h", "thrust/sequence.h", "thrust/count.h", "thrust/extrema.h",
                    "thrust/unique.h", "thrust/for_each.h", "thrust/functional.h",
                    "thrust/iterator/counting_iterator.h", "thrust/iterator/zip_iterator.h", "cub/cub.cuh")
LIBRARY_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:thrust|cub)/', re.M)
_WITH_ERRORS = ["-Xclang", "-fallow-pch-with-compiler-errors"]
_TIMEOUT = 60  # seconds for one parse
# a larger dump (a generated file, a header-heavy C++ file) is read by the text reader; clang indents its JSON, about
# five bytes in six are whitespace (a 67 MB dump of a macro-heavy 700-line file is 11 MB of data)
MAX_DUMP_BYTES = 192 << 20
# simu's own OpenCL host declarations (CL/cl.h, CL/opencl.h, OpenCL/opencl.h): host code parses without an SDK
OPENCL_HOST_INCLUDE = INCLUDE_DIR / "opencl_host"
_SPEC = importlib.util.find_spec("ziglang")
_ZIG_LIB = Path(_SPEC.origin).parent / "lib" if _SPEC and _SPEC.origin else None
_MUSL = ("x86_64-linux-musl", "x86-linux-any", "generic-musl", "any-linux-any")  # the order zig cc gives them
_OPENCL_API = re.compile(r"\bcl(?:SetKernelArg|EnqueueNDRangeKernel|CreateKernel|BuildProgram|CreateBuffer)\s*\("
                         r"|#\s*include\s*[<\"](?:CL/(?:cl|opencl)\.h|OpenCL/opencl\.h|CL/(?:cl2?|opencl)\.hpp)[>\"]"
                         r"|\bcl_kernel\b|\bcl::(?:Kernel|CommandQueue)\b|\.enqueueNDRangeKernel\s*\(")
_CUDA = re.compile(r"<<\s*<|__global__|\bcuda[A-Z]\w*\s*\(|#\s*include\s*[<\"]cuda")
_C_SUFFIXES = {".c"}


def host_language(path: Path, text: str) -> str:
    """How a host file is parsed: ``"c"`` / ``"c++"`` for OpenCL host code (it calls the OpenCL API or includes
    ``CL/cl.h``, and nothing of CUDA), else ``"cuda"`` (a CUDA host side, or a file calling such wrappers)."""
    if not _OPENCL_API.search(text) or _CUDA.search(text):
        return "cuda"
    return "c" if path.suffix.lower() in _C_SUFFIXES else "c++"


def _base_args(language: str = "cuda") -> list[str]:
    common = ["-fsyntax-only", "-ferror-limit=0", "-w"]
    if language == "cuda":
        return ["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70",
                "-Wno-unknown-cuda-version", "-Wno-register", "-Wno-c++11-narrowing", *common, *shim_arguments(),
                "-isystem", str(OPENCL_HOST_INCLUDE),  # a helper of OpenCL host code including its headers
                "-idirafter", str(INCLUDE_DIR / "cuda_fallback")]  # as kernels compile: PyTorch's tensor API, …
    ocl = ["-isystem", str(OPENCL_HOST_INCLUDE), "-include", "stddef.h", "-include", "CL/cl.h"]  # as the SDK's
    if language == "c":
        libc: list[str] = []
        if _ZIG_LIB is not None:  # clang's builtin headers, then musl's C library (no system header needed)
            libc = ["-nostdinc", "-isystem", str(_ZIG_LIB / "include")]
            for d in _MUSL:
                libc += ["-isystem", str(_ZIG_LIB / "libc" / "include" / d)]
        return ["-x", "c", "-target", "x86_64-linux-musl", *common, *ocl, *libc]
    builtin = ["-idirafter", str(_ZIG_LIB / "include")] if _ZIG_LIB is not None else []  # stddef.h for the system's
    return ["-x", "c++", "-Wno-c++11-narrowing", *common, *ocl, *builtin]


def _pch(base: list[str], libraries: bool = False) -> Path | None:
    """The precompiled prelude for ``base`` flags (built on first use, kept per flags and shim content);
    ``libraries``: with CUDA's C++ libraries too (:data:`_LIBRARY_HEADERS`; ``base`` then allows its errors)."""
    headers = _PCH_HEADERS + (_LIBRARY_HEADERS if libraries else ())
    text = "".join(f"#if __has_include(<{h}>)\n#include <{h}>\n#endif\n" for h in headers)
    return precompiled("host", [a for a in base if a != "-fsyntax-only"], ["-c"], text)


def dump(path: Path, include_dirs: tuple[str, ...] = (), defines: tuple[str, ...] = (),
         after_dirs: tuple[str, ...] = (), language: str = "cuda", libraries: bool = False,
         keep: Callable[[str], bool] | None = None) -> Node | None:
    """The JSON AST clang dumps for one host file (``None`` when clang gives none); ``after_dirs``: the project's
    include folders discovered for it (searched after the shim and the system's, as for kernels); ``language``:
    :func:`host_language`'s; ``libraries``: the file or its project headers include thrust or cub
    (:data:`LIBRARY_INCLUDE`), whose declarations then come from a prelude too; ``keep``: the files whose
    declarations a dump past :data:`MAX_DUMP_BYTES` keeps (:mod:`simu.host.ast.dumpsplit`)."""
    base = _base_args(language)
    libraries = libraries and language == "cuda"
    if libraries:
        base = base + _WITH_ERRORS
    extra: list[str] = []
    for d in include_dirs:
        extra += ["-I", d]
    for d in after_dirs:
        extra += ["-idirafter", d]
    extra += [f"-D{d}" for d in defines]
    # launches written `k<< <g, b>> >(…)` (nvcc takes them) read closed up, as the front end reads them
    overlay, tmp = spaced_launch_overlay(path, (*include_dirs, *after_dirs)) if language == "cuda" else ([], None)
    try:
        tree, missing = _dump(base, extra + overlay, path, libraries, keep)
        if missing:  # a fatal error drops what follows it: parse again with the missing headers empty
            with tempfile.TemporaryDirectory(prefix="simu-stand-") as stand:
                try:
                    _, names = dependencies(path, clang_command() + base + extra + overlay, timeout=_TIMEOUT)
                except (OSError, subprocess.SubprocessError):
                    names = []
                args, _ = write_stand_ins(Path(stand) / "s", [n for n in names if not Path(n).is_absolute()])
                if args:
                    tree = _dump(base, extra + overlay + args, path, libraries, keep)[0] or tree
        return tree
    finally:
        if tmp is not None:
            tmp.cleanup()


def _dump(base: list[str], extra: list[str], path: Path, libraries: bool = False,
          keep: Callable[[str], bool] | None = None) -> tuple[Node | None, bool]:
    """The dump is written to a file and parsed from its bytes: a large C++ file's dump (tens of MB) read through
    a pipe and decoded to text costs more than clang itself; past :data:`MAX_DUMP_BYTES` only the declarations of
    the files ``keep`` accepts are parsed, and without it (or still too large) the file is left to the text reader.
    With it, whether clang said an included header was not found."""
    pch = _pch(base, libraries)
    attempts = ([["-Xclang", "-include-pch", "-Xclang", str(pch)]] if pch else []) + [[]]
    rebuilt = False
    with tempfile.TemporaryFile() as out:
        while attempts:
            pre = attempts.pop(0)
            argv = clang_command() + base + pre + extra + ["-Xclang", "-ast-dump=json", str(path)]
            out.seek(0)
            out.truncate()
            try:
                proc = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, timeout=_TIMEOUT)
            except (OSError, subprocess.SubprocessError):
                return None, False
            size = out.tell()
            if pre and pch is not None and b"precompiled" in proc.stderr:
                pch.unlink(missing_ok=True)  # damaged or stale (a dump past it may lack what it declares)
                fresh = None if rebuilt else _pch(base, libraries)
                rebuilt = True
                if fresh is not None:  # built again now: without it a library's file dumps past the limit
                    attempts.insert(0, ["-Xclang", "-include-pch", "-Xclang", str(fresh)])
                continue
            if size == 0:
                continue  # the prelude does not fit these flags: parse without it
            if size > MAX_DUMP_BYTES:
                if keep is None:
                    return None, False
                out.seek(0)
                return project_part(out.read(), keep), header_missing(proc.stderr)
            out.seek(0)
            try:
                return json.loads(out.read()), header_missing(proc.stderr)
            except ValueError:
                return None, False
    return None, False


def own_declarations(tu: Node, keep: set[str] | None = None) -> list[tuple[str, Node]]:
    """``(file, declaration)`` for each top-level declaration of ``tu`` made in a file of ``keep`` (absolute
    paths; every file when ``None``).  clang's JSON names a location's file only where it changes from the
    location printed before it, so the whole dump is followed in print order."""
    current = [""]
    out: list[tuple[str, Node]] = []

    def follow(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "file" and isinstance(v, str):
                    current[0] = v
                elif k != "includedFrom" and isinstance(v, (dict, list)):
                    follow(v)
        elif isinstance(node, list):
            for x in node:
                follow(x)

    for decl in tu.get("inner", ()):
        follow(decl.get("loc", {}))
        where = current[0]
        for k, v in decl.items():
            if k != "loc" and isinstance(v, (dict, list)):
                follow(v)
        if keep is None or where in keep:
            out.append((where, decl))
    return out
