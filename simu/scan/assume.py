"""Values for the macros host code defines at run time, so that a ``.cl`` file compiles with zero configuration.

The host index (:mod:`simu.host.options`) records ``-DLROWS=<run-time value>`` as a hole.  A macro with no
value cannot compile, so the scan chooses one, and says so (a scan warning, and every finding of the
kernel names it: :func:`mark_findings`):

1. the one constant value the project's host code writes for that name elsewhere (``"-DLROWS=16"``);
2. the name itself when the ``.cl`` file names a kernel with it (``__kernel void activation(…)`` built with
   ``"-Dactivation=" + obfuscated_name``: a build option that renames the kernel);
3. ``float`` when the ``.cl`` file uses the name as a type (``__global FPTYPE *a``);
4. else :data:`DEFAULT_INT` (a small power of two: a work-group or tile size is the common use).

The same holds for a ``-DNAME=`` the host code writes somewhere (:meth:`HostIndex.define_hints`, a
``define("T", type_name<T>())`` helper's name included) that a ``.cl`` file uses outside preprocessor lines but
never defines, when no build of it defines the name: the build was not traced to the file (a macro, two levels
of wrappers, a kernel cache), the name still comes from the host -- except a name the file uses as a type,
which is left to clang (below).

*Types* (issue 28): libraries build each ``.cl`` once per element type from templated host helpers
(``-DT=float``, ``-DT=double``, ...).  When a compile fails and clang's diagnostics name ``unknown type name
'T'`` for a name the host passes as a build option (a define hint), or, when no host code is seen at all,
for any identifier, the scan compiles the file once per :data:`COMMON_TYPES` with every such name set to
that type (:func:`unknown_types`, :meth:`simu.scan.flags.FileFlags.type_variants`), named ``k[T=float]``,
``k[T=int]``, ``k[T=double]``; a variant that does not compile is a warning as long as another one does.
Types rarely decide which threads collide, but they are still guesses: the values are kept in
:attr:`CompileOptions.assumed` like any other, so the findings are at most warnings.

Decision (issue 13): names no host code mentions are *not* given assumed values.  An undeclared ALL_CAPS
identifier is as often a missing header or a configuration the kernel does not support as a build option,
and an assumed size (a grid-point count, a tile) decides which threads collide: a wrong guess reports races
that no real build has.  A false alarm costs a user more than a kernel left as ``compile-error``, which the
user can fix with one ``define``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from simu.host.opencl import ClangFlags, parse_build_options
from simu.host.options import HOLE

DEFAULT_INT = "16"
DEFAULT_TYPE = "float"
COMMON_TYPES = ("float", "int", "double")  # one compile variant each for a type the build passes
AS_TYPE = "used as a type"
RENAMES = "a kernel's name"
HOST_COMPUTES = "values the host computes at run time"
_DIRECTIVE = re.compile(r"^\s*#.*$", re.M)
_FUNCTION_LIKE = re.compile(r"\(([\w,]*)\)=(.+)")  # a hint's value of a function-like -D: (a,b)=(a+b)
_INTEGER_TYPE = re.compile(r"^(?:u?char|u?short|u?int|u?long)(?=\d|$)")
_NUMBER_TYPE = re.compile(r"(?<![A-Za-z0-9])(?:float|double|half)(?=\d|\b)")
_UNKNOWN_TYPE = re.compile(r"error: unknown type name '([A-Za-z_]\w*)'")
_UNDECLARED = re.compile(r"error: use of undeclared identifier '([A-Za-z_]\w*)'")
_IMAGE_CALL = re.compile(r"error: use of undeclared identifier '(?:read|write)_image([A-Za-z_]\w*)'")
IMAGE_SUFFIX = {"float": "f", "int": "i", "double": "f"}  # read_imagef, read_imagei (no image holds doubles)
_VECTOR = re.compile(r"error: (?:use of undeclared identifier|unknown type name) '([A-Za-z_]\w*?)(?:2|3|4|8|16)'")


def _chosen(name: str, cl_text: str, hints: dict[str, set[str]]) -> tuple[str, str]:
    """(value, why) for a macro the host defines with a run-time value."""
    known = {v for v in hints.get(name, ()) if v and HOLE not in v}
    if len(known) == 1:
        return next(iter(known)), "the value the host code passes elsewhere"
    # `typedef float real` or `typedef double real`, `make_real2` as `make_float2` or `make_double2`: the float one
    chosen = sorted(v for v in known if re.search(rf"\b{DEFAULT_TYPE}|_{DEFAULT_TYPE}", v))
    if len(chosen) == 1 and len({_NUMBER_TYPE.sub("T", v) for v in known}) == 1:
        return chosen[0], "one of the types the host code passes elsewhere"
    if known and all(_FUNCTION_LIKE.fullmatch(v) for v in known):  # -DOPERATOR(a,b)=(a+b), … one per operator
        return sorted(known)[0], "one of the definitions the host code passes elsewhere"
    if known and len({_INTEGER_TYPE.sub("T", v) for v in known}) == 1 and all(_INTEGER_TYPE.search(v) for v in known):
        return sorted(known)[0], "one of the types the host code passes elsewhere"  # short4 or int4
    code = _DIRECTIVE.sub("", cl_text)
    if re.search(rf"\b(?:__kernel|kernel)\s+void\s+{re.escape(name)}\s*\(", code):
        return name, RENAMES  # `-Dactivation=" + obfuscated_name`: the kernel keeps a name; which one is moot
    n = re.escape(name)
    # a declaration's type (`__global T *a`, `T x;`) or a cast (`(T)x`), not a product (`XSIZE*y`, `n * 4`)
    if re.search(rf"(?:^|[,;{{}}]|\w\s*\()\s*(?:(?:const|__global|global|__local|local|__constant|constant|"
                 rf"__private|private|volatile|restrict)\s+)*{n}\s*\*\s*(?:(?:const|restrict)\s+)*[A-Za-z_]\w*\s*"
                 rf"[;=,)\[]|\b{n}\s+[A-Za-z_]\w*\s*[;=,)\[]|\(\s*(?:const\s+)?{n}\s*\*?\s*\)\s*[\w(]", code, re.M):
        return DEFAULT_TYPE, AS_TYPE
    return DEFAULT_INT, "default"


def resolve(options: str, cl_text: str, hints: dict[str, set[str]]) -> tuple[ClangFlags, list[str]]:
    """``options`` (with holes) as clang flags, every hole given a value; the ``NAME=value`` choices made."""
    cf = parse_build_options(normal(options))
    defines, assumed = [], []
    for d in cf.defines:
        name, eq, value = d.partition("=")
        if HOLE in name or not re.fullmatch(r"[A-Za-z_]\w*(?:\([\w\s,]*\))?", name):
            continue  # a name computed at run time: nothing to define
        if eq and HOLE in value:
            value = _chosen(name, cl_text, hints)[0]
            assumed.append(f"{name}={value}")
            d = f"{name}={value}"
        defines.append(d)
    return replace(cf, defines=tuple(defines)), assumed


def hinted(cl_path: Path, defined: set[str], hints: dict[str, set[str]],
           types: list[str] | None = None) -> list[str]:
    """``NAME=value`` for the host's ``-DNAME=`` names the file uses but neither it, the files it includes
    (one level) nor its options define.  Given ``types``, a name used as a type with no one value from the host
    is left out and appended to it: clang's diagnostics decide whether it is one, and the scan compiles the file
    once per common type (:func:`unknown_types`); without, it is :data:`DEFAULT_TYPE` (``simu check``)."""
    try:
        text = cl_path.read_text(errors="replace")
    except OSError:
        return []
    candidates = [n for n, vals in hints.items() if n not in defined and any(v for v in vals)]
    if not candidates:
        return []
    own = text
    for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        try:
            own += "\n" + (cl_path.parent / inc).read_text(errors="replace")
        except OSError:
            pass
    code = _DIRECTIVE.sub("", text)
    out = []
    for name in sorted(candidates):
        if re.search(rf"\b{re.escape(name)}\b", code) and \
                not re.search(rf"^\s*#\s*define\s+{re.escape(name)}\b", own, re.M):
            value, why = _chosen(name, text, hints)
            if why == AS_TYPE and types is not None:
                types.append(name)
                continue
            out.append(define(name, value))
    return out


def define(name: str, value: str) -> str:
    """The ``-D`` text of a macro and a value :func:`_chosen` gave: ``OP(a,b)=(a+b)`` for a function-like one."""
    fn = _FUNCTION_LIKE.fullmatch(value)
    return f"{name}({fn.group(1)})={fn.group(2)}" if fn else f"{name}={value}"


def unknown_types(diagnostics: str, also: set[str] | frozenset[str] = frozenset(),
                  pasted: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The identifiers clang's errors call an unknown type name, first first; the names of ``also`` (the
    host's names the file uses as types, :func:`hinted`) where clang calls them undeclared (a cast ``(T)x``); and
    the names of ``pasted`` (the host's build-option names) of which clang meets a vector type ``NAME4``."""
    names = _UNKNOWN_TYPE.findall(diagnostics)
    if also:
        names += [n for n in _UNDECLARED.findall(diagnostics) if n in also]
    # a vector type pasted from a name the host passes (`VEC_DATA_TYPE(DATA_TYPE, 4)`: `DATA_TYPE ## 4`)
    vectors = {m.group(0).split("'")[1]: m.group(1) for m in _VECTOR.finditer(diagnostics) if m.group(1) in pasted}
    names = [vectors.get(n, n) for n in names] + list(vectors.values())
    return list(dict.fromkeys(names))


def image_suffixes(diagnostics: str, pasted: set[str] | frozenset[str]) -> list[str]:
    """The names of ``pasted`` (the host's build-option names) that clang meets pasted onto an image call
    (``read_image ## CMD_DATA_TYPE``: ``read_imageCMD_DATA_TYPE``): the suffix of the element type (``f``, ``i``)."""
    return list(dict.fromkeys(n for n in _IMAGE_CALL.findall(diagnostics) if n in pasted))


def integer_types(text: str, names: list[str]) -> set[str]:
    """The type names a kernel uses where C needs an integer: a variable of that type, or an element of a pointer
    to it, inside an array subscript (``INDEX_TYPE c = cols[j]; y[c]``, ``x[cols[j]]`` with ``INDEX_TYPE *cols``)."""
    out: set[str] = set()
    for n in names:
        plain = re.findall(rf"\b{re.escape(n)}\s+(?:const\s+)?([A-Za-z_]\w*)\s*[=;,)\[]", text)
        pointed = re.findall(rf"\b{re.escape(n)}\s*\*\s*(?:const\s+)?(?:restrict\s+)?([A-Za-z_]\w*)", text)
        if any(re.search(rf"\[[^\]\[]*\b{v}\b(?!\s*\[)[^\]\[]*\]", text) for v in plain) or \
                any(re.search(rf"\[[^\]\[]*\b{v}\s*\[", text) for v in pointed):
            out.add(n)
    return out


def normal(options: str) -> str:
    """Options text with a wrapper parameter nobody filled in left out, and holes kept as words of their own."""
    text = re.sub(r"@P\d+@", " ", re.sub(r"(?<==)@P\d+@", HOLE, options))
    return " ".join(re.sub(r"@\?@(?=-)", HOLE + " ", text).split())


def label(define: str) -> str:
    return define.replace(HOLE, "?")


def mark_findings(findings: list, assumed: tuple[str, ...], why: str = "") -> list:
    """Findings of a kernel compiled with assumed macro values, each saying which (``detail["assumed"]``).
    Which threads collide may depend on the guess (a grid-point count assumed 16 makes threads of a larger
    grid overlap), so the one severity rule of provenance applies (:func:`simu.pipeline.beyond_contract`):
    at most a warning, naming the values (and ``why`` they are assumed: :data:`HOST_COMPUTES` unless said); a
    user who sets them (``define``) gets the kernel's own severities."""
    if not assumed:
        return findings
    from simu.pipeline import ASSUMPTION, beyond_contract

    note = ", ".join(assumed)
    out = []
    for f in findings:
        if f.detail.get(ASSUMPTION):
            f = replace(f, message=f"{f.message} [compiled assuming {note}]")
        else:
            f = beyond_contract(f, f"compiled assuming {note}, {why or HOST_COMPUTES}",
                                f"compiled assuming {note}")
        out.append(replace(f, detail={**f.detail, "assumed": list(assumed)}))
    return out
