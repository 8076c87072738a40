"""The lap chart: each car's position at the end of every lap (from the race's trace), or from
the grid to the finish when there is no lap data (real imported results); and the positions
by lap computed from a trace."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from svg.markup import AXIS, GRID, MUTED, attrs, esc, fit, num, placeholder, svg_open, svg_text
from svg.wording import merge_texts, text_format

# Tableau 10 (as the GC chart), then dashes: colour is never the only difference.
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
LAP_TEXTS: dict[str, str] = {
    "no_laps": "No lap data",
    "grid": "Grid",
    "finish": "Finish",
    "lap_axis": "Lap",
    "position_axis": "Position",
    "description": "Lap chart, {cars} cars over {columns} columns: {order}",
    "point": "{name}: {position} at {column}",
    "lap": "lap {lap}",
    "out": "{name}: out after {column}",
}


def line_style(index: int) -> tuple[str, str | None]:
    """The colour and dash pattern of the ``index``-th line of a chart."""
    return PALETTE[index % len(PALETTE)], DASHES[(index // len(PALETTE)) % len(DASHES)]


@dataclass(frozen=True)
class LapLine:
    """One car: its short ``label`` (number or abbreviation), ``name``, its position in each
    column (None: not running), and whether it was out of the race after its last point."""

    label: str
    name: str
    positions: tuple[int | None, ...]
    out: bool = False


def laps_from_trace(
    trace: Sequence[Mapping[str, Any]], *, grid: Mapping[str, int], laps: int
) -> dict[str, list[int | None]]:
    """Each car's position at the end of laps 0 (the grid) .. ``laps``, from a position trace
    (``{"round", "cars": {car: {"place", "lap", "state"}}}``, ``lap`` the lap being driven):
    the cars that completed a lap ranked by the round they completed it in, then by their
    running order (``place``) in that round. A car that did not complete a lap has no
    position for it."""
    completed: dict[int, list[tuple[int, int, str]]] = {}
    seen: dict[str, int] = {}
    for entry in trace:
        number = entry.get("round")
        if not isinstance(number, int):
            continue
        for car, cell in (entry.get("cars") or {}).items():
            lap = cell.get("lap") if isinstance(cell, Mapping) else None
            if not isinstance(lap, int):
                continue
            done = min(laps if cell.get("state") == "finished" else lap - 1, laps)
            place = cell.get("place")
            place = place if isinstance(place, int) else 10**6
            for k in range(seen.get(str(car), 0) + 1, done + 1):
                completed.setdefault(k, []).append((number, place, str(car)))
            seen[str(car)] = max(seen.get(str(car), 0), done)
    out: dict[str, list[int | None]] = {car: [slot] + [None] * laps for car, slot in grid.items()}
    for k, rows in completed.items():
        for position, (_r, _p, car) in enumerate(sorted(rows), start=1):
            out.setdefault(car, [grid.get(car)] + [None] * laps)[k] = position
    return out


def lap_chart_svg(
    cars: Sequence[LapLine],
    *,
    columns: Sequence[str],
    width: int = 720,
    title: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """One line per car across ``columns`` (``["Grid", "1", "2", ...]``), position 1 on top;
    the car's label at both ends of its line, a cross where a car dropped out."""
    words = merge_texts(LAP_TEXTS, texts)
    rows = max((p for car in cars for p in car.positions if p is not None), default=0)
    if not cars or rows == 0 or len(columns) < 2:
        return placeholder(words["no_laps"], width, title, css_class="chart chart-laps")
    row_h = 18.0
    top = 42.0 if title else 20.0
    height = top + row_h * rows + 44
    left, right = 78.0, width - 58.0
    plot_w = right - left

    def px(col: int) -> float:
        return left + plot_w * col / (len(columns) - 1)

    def py(position: int) -> float:
        return top + row_h * (position - 0.5)

    finishers = sorted(
        (c for c in cars if c.positions and c.positions[-1] is not None),
        key=lambda c: c.positions[-1] or 0,
    )
    label = text_format(
        words,
        LAP_TEXTS,
        "description",
        cars=len(cars),
        columns=len(columns),
        order=", ".join(c.name for c in finishers[:10]),
    )
    out = [svg_open(width, height, label, css_class="chart chart-laps")]
    if title:
        out.append(
            svg_text(left, 22, fit(title, width - left - 8, 13), font_size=13, font_weight=600)
        )
    out.append(f'<g class="lap-axis" font-size="10" fill="{MUTED}">')
    every = max(1, round(len(columns) * 26 / plot_w + 0.49))
    for col, name in enumerate(columns):
        x = px(col)
        out.append(
            f'<line x1="{num(x)}" y1="{num(top)}" x2="{num(x)}" y2="{num(top + row_h * rows)}"'
            f' stroke="{GRID}"/>'
        )
        if col % every == 0 or col == len(columns) - 1:
            out.append(svg_text(x, top + row_h * rows + 14, name, text_anchor="middle"))
    if len(columns) > 2:
        out.append(
            svg_text(
                left + plot_w / 2, top + row_h * rows + 32, words["lap_axis"], text_anchor="middle"
            )
        )
    for position in range(1, rows + 1):
        out.append(svg_text(22, py(position) + 3.5, str(position), text_anchor="end"))
    out.append(
        f'<line x1="{num(left)}" y1="{num(top)}" x2="{num(left)}"'
        f' y2="{num(top + row_h * rows)}" stroke="{AXIS}"/>'
    )
    out.append("</g>")

    out.append('<g class="lap-lines" fill="none" stroke-width="2" stroke-linejoin="round">')
    for index in reversed(range(len(cars))):
        car = cars[index]
        colour, dash = line_style(index)
        points = [(col, p) for col, p in enumerate(car.positions) if p is not None]
        out.append(
            f'<g class="lap-car" data-car="{esc(car.label)}" stroke="{colour}">'
            f"<title>{esc(car.name)}</title>"
        )
        if len(points) > 1:
            coords = " ".join(f"{num(px(c))},{num(py(p))}" for c, p in points)
            out.append(f'<polyline{attrs({"stroke_dasharray": dash})} points="{coords}"/>')
        for col, position in points:
            hint = text_format(
                words, LAP_TEXTS, "point", name=car.name, position=position, column=columns[col]
            )
            out.append(
                f'<circle cx="{num(px(col))}" cy="{num(py(position))}" r="2.6" fill="{colour}"'
                f' stroke="none"><title>{esc(hint)}</title></circle>'
            )
        if points:
            first_col, first = points[0]
            last_col, last = points[-1]
            out.append(
                svg_text(
                    px(first_col) - 6,
                    py(first) + 3.5,
                    fit(car.label, 44, 10),
                    text_anchor="end",
                    font_size=10,
                    fill=colour,
                    stroke="none",
                    font_weight=600,
                )
            )
            if car.out:
                x, y = px(last_col), py(last)
                hint = text_format(words, LAP_TEXTS, "out", name=car.name, column=columns[last_col])
                out.append(
                    f'<path class="out" d="M{num(x - 4)},{num(y - 4)}L{num(x + 4)},{num(y + 4)}'
                    f'M{num(x - 4)},{num(y + 4)}L{num(x + 4)},{num(y - 4)}" stroke="{colour}"'
                    f' stroke-width="2.4"><title>{esc(hint)}</title></path>'
                )
            if last_col == len(columns) - 1 or car.out:
                out.append(
                    svg_text(
                        px(last_col) + 7,
                        py(last) + 3.5,
                        fit(car.label, 44, 10),
                        font_size=10,
                        fill=colour,
                        stroke="none",
                        font_weight=600,
                    )
                )
        out.append("</g>")
    out.append("</g></svg>")
    return "".join(out)
