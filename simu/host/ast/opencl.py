"""The OpenCL host API read through clang: what ``clSetKernelArg`` and ``clEnqueueNDRangeKernel`` are given (and
what CUDA's ``cudaMemcpyToSymbol`` copies, read the same way).

Both calls are ordinary :class:`~simu.host.ast.facts.CallFact`\\ s; what they pass goes behind pointers, so their
arguments are read as what the pointers point to at the call: ``clSetKernelArg(k, 1, sizeof(int), &n)`` gives the
value ``n`` holds there (a local, a parameter, a struct field, a global), ``clEnqueueNDRangeKernel(q, k, 2, NULL,
global, &local, …)`` gives the NDRange's sizes as :class:`~simu.host.ast.expr.Items` (an array local's initialiser,
``&g`` of a scalar as one item, ``&a[0]`` as the array).  The C++ bindings' calls (simu's ``CL/opencl.hpp``, also
``CL/cl2.hpp`` and ``CL/cl.hpp``) are read as the C calls they make (:func:`wrapper_api`): ``k.setArg(i, n)`` as
``clSetKernelArg(k, i, size, &n)``, ``q.enqueueNDRangeKernel(k, offset, cl::NDRange(g0, g1), local)`` as
``clEnqueueNDRangeKernel(q, k, 2, offset, {g0, g1}, local)``; ``cl::NullRange`` is no array of sizes.

The calls' arguments are read before their own side effects, as C passes them: ``clSetKernelArg(k, i++, …)`` sets
argument ``i``, not ``i + 1``; a pointer to ``const`` is not written by the callee (the API's pointers all are)."""

from __future__ import annotations

import re
from typing import Any

from simu.host.ast.expr import Call, Const, Expr, Field, Items, Unknown
from simu.host.ast.nodes import Node, arithmetic_kind, callee_name, kids, qual_type, record_name, referenced, strip

SET_ARG = "clSetKernelArg"
ENQUEUE = "clEnqueueNDRangeKernel"
CALLS = frozenset({SET_ARG, ENQUEUE})
CREATE_BUFFER = "clCreateBuffer"  # (context, flags, bytes, host pointer, error)
# what the host copies into a __constant__/__device__ variable: (symbol, source, bytes, offset, kind)
SYMBOL_COPIES = frozenset({"cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"})
# argument positions holding a pointer whose target is the value: clSetKernelArg's value, the NDRange's sizes,
# what cudaMemcpyToSymbol copies
_POINTED = {SET_ARG: (3,), ENQUEUE: (4, 5), **dict.fromkeys(SYMBOL_COPIES, (1,))}
_CASTS = {"ImplicitCastExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "CXXConstCastExpr",
          "ParenExpr"}
_CONST_POINTER = re.compile(r"const\b[^*]*\*")
# the C++ bindings' methods read as C calls: method -> (the C call, the class that has it)
_WRAPPED = {"setArg": (SET_ARG, "Kernel"), "enqueueNDRangeKernel": (ENQUEUE, "CommandQueue")}
_BINDINGS_CLASS = re.compile(r"\bcl::(\w+)")
_UNTYPED_MEMBER = "CXXDependentScopeMemberExpr"
NDRANGE = "NDRange"  # cl::NDRange(g0, g1): the sizes of one NDRange, as many as it has dimensions
_NULL_RANGE = Unknown("cl::NullRange: the sizes the implementation picks")


def api_name(name: str) -> str:
    """The OpenCL call a wrapper of the same signature stands for: a profiling layer's macro that renames the API
    (``#define clEnqueueNDRangeKernel pb_clEnqueueNDRangeKernel``) passes what the program gives the API."""
    for api in CALLS:
        if name.endswith("_" + api):
            return api
    return name


def call_args(reader: Any, node: Node, st: Any) -> tuple[Expr, ...] | None:
    """The arguments of a call to a named function as the callee receives them (read before the call's own side
    effects: ``f(i++)`` passes ``i``); an OpenCL API call's pointers read as what they point to.  ``None`` for a
    call through an expression or a member (no :class:`CallFact` is made for it)."""
    inner = kids(node)
    api = wrapper_api(node)
    if api is not None:
        return _wrapper_args(reader, node, st, api)
    if not inner or strip(inner[0]).get("kind") not in ("DeclRefExpr", "UnresolvedLookupExpr"):
        return None
    args = [reader.expr(a, st) for a in inner[1:]]
    name = api_name(callee_name(node))
    for i in _POINTED.get(name, ()):
        if i < len(args):
            args[i] = pointee(reader, inner[1 + i], st, scalar=name == SET_ARG)
    return tuple(args)


def wrapper_api(node: Node) -> str | None:
    """The C call a call of the C++ bindings makes: ``k.setArg(…)`` of a ``cl::Kernel`` -> ``clSetKernelArg``,
    ``q.enqueueNDRangeKernel(…)`` of a ``cl::CommandQueue`` -> ``clEnqueueNDRangeKernel``; ``None`` for another."""
    inner = kids(node)
    if node.get("kind") in ("RecoveryExpr", "CallExpr") and len(inner) > 2 and inner[0].get("kind") == _UNTYPED_MEMBER:
        # the object's type is lost (a header the checkout lacks declares it): the method and its kernel say it
        wrapped = _WRAPPED.get(inner[0].get("member", ""))
        kernel = _BINDINGS_CLASS.search(qual_type(strip(inner[1])))
        return wrapped[0] if wrapped and (wrapped[0] == SET_ARG or kernel and kernel.group(1) == "Kernel") else None
    member = strip(inner[0]) if node.get("kind") == "CXXMemberCallExpr" and inner else {}
    wrapped = _WRAPPED.get(member.get("name", "")) if member.get("kind") == "MemberExpr" else None
    if wrapped is None or not kids(member):
        return None
    owner = _BINDINGS_CLASS.search(qual_type(kids(member)[0]))
    return wrapped[0] if owner is not None and owner.group(1) == wrapped[1] else None


def _wrapper_args(reader: Any, node: Node, st: Any, api: str) -> tuple[Expr, ...]:
    """A bindings call's arguments in the C call's order: ``(kernel, index, size, value)`` for ``setArg`` (a value
    of a class type, a memory object, is no number), ``(queue, kernel, dimensions, offset, global, local)`` for
    ``enqueueNDRangeKernel`` (its dimensions the global NDRange's)."""
    method = strip(kids(node)[0])
    this = reader.expr(kids(method)[0], st) if kids(method) else Unknown("an object of unknown type")
    given = [a for a in kids(node)[1:] if a.get("kind") != "CXXDefaultArgExpr"]
    values = [reader.expr(a, st) for a in given]
    if api == SET_ARG:
        if len(given) == 3:  # setArg(index, size, pointer)
            return (this, values[0], values[1], pointee(reader, given[2], st, scalar=True))
        if len(given) != 2:
            return (this,)
        number = arithmetic_kind(qual_type(given[1]))[0]
        return (this, values[0], Unknown("the value's size"), values[1] if number else Unknown("not a number"))
    sizes = [_NULL_RANGE if _null_range(a) else v for a, v in zip(given[2:4], values[2:4], strict=True)]
    sizes += [_NULL_RANGE] * (2 - len(sizes))
    dims = Const(len(sizes[0].items)) if isinstance(sizes[0], Items) else Unknown("the NDRange's dimensions")
    return (this, values[0] if values else Unknown("no kernel"), dims, values[1] if len(values) > 1 else Const(0),
            *sizes)


def ndrange_copy(arg: Node) -> bool:
    """Whether an ``NDRange`` constructor's argument is an ``NDRange`` (a copy), not a size."""
    return record_name(qual_type(strip(arg))) == NDRANGE


def _null_range(arg: Node) -> bool:
    n = _uncast(arg)
    return n.get("kind") == "DeclRefExpr" and referenced(n).get("name") == "NullRange"


def written_through(arg: Node) -> bool:
    """Whether the callee may write what an argument ``&x`` points to: not through a pointer to ``const``."""
    return not (arg.get("kind") == "ImplicitCastExpr" and _CONST_POINTER.fullmatch(qual_type(arg, False).strip()))


def pointee(reader: Any, arg: Node, st: Any, scalar: bool) -> Expr:
    """What a pointer argument points to at the call: ``&n`` -> ``n``'s value (``scalar``: a kernel argument, only
    of arithmetic type) or one item (an NDRange size); an array (``global``, ``&a[0]``, ``&a``) -> its items."""
    n = _uncast(arg)
    if n.get("kind") == "UnaryOperator" and n.get("opcode") == "&" and kids(n):
        target = strip(kids(n)[0])
        if target.get("kind") == "ArraySubscriptExpr" and len(kids(target)) == 2 and not scalar:
            index = reader.expr(kids(target)[1], st)
            if getattr(index, "value", None) == 0:
                return _items(reader.expr(kids(target)[0], st))  # &a[0]: the array
            return Unknown("sizes from inside an array")
        if not arithmetic_kind(qual_type(target))[0]:
            value = reader.expr(target, st)  # &a of an array: its items
            if scalar and isinstance(value, Call) and value.function == CREATE_BUFFER:
                return value  # a buffer: its allocation, whose size is the kernel's buffer length
            if not isinstance(value, Items) and not scalar and target.get("kind") == "DeclRefExpr":
                value = _fields_of(reader, target, st) or value
            return value if isinstance(value, Items) and not scalar else Unknown("not the address of a number")
        value = reader.expr(target, st)
        return value if scalar else Items((value,))
    if scalar:
        return Unknown("a kernel argument not given as '&value'")
    return _items(reader.expr(n, st))


def _fields_of(reader: Any, ref: Node, st: Any) -> Items | None:
    """``&p`` of a struct of numbers and pointers: its fields in order, each as this function last assigned it
    (``p.n = …``), else as the program assigns that field anywhere."""
    record = record_name(qual_type(ref, desugared=False))
    names = reader.records.fields.get(record)
    if not names:
        return None
    local = referenced(ref).get("id")
    return Items(tuple(st.env.get((local, f)) or Field(record, f, ref.get("name", "")) for f in names))


def _items(e: Expr) -> Expr:
    """An NDRange size array, or why it is not one (a null pointer: the local size the implementation picks)."""
    return e if isinstance(e, Items) else Unknown("not an array of sizes")


def _uncast(node: Node) -> Node:
    n = node
    while n.get("kind") in _CASTS and kids(n):
        n = kids(n)[0]
    return strip(n)
