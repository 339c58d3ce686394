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


def run_opencl_source(source: str, kernel_name: str, launch, limits=None, path: str = "kernel.cl",
                      opt_level: int = 0):
    """Compile OpenCL source text (at ``-O<opt_level>``) and run one launch on the machine model (used by
    differential tests and the fidelity bench)."""
    from simu.interp import Limits, run

    module = _cached_module(source, "opencl", path, opt_level)
    return run(module, module.kernel(kernel_name), launch, limits or Limits(max_seconds=60))


_MODULES: dict = {}


def opencl_module(source: str, path: str = "kernel.cl", opt_level: int = 0) -> Module:
    """The module :func:`run_opencl_source` runs ``source`` from (compiled once per text and level)."""
    return _cached_module(source, "opencl", path, opt_level)


def _cached_module(source: str, language: str, path: str, opt_level: int = 0) -> Module:
    key = (source, language, opt_level)
    if key not in _MODULES:
        _MODULES[key] = load_source(source, language, CompileOptions(opt_level=opt_level), path=path)
    return _MODULES[key]
