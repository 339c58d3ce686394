"""Turning kernel sources into LLVM IR with the clang bundled in the ziglang wheel."""

from simu.frontend.compile import CompiledModule, CompileOptions, compile_file, compile_source, language_of

__all__ = ["CompileOptions", "CompiledModule", "compile_file", "compile_source", "language_of"]
