"""The package layout of docs/architecture.md, checked: one-way data flow, small modules.

The import graph counts every import of a simu module, also those inside functions (a lazy import
hides a cycle from Python, not from a reader).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SIMU = Path(__file__).resolve().parent.parent / "simu"
MAX_LINES = 600
MAX_TOP_LEVEL = 6


def _modules() -> dict[str, Path]:
    out = {}
    for p in SIMU.rglob("*.py"):
        parts = p.relative_to(SIMU.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    deps.add(sub if sub in mods else node.module)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles(import_graph()) == []


def test_cycle_finder_sees_lazy_imports():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


@pytest.mark.parametrize("path", sorted(SIMU.rglob("*.py")), ids=lambda p: str(p.relative_to(SIMU)))
def test_module_is_small(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_few_top_level_modules():
    top = sorted(p.name for p in SIMU.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for d in graph[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_configuration_imports_no_analysis_code():
    reach = _reachable(import_graph(), "simu.config")
    analysis = ("simu.interp", "simu.detect", "simu.evolve", "simu.scan", "simu.report", "simu.pipeline",
                "simu.check", "simu.frontend", "simu.ir", "simu.validate", "simu.host")
    assert not [m for m in reach if m.startswith(analysis)], sorted(reach)


def test_checking_a_complete_launch_imports_no_search():
    """`simu check` with every launch value given runs no search: naming its budget imports neither DEAP nor the
    search (issue 31: what a user pays per launch)."""
    code = ("import sys, simu.check, simu.cli.check; "
            "print(sorted(m for m in sys.modules if m.startswith(('deap', 'simu.evolve.search'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_a_command_handed_to_the_resident_checker_imports_no_analysis_code():
    """The `simu` entry point asks for a resident checker before anything heavy is imported: that is its point."""
    code = ("import sys, simu.cli; from simu.resident import client; "
            "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'llvmlite', 'typer', 'rich', 'simu.'))"
            " and not m.startswith(('simu.cli', 'simu.resident'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_generator_imports_no_analysis_code():
    """simu.generate writes source text: it needs no analysis stage (tests check its labels with simu)."""
    reach = _reachable(import_graph(), "simu.generate")
    analysis = ("simu.interp", "simu.detect", "simu.evolve", "simu.scan", "simu.report", "simu.pipeline",
                "simu.check", "simu.frontend", "simu.ir", "simu.validate", "simu.host", "simu.launch", "simu.bench")
    assert not [m for m in reach if m.startswith(analysis)], sorted(reach)


@pytest.mark.parametrize(("lower", "upper"), [
    ("simu.ir", "simu.interp"), ("simu.interp", "simu.detect"), ("simu.detect", "simu.pipeline"),
    ("simu.pipeline", "simu.evolve"), ("simu.evolve", "simu.check"), ("simu.check", "simu.scan"),
    ("simu.frontend", "simu.scan"), ("simu.report", "simu.cli"),
    ("simu.frontend", "simu.host"), ("simu.host", "simu.ir"), ("simu.host", "simu.interp"),
    ("simu.host", "simu.evolve"), ("simu.host", "simu.check"), ("simu.host", "simu.scan"),
    ("simu.scan", "simu.mine"), ("simu.report", "simu.mine"), ("simu.mine", "simu.cli"),
    ("simu.interp", "simu.generate"), ("simu.detect", "simu.generate"), ("simu.pipeline", "simu.generate"),
    ("simu.evolve", "simu.generate"), ("simu.check", "simu.generate"), ("simu.scan", "simu.generate"),
    ("simu.frontend", "simu.generate"), ("simu.launch", "simu.generate"), ("simu.resident", "simu.cli"),
])
def test_data_flows_one_way(lower, upper):
    """A lower stage never imports a later one."""
    graph = import_graph()
    later = [m for m in graph if m == upper or m.startswith(upper + ".")]
    bad = [(m, d) for m in graph if m == lower or m.startswith(lower + ".")
           for d in graph[m] if d in later]
    assert bad == []


def test_kind_registry_matches_the_checks():
    from simu import codes
    from simu.detect import CHECKS

    assert set(codes.CHECK_NAMES) <= set(CHECKS)
    assert {k.check for k in codes.KINDS} <= set(codes.CHECK_NAMES)
    assert set(codes.DEFAULT_CHECKS) <= set(codes.CHECK_NAMES)
