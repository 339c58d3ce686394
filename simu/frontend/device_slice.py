"""A device-only slice of a CUDA translation unit whose host side does not compile.

A framework's ``.cu`` files include the framework's headers, which include third-party host libraries
(boost, glog, protobuf's generated ``*.pb.h``, OpenCV) that are not installed where simu runs, and the host
functions that launch the kernels use them.  The kernels themselves rarely do.  When such a file does not
compile, simu compiles what the device needs of it instead:

1. every header the preprocessor cannot find (clang ``-M -MG``, which lists them instead of stopping) gets an
   empty stand-in, in a folder searched last (``-idirafter``);
2. clang reports every error of the translation unit (``-fsyntax-only -ferror-limit=0``); each error is
   mapped to the declaration of the project file that holds it (:mod:`simu.frontend.declarations`: a
   function definition, a class member, a ``using``, an explicit instantiation — errors in a system header
   are mapped through their "in instantiation of"/"expanded from" notes to the project line that caused
   them), and that declaration is blanked, lines and columns kept, in a copy the compile reads through a
   clang VFS overlay under the file's own name;
3. round 2 repeats until clang reports nothing (at most :data:`MAX_ROUNDS` rounds).

A missing header stops the preprocessor before anything after it is read, so what the file's own compile
chose before it cannot be carried over; the slice decides the preprocessor's own errors in a project file
itself, wherever the missing header is included from (the file, a project header, a header of a header):

* the ``#error`` that ends an ``#if defined(A) … #elif … #else #error`` chain: the chain's first choice is
  defined (:func:`simu.frontend.choices.chain_choice`, the choice the file's own compile makes when the chain
  comes first), and the headers that choice includes are looked up again (a missing one gets its stand-in);
* any other ``#error``, when a header is missing: left out of the copy (an empty stand-in defines none of the
  macros a check such as ``#if PROTOBUF_VERSION < 3006000`` / ``#error`` tests, so the check cannot pass).

Stand-ins (:mod:`simu.frontend.stand_ins`) sit deep enough for the ``../`` of every missing name; a missing header
named by an absolute path is an empty file in the overlay.

An error inside a ``__global__`` function, one outside any declaration of a project file (other than the
``#error`` lines above), or a round that blanks nothing new ends the attempt: the file keeps its compile error
(for a kernel that needs a missing header: clang's one line saying the header is not found).  Template kernels
that only the removed host code instantiated are instantiated afterwards for common element types, as header
kernels are (:mod:`simu.frontend.headers`).  The module compiled this way carries a note that says so.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from simu.frontend.choices import chain_choice
from simu.frontend.declarations import (
    Declaration,
    Unbalanced,
    declaration_at,
    declarations,
    directive_lines,
    statement_at,
    structure_text,
)
from simu.frontend.guards import option_macros
from simu.frontend.overlay import close_up
from simu.frontend.stand_ins import dependencies, write_stand_ins
from simu.frontend.toolchain import INCLUDE_DIR

MAX_ROUNDS = 12
MAX_STATEMENT_ROUNDS = 4  # rounds that leave statements of one function out before the whole function is
_DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (fatal error|error|note): (.*)$", re.M)
_GLOBAL = re.compile(r"\b__global__\b")
# device code keeps every statement or goes whole (its own or a project macro's __device__: HOST_DEVICE)
_DEVICE_CODE = re.compile(r"\b__(?:device|global)__\b|\b[A-Z_]*DEVICE[A-Z_]*\b")
_ERROR_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*error\b")
_ODD_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85]")  # line breaks to str.splitlines, not to clang


@dataclass
class DeviceSlice:
    """What a slice needs to compile (``args``: clang arguments; ``tmp`` holds the files they name) and what
    it left out."""

    args: list[str]
    tmp: tempfile.TemporaryDirectory
    missing: list[str] = field(default_factory=list)  # headers replaced by empty stand-ins
    removed: int = 0  # declarations left out
    files: list[str] = field(default_factory=list)  # project files a declaration was left out of
    first_error: str = ""  # the first error of the host code, as clang said it (or the first missing header)
    directives: list[str] = field(default_factory=list)  # what was decided about #error lines
    statements: int = 0  # statements of host functions left out

    def note(self) -> str:
        parts = []
        if self.missing:
            more = len(self.missing) - 3
            shown = ", ".join(self.missing[:3]) + (f" and {more} more" if more > 0 else "")
            parts.append(f"missing header{'s' if len(self.missing) > 1 else ''} {shown} replaced by empty stand-ins")
        parts += self.directives
        if self.removed or self.statements:
            what = [f"{n} {word}{'s' if n > 1 else ''}" for n, word in ((self.removed, "declaration"),
                                                                       (self.statements, "statement")) if n]
            parts.append(f"{' and '.join(what)} that did not compile left out "
                         f"of {len(self.files)} file{'s' if len(self.files) > 1 else ''}"
                         + (f" (first: {self.first_error})" if self.first_error else ""))
        return "host code not compiled: " + "; ".join(parts) + "; kernels analysed from a device-only slice"

    def cleanup(self) -> None:
        self.tmp.cleanup()


def device_slice(path: Path, base: list[str], exclude: tuple[str, ...] = ()) -> DeviceSlice | None:
    """The device-only slice of ``path`` (see the module docstring), or None when there is none.

    ``base`` is the clang command line without the source file (the file's own compile options);
    ``exclude`` names folders whose files are never sliced (besides the system's and simu's)."""
    tmp = tempfile.TemporaryDirectory(prefix="simu-slice-")
    try:
        result = _slice(path.resolve(), base, Path(tmp.name), _system_roots(exclude, Path(tmp.name)), tmp)
    except (OSError, Unbalanced, subprocess.SubprocessError):
        result = None
    if result is None:
        tmp.cleanup()
    return result


def _slice(path: Path, base: list[str], root: Path, system: list[Path],
           tmp: tempfile.TemporaryDirectory) -> DeviceSlice | None:
    deps, missing = dependencies(path, base)
    if not any(_is_project(d, system) and _has_kernel(d) for d in (path, *deps)):
        return None  # no kernel to gain
    sliced = _Files(root, system)
    args = sliced.stand_ins(missing)
    first = ""
    for sliced.round in range(MAX_ROUNDS):
        argv = base + args + sliced.overlay_args() + ["-fsyntax-only", "-ferror-limit=0", "-fno-caret-diagnostics",
                                                       "-fno-diagnostics-show-option", str(path)]
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode == 0:
            if not sliced.removed and not sliced.statements and not missing and not sliced.directives:
                return None  # nothing to leave out: the file's own compile error stands
            s = DeviceSlice(args + sliced.overlay_args(), tmp, list(missing), len(sliced.removed),
                            sorted({str(f) for f, _ in (*sliced.removed, *sliced.statements)}), first,
                            list(sliced.directives), len(sliced.statements))
            return s
        errors = _errors(proc.stderr)
        if not errors:
            return None
        progress = False
        for chain in errors:
            where = next(((f, ln, col) for f, ln, col, _ in chain if _is_project(f, system)), None)
            if where is None:
                return None
            decl = sliced.declaration(*where)
            # an #error line is decided as a directive wherever it sits (a chain inside a kernel's body too)
            chosen = sliced.directive(where[0], where[1], bool(missing), option_macros((), tuple(base + args)))
            if decl is None or chosen is not None:
                if chosen is None:
                    return None
                if chosen:  # a chain's choice: its branch may include more missing headers
                    args += [f"-D{m}" for m in chosen]
                    _, more = dependencies(path, base + args + sliced.overlay_args())
                    more = [m for m in more if m not in missing]
                    missing += more
                    args += sliced.stand_ins(more)
                    progress = True
                    break  # the other errors may have been the unchosen configuration's
                progress = True
                continue
            if decl.kernel:  # a template kernel a host statement instantiates: that statement goes instead
                site = sliced.requesting_statement(chain, system)
                if site is None:
                    return None
                if not sliced.remove_statement(*site) and not sliced.left_out(*site):
                    return None
                progress = True
                continue
            if sliced.remove_statement(where, decl) or sliced.remove(where[0], decl):
                progress = True
                if not first:
                    first = f"{_show(where[0])}:{where[1]}: {chain[0][3]}"
        if not progress:
            return None
    return None


class _Files:
    """The project files being sliced: their text (Latin-1, so that clang's byte columns are offsets),
    declarations, and what was left out of them."""

    def __init__(self, root: Path, system: list[Path]):
        self.root = root
        self.system = system
        self.text: dict[Path, str] = {}
        self.decls: dict[Path, list[Declaration]] = {}
        self.removed: set[tuple[Path, int]] = set()
        self.statements: set[tuple[Path, int]] = set()  # statements of function bodies left out
        self.structures: dict[Path, str] = {}  # structure_text of each copy as it stands
        self.statement_rounds: dict[tuple[Path, int], set[int]] = {}  # by declaration: the rounds that left some out
        self.round = 0
        self.copies: dict[Path, Path] = {}
        self.directives: list[str] = []  # what was decided about #error lines, for the note
        self.decided: set[tuple[Path, int]] = set()
        self.folders = 0

    def stand_ins(self, missing: list[str]) -> list[str]:
        """Empty stand-ins for ``missing`` headers (:func:`~simu.frontend.stand_ins.write_stand_ins`): the clang
        arguments that find them; an absolute name is a file of the overlay."""
        if not missing:
            return []
        args, absolute = write_stand_ins(self.root / f"stand{self.folders}", missing)
        self.folders += 1
        for name, copy in absolute.items():
            self.copies.setdefault(name, copy)
        return args

    def directive(self, f: Path, line: int, missing: bool, defined: set[str]) -> tuple[str, ...] | None:
        """Decide an error on a preprocessor line of ``f`` (module docstring): the macros of an ``#error`` chain's
        first choice, () when the ``#error`` was left out (only when a header is ``missing``), None when neither."""
        self._load(f)
        lines = self.text[f].split("\n")
        if not 0 < line <= len(lines) or not _ERROR_DIRECTIVE.match(lines[line - 1]) or (f, line) in self.decided:
            return None
        self.decided.add((f, line))
        chosen = chain_choice(_ODD_BREAKS.sub(" ", self.text[f]), line)  # lines as clang counts them
        if chosen and not set(chosen) & defined:
            self.directives.append(f"defined {', '.join(chosen)}, the first choice of the #if chain whose #else is "
                                   f"the #error on line {line} of {_show(f)}")
            return chosen
        if not missing:
            return None
        last = line - 1  # the directive's last line: continuation lines (a trailing backslash) are its own
        while last + 1 < len(lines) and lines[last].rstrip("\r").endswith("\\"):
            last += 1
        start = sum(len(ln) + 1 for ln in lines[:line - 1])
        end = start + sum(len(ln) + 1 for ln in lines[line - 1:last + 1]) - 1
        text = self.text[f]
        self._write(f, text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:])
        self.directives.append(f"the #error on line {line} of {_show(f)} left out (an empty stand-in defines none of "
                               f"the macros it tests)")
        return ()

    def _load(self, f: Path) -> None:
        if f not in self.text:
            text = f.read_bytes().decode("latin-1")
            self.text[f] = close_up(text) or text
            self.decls[f] = declarations(self.text[f])

    def offset(self, f: Path, line: int, col: int) -> int | None:
        self._load(f)
        text = self.text[f]
        pos = 0
        for _ in range(line - 1):
            pos = text.find("\n", pos) + 1
            if pos == 0:
                return None
        return pos + col - 1

    def declaration(self, f: Path, line: int, col: int) -> Declaration | None:
        pos = self.offset(f, line, col)
        return declaration_at(self.decls[f], pos) if pos is not None else None

    def remove(self, f: Path, decl: Declaration) -> bool:
        if (f, decl.start) in self.removed:
            return False
        self.removed.add((f, decl.start))
        self._blank_out(f, decl.start, decl.end)
        return True

    def remove_statement(self, where: tuple[Path, int, int], decl: Declaration) -> bool:
        """Leave out the statement of a function body that holds the error at ``where`` (a host function that
        launches a kernel keeps its launch when only its logging or error message uses a missing library); the
        whole function once :data:`MAX_STATEMENT_ROUNDS` rounds left statements of it out and it still fails."""
        f = where[0]
        rounds = self.statement_rounds.setdefault((f, decl.start), set())
        if decl.block is None or _DEVICE_CODE.search(self.text[f][decl.start:decl.block[0]]) or \
                (f, decl.start) in self.removed or \
                (self.round not in rounds and len(rounds) >= MAX_STATEMENT_ROUNDS):
            return False
        span = self._statement(where, decl)
        if span is None or (f, span[0]) in self.statements or \
                _in_device_lambda(self._structure(f), span[0], decl.block[0]):
            return False
        self.statements.add((f, span[0]))
        rounds.add(self.round)
        self._blank_out(f, *span)
        return True

    def left_out(self, where: tuple[Path, int, int], decl: Declaration) -> bool:
        """Whether the statement at ``where`` was left out already."""
        span = self._statement(where, decl)
        return span is not None and (where[0], span[0]) in self.statements

    def _statement(self, where: tuple[Path, int, int], decl: Declaration) -> tuple[int, int] | None:
        """The offsets of the statement of ``decl``'s body that holds ``where``."""
        pos = self.offset(*where)
        return statement_at(self._structure(where[0]), pos, decl.block) \
            if pos is not None and decl.block is not None else None

    def _structure(self, f: Path) -> str:
        """``f``'s text as :func:`structure_text` gives it, made once per version of the copy."""
        if f not in self.structures:
            self.structures[f] = structure_text(self.text[f])
        return self.structures[f]

    def requesting_statement(self, chain: list[tuple[Path, int, int, str]], system: list[Path]
                             ) -> tuple[tuple[Path, int, int], Declaration] | None:
        """Where a host function's statement asked for the template instantiation an error happened in (its
        "in instantiation of … requested here" note), with that function's declaration; None if none did."""
        for f, line, col, message in chain[1:]:
            if message.startswith("in instantiation of") and _is_project(f, system):
                decl = self.declaration(f, line, col)
                if decl is not None and not decl.kernel and decl.block is not None:
                    return (f, line, col), decl
        return None

    def _blank_out(self, f: Path, start: int, end: int) -> None:
        """Blank ``text[start:end]`` of ``f`` (lines and columns kept), its preprocessor lines kept."""
        text = self.text[f]
        keep = [(a, b) for a, b in directive_lines(text[start:end])]
        chunk = list(re.sub(r"[^\n]", " ", text[start:end]))
        original = text[start:end]
        for a, b in keep:
            chunk[a:b] = original[a:b]
        self._write(f, text[:start] + "".join(chunk) + text[end:])

    def _write(self, f: Path, text: str) -> None:
        self.text[f] = text
        self.structures.pop(f, None)
        copy = self.copies.setdefault(f, self.root / f"{len(self.copies)}{f.suffix}")
        copy.write_bytes(text.encode("latin-1"))

    def overlay_args(self) -> list[str]:
        if not self.copies:
            return []
        overlay = self.root / "overlay.json"
        roots = [{"type": "file", "name": str(f), "external-contents": str(c)} for f, c in self.copies.items()]
        overlay.write_text(json.dumps({"version": 0, "case-sensitive": True, "use-external-names": False,
                                       "roots": roots}))
        return ["-ivfsoverlay", str(overlay)]


def _in_device_lambda(blank: str, pos: int, body: int) -> bool:
    """Whether ``pos`` of a host function (``body``: its opening brace) is inside a ``__device__`` lambda's body."""
    depth = 0
    for i in range(pos - 1, body, -1):
        if blank[i] == "}":
            depth += 1
        elif blank[i] == "{":
            if depth == 0:
                head = blank[max(body, i - 200):i]
                if _DEVICE_CODE.search(head[head.rfind("]") + 1:] if "]" in head else ""):
                    return True
            depth = max(depth - 1, 0)
    return False


def _errors(stderr: str) -> list[list[tuple[Path, int, int, str]]]:
    """Each error with the notes that follow it: ``[(file, line, column, message), ...]``."""
    out: list[list[tuple[Path, int, int, str]]] = []
    for m in _DIAGNOSTIC.finditer(stderr):
        entry = (Path(m.group(1)).resolve(), int(m.group(2)), int(m.group(3)), m.group(5))
        if m.group(4) != "note":
            out.append([entry])
        elif out:
            out[-1].append(entry)
    return out


# not the project's: the system's and the compiler's folders, but not the whole of /usr (a container keeps its
# sources in /usr/src/app)
_SYSTEM = tuple(Path(p) for p in ("/usr/include", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/local/include",
                                  "/usr/local/lib", "/usr/share"))


def _system_roots(exclude: tuple[str, ...], tmp: Path) -> list[Path]:
    """The folders whose files are never sliced: the system's (and the compiler's include folders), the
    installed Python packages (CCCL, the bundled clang's headers), simu's headers, the slice's own folder and
    ``exclude``."""
    from simu.frontend.sysheaders import system_include_dirs

    roots = {*_SYSTEM, *system_include_dirs(), INCLUDE_DIR, tmp}
    roots.update(Path(p) for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]) if p)
    for name in ("ziglang", "nvidia"):
        spec = importlib.util.find_spec(name)
        if spec is not None:
            roots.update(Path(p) for p in spec.submodule_search_locations or [])
    roots.update(Path(e) for e in exclude if e)
    return [r.resolve() for r in roots]


def _is_project(f: Path, system: list[Path]) -> bool:
    return f.is_file() and not any(f.is_relative_to(r) for r in system)


def _has_kernel(f: Path) -> bool:
    try:
        return bool(_GLOBAL.search(f.read_bytes().decode("latin-1")))
    except OSError:
        return False


def _show(f: Path) -> str:
    try:
        return str(f.relative_to(Path.cwd()))
    except ValueError:
        return f.name


__all__ = ["MAX_ROUNDS", "DeviceSlice", "device_slice"]
