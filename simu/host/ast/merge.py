"""The CUDA launches of the index with clang's values: each lexical launch (:mod:`simu.host.cuda`) that clang read
too takes clang's values where clang knows them (its own stay where clang does not: relations, command-line
defaults, buffer lengths), once per launch the program makes there; a launch only clang found is added; a launch
clang read under conditions no context of the program meets is none of the program's."""

from __future__ import annotations

import re
from dataclasses import replace

from simu.host.ast.launches import LaunchValues
from simu.host.cuda import CudaLaunch
from simu.host.relations import acyclic


def merge_launches(text: list[CudaLaunch], read: list[LaunchValues], sites: set[tuple[str, int, str]],
                   followed: frozenset[tuple[str, str]] = frozenset()) -> list[CudaLaunch]:
    """``text``: the lexical launches of one kernel; ``read``: clang's launches of it; ``sites``: every
    ``(file, line, kernel)`` of a ``<<<>>>`` clang read (with or without a launch the program makes there);
    ``followed``: ``(function, first call)`` of every launch clang read, of any kernel (:func:`followed_calls`)."""
    out: list[CudaLaunch] = []
    used: set[int] = set()
    matched = [[i for i, v in enumerate(read) if _matches(x, v)] for x in text]
    spelled = {i for x, mine in zip(text, matched, strict=True) for i in mine if _same_args(x, read[i])}
    for x, mine in zip(text, matched, strict=True):
        # a wrapper's launches of one kernel's instantiations (`k<float>(1.0f, p)`, `k<double>(1.0, p)`) at one call:
        # each clang launch is the text launch spelled as it, where one is
        mine = [i for i in mine if i not in spelled or _same_args(x, read[i])]
        if not mine:
            if not x.via and (x.file, x.line, x.kernel) in sites:
                continue  # clang read it: no context of the program makes this launch
            if x.via and _followed_without_it(x, followed, sites):
                continue  # clang followed this call into the wrapper: it makes no such launch
            out.append(x)
            continue
        used.update(mine)
        for i in mine:  # a while loop's later pass: what clang does not know varies, whatever the text's first pass
            made = _refined(replace(x, grid=None, block=None, shmem=None, args=(None,) * len(x.args),
                                    buffer_lengths=(None,) * len(x.buffer_lengths))
                            if read[i].later else x, read[i])
            if made not in out:
                out.append(made)
    for i, v in enumerate(read):
        if i not in used:
            made = _new(v)
            if made not in out:
                out.append(made)
    return out


def followed_calls(read: list[LaunchValues]) -> frozenset[tuple[str, str]]:
    """``(function, the call into it)`` for every launch clang read: the calls it followed into each function."""
    return frozenset((v.function, v.trail[0]) for v in read if v.trail)


def _followed_without_it(x: CudaLaunch, followed: frozenset[tuple[str, str]], sites: set[tuple[str, int, str]]
                         ) -> bool:
    """Whether clang read the wrapper's ``<<<>>>`` of ``x``'s kernel and followed ``x``'s very call into the wrapper
    (another launch there has it as its first call), yet made no launch of the kernel there: a branch inside the
    wrapper that the call's arguments do not take (``if (atomic) a<<<…>>>(…); else b<<<…>>>(…);`` called with
    ``true``)."""
    kernel, via = x.kernel.split("::")[-1], x.via.split("::")[-1]
    return any(k == kernel for _, _, k in sites) and any(
        function == via and call.endswith(f" at {x.file}:{x.line}") for function, call in followed)


def _matches(x: CudaLaunch, v: LaunchValues) -> bool:
    if x.kernel.split("::")[-1] != v.kernel:
        return False
    if x.instance and not _consistent(x, v):
        return False  # another instantiation of the function template holding the launch
    if not _same_literal_targs(x.targs, v.callee_text):
        return False  # `case 16: k<16><<<…>>>` of a wrapper: not the launch of `k<8>` in the same wrapper
    if v.kernel_targs and not _same_literal_targs(x.targs, f"k<{v.kernel_targs}>"):
        return False
    if v.kernel_targs and x.instance and not _same_instance(x.instance, v.kernel_targs):
        return False  # the text launch in `run<float>` is not clang's `k<double, …>` of `run<double>`
    if not x.via:
        return (x.file, x.line) == (v.file, v.line)
    return x.via.split("::")[-1] == v.function and bool(v.trail) and v.trail[0].endswith(f" at {x.file}:{x.line}")


def _same_args(x: CudaLaunch, v: LaunchValues) -> bool:
    """Whether a text launch's arguments are spelled as clang's launch's."""
    return len(x.args_text) == len(v.args_text) and all(
        re.sub(r"\s+", "", a) == re.sub(r"\s+", "", b) for a, b in zip(x.args_text, v.args_text, strict=True))


def _same_literal_targs(targs: str, callee: str) -> bool:
    """Whether two launches' template arguments agree where both are integer literals (``8`` and ``k<8>``) or both
    name a built-in type (``float`` and ``k<double>``: a wrapper's launches of two instantiations)."""
    if not targs or "<" not in callee:
        return True
    ours = [a.strip() for a in callee[callee.index("<") + 1:callee.rindex(">")].split(",")]
    theirs = [a.strip() for a in targs.split(",")]
    return all(a == b or (a.lstrip("_"), b.lstrip("_")) in _SAME_TYPE for a, b in zip(ours, theirs, strict=False)
               if (a.isdigit() and b.isdigit()) or (a.lstrip("_") in _BUILTIN and b.lstrip("_") in _BUILTIN))


def _same_instance(instance: tuple[str, ...], kernel_targs: str) -> bool:
    """Whether the built-in types a text launch's enclosing template is instantiated with (``run<float>``) are among
    those of clang's kernel instantiation, where it has any (``k<double, double4>`` has none of ``float``)."""
    theirs = {a.strip().lstrip("_") for a in kernel_targs.split(",")} & _BUILTIN
    ours = {t.strip().lstrip("_") for t in instance} & _BUILTIN
    return not theirs or not ours or bool(ours & theirs)


_BUILTIN = {"float", "double", "int", "unsigned", "char", "short", "long", "bool", "half", "half2", "size_t",
            "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t"}
_SAME_TYPE = {("unsigned", "unsigned int"), ("int32_t", "int"), ("int", "int32_t"), ("uint32_t", "unsigned"),
              ("unsigned", "uint32_t")}


def _consistent(x: CudaLaunch, v: LaunchValues) -> bool:
    """Whether clang's values agree with every value the lexical launch knows."""
    pairs = [*zip(x.grid or (), v.grid or (), strict=False), *zip(x.block or (), v.block or (), strict=False),
             *zip(x.args, v.args, strict=False), (x.shmem, v.shmem)]
    return all(a is None or b is None or a == b for a, b in pairs)


def _refined(x: CudaLaunch, v: LaunchValues) -> CudaLaunch:
    n = len(x.args)
    args = tuple(v.args[i] if i < len(v.args) and v.args[i] is not None else
                 None if i < len(v.runtime) and v.runtime[i] else x.args[i] for i in range(n))  # run time: unknown
    grid, block = _dim(v.grid, x.grid, v.runtime_dims[:3]), _dim(v.block, x.block, v.runtime_dims[3:])
    defaults = tuple(d for d in x.defaults if not (v.bound and d.startswith("@loop")))  # clang fixed the loop's value
    shmem = v.shmem if v.shmem is not None else x.shmem
    rel = v.relations
    grid_sym = _sym(grid, rel.grid, _not_runtime(x.grid_sym, v.runtime_dims[:3]))
    block_sym = _sym(block, rel.block, _not_runtime(x.block_sym, v.runtime_dims[3:]))
    arg_sym = _arg_sym(args, rel.args, _stale_equalities(x.arg_sym, v.equal))
    requires = x.requires + tuple(r for r in rel.requires if r not in x.requires)
    shmem_sym = rel.shmem if shmem is None else None
    if (grid, block, shmem, args, grid_sym, block_sym, arg_sym, requires, v.zeroed, v.priors, v.contents,
            v.symbols) == (x.grid, x.block, x.shmem, x.args, x.grid_sym, x.block_sym, x.arg_sym, x.requires,
                           x.zeroed, x.priors, x.contents, x.symbols):
        # clang agrees: the lexical launch as it was, its origin too
        return replace(x, signature=v.signature, clang_lengths=v.lengths, shmem_sym=shmem_sym,
                       targs=v.kernel_targs or x.targs)
    return replace(x, targs=v.kernel_targs or x.targs, grid=grid, block=block, grid_sym=grid_sym,
                   block_sym=block_sym, arg_sym=arg_sym, requires=requires, shmem=shmem, args=args,
                   through=_through(v), defaults=defaults,
                   zeroed=v.zeroed, priors=v.priors, signature=v.signature, contents=v.contents, symbols=v.symbols,
                   clang_lengths=v.lengths, shmem_sym=shmem_sym)


def _sym(dim: tuple | None, read: tuple | None, text: tuple | None) -> tuple | None:
    """The relations of a dim3's components that are not known: clang's where it has one, else the lexical
    reader's; a dim3 clang knows in part (an ``int`` block: y and z are 1) has them so that its known components
    hold."""
    if read is not None or text is not None:
        comps = [read[i] if read is not None and read[i] is not None and (dim is None or dim[i] is None) else
                 text[i] if text is not None else None for i in range(3)]
        return tuple(comps) if any(comps) or dim is not None else None
    if dim is not None and None in dim and any(d is not None for d in dim):
        return (None, None, None)
    return text


def _not_runtime(text: tuple | None, runtime: tuple[bool, ...]) -> tuple | None:
    """The lexical reader's relations less the components clang reads as computed at run time (``int b = 0;
    cudaOccupancyMaxPotentialBlockSize(&g, &b, k); k<<<(n + b - 1) / b, b>>>``: the text's ``(n+(0-1))/0`` holds
    the initialiser, not the value the call writes)."""
    if text is None or not any(runtime):
        return text
    out = tuple(None if i < len(runtime) and runtime[i] else t for i, t in enumerate(text))
    return out if any(out) else None


def _stale_equalities(text: tuple, equal: tuple[tuple[int, int], ...]) -> tuple:
    """The lexical reader's relations less each "argument i is argument k" whose two expressions clang reads as
    different (``old = off; off -= SIZES[k]; k<<<…>>>(off, old)``: the text saw the assignment, not the update)."""
    out = list(text)
    for i, r in enumerate(text):
        m = re.fullmatch(r"_a(\d+)_", r or "")
        if m and (min(i, int(m.group(1))), max(i, int(m.group(1)))) not in equal:
            out[i] = None
    return text if out == list(text) else tuple(out) if any(out) else ()


def _arg_sym(args: tuple, read: tuple, text: tuple) -> tuple:
    """Per argument not known: clang's relation, else the lexical reader's."""
    if not read:
        return text
    n = len(args)
    out = tuple(None if args[i] is not None else
                (read[i] if i < len(read) and read[i] is not None else text[i] if i < len(text) else None)
                for i in range(n))
    return tuple(acyclic(list(out))) if any(out) else ()


def _dim(read: tuple | None, text: tuple | None, runtime: tuple[bool, ...] = ()) -> tuple | None:
    """clang's components, the lexical reader's where clang has none, unless the program computes that one at run
    time (``runtime``: ``int n = 0; load(path, n); k<<<(n + 255) / 256, …>>>`` is no grid of 0)."""
    if text is not None and any(runtime):
        text = tuple(None if i < len(runtime) and runtime[i] else t for i, t in enumerate(text))
        text = None if all(t is None for t in text) else text
    if read is None:
        return text
    if None not in read or text is None:
        return read
    return tuple(a if a is not None else b for a, b in zip(read, text, strict=True))


def _new(v: LaunchValues) -> CudaLaunch:
    n = len(v.args)
    targs = v.kernel_targs or (re.sub(r"\s+", "", v.callee_text[v.callee_text.index("<") + 1:v.callee_text.rindex(">")])
                               if "<" in v.callee_text and v.callee_text.endswith(">") else "")
    return CudaLaunch(v.file, v.line, v.kernel, "", v.grid, "", v.block, "", v.shmem, v.args_text,
                      tuple(a if isinstance(a, (int, float)) else None for a in v.args), (None,) * n, (None,) * n,
                      targs=targs, through=_through(v), grid_sym=_sym(v.grid, v.relations.grid, None),
                      block_sym=_sym(v.block, v.relations.block, None), arg_sym=v.relations.args,
                      requires=v.relations.requires, zeroed=v.zeroed, priors=v.priors, signature=v.signature,
                      contents=v.contents, symbols=v.symbols, clang_lengths=v.lengths,
                      shmem_sym=v.relations.shmem if v.shmem is None else None)


def _through(v: LaunchValues) -> tuple[str, ...]:
    cleared = tuple(f"{v.args_text[i]} zero-filled as cudaMemset leaves it" for i in v.zeroed if i < len(v.args_text))
    named = [(v.args_text[i], kind, value, v.args_text[j] if j is not None and j < len(v.args_text) else None)
             for i, kind, value, j in v.contents if i < len(v.args_text)]
    filled = tuple(f"{text} as the host fills it ({fill_text(kind, value, arg)})" for text, kind, value, arg in named)
    copied = tuple(f"{name} = {_values_text(values)} as cudaMemcpyToSymbol copies it" for name, _, values in v.symbols)
    return tuple(v.trail) + tuple(v.bound) + cleared + filled + copied + \
        (("on a later pass of its while loop",) if v.later else ())


def _values_text(values: object) -> str:
    """``{?, 1024}`` for an aggregate, ``1000`` for a one-item copy (``&w``); ``?`` where not known."""
    if isinstance(values, tuple) and len(values) == 1:
        return _values_text(values[0])
    if isinstance(values, tuple):
        return "{" + ", ".join(_values_text(x) for x in values[:8]) + (", …" if len(values) > 8 else "") + "}"
    return "?" if values is None else f"{values:g}" if isinstance(values, float) else str(values)


def fill_text(kind: str, value: object, arg: str | None) -> str:
    """What a host fill puts in a buffer, in words (``random integers below n``)."""
    if kind == "below":
        return f"random integers below {arg or value}"
    return {"ramp": "element k holds k", "const": f"every element {value}", "unit": "random numbers in [0, 1)",
            "random": "rand()"}.get(kind, kind)
