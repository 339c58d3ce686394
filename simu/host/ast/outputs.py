"""What a call may write in its caller's variables: the variables whose address it is given (``cudaMalloc(&d, n)``,
``scanf("%d", &n)``: not through a pointer to ``const``) and those it takes by reference to non-``const``
(``load_csr(path, n, m, row, col)``, ``in >> n``).  After the call they hold what it wrote, which the program only
has at run time, not the value they had before."""

from __future__ import annotations

import re

from simu.host.ast.nodes import Node, kids, qual_type, referenced, strip
from simu.host.ast.opencl import written_through

_TARGETS = ("DeclRefExpr", "MemberExpr", "ArraySubscriptExpr")


def written_targets(call: Node) -> list[Node]:
    """The argument expressions of ``call`` that name what the callee may write (see the module)."""
    out = []
    for a in kids(call)[1:]:
        s = strip(a)
        if s.get("kind") == "UnaryOperator" and s.get("opcode") == "&" and written_through(a):
            out.append(kids(s)[0])  # named, so that two buffers two calls allocate are two values
    decl = referenced(strip(kids(call)[0])) if kids(call) else {}
    args = kids(call)[1:]
    if call.get("kind") == "CXXOperatorCallExpr" and decl.get("kind") == "CXXMethodDecl":
        args = args[1:]  # the object the member operator is called on
    for a, written in zip(args, reference_outputs(decl), strict=False):
        if written and strip(a).get("kind") in _TARGETS:
            out.append(strip(a))
    return out


def reference_outputs(decl: Node) -> tuple[bool, ...]:
    """Per parameter of a function or method declaration, whether it is a reference to non-``const`` (``int &``,
    ``std::vector<int> &``): the callee may write the caller's variable through it (``load(path, n, m)``,
    ``in >> n``)."""
    params = parameter_texts(qual_type(decl, desugared=False))
    if params is None:
        return ()
    out = []
    for param in params:
        t = param.strip()
        words = re.findall(r"[A-Za-z_]\w*", t.split("<")[0])
        out.append(t.endswith("&") and not t.endswith("&&") and "const" not in words)
    return tuple(out) if "".join(params).strip() else ()


def parameter_texts(function_type: str) -> list[str] | None:
    """The parameters' texts of a function type (``void (const int *, std::pair<int, int> &)``): the last
    parenthesised group at depth 0, split at its top-level commas; None when there is none."""
    text = re.sub(r"\s+", " ", function_type)
    end = text.rfind(")")
    depth, start = 0, -1
    for i in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            start = i
            break
    if start < 0:
        return None
    params, depth, cur = [], 0, ""
    for ch in text[start + 1:end]:
        depth += {"<": 1, "(": 1, "[": 1, ">": -1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    params.append(cur)
    return params
