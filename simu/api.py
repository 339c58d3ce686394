"""The library surface behind the commands: everything the CLI does is callable from here."""

from __future__ import annotations

from pathlib import Path

from simu.frontend import CompileOptions, compile_file, compile_source
from simu.ir import Module, load_module


def load_file(path: str | Path, options: CompileOptions = CompileOptions()) -> Module:
    """Compile (or read) a kernel file and decode its IR."""
    compiled = compile_file(path, options)
    return load_module(compiled.ir, str(path), compiled.language, compiled.param_names)


def load_source(source: str, language: str, options: CompileOptions = CompileOptions(),
                path: str = "<source>") -> Module:
    compiled = compile_source(source, language, options, path=path)
    return load_module(compiled.ir, path, compiled.language)


def run_opencl_source(source: str, kernel_name: str, launch, limits=None, path: str = "kernel.cl"):
    """Compile OpenCL source text and run one launch on the machine model (used by differential tests)."""
    from simu.interp import Limits, run

    module = _cached_module(source, "opencl", path)
    return run(module, module.kernel(kernel_name), launch, limits or Limits(max_seconds=60))


_MODULES: dict = {}


def _cached_module(source: str, language: str, path: str) -> Module:
    key = (source, language)
    if key not in _MODULES:
        _MODULES[key] = load_source(source, language, CompileOptions(), path=path)
    return _MODULES[key]
