"""CUDA launch sites in host code: ``k<<<grid, block, shmem, stream>>>(args)`` (templates too),
``cudaLaunchKernel`` / ``cudaLaunchCooperativeKernel``, and launches inside wrapper functions (one level:
a host function launching with its own parameters is resolved at its call sites in the same file).

Grid, block and dynamic shared size are recovered as constants where :class:`Evaluator` can (literals,
``#define``, ``const`` variables, ``dim3 g(a, b)`` / ``dim3 g = dim3(...)``, arithmetic such as
``(N + B - 1) / B``); what is not recoverable keeps its text.  Pointer arguments allocated in the same
function with ``cudaMalloc``/``cudaMallocManaged``/``malloc``/``new T[n]`` get their length in elements.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from simu.frontend.ctext import CHAR_LITERAL, STRING_LITERAL
from simu.host.branches import branch_taken
from simu.host.cscan import Call, CSource, Function, dim3_parts, inline_calls, split_args, unparen
from simu.host.cvalues import Evaluator
from simu.host.relations import conditions, expand_locals, launch_relations
from simu.host.state import state_source
from simu.launch.constraints import Prior

EXTRA_KEY = "cuda_launches"
WRAPPERS_KEY = "cuda_wrappers"  # launches inside functions that launch with their own parameters
DEFINES_KEY = "cuda_defines"  # the kernels a file with launches defines itself
Dim = tuple[int | None, int | None, int | None]
# ``k<<<g, b>>>(…)``, also spaced as clang-format writes it, ``k << <g, b >> > (…)``
_LAUNCH = re.compile(r"([A-Za-z_][\w:]*)\s*(<(?:[^<>;]|<[^<>;]*>)*>)?\s*<<\s*<(?!<)")
_LAUNCH_END = re.compile(r">>\s*>")
_API = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel")
MAX_INSTANTIATIONS = 4  # type lists one launch inside a function template is resolved with


@dataclass(frozen=True)
class CudaLaunch:
    """One CUDA launch of ``kernel`` at ``file:line``; ``None`` parts are not recoverable (see the texts)."""

    file: str
    line: int
    kernel: str
    grid_text: str
    grid: Dim | None
    block_text: str
    block: Dim | None
    shmem_text: str
    shmem: int | None
    args_text: tuple[str, ...]
    args: tuple[int | None, ...]  # constant scalar values
    buffer_lengths: tuple[int | str | None, ...]  # per argument: allocated length (number or expression)
    # the length's unit: bytes of the allocated element (None: the length is bytes; 0: a type not known here)
    buffer_elem_bytes: tuple[int | None, ...]
    via: str = ""  # the wrapper function the launch sits in, when resolved at its call site
    # what is not constant, as expressions of the launch's arguments (simu.host.relations: ``_a2_`` = argument 2)
    grid_sym: tuple[str | None, ...] | None = None
    block_sym: tuple[str | None, ...] | None = None
    arg_sym: tuple[str | None, ...] = ()
    launch_file: str = ""  # the file holding the ``<<<>>>`` when the launch is resolved at a call site elsewhere
    requires: tuple[str, ...] = ()  # comparisons of the arguments the host asserts before launching
    # host values taken at their command-line defaults (simu.host.cmdline): option names, variables
    defaults: tuple[str, ...] = ()
    targs: str = ""  # the kernel's template arguments at this launch, types bound (``float,256``), if known
    # the types the function template holding the launch is instantiated with here (``RunTest<double>``: double)
    instance: tuple[str, ...] = ()
    # per argument: the host text of a searched scalar the host computes from program state (simu.host.state)
    arg_state: tuple[str, ...] = ()
    # where clang's values came from (simu.host.ast): the calls leading to the launch, the loop values fixed
    through: tuple[str, ...] = ()
    zeroed: tuple[int, ...] = ()  # pointer arguments a cudaMemset(p, 0, …) clears before the launch
    priors: tuple[Prior, ...] = ()  # earlier launches on some of the same variables (simu.host.ast.sequence)
    signature: str = ""  # the kernel's type as clang read the launch instantiate it (``void (double *)``)
    # (argument, kind, value, argument the value is): buffers the host fills (simu.host.ast.contents)
    contents: tuple[tuple[int, str, int | float | None, int | None], ...] = ()
    # (variable, byte offset, values): what cudaMemcpyToSymbol copies before the launch (simu.host.ast.launches)
    symbols: tuple[tuple[str, int, Any], ...] = ()
    # per argument, the bytes clang read its cudaMalloc give (a number or an expression over ``_aI_`` argument
    # positions, simu.host.ast.allocations): the length where the text reader's is not known
    clang_lengths: tuple[str | None, ...] = ()
    # the dynamic shared bytes as a simu.host.relations expression of the arguments and the block (blockDim_x*4)
    shmem_sym: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def extract_cuda(src: CSource, rel: str) -> list[CudaLaunch]:
    """Every CUDA launch in one host file, wrappers resolved one level."""
    ev = Evaluator(src)
    raw = _chevron_launches(src) + _api_launches(src)
    out: list[CudaLaunch] = []
    for kernel, pos, parts, args in raw:
        fn = src.enclosing(pos)
        params = set(fn.params) if fn else set()
        used = set(re.findall(r"[A-Za-z_]\w*", " ".join(parts + args)))
        calls = src.calls(fn.name) if fn and fn.name != "main" and used & params else []
        if calls:
            template = wrapper_template(src, ev, rel, kernel, pos, parts, args)
            for call in calls:
                out += resolve_call(src, ev, rel, template, call)
        else:
            asserted = conditions(src, ev, fn, pos, expand=False)
            for types in instantiations(src, fn) if fn else [{}]:
                ev.types = types
                taken = branch_taken(ev, pos, pos)
                if taken is not None and not taken[0]:
                    continue  # if (USE_DOUBLE) k<<<…>>>(…) with USE_DOUBLE 0: no launch of the program
                x = _resolve(src, ev, rel, kernel, pos, src.line_of(pos), parts, args, "", asserted)
                out.append(replace(x, targs=_template_args(src, pos, types), instance=tuple(types.values())))
            ev.types = {}
    return out


def instance_name(fn: Function | None, types: dict[str, str]) -> str:
    """``runTest<float>``: a function template's instantiation as sites name it (``""`` for no binding)."""
    return f"{fn.name}<{', '.join(types.values())}>" if fn is not None and types else ""


def instantiations(src: CSource, fn: Function) -> list[dict[str, str]]:
    """The type parameters of a function template bound to each type list it is called with in the file
    (``template <class T> void RunTest(…)`` called as ``RunTest<float>(…)`` and ``RunTest<double>(…)``: ``T`` =
    ``float``, then ``double``; at most :data:`MAX_INSTANTIATIONS`), else one empty binding."""
    params = _template_params(src, fn)
    if not params:
        return [{}]
    name = re.escape(fn.name.split("::")[-1])
    out: list[dict[str, str]] = []
    for m in re.finditer(rf"(?<![\w.>]){name}\s*<([^<>;]*)>\s*\(", src.code):
        given = [a.strip() for a in m.group(1).split(",")]
        types = {p.split()[-1]: a for p, a in zip(params, given, strict=False)
                 if re.match(r"(class|typename)\b", p) and a}
        if types and types not in out:
            out.append(types)
    return out[:MAX_INSTANTIATIONS] or [{}]


def _template_params(src: CSource, fn: Function) -> list[str]:
    """The template parameter declarations of a function template (``class T``, ``int B``), else ``[]``."""
    head = re.search(r"\btemplate\s*<([^<>]*)>[^;{}]*$", src.code[max(0, fn.start - 600):fn.start])
    return [p.strip() for p in head.group(1).split(",") if p.strip()] if head else []


def _template_args(src: CSource, pos: int, types: dict[str, str]) -> str:
    """The launch's explicit template arguments with the bound types written in (``reduce<T,256>`` with ``T`` =
    ``float``: ``float,256``), spaces removed; ``""`` when there are none or one is still a parameter of the
    function template holding the launch."""
    m = _LAUNCH.match(src.code, pos)
    if m is None or not m.group(2):
        return ""
    fn = src.enclosing(pos)
    unbound = {p.split()[-1] for p in _template_params(src, fn)} - set(types) if fn else set()
    return bind_template_args(m.group(2)[1:-1], types, unbound)


def bind_template_args(text: str, types: dict[str, str], unbound: set[str]) -> str:
    """Template arguments with the bound types written in, spaces removed (``T, 256`` with ``T`` = ``float``:
    ``float,256``); ``""`` when one of them is still an ``unbound`` parameter."""
    text = re.sub(r"[A-Za-z_]\w*", lambda t: types.get(t.group(0), t.group(0)), text)
    return "" if unbound & set(re.findall(r"[A-Za-z_]\w*", text)) else "".join(text.split())


def wrapper_template(src: CSource, ev: Evaluator, rel: str, kernel: str, pos: int, parts: list[str],
                     args: list[str]) -> dict:
    """A launch inside a function that launches with its own parameters, its texts written so that a call site
    anywhere can fill them in (:func:`simu.host.relations.expand_locals`)."""
    fn = src.enclosing(pos)
    assert fn is not None
    m = _LAUNCH.match(src.code, pos)
    return {"function": fn.name.split("::")[-1], "params": list(fn.params), "kernel": kernel, "file": rel,
            "line": src.line_of(pos), "parts": [expand_locals(src, ev, fn, pos, p) for p in parts],
            "args": [expand_locals(src, ev, fn, pos, a) for a in args],
            "requires": conditions(src, ev, fn, pos),
            # a function template's type parameters and the kernel's template arguments, bound at each call
            "tparams": [p.split()[-1] for p in _template_params(src, fn)],
            "targs": m.group(2)[1:-1] if m is not None and m.group(2) else ""}


def wrapper_templates(src: CSource, rel: str) -> list[dict]:
    """Every launch of this file made inside a wrapper function (see :func:`wrapper_template`)."""
    ev = Evaluator(src)
    out = []
    for kernel, pos, parts, args in _chevron_launches(src) + _api_launches(src):
        fn = src.enclosing(pos)
        used = set(re.findall(r"[A-Za-z_]\w*", " ".join(parts + args)))
        if fn and fn.name != "main" and used & set(fn.params):
            out.append(wrapper_template(src, ev, rel, kernel, pos, parts, args))
    return out


def resolve_call(src: CSource, ev: Evaluator, rel: str, template: dict, call: Call) -> list[CudaLaunch]:
    """The launches a call of a wrapper makes: its parameters replaced by what the call passes, evaluated in the
    calling file, once per instantiation of the calling function template (one launch for a plain function)."""
    bind = dict(zip(template["params"], call.args, strict=False))
    sub = [_substitute(p, bind) for p in template["parts"]]
    sargs = [_substitute(a, bind) for a in template["args"]]
    req = [_substitute(r, bind) for r in template.get("requires", ())]
    # the wrapper's conditions over its parameters alone, which hold at the call as they read there
    own = [_substitute(r, bind) for r in template.get("requires", ())
           if set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", r)) <= set(template["params"])]
    # what holds where the caller calls it: `if (n > 1) launch_wrapper(x, n);`, `if (n < 2) return;` before the call
    caller = src.enclosing(call.pos)
    req += conditions(src, ev, caller, call.pos, expand=False)
    tparams = list(template.get("tparams", ()))
    given = _call_template_args(src, call)
    out = []
    for types in instantiations(src, caller) if caller else [{}]:
        # the wrapper's type parameters are what the call names, in the caller's instantiation:
        # `RunTestLaunchKernel<T>(…)` inside `RunTest<float>` launches `reduce<float,256>`
        bound = {p: types.get(a, a) for p, a in zip(tparams, given, strict=False)}
        ev.types = {**types, **bound}
        if _never(ev, own, call.pos):
            continue  # if (block_size == 16) k<16><<<…>>> in a wrapper its caller calls with 32
        x = _resolve(src, ev, rel, template["kernel"], call.pos, call.line, sub, sargs, template["function"], req)
        x = replace(x, targs=bind_template_args(template.get("targs", ""), ev.types, set(tparams) - set(bound)))
        out.append(replace(x, launch_file=template["file"]) if template["file"] != rel else x)
    ev.types = {}
    return out


def _never(ev: Evaluator, conditions: list[str], pos: int) -> bool:
    """Whether one of the conditions a launch is made under is false at ``pos`` (with the command line's
    defaults): the program does not make that launch there.  The conditions must read at ``pos`` what they read
    where they stand (a wrapper's, over its parameters, at its call)."""
    for c in conditions:
        v = ev.int_value(c, pos)
        if v is not None and not v:
            return True
    return False


def _call_template_args(src: CSource, call: Call) -> list[str]:
    """The explicit template arguments of a call, ``launch<T, 256>(…)`` -> ``["T", "256"]``."""
    m = re.match(rf"(?:[\w:]*::)?\s*{re.escape(call.name)}\s*<([^<>;()]*)>\s*\(", src.code[call.pos:call.pos + 400])
    return [a.strip() for a in m.group(1).split(",")] if m else []


def cuda_launches_of(extra: dict, kernel: str | None) -> list[CudaLaunch]:
    """The launches of ``kernel`` (every kernel's for ``None``) stored in a host file's ``extra`` (see
    :data:`EXTRA_KEY`)."""
    out = []
    for row in extra.get(EXTRA_KEY, ()):
        if kernel is not None and row["kernel"] != kernel:
            continue
        d = dict(row)
        for k in ("grid", "block"):
            d[k] = tuple(d[k]) if d[k] is not None else None
        for k in ("grid_sym", "block_sym"):
            d[k] = tuple(d[k]) if d.get(k) is not None else None
        for k in ("args_text", "args", "buffer_lengths", "buffer_elem_bytes", "arg_sym", "requires", "defaults",
                  "instance", "arg_state", "through", "clang_lengths"):
            d[k] = tuple(d.get(k, ()))
        d["zeroed"] = tuple(d.get("zeroed", ()))
        d["contents"] = tuple(tuple(c) for c in d.get("contents", ()))
        d["symbols"] = tuple((n, o, _tuples(v)) for n, o, v in d.get("symbols", ()))
        d["priors"] = tuple(Prior.from_json(p) for p in d.get("priors", ()))
        out.append(CudaLaunch(**d))
    return out


def to_extra(launches: list[CudaLaunch]) -> dict:
    return {EXTRA_KEY: [asdict(x) for x in launches]} if launches else {}


# -- finding launches ---------------------------------------------------------------------------------

def _chevron_launches(src: CSource) -> list[tuple[str, int, list[str], list[str]]]:
    code, out = src.code, []
    blank = CHAR_LITERAL.sub(_spaces, STRING_LITERAL.sub(_spaces, code))  # `"k<<<,>>>(...)"` in a message: none
    for m in _LAUNCH.finditer(blank):
        close = _LAUNCH_END.search(code, m.end())
        if close is None:
            continue
        end = close.start()
        parts, _ = split_args(code[:end] + ")", m.end())
        rest = re.match(r"\s*\(", code[close.end():])
        if parts is None or rest is None:
            continue
        args, _ = split_args(code, close.end() + rest.end())
        if args is None:
            continue
        out.append((m.group(1).split("::")[-1], m.start(), _inlined(src, parts), _inlined(src, args)))
    return out


def _spaces(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


def _inlined(src: CSource, texts: list[str]) -> list[str]:
    """Calls of the file's one-return integer functions written out (``CAFFE_GET_BLOCKS(n)`` -> ``((n) + 512 - 1) /
    512``): a grid computed by such a function is a relation of the arguments, not a searched dim3."""
    functions = src.int_functions
    return [inline_calls(t, functions) for t in texts] if functions else texts


def _api_launches(src: CSource) -> list[tuple[str, int, list[str], list[str]]]:
    out = []
    for api in _API:
        for c in src.calls(api):
            if len(c.args) < 3:
                continue
            kernel = re.sub(r"^\(\s*(const\s+)?void\s*\*\s*\)|^reinterpret_cast<[^>]*>\(|[&()\s]", "", c.args[0])
            kernel = re.sub(r"<.*", "", kernel).split("::")[-1]
            parts = [c.args[1], c.args[2]] + ([c.args[4]] if len(c.args) > 4 else [])
            args = _arg_array(src, c.args[3], c.pos) if len(c.args) > 3 else []
            out.append((kernel, c.pos, parts, args))
    return out


def _arg_array(src: CSource, expr: str, pos: int) -> list[str]:
    """``void *args[] = {&a, &b}`` → ``['a', 'b']`` (what each slot points to)."""
    name = expr.strip().lstrip("(").rstrip(")")
    name = re.sub(r"^\s*void\s*\*\s*\*\s*\)\s*", "", name)
    init = Evaluator(src).definition(name, pos) if re.fullmatch(r"[A-Za-z_]\w*", name) else None
    if not init or not init.startswith("{"):
        return []
    items, _ = split_args(init, 1)
    return [re.sub(r"^\(\s*void\s*\*\s*\)\s*", "", i).lstrip("&").strip() for i in items or []]


def _substitute(text: str, bind: dict[str, str]) -> str:
    return re.sub(r"(?<![\w.>])[A-Za-z_]\w*", lambda m: f"({bind[m.group(0)]})" if m.group(0) in bind
                  else m.group(0), text)


# -- resolving ----------------------------------------------------------------------------------------

def _resolve(src: CSource, ev: Evaluator, rel: str, kernel: str, pos: int, line: int, parts: list[str],
             args: list[str], via: str, asserted: list[str] | None = None) -> CudaLaunch:
    ev.defaults.clear()
    grid_t = parts[0] if parts else ""
    block_t = parts[1] if len(parts) > 1 else ""
    shmem_t = parts[2] if len(parts) > 2 else "0"
    shmem = ev.int_value(shmem_t, pos)
    pointers = [_is_pointerish(src, a, pos) for a in args]
    values = tuple(ev.int_value(a, pos) if not p else None for a, p in zip(args, pointers, strict=True))
    lengths = [_buffer_length(src, ev, a, pos) for a in args]
    grid, block = dim3_value(ev, grid_t, pos), dim3_value(ev, block_t, pos)
    known = [d is not None and None not in d for d in (grid, block)]
    dims = [dim3_items(ev, t, pos) if not k else None for t, k in zip((grid_t, block_t), known, strict=True)]
    (grid_sym, block_sym), arg_sym, requires = launch_relations(
        ev, pos, dims, args, [v is not None or p for v, p in zip(values, pointers, strict=True)], asserted or [])
    defaults = tuple(sorted(ev.defaults))
    state = tuple(state_source(ev, pos, a) if v is None and not p else ""
                  for a, v, p in zip(args, values, pointers, strict=True))
    return CudaLaunch(rel, line, kernel, grid_t, grid, block_t, block, shmem_t, shmem, tuple(args), values,
                      tuple(x[0] for x in lengths), tuple(x[1] for x in lengths), via, grid_sym, block_sym, arg_sym,
                      requires=requires, defaults=defaults, arg_state=state if any(state) else ())


def dim3_items(ev: Evaluator, expr: str, pos: int, depth: int = 0) -> list[str] | None:
    """The component texts of a grid/block expression (see :func:`dim3_value`): ``dim3(a, b)`` -> ``[a, b, "1"]``,
    a ``dim3`` variable -> its initialiser's, anything else -> ``[expr]`` (an integer, if anything: its y and z
    are 1 once it is known to be arithmetic)."""
    e = unparen(expr)
    if not e or depth > 4:
        return None
    m = re.fullmatch(r"(?:dim3\s*)?[({](.*)[)}]", e, re.S)
    if m and e.startswith(("dim3", "{")):
        return dim3_parts(m.group(1))
    if re.fullmatch(r"[A-Za-z_]\w*", e) and e not in ev.src.macros and \
            re.search(rf"\bdim3\s+{re.escape(e)}\b", ev.src.code[:pos]):
        init = ev.definition(e, pos)
        if init is None:
            return None
        if init.startswith(("dim3", "{")):
            return dim3_items(ev, init, pos, depth + 1)
        return dim3_parts(init)
    if re.search(r"[A-Za-z_]\w*\s*\(", e):
        return None  # a call may return a dim3 (darknet's cuda_gridsize(n)): its y and z are not known to be 1
    return [e]


def dim3_value(ev: Evaluator, expr: str, pos: int, depth: int = 0) -> Dim | None:
    """A grid/block expression's three extents: an integer, ``dim3(a, b, c)``, ``{a, b}`` or a dim3 variable."""
    e = unparen(expr)
    if not e or depth > 4:
        return None
    m = re.fullmatch(r"(?:dim3\s*)?[({](.*)[)}]", e, re.S)
    if m and (e.startswith(("dim3", "{"))):
        return _dims(ev, dim3_parts(m.group(1)), pos)
    if re.fullmatch(r"[A-Za-z_]\w*", e) and e not in ev.src.macros:
        init = ev.definition(e, pos)
        decl = re.search(rf"\bdim3\s+{re.escape(e)}\b", ev.src.code[:pos])
        if init is not None and decl:
            if re.search(rf"(?<![\w.>]){re.escape(e)}\s*\.\s*[xyz]\s*=(?!=)", ev.src.code[decl.end():pos]):
                dims = tuple(ev.int_value(f"{e}.{axis}", pos) for axis in "xyz")  # g.y = 2 after dim3 g(8, 8)
                return dims if None not in dims else None  # type: ignore[return-value]
            if init.startswith(("dim3", "{")):
                return dim3_value(ev, init, pos, depth + 1)
            return _dims(ev, dim3_parts(init), pos)
        if decl and init is None:
            return (1, 1, 1)
    v = ev.int_value(e, pos)
    return (v, 1, 1) if v is not None else None


def _dims(ev: Evaluator, items: list[str] | None, pos: int) -> Dim | None:
    """The values of a dim3's three components (:func:`~simu.host.cscan.dim3_parts`), each None when not constant."""
    if items is None:
        return None
    vals = [ev.int_value(i, pos) for i in items]
    return (vals[0], vals[1], vals[2])


# a pointer to a container's elements: X.data(), &X[0], thrust::raw_pointer_cast(X.data()) / (&X[0])
_CONTAINER_DATA = re.compile(r"(?:(?:thrust::)?raw_pointer_cast\s*\(\s*)?&?\s*([A-Za-z_]\w*)\s*(?:\.\s*data\s*\(\s*\)|"
                             r"\[\s*0\s*\])\s*\)?")


def _is_pointerish(src: CSource, expr: str, pos: int) -> bool:
    e = unparen(expr)
    if e.startswith("&") or "raw_pointer_cast" in e or e.endswith(".data()"):
        return True
    return bool(re.fullmatch(r"[A-Za-z_]\w*", e) and _allocation(src, e, pos))


_ALLOC = (
    (r"cuda(?:Malloc|MallocManaged)\s*\(\s*(?:\(\s*\w+\s*\*\s*\*\s*\)\s*)?&\s*{v}\s*,", "call"),
    (r"(?<![\w.>]){v}\s*=\s*(?:\(\s*[\w\s]+\*\s*\)\s*)?malloc\s*\(", "malloc"),
    (r"(?<![\w.>]){v}\s*=\s*new\s+([\w:]+)\s*\[", "new"),
)


def _allocation(src: CSource, var: str, pos: int) -> tuple[str, str | None] | None:
    """(size text, element type for ``new``) of the last allocation of ``var`` before ``pos``."""
    best: tuple[int, str, str | None] | None = None
    code = src.code
    for pat, kind in _ALLOC:
        for m in re.finditer(pat.format(v=re.escape(var)), code[:pos]):
            if kind == "new":
                end = code.find("]", m.end())
                size, elem = code[m.end():end], m.group(1)
            else:
                args, _ = split_args(code, m.end())
                if not args:
                    continue
                size, elem = args[-1] if kind == "malloc" else args[0], None
            if best is None or m.start() > best[0]:
                best = (m.start(), size.strip(), elem)
    return (best[1], best[2]) if best else None


def _buffer_length(src: CSource, ev: Evaluator, expr: str, pos: int) -> tuple[int | str | None, int | None]:
    """(length, element bytes) allocated for a pointer argument: ``n * sizeof(float)`` -> (n, 4); a size
    without ``sizeof`` is in bytes (element bytes ``None``); the length stays an expression when not constant."""
    var = unparen(expr)
    held = _CONTAINER_DATA.fullmatch(var)
    if held:  # thrust::raw_pointer_cast(d.data()), &v[0], v.data(): the container's size
        found = ev.container(held.group(1), pos)
        return ev.element_count(found[0], pos, found[1]) if found is not None else (None, None)
    if not re.fullmatch(r"[A-Za-z_]\w*", var):
        return None, None
    alloc = _allocation(src, var, pos)
    if alloc is None:
        return None, None
    size, elem = alloc
    return ev.element_count(size, pos, elem)


def _tuples(v: Any) -> Any:
    """JSON's lists back as the tuples a launch holds (nested)."""
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v
