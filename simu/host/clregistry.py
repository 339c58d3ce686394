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

from simu.host.cscan import CSource, split_args
from simu.host.model import KernelSite

_DECLARED = re.compile(r"\bcl::Kernel\s+([A-Za-z_]\w*)\s*[;{=]")
_SETS_ARGS = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*(?:\.|->)\s*setArg\s*\(")
_CL_PATH = re.compile(r'"([^"\n]+\.cl)"')
_IDENT = re.compile(r"[A-Za-z_][\w.\->]*")
_CONTROL = re.compile(r"(?:for|while|do|if|else|switch|case)\b")


def registry_kernels(src: CSource, rel: str) -> list[KernelSite]:
    """The kernels fetched into ``cl::Kernel`` variables in functions that register them by name (see the module)."""
    if "setArg" not in src.code or ".cl\"" not in src.code:
        return []
    kernels = set(_DECLARED.findall(src.code)) | set(_SETS_ARGS.findall(src.code))
    registered = {f: [r for m in _CL_PATH.finditer(src.code, f.start, f.end)
                      if (r := _registration(src, m.start(), m.group(1)))] for f in src.functions()}
    everywhere = [r for regs in registered.values() for r in regs]
    if not everywhere:
        return []
    out = []
    for f, own in registered.items():
        for var in kernels:  # fetched by a call: `kernel_ = ctx->GetKernel(key)`, `auto kernel = ctx->GetKernel(key)`
            for m in re.finditer(rf"(?<![\w.>]){re.escape(var)}\s*=(?!=)\s*[^;]*\(", src.code[f.start:f.end]):
                at = f.start + m.start()
                # registered before it in its function, else anywhere in the file (a method made for that)
                regs = [r for r in own if r[2] < at] or everywhere
                out += [KernelSite(rel, src.line_of(at), var, "", name, (path,))
                        for name_expr, path, _ in regs for name in string_values(src, name_expr)]
    return out


def _registration(src: CSource, literal_at: int, path: str) -> tuple[str, str, int] | None:
    """(the kernel-name argument, the ``.cl`` path, the call's offset) of the call whose argument list holds the
    ``.cl`` literal at ``literal_at``, when another argument is a name (a string literal or a variable)."""
    depth, i = 0, literal_at - 1
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
        if _CL_PATH.fullmatch(a):
            continue
        if a.startswith('"') or _IDENT.fullmatch(a) or re.fullmatch(r"[A-Za-z_]\w*\s*\[[^\]]*\]", a):
            return a, path, i
    return None


def string_values(src: CSource, expr: str) -> list[str]:
    """The string literals a name expression may hold: itself when a literal; else every literal the file assigns
    to the variable, initialises it with or appends to it (``names_.push_back("a")`` for ``names_[i]``), or
    either literal of a choice it is assigned (``name = wide ? "k64" : "k32"``)."""
    expr = expr.strip()
    if expr.startswith('"'):
        m = re.fullmatch(r'"([^"\\\n]*)"', expr)
        return [m.group(1)] if m else []
    var = re.escape(re.split(r"\s*\[", expr)[0].split("->")[-1].split(".")[-1])
    found = re.findall(rf'(?<![\w.>]){var}\s*(?:=|\{{|\()\s*"([^"\\\n]*)"', src.code)
    found += re.findall(rf'(?<![\w]){var}\s*(?:\.|->)\s*(?:push_back|emplace_back)\s*\(\s*"([^"\\\n]*)"', src.code)
    for rhs in re.findall(rf'(?<![\w.>]){var}\s*=([^;=][^;]*\?[^;]*);', src.code):  # x = c ? "a" : (d ? "b" : "c")
        if re.fullmatch(r'(?:[^"?:]*\?\s*\(?\s*"[^"\\\n]*"\s*\)?\s*:)+\s*\(?\s*"[^"\\\n]*"[\s)]*', rhs.strip()):
            found += re.findall(r'"([^"\\\n]*)"', rhs)
    found += _written_through(src, var)
    return [n for n in dict.fromkeys(found) if re.fullmatch(r"[A-Za-z_]\w*", n)]


def _written_through(src: CSource, var: str) -> list[str]:
    """The literals a function of the file stores through the pointer its caller passes ``&var`` as
    (``pick(dims, axis, &kernel_func_name_)`` and ``*name = "split_height";`` in ``pick``)."""
    out: list[str] = []
    functions = {f.name.split("::")[-1]: f for f in src.functions()}
    for m in re.finditer(rf"\b([A-Za-z_]\w*)\s*\((?=[^;]*&\s*{var}\b)", src.code):
        f = functions.get(m.group(1))
        args, _ = split_args(src.code, m.end())
        if f is None or not args:
            continue
        at = next((i for i, a in enumerate(args) if re.fullmatch(rf"&\s*{var}", a.strip())), None)
        if at is None or at >= len(f.params):
            continue
        out += re.findall(rf'\*\s*{re.escape(f.params[at])}\s*=\s*"([^"\\\n]*)"', src.code[f.start:f.end])
    return out


def kernel_alias(src: CSource, name: str, pos: int) -> str:
    """The variable ``name`` stands for at ``pos`` when its function declared it as a reference to or a copy of one
    (``auto& kernel = kernel_;``, ``auto kernel = kernel_;``: a ``cl::Kernel`` copy is the same kernel), else
    ``name``."""
    f = src.enclosing(pos)
    if f is None or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()):
        return name
    decl = list(re.finditer(rf"(?:\bauto|\bcl::Kernel)\s*&?\s*{re.escape(name.strip())}\s*=\s*"
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
    blocks = _open_blocks(between)
    if blocks is None or any(_opened_by(between, b) in ("for", "while", "do") for b in blocks):
        return None
    steps = 0
    for step in re.finditer(rf"(?<![\w.>]){var}\s*\+\+|\+\+\s*{var}\b", between):
        inside = _open_blocks(between[:step.start()])
        statement = re.split(r"[;{}]", between[:step.start()])[-1]
        if inside is None or any(b not in blocks for b in inside) or _CONTROL.match(statement.strip()):
            return None  # stepped in a block closed before the launch, or under a condition
        steps += 1
    return int(sets[-1].group(1)) + steps + (1 if m.group(1) else 0)


def _opened_by(code: str, brace: int) -> str:
    """The keyword whose statement the ``{`` at ``brace`` opens (``for``, ``if``, ``do``, ``else``, ...; ``""``)."""
    head = code[:brace].rstrip()
    if head.endswith(")"):  # skip the condition: `for (int i = 0; i < n; i++) {`
        depth, i = 0, len(head) - 1
        while i >= 0:
            depth += (head[i] == ")") - (head[i] == "(")
            if depth == 0:
                break
            i -= 1
        head = head[:max(i, 0)].rstrip()
    word = re.search(r"([A-Za-z_]\w*)$", head)
    return word.group(1) if word else ""


def _open_blocks(code: str) -> list[int] | None:
    """The offsets of the ``{`` still open at the end of ``code`` (``None`` when it closes one it did not open)."""
    stack: list[int] = []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i)
        elif c == "}":
            if not stack:
                return None
            stack.pop()
    return stack


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
