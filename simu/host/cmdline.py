"""What a program computes from its command line when it is run without options: the defaults.

A launch whose size comes from ``atoi(argv[1])`` or an option parser is one the program makes with any value
the user types; simu cannot know which, but the program's *defaults* are launches it makes when run as it
is (how benchmarks and examples are run).  This module reads them lexically:

* an assignment that reads the command line or the environment (``argv``, ``optarg``, ``getenv``) inside a
  branch or loop, ``if (argc > 1) n = atoi(argv[1]);`` or a ``getopt`` ``switch``, is the user's choice: the
  value before it is the default (:func:`reads_command_line`, used by :mod:`simu.host.cvalues`);
* ``argc > 1 ? atoi(argv[1]) : 1024`` is ``1024`` (:func:`with_defaults`);
* an option registered with a default and read back by name, ``op.addOption("size", OPT_INT, "1", …)`` then
  ``op.getOptionInt("size")`` (shoc), ``("size,s", po::value<int>()->default_value(64))`` then
  ``vm["size"].as<int>()`` (Boost, cxxopts), is the registered default (:func:`option_defaults`, collected
  over the project by the host index; a name registered with different defaults has none);
* a gflags ``DEFINE_int32(batch, 64, "…")`` makes ``FLAGS_batch`` 64.

Each default used is recorded by the evaluator, so that a launch's contract says which values are defaults.
"""

from __future__ import annotations

import re

from simu.host.cscan import split_args, split_top_level

CMDLINE = re.compile(r"(?<![\w.])(?:argv|optarg|getenv)\b")
_NUMBER = r"-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)[uUlLfF]*"
_OPTION_NAME = r"-{0,2}([A-Za-z][\w-]*)"
# a call's first argument naming an option: ``addOption("size", …`` / ``("n,size", …`` / ``("size,n", …``
_REGISTER = re.compile(r'\(\s*"(?:[A-Za-z],)?' + _OPTION_NAME + r'(?:,[A-Za-z])?"\s*,')
_DEFAULT_VALUE = re.compile(r"\bdefault_value\s*\(\s*\"?(" + _NUMBER + r")\"?\s*\)")
_GFLAGS = re.compile(r"\bDEFINE_(?:u?int32|u?int64|int|double|bool|size_t)\s*\(\s*([A-Za-z_]\w*)\s*,\s*(" + _NUMBER
                     + r"|true|false)\s*,")
# a read of an option by name: ``op.getOptionInt("size")``, ``vm["size"].as<int>()``, ``result["size"].as<int>()``
_GETTER = re.compile(r'(?:[A-Za-z_]\w*\s*(?:\.|->)\s*)+[A-Za-z_]\w*\s*(?:<[\w\s:]*>\s*)?\(\s*"' + _OPTION_NAME
                     + r'"\s*\)|[A-Za-z_]\w*\s*\[\s*"' + _OPTION_NAME + r'"\s*\]\s*\.\s*as\s*<[^<>]*>\s*\(\s*\)')


def reads_command_line(text: str) -> bool:
    """Whether an expression reads the command line, the environment or an option by name."""
    return CMDLINE.search(text) is not None or '"' in text and _GETTER.search(text) is not None


def option_defaults(code: str) -> dict[str, str]:
    """The options one host file registers with a numeric default: option name -> the default (a number as
    text); gflags' as ``FLAGS_name``."""
    out: dict[str, str] = {}
    for m in _REGISTER.finditer(code):
        rest, _ = split_args(code, m.end())
        if not rest:
            continue
        d = _DEFAULT_VALUE.search(" ".join(rest))
        value = d.group(1) if d else _first_number(rest)
        if value is not None:
            out.setdefault(m.group(1), value)
    for m in _GFLAGS.finditer(code):
        out.setdefault(f"FLAGS_{m.group(1)}", {"true": "1", "false": "0"}.get(m.group(2), m.group(2)))
    return out


def merge_defaults(per_file: list[dict[str, str]]) -> dict[str, str]:
    """The project's option defaults: a name registered with different defaults in different files has none
    (each file's own registrations still apply to it)."""
    seen: dict[str, set[str]] = {}
    for d in per_file:
        for k, v in d.items():
            seen.setdefault(k, set()).add(v)
    return {k: next(iter(v)) for k, v in sorted(seen.items()) if len(v) == 1}


def with_defaults(expr: str, options: dict[str, str], used: set[str]) -> str:
    """``expr`` with option reads replaced by their registered defaults and ``cond ? <command line> : d`` by
    ``d`` (the names of the defaults taken are added to ``used``)."""
    def getter(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        if name in options:
            used.add(name)
            return f"({options[name]})"
        return m.group(0)

    if '"' in expr:
        expr = _GETTER.sub(getter, expr)
    if "?" in expr and CMDLINE.search(expr):
        expr = _ternary_default(expr)
    return expr


def _ternary_default(expr: str) -> str:
    """``argc > 1 ? atoi(argv[1]) : 1024`` -> ``1024`` (one top-level conditional whose condition or one
    side reads the command line and whose other side does not)."""
    parts = split_top_level(expr, "?")
    if len(parts) != 2:
        return expr
    sides = split_top_level(parts[1], ":")
    if len(sides) != 2:
        return expr
    cond, a, b = parts[0], sides[0], sides[1]
    if CMDLINE.search(a) and not CMDLINE.search(b):
        return b.strip()
    if CMDLINE.search(b) and not CMDLINE.search(a):
        return a.strip()
    if CMDLINE.search(cond) and not CMDLINE.search(a + b) and re.search(r"\bargc\b", cond):
        return b.strip() if re.search(r"argc\s*(>|>=|!=)", cond) else a.strip()
    return expr


def _first_number(rest: list[str]) -> str | None:
    """The first argument after the name that is a number or a string holding one (``OPT_INT, "1", …``)."""
    for arg in rest:
        a = arg.strip()
        m = re.fullmatch(r'"(' + _NUMBER + r')"|(' + _NUMBER + r")", a)
        if m:
            return (m.group(1) or m.group(2)).rstrip("uUlLfF") or None
    return None
