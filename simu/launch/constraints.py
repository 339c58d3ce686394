"""What a user says about a kernel's launches: fixed or bounded dimensions, arguments, buffer lengths, fills.

Read from ``[tool.simu.kernels.NAME]`` tables (:mod:`simu.config`), from ``// constrain:`` comments
(:mod:`simu.launch.comments`) and from ``simu check --arg``; honoured by the launch search
(:mod:`simu.evolve`).  This module imports no analysis code and no numpy: the configuration loads it.
"""

from __future__ import annotations

import ast
import functools
import keyword
import numbers
import re
from dataclasses import dataclass, field
from typing import Any

SCALAR = (int, float)
_EXPR_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load, ast.Add, ast.Sub,
               ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd, ast.LShift, ast.RShift)


_CLAMPS = {"min": min, "max": max}


@dataclass(frozen=True)
class Prior:
    """A kernel the host launches before this one on some of the same variables (issue 29): the search runs it
    first, at its own launch, so that this kernel reads what it leaves (:mod:`simu.evolve.sequence`)."""

    kernel: str  # its name as the host launches it
    site: str  # "file:line" of that launch
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: tuple[tuple[int, int | float], ...]  # (its argument index, the constant the launch passes)
    shared: tuple[tuple[int, int | str], ...]  # (its argument index, this kernel's parameter given the same variable)
    dynamic_shared: int = 0  # bytes of dynamic shared memory the launch gives
    # per grid axis not constant, its size over this kernel's arguments (``(numElements/4)/128``: both launches
    # in one function, the size from a value this kernel is given too); None: ``grid``'s
    grid_sym: tuple[str | None, ...] = ()
    # False: a launch simu cannot run as the program does (a grid or an argument the host computes, a block
    # that is not constant): what it leaves is the program's data, which the search does not have
    runs: bool = True
    # True: no host code orders them; a kernel of the same file that writes a buffer this one only reads (by name),
    # run first at this launch's own grid and block (:func:`simu.evolve.sequence.file_priors`)
    alongside: bool = False

    @classmethod
    def unrun(cls, kernel: str, site: str, shared: tuple[tuple[int, int | str], ...]) -> Prior:
        """A prior known only by the buffers it is given (see ``runs``)."""
        return cls(kernel, site, (1, 1, 1), (1, 1, 1), (), shared, runs=False)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Prior:
        """The prior ``dataclasses.asdict`` wrote (a host file's cached launches)."""
        return cls(d["kernel"], d["site"], tuple(d["grid"]), tuple(d["block"]),  # type: ignore[arg-type]
                   tuple(tuple(a) for a in d["args"]), tuple(tuple(s) for s in d["shared"]),  # type: ignore[misc]
                   int(d.get("dynamic_shared", 0)), tuple(d.get("grid_sym", ())), bool(d.get("runs", True)),
                   bool(d.get("alongside", False)))

    def key(self) -> list:
        return [self.kernel, self.site, list(self.grid), list(self.block), [list(a) for a in self.args],
                [list(s) for s in self.shared], self.dynamic_shared] + \
            ([list(self.grid_sym)] if self.grid_sym else []) + ([] if self.runs else ["not run"]) + \
            (["alongside"] if self.alongside else [])

    def grid_at(self, values: dict[str, Any]) -> tuple[int, int, int] | None:
        """The grid at the later launch's argument ``values``; None when an axis cannot be computed or is empty."""
        out = []
        for d in range(3):
            text = self.grid_sym[d] if d < len(self.grid_sym) else None
            try:
                n = int(int_expression(text, values)) if text else int(self.grid[d])
            except (ZeroDivisionError, KeyError, ValueError, TypeError):
                return None
            if n < 1:
                return None
            out.append(n)
        return out[0], out[1], out[2]


@dataclass
class KernelConstraints:
    """User bounds on a kernel's launch, read by the launch search (``simu.evolve``).

    ``None`` / empty means "free": the search picks.  ``buffer_lengths`` maps a pointer parameter
    to an arithmetic expression over scalar parameters (``"n*m"``); ``fills`` a pointer parameter to
    one of :data:`simu.launch.buffers.PLAIN_FILLS`.  ``same`` maps a parameter to the parameter whose
    buffer it is (a surface and a texture object made over one array, a texture over a pointer's
    memory); at least one of the two is a texture or surface object.  ``dims`` maps a grid or block
    component (``"grid.y"``) to an expression of scalar parameters (``"n"``, ``"(size-1)/512+1"``) and
    ``derived`` a scalar parameter to an expression of the others (``"n"``: passed the same value);
    ``requires`` lists comparisons the host asserts before launching (a launch breaking one is none of the
    program's).  All come from host code (:mod:`simu.host.relations`) and are evaluated by
    :func:`int_expression` from the values the search draws (``derived`` in its order: a later entry may use an
    earlier one).
    """

    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None
    args: dict[str, int | float] = field(default_factory=dict)
    arg_ranges: dict[str, tuple[int | float, int | float]] = field(default_factory=dict)
    buffer_lengths: dict[str, str] = field(default_factory=dict)
    fills: dict[str, str] = field(default_factory=dict)  # buffer -> random | ramp | zeros | ones | small | signed
    same: dict[str, str] = field(default_factory=dict)  # parameter -> the parameter whose buffer it shares
    warp_size: int | None = None
    dynamic_shared: int | None = None
    # the dynamic shared bytes the host computes, over the scalars and the block (``(bins+1)*r*4``, ``blockDim_x*4``)
    shared_bytes: str | None = None
    origin: str | None = None  # where these bounds come from when not the user ("host launch at main.cu:37")
    dims: dict[str, str] = field(default_factory=dict)  # "grid.x" .. "block.z" -> expression of scalars
    derived: dict[str, str] = field(default_factory=dict)  # scalar parameter -> expression of the others
    # buffer -> a constant factor of a length the host computes from values the kernel does not receive
    # (``cudaMalloc(&rf, RF_SIZE * n * sizeof(float))``: 206); the length stays searched, and the severity
    # refutation counts a length up to that factor times the drawn one as plausible
    length_factors: dict[str, int] = field(default_factory=dict)
    requires: list[str] = field(default_factory=list)  # comparisons the host asserts ("w1/w2 == h1/h2")
    # scalar parameter the host gives no value -> the host text it is computed from, where that reads program state
    # simu does not read (simu.host.state: ``l.c``, ``top[0]->shape(axis)``); an error must not hinge on the order
    # of those the search draws (simu.evolve.refute_state: derived and user-fixed ones are no genes)
    state: dict[str, str] = field(default_factory=dict)
    before: tuple[Prior, ...] = ()  # kernels the host launches first on some of the same buffers
    # module variable -> (byte offset, values) the host copies there with cudaMemcpyToSymbol (nested as the source's
    # aggregate, None where not known): what the kernel finds in a __constant__/__device__ variable
    symbols: dict[str, tuple[int, Any]] = field(default_factory=dict)

    def key(self) -> dict[str, Any]:
        """A JSON-able form, used in cache keys."""
        return {"grid": self.grid, "block": self.block, "args": dict(sorted(self.args.items())),
                "arg_ranges": {k: list(v) for k, v in sorted(self.arg_ranges.items())},
                "buffer_lengths": dict(sorted(self.buffer_lengths.items())),
                "fills": dict(sorted(self.fills.items())), "same": dict(sorted(self.same.items())),
                "warp_size": self.warp_size, "dynamic_shared": self.dynamic_shared, "origin": self.origin,
                **({"shared_bytes": self.shared_bytes} if self.shared_bytes else {}),
                **({"dims": dict(sorted(self.dims.items()))} if self.dims else {}),
                **({"derived": dict(self.derived)} if self.derived else {}),
                **({"length_factors": dict(sorted(self.length_factors.items()))} if self.length_factors else {}),
                **({"requires": list(self.requires)} if self.requires else {}),
                **({"state": dict(sorted(self.state.items()))} if self.state else {}),
                **({"before": [p.key() for p in self.before]} if self.before else {}),
                **({"symbols": {k: list(v) for k, v in sorted(self.symbols.items())}} if self.symbols else {})}


def parse_dim(value: Any) -> tuple[int, int, int]:
    """``64``, ``[16, 16]`` or ``"16,16"`` / ``"16x16"`` -> a 3-tuple of positive ints."""
    if isinstance(value, bool):
        raise ValueError(f"expected an integer or a list of 1 to 3 integers, got {value!r}")
    if isinstance(value, int):
        parts = [value]
    elif isinstance(value, list | tuple):
        parts = list(value)
    elif isinstance(value, str):
        try:
            parts = [int(p) for p in re.split(r"[,x\s]+", value.strip()) if p]
        except ValueError:
            raise ValueError(f"bad dimensions '{value}'") from None
    else:
        raise ValueError(f"expected an integer or a list of 1 to 3 integers, got {value!r}")
    if not 1 <= len(parts) <= 3 or not all(isinstance(p, int) and not isinstance(p, bool) and p > 0 for p in parts):
        raise ValueError(f"expected 1 to 3 positive integers, got {value!r}")
    return tuple(list(parts) + [1] * (3 - len(parts)))  # type: ignore[return-value]


def check_expression(text: str) -> None:
    """Accept only arithmetic over names and numbers (a buffer length such as ``n*m+1``)."""
    _length_code(text)


@functools.lru_cache(maxsize=256)
def _length_code(text: str):
    """The checked expression, compiled (C names that are Python keywords renamed: :func:`parse_expression`)."""
    tree = parse_expression(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CLAMPS \
                and not node.keywords:
            continue  # ``max(n + 1, 1)``: a count the host clamps
        if not isinstance(node, _EXPR_NODES) or (isinstance(node, ast.Constant) and not isinstance(node.value, SCALAR)):
            raise ValueError(f"bad expression '{text}': only numbers, parameter names, min, max and "
                             "+ - * / // % ** << >>")
    return compile(tree, "<length>", "eval")


def buffer_length(expr: str, values: dict[str, Any], threads: int, blocks: int = 1) -> int:
    """Evaluate a buffer-length expression such as ``"n*m"`` over the argument values (also
    ``threads``, the launch's thread count, and ``blocks``, its block count); at least 1."""
    code = _length_code(expr)
    env = {_python_name(k): v for k, v in values.items() if isinstance(v, numbers.Real)}
    env["threads"] = threads
    env["blocks"] = blocks
    return max(1, int(eval(code, {"__builtins__": {}, **_CLAMPS}, env)))  # noqa: S307 - arithmetic only, checked


DIMS = tuple(f"{part}.{axis}" for part in ("grid", "block") for axis in "xyz")
# the search's block in a host relation: a grid's divisor (OpenCL's global size) or an argument the host computes
# from its block size (``off - blockDim_x``)
BLOCK_DIMS = ("blockDim_x", "blockDim_y", "blockDim_z")


def int_expression(expr: str, values: dict[str, Any]) -> int | float:
    """A host relation (:attr:`KernelConstraints.dims` / ``derived``) over the launch's argument values, with C
    semantics: integer ``/`` and ``%`` truncate toward zero; ``min``/``max``.  ZeroDivisionError, KeyError (a
    name without a value) and ValueError (anything else) propagate."""
    return _c_eval(parse_expression(expr).body, values)


_KEYWORDS = re.compile(r"\b(?:" + "|".join(keyword.kwlist) + r")\b")
_RENAMED = "_c_"  # suffix of a C name that is a Python keyword (a scalar ``lambda``), renamed to parse


def parse_expression(expr: str) -> ast.Expression:
    """A C arithmetic expression as a Python syntax tree: C names that are Python keywords (``lambda * Vin``)
    renamed (:func:`source_name` gives them back); ValueError when it does not parse."""
    try:
        return _parse(expr)
    except SyntaxError:
        raise ValueError(f"bad expression '{expr}'") from None


def _python_name(name: str) -> str:
    """The name :func:`parse_expression`'s tree gives the C name ``name``."""
    return name + _RENAMED if keyword.iskeyword(name) else name


def source_name(name: str) -> str:
    """The C name behind a name of :func:`parse_expression`'s tree."""
    base = name[:-len(_RENAMED)]
    return base if name.endswith(_RENAMED) and keyword.iskeyword(base) else name


@functools.lru_cache(maxsize=256)
def _parse(expr: str) -> ast.Expression:
    return ast.parse(_KEYWORDS.sub(lambda m: m.group(0) + _RENAMED, expr), mode="eval")


def _c_eval(node: ast.AST, env: dict[str, Any]) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, SCALAR) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        v = env[source_name(node.id)]
        if not isinstance(v, numbers.Real):
            raise ValueError(node.id)
        return int(v) if isinstance(v, numbers.Integral) else float(v)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _c_eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = _c_eval(node.left, env), _c_eval(node.comparators[0], env)
        ops = {ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b}
        return int(ops[type(node.ops[0])])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        vals = [_c_eval(a, env) for a in node.args]
        return min(vals) if node.func.id == "min" else max(vals)
    if isinstance(node, ast.BinOp):
        a, b = _c_eval(node.left, env), _c_eval(node.right, env)
        ints = isinstance(a, int) and isinstance(b, int)
        op = type(node.op)
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            return a * b
        if op in (ast.Div, ast.FloorDiv):
            if not ints:
                return a / b
            q = abs(a) // abs(b)  # ZeroDivisionError when b == 0
            return q if (a < 0) == (b < 0) else -q
        if op is ast.Mod and ints:
            r = abs(a) % abs(b)
            return r if a >= 0 else -r
        if op in (ast.LShift, ast.RShift) and ints and 0 <= b < 64:
            return a << b if op is ast.LShift else a >> b
    raise ValueError(ast.dump(node))


def check_fill(name: str) -> str:
    """``name`` if the search can fill a buffer that way (a fill that needs no value), else ValueError."""
    from simu.launch.buffers import PLAIN_FILLS

    if name not in PLAIN_FILLS:
        raise ValueError(f"expected one of {', '.join(PLAIN_FILLS)}, got {name!r}")
    return name
