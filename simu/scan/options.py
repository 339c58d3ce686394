"""What a scan is asked to do: command-line overrides merged with the configuration into ScanOptions."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from simu.codes import FAIL_ON
from simu.config import WARP_MODELS, Config, find_config, load_config
from simu.evolve.cpulimit import HARD_FACTOR
from simu.launch.limits import MAX_DYNAMIC_SHARED, MAX_STATIC_SHARED
from simu.scan.changes import find_root

DEFAULT_BUDGET = 5.0  # seconds of launch search per kernel
COMPILE_LIMIT = 120.0  # seconds one file may take to compile before its worker is stopped
WALL_FACTOR = 4.0  # the parent kills a worker past WALL_FACTOR x budget + WALL_GRACE of wall time
WALL_GRACE = 30.0  # reading a large module and compiling its kernel come first (not in the CPU limit)
# CPU seconds for reading a file's IR and decoding and compiling one kernel, before its analysis's limit starts (a
# kernel of 100,000s of instructions, unrolled hash rounds, takes tens of seconds of this)
PREPARE_CPU_LIMIT = 60.0


class ScanError(Exception):
    """A usage problem that stops the scan before it starts (exit code 2)."""


@dataclass
class ScanOverrides:
    """Options given on the command line; ``None`` / empty = not given (the configuration decides)."""

    include: list[str] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    clang_args: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    opt_level: int | None = None
    warp_model: str | None = None
    checks: list[str] | None = None
    budget: float | None = None
    jobs: int | None = None
    fail_on: str | None = None
    cache_dir: str | None = None
    no_cache: bool = False
    changed: bool = False
    config: str | None = None  # an explicit configuration file
    compile_commands: str | None = None  # --compile-commands FILE
    cuda_path: str | None = None  # --cuda-path DIR
    max_static_shared: int | None = None
    max_dynamic_shared: int | None = None


@dataclass
class ScanOptions:
    paths: list[Path]
    root: Path
    include: list[Path] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    clang_args: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)  # --exclude globs, relative to the root
    config_exclude: list[str] = field(default_factory=list)  # the configuration's, relative to config_base
    config_base: Path | None = None  # folder of the configuration file
    opt_level: int = 0
    warp_model: str = "lockstep"
    strict_warp: bool = False
    checks: tuple[str, ...] = ()
    budget: float = DEFAULT_BUDGET
    jobs: int = 1
    fail_on: str = "error"
    cache_dir: Path | None = None  # None: no cache
    changed: bool = False
    auto_include: bool = True
    compile_commands: Path | None = None  # given; None: looked for at the root and in build*/
    host_code: bool = True  # read the project's host code (OpenCL build options, launch contracts)
    cuda_path: str | None = None  # a CUDA toolkit root: its headers instead of simu's shim
    cuda_path_detected: bool = False  # found through CUDA_PATH / nvcc (a file it fails on gets the shim)
    max_static_shared: int = MAX_STATIC_SHARED  # bytes per block (a launch over it is not-launchable)
    max_dynamic_shared: int = MAX_DYNAMIC_SHARED

    def limits(self, **more):
        """The machine's :class:`~simu.interp.Limits` these options ask for (``more`` sets other fields)."""
        from simu.interp import Limits

        return Limits(max_static_shared=self.max_static_shared, max_dynamic_shared=self.max_dynamic_shared, **more)

    @property
    def hard_limit(self) -> float:
        """CPU seconds after which a worker stops one kernel's analysis (:data:`HARD_FACTOR` budgets)."""
        return HARD_FACTOR * self.budget

    @property
    def wall_limit(self) -> float:
        """Wall seconds after which the parent kills a worker stuck in one analysis."""
        return WALL_FACTOR * self.budget + WALL_GRACE


def resolve_options(paths: list[Path], cli: ScanOverrides | None = None) -> tuple[ScanOptions, Config]:
    """Merge the configuration (searched upward from the first path) with command-line options.

    Lists from the command line (``-I``, ``-D``, ``--clang-arg``, ``--exclude``) extend the configuration's;
    single values replace them.  Raises :class:`ConfigError` or :class:`ScanError`.
    """
    cli = cli or ScanOverrides()
    paths = [Path(p) for p in paths] or [Path(".")]
    for p in paths:
        if not p.exists():
            raise ScanError(f"no such file or directory: {p}")
    config = load_config(_config_file(paths, cli))
    root = find_root(paths, config.root).resolve()
    base = config.root or root
    checks, warp_model, fail_on = _checks(cli, config), _warp_model(cli, config), _fail_on(cli, config)
    budget, jobs = _budget(cli, config), _jobs(cli, config)
    include = [(base / d).resolve() for d in config.include] + [Path(d).resolve() for d in cli.include]
    opts = ScanOptions(
        paths=paths, root=root, include=include, define=config.define + list(cli.define),
        clang_args=config.clang_args + list(cli.clang_args), exclude=list(cli.exclude),
        config_exclude=list(config.exclude), config_base=config.root,
        opt_level=int(_pick(cli.opt_level, config.opt_level, 0)), warp_model=warp_model,
        strict_warp=bool(config.strict_warp), checks=checks, budget=budget, jobs=jobs, fail_on=fail_on,
        cache_dir=_cache_dir(cli, config, root, base), changed=cli.changed,
        max_static_shared=int(_pick(cli.max_static_shared, config.max_static_shared, MAX_STATIC_SHARED)),
        max_dynamic_shared=int(_pick(cli.max_dynamic_shared, config.max_dynamic_shared, MAX_DYNAMIC_SHARED)),
        compile_commands=_compile_commands(cli, config, base), cuda_path=_cuda_path(cli, config, base))
    opts.cuda_path_detected = bool(opts.cuda_path) and not (cli.cuda_path or config.cuda_path)
    return opts, config


def _cuda_path(cli: ScanOverrides, config: Config, base: Path) -> str | None:
    """--cuda-path, else the configuration's cuda-path, else CUDA_PATH / nvcc on PATH when they name a toolkit."""
    from simu.frontend.cuda_headers import check_cuda_path, detect_cuda_path

    if cli.cuda_path:
        problem = check_cuda_path(cli.cuda_path)
        if problem:
            raise ScanError(problem)
        return str(Path(cli.cuda_path).resolve())
    if config.cuda_path:
        path = (base / config.cuda_path).resolve()
        problem = check_cuda_path(str(path))
        if problem:
            raise ScanError(f"{config.source}: 'cuda-path': {problem.split(': ', 1)[1]}")
        return str(path)
    return detect_cuda_path()


def _compile_commands(cli: ScanOverrides, config: Config, base: Path) -> Path | None:
    if cli.compile_commands:
        path = Path(cli.compile_commands)
        if not path.is_file():
            raise ScanError(f"--compile-commands: no such file: {path}")
        return path.resolve()
    if config.compile_commands:
        path = base / config.compile_commands
        if not path.is_file():
            raise ScanError(f"{config.source}: 'compile-commands': no such file: {path}")
        return path.resolve()
    return None


def _pick(cli_value, cfg_value, default):
    return cli_value if cli_value is not None else cfg_value if cfg_value is not None else default


def _config_file(paths: list[Path], cli: ScanOverrides) -> Path | None:
    if not cli.config:
        return find_config(paths[0])
    path = Path(cli.config)
    if not path.is_file():
        raise ScanError(f"no such configuration file: {path}")
    return path


def _checks(cli: ScanOverrides, config: Config) -> tuple[str, ...]:
    from simu.detect import CHECKS, DEFAULT_CHECKS

    checks = tuple(_pick(cli.checks, config.checks, list(DEFAULT_CHECKS)))
    for c in checks:
        if c not in CHECKS:
            raise ScanError(f"unknown check '{c}' (available: {', '.join(CHECKS)})")
    return checks


def _warp_model(cli: ScanOverrides, config: Config) -> str:
    warp_model = _pick(cli.warp_model, config.warp_model, "lockstep")
    if warp_model not in WARP_MODELS:
        raise ScanError(f"--warp-model must be one of {', '.join(WARP_MODELS)}, not '{warp_model}'")
    return warp_model


def _fail_on(cli: ScanOverrides, config: Config) -> str:
    fail_on = _pick(cli.fail_on, config.fail_on, "error")
    if fail_on not in FAIL_ON:
        raise ScanError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not '{fail_on}'")
    return fail_on


def _budget(cli: ScanOverrides, config: Config) -> float:
    budget = float(_pick(cli.budget, config.budget, DEFAULT_BUDGET))
    if budget <= 0:
        raise ScanError(f"--budget must be positive, not {budget:g}")
    return budget


def _jobs(cli: ScanOverrides, config: Config) -> int:
    jobs = int(_pick(cli.jobs, config.jobs, os.cpu_count() or 1))
    if jobs < 1:
        raise ScanError(f"--jobs must be at least 1, not {jobs}")
    return jobs


def _cache_dir(cli: ScanOverrides, config: Config, root: Path, base: Path) -> Path | None:
    if cli.no_cache:
        return None
    if cli.cache_dir:
        return Path(cli.cache_dir).resolve()
    if config.cache_dir:
        return (base / config.cache_dir).resolve()
    return root / ".simu-cache"
