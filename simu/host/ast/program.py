"""A host file's facts from its clang AST: every function with a body that the file or its project headers define
(methods, namespaces, ``extern "C"`` blocks, each instantiation of a function template), and its globals."""

from __future__ import annotations

from pathlib import Path

from simu.frontend.guards import cuda_guards
from simu.frontend.includes import HeaderIndex, resolve_includes
from simu.host.ast.clang import LIBRARY_INCLUDE, dump, host_language, own_declarations
from simu.host.ast.dumpsplit import in_project
from simu.host.ast.expr import Const
from simu.host.ast.facts import FunctionFacts, FunctionReader, _State
from simu.host.ast.layout import record_sizes
from simu.host.ast.nodes import Node, contains, kids, kind_of_callee, template_instances

_SCOPES = {"NamespaceDecl", "LinkageSpecDecl", "CXXRecordDecl", "ClassTemplateDecl"}
_FUNCTIONS = {"FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl"}


def read_host_file(path: Path, root: Path, include_dirs: tuple[str, ...] = (),
                   headers: HeaderIndex | None = None) -> list[FunctionFacts] | None:
    """The facts of one host file and of the project headers (files under ``root``) it includes; ``None`` when
    clang gives no AST.  ``headers``: the project's headers by name, to find the folders its includes need.  The
    macros that gate its CUDA headers are defined, as the front end does for kernels (:mod:`simu.frontend.guards`):
    the GPU build is the one that launches.  OpenCL host code is parsed as C or C++ (:func:`host_language`)."""
    text = _text(path)
    language = host_language(path, text)
    after: tuple[str, ...] = ()
    included: set[Path] = set()
    if headers is not None:
        info = resolve_includes(path, [Path(d) for d in include_dirs], headers)
        after, included = tuple(str(d) for d in info.folders), info.headers
    search = [Path(d) for d in (*include_dirs, *after)]
    gates = tuple(g.macro for g in cuda_guards(path, search))  # the GPU build's switch (darknet's GPU), as for kernels
    libraries = any(LIBRARY_INCLUDE.search(t) for t in (text, *map(_text, sorted(included))))
    root_s = str(root.resolve())
    tu = dump(path, include_dirs, gates, after_dirs=after, language=language, libraries=libraries,
              keep=in_project(root_s, str(path)))
    if tu is None:
        return None
    decls = [(f, d) for f, d in own_declarations(tu) if f == str(path) or f.startswith(root_s + "/")]
    enums = _enums([d for _, d in decls])
    instances = template_instances(tu)
    records = record_sizes([d for _, d in decls])
    texts: dict[str, str] = {}
    out: list[FunctionFacts] = []
    globals_: list[tuple[str, str, object]] = []
    for file, decl in decls:
        if file not in texts:
            try:
                texts[file] = Path(file).read_text(errors="replace")
            except OSError:
                texts[file] = ""
        rel = _rel(file, root_s)
        for fn, name in _functions(decl, ""):
            out.append(FunctionReader(fn, name, rel, texts[file], enums, records, instances).read())
        for var in _variables(decl):
            if kids(var):
                reader = FunctionReader({}, "", rel, texts[file], enums, records)
                globals_.append(("::", var.get("name", ""), reader.expr(kids(var)[-1], _State())))
    if globals_:
        out.append(FunctionFacts("", _rel(str(path), root_s), 0, (), writes=tuple(globals_)))  # type: ignore[arg-type]
    return out


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _rel(file: str, root: str) -> str:
    return file[len(root) + 1:] if file.startswith(root + "/") else Path(file).name


def _functions(decl: Node, scope: str) -> list[tuple[Node, str]]:
    kind = decl.get("kind")
    if kind in _FUNCTIONS:
        has_body = any(k.get("kind") == "CompoundStmt" for k in kids(decl))
        return [(decl, decl.get("name", ""))] if has_body and not decl.get("isImplicit") else []
    if kind == "FunctionTemplateDecl":
        specs = [k for k in kids(decl) if k.get("kind") in _FUNCTIONS]
        if not specs:
            return []
        pattern, inst = specs[0], specs[1:]
        if not inst:
            return _functions(pattern, scope)  # never instantiated: the pattern itself
        return [x for s in inst for x in _functions(_bodied(s, pattern), scope)]
    if kind in _SCOPES:
        return [x for k in kids(decl) for x in _functions(k, decl.get("name", scope))]
    return []


def _bodied(spec: Node, pattern: Node) -> Node:
    """An instantiation that only another uninstantiated template names is declared without a body (``reduce<T>``
    calls ``launch(block_reduce, n, ws)``: ``launch<void (*)(…), float *>`` has none): the pattern's body under the
    instantiation's identity (its type and id, which that template's call names), its parameters the pattern's up to
    a pack and the instantiation's from there (a pack's expansions have no parameter of the pattern to refer to)."""
    if any(k.get("kind") == "CompoundStmt" for k in kids(spec)):
        return spec
    body = [k for k in kids(pattern) if k.get("kind") == "CompoundStmt"]
    if any(contains(b, _launch_by_its_parameters) for b in body):
        return spec  # `k<T><<<…>>>`: each instantiation launches its own, which only its body says (clang leaves
        # the bodies out after an error in the file, too: the lexical reader's per-instantiation launches stand)
    mine = [k for k in kids(spec) if k.get("kind") == "ParmVarDecl"]
    theirs = [k for k in kids(pattern) if k.get("kind") == "ParmVarDecl"]
    packed = next((i for i, p in enumerate(theirs) if "..." in p.get("type", {}).get("qualType", "")), len(theirs))
    params = theirs[:packed] + mine[packed:] if packed <= len(mine) else mine
    rest = [k for k in kids(spec) if k.get("kind") != "ParmVarDecl"]
    return {**spec, "inner": rest + params + body}


def _launch_by_its_parameters(node: Node) -> bool:
    """Whether ``node`` launches a kernel the template names over its own parameters (``k<T><<<…>>>``: the callee
    an unresolved lookup)."""
    return node.get("kind") == "CUDAKernelCallExpr" and kind_of_callee(node) == "UnresolvedLookupExpr"


def _variables(decl: Node) -> list[Node]:
    kind = decl.get("kind")
    if kind == "VarDecl":
        return [decl]
    if kind in _SCOPES:
        return [v for k in kids(decl) for v in _variables(k)]
    return []


def _enums(decls: list[Node]) -> dict[str, int]:
    """Enumerator values by declaration id and by name (a name two enums give different values has none)."""
    out: dict[str, int] = {}
    clash: set[str] = set()

    def visit(d: Node) -> None:
        if d.get("kind") == "EnumDecl":
            value = -1
            for c in kids(d):
                if c.get("kind") != "EnumConstantDecl":
                    continue
                given = _constant(c)
                value = given if given is not None else value + 1
                out[c.get("id", "")] = value
                name = c.get("name", "")
                if name in out and out[name] != value:
                    clash.add(name)
                out[name] = value
        elif d.get("kind") in _SCOPES:
            for k in kids(d):
                visit(k)

    for d in decls:
        visit(d)
    for name in clash:
        out.pop(name, None)
    return out


def _constant(c: Node) -> int | None:
    for k in kids(c):
        if k.get("kind") == "ConstantExpr" and "value" in k:
            try:
                return int(k["value"])
            except ValueError:
                return None
        reader = FunctionReader({}, "", "", "", {})
        e = reader.expr(k, _State())
        if isinstance(e, Const):
            return int(e.value)
    return None
