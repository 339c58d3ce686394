"""Project configuration: ``[tool.simu]`` in ``pyproject.toml`` or a ``simu.toml``, validated into dataclasses.

The search for a configuration starts at the scanned path and walks upward; it stops at the first
``simu.toml`` or ``pyproject.toml`` with a ``[tool.simu]`` table, and never leaves the repository
(a folder holding ``.git``).  Keys are written in kebab-case (``opt-level``); snake_case is accepted.
Every unknown key is an error that names it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simu.codes import CHECK_NAMES, FAIL_ON, KIND_IDS, SEVERITY_CHOICES
from simu.errors import SimuError
from simu.launch.constraints import KernelConstraints, check_expression, check_fill, parse_dim

WARP_MODELS = ("lockstep", "independent")
SCALAR = (int, float)


class ConfigError(SimuError):
    """The configuration is invalid; the message names the file and the offending key."""


_SIZE = re.compile(r"^\s*(\d+)\s*(B|KB|KiB|K|MB|MiB|M)?\s*$", re.I)
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}


def parse_size(value: Any) -> int:
    """Bytes from an integer or a text such as ``48KiB`` (KB and KiB both mean 1024 bytes, as GPU
    vendors' shared-memory figures do).  Raises :class:`ValueError` with what is allowed."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str) and _SIZE.match(value):
        m = _SIZE.match(value)
        n = int(m.group(1)) * _UNITS[(m.group(2) or "").lower()]
    else:
        raise ValueError(f"expected a number of bytes such as 49152 or \"48KiB\", got {value!r}")
    if n <= 0:
        raise ValueError(f"must be a positive number of bytes, not {value!r}")
    return n


@dataclass
class Suppression:
    """``[[tool.simu.suppress]]``: hide findings by kind, file (glob, relative to the root), line, kernel."""

    kind: str | None = None
    file: str | None = None
    line: int | None = None
    kernel: str | None = None
    reason: str = ""


@dataclass
class FileSettings:
    """``[tool.simu.files."GLOB"]``: compiler options for the files a .gitignore-style glob (relative to the
    configuration's folder) matches; several matching tables add up in file order."""

    glob: str
    define: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)  # relative to the configuration's folder
    clang_args: list[str] = field(default_factory=list)


@dataclass
class Config:
    """Everything ``[tool.simu]`` can say.  ``None`` means "not set" (the command's default applies)."""

    root: Path | None = None  # folder of the configuration file
    source: Path | None = None  # the configuration file
    include: list[str] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    clang_args: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    opt_level: int | None = None
    warp_model: str | None = None
    strict_warp: bool | None = None
    warp_size: int | None = None
    checks: list[str] | None = None
    budget: float | None = None
    jobs: int | None = None
    fail_on: str | None = None
    cache_dir: str | None = None
    max_static_shared: int | None = None  # bytes of static shared memory a block may use (default 48 KiB)
    max_dynamic_shared: int | None = None  # bytes of dynamic shared memory a block may use (default 227 KiB)
    compile_commands: str | None = None  # a compile_commands.json, relative to the configuration's folder
    cuda_path: str | None = None  # a CUDA toolkit root whose headers replace simu's shim, relative to the folder
    files: list[FileSettings] = field(default_factory=list)
    severity: dict[str, str] = field(default_factory=dict)
    suppress: list[Suppression] = field(default_factory=list)
    kernels: dict[str, KernelConstraints] = field(default_factory=dict)

    def constraints_for(self, name: str, mangled: str = "") -> KernelConstraints | None:
        """The constraints of a kernel (by source name or mangled name), with the global warp size."""
        c = self.kernels.get(name) or (self.kernels.get(mangled) if mangled else None)
        if c is None and self.warp_size is None:
            return None
        c = KernelConstraints(**{**(c.__dict__ if c else {})})
        if c.warp_size is None:
            c.warp_size = self.warp_size
        return c


# ---------------------------------------------------------------------------------------------------------
# finding the file


def find_config(start: Path) -> Path | None:
    """The nearest ``simu.toml`` or ``pyproject.toml`` with ``[tool.simu]`` at or above ``start``.

    A deliberate rule (documented in README): in one folder ``simu.toml`` wins over ``pyproject.toml``,
    whose ``[tool.simu]`` is then ignored; the two are never merged."""
    here = start.resolve()
    if here.is_file() or not here.exists():
        here = here.parent
    for d in (here, *here.parents):
        simu_toml = d / "simu.toml"
        if simu_toml.is_file():
            return simu_toml
        pyproject = d / "pyproject.toml"
        if pyproject.is_file() and _has_tool_simu(pyproject):
            return pyproject
        if (d / ".git").exists():
            return None
    return None


def _has_tool_simu(path: Path) -> bool:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return "[tool.simu" in _read(path)
    return isinstance(data.get("tool"), dict) and "simu" in data["tool"]


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def load_config(path: Path | None) -> Config:
    """Parse and validate a configuration file (``None``: the empty configuration)."""
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    if path.name == "pyproject.toml":
        cfg = parse_config(data.get("tool", {}).get("simu", {}), str(path), "tool.simu")
    else:
        cfg = parse_config(data, str(path), "")
    cfg.root = path.parent.resolve()
    cfg.source = path
    return cfg


# ---------------------------------------------------------------------------------------------------------
# validation


def _norm(key: str) -> str:
    return key.replace("_", "-")


class _Table:
    """A TOML table being validated: typed getters, and unknown keys reported by name.

    ``file`` names the configuration file, ``table`` the dotted table name (``tool.simu.kernels.k``,
    empty for the top level of ``simu.toml``)."""

    def __init__(self, data: Any, file: str, table: str):
        self.file, self.table = file, table
        self.where = f"{file}: [{table}]" if table else file
        if not isinstance(data, dict):
            raise ConfigError(f"{self.where}: expected a table, got {type(data).__name__}")
        self.data = {_norm(k): v for k, v in data.items()}
        self.seen: set[str] = set()
        self.raw = {_norm(k): k for k in data}

    def sub(self, name: str) -> str:
        return f"{self.table}.{name}" if self.table else name

    def err(self, key: str, what: str) -> ConfigError:
        return ConfigError(f"{self.where}: '{self.raw.get(key, key)}': {what}")

    def get(self, key: str) -> Any:
        self.seen.add(key)
        return self.data.get(key)

    def str_(self, key: str, choices: tuple[str, ...] | None = None) -> str | None:
        v = self.get(key)
        if v is None:
            return None
        if not isinstance(v, str):
            raise self.err(key, f"expected a string, got {v!r}")
        if choices and v not in choices:
            raise self.err(key, f"must be one of {', '.join(choices)}, not '{v}'")
        return v

    def int_(self, key: str, lo: int | None = None, hi: int | None = None) -> int | None:
        v = self.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(key, f"expected an integer, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            raise self.err(key, f"must be {bound}, not {v}")
        return v

    def size(self, key: str) -> int | None:
        """A byte count: an integer or a text such as \"48KiB\", \"100 KB\", \"1 MiB\"."""
        v = self.get(key)
        if v is None:
            return None
        try:
            return parse_size(v)
        except ValueError as exc:
            raise self.err(key, str(exc)) from None

    def num(self, key: str) -> float | None:
        v = self.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, SCALAR):
            raise self.err(key, f"expected a number, got {v!r}")
        if v <= 0:
            raise self.err(key, f"must be positive, not {v}")
        return float(v)

    def bool_(self, key: str) -> bool | None:
        v = self.get(key)
        if v is None:
            return None
        if not isinstance(v, bool):
            raise self.err(key, f"expected true or false, got {v!r}")
        return v

    def strings(self, key: str) -> list[str]:
        v = self.get(key)
        if v is None:
            return []
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.err(key, f"expected a list of strings, got {v!r}")
        return list(v)

    def finish(self) -> None:
        unknown = [self.raw[k] for k in self.data if k not in self.seen]
        if unknown:
            raise ConfigError(f"{self.where}: unknown key '{unknown[0]}'")


def parse_config(table: Any, file: str = "pyproject.toml", name: str = "tool.simu") -> Config:
    """Validate a ``[tool.simu]`` table (or the top level of ``simu.toml``: ``name=""``) into a :class:`Config`."""
    t = _Table(table, file, name)
    cfg = Config()
    cfg.include = t.strings("include")
    cfg.define = t.strings("define")
    cfg.clang_args = t.strings("clang-args")
    cfg.exclude = t.strings("exclude")
    cfg.opt_level = t.int_("opt-level", 0, 3)
    cfg.warp_model = t.str_("warp-model", WARP_MODELS)
    cfg.strict_warp = t.bool_("strict-warp")
    cfg.warp_size = _warp_size(t, "warp-size")
    if t.get("checks") is not None:
        cfg.checks = t.strings("checks")
        if not cfg.checks:  # no check at all would pass every kernel
            raise t.err("checks", f"give one or more of {', '.join(CHECK_NAMES)}")
        for c in cfg.checks:
            if c not in CHECK_NAMES:
                raise t.err("checks", f"unknown check '{c}' (available: {', '.join(CHECK_NAMES)})")
    cfg.budget = t.num("budget")
    cfg.jobs = t.int_("jobs", 1)
    cfg.fail_on = t.str_("fail-on", FAIL_ON)
    cfg.cache_dir = t.str_("cache-dir")
    cfg.compile_commands = t.str_("compile-commands")
    cfg.cuda_path = t.str_("cuda-path")
    files = t.get("files")
    if files is not None:
        ft = _Table(files, file, t.sub("files"))
        for key in list(ft.data):
            ft.seen.add(key)
            cfg.files.append(_file_settings(ft.raw[key], ft.data[key], file, f"{ft.table}.\"{ft.raw[key]}\""))
        ft.finish()
    cfg.max_static_shared = t.size("max-static-shared")
    cfg.max_dynamic_shared = t.size("max-dynamic-shared")

    sev = t.get("severity")
    if sev is not None:
        st = _Table(sev, file, t.sub("severity"))
        for kind in list(st.data):
            if kind not in KIND_IDS:
                raise ConfigError(f"{st.where}: unknown key '{st.raw[kind]}' (finding kinds: {', '.join(KIND_IDS)})")
            cfg.severity[kind] = st.str_(kind, SEVERITY_CHOICES)  # type: ignore[assignment]
        st.finish()

    sup = t.get("suppress")
    if sup is not None:
        if isinstance(sup, dict):
            sup = [sup]
        if not isinstance(sup, list):
            raise t.err("suppress", f"expected an array of tables ([[{t.sub('suppress')}]])")
        for i, entry in enumerate(sup):
            cfg.suppress.append(_suppression(_Table(entry, file, f"{t.sub('suppress')}.{i}"), KIND_IDS))

    kernels = t.get("kernels")
    if kernels is not None:
        kt = _Table(kernels, file, t.sub("kernels"))
        for key in list(kt.data):
            kt.seen.add(key)
            kname = kt.raw[key]
            cfg.kernels[kname] = parse_constraints(kt.data[key], file, f"{kt.table}.{kname}")
        kt.finish()
    t.finish()
    return cfg


def _file_settings(glob: str, data: Any, file: str, table: str) -> FileSettings:
    t = _Table(data, file, table)
    if not glob.strip():
        raise ConfigError(f"{t.where}: an empty glob matches no file")
    fs = FileSettings(glob, define=t.strings("define"), include=t.strings("include"),
                      clang_args=t.strings("clang-args"))
    for d in fs.define:
        if not d or d.startswith("-") or not re.match(r"^[A-Za-z_]\w*(\(|=|$)", d):
            raise t.err("define", f"'{d}' is not NAME or NAME=VALUE")
    t.finish()
    return fs


def _suppression(t: _Table, kinds: tuple[str, ...]) -> Suppression:
    s = Suppression(kind=t.str_("kind"), file=t.str_("file"), line=t.int_("line", 1), kernel=t.str_("kernel"),
                    reason=t.str_("reason") or "")
    if s.kind is not None and s.kind not in kinds:
        raise t.err("kind", f"unknown finding kind '{s.kind}' (finding kinds: {', '.join(kinds)})")
    if s.kind is None and s.file is None and s.kernel is None:
        raise ConfigError(f"{t.where}: a suppression needs at least one of 'kind', 'file', 'kernel'")
    t.finish()
    return s


def _warp_size(t: _Table, key: str) -> int | None:
    v = t.int_(key)
    if v is not None and v not in (1, 32, 64):
        raise t.err(key, f"must be 1, 32 or 64, not {v}")
    return v


_RANGE = re.compile(r"^\s*(-?[\d.eE+]+)\s*:\s*(-?[\d.eE+]+)\s*$")
def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_constraints(data: Any, file: str = "pyproject.toml", table: str = "kernel") -> KernelConstraints:
    """One ``[tool.simu.kernels.<name>]`` table."""
    t = _Table(data, file, table)
    c = KernelConstraints()
    for key in ("grid", "block"):
        v = t.get(key)
        if v is not None:
            try:
                setattr(c, key, parse_dim(v))
            except ValueError as exc:
                raise t.err(key, str(exc)) from None
    c.warp_size = _warp_size(t, "warp-size")
    c.dynamic_shared = t.int_("dynamic-shared", 0)
    args = t.get("args")
    if args is not None:
        at = _Table(args, file, t.sub("args"))
        for key in list(at.data):
            at.seen.add(key)
            name, v = at.raw[key], at.data[key]
            if isinstance(v, bool):
                raise at.err(key, "expected a number, a range \"lo:hi\" or a buffer length expression")
            if isinstance(v, SCALAR):
                c.args[name] = v
            elif isinstance(v, list) and len(v) == 2 and all(isinstance(x, SCALAR) and not isinstance(x, bool)
                                                             for x in v):
                c.arg_ranges[name] = _ordered(v[0], v[1], at, key)
            elif isinstance(v, str) and _RANGE.match(v):
                m = _RANGE.match(v)
                try:
                    lo, hi = _number(m.group(1)), _number(m.group(2))
                except ValueError:
                    raise at.err(key, f"bad range '{v}'") from None
                c.arg_ranges[name] = _ordered(lo, hi, at, key)
            elif isinstance(v, str):
                try:
                    check_expression(v)
                except ValueError as exc:
                    raise at.err(key, f"{exc}; expected a number, a range \"lo:hi\" or (for a pointer parameter) "
                                      "a length expression such as \"n * 4\"") from None
                c.buffer_lengths[name] = v.strip()
            else:
                raise at.err(key, f"expected a number, a range \"lo:hi\" or a buffer length expression, got {v!r}")
    fills = t.get("fills")
    if fills is not None:
        ft = _Table(fills, file, t.sub("fills"))
        for key in list(ft.data):
            ft.seen.add(key)
            try:
                c.fills[ft.raw[key]] = check_fill(ft.data[key])
            except ValueError as exc:
                raise ft.err(key, str(exc)) from None
    same = t.get("same")
    if same is not None:
        st = _Table(same, file, t.sub("same"))
        for key in list(st.data):
            st.seen.add(key)
            if not isinstance(st.data[key], str) or not st.data[key]:
                raise st.err(key, "expected the name of the parameter whose buffer this one shares")
            c.same[st.raw[key]] = st.data[key]
    t.finish()
    return c


def _ordered(lo: int | float, hi: int | float, t: "_Table", key: str) -> tuple[int | float, int | float]:
    if lo > hi:
        raise t.err(key, f"empty range {lo}:{hi}")
    return (lo, hi)
