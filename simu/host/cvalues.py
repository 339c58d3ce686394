"""Constant values of host expressions, read textually from a :class:`~simu.host.cscan.CSource`.

The last definition of a name before the point of use wins (functions are not scoped); what cannot be
evaluated is ``None``, never a guess.
"""

from __future__ import annotations

import ast
import math
import re

from simu.frontend.ctext import STRING_LITERAL
from simu.host import loops
from simu.host.branches import branch_taken
from simu.host.branches import placeholder as _placeholder
from simu.host.cmdline import CMDLINE, option_defaults, reads_command_line, with_defaults
from simu.host.cscan import (  # noqa: F401  (strip_casts: re-exported)
    CSource,
    declares,
    dim3_parts,
    first_declarator,
    inline_calls,
    split_args,
    split_top_level,
    strip_casts,
)
from simu.host.cstrings import MAX_DEPTH, StringValues, split_plus  # noqa: F401  (split_plus: re-exported)

SIZEOF = {"char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2,
          "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "long": 8, "unsigned long": 8,
          "long long": 8, "unsigned long long": 8, "double": 8, "size_t": 8, "cl_int": 4, "cl_uint": 4,
          "cl_float": 4, "cl_char": 1, "cl_uchar": 1, "cl_short": 2, "cl_ushort": 2, "cl_long": 8,
          "cl_ulong": 8, "cl_double": 8, "cl_mem": 8, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8,
          "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "half": 2, "cl_half": 2,
          **{f"{p}{t}{n}": w * n for t, w in (("char", 1), ("uchar", 1), ("short", 2), ("ushort", 2), ("int", 4),
                                             ("uint", 4), ("float", 4), ("long", 8), ("ulong", 8), ("double", 8))
             for n in (2, 4) for p in ("", "cl_")}}  # CUDA's and OpenCL's vector types (3-vectors differ: left out)


class Evaluator(StringValues):
    """Constant values of host expressions at a point of a :class:`CSource`: integers (macros,
    ``const``/``constexpr`` variables, arithmetic, ``sizeof`` of basic types) and strings (literals,
    concatenation, ``#define``d literals, ``char x[] = "..."``, ``std::string`` built with ``+``/``+=``/
    ``append``, ``std::to_string``, ``strcat``, ``sprintf``/``snprintf`` with constant arguments).
    ``None`` means "not recoverable"."""

    def __init__(self, src: CSource):
        self.src = src
        self.defaults: set[str] = set()  # command-line defaults the evaluations so far have taken
        self.types: dict[str, str] = {}  # a function template's type parameters bound (T -> float)

    def _type(self, name: str) -> str:
        """A type name as the instantiation or a ``#define`` of it writes it (``DATA_TYPE`` -> ``float``)."""
        name = " ".join(self.types.get(" ".join(name.split()), name).split())
        for _ in range(4):
            macro = self.src.macros.get(name)
            if macro is None or not re.fullmatch(r"[A-Za-z_][\w ]*", macro.strip()):
                break
            name = " ".join(macro.split())
        return name

    @property
    def options(self) -> dict[str, str]:
        """The options this file reads by name with their defaults: its own registrations, then the project's
        (``CSource.project_options``, set by the host index)."""
        opts = self.src.__dict__.get("_options")
        if opts is None:
            opts = self.src._options = {**getattr(self.src, "project_options", {}),  # type: ignore[attr-defined]
                                        **(option_defaults(self.src.code) if '"' in self.src.code else {})}
        return opts

    # -- integers ---------------------------------------------------------------------------------------

    def int_value(self, expr: str, pos: int, depth: int = 0) -> int | None:
        v = self._number(expr, pos, depth)
        if isinstance(v, float):
            return int(v) if v == int(v) else None
        return v

    def _number(self, expr: str, pos: int, depth: int) -> int | float | None:
        """:meth:`int_value` without the rounding (memoised per source, with the command-line defaults it took)."""
        if depth > MAX_DEPTH:
            return None
        memo = self.src.__dict__.setdefault("_numbers", {})
        key = (expr, pos, depth, tuple(sorted(self.types.items())))
        hit = memo.get(key)
        if hit is None:
            outer, self.defaults = self.defaults, set()
            try:
                hit = memo[key] = (self._evaluate(expr, pos, depth), frozenset(self.defaults))
            finally:
                self.defaults = outer | self.defaults
        else:
            self.defaults |= hit[1]
        return hit[0]

    def _evaluate(self, expr: str, pos: int, depth: int) -> int | float | None:
        expr = strip_casts(expr.strip())
        expr = with_defaults(expr, self.options, self.defaults)
        if "(" in expr and self.src.int_functions:
            expr = inline_calls(expr, self.src.int_functions)
        if "[" in expr:
            expr = self._elements(expr, pos, depth)
        if "." in expr or "->" in expr:
            expr = _PAREN_BASE.sub(r"\1\2", expr)  # (dimsA).x: a wrapper's parameter filled in with the caller's
            expr = _dim3_components(expr)  # dim3(b, b).x: a wrapper's local dim3 written out
            expr = _MEMBER.sub(lambda m: self._dim3_member(m.group(1), m.group(2), pos) or m.group(0), expr)
            expr = _SIZE_CALL.sub(lambda m: self._container_size(m.group(1), pos, depth) or m.group(0), expr)
            expr = _FIELD.sub(lambda m: self._field(m.group(0), pos, depth), expr)
        expr = re.sub(r"\bsizeof\s*\(\s*([\w\s]+?)\s*\)", lambda m: str(SIZEOF.get(self._type(m.group(1)), "sizeof")),
                      expr)
        expr = _BASIC_CAST.sub("", expr)  # pow((double)2, bits)
        expr = _FUNCTIONAL_CAST.sub("", expr)  # log2(double(n))
        expr = re.sub(r"\bstd::(?=(?:min|max|abs|pow)\s*\()", "", expr)
        names: dict[str, int | float] = {}
        safe: dict[str, str] = {}  # C names -> Python-safe ones (`global`, `in`, `lambda` are Python keywords)
        for name in set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", expr)):
            if name in ("sizeof",):
                return None
            if name in _FUNCTIONS and re.search(rf"(?<![\w.]){name}\s*\(", expr):
                continue
            v = self._name_number(name, pos, depth)
            if v is None:
                return None
            safe[name] = f"_v{len(safe)}"
            names[safe[name]] = v
        if safe:
            expr = re.sub(r"(?<![\w.])[A-Za-z_]\w*", lambda m: safe.get(m.group(0), m.group(0)), expr)
        py = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expr)
        py = re.sub(r"(\d+\.\d*|\.\d+|\d+[eE][+-]?\d+)[fF]\b", r"\1", py)
        if "?" in py:
            py = c_conditional(py)
        py = py.replace("&&", " and ").replace("||", " or ").replace("!=", " ne ").replace("!", " not ")
        py = py.replace(" ne ", "!=")
        try:
            tree = ast.parse(py, mode="eval")
        except SyntaxError:
            return None
        try:
            return _eval(tree.body, names)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError, KeyError):
            return None

    def _dim3_member(self, name: str, axis: str, pos: int) -> str | None:
        """The text of ``block.x`` for a ``dim3 block(16, 8)`` (``dim3 b = dim3(…)``, ``dim3 b{…}``); its
        missing components are 1."""
        if not re.search(rf"\bdim3\s+{re.escape(name)}\b", self.src.code[:pos]):
            return None
        init, at = self.definition_at(name, pos)
        if init is None:
            return None
        for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*\.\s*{axis}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)",
                             self.src.code[at:pos]):
            if not reads_command_line(self.src.code[at + m.end():self.src.statement_end(at + m.end())]):
                return None  # dimsA.x = 64 after the declaration: not the initialiser's (one from argv is the user's)
            self.defaults.add(f"{name}.{axis}")
        m = re.fullmatch(r"(?:dim3\s*)?[({](.*)[)}]", init.strip(), re.S)
        items = dim3_parts(m.group(1) if m else init)
        return f"({items['xyz'.index(axis)]})" if items is not None else None

    def _container_size(self, name: str, pos: int, depth: int) -> str | None:
        """``(n)`` for ``X.size()`` of a container of a known size (:meth:`container`) that is constant."""
        found = self.container(name, pos)
        if found is None or self._number(found[0], pos, depth + 1) is None:
            return None
        return f"({found[0]})"

    def container(self, name: str, pos: int) -> tuple[str, str] | None:
        """(size text, element type) of ``std::vector<T> X(n)``, ``std::array<T, n> X``, ``thrust::device_vector<T>
        X(n)`` or the like at ``pos``, after its last ``X.resize(n)``; ``None`` when something else changes its size
        (``push_back``, ``insert``…) or none is known."""
        code = self.src.code
        n = re.escape(name)
        decls = list(re.finditer(rf"(?<![\w:])(?:std::|thrust::)?(?:device_|host_|universal_)?(vector|array|valarray)"
                                 rf"\s*<([^;{{}}]*?)>\s*{n}\s*([({{;])", code[:pos]))
        if not decls:
            return None
        d = decls[-1]
        parts = split_top_level(d.group(2), ",")
        size = None
        if d.group(1) == "array":
            size = parts[1].strip() if len(parts) == 2 else None
        elif d.group(3) in "({":
            args, _ = split_args(code, d.end())
            size = args[0] if args and len(args) <= 2 else None
        for m in re.finditer(_CHANGES.format(n=n), code[d.end():pos]):
            if m.group(1) != "resize":
                return None
            args, _ = split_args(code, d.end() + m.end())
            size = args[0] if args and len(args) <= 2 else None
        return (size, parts[0].strip()) if size is not None and parts else None

    def _field(self, chain: str, pos: int, depth: int) -> str:
        """A struct member read (``p.n``, ``cfg->size``) as the value its last assignment gives it in this file
        (``p.n = 4096;``), else as written."""
        name = re.sub(r"\s+", "", chain)
        v = self._name_number(name, pos, depth + 1)
        return f"({v})" if v is not None else chain

    def _elements(self, expr: str, pos: int, depth: int) -> str:
        """``sizes[i]`` of an array with a constant initializer and a constant index as the element's value; not
        when an element is assigned between the initializer and ``pos`` (``dims[4 - rank + j] = x[j]``)."""
        def one(m: re.Match[str]) -> str:
            init = self._array_init(m.group(1), pos, depth)
            if not init or not init.startswith("{"):
                return m.group(0)
            _, at = self.definition_at(m.group(1), pos)
            after = self.src.code[self.src.statement_end(at):pos] if at is not None else ""
            if re.search(rf"(?<![\w.>]){re.escape(m.group(1))}\s*\[[^\]]*\]\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)", after):
                return m.group(0)
            items, _ = split_args(init, 1)
            i = self._number(m.group(2), pos, depth + 1)
            if items is None or not isinstance(i, int) or not 0 <= i < len(items):
                return m.group(0)
            return f"({items[i]})"

        return re.sub(r"(?<![\w.>])([A-Za-z_]\w*)\s*\[([^\[\]]+)\]", one, expr)

    def _array_init(self, name: str, pos: int, depth: int) -> str | None:
        """The initializer of the array ``name`` stands for at ``pos``, through pointers to arrays chosen by a
        constant condition: ``int *sizes = (sizeof(real) == sizeof(double)) ? sizes_dp : sizes_sp;``."""
        init = self.definition(name, pos)
        for _ in range(3):
            if init is None or init.lstrip().startswith("{"):
                return init
            m = _ARRAY_CHOICE.fullmatch(init.strip())
            if m is None:
                return init if not re.fullmatch(r"[A-Za-z_]\w*", init.strip()) else self.definition(init.strip(), pos)
            cond = self._number(m.group(1), pos, depth + 1)
            if cond is None:
                return None
            init = self.definition(m.group(2) if cond else m.group(3), pos)
        return init

    def _name_number(self, name: str, pos: int, depth: int) -> int | float | None:
        if name in ("true", "false"):
            return int(name == "true")
        if name in self.src.macros:
            return self._number(self.src.macros[name], pos, depth + 1)
        rhs, at = self.definition_at(name, pos)
        if rhs is not None and not rhs.lstrip().startswith(("{", '"')):
            v = self._number(rhs, at, depth + 1)  # its names as they stood there: size = size * 4
            if v is not None and CMDLINE.search(rhs):
                self.defaults.add(name)  # argc > 1 ? atoi(argv[1]) : 1024
            return v
        return None

    def definition(self, name: str, pos: int) -> str | None:
        """The initializer / last assigned value of a variable ``name`` before ``pos`` (text); ``None`` when a
        branch of the same function assigns it another value (``if (cpu) local = 1;``) or the function updates it
        in place (memoised per source)."""
        return self.definition_at(name, pos)[0]

    def definition_at(self, name: str, pos: int) -> tuple[str | None, int]:
        """:meth:`definition` and where its statement starts (where the names it uses have the values it
        reads)."""
        memo = self.src.__dict__.setdefault("_definitions", {})
        key = (name, pos)
        if key not in memo:
            outer, self.defaults = self.defaults, set()
            try:
                memo[key] = (*self._definition(name, pos), frozenset(self.defaults))
            finally:
                self.defaults = outer
        text, at, defaulted, assumed = memo[key]
        if text is not None:
            self.defaults |= assumed
            if defaulted:
                self.defaults.add(name)
        return text, at

    def _definition(self, name: str, pos: int) -> tuple[str | None, int, bool]:
        """(text, where, whether an assignment from the command line was passed over: the value is its
        default, :mod:`simu.host.cmdline`)."""
        best: str | None = None
        best_at = best_start = 0
        branches: list[str] = []  # assignments in blocks closed before pos, after best
        defaulted = False
        pat = re.compile(rf"(?<![\w.>])({re.escape(name)})\s*((?:\[[^\]]*\]\s*)*)(=(?!=)|\{{|\()")
        for m in pat.finditer(self.src.code, 0, pos):
            if m.group(2) and not declares(self.src.code, m.start()):
                continue  # an element assignment (g[1] = 64), not the array's definition
            if m.group(3) == "(" and not declares(self.src.code, m.start()):
                continue  # a call, not a constructor
            if m.group(3) == "{" and not declares(self.src.code, m.start()):
                continue
            start = m.end() if m.group(3) == "=" else m.end() - 1
            end = self.src.statement_end(start)
            raw = self.src.code[start:end]
            first = first_declarator(raw.strip())
            if end > pos and start + len(raw) - len(raw.lstrip()) + len(first) >= pos:
                continue  # not over before the use (one declarator of int t = 256, b = n / t is, for b's)
            text = _CHAINED.sub("", first)  # a = b = c = N
            if m.group(3) == "(":
                text = text[1:-1] if text.endswith(")") else text[1:]
            taken = self._branch_taken(m.start(), pos) if self._same_function(m.start(), pos) else None
            if taken is not None:
                defaulted = defaulted or taken[1]
                if not taken[0]:
                    continue  # the branch the constant condition leaves out: never runs
                best, best_at, best_start, branches = text, m.end(), m.start(), []
                continue  # if (USE_X) { n = 256; } at the use's level: runs whenever the use does
            if self._closed_between(m.start(), pos) or _BRACELESS_BRANCH.search(self.src.code, max(0, m.start() - 200),
                                                                                  m.start()):
                # in a block closed before the use: a branch or loop of the same function (the value is the
                # program's choice: ambiguous unless it agrees; one read from the command line is the user's,
                # and the value before it the default), or another function (not this variable)
                if self._same_function(m.start(), pos):
                    if reads_command_line(text):
                        defaulted = True
                    else:
                        branches.append(text)
                continue
            best, best_at, best_start, branches, defaulted = text, m.end(), m.start(), [], False
        if branches and any(" ".join(b.split()) != " ".join((best or "").split()) for b in branches):
            return None, pos, False  # size_t local = 256; if (cpu) local = 1; -> not one value
        if best is not None and self._updated(name, best_at, pos):
            return None, pos, False  # offset += n; size *= 2; i++ -> not the definition's value
        if defaulted and best is not None and _placeholder(self.src.code, name, best, best_at, pos):
            return None, pos, False  # int n = 0; if (argc > 1) n = atoi(argv[1]); if (n == 0) usage(); -> no default
        return best, best_start if best is not None else pos, defaulted

    def _branch_taken(self, at: int, pos: int) -> tuple[bool, bool] | None:
        """:func:`simu.host.branches.branch_taken` with this evaluator."""
        return branch_taken(self, at, pos)

    def _updated(self, name: str, after: int, pos: int) -> bool:
        """Whether an in-place update of ``name`` (``+=``, ``*=``, ``++``…) after ``after`` changes the value it has
        at ``pos`` on a run of the program (:func:`simu.host.loops.first_pass`: updates after the use, in later
        passes of a loop holding it, or in a loop entered only on a device failure do not).  A first pass taken
        is noted in :attr:`defaults` (``@loop LINE NAME``), as is a failure loop passed over (``@ok LINE NAME``)."""
        updates = self.src.__dict__.setdefault("_updates", {})
        at = updates.get(name)
        if at is None:
            n = re.escape(name)
            at = updates[name] = [m.start() for m in re.finditer(
                rf"(?<![\w.>]){n}\s*(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)=)|(?:\+\+|--)\s*{n}\b", self.src.code)]
        assigns = self.src.__dict__.setdefault("_assigns", {})
        later = assigns.get(name)
        if later is None:  # plain assignments: those after the use are later passes' (before it: definitions)
            later = assigns[name] = [m.start() for m in re.finditer(
                rf"(?<![\w.>]){re.escape(name)}\s*=(?!=)", self.src.code)]
        at = sorted(at + [u for u in later if u > pos])
        if not at or at[-1] <= after:
            return False
        same, passes, skipped = loops.first_pass(self.src, name, after, pos, at)
        if not same:
            return True
        for loop in passes:
            if not self._enters(loop, pos):
                return True  # a first pass that never comes: no launch of this value
            self.defaults.add(f"@loop {loop.line} {name}")
        self.defaults.update(f"@ok {loop.line} {name}" for loop in skipped)
        return False

    def _enters(self, loop: loops.Loop, pos: int) -> bool:
        """Whether a ``for``/``while`` loop whose body holds ``pos`` runs its first pass (its condition at the
        start is not known to be false)."""
        if loop.kind == "do" or loop.header is None or not loop.in_body(pos):
            return True
        _, cond, _ = loop.parts(self.src)
        if not cond.strip():
            return True
        kept = set(self.defaults)
        v = self._number(cond, loop.header[1], 1)
        self.defaults = kept  # the counter's own first pass is no value of the launch
        return v is None or bool(v)

    def _closed_between(self, a: int, b: int) -> bool:
        """Whether a brace block open at ``a`` closes before ``b``."""
        braces = getattr(self.src, "_brace_depths", None)  # kept on the source: evaluators come and go
        if braces is None:
            import bisect

            blank = STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), self.src.code)
            blank = re.sub(r"'(?:[^'\\\n]|\\.)*'", lambda m: " " * len(m.group(0)), blank)
            opens, closes, depth, after = [], [], 0, []
            for m in re.finditer(r"[{}]", blank):
                if m.group(0) == "{":
                    depth += 1
                    opens.append(m.start())
                else:
                    depth -= 1
                    closes.append(m.start())
                    after.append(depth)
            braces = self.src._brace_depths = (opens, closes, after, bisect)  # type: ignore[attr-defined]
        opens, closes, after, bisect = braces
        level = bisect.bisect_left(opens, a) - bisect.bisect_left(closes, a)
        if level <= 0:
            return False
        lo, hi = bisect.bisect_left(closes, a), bisect.bisect_left(closes, b)
        return any(after[i] < level for i in range(lo, hi))

    def _same_function(self, a: int, b: int) -> bool:
        fa = self.src.enclosing(a)
        return fa is not None and fa is self.src.enclosing(b)

    def array_values(self, expr: str, pos: int) -> tuple[str, tuple[int | None, ...] | None]:
        """The text and element values of an array argument (``global``, ``&g``, ``sizes``, ``NULL``).

        A scalar passed by address (``&n``) is a one-element array."""
        e = expr.strip()
        if e in ("NULL", "nullptr", "0"):
            return e, None
        scalar = e.startswith("&")
        name = e.lstrip("&").strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return e, None
        init = self.definition(name, pos)
        if init is None and not scalar:
            init = self._sized_array(name, pos)  # size_t g[2]; g[0] = W; g[1] = H;
        if init is None:
            return e, None
        if scalar or not init.startswith("{"):
            v = self.int_value(init, pos)
            return init, (v,) if v is not None else None
        items, _ = split_args(init, 1)
        if items is None:
            return init, None
        values = tuple(self.int_value(i, pos) for i in items if i)
        for i in range(len(values)):  # element assignments after the declaration: g[1] = 64;
            found = list(re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*\[\s*{i}\s*\]\s*=(?!=)([^;]*);",
                                     self.src.code[:pos]))
            if found:
                m = found[-1]
                values = values[:i] + (self.int_value(m.group(1), pos),) + values[i + 1:]
        return init, values

    def element_count(self, size: str, pos: int, elem: str | None = None) -> tuple[int | str | None, int | None]:
        """(length, element bytes) of an allocation of ``size`` bytes (``new elem[size]``: ``size`` elements):
        ``n * sizeof(float)`` -> (n, 4); a size without ``sizeof`` is in bytes (element bytes ``None``); a type
        not known here (``sizeof(T)``, a struct) is element bytes ``0``: the kernel parameter's own element; the
        length stays an expression when it is not constant."""
        elem_bytes = SIZEOF.get(self._type(elem), 0) if elem else None
        if elem is None:
            m = re.search(r"\*?\s*sizeof\s*\(\s*([\w\s:]+?)\s*\)\s*\*?", size)
            if m is not None:
                elem_bytes = SIZEOF.get(self._type(m.group(1)), 0)
                size = (size[:m.start()] + size[m.end():]).strip() or "1"
        v = self.int_value(size, pos)
        if v is None:  # ``RF_SIZE*n``: the constant factors as numbers (``206*n``), the rest as written
            factors = split_top_level(size, "*")
            if len(factors) > 1:
                vals = [self.int_value(f, pos) for f in factors]
                size = "*".join(str(x) if x is not None else f.strip() for f, x in zip(factors, vals, strict=True))
        return (v if v is not None else size), elem_bytes

    def _sized_array(self, name: str, pos: int) -> str | None:
        """``{?, ?}`` for an array declared without an initializer (``size_t g[2];``): its elements come from
        the assignments after the declaration."""
        decls = [m for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\s*\[\s*([^\]]+?)\s*\]\s*[;,]",
                                        self.src.code[:pos]) if declares(self.src.code, m.start())]
        n = self.int_value(decls[-1].group(1), pos) if decls else None
        return "{" + ", ".join(["?"] * n) + "}" if n is not None and 0 < n <= 3 else None

# an assignment that is the whole body of a brace-less `if (...)`, `else`, `for (...)` or `while (...)`
_BRACELESS_BRANCH = re.compile(r"(?:\belse|\b(?:if|for|while)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))\s*$")


_BASIC_CAST = re.compile(r"\(\s*(?:const\s+)?(?:(?:unsigned|signed|long|short)\s+)*(?:int|long|short|char|float|double|"
                         r"size_t|unsigned|cl_[a-z]+|u?int(?:8|16|32|64)_t)\s*\)\s*(?=[\w(])")
def _c_round(x: float) -> int:
    """C's ``round``/``lround``: halves away from zero (Python's ``round`` goes to even)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


_ARRAY_CHOICE = re.compile(r"(.+?)\s*\?\s*&?\s*([A-Za-z_]\w*)\s*:\s*&?\s*([A-Za-z_]\w*)", re.S)
_CHAINED = re.compile(r"^(?:[A-Za-z_]\w*\s*=(?!=)\s*)+")
_CHANGES = r"(?<![\w.>]){n}\s*(?:\.|->)\s*(resize|push_back|pop_back|emplace_back|clear|erase|insert|assign|swap)\s*\("
_PAREN_BASE = re.compile(r"\(\s*([A-Za-z_]\w*)\s*\)\s*(\.|->)")
_DIM3_CALL = re.compile(r"(?<![\w.>])dim3\s*\(")


def _dim3_components(expr: str) -> str:
    """``dim3(a, b).y`` -> ``(b)`` (a missing component is 1)."""
    out, i = [], 0
    for m in _DIM3_CALL.finditer(expr):
        if m.start() < i:
            continue
        args, end = split_args(expr, m.end())
        axis = re.match(r"\s*\.\s*([xyz])\b", expr[end:]) if args is not None else None
        items = dim3_parts(expr[m.end():end - 1]) if axis is not None else None
        if axis is None or items is None:
            continue
        out.append(expr[i:m.start()] + f"({items['xyz'.index(axis.group(1))]})")
        i = end + axis.end()
    return "".join(out) + expr[i:]


_SIZE_CALL = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*(?:\.|->)\s*size\s*\(\s*\)")
# a member read (not a call): p.n, cfg->size, a.b.c
_FIELD = re.compile(r"(?<![\w.>])[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)+(?!\s*[\w(])")
_MEMBER = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*\.\s*([xyz])\b")
_FUNCTIONAL_CAST = re.compile(r"(?<![\w.])(?:double|float|int|long|unsigned|size_t)\s*(?=\()")
_FUNCTIONS = {"pow": lambda a, b: a ** b if isinstance(a, int) and isinstance(b, int) and b >= 0 else float(a) ** b,
              "min": min, "max": max, "abs": abs, "fabs": abs, "log2": math.log2, "log": math.log,
              "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor, "lround": _c_round, "round": _c_round}


def c_conditional(e: str) -> str:
    """C's ``c ? a : b`` (nested, bracketed) as Python's ``((a) if (c) else (b))``; other text unchanged."""
    out, i = [], 0
    while i < len(e):  # bracketed groups first
        if e[i] == "(":
            depth, j = 0, i
            while j < len(e):
                depth += {"(": 1, ")": -1}.get(e[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append("(" + c_conditional(e[i + 1:j]) + ")")
            i = j + 1
            continue
        out.append(e[i])
        i += 1
    flat = "".join(out)
    depth, q = 0, -1
    for k, ch in enumerate(flat):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "?" and depth == 0:
            q = k
            break
    if q < 0:
        return flat
    depth, nested = 0, 0
    for k in range(q + 1, len(flat)):
        ch = flat[k]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch == "?":
            nested += 1
        elif depth == 0 and ch == ":" and flat[k - 1:k + 1] != "::" and flat[k:k + 2] != "::":
            if nested == 0:
                return f"(({flat[q + 1:k]}) if ({flat[:q]}) else ({c_conditional(flat[k + 1:])}))"
            nested -= 1
    return flat


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Mod: lambda a, b: int(a - b * int(a / b)), ast.LShift: lambda a, b: a << b,
           ast.RShift: lambda a, b: a >> b, ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
           ast.BitXor: lambda a, b: a ^ b}


def _eval(node: ast.AST, names: dict[str, int | float]) -> int | float:
    """A C-flavoured evaluation of a Python AST made of constants, names and arithmetic."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, names)
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Invert) and isinstance(v, int):
            return ~v
        if isinstance(node.op, ast.Not):
            return int(not v)
        raise ValueError(node.op)
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, names), _eval(node.right, names)
        if isinstance(node.op, ast.Div):
            return int(a / b) if isinstance(a, int) and isinstance(b, int) else a / b
        if type(node.op) in _BINOPS and (isinstance(a, int) and isinstance(b, int) or
                                         isinstance(node.op, (ast.Add, ast.Sub, ast.Mult))):
            return _BINOPS[type(node.op)](a, b)
        raise ValueError(node.op)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = _eval(node.left, names), _eval(node.comparators[0], names)
        ops = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}
        return int(ops[type(node.ops[0])])
    if isinstance(node, ast.IfExp):
        return _eval(node.body, names) if _eval(node.test, names) else _eval(node.orelse, names)
    if isinstance(node, ast.BoolOp):
        vals = [_eval(v, names) for v in node.values]
        return int(all(vals)) if isinstance(node.op, ast.And) else int(any(vals))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS \
            and not node.keywords:
        return _FUNCTIONS[node.func.id](*[_eval(a, names) for a in node.args])
    raise ValueError(type(node).__name__)
