"""Kernels that live in headers: a header compiled as a translation unit of its own.

A header named on the command line (``simu check kernels.hpp``) or one that defines kernels and that no
scanned file includes is compiled as CUDA (as OpenCL when it looks like OpenCL C).  Its template kernels
that nothing instantiates (in a header, or in a ``.cu`` file whose includer is not scanned: the IR of the
file alone has no instantiation of a template kernel the file defines) get explicit instantiations in a
small extra translation unit that includes the file: the template parameter lists come from clang's JSON
AST (``FunctionTemplateDecl`` with the ``CUDAGlobalAttr``), not from regular expressions (a regular
expression only decides whether clang is asked).  Choices, in order (the first that compiles is kept):

* one type parameter: ``float``, ``double`` and ``int`` (each that compiles is instantiated); where the file's
  own explicit instantiations name some of them (``template void Layer<float>::Forward_gpu(…);``), only those: the
  program uses its templates with the types it instantiates them at (:func:`explicit_types`);
* otherwise the first combination that compiles of types ``float, double, int``, integer values
  ``32, 64, 128, 256`` and ``true, false``, nearest the first values first (``float, 32``, ``double, 32``,
  ``float, 64``, ``int, 32``, ...; at most :data:`MAX_TRIES` combinations per kernel).

Every kernel's current choice is compiled in one clang run; the lines clang blames move on to their next
choice (:func:`choose_instantiations`), so a file takes at most :data:`MAX_TRIES` extra runs.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HEADER_SUFFIXES = {".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".tcc", ".ipp", ".clh"}
TYPE_CHOICES = ("float", "double", "int")
INT_CHOICES = ("32", "64", "128", "256")
BOOL_CHOICES = ("true", "false")
# an explicit instantiation definition (not a specialisation, ``template <>``) of a template at one element type
_EXPLICIT = re.compile(r"^[ \t]*template[ \t]+(?!<)[^;{}()]*?\w+[ \t]*<[ \t]*(float|double|int)[ \t]*>", re.M)
MAX_TRIES = 12

_OPENCL = re.compile(r"\b__kernel\b|(?<![\w.])kernel\s+void\b")
_CUDA_KERNEL = re.compile(r"__global__")
_INTEGRAL = re.compile(r"^(const\s+)?(unsigned\s+|signed\s+)?(int|long|long long|short|char|size_t|unsigned|"
                       r"uint\d+_t|int\d+_t|std::size_t)$")


def is_header(path: str | Path) -> bool:
    return Path(path).suffix.lower() in HEADER_SUFFIXES


def header_language(text: str) -> str:
    """``opencl`` when the header looks like OpenCL C (``__kernel`` / ``kernel void``, no ``__global__``),
    else ``cuda``."""
    return "opencl" if _OPENCL.search(text) and not _CUDA_KERNEL.search(text) else "cuda"


def defines_cuda_kernels(text: str) -> bool:
    return bool(_CUDA_KERNEL.search(text))


_TEMPLATE_KERNEL = re.compile(r"\btemplate\s*<[^;{}]*?>\s*(?:(?:static|inline|__\w+__(?:\s*\([^)]*\))?)\s+)*"
                              r"__global__\s+(?:[^;{}(]|__launch_bounds__\s*\([^)]*\))*?\b(?!__launch_bounds__\b)(\w+)\s*\(")


def template_kernel_names(text: str) -> list[str]:
    """Names of the ``__global__`` function templates a file defines (a cheap look, before asking clang)."""
    if "template" not in text or "__global__" not in text:
        return []
    return list(dict.fromkeys(m.group(1) for m in _TEMPLATE_KERNEL.finditer(text)))


def uninstantiated_names(text: str, ir: str) -> list[str]:
    """The template kernels of a file of which the compiled IR defines no instantiation."""
    return [n for n in template_kernel_names(text)
            if not re.search(rf"^define [^@]*@_Z\w*?{len(n)}{n}I", ir, re.M)]


@dataclass(frozen=True)
class TemplateParam:
    name: str
    kind: str  # "type" | "int" | "bool"


@dataclass(frozen=True)
class TemplateKernel:
    qualified: str  # ns::name
    params: tuple[TemplateParam, ...]
    signature: str  # the parameter list in terms of the template parameters, e.g. "T *, const T *, int"

    @property
    def every_choice(self) -> bool:
        """One type parameter: every element type that compiles is instantiated (else only the first)."""
        return len(self.params) == 1 and self.params[0].kind == "type"

    def choices(self, types: tuple[str, ...] = TYPE_CHOICES) -> list[tuple[str, ...]]:
        """Argument lists to try, in order (see the module docstring); ``types``: the element types to try."""
        if self.every_choice:
            return [(t,) for t in types]
        pools = [types if p.kind == "type" else BOOL_CHOICES if p.kind == "bool" else INT_CHOICES
                 for p in self.params]
        # nearest the first choices first: (float, 32), (double, 32), (float, 64), (int, 32), ...
        order = sorted(itertools.product(*(range(len(p)) for p in pools)), key=lambda ix: (sum(ix), ix[::-1]))
        return [tuple(p[i] for p, i in zip(pools, ix, strict=True)) for ix in order[:MAX_TRIES]]

    def instantiation(self, args: tuple[str, ...]) -> str:
        """``template __global__ void ns::k<float>(float *, int);``"""
        sig = self.signature
        types = {p.name: a for p, a in zip(self.params, args, strict=False)}
        if types:
            sig = re.sub(r"\b(" + "|".join(map(re.escape, types)) + r")\b", lambda m: types[m.group(1)], sig)
        return f"template __global__ void {self.qualified}<{', '.join(args)}>({sig});"


def uninstantiated_template_kernels(ast: dict, header_text: str) -> list[TemplateKernel]:
    """The ``__global__`` function templates of a JSON AST that the header names and that have no
    specialisation in the translation unit."""
    out: list[TemplateKernel] = []
    instantiated: set[str] = set()  # a template declared twice lists its specialisations under one of them

    def visit(node: dict, scope: tuple[str, ...]) -> None:
        for child in node.get("inner") or []:
            kind = child.get("kind")
            if kind == "NamespaceDecl":
                name = child.get("name")
                if name:  # members of an anonymous namespace cannot be named from outside it: skipped
                    visit(child, scope + (name,))
            elif kind == "LinkageSpecDecl":
                visit(child, scope)
            elif kind == "FunctionTemplateDecl":
                if sum(c.get("kind") == "FunctionDecl" for c in child.get("inner") or []) > 1:
                    instantiated.add("::".join((*scope, child.get("name", ""))))
                tk = _template_kernel(child, scope, header_text)
                if tk is not None:
                    out.append(tk)

    visit(ast, ())
    unique = {(t.qualified, t.signature): t for t in out if t.qualified not in instantiated}
    return list(unique.values())


_TOP_DECL = re.compile(r"^    \{$", re.M)


def ast_of(json_text: str, names: list[str]) -> dict:
    """The JSON AST of a translation unit, with only the top-level declarations that mention one of
    ``names`` as a declaration name (a namespace holding the kernels, a kernel at file scope): the other
    declarations (the C++ standard library's, a framework's) can be hundreds of megabytes of JSON.  clang
    prints a top-level declaration as ``{`` indented by four spaces; text not laid out so is read whole."""
    starts = [m.start() for m in _TOP_DECL.finditer(json_text)]
    if not starts or not names:
        return json.loads(json_text)
    end = json_text.rfind("\n  ]")
    wanted = re.compile(r'"name": "(?:' + "|".join(map(re.escape, names)) + r')"')
    keep: list[int] = []
    for m in wanted.finditer(json_text):
        i = bisect.bisect_right(starts, m.start()) - 1
        if i >= 0 and (not keep or keep[-1] != i):
            keep.append(i)
    inner = []
    for i in keep:
        stop = starts[i + 1] if i + 1 < len(starts) else end
        inner.append(json.loads(json_text[starts[i]:stop].rstrip().rstrip(",")))
    return {"kind": "TranslationUnitDecl", "inner": inner}


def kernel_namespace(text: str) -> str | None:
    """The named namespace (``a::b``) that lexically holds every template kernel of a file, if there is one
    (clang is then asked for the AST of that namespace only)."""
    from simu.frontend.declarations import Unbalanced, declarations, enclosing_namespaces

    spots = [m.start() for m in _TEMPLATE_KERNEL.finditer(text)] if "template" in text else []
    if not spots:
        return None
    try:
        decls = declarations(text)
    except Unbalanced:
        return None
    paths = [enclosing_namespaces(decls, text, pos) for pos in spots]
    common: list[str] = []
    for parts in zip(*paths, strict=False):
        if len(set(parts)) != 1 or not parts[0]:
            break
        common.append(parts[0])
    return "::".join(common) or None


def namespace_ast(json_text: str, namespace: str) -> dict:
    """The JSON AST that ``-ast-dump-filter=NAMESPACE::`` prints (one object per declaration of the
    namespace), inside the namespace declarations that hold them."""
    decoder = json.JSONDecoder()
    inner, i, n = [], 0, len(json_text)
    while True:
        while i < n and json_text[i] != "{":
            i += 1
        if i >= n:
            break
        obj, i = decoder.raw_decode(json_text, i)
        inner.append(obj)
    for name in reversed(namespace.split("::")):
        inner = [{"kind": "NamespaceDecl", "name": name, "inner": inner}]
    return {"kind": "TranslationUnitDecl", "inner": inner}


def _template_kernel(node: dict, scope: tuple[str, ...], header_text: str) -> TemplateKernel | None:
    name = node.get("name", "")
    if not name or not re.search(rf"\b{re.escape(name)}\b", header_text):
        return None
    inner = node.get("inner") or []
    decls = [c for c in inner if c.get("kind") == "FunctionDecl"]
    if not decls or not any(a.get("kind") == "CUDAGlobalAttr" for a in decls[0].get("inner") or []):
        return None
    if len(decls) > 1:  # something instantiates it already
        return None
    params: list[TemplateParam] = []
    for c in inner:
        kind = c.get("kind")
        if kind == "TemplateTypeParmDecl":
            if c.get("isParameterPack"):
                return None
            params.append(TemplateParam(c.get("name", ""), "type"))
        elif kind == "NonTypeTemplateParmDecl":
            qual = (c.get("type") or {}).get("qualType", "")
            if qual.strip() == "bool":
                params.append(TemplateParam(c.get("name", ""), "bool"))
            elif _INTEGRAL.match(qual.strip()):
                params.append(TemplateParam(c.get("name", ""), "int"))
            else:
                return None
        elif kind == "TemplateTemplateParmDecl":
            return None
    if not params or any(not p.name for p in params):
        return None
    qual_type = (decls[0].get("type") or {}).get("qualType", "")
    open_at = qual_type.find("(")
    if open_at < 0 or not qual_type.endswith(")"):
        return None
    return TemplateKernel("::".join((*scope, name)), tuple(params), qual_type[open_at + 1:-1])


def explicit_types(text: str) -> tuple[str, ...]:
    """The element types of :data:`TYPE_CHOICES` a file's explicit instantiations name (``template class
    Layer<double>;``, ``template void Layer<float>::Forward_gpu(…);``, ``template __global__ void k<int>(…);``), in
    :data:`TYPE_CHOICES` order; all of them when it names none."""
    named = {m.group(1) for m in _EXPLICIT.finditer(text)}
    return tuple(t for t in TYPE_CHOICES if t in named) or TYPE_CHOICES


def choose_instantiations(templates: list[TemplateKernel],
                          failing: Callable[[list[str]], set[int] | None],
                          types: tuple[str, ...] = TYPE_CHOICES) -> list[str]:
    """The explicit instantiations to compile: every kernel's choices tried together, round after round.

    ``failing(lines)`` compiles the lines and answers the indexes of those that do not compile (empty: all
    compile; None: an error no line can be blamed for).  A failing line is replaced by its kernel's next
    choice (dropped for a one-type-parameter kernel, whose choices are all tried at once), so that one clang
    run settles every kernel's current choice; at most :data:`MAX_TRIES` runs."""
    slots: list[tuple[str, TemplateKernel, Iterator[tuple[str, ...]] | None]] = []
    for t in templates:
        if t.every_choice:
            slots += [(t.instantiation(c), t, None) for c in t.choices(types)]
        else:
            rest = iter(t.choices(types))
            slots.append((t.instantiation(next(rest)), t, rest))
    for _ in range(MAX_TRIES):
        if not slots:
            return []
        bad = failing([s[0] for s in slots])
        if bad is None:
            return []
        if not bad:
            return [s[0] for s in slots]
        kept = []
        for i, (line, t, rest) in enumerate(slots):
            if i not in bad:
                kept.append((line, t, rest))
            elif rest is not None and (nxt := next(rest, None)) is not None:
                kept.append((t.instantiation(nxt), t, rest))
        slots = kept
    return []


def wrapper_source(header: Path, lines: list[str]) -> str:
    """The extra translation unit: the header, then explicit instantiations."""
    return f'#include "{header.resolve()}"\n' + "\n".join(lines) + "\n"


__all__ = ["HEADER_SUFFIXES", "TemplateKernel", "TemplateParam", "ast_of", "choose_instantiations",
           "defines_cuda_kernels", "explicit_types", "header_language", "is_header", "kernel_namespace",
           "namespace_ast", "template_kernel_names", "uninstantiated_names", "uninstantiated_template_kernels",
           "wrapper_source"]
