"""SVG markup for server-side charts: escaped text, rounded numbers, elements, the root element.

Pure (standard library only): the same input always gives the same string, every text is escaped,
nothing is loaded from anywhere and there is no script. The fragments carry no ``xmlns`` (HTML
parsing puts an inline ``<svg>`` in the SVG namespace by itself); wrap one with
:func:`as_standalone_svg` to write it to a ``.svg`` file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from html import escape

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
INK = "#1f2933"
MUTED = "#6b7280"
GRID = "#e3e6ea"
AXIS = "#9aa1a9"
CHAR_EM = 0.58  # average character width, in em, used to keep labels inside the chart

# Characters XML 1.0 forbids even when escaped (control characters, lone surrogates, U+FFFE/F).
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def num(value: float) -> str:
    """A coordinate rounded to one decimal, without a trailing '.0' nor a '-0'."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def esc(text: object) -> str:
    """Text safe for XML content and attribute values (user names go through here)."""
    return escape(_XML_INVALID.sub("", str(text)), quote=True)


def attrs(attributes: Mapping[str, object]) -> str:
    parts = []
    for key, value in attributes.items():
        if value is None:
            continue
        rendered = num(value) if isinstance(value, float) else esc(value)
        parts.append(f' {key.rstrip("_").replace("_", "-")}="{rendered}"')
    return "".join(parts)


def svg_text(x: float, y: float, content: str, *, tooltip: str = "", **attributes: object) -> str:
    """A <text> element; ``content`` is escaped here, ``tooltip`` becomes a child <title>."""
    hint = f"<title>{esc(tooltip)}</title>" if tooltip else ""
    return f"<text{attrs({'x': float(x), 'y': float(y), **attributes})}>{hint}{esc(content)}</text>"


def svg_points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of the rendered width (DejaVu Sans, a wide font, averages 0.55 em)."""
    return len(text) * font_size * CHAR_EM


def fit(text: str, max_width: float, font_size: float) -> str:
    """``text`` cut with an ellipsis so its estimated width stays within ``max_width``."""
    max_chars = math.floor(max_width / (font_size * CHAR_EM) + 1e-6)
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return "…"
    return text[: max_chars - 1].rstrip() + "…"


def svg_open(width: float, height: float, label: str, *, css_class: str) -> str:
    """The root element: responsive (viewBox, width 100%), an image described for assistive
    technology by ``label`` (its aria-label and its <title>, the tooltip)."""
    return (
        f'<svg class="{css_class}" viewBox="0 0 {num(width)} {num(height)}" width="100%"'
        f' preserveAspectRatio="xMidYMid meet" role="img" aria-label="{esc(label)}"'
        f' font-family="{esc(FONT)}" font-size="11" fill="{INK}">'
        f"<title>{esc(label)}</title>"
    )


def placeholder(message: str, width: int, title: str, *, css_class: str) -> str:
    """A small chart-shaped SVG saying there is nothing to draw yet."""
    width = max(int(width), 120)
    height = 48
    return (
        svg_open(width, height, f"{title}: {message}" if title else message, css_class=css_class)
        + f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="6"'
        f' fill="#f6f7f8" stroke="{GRID}"/>'
        + svg_text(
            width / 2, height / 2 + 4, message, text_anchor="middle", fill=MUTED, font_size=13
        )
        + "</svg>"
    )


def as_standalone_svg(svg: str) -> str:
    """The same chart as a standalone SVG document (adds the namespace a .svg file needs)."""
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
