"""String values of host expressions (build options, kernel names, file names), read textually: a mixin of
:class:`simu.host.cvalues.Evaluator` (literals, concatenation, ``#define``d literals, ``char x[] = "..."``,
``std::string`` built with ``+``/``+=``/``append``, ``std::to_string``, ``strcat``, ``sprintf``/``snprintf`` with
constant arguments).  ``None`` means "not recoverable"."""

from __future__ import annotations

import re

from simu.frontend.ctext import C_STRING, STRING_LITERAL
from simu.host.cscan import declares, first_declarator, split_args, split_top_level, strip_casts, unescape

MAX_DEPTH = 12  # nesting of name lookups while evaluating (a macro defined through itself ends here)


class StringValues:
    """The string half of the evaluator (it uses the evaluator's ``src``, ``definition``, ``int_value``)."""

    def str_value(self, expr: str, pos: int, depth: int = 0) -> str | None:
        """The value of a string expression at ``pos``; ``None`` if not recoverable."""
        if depth > MAX_DEPTH:
            return None
        e = strip_casts(expr.strip())
        e = re.sub(r"\.c_str\s*\(\s*\)$|\.data\s*\(\s*\)$", "", e).strip()
        if e in ("NULL", "nullptr", "0", ""):
            return ""
        parts = split_plus(e)
        if parts is None:
            return None
        out = []
        for part in parts:
            v = self._str_part(part.strip(), pos, depth)
            if v is None:
                return None
            out.append(v)
        return "".join(out)

    def _str_part(self, part: str, pos: int, depth: int) -> str | None:
        lits = list(STRING_LITERAL.finditer(part))
        if lits and STRING_LITERAL.sub("", part).strip() == "":
            return "".join(unescape(m.group(0)) for m in lits)
        m = re.fullmatch(r"(?:std::)?(?:string|String)\s*[({]\s*(.*?)\s*[)}]", part, re.S)
        if m:
            return self.str_value(m.group(1), pos, depth + 1)
        m = re.fullmatch(r"(?:std::)?to_string\s*\((.*)\)", part, re.S)
        if m:
            v = self._number(m.group(1), pos, depth + 1)
            return None if v is None else (str(v) if isinstance(v, int) else f"{v:f}")
        if part.startswith("(") and part.endswith(")"):
            return self.str_value(part[1:-1], pos, depth + 1)
        if re.fullmatch(r"[A-Za-z_]\w*", part):
            return self._str_name(part, pos, depth)
        # adjacent literal and macro concatenation: "-D N=" SIZE_STR
        pieces = re.findall(rf"{C_STRING}|[A-Za-z_]\w*", part)
        if pieces and re.sub(rf"{C_STRING}|[A-Za-z_]\w*|\s", "", part) == "":
            vals = [self._str_part(p, pos, depth + 1) for p in pieces]
            return None if None in vals else "".join(vals)  # type: ignore[arg-type]
        return None

    def _str_name(self, name: str, pos: int, depth: int) -> str | None:
        if name in self.src.macros:
            return self.str_value(self.src.macros[name], pos, depth + 1)
        return self.string_variable(name, pos, depth)

    def string_variable(self, name: str, pos: int, depth: int = 0) -> str | None:
        """A string variable's value at ``pos``: its last full definition, then every append after it."""
        code = self.src.code
        n = re.escape(name)
        events = []
        pat = re.compile(rf"(?<![\w.>])({n})\s*(?:\[[^\]]*\]\s*)?(=(?!=)|\+=|\{{|\((?=\s*\"))")
        for m in pat.finditer(code, 0, pos):
            start = m.end() if m.group(2) in ("=", "+=") else m.end() - 1
            end = self.src.statement_end(start)
            if end > pos:
                continue
            text = first_declarator(code[start:end].strip())
            if m.group(2) in ("{", "("):
                if not declares(code, m.start()):
                    continue
                text = text[1:-1]
            events.append((m.start(), "append" if m.group(2) == "+=" else "set", text))
        for fn, kind in (("strcat", "append"), ("strncat", "append"), ("strcpy", "set"), ("strncpy", "set"),
                         ("sprintf", "format"), ("snprintf", "nformat"), ("sprintf_s", "nformat")):
            for c in self.src.calls(fn):
                if c.pos < pos and c.args and c.args[0].strip() == name:
                    events.append((c.pos, kind, c.args))
        for m in re.finditer(rf"(?<![\w.>]){n}\s*(?:\.|->)\s*append\s*\(", code[:pos]):
            args, _ = split_args(code, m.end())
            if args:
                events.append((m.start(), "append", args[0]))
        events.sort(key=lambda e: e[0])
        value: str | None = None
        for at, kind, payload in events:
            if kind == "set":
                value = self.str_value(payload if isinstance(payload, str) else payload[1], at, depth + 1)
            elif kind == "append":
                add = self.str_value(payload if isinstance(payload, str) else payload[1], at, depth + 1)
                value = None if value is None or add is None else value + add
            else:
                args = payload[1:] if kind == "format" else payload[2:]
                value = self._format(args, at, depth)
        return value

    def _format(self, args: tuple[str, ...], pos: int, depth: int) -> str | None:
        if not args:
            return None
        fmt = self.str_value(args[0], pos, depth + 1)
        if fmt is None:
            return None
        values: list[object] = []
        convs = re.findall(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?([diouxXfFeEgGcs%])", fmt)
        rest = list(args[1:])
        for conv in convs:
            if conv == "%":
                continue
            if not rest:
                return None
            a = rest.pop(0)
            v = self.str_value(a, pos, depth + 1) if conv == "s" else self._number(a, pos, depth + 1)
            if v is None:
                return None
            values.append(v)
        py = re.sub(r"(%[-+ #0]*\d*(?:\.\d+)?)(?:hh|h|ll|l|z|j|t|L)?([diouxXfFeEgGcs%])", r"\1\2", fmt)
        try:
            return py % tuple(values)
        except (TypeError, ValueError):
            return None


def split_plus(e: str) -> list[str] | None:
    """Top-level ``+`` operands of an expression (strings and brackets respected)."""
    return split_top_level(e, "+") or None
