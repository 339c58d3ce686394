"""Render `simu mine report`'s page to PNG files without a browser: each inline SVG chart through Qt's SVG
renderer (OUT-chartN.png), the text and tables through Qt's rich-text engine (OUT-page.png).

A developer's tool for looking at the figures where no headless Chromium can be installed (no network beyond
the pip index); it needs PySide6-Essentials, which simu does not depend on:

    python scripts/render_mine_report.py report.html OUT
"""
import os
import re
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter, QTextDocument
from PySide6.QtSvg import QSvgRenderer

html = open(sys.argv[1]).read()
out = sys.argv[2]
app = QGuiApplication([])
for i, svg in enumerate(re.findall(r"<svg.*?</svg>", html, re.S)):
    r = QSvgRenderer(QByteArray(svg.encode()))
    size = r.defaultSize()
    img = QImage(size.width() * 2, size.height() * 2, QImage.Format_ARGB32)
    img.fill(Qt.white)
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing)
    r.render(p, QRectF(0, 0, img.width(), img.height()))
    p.end()
    img.save(f"{out}-chart{i}.png")
    print("chart", i, size.width(), size.height())
doc = QTextDocument()
doc.setHtml(re.sub(r"<svg.*?</svg>", "[chart]", html, flags=re.S))
doc.setTextWidth(1200)
h = int(doc.size().height())
img = QImage(1200, min(h, 6000), QImage.Format_ARGB32)
img.fill(Qt.white)
p = QPainter(img)
doc.drawContents(p, QRectF(0, 0, 1200, min(h, 6000)))
p.end()
img.save(f"{out}-page.png")
print("page", h)
