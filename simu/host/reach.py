"""Which host files can reach some kernel files: what a command on a file or folder reads of a project.

`simu scan` of a whole project indexes every host file.  A command on part of it (`simu check FILE`, `simu kernels
FOLDER`, `simu scan --changed`, `simu scan SUBFOLDER`) needs only the host files that can launch or build the
kernels of its files, so that its cost does not grow with the repository around them.  They are found lexically,
from the *seeds* (the kernel files the command reads), in rounds:

* the host files beside each seed (its folder's) and the seed itself when it is a host file (a ``.cu``);
* the project headers a file read includes (resolved as the index resolves them, :class:`HeaderMacros`) and the
  files that include a seed;
* the files that call a function defined in a file read whose body launches or builds a kernel (``<<<``,
  ``cudaLaunchKernel``, ``clBuildProgram``, ``clCreateKernel``, ``clSetKernelArg``, ``clEnqueueNDRangeKernel``, a
  ``cl_kernel``): wrappers, kernel-creating helpers and the functions forwarding to them (OpenCL, one level more),
  launch functions taking the kernel as a parameter; and the files naming a class whose body does (launcher
  classes).  A caller with a namesake defined nearer to it (a folder closer, or its own file) calls that one, as
  :func:`simu.host.index._wrapped_cuda` decides, and is not read;
* for a ``.cl`` seed, the files naming it (``"kernel.cl"``, an identifier holding its embedded source,
  :func:`~simu.host.options.names_source`) to which it is the nearest ``.cl`` file of that name;
* a kernel that no file read mentions besides its definition: the files that mention its name.

The rules only widen what the whole-project index would resolve for these kernels: what it adds is the launches and
builds of other programs that share a kernel's or a wrapper's name (a kernel launched beside it takes its own
folder's launches, not every namesake's in the repository).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from simu.host.cscan import TEMPLATE_ARGS, CSource, kernel_names
from simu.host.headermacros import HeaderMacros
from simu.host.options import SOURCE_WORDS, names_source
from simu.host.paths import folders_between

MAX_ROUNDS = 6
HEADER_EXTENSIONS = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"})  # read for their macros
# what makes a function a wrapper, helper or launcher whose callers matter
_CUDA_TOKENS = re.compile(r"<<<|<<\s+<|\bcudaLaunch(?:Cooperative)?Kernel\b|\bhipLaunchKernelGGL\b")
_CL_TOKENS = re.compile(r"\b(?:clBuildProgram|clCreateKernel|clSetKernelArg|clEnqueueNDRangeKernel|cl_kernel)\b|"
                        r"\bcl::(?:Kernel|Program)\b")
_CLASS = re.compile(r"\b(?:class|struct)\s+([A-Za-z_]\w*)\s*(?::[^;{]*)?\{")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+)[">]', re.M)


@dataclass
class Reach:
    """What a command reads: host files to index, more headers for their macros, and counts for tests."""

    files: list[Path] = field(default_factory=list)  # host files (HOST_EXTENSIONS), in a stable order
    headers: list[Path] = field(default_factory=list)  # other project headers they include (.cuh ...)
    scanned: int = 0  # candidate files whose text was searched for names
    rounds: int = 0


def reaching(seeds: list[Path], candidates: list[Path], host_extensions: frozenset[str] | set[str]) -> Reach:
    """The host files among ``candidates`` (every project file that may be host code or a header, resolved) that
    can reach the kernels of ``seeds`` (resolved kernel files); see the module docstring."""
    return _Closure(seeds, candidates, host_extensions).run()


class _Closure:
    def __init__(self, seeds: list[Path], candidates: list[Path], host_extensions):
        self.seeds = [s.resolve() for s in seeds]
        self.candidates = candidates
        self.host_ext = host_extensions
        self.headers = HeaderMacros(candidates)
        self.texts: dict[Path, str | None] = {}
        self.sources: dict[Path, CSource] = {}
        self.chosen: dict[Path, None] = {}  # files read (host files and headers), in order
        self.words: set[str] = set()  # names searched as words (classes, kernels), not as calls
        self.forwarded: set[str] = set()  # functions that launch or build, or call one: their callers do too
        self._seed_words: re.Pattern[str] | None = None  # the names of ``.cl`` seeds and their kernels

    # -- texts ---------------------------------------------------------------------------------------------

    def text(self, p: Path) -> str:
        if p not in self.texts:
            try:  # bytes decoded: 2.5 times faster than read_text, and the searches do not mind \r
                self.texts[p] = p.read_bytes().decode(errors="replace") if p.stat().st_size <= 4 << 20 else None
            except OSError:
                self.texts[p] = None
        return self.texts[p] or ""

    def source(self, p: Path) -> CSource:
        if p not in self.sources:
            self.sources[p] = CSource(self.text(p))
        return self.sources[p]

    def host(self, p: Path) -> bool:
        return p.suffix.lower() in self.host_ext

    # -- the rounds ----------------------------------------------------------------------------------------

    def run(self) -> Reach:
        by_folder: dict[Path, list[Path]] = {}
        for c in self.candidates:
            by_folder.setdefault(c.parent, []).append(c)
        new: list[Path] = []
        for s in self.seeds:
            for f in ([s] if self.host(s) else []) + [c for c in by_folder.get(s.parent, []) if self.host(c)]:
                new += self.add(f)
        new += self.includers()
        new += self.cl_namers()
        rounds = 0
        searched: set[str] = set()
        idle = self.idle_kernels()
        self.words |= set(idle)  # any mention counts, not only calls (a kernel name in a string)
        while (new or idle) and rounds < MAX_ROUNDS:
            rounds += 1
            names: dict[str, Path] = dict(idle)  # name -> a file defining it (the nearest-namesake rule's anchor)
            idle = {}
            for f in new:
                if self.infrastructure(f):
                    continue
                for n in self.exports(f):
                    names.setdefault(n, f)
            names = {n: f for n, f in names.items() if n not in searched}
            searched |= set(names)
            new = []
            if names:
                for f in self.mentioning(names):
                    new += self.add(f)
        return Reach([p for p in self.chosen if self.host(p)], [p for p in self.chosen if not self.host(p)],
                     sum(1 for t in self.texts.values() if t is not None), rounds)

    def add(self, f: Path) -> list[Path]:
        """Read ``f`` and the project headers it includes; the files newly read."""
        if f in self.chosen:
            return []
        self.chosen[f] = None
        out = [f]
        for h in self.headers.headers_of(f, self.text(f)):
            if h not in self.chosen:
                self.chosen[h] = None
                out.append(h)
        return out

    def includers(self) -> list[Path]:
        """Files that include a seed (a ``.cu`` fragment's includer launches its kernels)."""
        plain = {s.name for s in self.seeds}  # a substring test first: most files name no seed
        names = "|".join(re.escape(n) for n in sorted(plain))
        if not names:
            return []
        pattern = re.compile(rf'^[ \t]*#[ \t]*include[ \t]*[<"](?:[^">\n]*/)?(?:{names})[">]', re.M)
        out = []
        for c in self.candidates:
            if c in self.chosen or c in self.seeds:
                continue
            text = self.text(c)
            if any(n in text for n in plain) and pattern.search(text) and \
                    set(self.headers.headers_of(c, text)) & set(self.seeds):
                out += self.add(c)
        return out

    def cl_namers(self) -> list[Path]:
        """Host files naming a ``.cl`` seed (by file name or an embedded-source identifier) that it is the nearest
        ``.cl`` file of that name to."""
        out = []
        for s in (s for s in self.seeds if s.suffix.lower() == ".cl"):
            same = [c for c in self.candidates if c.name == s.name] or [s]
            folders = {c.parent: c for c in same}
            stem = s.stem
            ident = re.compile(rf"\w*_{re.escape(stem)}\b|\b{re.escape(stem)}_\w*")
            for c in self.candidates:
                if c in self.chosen or not self.host(c):
                    continue
                text = self.text(c)
                if s.name in text or stem in text and any(_embedded(m, stem) for m in ident.findall(text)):
                    # one of that name in its own folder is the nearest (the usual case: no search)
                    if folders.get(c.parent, s) == s and _nearest(c, same) == s:
                        out += self.add(c)
        return out

    def infrastructure(self, f: Path) -> bool:
        """Whether ``f`` is a header read only because a file read includes it, that names no kernel or file of
        ``.cl`` seeds: a runtime's classes and API wrappers (``CLRuntime``, a loader's own ``clSetKernelArg``) are
        used by every file of the library, and a file reaches a ``.cl`` file's kernels only by naming them or it
        (or by calling a function of a file that does)."""
        if f.suffix.lower() not in HEADER_EXTENSIONS or not self.seeds or \
                any(s.suffix.lower() != ".cl" for s in self.seeds):
            return False
        if self._seed_words is None:
            words = {w for s in self.seeds for w in (s.name, s.stem, *kernel_names(self.text(s)))}
            self._seed_words = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")\b")
        return self._seed_words.search(self.text(f)) is None

    def exports(self, f: Path) -> set[str]:
        """Names whose callers (or users) may launch or build kernels through ``f``: functions whose body launches,
        builds, makes or enqueues a kernel, or calls such a function of a file read before (its callers reach the
        launch through it: clang's reader follows :data:`~simu.host.ast.scope.LEVELS` levels, OpenCL helpers
        forward), and classes whose body launches."""
        text = self.text(f)
        cuda, cl = _CUDA_TOKENS.search(text) is not None, _CL_TOKENS.search(text) is not None
        known = sorted(n for n in self.forwarded if n in text)
        if not (cuda or cl or known):
            return set()
        names = "|".join(map(re.escape, known))
        calling = re.compile(rf"(?<![\w.>])(?:{names})\s*{TEMPLATE_ARGS}?\(") if known else None
        src = self.source(f)
        out: set[str] = set()
        for fn in src.functions():
            body = src.code[fn.start:fn.end]
            name = fn.name.split("::")[-1]
            if _CUDA_TOKENS.search(body) or _CL_TOKENS.search(body):
                out.add(name)
                if "::" in fn.name:
                    out.add(fn.name.split("::")[-2])  # the method's class: its objects are made elsewhere
                    self.words.add(fn.name.split("::")[-2])
            elif calling is not None and calling.search(body):
                out.add(name)
        if cl:
            for m in _CLASS.finditer(src.code):
                end = _close(src.code, m.end() - 1)
                if _CL_TOKENS.search(src.code, m.end(), end):
                    out.add(m.group(1))
                    self.words.add(m.group(1))
        out.discard("main")
        self.forwarded |= {n for n in out if n not in self.words}
        return out

    def idle_kernels(self) -> dict[str, Path]:
        """Kernels of the seeds that no file read launches or names (``k<<<``, ``cudaLaunchKernel(…k…)``, ``"k"``):
        their launches are elsewhere."""
        out = {}
        for s in self.seeds:
            for k in kernel_names(self.text(s)):
                e = re.escape(k)
                used = re.compile(rf"\b{e}\s*(?:<[^;{{}}()]*>\s*)?(?:<<<|<<\s+<)|"
                                  rf"\b(?:cuda|hip)Launch\w*\s*\([^;]*\b{e}\b|"
                                  rf'"{e}"')
                if not any(used.search(self.text(f)) for f in [s, *self.chosen]):
                    out[k] = s
        return out

    def mentioning(self, names: dict[str, Path]) -> list[Path]:
        """Candidates (not read yet) that call or name one of ``names``.  A caller of a function with a namesake
        defined nearer to it than the file ``names`` gives (or in itself) calls that one and is left out; such a
        namesake nearer to a caller already read is read too (:func:`simu.host.index._wrapped_cuda` decides
        between them)."""
        calls = [n for n in names if n not in self.words]
        words = [n for n in names if n in self.words]
        parts = []
        if calls:
            parts.append(rf"(?<![\w.>])(?:{'|'.join(map(re.escape, calls))})\s*{TEMPLATE_ARGS}?\(")
        if words:
            parts.append(rf"\b(?:{'|'.join(map(re.escape, words))})\b")
        pattern = re.compile("|".join(parts))
        hits: dict[str, dict[Path, None]] = {}
        for c in self.candidates:
            if not self.host(c):
                continue
            text = self.text(c)
            if not any(n in text for n in names) or pattern.search(text) is None:
                continue
            for m in pattern.finditer(text):
                n = re.match(r"[A-Za-z_]\w*", m.group(0))
                if n is not None and n.group(0) in names:
                    hits.setdefault(n.group(0), {})[c] = None
        out: dict[Path, None] = {}
        for n, files in hits.items():
            if n in self.words:
                out.update((c, None) for c in files if c not in self.chosen)
                continue
            definers: dict[tuple[str, ...], list[Path]] = {}  # folder -> the files there defining n
            for d in files:
                if self.defines(d, n):
                    definers.setdefault(d.parent.parts, []).append(d)
            anchor = names[n].parent.parts
            for c in files:
                here = c.parent.parts
                if c in definers.get(here, ()):
                    continue
                limit = folders_between(here, anchor)
                if c in self.chosen:  # read already: read its nearer namesakes too
                    out.update((d, None) for f, ds in definers.items() if folders_between(here, f) < limit
                               for d in ds if d not in self.chosen)
                elif limit == 0 or here not in definers and not any(folders_between(here, f) < limit for f in definers):
                    out[c] = None
        return list(out)

    def defines(self, f: Path, name: str) -> bool:
        """Whether ``f`` defines a function ``name``: ``name(…) {`` with nothing but ``const``-like words between the
        parameters and the body, as :meth:`CSource.functions` reads a definition (lexically: calls in a condition,
        ``if (name(x)) {``, are not definitions)."""
        head = rf"(?<![\w.>]){re.escape(name)}\s*(?:<[^;{{}}()]*>)?\s*\([^;{{}}()]*\)"
        return re.search(head + r"\s*(?:(?:const|noexcept|override|final)\s*)*\{", self.text(f)) is not None


def _embedded(identifier: str, stem: str) -> bool:
    """Whether an identifier may hold the embedded source of ``stem``.cl, as a build's source variables do
    (:func:`~simu.host.options.source_identifiers`: not made of source words only, ``cl_kernel``)."""
    return names_source(identifier, stem) and not all(p.lower() in SOURCE_WORDS for p in identifier.split("_") if p)


def _close(code: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(code)):
        c = code[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def _nearest(host: Path, same: list[Path]) -> Path:
    """Of the ``.cl`` files of one name, the one nearest to a host file (:meth:`HostIndex._nearest`'s rule: fewest
    folders between, then the path)."""
    here = host.parent.parts
    return min(same, key=lambda p: (folders_between(here, p.parent.parts), str(p)))


def reaching_index(root: Path, seeds: list[Path], walked: list[Path], cache_dir: Path | None = None):
    """The host index of the files of ``walked`` (the project's files, resolved) that can reach the kernels of
    ``seeds`` (:func:`reaching`), rooted at ``root`` as the whole project's would be; ``index.reach`` says what was
    searched."""
    from simu.host.index import HOST_EXTENSIONS, build_host_index

    wanted = HOST_EXTENSIONS | HEADER_EXTENSIONS | {".cl"}
    found = reaching(seeds, [f for f in walked if f.suffix.lower() in wanted], HOST_EXTENSIONS)
    index = build_host_index(root, found.files, cache_dir, headers=found.headers)
    index.reach = found
    return index
