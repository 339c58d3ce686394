"""The facts a function's reading gives (:mod:`simu.host.ast.facts`): its launches, calls and writes, frozen and
JSON-able (:mod:`simu.host.ast.scope` caches them per file)."""

from __future__ import annotations

from dataclasses import dataclass

from simu.host.ast.expr import Expr

Condition = tuple[Expr, bool]  # an expression and whether it holds (True) or not (False)


@dataclass(frozen=True)
class LaunchFact:
    line: int
    kernel: str
    callee_text: str  # ``reduce<float, 256>``
    grid: Expr
    block: Expr
    shmem: Expr
    args: tuple[Expr, ...]
    args_text: tuple[str, ...]
    conditions: tuple[Condition, ...]
    signature: str = ""  # the kernel's type as this launch instantiates it (``void (double *)``)
    later: bool = False  # made on a while loop's later pass: what is unknown varies, no text reader's value holds
    # a kernel the launching function takes as a parameter (``kernel<<<…>>>(n, args...)`` in a launch helper):
    # each call passes its own (simu.host.ast.launches)
    kernel_param: Expr | None = None
    # the kernel instantiation it launches, its template arguments as clang instantiated them (``float,256,3,0``),
    # inside a function template whose instantiations share the launch's text (``k<T, N>`` in ``run<N>``)
    kernel_targs: str = ""


@dataclass(frozen=True)
class CallFact:
    line: int
    callee: str
    args: tuple[Expr, ...]
    conditions: tuple[Condition, ...]
    signature: str = ""  # the callee's type (``void (int, double *)``): which template instantiation it calls
    # the declaration it calls, by its id in the file's dump: which instantiation of a template whose instantiations
    # share a type (``run<3>`` and ``run<7>`` of ``template <int N> void run(double *)``)
    callee_decl: str = ""


@dataclass(frozen=True)
class FunctionFacts:
    name: str
    file: str
    line: int
    params: tuple[str, ...]
    launches: tuple[LaunchFact, ...] = ()
    calls: tuple[CallFact, ...] = ()
    writes: tuple[tuple[str, str, Expr], ...] = ()  # (record, field, value); record "::" for a global
    returns: Expr | None = None
    signature: str = ""  # its type, as calls name it (``void (int, double *)`` for ``f<double>``)
    copies: tuple[tuple[int, Expr, str, Expr], ...] = ()  # (line, device pointer, fill): simu.host.ast.contents
    param_fills: tuple[tuple[int, str, Expr], ...] = ()  # (parameter, kind, value): what it fills a caller's array with
    instance_decl: str = ""  # a template instantiation's id in its file's dump (CallFact.callee_decl); "" otherwise
    defaults: tuple[Expr | None, ...] = ()  # each parameter's default argument (``uint32_t t = 128``), None: none
