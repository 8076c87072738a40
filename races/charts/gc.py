"""The GC chart: the gap of the leading riders to the leader after each stage.

Lines are told apart without colour (issue 17): each has its place number at its end, an end
marker of its own shape and, after the first five, a dash pattern; the legend repeats number,
shape and dash beside each name. A narrow layout (``legend_below``) puts the legend under the
plot in one column, for a phone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from django.utils.translation import gettext

from svg.markup import (
    AXIS,
    GRID,
    MUTED,
    attrs,
    esc,
    fit,
    num,
    placeholder,
    svg_open,
    svg_points,
    svg_text,
    text_width,
)
from svg.wording import merge_texts, text_format

# Tableau 10: distinct, colour-blind friendlier than the default cycles.
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
DASHES = (None, "6 3", "2 3", "8 3 2 3")
#: The end markers' shapes, one per line within each dash pattern: five shapes times the dashes
#: give twenty lines that differ by more than their colour.
SHAPES = ("circle", "square", "triangle", "diamond", "triangle-down")
GAP_STEPS = (5, 10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600, 5400, 7200, 10800)
# The words of the GC chart, by key: ``gc_gaps_svg(..., texts={key: translation})``.
GC_TEXTS: dict[str, str] = {
    "no_standings": "No standings yet",
    "stage_axis": "Stage",
    "gap_axis": "Gap to leader",
    "description": "GC gaps, stages {first} to {last}: {riders}",
    "description_titled": "GC gaps: {title}, stages {first} to {last}: {riders}",
    "rider_gap": "{name} {gap} after stage {stage}",
    "point": "{name}, stage {stage}: {gap}",
    "more": "+ {count} more",
}


def format_gap(seconds: float, *, hours: bool = False) -> str:
    """Seconds as m:ss, or h:mm:ss when ``hours`` or past an hour: 90 -> '1:30'."""
    seconds = round(seconds)
    h, rest = divmod(abs(seconds), 3600)
    m, s = divmod(rest, 60)
    sign = "-" if seconds < 0 else ""
    if hours or h:
        return f"{sign}{h}:{m:02d}:{s:02d}"
    return f"{sign}{m}:{s:02d}"


def _gap(value: object) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        gap = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return max(gap, 0.0) if math.isfinite(gap) else None


def gc_gaps_svg(
    series: Sequence[tuple[str, Sequence[int | None]]],
    *,
    stage_numbers: Sequence[int],
    width: int = 720,
    height: int = 320,
    title: str = "",
    texts: Mapping[str, str] | None = None,
    legend_below: bool = False,
) -> str:
    """One line per rider: the gap to the GC leader after each stage, the leader along the top.

    ``texts`` overrides the chart's words by key (see ``GC_TEXTS``), for translations;
    ``legend_below`` draws the legend under the plot (the phone's layout) instead of beside it.
    """
    words = merge_texts(GC_TEXTS, texts)
    stages = list(stage_numbers)
    riders = [
        (str(name), [_gap(gaps[i]) if i < len(gaps) else None for i in range(len(stages))])
        for name, gaps in (series or [])
    ]
    known = [gap for _, gaps in riders for gap in gaps if gap is not None]
    if not stages or not known:
        return placeholder(words["no_standings"], width, title, css_class="chart chart-gc")

    row = 18.0
    legend_w = 0.0 if legend_below else min(180.0, width * 0.28)
    legend_h = row * len(riders) + 8 if legend_below else 0.0
    step = next((s for s in GAP_STEPS if max(known) / s <= 6), None)
    if step is None:
        step = 3600 * math.ceil(max(known) / (3600 * 6))
    y_max = max(math.ceil(max(known) / step), 1) * step
    hours = y_max >= 3600

    # Room on the left for the axis title and the widest gap label.
    left = 30.0 + text_width(format_gap(y_max, hours=hours), 10)
    # Room on the right of the plot for the lines' end numbers.
    right = width - legend_w - (30.0 if legend_below else 36.0)
    # The title on one line; on a phone's narrow chart, on two lines rather than cut short.
    title_x = 8.0 if legend_below else left
    title_lines = _title_lines(title, width - title_x - 8, 13, lines=2 if legend_below else 1)
    top = 40.0 + 16.0 * (len(title_lines) - 1) if title else 16.0
    bottom = float(height) - 40.0
    plot_w, plot_h = right - left, bottom - top

    def px(index: int) -> float:
        if len(stages) == 1:
            return left + plot_w / 2
        return left + plot_w * index / (len(stages) - 1)

    def py(gap: float) -> float:
        return top + plot_h * gap / y_max

    last_gaps = []
    for name, gaps in riders:
        known_gaps = [(stages[i], gap) for i, gap in enumerate(gaps) if gap is not None]
        if known_gaps:
            at, last = known_gaps[-1]
            last_gaps.append(
                text_format(words, GC_TEXTS, "rider_gap", name=name, gap=format_gap(last), stage=at)
            )
    label = text_format(
        words,
        GC_TEXTS,
        "description_titled" if title else "description",
        title=title,
        first=stages[0],
        last=stages[-1],
        riders="; ".join(last_gaps),
    )
    css_class = "chart chart-gc chart-narrow" if legend_below else "chart chart-gc"
    out = [svg_open(width, height + legend_h, label, css_class=css_class)]
    for row_index, line in enumerate(title_lines):
        out.append(svg_text(title_x, 22 + 16 * row_index, line, font_size=13, font_weight=600))

    # Grid and y axis (gap, growing downwards).
    out.append(f'<g class="gc-axis" font-size="10" fill="{MUTED}">')
    tick = 0
    while tick <= y_max:
        y = py(tick)
        out.append(
            f'<line x1="{num(left)}" y1="{num(y)}" x2="{num(right)}" y2="{num(y)}"'
            f' stroke="{GRID if tick else AXIS}"/>'
        )
        out.append(svg_text(left - 6, y + 3.5, format_gap(tick, hours=hours), text_anchor="end"))
        tick += step
    every = max(1, math.ceil(len(stages) * 20 / max(plot_w, 1)))
    for index, number in enumerate(stages):
        x = px(index)
        out.append(
            f'<line x1="{num(x)}" y1="{num(top)}" x2="{num(x)}" y2="{num(bottom)}"'
            f' stroke="{GRID}" stroke-dasharray="2 3"/>'
        )
        if index % every == 0 or index == len(stages) - 1:
            out.append(svg_text(x, bottom + 15, str(number), text_anchor="middle"))
    out.append(svg_text(left + plot_w / 2, bottom + 31, words["stage_axis"], text_anchor="middle"))
    out.append(
        svg_text(
            14,
            top + plot_h / 2,
            words["gap_axis"],
            text_anchor="middle",
            transform=f"rotate(-90 14 {num(top + plot_h / 2)})",
        )
    )
    out.append("</g>")

    # Lines: broken where a rider was not classified; drawn in reverse so the first is on top.
    def style(index: int) -> tuple[str, str | None, str]:
        """Colour, dash pattern and end marker's shape of the index-th line."""
        shape = SHAPES[index % len(SHAPES)]
        return PALETTE[index % len(PALETTE)], DASHES[(index // len(SHAPES)) % len(DASHES)], shape

    def point_title(name: str, stage: int, gap: float) -> str:
        return text_format(
            words, GC_TEXTS, "point", name=name, stage=stage, gap=format_gap(int(gap))
        )

    ends: list[tuple[int, float, float]] = []
    out.append('<g class="gc-lines" fill="none" stroke-width="2" stroke-linejoin="round">')
    for index in reversed(range(len(riders))):
        name, gaps = riders[index]
        colour, dash, shape = style(index)
        out.append(f'<g class="gc-rider" data-rider="{esc(name)}" stroke="{colour}">')
        out.append(f"<title>{esc(name)}</title>")
        runs: list[list[tuple[float, float]]] = [[]]
        for i, gap in enumerate(gaps):
            if gap is None:
                if runs[-1]:
                    runs.append([])
                continue
            runs[-1].append((px(i), py(gap)))
        for run in runs:
            if len(run) > 1:
                out.append(
                    f'<polyline{attrs({"stroke_dasharray": dash})} points="{svg_points(run)}"/>'
                )
        for i, gap in enumerate(gaps):
            if gap is not None:
                # A point with no line through it (a lone stage, a gap either side) is bigger.
                alone = (i == 0 or gaps[i - 1] is None) and (
                    i + 1 >= len(gaps) or gaps[i + 1] is None
                )
                marker = "4" if alone else "2.8"
                out.append(
                    f'<circle cx="{num(px(i))}" cy="{num(py(gap))}" r="{marker}" fill="{colour}"'
                    f' stroke="#fff" stroke-width="1" data-stage="{stages[i]}">'
                    f"<title>{esc(point_title(name, stages[i], gap))}</title>"
                    "</circle>"
                )
        last_at = max((i for i, gap in enumerate(gaps) if gap is not None), default=None)
        if last_at is not None:
            ends.append((index, px(last_at), py(gaps[last_at] or 0.0)))
            out.append(_shape(shape, px(last_at), py(gaps[last_at] or 0.0), colour))
        out.append("</g>")
    out.append("</g>")
    out.append(_end_numbers(ends, top=top, bottom=bottom))

    # Legend, in the order given (normally GC order): number, dash and shape, name. The numbers
    # are a group of their own, after the names (the names are the legend's texts).
    if legend_below:
        fits = len(riders)
        lx, ly = 16.0, bottom + 48
    else:
        fits = max(int((bottom - top) // row), 1)
        lx, ly = right + 36, top + 6
    shown = riders if len(riders) <= fits else riders[: fits - 1]
    keys = []
    out.append('<g class="gc-legend" font-size="11">')
    for index, (name, _) in enumerate(shown):
        colour, dash, shape = style(index)
        y = ly + row * index
        keys.append(svg_text(lx + 12, y + 4, str(index + 1), text_anchor="end"))
        out.append(
            f'<line x1="{num(lx + 16)}" y1="{num(y)}" x2="{num(lx + 38)}" y2="{num(y)}"'
            f"{attrs({'stroke': colour, 'stroke_width': '2', 'stroke_dasharray': dash})}/>"
        )
        out.append(_shape(shape, lx + 38, y, colour))
        fitted = fit(name, width - lx - 46 - 4, 11)
        out.append(svg_text(lx + 46, y + 4, fitted, tooltip=name if fitted != name else ""))
    if len(shown) < len(riders):
        y = ly + row * len(shown)
        more = text_format(words, GC_TEXTS, "more", count=len(riders) - len(shown))
        out.append(svg_text(lx + 46, y + 4, more, fill=MUTED))
    out.append("</g>")
    out.append(f'<g class="gc-legend-numbers" font-size="11" font-weight="600">{"".join(keys)}</g>')
    out.append("</svg>")
    return "".join(out)


def _title_lines(title: str, max_width: float, font_size: float, *, lines: int) -> list[str]:
    """The title in at most ``lines`` lines, broken between words, the last one cut with an
    ellipsis if it still does not fit."""
    if not title:
        return []
    words = title.split()
    rows: list[str] = []
    while words and len(rows) < lines - 1:
        row = words.pop(0)
        while words and text_width(f"{row} {words[0]}", font_size) <= max_width:
            row = f"{row} {words.pop(0)}"
        rows.append(fit(row, max_width, font_size))
    if words:
        rows.append(fit(" ".join(words), max_width, font_size))
    return rows


def _shape(shape: str, x: float, y: float, colour: str) -> str:
    """An end marker (legend swatches use the same), about 9 units across, white-edged so it
    stands out where lines cross."""
    common = f' fill="{colour}" stroke="#fff" stroke-width="1" class="gc-end" data-shape="{shape}"'
    if shape == "square":
        return f'<rect x="{num(x - 4)}" y="{num(y - 4)}" width="8" height="8"{common}/>'
    corners = {
        "triangle": ((0, -5), (4.6, 3.5), (-4.6, 3.5)),
        "triangle-down": ((0, 5), (4.6, -3.5), (-4.6, -3.5)),
        "diamond": ((0, -5), (5, 0), (0, 5), (-5, 0)),
    }.get(shape)
    if corners is None:
        return f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="4.5" ry="4.5"{common}/>'
    return f'<polygon points="{svg_points((x + dx, y + dy) for dx, dy in corners)}"{common}/>'


def _end_numbers(ends: list[tuple[int, float, float]], *, top: float, bottom: float) -> str:
    """Each line's number just right of its last point; numbers that would overlap are moved
    apart (down, then back up from the bottom), so every line can be named without colour.
    They stay between the plot's top and bottom: never over the title or the axis labels, even
    when a one-stage race ends with its leader alone at the top and the others together at the
    bottom; a column too long for the plot is spread evenly over it."""
    spacing = 11.0
    low, high = top, bottom + 4
    placed: list[tuple[int, float, float]] = []
    by_x: dict[float, list[tuple[int, float]]] = {}
    for index, x, y in ends:
        by_x.setdefault(x, []).append((index, y))
    for x, column in by_x.items():
        column.sort(key=lambda item: (item[1], item[0]))
        ys = [min(max(y, low), high) for _, y in column]
        for i in range(1, len(ys)):
            ys[i] = max(ys[i], ys[i - 1] + spacing)
        if ys and ys[-1] > high:
            # Back up from the bottom, moving only the numbers that need it.
            ys[-1] = high
            for i in range(len(ys) - 2, -1, -1):
                ys[i] = min(ys[i], ys[i + 1] - spacing)
        if ys and ys[0] < low:
            step = (high - low) / max(len(ys) - 1, 1)
            ys = [low + step * i for i in range(len(ys))]
        placed.extend((index, x, y) for (index, _), y in zip(column, ys, strict=True))
    texts = [
        svg_text(x + 8, y + 4, str(index + 1), data_line=str(index + 1))
        for index, x, y in sorted(placed)
    ]
    return f'<g class="gc-end-numbers" font-size="10" font-weight="600">{"".join(texts)}</g>'


def gc_texts() -> dict[str, str]:
    """The GC chart's words (GC_TEXTS) in the active language."""
    return {
        "no_standings": gettext("No standings yet"),
        "stage_axis": gettext("Stage"),
        "gap_axis": gettext("Gap to leader"),
        "description": gettext("GC gaps, stages {first} to {last}: {riders}"),
        "description_titled": gettext("GC gaps: {title}, stages {first} to {last}: {riders}"),
        "rider_gap": gettext("{name} {gap} after stage {stage}"),
        "point": gettext("{name}, stage {stage}: {gap}"),
        "more": gettext("+ {count} more"),
    }
