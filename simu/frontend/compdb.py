"""A project's ``compile_commands.json`` (CMake ``CMAKE_EXPORT_COMPILE_COMMANDS``, Bear): per-file flags.

Only what changes how a file *parses* is taken: ``-I``/``-isystem``/``-iquote`` (resolved against the
entry's ``directory``), ``-D``, ``-U``, ``-std=``, ``-include``.  Everything else (nvcc's ``-gencode``,
``-arch``, ``-Xcompiler``, ``--expt-relaxed-constexpr``, optimisation, warnings, outputs) is dropped:
simu compiles for its own target in its own mode.  A file that is not listed (a header, a ``.cu``
built by a custom command) takes the flags of the nearest listed file: one of the same stem in its
folder, else the first listed file of its folder, else of the nearest folder above it.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

NAME = "compile_commands.json"
# options (nvcc's and gcc/clang's) whose value is the next word, dropped with it
_DROP_WITH_VALUE = frozenset({
    "-o", "-x", "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xlinker", "--linker-options",
    "-Xnvlink", "--nvlink-options", "-Xarchive", "-gencode", "--generate-code", "-arch", "--gpu-architecture",
    "-code", "--gpu-code", "-ccbin", "--compiler-bindir", "-MF", "-MT", "-MQ", "-maxrregcount", "--maxrregcount",
    "--output-file", "-t", "--threads", "-rdc", "--relocatable-device-code", "-Xclang", "-target", "--target",
    "-arch=", "-Xcudafe", "--diag-suppress", "-Xarch_device", "-Xarch_host", "-ldir", "-l", "-L", "--options-file",
    "--default-stream", "-default-stream", "-cudart", "--cudart", "-idirafter", "-imacros"})
_INCLUDE_DIR = {"-I": "-I", "--include-path": "-I", "-isystem": "-isystem", "--system-include": "-isystem",
                "-iquote": "-iquote"}
_DEFINE = ("-D", "--define-macro")
_UNDEF = ("-U", "--undefine-macro")
_FORCE_INCLUDE = ("-include", "--pre-include")


class CompileDatabaseError(Exception):
    """The database cannot be read; the message is one line naming the file."""


@dataclass(frozen=True)
class BuildFlags:
    """The flags of one database entry that simu keeps."""

    include_dirs: tuple[str, ...] = ()  # -I folders, absolute
    defines: tuple[str, ...] = ()  # NAME or NAME=VALUE
    clang_args: tuple[str, ...] = ()  # -isystem/-iquote DIR, -UNAME, -std=..., -include FILE
    source: str = ""  # the listed file these flags come from


def translate(argv: list[str], directory: Path, source: str = "") -> BuildFlags:
    """Keep the parse-relevant flags of one compiler command line (see the module docstring)."""
    incs: list[str] = []
    defines: list[str] = []
    args: list[str] = []
    i = 0

    def value(w: str, flag: str) -> tuple[str | None, int]:
        """The value of ``flag`` in ``w`` (joined, or ``=``-joined) or in the next word."""
        if w == flag:
            return (argv[i + 1], 2) if i + 1 < len(argv) else (None, 1)
        rest = w[len(flag):]
        return (rest[1:] if rest.startswith("=") and flag.startswith("--") else rest), 1

    def path(p: str) -> str:
        q = Path(p)
        return str(q if q.is_absolute() else (directory / q).resolve())

    while i < len(argv):
        w = argv[i]
        step = 1
        flag = next((f for f in (*_INCLUDE_DIR, *_DEFINE, *_UNDEF, *_FORCE_INCLUDE) if w == f or (
            w.startswith(f) and (len(f) == 2 or w.startswith(f + "=") or f in ("-isystem", "-iquote")))), None)
        if flag is not None:
            v, step = value(w, flag)
            if v:
                if flag in _INCLUDE_DIR:
                    kind = _INCLUDE_DIR[flag]
                    if kind == "-I":
                        incs.append(path(v))
                    else:
                        args += [kind, path(v)]
                elif flag in _DEFINE:
                    defines.append(v)
                elif flag in _UNDEF:
                    args.append(f"-U{v}")
                else:
                    args += ["-include", path(v)]
        elif w.startswith(("-std=", "--std=")):
            args.append("-std=" + w.split("=", 1)[1])
        elif w in ("-std", "--std") and i + 1 < len(argv):
            args.append("-std=" + argv[i + 1])
            step = 2
        elif w in _DROP_WITH_VALUE:
            step = 2
        i += step
    return BuildFlags(tuple(incs), tuple(defines), tuple(args), source)


class CompileDatabase:
    """The entries of one ``compile_commands.json``, by resolved file path."""

    def __init__(self, path: Path, entries: dict[Path, BuildFlags]):
        self.path, self.entries = path, entries
        self._by_folder: dict[Path, list[Path]] = {}
        for f in sorted(entries):
            self._by_folder.setdefault(f.parent, []).append(f)

    @staticmethod
    def load(path: Path) -> "CompileDatabase":
        try:
            data = json.loads(path.read_text())
        except OSError as exc:
            raise CompileDatabaseError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CompileDatabaseError(f"{path}: not a compile_commands.json (invalid JSON: {exc})") from None
        if not isinstance(data, list):
            raise CompileDatabaseError(f"{path}: not a compile_commands.json (expected a list of entries)")
        entries: dict[Path, BuildFlags] = {}
        for n, e in enumerate(data):
            if not isinstance(e, dict) or not isinstance(e.get("file"), str) or not isinstance(e.get("directory"), str):
                raise CompileDatabaseError(f"{path}: entry {n}: expected an object with 'directory' and 'file'")
            directory = (path.parent / e["directory"]).resolve()
            if isinstance(e.get("arguments"), list) and all(isinstance(a, str) for a in e["arguments"]):
                argv = list(e["arguments"])
            elif isinstance(e.get("command"), str):
                try:
                    argv = shlex.split(e["command"])
                except ValueError as exc:
                    raise CompileDatabaseError(f"{path}: entry {n}: bad 'command' ({exc})") from None
            else:
                raise CompileDatabaseError(f"{path}: entry {n}: needs 'arguments' (a list) or 'command' (a string)")
            file = (directory / e["file"]).resolve()
            entries.setdefault(file, translate(argv[1:], directory, str(file)))
        return CompileDatabase(path, entries)

    def flags_for(self, file: Path) -> BuildFlags | None:
        """The flags of ``file``, or of the nearest listed file (see the module docstring)."""
        file = file.resolve()
        hit = self.entries.get(file)
        if hit is not None:
            return hit
        for folder in (file.parent, *file.parent.parents):
            listed = self._by_folder.get(folder)
            if listed:
                same = [f for f in listed if f.stem == file.stem]
                return self.entries[(same or listed)[0]]
        return None


def find_compile_database(root: Path) -> Path | None:
    """``compile_commands.json`` at the project root, else in a ``build*/`` folder of it (first by name)."""
    top = root / NAME
    if top.is_file():
        return top
    try:
        builds = sorted(d for d in root.iterdir() if d.is_dir() and d.name.lower().startswith("build"))
    except OSError:
        return None
    for d in builds:
        if (d / NAME).is_file():
            return d / NAME
    return None
