"""Kernels a C++ host takes from a registry by name, and the argument counters it sets them with.

Inference frameworks on the ``cl::Kernel`` C++ wrapper keep one program per ``.cl`` file and hand kernels out by
name: a method registers the kernel (``ctx->AddKernel(kernel_func_name_, "buffer/act.cl", build_options_)``) and
fetches it into a ``cl::Kernel`` member (``kernel_ = ctx->GetKernel(key)``, the key built from the name), the
name a member set elsewhere (``kernel_func_name_ = "relu";`` in each ``case`` of a ``switch``, or its initialiser);
another method takes the member by reference (``auto& kernel = kernel_;``) and sets its arguments with a counter
(``kernel.setArg(arg_idx++, x)``, ``kernel.setArg(++arg_idx, n)``) before it enqueues it.

* :func:`registry_kernels`: one :class:`~simu.host.model.KernelSite` per name such a member may hold, with the
  ``.cl`` path the registering call names (``sources``, compared by path: two folders may hold files of one name).
* :func:`kernel_alias`: the variable a reference to a kernel stands for.
* :func:`counter_index`: the argument index a counter gives, counted over the straight-line statements before it.
* :func:`named_in_branch`: the names a launch inside ``if (kernel_func_name_ == "concat2")`` can be of.
"""

from __future__ import annotations

import re

from simu.host.clnames import class_span, element, matching_braces, named_paths, open_blocks, opened_by, statement_head
from simu.host.cscan import CSource, split_args
from simu.host.model import KernelSite

_DECLARED = re.compile(r"\bcl::Kernel\s+([A-Za-z_]\w*)\s*[;{=]")
_SETS_ARGS = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*(?:\.|->)\s*setArg\s*\(")
_CL_PATH = re.compile(r'"([^"\n]+\.cl)"')
_PATH_SET = re.compile(r'([A-Za-z_]\w*)\s*(?:=|\{|(?:\.|->)\s*(?:push_back|emplace_back)\s*\()\s*"[^"\\\n]*\.cl"')
_IDENT = re.compile(r"[A-Za-z_][\w.\->]*")
_CONTROL = re.compile(r"(?:for|while|do|if|else|switch|case)\b")


def registry_kernels(src: CSource, rel: str) -> list[KernelSite]:
    """The kernels fetched into ``cl::Kernel`` variables in functions that register them by name (see the module)."""
    if "setArg" not in src.code or ".cl\"" not in src.code:
        return []
    kernels = set(_DECLARED.findall(src.code)) | {kernel_alias(src, m.group(1), m.start())
                                                  for m in _SETS_ARGS.finditer(src.code)}
    path_vars = set(_PATH_SET.findall(src.code))
    registered = {f: _registrations(src, f.start, f.end, path_vars) for f in src.functions()}
    everywhere = [r for regs in registered.values() for r in regs]
    if not everywhere:
        return []
    out = []
    for f, own in registered.items():
        for var in kernels:  # fetched by a call: `kernel_ = ctx->GetKernel(key)`, `auto kernel = ctx->GetKernel(key)`
            for m in re.finditer(rf"(?<![\w.>]){re.escape(var)}\s*=(?!=)\s*[^;]*\(", src.code[f.start:f.end]):
                at = f.start + m.start()
                # registered before it in its function, else in its class, else anywhere in the file
                key = _fetch_key(src, f.start, at)
                span = class_span(src, at) or (0, len(src.code))
                regs = [r for r in own if r[2] < at and _registers(r[0], key)] or \
                    [r for r in everywhere if _registers(r[0], key) and span[0] < r[2] < span[1]] or \
                    [r for r in everywhere if _registers(r[0], key)]
                out += [KernelSite(rel, src.line_of(at), var, "", name, (path,))
                        for name_expr, path_expr, _ in regs
                        for name, path in named_paths(src, name_expr, path_expr, key, at)]
    return list(dict.fromkeys(out))


def _registrations(src: CSource, start: int, end: int, path_vars: set[str]) -> list[tuple[str, str, int]]:
    """The registering calls between ``start`` and ``end``: those passing a ``.cl`` literal, or a variable the file
    sets to one (``kernel_file_name_``, ``paths_[0]``), beside a name."""
    found = [r for m in _CL_PATH.finditer(src.code, start, end) if (r := _registration(src, m.start(), m.group(0)))]
    for var in path_vars:
        for m in re.finditer(rf"(?<![\w.>]){re.escape(var)}\s*(?:\[\s*\w+\s*\])?(?=\s*[,)])", src.code[start:end]):
            if r := _registration(src, start + m.start(), m.group(0)):
                found.append(r)
    return sorted(set(found), key=lambda r: r[2])


def _registration(src: CSource, path_at: int, path: str) -> tuple[str, str, int] | None:
    """(the kernel-name argument, the path argument ``path``, the call's offset) of the call whose argument list
    holds ``path`` at ``path_at``, when another argument is a name (a string literal or a variable)."""
    depth, i = 0, path_at - 1
    while i >= 0:  # back to the call's open parenthesis
        c = src.code[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                break
            depth -= 1
        elif c in ";{}" and depth == 0:
            return None
        i -= 1
    if i < 0:
        return None
    args, _ = split_args(src.code, i + 1)
    for a in args or []:
        a = a.strip()
        if a == path.strip() or _CL_PATH.fullmatch(a):
            continue
        if a.startswith('"') or _IDENT.fullmatch(a) or re.fullmatch(r"[A-Za-z_]\w*\s*\[[^\]]*\]", a):
            return a, path, i
    return None


def _registers(name_expr: str, key: str | None) -> bool:
    """Whether a registration of ``name_expr`` can make the kernel a fetch keyed by ``key`` takes: not when both are
    elements of one vector at other constant positions (``names_[0]`` registered, ``names_[1]`` fetched)."""
    a, b = element(name_expr), element(key) if key else None
    return not (a and b and a[0] == b[0] and a[1].isdigit() and b[1].isdigit() and a[1] != b[1])


def _fetch_key(src: CSource, start: int, at: int) -> str | None:
    """The name expression the key of the fetch at ``at`` is streamed from: ``key << names_[2] << options_;`` before
    ``kernel_ = ctx->GetKernel(key.str())`` -> ``names_[2]``; ``GetKernel(name_)`` -> ``name_``."""
    stmt = src.code[at:src.statement_end(at)]
    direct = re.search(r"\(\s*([A-Za-z_]\w*(?:\s*\[\s*\w+\s*\])?)\s*\)\s*$", stmt)
    stream = re.search(r"([A-Za-z_]\w*)\s*\.\s*str\s*\(\s*\)", stmt)
    if stream is None:
        return direct.group(1) if direct else None
    sets = list(re.finditer(rf"(?<![\w.>]){stream.group(1)}\s*<<\s*([^;<]+?)\s*(?=<<|;)", src.code[start:at]))
    return sets[-1].group(1) if sets else None


def kernel_alias(src: CSource, name: str, pos: int) -> str:
    """The variable ``name`` stands for at ``pos`` when its function declared it as a reference to or a copy of one
    (``auto& kernel = kernel_;``, ``auto kernel = &kernel_;``, ``auto kernel = kernel_;``: a ``cl::Kernel`` copy is
    the same kernel), else
    ``name``."""
    f = src.enclosing(pos)
    if f is None or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()):
        return name
    decl = list(re.finditer(rf"(?:\bauto|\bcl::Kernel)\s*[&*]?\s*{re.escape(name.strip())}\s*=\s*&?\s*"
                            r"([A-Za-z_][\w.\->]*(?:\[\w+\])?)\s*;", src.code[f.start:pos]))
    return decl[-1].group(1).strip() if decl else name


def counter_index(src: CSource, text: str, pos: int) -> int | None:
    """The argument index ``text`` gives at ``pos`` when it is a counter (``i``, ``i++``, ``++i``) that the
    enclosing function sets to a number and steps by one on the path to ``pos``: in the blocks still open there
    (``if (two) { k.setArg(i++, a); … }`` around the launch), never in a loop's body entered since, nor in a block
    closed before ``pos`` or a statement under ``if``/``else`` (a conditional step leaves it unknown: ``None``)."""
    m = re.fullmatch(r"\s*(\+\+)?\s*([A-Za-z_]\w*)\s*(\+\+)?\s*", text)
    f = src.enclosing(pos)
    if m is None or f is None or (m.group(1) and m.group(3)):
        return None
    var = re.escape(m.group(2))
    code = src.code
    sets = list(re.finditer(rf"(?<![\w.>]){var}\s*=\s*(\d+)\s*;", code[f.start:pos]))
    if not sets:
        return None
    start = f.start + sets[-1].end()
    between = code[start:pos]
    if re.search(rf"(?<![\w.>]){var}\s*(?:--|[-+*/]=)|--\s*{var}\b", between):
        return None
    blocks = open_blocks(between)
    if blocks is None or any(opened_by(between, b) in ("for", "while", "do") for b in blocks):
        return None
    steps = 0
    branched: dict[int, list[int]] = {}  # a block closed before `pos` -> the steps directly in it
    for step in re.finditer(rf"(?<![\w.>]){var}\s*\+\+|\+\+\s*{var}\b", between):
        inside = open_blocks(between[:step.start()])
        statement = re.split(r"[;{}]", between[:step.start()])[-1]
        if inside is None or _CONTROL.match(statement.strip()):
            return None  # under a condition without braces
        closed = [b for b in inside if b not in blocks]
        if len(closed) == 1:
            branched.setdefault(closed[0], []).append(step.start())
        elif closed:
            return None  # stepped in a nested block closed before the launch
        else:
            steps += 1
    chained = _branch_steps(between, sorted(branched), {b: len(v) for b, v in branched.items()})
    if chained is None:
        return None
    return int(sets[-1].group(1)) + steps + chained + (1 if m.group(1) else 0)


def counter_tail(src: CSource, text: str, pos: int, end: int) -> int | None:
    """For an argument whose index ``text`` is a counter's post-increment (``k.setArg(idx++, c_)`` at ``pos``, the
    call ending at ``end``) on the straight line of its function, outside any branch: how many times the counter
    steps after it, on that line, before the function ends or sets it again; ``None`` when a later step is under a
    branch or in a loop.  OpenCL launches only with every argument set, so the last step sets the kernel's last
    parameter: an argument after steps an earlier branch may or may not make (``if (has_scale_) k.setArg(idx++,
    *scale)`` for a parameter a ``-DSCALE`` build adds) is that many before the last."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\+\+\s*", text)
    f = src.enclosing(pos)
    if m is None or f is None or not _on_the_straight_line(src.code, f.start, pos):
        return None
    var = re.escape(m.group(1))
    rest = src.code[end:f.end]
    reset = re.search(rf"(?<![\w.>]){var}\s*=\s*\d+\s*;", rest)
    rest = rest[:reset.start()] if reset else rest
    steps = 0
    for step in re.finditer(rf"(?<![\w.>]){var}\s*\+\+|\+\+\s*{var}\b", rest):
        if not _on_the_straight_line(src.code, f.start, end + step.start()):
            return None
        steps += 1
    return steps


def _on_the_straight_line(code: str, start: int, pos: int) -> bool:
    """Whether ``pos`` is a statement of the function body opening at ``start`` itself: in no block inside it nor
    under a braceless ``if``/``for``."""
    inside = open_blocks(code[start + 1:pos])
    statement = re.split(r"[;{}]", code[start:pos])[-1]
    return inside == [] and not _CONTROL.match(statement.strip())


def _branch_steps(code: str, braces: list[int], counts: dict[int, int]) -> int | None:
    """The steps that closed blocks add when they are the branches of complete ``if``/``else`` chains that each
    step the same number of times (``if (mali) { k.setArg(i++, buf); } else { k.setArg(i++, img); }``: one), else
    ``None``.  ``braces`` are the blocks that step, ``counts`` how often each does."""
    closes = matching_braces(code)
    total, seen = 0, set()
    for brace in braces:
        if brace in seen:
            continue
        if opened_by(code, brace) != "if" or _continues_a_chain(code, brace):
            return None  # not the head of a chain (a loop, a bare block, or a chain whose head did not step)
        chain, at, taken = [brace], closes.get(brace), False
        while at is not None:
            after = re.match(r"\s*else\s*(if\s*\()?", code[at + 1:])
            if after is None:
                return None  # no `else`: the steps happen on one path only
            nxt = code.find("{", at + 1)
            if nxt < 0 or re.search(r"[;}]", code[at + 1 + after.end():nxt]):
                return None
            chain.append(nxt)
            taken = nxt not in closes  # `pos` is in this branch: the others' steps are not on its path
            at = closes.get(nxt) if after.group(1) else None
        per = {counts.get(b, 0) for b in chain}
        if len(per) != 1 and not taken:
            return None
        seen.update(chain)
        total += 0 if taken else per.pop()
    return total


def _continues_a_chain(code: str, brace: int) -> bool:
    """Whether the ``if`` whose ``{`` is at ``brace`` is an ``else if``."""
    return re.search(r"\belse\s+if$", statement_head(code, brace)) is not None


def named_in_branch(conditions: list[str], names: list[str | None]) -> list[str | None]:
    """Of the kernel names a member may hold, those the branches around a launch allow: ``if (name_ == "a" || name_
    == "b")`` keeps ``a`` and ``b``, an ``else`` of ``name_ == "a"`` (``name_ != "a"``) drops ``a``."""
    for cond in conditions:
        if "&&" in cond:
            continue
        equal = {a or b for a, b in re.findall(r'==\s*"(\w+)"|"(\w+)"\s*==', cond)}
        if equal:
            names = [n for n in names if n in equal]
        names = [n for n in names if n not in re.findall(r'!=\s*"(\w+)"', cond)]
    return names
