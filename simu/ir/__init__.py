"""Parsing LLVM IR once and decoding it into plain, pre-resolved tables (no execution)."""

from simu.ir.debuginfo import Loc
from simu.ir.module import Block, Function, GlobalVar, Instr, Kernel, Module, Operand, Param, load_module

__all__ = ["Block", "Function", "GlobalVar", "Instr", "Kernel", "Loc", "Module", "Operand", "Param", "load_module"]
