"""`simu serve`: the resident checker (``simu.resident``) — start it, ask how it is, stop it."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import sys
import time
from typing import Annotated

import click
import typer

from simu.cli.common import console, err_console, fail
from simu.resident.address import socket_path
from simu.resident.client import ask

# what `simu check` and `simu scan` import on their way; the replay and mining back ends (OpenCL and CUDA
# runtimes, Dask) start threads and devices a fork must not copy, and stay out
WARM_PACKAGES = ("simu.cli", "simu.check", "simu.pipeline", "simu.scan", "simu.detect", "simu.interp", "simu.ir",
                 "simu.frontend", "simu.host", "simu.launch", "simu.report", "simu.evolve", "simu.config")
COLD = ("pyopencl", "cupy", "dask", "distributed")


def serve_cmd(ctx: typer.Context,
              detach: Annotated[bool, typer.Option("--detach", help="Start it in the background and return.")] = False,
              stop: Annotated[bool, typer.Option("--stop", help="Stop the one running.")] = False,
              status: Annotated[bool, typer.Option("--status", help="Say whether one runs, and what it served.")
                                ] = False,
              idle: Annotated[float, typer.Option(metavar="MINUTES", help="Stop after this long with no command.")
                              ] = 30.0) -> None:
    """Keep a warm simu process that answers every later `simu` command of this installation and user.

    A command then starts in a few hundredths of a second instead of most of one (Python, numpy, llvmlite and
    simu are imported once): what the pre-commit hook and scripts checking launch after launch pay.  Each command
    still runs in its own process (forked from the warm one) with the caller's folder, environment and streams;
    after an edit of simu's sources the checker stops and commands run as before.  SIMU_RESIDENT=0 keeps a
    command out of it."""
    path = socket_path()
    if stop or status:
        reply = ask(path, "stop" if stop else "status")
        if reply is None:
            err_console.print("no resident checker runs for this simu", highlight=False)
            raise typer.Exit(1 if status else 0)
        ago = time.time() - float(reply.get("started", time.time()))
        verb = "stopping" if stop else "running"
        console.print(f"resident checker {verb}: pid {reply.get('server')}, up {ago:.0f} s, "
                      f"{reply.get('served', 0)} commands served, {reply.get('workers', 0)} running, "
                      f"{reply.get('abandoned', 0)} stopped when their caller went away; {path}",
                      highlight=False)
        return
    if idle <= 0:
        fail(f"--idle must be positive, not {idle}")
    group = ctx.find_root().command
    from simu.resident.server import Server

    server = Server(lambda args: _run(group, args), idle * 60, path)
    try:
        listener = server.bind()
    except OSError as exc:
        fail(str(exc))
    if detach and os.fork() != 0:
        listener.close()
        _await(path)
        console.print(f"resident checker started: {path} (stops after {idle:g} minutes idle; `simu serve --stop`)",
                      highlight=False)
        return
    if detach:
        _daemonize()
        server.status.pid = os.getpid()  # the detached child's, not the parent's that returned
    else:
        err_console.print(f"resident checker at {path}; Ctrl-C stops it", highlight=False)
    _warm(group)
    try:
        server.serve(listener)
    except KeyboardInterrupt:
        pass
    if detach:
        os._exit(0)


def _run(group: click.Command, args: list[str]) -> int:
    """One command, as `simu ARGS` runs it (a worker process, :func:`simu.resident.worker.run`)."""
    from simu.cli.common import reset_consoles

    reset_consoles()
    group.main(args=args, prog_name="simu", standalone_mode=True)
    return 0


def _warm(group: click.Command) -> None:
    """Import what commands use, then let every later fork share it: each package a command reaches, and every
    module a rehearsal — a small complete `simu check` of the bench kernels, run in a child so that nothing but its
    imports stays — brought in on the way (typer's converters, llvmlite, numpy's generators).  Facts of this
    installation alone (simu's code fingerprint, where clang and CCCL are) are asked here once for all."""
    for name in WARM_PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(getattr(package, "__path__", []), prefix=name + "."):
            if not info.name.startswith(("simu.cli.serve", "simu.scan.dask")):
                try:
                    importlib.import_module(info.name)
                except Exception:  # noqa: BLE001 - an optional back end missing: that command imports it itself
                    continue
    modules, patterns = _rehearse(group)
    for name in modules:
        if name.split(".")[0] not in COLD:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - a module only importable in its parent's context
                continue
    for pattern, flags in patterns:  # the regular expressions it compiled (a pure cache)
        try:
            re.compile(pattern, flags)
        except (re.error, TypeError):
            continue
    from simu.frontend.cuda_headers import cccl_include_dir
    from simu.frontend.toolchain import clang_command
    from simu.host.index import extractor_version
    from simu.scan.cache import code_fingerprint

    code_fingerprint(), clang_command(), cccl_include_dir(), extractor_version()
    _build_converters(group)


def _build_converters(command: click.Command, parent=None) -> None:
    """Build every option's value converter now (typer builds one per option on first use, a hundredth of a
    second for a command's options: each worker would pay it again), the help option's too: click makes that one
    with the command's first context, so a context like the one a command line gets (its parent's) makes it here."""
    ctx = None
    make = getattr(command, "context_class", None)
    if make is not None:
        try:
            ctx = make(command, parent=parent, **(getattr(command, "context_settings", None) or {}))
        except Exception:  # noqa: BLE001 - made when the command runs, as without a checker
            ctx = None
    helper = command.get_help_option(ctx) if ctx is not None and hasattr(command, "get_help_option") else None
    for param in [*command.params, *([helper] if helper is not None else [])]:
        build = getattr(param, "get_runtime_param", None)
        if build is not None:
            try:
                build()
            except Exception:  # noqa: BLE001 - built when the option is used, as without a checker
                continue
    for sub in getattr(command, "commands", {}).values():
        _build_converters(sub, ctx)


def _rehearse(group: click.Command) -> tuple[list[str], list[tuple[str, int]]]:
    """The modules a rehearsal command imported and the regular expressions it compiled."""
    from simu.bench import KERNELS

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        before = set(sys.modules)
        try:
            os.close(read)
            _silence()
            group.main(args=["check", str(KERNELS), "--kernel", "reduction", "--grid", "2", "--block", "64",
                             "--buffer", "in=float32:128:ramp", "--buffer", "out=float32:2", "--arg", "n=128"],
                       prog_name="simu", standalone_mode=False)
        except BaseException:  # noqa: BLE001 - whatever it got to is still worth importing
            pass
        finally:
            patterns = [[key[1], key[2]] for key in list(re._cache) if isinstance(key[1], str)]  # noqa: SLF001
            with os.fdopen(write, "w") as pipe:
                json.dump({"modules": sorted(set(sys.modules) - before), "patterns": patterns}, pipe)
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        try:
            seen = json.load(pipe)
        except ValueError:
            seen = {}
    os.waitpid(pid, 0)
    return seen.get("modules", []), [tuple(p) for p in seen.get("patterns", [])]


def _daemonize() -> None:
    os.setsid()
    _silence()


def _silence() -> None:
    """Standard streams to /dev/null (a detached server, the rehearsal)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _await(path, seconds: float = 180.0) -> None:  # a loaded machine warms up slowly
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ask(path, "status") is not None:
            return
        time.sleep(0.05)
    fail(f"the resident checker did not answer at {path} within {seconds:g} s")
