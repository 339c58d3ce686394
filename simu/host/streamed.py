"""Program text a host streams in front of a kernel file's own source before it builds the program.

Some hosts assemble each program's source at run time instead of passing build options: a builder function streams
type definitions and a shared ``.cl`` file into a string stream, then the source it was given, and builds that::

    if (useDoublePrecision) { src << "typedef double real;\\n"; ... } else { src << "typedef float real;\\n"; ... }
    src << KernelSources::common << endl;   // the text of common.cl, generated into a C++ variable
    src << source << endl;

A ``.cl`` file built this way does not compile alone (``unknown type name 'real'``, the helpers of ``common.cl``
undeclared), nor do the names the builder defines from a map (``defines["TILE_SIZE"] = ...``).
:func:`streamed_types` gives each streamed ``typedef`` as a define hint (``real=float``, ``real=double``: the scan
picks one, :func:`simu.scan.assume.hinted`, and says so); :func:`mapped_defines` the map's upper-case keys, as a
``-DTILE_SIZE=`` in an option string would; :func:`streamed_sources` names the files streamed by a qualified name
(``KernelSources::common``: ``common``), which a ``.cl`` file of the folder that holds ``common.cl`` is compiled
after (``-include``, :mod:`simu.scan.flags`).
"""

from __future__ import annotations

import re

from simu.host.cscan import CSource
from simu.host.options import HOLE

STREAMED_KEY = "cl_streamed_sources"  # HostFile.extra: the stems of the sources streamed by qualified name
_TYPEDEF = re.compile(r"\s*typedef\s+((?:unsigned\s+)?[A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*;\s*")
_MAPPED = re.compile(r'\b[A-Za-z_]\w*\s*\[\s*"([A-Za-z_]\w*)"\s*\]\s*=\s*([^;=][^;]*);')
_BUILT_IN = re.compile(r"(?:M|CL|FLT|DBL|HALF|CHAR|SCHAR|UCHAR|SHRT|USHRT|INT|UINT|LONG|ULONG)_\w+|MAXFLOAT|HUGE_VALF?|"
                       r"INFINITY|NAN")
_WORD = re.compile(r"[\w.]+")
_QUALIFIED = re.compile(r"<<\s*(?:[A-Za-z_]\w*::)+([A-Za-z_]\w*)\s*(?=<<|;)")


def streamed_types(src: CSource) -> list[str]:
    """``NAME=TYPE`` for every string literal that is one ``typedef TYPE NAME;`` streamed into a stream."""
    if "typedef" not in src.code or "<<" not in src.code:
        return []
    out = []
    for pos, text in src.literals():
        m = _TYPEDEF.fullmatch(text)
        if m and re.search(r"<<\s*$", src.code[max(0, pos - 40):pos]):
            out.append(f"{m.group(2)}={m.group(1)}")
    return list(dict.fromkeys(out))


def mapped_defines(src: CSource) -> list[str]:
    """``NAME=VALUE`` (``NAME=@?@`` for a value computed at run time) for every upper-case key a string map is given
    (``defines["TILE_SIZE"] = intToString(tile);``, ``replacements["KEY_TYPE"] = "int";``), and every key it gives a
    literal (``defines["make_real2"] = "make_float2";``): a builder that writes such a map into the program's text as
    ``#define`` lines or replaces the names with it."""
    if '["' not in src.code:
        return []
    out = []
    for m in _MAPPED.finditer(src.code):
        if _BUILT_IN.fullmatch(m.group(1)):
            continue  # OpenCL C's own constants (M_PI): a host that maps them passes what the device already has
        value = m.group(2).strip()
        lit = re.fullmatch(r'"([^"\\\n]*)"', value)
        if lit:
            value = lit.group(1)
        elif not m.group(1).isupper():
            continue  # a lower-case key is a macro only when the map gives it a literal (`"make_real2"`)
        out.append(f"{m.group(1)}={value if _WORD.fullmatch(value) else HOLE}")
    return list(dict.fromkeys(out))


def streamed_sources(src: CSource) -> list[str]:
    """The last components of the qualified names streamed into a stream (``src << Sources::common << endl``)."""
    if "<<" not in src.code or "::" not in src.code:
        return []
    return list(dict.fromkeys(_QUALIFIED.findall(src.code)))
