"""C and C++ source read as text: the patterns of string, raw-string and character literals, and comments
blanked in place (offsets and line numbers stay true).  Shared by the front end's lexical readers and by the
host-code index (:mod:`simu.host.cscan`), which sits after the front end.
"""

from __future__ import annotations

import re

C_STRING = r'(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*"'
RAW_STRING = r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\((.*?)\)\1"'  # group 2: the raw text
STRING_LITERAL = re.compile(rf"{RAW_STRING}|{C_STRING}", re.S)
CHAR_LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)*'")
_TOKEN = re.compile(rf"{RAW_STRING}|{C_STRING}|'(?:[^'\\\n]|\\.)*'|//[^\n]*|/\*.*?\*/", re.S)


def comment_free(text: str) -> str:
    """``text`` with every comment replaced by spaces (newlines kept; literals untouched)."""
    return _TOKEN.sub(lambda m: spaces(m.group(0)) if m.group(0).startswith("/") else m.group(0), text)


def spaces(s: str) -> str:
    """``s`` as blanks of the same length, its newlines kept."""
    return re.sub(r"[^\n]", " ", s)
