"""Decoding LLVM IR (via llvmlite, once) into plain dataclasses the machine can execute.

Nothing here executes code: the output is a table of instructions per function with operands
resolved to register names, constants, globals or blocks, plus each instruction's source
location, the CFG in reverse post-order, kernel signatures and module globals.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable

from simu.errors import CompileError
from simu.frontend.kernel_names import kernel_names
from simu.ir.arguments import byval_arguments
from simu.ir.cfg import reverse_post_order
from simu.ir.constants import ConstantParser, GlobalRef, RefDifference, Undef
from simu.ir.debuginfo import DebugInfo, Loc
from simu.ir.irtext import FunctionLines, split_top
from simu.ir.pointers import PointerLayout, global_pointer_layout, param_pointer_layouts
from simu.ir.types import VOID, PtrType, TargetExtType, Type, TypeParser, alloc_size


@dataclass
class Operand:
    kind: str  # reg | const | global | block | func | meta | asm
    type: Type
    value: Any

    def __repr__(self) -> str:
        return f"{self.kind}:{self.value}"


@dataclass
class Instr:
    id: int
    opcode: str
    name: str | None
    type: Type
    ops: list[Operand]
    attrs: dict[str, Any]
    loc: Loc | None
    text: str


@dataclass
class Block:
    name: str
    instrs: list[Instr]
    succs: list[str]


class Function:
    """A function's signature, and its blocks decoded on first use (see :func:`load_module`)."""

    def __init__(self, name: str, args: list[tuple[str, Type]], blocks: list[Block] | None,
                 rpo: list[str] | None, is_kernel: bool, display_name: str, is_declaration: bool = False,
                 body: Callable[[], tuple[list[Block], list[str]]] | None = None):
        self.name = name
        self.args = args
        self.is_kernel = is_kernel
        self.display_name = display_name
        self.is_declaration = is_declaration
        self._blocks = blocks
        self._rpo = rpo
        self._body = body

    @property
    def decoded(self) -> bool:
        return self._blocks is not None

    def _decode(self) -> None:
        if self._blocks is None:
            assert self._body is not None
            self._blocks, self._rpo = self._body()
            self._body = None

    @property
    def blocks(self) -> list[Block]:
        self._decode()
        return self._blocks  # type: ignore[return-value]

    @property
    def rpo(self) -> list[str]:
        self._decode()
        return self._rpo  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"Function({self.name!r}, kernel={self.is_kernel}, decoded={self.decoded})"


def register_uses(fn: Function) -> dict[str, int]:
    """How many operands read each register of ``fn`` (phis included)."""
    uses: dict[str, int] = {}
    for b in fn.blocks:
        for ins in b.instrs:
            for o in ins.ops:
                if o.kind == "reg":
                    uses[o.value] = uses.get(o.value, 0) + 1
    return uses


@dataclass
class GlobalVar:
    name: str
    type: Type
    addrspace: int
    init: Any
    is_constant: bool
    display_name: str
    external: bool
    # the device pointers it holds (debug info): a launch gives each slot a buffer of its own, as the host's
    # cudaMemcpyToSymbol would (simu.launch.members)
    pointers: PointerLayout | None = None

    @property
    def size(self) -> int:
        return alloc_size(self.type)


@dataclass
class Param:
    index: int
    name: str
    type: Type
    c_type: str | None = None
    addrspace: int = 0
    pointee_size: int | None = None  # bytes of the element a pointer parameter points to (debug info)
    # (byte offset, bytes) of each float scalar inside that element, its struct fields too (debug info; None:
    # unknown): a struct buffer is drawn as bytes, and varying its integers must leave its floats alone
    pointee_floats: tuple[tuple[int, int], ...] | None = None
    # the device pointers its memory holds (a struct's pointer members, an array of pointers; debug info): the
    # launch gives each slot a buffer of its own (simu.launch.members)
    pointers: PointerLayout | None = None
    canonical_type: str | None = None  # c_type with typedefs written out (debug info): ``float*`` for ``real*``
    # a struct passed by value (``ptr byval(%struct.S)``): each thread works on its own copy of the launch's value
    byval: bool = False

    @property
    def is_pointer(self) -> bool:
        return isinstance(self.type, PtrType)

    @property
    def is_local(self) -> bool:
        return self.is_pointer and self.addrspace == 3

    @property
    def is_const(self) -> bool:
        return bool(self.c_type) and self.c_type.startswith("const ")  # type: ignore[union-attr]

    @property
    def pointee(self) -> str | None:
        """C type of the pointed-to element ("float"; behind typedefs where the debug information says), when
        known."""
        c_type = self.canonical_type if self.canonical_type and self.canonical_type.endswith(("*", "&")) \
            else self.c_type
        if not c_type or not c_type.endswith(("*", "&")):  # a reference parameter points to one object
            return None
        return c_type[:-1].replace("const ", "").replace("volatile ", "").replace("restrict", "").strip()


@dataclass
class Kernel:
    name: str
    display_name: str
    params: list[Param]
    function: Function
    file: str
    line: int
    language: str
    reqd_block: tuple[int, int, int] | None = None  # OpenCL reqd_work_group_size
    max_threads: int | None = None  # CUDA __launch_bounds__ maximum threads per block
    uses_dynamic_shared: bool = False

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass
class Module:
    path: str
    language: str
    triple: str
    kernels: list[Kernel]
    functions: dict[str, Function]
    globals: dict[str, GlobalVar]
    instrs: list[Instr] = field(default_factory=list)

    def kernel(self, name: str | None = None) -> Kernel:
        if name is None:
            if len(self.kernels) == 1:
                return self.kernels[0]
            names = ", ".join(k.display_name for k in self.kernels) or "none"
            raise KeyError(f"{self.path}: several kernels ({names}); choose one with --kernel")
        for k in self.kernels:
            if name in (k.name, k.display_name) or k.display_name.split("<")[0] == name:
                return k
        names = ", ".join(k.display_name for k in self.kernels) or "none"
        raise KeyError(f"{self.path}: no kernel named '{name}' (kernels: {names})")


_NAMED_TYPE = re.compile(r'^(%(?:"[^"]+"|[\w.$-]+)) = type (.*)$', re.M)
_DBG = re.compile(r"!dbg !(\d+)")


def load_module(ir: str, path: str = "<ir>", language: str = "llvm",
                param_names: dict[str, list[tuple[str, str | None]]] | None = None) -> Module:
    """Parse IR text with llvmlite and decode it into a :class:`Module`.

    ``param_names`` supplies kernel parameter names when the IR's debug info lost them."""
    import llvmlite.binding as llvm

    context = llvm.create_context()
    try:
        mod = llvm.parse_assembly(ir, context=context)
    except RuntimeError as exc:
        context.close()
        raise CompileError(path, f"{path}: invalid LLVM IR: {exc}") from None
    types = TypeParser({m.group(1): m.group(2) for m in _NAMED_TYPE.finditer(ir)})
    consts = ConstantParser(types)
    dbg = DebugInfo(ir)
    triple = mod.triple
    decoder = _Decoder(types, consts, dbg, FunctionLines(ir))
    _own_llvm(decoder, mod, context)
    decoder.headers = {m.group(1).strip('"'): m.group(0) for m in _HEADER.finditer(ir)}
    decoder.kernel_names = kernel_names(ir)
    decoder.attr_groups = {m.group(1): m.group(2) for m in re.finditer(r"^attributes #(\d+) = \{(.*)\}$", ir, re.M)}
    decoder.md_tuples = {m.group(1): m.group(2) for m in re.finditer(r"^!(\d+) = !\{(.*)\}$", ir, re.M)}
    # module text (not str(value)) so that type names and metadata numbers are the module's own
    decoder.global_lines = {m.group(1).strip('"'): m.group(0)
                            for m in re.finditer(r'^@("[^"]+"|[\w.$-]+) = .*$', ir, re.M)}
    globals_ = {}
    for g in mod.global_variables:
        try:
            gv = decoder.global_var(g)
        except (ValueError, AssertionError, IndexError):
            continue  # not decoded: a kernel that uses it is unsupported ("address of unknown global")
        if gv is not None:
            globals_[gv.name] = gv
    functions: dict[str, Function] = {}
    kernels: list[Kernel] = []
    for f in mod.functions:
        fn, header = decoder.function(f)
        functions[fn.name] = fn
        if fn.is_kernel:
            k = decoder.kernel(fn, header, language)
            extra = (param_names or {}).get(fn.name, [])
            for p in k.params:
                if p.index < len(extra):
                    name, ctype = extra[p.index]
                    if p.name == f"arg{p.index}" and name:
                        p.name = name
                    if p.c_type is None:
                        p.c_type = ctype
            kernels.append(k)
    return Module(path, language, triple, kernels, functions, globals_, decoder.instrs)


_LIVE: dict[int, tuple[Any, Any]] = {}  # llvmlite module and context of each live decoder


def _own_llvm(decoder: _Decoder, mod: Any, context: Any) -> None:
    """Keep the parsed module alive while function bodies may still be decoded from it.

    The pair is held here, not by the decoder, so that the garbage collector never finalises the
    context before its module (they would be finalised in any order inside a reference cycle): the
    decoder's finaliser disposes of the module first, then its context."""
    key = id(decoder)
    _LIVE[key] = (mod, context)
    weakref.finalize(decoder, _release_llvm, key).atexit = False


def _release_llvm(key: int) -> None:
    mod, context = _LIVE.pop(key, (None, None))
    if mod is not None:
        mod.close()
        context.close()


class _Decoder:
    def __init__(self, types: TypeParser, consts: ConstantParser, dbg: DebugInfo, lines: FunctionLines):
        self.lines = lines
        self.types = types
        self.consts = consts
        self.dbg = dbg
        self.instrs: list[Instr] = []
        # the function being decoded: its arguments' and decoded instructions' types by name, so that an operand
        # naming one needs no type text from LLVM (the most frequent query of a large kernel's decoding)
        self.reg_types: dict[str, Type] = {}
        self.scalar_consts: dict[str, tuple[Type, Any]] = {}  # constant text -> its type and immutable value

    # -- globals -----------------------------------------------------------------------
    def global_var(self, g) -> GlobalVar | None:
        text = self.global_lines.get(g.name) or str(g).strip()
        m = re.match(r"@(\"[^\"]+\"|[\w.$-]+) = (.*)$", text)
        if not m:
            return None
        name = m.group(1).strip('"')
        rest = m.group(2)
        space = 0
        sm = re.search(r"addrspace\((\d+)\)", rest.split(" global ")[0].split(" constant ")[0])
        if sm:
            space = int(sm.group(1))
        km = re.search(r"\b(global|constant) ", rest)
        if not km:
            return None
        body = rest[km.end():]
        vtype, after = self.types.parse_prefix(body)
        external = rest.startswith("external") or rest.startswith("extern_weak") or not after.strip() \
            or after.lstrip().startswith(",")
        init = None
        if not external:
            init, _ = self.consts.parse_value(vtype, after)
        dm = re.search(r"!dbg !(\d+)", text)
        display = self.dbg.global_var_name(f"!{dm.group(1)}") if dm else None
        slots = global_pointer_layout(self.dbg, self.dbg.global_var_type(f"!{dm.group(1)}")) \
            if dm and space != 3 and not external else None
        return GlobalVar(name, vtype, space, init, km.group(1) == "constant", display or _plain_name(name), external,
                         slots)

    # -- functions ---------------------------------------------------------------------
    def function(self, f) -> tuple[Function, str]:
        """The function's signature now; its body is decoded when first used."""
        header = self.headers.get(f.name, "")
        is_kernel = f.name in self.kernel_names
        args = [(a.name, self._arg_type(str(a.type))) for a in f.arguments]
        spm = re.search(r"!dbg (!\d+)", header)
        sp = self.dbg.subprogram(spm.group(1)) if spm else {}
        display = sp.get("name", "").strip('"') if sp else ""
        if f.is_declaration:
            return Function(f.name, args, [], [], False, display or f.name, True), header
        return Function(f.name, args, None, None, is_kernel, display or f.name, body=lambda: self.body(f)), header

    def body(self, f) -> tuple[list[Block], list[str]]:
        """Blocks and reverse post-order of a defined function."""
        blocks = []
        lines = iter(self.lines.of(f.name))
        self.reg_types = {}
        for b in f.blocks:
            instrs = [self.decode(i, next(lines, None)) for i in b.instructions]
            term = instrs[-1]
            succs = [op.value for op in term.ops if op.kind == "block"]
            if term.opcode == "switch":
                succs = [term.ops[1].value] + [d for _, d in term.attrs["cases"]]
            if term.opcode == "br" and len(term.ops) == 3:
                succs = [term.ops[2].value, term.ops[1].value]  # true, false
            blocks.append(Block(b.name, instrs, list(dict.fromkeys(succs))))
        return blocks, reverse_post_order(blocks)

    def _arg_type(self, text: str) -> Type:
        """A parameter's type; one this decoder cannot read is kept as an opaque handle (named by its
        text), so that the function loads and only what uses it is unsupported."""
        try:
            return self.types.parse(text)
        except ValueError:
            return TargetExtType(name=text)

    def kernel(self, fn: Function, header: str, language: str) -> Kernel:
        spm = re.search(r"!dbg (!\d+)", header)
        sp_ref = spm.group(1) if spm else None
        names = self.dbg.param_names(sp_ref)
        ctypes = self.dbg.param_type_names(sp_ref)
        canonical = self.dbg.param_canonical_types(sp_ref)
        sizes = self.dbg.param_pointee_sizes(sp_ref)
        floats = self.dbg.param_pointee_floats(sp_ref)
        slots = param_pointer_layouts(self.dbg, sp_ref)
        sp = self.dbg.subprogram(sp_ref)
        file = self.dbg.file_of(sp.get("file")) if sp else "?"
        line = int(sp.get("line", 0)) if sp else 0
        params = []
        byval = byval_arguments(header)
        for i, (_aname, atype) in enumerate(fn.args):
            space = atype.addrspace if isinstance(atype, PtrType) else 0
            ctype = ctypes[i] if i < len(ctypes) else None
            if isinstance(atype, TargetExtType) and ctype:
                ctype = _opencl_handle_name(ctype)
            size = sizes[i] if i < len(sizes) else None
            fl = floats[i] if i < len(floats) else None
            held = slots[i] if i < len(slots) and isinstance(atype, PtrType) else None
            if held is not None and held.by_value:  # the pointer the IR passes points to the struct itself
                size, fl = held.stride, held.floats
            params.append(Param(i, names.get(i) or f"arg{i}", atype, ctype, space, size, fl, held,
                                canonical[i] if i < len(canonical) and canonical[i] != ctype else None,
                                byval=i in byval))
        lang = language
        if lang == "llvm":
            lang = "opencl" if self.kernel_names.get(fn.name) == "opencl" else "cuda"
        reqd = None
        rm = re.search(r"!reqd_work_group_size !(\d+)", header)
        if rm and rm.group(1) in self.md_tuples:
            vals = [int(x) for x in re.findall(r"i32 (\d+)", self.md_tuples[rm.group(1)])]
            if len(vals) == 3:
                reqd = tuple(vals)
        max_threads = None
        for g in re.findall(r"#(\d+)", header.split(")")[-1]):
            mm = re.search(r'"nvvm.maxntid"="(\d+)', self.attr_groups.get(g, ""))
            if mm:
                max_threads = int(mm.group(1))
        return Kernel(fn.name, fn.display_name, params, fn, file, line, lang, reqd, max_threads)

    # -- instructions ------------------------------------------------------------------
    def operand(self, o) -> Operand:
        kind = _value_kind(o)
        if kind in ("argument", "instruction"):
            name = o.name
            t = self.reg_types.get(name) if name else None
            if t is None:  # an argument, or a phi's value from a block decoded later
                t = self.types.parse(str(o.type))
                if name:
                    self.reg_types[name] = t
            return Operand("reg", t, name)
        text = str(o) if kind not in _NAMED_KINDS else ""
        known = self.scalar_consts.get(text) if text else None
        if known is not None:  # a constant's text starts with its type
            return Operand("const", *known)
        t = self.types.parse(str(o.type))
        if kind == "constant_target_none":  # target("spirv.Event") zeroinitializer: a null handle
            return Operand("const", t, 0)
        if kind == "basic_block":
            return Operand("block", t, o.name)
        if kind == "function":
            return Operand("func", t, o.name)
        if kind == "global_variable" or kind == "global_alias":
            return Operand("const", t, GlobalRef(o.name))
        if kind == "metadata_as_value":
            return Operand("meta", t, None)
        if kind == "inline_asm":
            return Operand("asm", t, str(o))
        try:
            _, v = self.consts.parse_typed(text)
        except (ValueError, AssertionError, IndexError) as exc:
            # the instruction becomes undecodable (see decode): only its kernel is affected
            raise ValueError(f"cannot decode {kind} operand `{text.strip()[:80]}`: {exc}") from None
        if isinstance(v, (int, float, GlobalRef, RefDifference, Undef)):  # immutable: shared by every use
            self.scalar_consts[text] = (t, v)
        return Operand("const", t, v)

    def decode(self, i, text: str | None) -> Instr:
        """An instruction; one this decoder cannot read becomes opcode ``undecodable`` (with its
        location and the reason in ``attrs``), which the machine reports as unsupported when the
        kernel that contains it is compiled, so that the module's other kernels still load."""
        try:
            return self.instruction(i, text)
        except (ValueError, AssertionError, IndexError, KeyError, StopIteration) as exc:
            text = text if text is not None else str(i).strip()
            m = _DBG.search(text)
            loc = self.dbg.location(int(m.group(1))) if m else None
            try:
                rtype = self.types.parse(str(i.type))
            except ValueError:
                rtype = VOID
            ins = Instr(len(self.instrs), "undecodable", i.name or None, rtype, [], {"error": str(exc)}, loc, text)
            self.instrs.append(ins)
            return ins

    def instruction(self, i, text: str | None) -> Instr:
        # The module's own text numbers metadata consistently; str(i) alone does not.
        text = text if text is not None else str(i).strip()
        opcode = i.opcode
        ops = [self.operand(o) for o in i.operands]
        type_text = str(i.type)
        rtype = self.types.parse(type_text) if type_text != "void" else VOID
        m = _DBG.search(text)
        loc = self.dbg.location(int(m.group(1))) if m else None
        attrs: dict[str, Any] = {}
        body = text.split(" = ", 1)[1] if text.startswith("%") and " = " in text else text
        words = body.split()
        if opcode in ("icmp", "fcmp"):
            attrs["pred"] = next(w for w in words[1:] if w not in ("samesign", "fast", "nnan", "ninf", "nsz",
                                                                      "arcp", "contract", "afn", "reassoc"))
        elif opcode == "getelementptr":
            rest = body[len("getelementptr"):]
            rest = re.sub(r"^\s*(?:(inbounds|nuw|nusw|inrange\([^)]*\))\s+)*", "", rest)
            attrs["src"], _ = self.types.parse_prefix(rest)
        elif opcode == "alloca":
            attrs["alloc_type"], _ = self.types.parse_prefix(body[len("alloca"):])
        elif opcode == "atomicrmw":
            rest = [w for w in words[1:] if w != "volatile"]
            attrs["op"] = rest[0]
        elif opcode in ("load", "store"):
            attrs["volatile"] = " volatile " in f" {body} "
            attrs["atomic"] = " atomic " in f" {body} "
        elif opcode == "call":
            callee = ops[-1]
            attrs["callee"] = callee.value if callee.kind == "func" else None
            if callee.kind == "asm":
                attrs["asm"] = callee.value
        elif opcode in ("extractvalue", "insertvalue"):
            tail = body.split("!dbg")[0].rstrip().rstrip(",")
            nops = len(ops)
            parts = [p.strip() for p in split_top(tail)]
            attrs["indices"] = [int(p) for p in parts[nops:] if re.fullmatch(r"\d+", p)]
        elif opcode == "shufflevector":
            tail = body.split(", !dbg")[0]
            parts = split_top(tail[len("shufflevector"):])
            mask_text = parts[2].strip()
            mt, mv = self.consts.parse_typed(mask_text)
            attrs["mask"] = [(-1 if not isinstance(x, int) else x)
                             for x in (mv if isinstance(mv, list) else [mv] * mt.count)]
        elif opcode == "switch":
            table = text[text.index("[") + 1:text.rindex("]")]
            attrs["cases"] = [(int(v) if v not in ("true", "false") else int(v == "true"), dest.strip('"'))
                              for v, dest in re.findall(r"i\d+ (-?\d+|true|false), label %(\"[^\"]+\"|[\w.$-]+)",
                                                        table)]
        elif opcode == "phi":
            attrs["incoming"] = [b.name for b in i.incoming_blocks]
        name = i.name or None
        if name:
            self.reg_types[name] = rtype
        ins = Instr(len(self.instrs), opcode, name, rtype, ops, attrs, loc, text)
        self.instrs.append(ins)
        return ins


# operand kinds decoded from their name and type, not from their text
_NAMED_KINDS = frozenset({"basic_block", "function", "global_variable", "global_alias", "metadata_as_value",
                          "inline_asm", "constant_target_none"})

# LLVM C API value kinds newer than llvmlite's ValueKind enum (llvm-c/Core.h, LLVMValueKind)
_NEWER_VALUE_KINDS = {26: "constant_target_none", 27: "constant_ptr_auth"}


def _value_kind(o) -> str:
    """llvmlite's value kind name; kinds its enum lacks (``26 is not a valid ValueKind``) by number."""
    try:
        return o.value_kind.name
    except ValueError:
        from llvmlite.binding import ffi

        raw = ffi.lib.LLVMPY_GetValueKind(o)
        return _NEWER_VALUE_KINDS.get(raw, f"value kind {raw}")


_HEADER = re.compile(r"^(?:define|declare) [^@]*@(\"[^\"]+\"|[\w.$-]+)\(.*$", re.M)


_ACCESS = {"ro": "read_only", "wo": "write_only", "rw": "read_write"}


def _opencl_handle_name(ctype: str) -> str:
    """Debug info names an image parameter `opencl_image2d_ro_t*`: spell it `read_only image2d_t`."""
    m = re.fullmatch(r"(?:const\s+)?opencl_(\w+?)_(ro|wo|rw)_t\s*\*?", ctype.strip())
    if m:
        return f"{_ACCESS[m.group(2)]} {m.group(1)}_t"
    m = re.fullmatch(r"(?:const\s+)?opencl_(\w+?)_t\s*\*?", ctype.strip())
    return f"{m.group(1)}_t" if m else ctype


def _plain_name(mangled: str) -> str:
    """`_ZZ6kernelPfE4tile` -> `tile`; other names unchanged."""
    m = re.match(r"_ZZ.*E(\d+)(\w+)$", mangled)
    if m:
        n = int(m.group(1))
        return m.group(2)[:n]
    return mangled

