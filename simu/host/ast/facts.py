"""What one host file's functions do, read from clang's AST: the CUDA launches they make, the program functions they
call, the struct fields and globals they assign, and what they return, each written as an :mod:`expression
<simu.host.ast.expr>` of the function's parameters, fields, globals and constants (locals written out along the
function's statements: a ``dim3`` set member by member, an array initialiser, a loop counter's range, a variable
assigned in branches).  Each launch and call keeps the conditions that hold where it is made (the branches holding
it, the ``if (…) return;`` and ``assert``\\ s before it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simu.host.ast import contents, device, opencl
from simu.host.ast import expr as exprs
from simu.host.ast.device import QUERIES
from simu.host.ast.expr import (
    Call,
    Cast,
    Choice,
    Cond,
    Const,
    Counter,
    Element,
    Expr,
    Field,
    Function,
    Items,
    Loop,
    Op,
    Param,
    Unknown,
    distinct_texts,
    functions_in,
)
from simu.host.ast.factdata import CallFact, Condition, FunctionFacts, LaunchFact
from simu.host.ast.layout import Records, sized
from simu.host.ast.nodes import (
    Node,
    arithmetic_kind,
    assigned,
    callee_name,
    calls_any,
    kids,
    kind_of_callee,
    offsets,
    plain_assignments,
    pointer_type,
    position,
    qual_type,
    record_name,
    referenced,
    signature,
    start,
    strip,
)
from simu.host.ast.outputs import written_targets

_ASSERT_CALLS = {"__assertfail", "__assert_fail", "__assert_rtn", "_wassert", "__assert", "__assert_func",
                 "__builtin_trap"}
_LEAVES = {"exit", "abort", "_exit", "quick_exit"}
_API_LAUNCHES = {"cudaLaunchKernel", "cudaLaunchCooperativeKernel"}
_DIM3 = {"dim3", "uint3", "struct dim3"}
_SIZES = {"dim3", "uint3", opencl.NDRANGE}  # the records of sizes the reader gives values
MAX_DEPTH = 40  # nesting of one expression
MAX_NODES = 400  # nodes of one expression written out as a tree (shared subtrees counted each time)


@dataclass
class _State:
    env: dict[Any, Expr] = field(default_factory=dict)
    conditions: list[Condition] = field(default_factory=list)
    left: bool = False  # the path has returned

    def copy(self) -> _State:
        return _State(dict(self.env), list(self.conditions), self.left)


class FunctionReader:
    """Reads one function body statement by statement (see the module docstring)."""

    def __init__(self, fn: Node, name: str, file: str, text: str, enums: dict[str, int],
                 records: Records | None = None, instances: dict[str, str] | None = None):
        self.fn, self.name, self.file, self.text, self.enums = fn, name, file, text, enums
        self.instances = instances or {}  # a function template instantiation's id -> its template arguments
        self.later = False  # reading a while loop's later pass (loop_stmt)
        self.records = records or Records({}, {})  # the program's structs (simu.host.ast.layout)
        self.extents: dict[int, tuple[Expr, int, int]] = {}  # each expression node's size, computed once
        params = [p for p in kids(fn) if p.get("kind") == "ParmVarDecl"]
        self.params = {p.get("id"): (i, p.get("name", f"p{i}")) for i, p in enumerate(params)}
        self.param_names = tuple(p.get("name", f"p{i}") for i, p in enumerate(params))
        self.launches: list[LaunchFact] = []
        self.calls: list[CallFact] = []
        self.writes: list[tuple[str, str, Expr]] = []
        self.returns: list[tuple[Expr, tuple]] = []  # each return's value and the conditions that hold there
        self.fills = contents.Fills()  # host arrays' element writes and their copies to the device

    def read(self) -> FunctionFacts:
        body = next((k for k in kids(self.fn) if k.get("kind") == "CompoundStmt"), None)
        if body is not None:
            self.stmt(body, _State())
        return FunctionFacts(self.name, self.file, self.line(self.fn), self.param_names, tuple(self.launches),
                             tuple(self.calls), tuple(self.writes), exprs.returned(self.returns), signature(self.fn),
                             self.fills.copies(), self.fills.param_fills(self.params), _instance_decl(self.fn),
                             self._defaults())

    def _defaults(self) -> tuple[Expr | None, ...]:
        """Each parameter's default argument, for calls clang leaves unresolved in a template's body (no defaults)."""
        out = tuple(self.expr(kids(p)[-1], _State()) if p.get("init") and kids(p) else None
                    for p in kids(self.fn) if p.get("kind") == "ParmVarDecl")
        return out if any(d is not None for d in out) else ()

    # --- statements -----------------------------------------------------------------------------------------
    def stmt(self, node: Node, st: _State) -> None:
        if st.left or not node:
            return
        kind = node.get("kind")
        if kind == "CompoundStmt":
            for s in kids(node):
                self.stmt(s, st)
        elif kind == "DeclStmt":
            for d in kids(node):
                if d.get("kind") == "VarDecl":
                    self.declare(d, st)
        elif kind == "IfStmt":
            self.if_stmt(node, st)
        elif kind == "ForStmt":
            self.for_stmt(node, st)
        elif kind == "DoStmt" and len(kids(node)) == 2 and exprs.uncast(self.expr(kids(node)[1], st)) == Const(0):
            self.stmt(kids(node)[0], st)  # do { … } while (0), a macro's statement (CHECK(cudaMalloc(&p, n))): once
        elif kind in ("WhileStmt", "DoStmt", "CXXForRangeStmt"):
            self.loop_stmt(node, st)
        elif kind == "SwitchStmt":
            self.switch_stmt(node, st)
        elif kind == "ReturnStmt":
            inner = kids(node)
            if inner:
                self.effects(inner[0], st)
                self.returns.append((self.expr(inner[0], st), tuple(st.conditions)))
            st.left = True
        elif kind in ("BreakStmt", "ContinueStmt"):
            st.left = True
        elif kind in ("AttributedStmt", "LabelStmt", "CaseStmt", "DefaultStmt"):
            for s in kids(node):
                self.stmt(s, st)
        elif strip(node).get("kind") == "ConditionalOperator":
            self.maybe_assert(strip(node), st)
        else:
            self.effects(node, st)

    def declare(self, d: Node, st: _State) -> None:
        init = kids(d)
        key = d.get("id")
        qt = qual_type(d)
        if init:
            self.effects(init[-1], st)
            st.env[key] = self.expr(init[-1], st)
        elif qt.replace("struct ", "") in _DIM3:
            st.env[key] = Items((Const(1), Const(1), Const(1)))
        else:
            st.env[key] = exprs.unset(d.get("name", ""))

    def if_stmt(self, node: Node, st: _State) -> None:
        inner = node.get("inner", [])
        i = (1 if node.get("hasInit") else 0) + (1 if node.get("hasVar") else 0)
        if node.get("hasInit"):
            self.stmt(inner[0], st)
        cond_node = inner[i]
        self.effects(cond_node, st)
        cond = self.expr(cond_node, st)
        then = st.copy()
        then.conditions.append((cond, True))
        self.stmt(inner[i + 1], then)
        other = st.copy()
        other.conditions.append((cond, False))
        if node.get("hasElse") and len(inner) > i + 2:
            self.stmt(inner[i + 2], other)
        self.join(st, [then, other])

    def join(self, st: _State, arms: list[_State]) -> None:
        """The state after branches: the arms that go on; a variable they leave different is a choice of them."""
        going = [a for a in arms if not a.left]
        if not going:
            st.left = True
            return
        if len(going) == 1:
            st.env, st.conditions = going[0].env, going[0].conditions
            return
        keys = set().union(*(a.env for a in going))
        env: dict[Any, Expr] = {}
        for k in keys:
            vals = [a.env.get(k, st.env.get(k, Unknown("unset"))) for a in going]
            env[k] = vals[0] if all(v == vals[0] for v in vals) else Choice(tuple(dict.fromkeys(vals)))
        st.env = env

    def for_stmt(self, node: Node, st: _State) -> None:
        inner = node.get("inner", [])
        init, cond, inc, body = (inner + [{}] * 5)[0], (inner + [{}] * 5)[2], (inner + [{}] * 5)[3], \
            (inner + [{}] * 5)[4]
        if init:
            self.stmt(init, st)
        counter = _counter(init)
        body_state = st.copy()
        if counter is not None and counter in st.env and cond and inc:
            test = self.expr(cond, _with(st, counter, Counter()))
            step = _step(self, inc, counter, st)
            if step is not None:
                body_state.env[counter] = Loop(st.env[counter], test, step)
        self.stmt(body, body_state)
        self.forget(st, [init, cond, inc, body], node)

    def loop_stmt(self, node: Node, st: _State) -> None:
        body, first = [k for k in kids(node) if k.get("kind") == "CompoundStmt" or k is kids(node)[-1]], st.copy()
        for k in body:
            self.stmt(k, first)
        self.forget(st, kids(node), node)
        later = st.copy()  # a while loop's second pass: what the first changed (``cudaMemcpy(&n, …)``) as it left it
        later.env.update({key: v for key, v in first.env.items() if st.env.get(key, v) != v})
        self.later, outer = node.get("kind") in ("WhileStmt", "DoStmt"), self.later
        for k in body if self.later else ():
            self.stmt(k, later)
        self.later = outer

    def forget(self, st: _State, parts: list[Node], loop: Node) -> None:
        """After a loop, what its body assigns has no one value; but a variable the loop only sets to constants
        (``if (flag == "-s") page_size = FOUR_KB;`` in an option loop) is one of those or its value before."""
        before = dict(st.env)
        for key, name in assigned(parts).items():  # each its own unknown: two of them are not one value
            if key in st.env or isinstance(key, tuple):
                st.env[key] = exprs.changed_in_loop(name, self.line(loop))
        for key, sides in plain_assignments(parts).items():
            if sides is None or not exprs.constant(before.get(key, Unknown(""))):
                continue
            values = [self.expr(side, st) for side in sides]
            if all(exprs.constant(v) for v in values):
                st.env[key] = Choice(tuple(dict.fromkeys([before[key], *values])))

    def switch_stmt(self, node: Node, st: _State) -> None:
        inner = kids(node)
        subject = self.expr(inner[0], st) if inner else Unknown("switch")
        body = inner[-1] if inner else {}
        arms: list[tuple[Expr | None, list[Node]]] = []
        for s in kids(body) if body.get("kind") == "CompoundStmt" else [body]:
            if s.get("kind") in ("CaseStmt", "DefaultStmt"):
                value = self.expr(kids(s)[0], st) if s.get("kind") == "CaseStmt" and kids(s) else None
                arms.append((value, [kids(s)[-1]] if kids(s) else []))
            elif arms:
                arms[-1][1].append(s)
        states = []
        for value, stmts in arms:
            a = st.copy()
            if value is not None:
                a.conditions.append((Op("==", (subject, value)), True))
            for s in stmts:
                self.stmt(s, a)
            a.left = False  # a break ends the arm, not the function (a return inside is rare enough)
            states.append(a)
        if not any(v is None for v, _ in arms):
            states.append(st.copy())
        self.join(st, states)

    def maybe_assert(self, node: Node, st: _State) -> None:
        inner = kids(node)
        if len(inner) == 3 and calls_any(inner[2], _ASSERT_CALLS):
            st.conditions.append((self.expr(inner[0], st), True))
        else:
            self.effects(node, st)

    def effects(self, node: Node, st: _State) -> None:
        kind = node.get("kind")
        if kind in ("LambdaExpr", "DeclStmt"):
            return
        if kind == "CUDAKernelCallExpr":
            self.launch(node, st)
            return
        calling = kind in ("CallExpr", "CXXMemberCallExpr", "CXXOperatorCallExpr") or \
            kind == "RecoveryExpr" and opencl.wrapper_api(node) is not None
        args = opencl.call_args(self, node, st) if calling else None  # before their effects: f(i++) passes i
        for k in kids(node):
            self.effects(k, st)
        if kind == "BinaryOperator" and node.get("opcode") == "=":
            lhs, rhs = kids(node)[:2]
            self.assign(lhs, self.expr(rhs, st), st)
        elif kind == "CompoundAssignOperator":
            lhs, rhs = kids(node)[:2]
            op = node.get("opcode", "+=")[:-1]
            k, bits = arithmetic_kind(qual_type(lhs))
            self.assign(lhs, Op(op, (self.expr(lhs, st), self.expr(rhs, st)), k or "i", bits or 32), st)
        elif kind == "UnaryOperator" and node.get("opcode") in ("++", "--"):
            target = kids(node)[0]
            k, bits = arithmetic_kind(qual_type(target))
            self.assign(target, Op("+" if node["opcode"] == "++" else "-", (self.expr(target, st), Const(1)),
                                   k or "i", bits or 32), st)
        elif kind == "CXXOperatorCallExpr" and callee_name(node) == "operator=" and len(kids(node)) == 3 and \
                record_name(qual_type(kids(node)[1])) in _SIZES:  # grid = dim3(n / 256); global = NDRange(n)
            self.assign(kids(node)[1], self.expr(kids(node)[2], st), st)
        elif calling:
            self.call(node, st, args)

    def call(self, node: Node, st: _State, args: tuple[Expr, ...] | None = None) -> None:
        name = callee_name(node)
        if name in _LEAVES:
            st.left = True
            return
        if (api := opencl.wrapper_api(node)) is not None and args is not None:  # k.setArg(i, n) of the C++ bindings
            self.calls.append(CallFact(self.line(node), api, args, tuple(st.conditions)))
            return
        if not name or kind_of_callee(node) not in ("DeclRefExpr", "UnresolvedLookupExpr"):
            return
        args = args if args is not None else tuple(self.expr(a, st) for a in kids(node)[1:])
        for target in written_targets(node):  # a pointer or reference argument may be written by the callee
            self.assign(target, exprs.written(self.source(target), name, self.line(node)), st)
        if name in QUERIES and (answer := device.answer(name, kids(node)[1:], self.source)) is not None:
            self.assign(answer[0], answer[1], st)  # a device attribute the program asks for: the reference GPU's
        self.fills.call(name, kids(node)[1:], args, self.line(node),
                        self.expr(node, st) if name == opencl.CREATE_BUFFER else None)
        callee = referenced(strip(kids(node)[0]))
        self.calls.append(CallFact(self.line(node), opencl.api_name(name), args, tuple(st.conditions),
                                   signature(callee), callee.get("id", "")))
        if name in _API_LAUNCHES and len(args) >= 3:  # its grid and block; the argument slots stay the text's
            for kernel in exprs.functions_in(args[0]):
                self.launches.append(LaunchFact(self.line(node), kernel, kernel, args[1], args[2],
                                                args[4] if len(args) > 4 else Const(0), (), (), tuple(st.conditions)))

    def launch(self, node: Node, st: _State) -> None:
        inner = kids(node)
        if len(inner) < 2:
            return
        callee = strip(inner[0])
        ref = referenced(callee)
        names = [ref.get("name") or callee.get("name", "")]
        held = None
        if ref.get("kind") != "FunctionDecl" and callee.get("kind") != "UnresolvedLookupExpr":
            held = self.expr(callee, st)
            names = functions_in(held) or names  # a kernel through a pointer or a table
        config = kids(inner[1])[1:]
        parts = [self.expr(c, st) for c in config] + [Const(0)] * (3 - len(config))
        args = inner[2:]
        for a in args:
            self.effects(a, st)
        values = tuple(self.expr(a, st) for a in args)
        texts = distinct_texts([self.source(a) for a in args], values)
        for name in names:
            self.launches.append(LaunchFact(self.line(node), name, self.source(inner[0]), parts[0], parts[1],
                                            parts[2], values, texts, tuple(st.conditions),
                                            signature(ref) if len(names) == 1 else "", self.later,
                                            held if isinstance(held, Param) else None,
                                            self.instances.get(ref.get("id", ""), "")))

    def assign(self, lhs: Node, value: Expr, st: _State) -> None:
        target = strip(lhs)
        kind = target.get("kind")
        if kind == "DeclRefExpr":
            ref = referenced(target)
            key = ref.get("id")
            if key in st.env or key in self.params:
                st.env[key] = value
            elif ref.get("kind") == "VarDecl":
                self.writes.append(("::", ref.get("name", ""), value))
        elif kind == "MemberExpr":
            base = strip(kids(target)[0]) if kids(target) else {}
            member = target.get("name", "")
            local = referenced(base).get("id") if base.get("kind") == "DeclRefExpr" else None
            if local is not None and isinstance(st.env.get(local), Items) and member in "xyz" and len(member) == 1:
                items = list(st.env[local].items) + [Const(1)] * 3  # type: ignore[union-attr]
                items["xyz".index(member)] = value
                st.env[local] = Items(tuple(items[:3]))
                return
            if local is not None and not target.get("isArrow"):
                st.env[(local, member)] = value
            record = record_name(qual_type(kids(target)[0], desugared=False)) if kids(target) else ""
            if record and record not in _DIM3:
                self.writes.append((record, member, value))
        elif kind == "ArraySubscriptExpr":
            base = strip(kids(target)[0])
            index = self.expr(kids(target)[1], st)
            self.fills.write(base, index, value, self.line(target), st.env.get(referenced(base).get("id")))
            if base.get("kind") == "DeclRefExpr" and (key := referenced(base).get("id")) in st.env:
                old = st.env[key]
                if isinstance(old, Items) and isinstance(index, Const) and 0 <= int(index.value) < len(old.items):
                    items = list(old.items)
                    items[int(index.value)] = value
                    st.env[key] = Items(tuple(items))
                elif isinstance(old, Items) or not pointer_type(base):  # p[i] = v leaves the pointer p as it was
                    st.env[key] = Unknown("an element assigned at an index not known here")

    def expr(self, node: Node, st: _State) -> Expr:
        """The expression a node computes, locals written out; one nested past :data:`MAX_DEPTH` or larger than
        :data:`MAX_NODES` is unknown (a variable rebuilt from itself in a long function)."""
        e = self._expr(node, st)
        depth, nodes = exprs.extent(e, self.extents)
        return e if depth <= MAX_DEPTH and nodes <= MAX_NODES else Unknown("an expression too large to follow")

    def _expr(self, node: Node, st: _State) -> Expr:  # noqa: C901 - one dispatch over node kinds
        if "value" in node and node.get("kind") == "ConstantExpr":
            return _literal(node["value"])
        n = strip(node)
        kind = n.get("kind")
        if kind in ("IntegerLiteral", "CharacterLiteral"):
            return Const(int(n.get("value", 0)))
        if kind == "FloatingLiteral":
            return Const(float(n.get("value", 0)))
        if kind == "CXXBoolLiteralExpr":
            return Const(1 if n.get("value") else 0)
        if kind == "DeclRefExpr":
            return self.ref(n, st)
        if kind == "UnresolvedLookupExpr" and n.get("name") and n.get("lookups") and all(
                d.get("kind") in ("FunctionDecl", "FunctionTemplateDecl") for d in n["lookups"]):
            return Function(n["name"])  # `k<T>` in a template's body: the kernel a launch helper is passed
        if kind in ("ImplicitCastExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXFunctionalCastExpr"):
            k, bits = arithmetic_kind(qual_type(n))
            inner = self.expr(kids(n)[0], st) if kids(n) else Unknown("cast")
            if kind == "CXXFunctionalCastExpr" and not k:
                return inner
            return Cast(k, bits, inner) if k else inner
        if kind == "BinaryOperator":
            op = n.get("opcode", "")
            a, b = (self.expr(x, st) for x in kids(n)[:2])
            if op == ",":
                return b
            if op == "=":
                return b
            k, bits = _operand_kind(n, kids(n))
            return Op(op, (a, b), k, bits)
        if kind == "UnaryOperator":
            op = n.get("opcode", "")
            if op in ("-", "+", "!", "~"):
                k, bits = arithmetic_kind(qual_type(n))
                return Op("neg" if op == "-" else op, (self.expr(kids(n)[0], st),), k or "i", bits or 32)
            if op in ("++", "--") and not n.get("isPostfix"):
                return Op("+" if op == "++" else "-", (self.expr(kids(n)[0], st), Const(1)))
            if op in ("++", "--"):
                return self.expr(kids(n)[0], st)
            if op == "&" and referenced(strip(kids(n)[0])).get("kind") == "FunctionDecl":
                return self.expr(kids(n)[0], st)  # &kernel
            return Unknown(f"'{op}' of a value")
        if kind == "ConditionalOperator":
            c, a, b = (self.expr(x, st) for x in kids(n)[:3])
            return Cond(c, a, b)
        if kind == "MemberExpr":
            return self.member(n, st)
        if kind == "ArraySubscriptExpr":
            return Element(self.expr(kids(n)[0], st), self.expr(kids(n)[1], st))
        if kind in ("CXXConstructExpr", "CXXTemporaryObjectExpr"):
            args = kids(n)
            drawn = contents.distribution(qual_type(n, False))
            if drawn is not None and len(args) >= 2:  # std::uniform_int_distribution<int> d(0, n - 1)
                return Call(drawn, tuple(self.expr(a, st) for a in args[:2]))
            if record_name(qual_type(n)) == opencl.NDRANGE and not (args and opencl.ndrange_copy(args[0])):
                return Items(tuple(self.expr(a, st) for a in args if a.get("kind") != "CXXDefaultArgExpr"))
            if record_name(qual_type(n)) in ("dim3", "uint3") or qual_type(n, False) in _DIM3:
                if len(args) == 1 and record_name(qual_type(strip(args[0]))) in ("dim3", "uint3"):
                    return self.expr(args[0], st)
                vals = [Const(1) if a.get("kind") == "CXXDefaultArgExpr" else self.expr(a, st) for a in args[:3]]
                vals += [Const(1)] * 3  # dim3(n): y and z default to 1
                return Items(tuple(vals[:3]))
            if len(args) == 1:
                return self.expr(args[0], st)
            return Unknown(f"a {qual_type(n, False)} object")
        if kind == "InitListExpr":
            return Items(tuple(self.expr(a, st) for a in kids(n)))
        if kind == "UnaryExprOrTypeTraitExpr" and n.get("name") == "sizeof":
            t = n.get("argType", {}).get("desugaredQualType") or n.get("argType", {}).get("qualType")
            if t is None and kids(n):
                t = qual_type(strip(kids(n)[0]))
            size = sized(t or "", self.records)
            return Const(size) if size is not None else Unknown(f"sizeof({t})")
        if kind in ("CallExpr",):
            name = callee_name(n)
            args = tuple(self.expr(a, st) for a in kids(n)[1:])
            short = name.split("::")[-1]
            if short in exprs.MATH_CALLS:
                return Op(exprs.MATH_CALLS[short], args, "f" if arithmetic_kind(qual_type(n))[0] == "f" else "i")
            if short in exprs.CEIL_DIVISIONS and len(args) == 2:
                return exprs.ceil_division(*args)
            # (in a template's body, a call over its type parameters is an unresolved lookup; a new buffer is its own)
            if name and kind_of_callee(n) in ("DeclRefExpr", "UnresolvedLookupExpr"):
                return Call(name, (*args, self.read_at(n, "a buffer")) if name == opencl.CREATE_BUFFER else args)
            return self.read_at(n, f"the result of {name or 'a call'}()")
        if kind == "CXXMemberCallExpr":
            return self.read_at(n, f"the result of .{callee_name(n)}()")
        if kind == "CXXOperatorCallExpr":  # d(gen) of a <random> distribution, or an operator's result
            made = self.expr(kids(n)[1], st) if len(kids(n)) >= 2 else None
            return contents.draw(made) or self.read_at(n, "an overloaded operator's result")
        return Unknown(f"a {kind}")

    def read_at(self, node: Node, what: str) -> Expr:
        """A call's result simu cannot compute, one value wherever copied (:func:`~simu.host.ast.expr.read_at`)."""
        at = position(node)
        return exprs.read_at(what, self.file, at) if at is not None else Unknown(what)

    def ref(self, n: Node, st: _State) -> Expr:
        ref = referenced(n)
        key = ref.get("id")
        if key in st.env:
            return st.env[key]
        kind = ref.get("kind")
        if kind == "ParmVarDecl" and key in self.params:
            i, name = self.params[key]
            return Param(i, name)
        if kind == "EnumConstantDecl":
            v = self.enums.get(key) if key in self.enums else self.enums.get(ref.get("name", ""))
            return Const(v) if v is not None else Unknown(f"enumerator {ref.get('name')}")
        if kind == "VarDecl":
            return Field("::", ref.get("name", ""))
        if kind == "NonTypeTemplateParmDecl":
            return Unknown(f"template parameter {ref.get('name')}")
        if kind == "FunctionDecl":
            return Function(ref.get("name", ""))
        return Unknown(f"'{ref.get('name', '?')}'")

    def member(self, n: Node, st: _State) -> Expr:
        base_node = kids(n)[0] if kids(n) else {}
        base = strip(base_node)
        member = n.get("name", "")
        local = referenced(base).get("id") if base.get("kind") == "DeclRefExpr" else None
        if local is not None and (local, member) in st.env:
            return st.env[(local, member)]
        record = record_name(qual_type(base_node, desugared=False))
        if record in ("dim3", "uint3") or qual_type(base_node, False) in _DIM3:
            if member in ("x", "y", "z"):
                return Element(self.expr(base_node, st), Const("xyz".index(member)))
            return Unknown(f".{member}")
        names = self.records.fields.get(record, ())
        index = names.index(member) if member in names else -1
        if index >= 0 and isinstance(st.env.get(local), Items) and index < len(st.env[local].items):
            return st.env[local].items[index]  # `Shape s = {n, n}; … s.rows`
        owner = referenced(base).get("name", "") if local is not None else ""
        if isinstance(st.env.get(local), Unknown) and exprs.writer(st.env[local]) is not None:
            owner = st.env[local].why  # "img written by init() at 25": the object that call filled
        return Field(record, member, owner, index) if record else Unknown(f"member {member}")

    def line(self, node: Node) -> int:
        o = start(node)
        return self.text.count("\n", 0, o) + 1 if o is not None else 0

    def source(self, node: Node) -> str:
        o = offsets(node)
        return self.text[o[0]:o[1]].strip() if o and o[1] <= len(self.text) else ""


def _literal(value: str) -> Const:
    try:
        return Const(int(value))
    except ValueError:
        try:
            return Const(float(value))
        except ValueError:
            return Const(0)


def _operand_kind(n: Node, operands: list[Node]) -> tuple[str, int]:
    """The arithmetic an operator does: its operands' converted type (a comparison's result is bool)."""
    for x in operands:
        k, bits = arithmetic_kind(qual_type(x))
        if k:
            return k, bits
    k, bits = arithmetic_kind(qual_type(n))
    return k or "i", bits or 32


def _with(st: _State, key: Any, value: Expr) -> _State:
    s = st.copy()
    s.env[key] = value
    return s


def _counter(init: Node) -> Any:
    """The variable a ``for`` loop's init statement declares or assigns."""
    if not init:
        return None
    if init.get("kind") == "DeclStmt":
        decls = [d for d in kids(init) if d.get("kind") == "VarDecl"]
        return decls[0].get("id") if len(decls) == 1 else None
    if init.get("kind") == "BinaryOperator" and init.get("opcode") == "=":
        lhs = strip(kids(init)[0])
        return referenced(lhs).get("id") if lhs.get("kind") == "DeclRefExpr" else None
    return None


def _step(reader: FunctionReader, inc: Node, counter: Any, st: _State) -> Expr | None:
    """A loop's update as an expression of :class:`Counter` (``i++``, ``i += 2``, ``t *= 2``, ``i = i + s``)."""
    n = strip(inc)
    inner = kids(n)
    target = strip(inner[0]) if inner else {}
    if referenced(target).get("id") != counter:
        return None
    at = _with(st, counter, Counter())
    if n.get("kind") == "UnaryOperator" and n.get("opcode") in ("++", "--"):
        return Op("+" if n["opcode"] == "++" else "-", (Counter(), Const(1)))
    if n.get("kind") == "CompoundAssignOperator":
        return Op(n.get("opcode", "+=")[:-1], (Counter(), reader.expr(inner[1], at)))
    if n.get("kind") == "BinaryOperator" and n.get("opcode") == "=":
        return reader.expr(inner[1], at)
    return None


def _instance_decl(fn: Node) -> str:
    """A function template instantiation's declaration id (the calls that name it name this id), "" for another
    function: instantiations that share a type (``run<3>``, ``run<7>``) are told apart by it."""
    return fn.get("id", "") if any(k.get("kind") == "TemplateArgument" for k in kids(fn)) else ""
