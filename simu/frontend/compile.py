"""Compile .cu / .cl / .ll files to LLVM IR text (device side only, with line tables).

Two modes:

* *source-faithful* (``opt_level=0``, the default): clang ``-O0 -Xclang -disable-O0-optnone``,
  then only the always-inliner, SROA and the instruction namer run through llvmlite.  Every
  shared/global access of the source stays, in source order; locals become SSA registers.
* *as-compiled* (``opt_level`` 1..3): clang's own optimisation pipeline, then the inliner and
  namer so that the machine never needs call frames.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path

from simu.errors import CompileError
from simu.frontend.choices import DEFAULT_ARCH
from simu.frontend.cuda_headers import cub_block_requirements, cuda_header_arguments, drop_library_kernels
from simu.frontend.headers import (
    ast_of,
    choose_instantiations,
    explicit_types,
    header_language,
    is_header,
    kernel_namespace,
    namespace_ast,
    template_kernel_names,
    uninstantiated_names,
    uninstantiated_template_kernels,
    wrapper_source,
)
from simu.frontend.kernel_names import kernel_names
from simu.frontend.overlay import cuda_rewrites, spaced_launch_overlay
from simu.frontend.toolchain import INCLUDE_DIR, clang_command

CUDA_EXTENSIONS = {".cu", ".cuh", ".hip"}  # .hip: HIP source, on the CUDA model (include/cuda/hip)
OPENCL_EXTENSIONS = {".cl"}
IR_EXTENSIONS = {".ll"}
_MAX_CHOICES = 4  # #error chains chosen per file
# clang's own headers (immintrin.h, x86intrin.h, ...) ship in the ziglang wheel but are not on the
# bundled clang's search path; host code includes them, so they come last, after the system's.
_SPEC = importlib.util.find_spec("ziglang")
_CLANG_HEADERS = Path(_SPEC.origin).parent / "lib" / "include" if _SPEC and _SPEC.origin else None


@dataclass(frozen=True)
class CompileOptions:
    """Compiler options shared by every command that compiles sources."""

    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    clang_args: tuple[str, ...] = ()
    opt_level: int = 0
    fp_contract: str | None = None  # None = clang's default for the language
    after_dirs: tuple[str, ...] = ()  # discovered include folders: -idirafter, after the shim and the system
    cuda_path: str | None = None  # a CUDA toolkit root: compile against its headers (cuda_headers.py)
    cuda_path_detected: bool = False  # found through CUDA_PATH / nvcc, not asked for: the shim if it fails
    assumed: tuple[str, ...] = ()  # defines among ``defines`` whose value simu chose (the host computes it)
    assumed_why: str = ""  # why they are assumed, for the findings (simu.scan.assume.mark_findings)
    # the function template instantiation whose host build these options are (``RunTest<float>``): the
    # launches of its kernels are that instantiation's (simu.host.contracts)
    instance: str = ""
    arch: int = DEFAULT_ARCH  # the GPU architecture CUDA compiles for (70: sm_70, __CUDA_ARCH__ = 700)

    @property
    def mode(self) -> str:
        return "source-faithful" if self.opt_level == 0 else f"as-compiled -O{self.opt_level}"

    def key(self) -> str:
        """A stable text form, used in cache keys."""
        return repr((self.include_dirs, self.defines, self.clang_args, self.opt_level, self.fp_contract,
                     self.after_dirs, self.cuda_path, self.cuda_path_detected) +
                    ((self.arch,) if self.arch != DEFAULT_ARCH else ()))


@dataclass
class CompiledModule:
    """LLVM IR text for one source file, ready for :mod:`simu.ir`."""

    path: str
    language: str  # "cuda" | "opencl" | "llvm"
    ir: str
    options: CompileOptions = field(default_factory=CompileOptions)
    warnings: str = ""
    notes: list[str] = field(default_factory=list)  # what simu chose to make the file compile
    # kernel -> [(parameter name, C type)], from a -O0 compile when optimisation dropped them
    param_names: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)
    deps: tuple[str, ...] = ()  # the files clang read (its -MD list): what a cached compile is checked against

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.ir.encode()).hexdigest()


def language_of(path: str | Path) -> str:
    """The language a file compiles as; a header (``.cuh/.hpp/.h/...``) is CUDA unless it looks like OpenCL C."""
    suffix = Path(path).suffix.lower()
    if suffix in {".cu", ".hip"}:
        return "cuda"
    if suffix in OPENCL_EXTENSIONS:
        return "opencl"
    if suffix in IR_EXTENSIONS:
        return "llvm"
    if is_header(path):
        try:
            return header_language(Path(path).read_text(errors="replace"))
        except OSError:
            return "cuda"
    raise CompileError(str(path), f"{path}: unknown kernel source type '{suffix}' (expected .cu, .cl, .ll or a "
                                  f"header such as .cuh/.hpp/.h)")


def clang_arguments(language: str, options: CompileOptions) -> list[str]:
    """The clang argv (after the clang command itself) for one language."""
    args: list[str] = []
    if language == "cuda":
        args += [
            "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
            f"--cuda-gpu-arch=sm_{options.arch}", "-Wno-unknown-cuda-version",
            # `register` is only a warning for nvcc and g++ in C++17; clang makes it an error by default
            "-Wno-register",
            # `int a[] = {0.0}`: nvcc's front end warns about narrowing in braced initialisers, clang errs
            "-Wno-c++11-narrowing",
        ] + cuda_header_arguments(options.cuda_path)
        if _CLANG_HEADERS is not None and _CLANG_HEADERS.is_dir():
            args += ["-idirafter", str(_CLANG_HEADERS)]
    elif language == "opencl":
        args += [
            "-x", "cl", "-cl-std=CL1.2", "-cl-no-stdinc", "-target", "spir64",
            "-Xclang", "-fdeclare-opencl-builtins",
            # a non-static C99 `inline` helper is only an inline definition (no body emitted); GNU89
            # semantics emit it, as OpenCL drivers do, so it is inlined into its kernels
            "-fgnu89-inline",
            # vendor OpenCL compilers warn about `float *p = (float4 *)q`-style conversions; clang errs
            "-Wno-error=incompatible-pointer-types",
            "-isystem", str(INCLUDE_DIR / "opencl"),
            "-include", "simu_opencl.h",
        ]
    else:
        raise ValueError(language)
    # -fstandalone-debug: a struct parameter's full type even when its constructor is emitted elsewhere (a by-value
    # class would be a member-less forward declaration, and its pointer members no member buffers)
    args += ["-g", "-fstandalone-debug", "-S", "-emit-llvm", "-Wno-unused-command-line-argument"]
    if options.opt_level == 0:
        args += ["-O0", "-Xclang", "-disable-O0-optnone"]
    else:
        args += [f"-O{options.opt_level}"]
    if options.fp_contract:
        args.append(f"-ffp-contract={options.fp_contract}")
    for inc in options.include_dirs:
        args += ["-I", str(inc)]
    for inc in options.after_dirs:
        args += ["-idirafter", str(inc)]
    if language == "cuda":  # simu's helper_cuda.h / helper_math.h: only when the project has none
        args += ["-idirafter", str(INCLUDE_DIR / "cuda_fallback")]
    for d in options.defines:
        args.append(f"-D{d}")
    args += list(options.clang_args)
    return args


def compile_source(source: str, language: str, options: CompileOptions = CompileOptions(),
                   path: str = "<source>") -> CompiledModule:
    """Compile source text; ``path`` names it in diagnostics and debug info."""
    if language == "llvm":
        return CompiledModule(path, language, postprocess(source, options, path), options)
    import tempfile

    suffix = ".cu" if language == "cuda" else ".cl"
    name = Path(path).name if path != "<source>" else "source" + suffix
    if language == "cuda":  # what the overlay does for a file (:mod:`simu.frontend.overlay`)
        source = cuda_rewrites(source) or source
    with tempfile.TemporaryDirectory(prefix="simu-") as tmp:
        src = Path(tmp) / name
        src.write_text(source)
        argv = clang_command() + clang_arguments(language, options) + ["-o", "-", str(src)]
        return _run_clang(argv, path, language, options)


def compile_file(path: str | Path, options: CompileOptions = CompileOptions()) -> CompiledModule:
    """Compile one file to IR in the selected mode; raises :class:`CompileError`."""
    path = Path(path)
    language = language_of(path)
    if not path.is_file():
        raise CompileError(str(path), f"{path}: no such file")
    if language == "llvm":
        return CompiledModule(str(path), language, postprocess(path.read_text(), options, str(path)), options)
    options = _with_header_defines(path, options)
    guards = _guards(path, options) if path.suffix.lower() in CUDA_EXTENSIONS else []
    gated = _defining(options, [g.macro for g in guards])
    sliced = False  # compiled from a device-only slice, template kernels instantiated there
    try:
        try:
            module, options = _compile_choosing(path, language, gated)
        except CompileError as guarded:
            if not guards:
                raise
            # compiled as if the gate had stayed off, when that works; else the GPU build's error stands
            try:
                module, options = _compile_choosing(path, language, options)
            except CompileError:
                raise guarded from None
            guards = []
    except CompileError as exc:
        if language == "cuda" and options.cuda_path and options.cuda_path_detected:
            return _with_shim(path, options, exc)
        if language != "cuda":
            raise
        module, options, sliced = _from_device_slice(path, gated, exc), gated, True
    if guards:
        from simu.frontend.guards import describe

        module.notes.insert(0, describe(guards))
    return module if sliced else _instantiated(path, language, options, module)


def _with_header_defines(path: Path, options: CompileOptions) -> CompileOptions:
    """``options`` with the ``-D`` of the file's GPUVerify option line (:mod:`simu.frontend.headeropts`) that the
    build does not define already."""
    from simu.frontend.headeropts import header_defines

    given = {d.split("=", 1)[0] for d in options.defines}
    extra = tuple(d for d in header_defines(path) if d.split("=", 1)[0] not in given)
    return replace(options, defines=options.defines + extra) if extra else options


def _instantiated(path: Path, language: str, options: CompileOptions, module: CompiledModule,
                  extra: tuple[str, ...] = ()) -> CompiledModule:
    """``module``, or the file compiled again with its template kernels that nothing instantiates
    instantiated (``extra``: more clang arguments, a device-only slice's); notes kept."""
    if language == "cuda" and uninstantiated_names(path.read_text(errors="replace"), module.ir):
        unit, tmp = _instantiation_unit(path, options, extra)
        if tmp is not None:
            try:
                notes = module.notes
                module = _compile_unit(unit, path, language, options, extra)
                module.notes = notes
            finally:
                tmp.cleanup()
    return module


def _from_device_slice(path: Path, options: CompileOptions, exc: CompileError) -> CompiledModule:
    """A CUDA file whose host side does not compile, compiled from its device-only slice
    (:mod:`simu.frontend.device_slice`), template kernels instantiated; raises ``exc`` when there is none."""
    from simu.frontend.device_slice import device_slice

    overlay, tmp = spaced_launch_overlay(path, (*options.include_dirs, *options.after_dirs))
    base = clang_command() + clang_arguments("cuda", replace(options, opt_level=0)) + overlay
    try:
        sliced = device_slice(path, base, (options.cuda_path,) if options.cuda_path else ())
    finally:
        if tmp is not None:
            tmp.cleanup()
    if sliced is None:
        raise exc
    extra = tuple(sliced.args)
    try:
        module = _instantiated(path, "cuda", options, _compile_unit(path, path, "cuda", options, extra), extra)
    except CompileError:
        raise exc from None
    finally:
        sliced.cleanup()
    module.notes.append(sliced.note())
    return module


def _with_shim(path: Path, options: CompileOptions, exc: CompileError) -> CompiledModule:
    """A file the detected toolkit's headers do not compile, compiled against simu's own headers."""
    module = compile_file(path, replace(options, cuda_path=None, cuda_path_detected=False))
    first = next((ln for ln in exc.diagnostics.splitlines() if "error:" in ln), "").strip()
    module.notes.append(f"compiled with simu's CUDA headers: the headers of the CUDA toolkit found at "
                        f"{options.cuda_path} (CUDA_PATH / nvcc) do not compile it" + (f" ({first})" if first else ""))
    return module


def _guards(path: Path, options: CompileOptions) -> list:
    """The macros that gate the CUDA headers of a .cu/.cuh file (:mod:`simu.frontend.guards`), unless the
    options name them."""
    from simu.frontend.guards import cuda_guards, option_macros

    search = [Path(d) for d in (*options.include_dirs, *options.after_dirs)]
    return cuda_guards(path, search, option_macros(options.defines, options.clang_args))


def _defining(options: CompileOptions, macros: list[str] | tuple[str, ...]) -> CompileOptions:
    return replace(options, defines=(*options.defines, *macros)) if macros else options


def _compile_choosing(path: Path, language: str, options: CompileOptions) -> tuple[CompiledModule, CompileOptions]:
    """Compile, and while the file stops at the ``#error`` of an unchosen ``#if defined(X)`` chain (in the
    file or a header: :mod:`simu.frontend.choices`), again with the chain's first choice defined."""
    from simu.frontend.choices import arch_choice, chain_choice, definition_choice, error_location
    from simu.frontend.guards import option_macros

    notes: list[str] = []
    for _ in range(_MAX_CHOICES + 1):
        try:
            module = _compile_unit(path, path, language, options)
        except CompileError as exc:
            at = error_location(exc.diagnostics)
            try:
                text = Path(at[0]).read_text(errors="replace") if at else ""
            except OSError:
                text = ""
            chosen = chain_choice(text, at[1]) if at else ()
            header = ""
            arch = arch_choice(exc.diagnostics, options.arch) if language == "cuda" else None
            if not chosen and arch is not None and len(notes) < _MAX_CHOICES:
                options = replace(options, arch=arch)
                notes.append(f"compiled for sm_{arch}: a static assertion of {at[0] if at else path} requires "
                             f"__CUDA_ARCH__ >= {arch * 10} (simu compiles for sm_{DEFAULT_ARCH} otherwise)")
                continue
            if not chosen:  # a type a header defines only under #ifdef choices: ``#ifdef CL_DTYPE_float``
                folders = tuple(Path(d) for d in (*options.include_dirs, *options.after_dirs))
                chosen, header = definition_choice(exc.diagnostics, folders)
            if not chosen or len(notes) >= _MAX_CHOICES or \
                    set(chosen) & option_macros(options.defines, options.clang_args):
                raise
            options = _defining(options, chosen)
            where = "" if Path(at[0]) == path else f" of {at[0]}"
            notes.append(f"no build option chose a configuration: defined {', '.join(chosen)}, the first choice "
                         + (f"under which {header} defines what line {at[1]}{where} uses" if header else
                            f"of the #if chain whose #else is the #error on line {at[1]}{where}"))
            continue
        module.notes += notes
        return module, options
    raise AssertionError("unreachable")


def _compile_unit(unit: Path, path: Path, language: str, options: CompileOptions,
                  extra: tuple[str, ...] = ()) -> CompiledModule:
    """Compile ``unit`` (``path`` itself, or a translation unit made for it) under ``path``'s name
    (``extra``: more clang arguments, a device-only slice's)."""
    overlay, tmp = spaced_launch_overlay(path, (*options.include_dirs, *options.after_dirs), language)
    overlay = [*overlay, *extra]
    try:
        argv = clang_command() + clang_arguments(language, options) + overlay + ["-o", "-", str(unit)]
        prelude = _prelude(language, options) if not overlay else []
        try:
            module = _run_clang(argv + prelude, str(path), language, options)
        except CompileError as exc:
            if not prelude or "precompiled" not in exc.diagnostics and ".pch" not in exc.diagnostics:
                raise
            Path(prelude[-1]).unlink(missing_ok=True)  # one clang would not read: the next compile builds it again
            module = _run_clang(argv, str(path), language, options)
        if options.opt_level > 0 and language == "cuda":
            # NVPTX keeps only line tables when optimising; take parameter names from -O0.
            argv0 = clang_command() + clang_arguments(language, replace(options, opt_level=0)) + overlay + \
                ["-o", "-", str(unit)]
            proc = subprocess.run(argv0, capture_output=True, text=True)
            if proc.returncode == 0:
                module.param_names = kernel_param_names(proc.stdout)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return module


def _prelude(language: str, options: CompileOptions) -> list[str]:
    """The clang arguments that read the precompiled shim (:mod:`simu.frontend.prelude`) for a CUDA device compile
    where it cannot change what the file sees; none for OpenCL (its prelude costs clang little), a real toolkit's
    headers or a file with clang arguments of its own."""
    if language != "cuda" or options.cuda_path or options.clang_args:
        return []
    from simu.frontend.prelude import device_prelude

    shared = replace(options, include_dirs=(), after_dirs=(), defines=(), clang_args=())
    pch = device_prelude(clang_arguments(language, shared), tuple(options.defines),
                         tuple(str(d) for d in (*options.include_dirs, *options.after_dirs)))
    return ["-Xclang", "-include-pch", "-Xclang", str(pch)] if pch is not None else []


def _instantiation_unit(path: Path, options: CompileOptions, extra: tuple[str, ...] = ()):
    """``(unit, temporary folder)``: an extra translation unit that includes a CUDA file (a header, or a
    ``.cu`` file whose includer is not scanned) and instantiates its template kernels that nothing
    instantiates (:mod:`simu.frontend.headers`); ``(path, None)`` when there is nothing to instantiate."""
    import tempfile

    text = path.read_text(errors="replace")
    base = clang_command() + clang_arguments("cuda", replace(options, opt_level=0)) + [*extra, "-fsyntax-only"]
    names = template_kernel_names(text)
    templates = None
    for namespace in dict.fromkeys((kernel_namespace(text), None)):  # the kernels' namespace alone, then all
        dump = ["-Xclang", "-ast-dump=json"] + (["-Xclang", f"-ast-dump-filter={namespace}::"] if namespace else [])
        proc = subprocess.run(base + dump + [str(path)], capture_output=True, text=True)
        if proc.returncode != 0:
            return path, None  # the header's own compile reports why
        try:
            ast = namespace_ast(proc.stdout, namespace) if namespace else ast_of(proc.stdout, names)
            templates = uninstantiated_template_kernels(ast, text)
        except ValueError:
            return path, None
        if templates:
            break
    if not templates:
        return path, None
    tmp = tempfile.TemporaryDirectory(prefix="simu-header-")
    unit = Path(tmp.name) / (path.name + ".instantiate.cu")

    def failing(lines: list[str]) -> set[int] | None:
        unit.write_text(wrapper_source(path, lines))
        proc = subprocess.run(base + [str(unit)], capture_output=True, text=True)
        if proc.returncode == 0:
            return set()
        at = {int(n) for n in re.findall(rf"{re.escape(unit.name)}:(\d+):", proc.stderr)}
        return {n - 2 for n in at if 0 <= n - 2 < len(lines)} or None  # line 1 includes the file

    lines = choose_instantiations(templates, failing, explicit_types(text))
    if not lines:  # nothing compiles: the file alone is what there is
        tmp.cleanup()
        return path, None
    unit.write_text(wrapper_source(path, lines))
    return unit, tmp


def kernel_param_names(ir: str) -> dict[str, list[tuple[str, str | None]]]:
    """Function name -> [(parameter name, C type)] from the debug info of (unoptimised) IR text."""
    from simu.ir.debuginfo import DebugInfo

    dbg = DebugInfo(ir)
    out: dict[str, list[tuple[str, str | None]]] = {}
    for m in re.finditer(r"^define [^@]*@([\w.$]+)\((.*)\).*!dbg (!\d+)", ir, re.M):
        names = dbg.param_names(m.group(3))
        types = dbg.param_type_names(m.group(3))
        if names:
            out[m.group(1)] = [(names.get(i, ""), types[i] if i < len(types) else None)
                               for i in range(max(names) + 1)]
    return out


def _run_clang(argv: list[str], path: str, language: str, options: CompileOptions) -> CompiledModule:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="simu-deps-") as tmp:
        deps_file = Path(tmp) / "deps.d"
        proc = subprocess.run([*argv, "-MD", "-MF", str(deps_file)], capture_output=True, text=True)
        deps = _read_deps(deps_file)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise CompileError(path, proc.stderr or "clang produced no output")
    ir = postprocess(proc.stdout, options, path)
    return CompiledModule(path, language, ir, options, warnings=proc.stderr, deps=deps)


def _read_deps(deps_file: Path) -> tuple[str, ...]:
    """The prerequisites of a make rule clang wrote with ``-MD`` (escaped spaces kept)."""
    try:
        text = deps_file.read_text(errors="replace")
    except OSError:
        return ()
    text = text.replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    words = re.split(r"(?<!\\)\s+", prerequisites.strip())
    return tuple(w.replace("\\ ", " ") for w in words if w)


_ATTR_GROUP = re.compile(r"^(attributes #\d+ = \{)(.*)(\})$", re.M)


def _inline_everything(ir: str) -> str:
    """Turn clang's -O0 ``noinline`` into ``alwaysinline`` so helpers inline into kernels.

    The machine then needs no call frames; each inlined access keeps the debug location of the
    helper's own source line (with the call site as ``inlinedAt``).
    """

    def fix(m: re.Match[str]) -> str:
        body = re.sub(r"\bnoinline\b", "alwaysinline", m.group(2))
        body = re.sub(r"\boptnone\b", "", body)
        # The host target machine runs the passes; GPU cpu/feature strings would confuse it.
        body = re.sub(r'"target-(cpu|features)"="[^"]*"', "", body)
        return m.group(1) + body + m.group(3)

    return _ATTR_GROUP.sub(fix, ir)


def postprocess(ir: str, options: CompileOptions, path: str) -> str:
    """Parse with llvmlite, inline helpers, run SROA (source-faithful) and name every value."""
    import llvmlite.binding as llvm

    try:
        # a fresh context per module: the global one would rename struct types (%struct.X.1)
        ir = cub_block_requirements(drop_library_kernels(ir))
        mod = llvm.parse_assembly(_inline_everything(ir), context=llvm.create_context())
        mod.verify()
    except RuntimeError as exc:
        raise CompileError(path, f"{path}: invalid LLVM IR: {exc}") from None
    _internalize_helpers(mod, ir)
    tm = _target_machine()
    pto = llvm.create_pipeline_tuning_options(speed_level=0)
    pb = llvm.create_pass_builder(tm, pto)
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_always_inliner_pass()
    if options.opt_level == 0:
        mpm.add_sroa_pass()
        # a call through a function pointer that SROA just made direct (libcu++'s atomics)
        mpm.add_always_inliner_pass()
    mpm.add_global_dead_code_eliminate_pass()
    mpm.add_instruction_namer_pass()
    mpm.run(mod, pb)
    return str(mod)


def _internalize_helpers(mod, ir: str) -> None:
    """Give every external non-kernel function internal linkage, so that dead-code elimination drops
    the helpers once they are inlined into the kernels, and those that no kernel reaches: the module
    that is printed, parsed again and decoded is then the size of what the kernels reach."""
    import llvmlite.binding as llvm

    kernels = set(kernel_names(ir))
    for f in mod.functions:
        if not f.is_declaration and f.linkage == llvm.Linkage.external and f.name not in kernels:
            f.linkage = llvm.Linkage.internal


_TM = None


def _target_machine():
    global _TM
    if _TM is None:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _TM = llvm.Target.from_default_triple().create_target_machine()
    return _TM
