"""Small inline SVG charts for `simu mine report -o page.html`: stacked horizontal bars, plain horizontal bars and
a histogram, drawn as text (no plotting library, no JavaScript), so that the page stays self-contained and the
figures stay sharp when printed.  Every label is escaped here; callers pass plain text.
"""

from __future__ import annotations

from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
FONT = "font-family='Helvetica, Arial, sans-serif' font-size='12'"
ROW = 22  # px per bar
LABEL = 236  # px for the labels left of horizontal bars (28 characters of a wide sans-serif font)
WIDTH = 760


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _svg(height: int, title: str, body: list[str], width: int = WIDTH) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' class='chart' role='img' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' {FONT}><title>{escape(title)}</title>" + "".join(body) + "</svg>")


def _clip(text: str, n: int = 28) -> str:
    """At most ``n`` characters (the label column), the middle left out, so that both a
    repository's owner and its name's end stay readable."""
    if len(text) <= n:
        return text
    head = (n - 1) // 2
    return text[:head] + "…" + text[len(text) - (n - 1 - head):]


def _legend(keys: list[str], y: int) -> tuple[list[str], int]:
    """A legend that wraps; (its elements, its height)."""
    out, x, row = [], LABEL, 0
    for i, key in enumerate(keys):
        w = 18 + 7 * len(_clip(key, 28)) + 14
        if x + w > WIDTH and x > LABEL:
            x, row = LABEL, row + 1
        yy = y + row * 18
        out.append(f"<rect x='{x}' y='{yy}' width='12' height='12' fill='{colour(i)}'/>"
                   f"<text x='{x + 16}' y='{yy + 10}'>{escape(_clip(key, 28))}</text>")
        x += w
    return out, (row + 1) * 18 if keys else 0


def _axis(top: int, bottom: int, scale: float, peak: int, label: str = "") -> list[str]:
    """Vertical grid lines with their counts under the bars, and what they count."""
    out = [f"<text x='{LABEL + (WIDTH - LABEL - 60) / 2:.0f}' y='{bottom + 30}' text-anchor='middle' "
           f"fill='#555'>{escape(label)}</text>"] if label else []
    ticks = _ticks(peak)
    for t in ticks:
        x = LABEL + t * scale
        out.append(f"<line x1='{x:.1f}' y1='{top}' x2='{x:.1f}' y2='{bottom}' stroke='#ddd'/>"
                   f"<text x='{x:.1f}' y='{bottom + 14}' text-anchor='middle' fill='#555'>{t}</text>")
    return out


def _ticks(peak: int) -> list[int]:
    """Round tick values 0 … peak: steps of 1, 2, 5, 10, 20, 50 …, at most about six ticks."""
    step, i = 1.0, 0
    while peak / step > 6:
        step *= (2, 2.5, 2)[i % 3]
        i += 1
    return list(range(0, peak + 1, int(step)))


def stacked_bars(rows: list[tuple[str, dict[str, int]]], keys: list[str], title: str, xlabel: str = "") -> str:
    """One horizontal bar per row (label, counts by key), its segments stacked in ``keys`` order, with a legend
    and ``xlabel`` under the axis."""
    peak = max([sum(c.get(k, 0) for k in keys) for _, c in rows] + [1])
    scale = (WIDTH - LABEL - 60) / peak
    legend, lh = _legend(keys, 6)
    top = 6 + lh + 6
    body = list(legend)
    bottom = top + ROW * len(rows)
    body += _axis(top, bottom, scale, peak, xlabel)
    for r, (label, counts) in enumerate(rows):
        y = top + r * ROW
        body.append(f"<text x='{LABEL - 6}' y='{y + 15}' text-anchor='end'>{escape(_clip(label))}</text>")
        x = float(LABEL)
        for i, key in enumerate(keys):
            n = counts.get(key, 0)
            if n:
                body.append(f"<rect class='seg' x='{x:.1f}' y='{y + 3}' width='{n * scale:.1f}' height='{ROW - 6}' "
                            f"fill='{colour(i)}'><title>{escape(label)}: {n} {escape(key)}</title></rect>")
                x += n * scale
        total = sum(counts.get(k, 0) for k in keys)
        body.append(f"<text x='{x + 4:.1f}' y='{y + 15}' fill='#333'>{total}</text>")
    return _svg(bottom + (38 if xlabel else 22), title, body)


def bars(items: list[tuple[str, int]], title: str, xlabel: str = "") -> str:
    """Horizontal bars, one per (label, count), each its own colour, ``xlabel`` under the axis."""
    peak = max([n for _, n in items] + [1])
    scale = (WIDTH - LABEL - 60) / peak
    top = 6
    bottom = top + ROW * len(items)
    body = _axis(top, bottom, scale, peak, xlabel)
    for r, (label, n) in enumerate(items):
        y = top + r * ROW
        body.append(f"<text x='{LABEL - 6}' y='{y + 15}' text-anchor='end'>{escape(_clip(label))}</text>"
                    f"<rect class='bar' x='{LABEL}' y='{y + 3}' width='{n * scale:.1f}' height='{ROW - 6}' "
                    f"fill='{colour(r)}'><title>{escape(label)}: {n}</title></rect>"
                    f"<text x='{LABEL + n * scale + 4:.1f}' y='{y + 15}' fill='#333'>{n}</text>")
    return _svg(bottom + (38 if xlabel else 22), title, body)


def histogram(bins: list[tuple[str, int]], title: str, xlabel: str, ylabel: str) -> str:
    """Vertical bars over labelled bins (equal widths, whatever the bins' ranges), counts on top."""
    height, left, bottom_pad, top = 240, 50, 44, 16
    peak = max([n for _, n in bins] + [1])
    plot_h = height - bottom_pad - top
    bw = (WIDTH - left - 10) / max(len(bins), 1)
    body = []
    for t in _ticks(peak):
        y = top + plot_h - t * plot_h / peak
        body.append(f"<line x1='{left}' y1='{y:.1f}' x2='{WIDTH - 10}' y2='{y:.1f}' stroke='#ddd'/>"
                    f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' fill='#555'>{t}</text>")
    for i, (label, n) in enumerate(bins):
        x = left + i * bw
        h = n * plot_h / peak
        y = top + plot_h - h
        body.append(f"<rect class='bin' x='{x + 2:.1f}' y='{y:.1f}' width='{bw - 4:.1f}' height='{h:.1f}' "
                    f"fill='{colour(0)}'><title>{escape(label)}: {n}</title></rect>"
                    f"<text x='{x + bw / 2:.1f}' y='{top + plot_h + 14}' text-anchor='middle'>{escape(label)}</text>")
        if n:
            body.append(f"<text x='{x + bw / 2:.1f}' y='{y - 3:.1f}' text-anchor='middle' fill='#333'>{n}</text>")
    body.append(f"<text x='{left + (WIDTH - left) / 2:.0f}' y='{height - 8}' text-anchor='middle' fill='#555'>"
                f"{escape(xlabel)}</text>"
                f"<text x='12' y='{top + plot_h / 2:.0f}' transform='rotate(-90 12 {top + plot_h / 2:.0f})' "
                f"text-anchor='middle' fill='#555'>{escape(ylabel)}</text>")
    return _svg(height, title, body)


__all__ = ["bars", "colour", "histogram", "stacked_bars"]
