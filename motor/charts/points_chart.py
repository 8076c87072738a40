"""The points chart: cumulative championship points after each round, one line per driver or
constructor (the leaders), each line named at its end and marked at every round."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from motor.charts.lap_chart import line_style
from svg.markup import AXIS, GRID, MUTED, attrs, esc, fit, num, placeholder, svg_open, svg_text
from svg.wording import merge_texts, text_format

POINTS_TEXTS: dict[str, str] = {
    "no_points": "No standings yet",
    "round_axis": "Round",
    "points_axis": "Points",
    "description": "Points after rounds {first} to {last}: {lines}",
    "line": "{name} {points}",
    "point": "{name}, round {round}: {points} points",
}
MARKERS = ("circle", "square", "diamond", "triangle")


def _marker(kind: str, x: float, y: float, colour: str, hint: str) -> str:
    title = f"<title>{esc(hint)}</title>"
    if kind == "square":
        return (
            f'<rect x="{num(x - 3)}" y="{num(y - 3)}" width="6" height="6" fill="{colour}"'
            f' stroke="#fff" stroke-width="0.8">{title}</rect>'
        )
    if kind == "diamond":
        return (
            f'<polygon points="{num(x)},{num(y - 4)} {num(x + 4)},{num(y)} {num(x)},{num(y + 4)}'
            f' {num(x - 4)},{num(y)}" fill="{colour}" stroke="#fff" stroke-width="0.8">'
            f"{title}</polygon>"
        )
    if kind == "triangle":
        return (
            f'<polygon points="{num(x)},{num(y - 4)} {num(x + 4)},{num(y + 3)}'
            f' {num(x - 4)},{num(y + 3)}" fill="{colour}" stroke="#fff" stroke-width="0.8">'
            f"{title}</polygon>"
        )
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="3" fill="{colour}" stroke="#fff"'
        f' stroke-width="0.8">{title}</circle>'
    )


def _spread_labels(ys: list[float], gap: float, low: float, high: float) -> list[float]:
    """End labels pushed apart (kept in order) so that no two overlap."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    last = low - gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    overflow = last - high
    if overflow > 0:
        for i in order:
            placed[i] -= overflow
    return placed


def _points_text(value: float) -> str:
    return f"{value:g}"


def points_chart_svg(
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    rounds: Sequence[int],
    width: int = 720,
    height: int = 340,
    title: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """``series``: (name, points after each of ``rounds``), in standings order."""
    words = merge_texts(POINTS_TEXTS, texts)
    values = [v for _n, vs in series for v in vs if v is not None]
    if not rounds or not series or not values:
        return placeholder(words["no_points"], width, title, css_class="chart chart-points")
    peak = max(max(values), 1.0)
    step = next(
        s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if peak / s <= 6
    )
    y_max = math.ceil(peak / step) * step
    label_w = min(150.0, width * 0.24)
    left, right = 44.0, width - label_w - 10
    top = 40.0 if title else 16.0
    bottom = float(height) - 40.0

    def px(i: int) -> float:
        return left + (right - left) * (i / (len(rounds) - 1) if len(rounds) > 1 else 0.5)

    def py(v: float) -> float:
        return bottom - (bottom - top) * v / y_max

    lasts = []
    for name, vs in series:
        known = [v for v in vs if v is not None]
        if known:
            lasts.append(
                text_format(words, POINTS_TEXTS, "line", name=name, points=_points_text(known[-1]))
            )
    label = text_format(
        words, POINTS_TEXTS, "description", first=rounds[0], last=rounds[-1], lines="; ".join(lasts)
    )
    out = [svg_open(width, height, label, css_class="chart chart-points")]
    if title:
        out.append(
            svg_text(left, 22, fit(title, width - left - 8, 13), font_size=13, font_weight=600)
        )
    out.append(f'<g class="points-axis" font-size="10" fill="{MUTED}">')
    tick = 0
    while tick <= y_max:
        y = py(tick)
        out.append(
            f'<line x1="{num(left)}" y1="{num(y)}" x2="{num(right)}" y2="{num(y)}"'
            f' stroke="{AXIS if tick == 0 else GRID}"/>'
        )
        out.append(svg_text(left - 6, y + 3.5, str(tick), text_anchor="end"))
        tick += step
    every = max(1, math.ceil(len(rounds) * 22 / max(right - left, 1)))
    for i, number in enumerate(rounds):
        if i % every == 0 or i == len(rounds) - 1:
            out.append(svg_text(px(i), bottom + 15, str(number), text_anchor="middle"))
    out.append(svg_text((left + right) / 2, bottom + 31, words["round_axis"], text_anchor="middle"))
    out.append(
        svg_text(
            12,
            (top + bottom) / 2,
            words["points_axis"],
            text_anchor="middle",
            transform=f"rotate(-90 12 {num((top + bottom) / 2)})",
        )
    )
    out.append("</g>")

    ends: list[tuple[int, float, float]] = []
    out.append('<g class="points-lines" fill="none" stroke-width="2" stroke-linejoin="round">')
    for index in reversed(range(len(series))):
        name, vs = series[index]
        colour, dash = line_style(index)
        marker = MARKERS[index % len(MARKERS)]
        pts = [(i, float(v)) for i, v in enumerate(vs[: len(rounds)]) if v is not None]
        out.append(
            f'<g class="points-line" data-name="{esc(name)}" stroke="{colour}">'
            f"<title>{esc(name)}</title>"
        )
        if len(pts) > 1:
            coords = " ".join(f"{num(px(i))},{num(py(v))}" for i, v in pts)
            out.append(f'<polyline{attrs({"stroke_dasharray": dash})} points="{coords}"/>')
        for i, v in pts:
            hint = text_format(
                words, POINTS_TEXTS, "point", name=name, round=rounds[i], points=_points_text(v)
            )
            out.append(_marker(marker, px(i), py(v), colour, hint))
        if pts:
            ends.append((index, px(pts[-1][0]), py(pts[-1][1])))
        out.append("</g>")
    out.append("</g>")
    ends.sort()
    placed = _spread_labels([y for _i, _x, y in ends], 12.0, top, bottom)
    out.append('<g class="points-labels" font-size="10">')
    for (index, _x, _y), label_y in zip(ends, placed, strict=True):
        name, vs = series[index]
        colour, _dash = line_style(index)
        known = [v for v in vs if v is not None]
        text = f"{name} {_points_text(float(known[-1]))}"
        out.append(_marker(MARKERS[index % len(MARKERS)], right + 8, label_y, colour, text))
        out.append(
            svg_text(
                right + 15, label_y + 3.5, fit(text, label_w - 12, 10), tooltip=text, fill="#1f2933"
            )
        )
    out.append("</g></svg>")
    return "".join(out)
