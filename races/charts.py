"""Server-side SVG charts: a stage profile, the GC gap evolution and a rider's rating radar.

Every function is pure (standard library only) and returns an SVG fragment meant to be inlined in
an HTML page (``{{ svg|safe }}``): nothing is loaded from anywhere, there is no script, all text is
escaped, coordinates are rounded to one decimal so the same input always gives the same string.

The fragments carry no ``xmlns`` (HTML parsing puts an inline ``<svg>`` in the SVG namespace by
itself); wrap one with :func:`as_standalone_svg` to write it to a ``.svg`` file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any

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


def _num(value: float) -> str:
    """A coordinate rounded to one decimal, without a trailing '.0' nor a '-0'."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _esc(text: object) -> str:
    """Text safe for XML content and attribute values (user names go through here)."""
    return escape(_XML_INVALID.sub("", str(text)), quote=True)


def _attrs(attributes: Mapping[str, object]) -> str:
    parts = []
    for key, value in attributes.items():
        if value is None:
            continue
        rendered = _num(value) if isinstance(value, float) else _esc(value)
        parts.append(f' {key.rstrip("_").replace("_", "-")}="{rendered}"')
    return "".join(parts)


def _text(x: float, y: float, content: str, *, tooltip: str = "", **attributes: object) -> str:
    """A <text> element; ``content`` is escaped here, ``tooltip`` becomes a child <title>."""
    hint = f"<title>{_esc(tooltip)}</title>" if tooltip else ""
    return (
        f"<text{_attrs({'x': float(x), 'y': float(y), **attributes})}>{hint}{_esc(content)}</text>"
    )


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _text_width(text: str, font_size: float) -> float:
    """A generous estimate of the rendered width (DejaVu Sans, a wide font, averages 0.55 em)."""
    return len(text) * font_size * CHAR_EM


def _fit(text: str, max_width: float, font_size: float) -> str:
    """``text`` cut with an ellipsis so its estimated width stays within ``max_width``."""
    max_chars = math.floor(max_width / (font_size * CHAR_EM) + 1e-6)
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return "…"
    return text[: max_chars - 1].rstrip() + "…"


def _svg_open(width: float, height: float, label: str, *, css_class: str) -> str:
    """The root element: responsive (viewBox, width 100%), an image described for assistive
    technology by ``label`` (its aria-label and its <title>, the tooltip)."""
    return (
        f'<svg class="{css_class}" viewBox="0 0 {_num(width)} {_num(height)}" width="100%"'
        f' preserveAspectRatio="xMidYMid meet" role="img" aria-label="{_esc(label)}"'
        f' font-family="{_esc(FONT)}" font-size="11" fill="{INK}">'
        f"<title>{_esc(label)}</title>"
    )


def _placeholder(message: str, width: int, title: str, *, css_class: str) -> str:
    """A small chart-shaped SVG saying there is nothing to draw yet."""
    width = max(int(width), 120)
    height = 48
    return (
        _svg_open(width, height, f"{title}: {message}" if title else message, css_class=css_class)
        + f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="6"'
        f' fill="#f6f7f8" stroke="{GRID}"/>'
        + _text(width / 2, height / 2 + 4, message, text_anchor="middle", fill=MUTED, font_size=13)
        + "</svg>"
    )


def as_standalone_svg(svg: str) -> str:
    """The same chart as a standalone SVG document (adds the namespace a .svg file needs)."""
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)


def _merge_texts(defaults: Mapping[str, str], texts: Mapping[str, str] | None) -> dict[str, str]:
    """The chart's words: ``defaults`` (English), each overridden by a non-empty ``texts``
    value of the same key (a translation); unknown keys are ignored."""
    merged = dict(defaults)
    for key, value in (texts or {}).items():
        if key in merged and value:
            merged[key] = str(value)
    return merged


def _format(
    texts: Mapping[str, str], defaults: Mapping[str, str], key: str, **values: object
) -> str:
    """``texts[key]`` with its ``{name}`` placeholders filled; the English default when a
    translation names a placeholder it does not have."""
    try:
        return texts[key].format(**values)
    except (KeyError, IndexError, ValueError):
        return defaults[key].format(**values)


# --------------------------------------------------------------------------------------------
# Stage profile
# --------------------------------------------------------------------------------------------

TERRAIN_GRADIENTS: dict[str, float] = {
    "plain": 0.0,
    "hill": 60.0,
    "col3": 50.0,
    "col2": 60.0,
    "col1": 70.0,
    "colhc": 80.0,
    "descent": -70.0,
}
TERRAIN_COLOURS: dict[str, str] = {
    "plain": "#a9b8a2",
    "hill": "#f2a03d",
    "col3": "#f2d140",
    "col2": "#e86a2c",
    "col1": "#c62d22",
    "colhc": "#7a1216",
    "descent": "#4f8fd0",
}
TERRAIN_LEGEND: dict[str, str] = {
    "plain": "Plain",
    "hill": "Hill (cat. 4)",
    "col3": "Cat. 3",
    "col2": "Cat. 2",
    "col1": "Cat. 1",
    "colhc": "HC",
    "descent": "Descent",
}
CLIMB_CATEGORIES: dict[str, str] = {
    "hill": "cat. 4",
    "col3": "cat. 3",
    "col2": "cat. 2",
    "col1": "cat. 1",
    "colhc": "HC",
}
# The words of the stage profile, by key: ``stage_profile_svg(..., texts={key: translation})``.
# Legend names are keyed "legend_<terrain>", climb categories "category_<terrain>".
PROFILE_TEXTS: dict[str, str] = {
    "no_course": "No course",
    "description": "Stage profile, {summary}",
    "description_titled": "Stage profile: {title}, {summary}",
    "climbs_one": "{count} categorised climb: {climbs}",
    "climbs_other": "{count} categorised climbs: {climbs}",
    "no_climbs": "no categorised climb",
    "climb_at": "{climb} at km {km}",
    **{f"legend_{terrain}": text for terrain, text in TERRAIN_LEGEND.items()},
    **{f"category_{terrain}": text for terrain, text in CLIMB_CATEGORIES.items()},
}
UNKNOWN_COLOUR = "#c4c9ce"
MIN_ELEVATION_RANGE = 600.0  # metres: a flat stage with a hill must still look flat
LABEL_FONT = 9.0


def _climb_text(name: str, category: str) -> str:
    """'Col du Tourmalet (HC)', 'Côte de Pike (cat. 3)'; just the category without a name."""
    return f"{name} ({category})" if name else category


def _segment_km(segment: Mapping[str, Any]) -> float:
    try:
        km = float(segment.get("km") or 0)
    except (TypeError, ValueError):
        return 0.0
    return km if math.isfinite(km) and km > 0 else 0.0


def _elevation_paths(
    segments: Sequence[Mapping[str, Any]],
) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(terrain, name, [(km, metres), ...]) per segment; descents stop at sea level."""
    paths = []
    km = elevation = 0.0
    for segment in segments:
        if not isinstance(segment, Mapping):
            continue
        length = _segment_km(segment)
        if length <= 0:
            continue
        terrain = str(segment.get("terrain", ""))
        gradient = TERRAIN_GRADIENTS.get(terrain, 0.0)
        points = [(km, elevation)]
        end_elevation = elevation + gradient * length
        if end_elevation < 0:
            points.append((km + elevation / -gradient, 0.0))
            end_elevation = 0.0
        km += length
        elevation = end_elevation
        points.append((km, elevation))
        paths.append((terrain, str(segment.get("name") or ""), points))
    return paths


def _tick_step(total: float, steps: Sequence[float], max_ticks: int) -> float:
    for step in steps:
        if total / step <= max_ticks:
            return step
    return steps[-1] * math.ceil(total / (steps[-1] * max_ticks))


def _shorten_climb(name: str, category: str, limit: int | None) -> str:
    """The label with its name cut to ``limit`` characters (0: the category alone)."""
    if limit is None or not name:
        return _climb_text(name, category)
    if limit == 0:
        return category
    return _climb_text(name if len(name) <= limit else name[: limit - 1].rstrip() + "…", category)


def _layout_labels(
    summit_x: Sequence[float],
    widths: Sequence[float],
    *,
    low: float,
    high: float,
    row_allowed: Callable[[int, float, float], bool | None],
    allow_crossings: bool = False,
) -> list[tuple[int, float, float, str]] | None:
    """(row, left, right, text-anchor) of a label per summit, or None when they do not fit.

    Each label sits in a row above the profile with a vertical leader down to its summit, so a
    label must never lie across the leader of a summit whose label is in a higher row: a label
    covering other summits goes above their labels. Each label extends to whichever side covers
    the fewest other summits. ``row_allowed(row, left, right)`` says whether a row is usable
    there (False) or whether the rows have run out (None). Two labels covering each other's
    summits cannot both be right: that is a failure too, unless ``allow_crossings``.
    """
    count = len(summit_x)
    spans: list[tuple[float, float]] = []
    anchors: list[str] = []
    covers: list[set[int]] = []
    for index, x in enumerate(summit_x):
        best: tuple[float, str, set[int]] | None = None
        width = widths[index]
        for start, anchor in ((x - 3, "start"), (x - width + 3, "end"), (x - width / 2, "middle")):
            # Pushed back inside the chart, the text is anchored on the edge it was pushed off.
            if start < low:
                start, anchor = low, "start"
            elif start + width > high:
                start, anchor = max(high - width, low), "end"
            covered = {
                other
                for other in range(count)
                if other != index and start - 4 <= summit_x[other] <= start + width + 4
            }
            if best is None or len(covered) < len(best[2]):
                best = (start, anchor, covered)
        assert best is not None
        spans.append((best[0], best[0] + width))
        anchors.append(best[1])
        covers.append(best[2])

    placed: dict[int, tuple[int, float]] = {}
    while len(placed) < count:
        # Next: a label whose covered summits are all placed (on a cycle, the leftmost one).
        ready = [i for i in range(count) if i not in placed and covers[i] <= placed.keys()]
        if not ready and not allow_crossings:
            return None
        index = ready[0] if ready else min(i for i in range(count) if i not in placed)
        start, end = spans[index]
        row = 1 + max((placed[i][0] for i in covers[index] if i in placed), default=-1)
        while True:
            allowed = row_allowed(row, start, end)
            if allowed is None:
                return None
            clashes = any(
                other_row == row and other_start < end + 6 and start < spans[other][1] + 6
                for other, (other_row, other_start) in placed.items()
            )
            if allowed and not clashes:
                break
            row += 1
        placed[index] = (row, start)
    return [(placed[i][0], *spans[i], anchors[i]) for i in range(count)]


def stage_profile_svg(
    segments: Sequence[Mapping[str, Any]],
    *,
    width: int = 720,
    height: int = 200,
    title: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """The stage profile: coloured terrain areas over km, each climb labelled at its summit.

    ``texts`` overrides the chart's words by key (see ``PROFILE_TEXTS``), for translations.
    """
    words = _merge_texts(PROFILE_TEXTS, texts)
    paths = _elevation_paths(segments or [])
    if not paths:
        return _placeholder(words["no_course"], width, title, css_class="chart chart-profile")
    total = paths[-1][2][-1][0]
    climbs = [
        (name.strip(), words[f"category_{terrain}"], points[-1])
        for terrain, name, points in paths
        if terrain in CLIMB_CATEGORIES
    ]

    left, right = 16.0, 26.0
    top = 30.0 if title else 6.0
    title_end = min(left + _text_width(title, 13) * 1.1 + 8, width) if title else 0.0
    legend_row = 18.0
    bottom = float(height) - 20.0 - legend_row
    plot_w = width - left - right
    base_band = 12.0  # the ground below sea level, so flat roads still show their colour
    profile_h = max((bottom - top) * 0.45, 20.0)
    base_y = bottom - base_band
    highest = max(elevation for _, _, points in paths for _, elevation in points)
    scale = profile_h / max(highest, MIN_ELEVATION_RANGE)

    def px(km: float) -> float:
        return left + km / total * plot_w

    def py(elevation: float) -> float:
        return base_y - elevation * scale

    climb_count = len(climbs)
    summary = f"{total:.1f} km".replace(".0 km", " km")
    if climbs:
        listed = ", ".join(
            _format(
                words, PROFILE_TEXTS, "climb_at", climb=_climb_text(name, category), km=_num(at_km)
            )
            for name, category, (at_km, _) in climbs
        )
        key = "climbs_other" if climb_count > 1 else "climbs_one"
        summary += ", " + _format(words, PROFILE_TEXTS, key, count=climb_count, climbs=listed)
    else:
        summary += ", " + words["no_climbs"]
    if title:
        label = _format(words, PROFILE_TEXTS, "description_titled", title=title, summary=summary)
    else:
        label = _format(words, PROFILE_TEXTS, "description", summary=summary)

    out = [_svg_open(width, height, label, css_class="chart chart-profile")]
    if title:
        out.append(
            _text(left, 18, _fit(title, width - left - 8, 13), font_size=13, font_weight=600)
        )

    # Terrain areas, then the outline of the road on top.
    out.append('<g class="profile-terrain">')
    for terrain, name, points in paths:
        colour = TERRAIN_COLOURS.get(terrain, UNKNOWN_COLOUR)
        polygon = [(px(points[0][0]), bottom)]
        polygon += [(px(km), py(elevation)) for km, elevation in points]
        polygon.append((px(points[-1][0]), bottom))
        out.append(
            f'<polygon data-terrain="{_esc(terrain)}" points="{_points(polygon)}"'
            f' fill="{colour}" stroke="{colour}" stroke-width="0.6" stroke-linejoin="round">'
            f"<title>{_esc(name or words.get(f'legend_{terrain}', terrain))}</title></polygon>"
        )
    outline = [(px(points[0][0]), py(points[0][1])) for _, _, points in paths[:1]]
    for _, _, points in paths:
        outline += [(px(km), py(elevation)) for km, elevation in points[1:]]
    out.append(
        f'<polyline points="{_points(outline)}" fill="none" stroke="{INK}" stroke-width="1.2"'
        ' stroke-linejoin="round"/>'
    )
    out.append("</g>")

    # X axis: km ticks every 25 or 50 km (5 or 10 on a short time trial), the finish in full.
    out.append(f'<g class="profile-axis" fill="{MUTED}" font-size="10">')
    out.append(
        f'<line x1="{_num(left)}" y1="{_num(bottom)}" x2="{_num(left + plot_w)}"'
        f' y2="{_num(bottom)}" stroke="{AXIS}"/>'
    )
    step = _tick_step(total, (5, 10, 25, 50, 100), 8)
    finish_x = px(total)
    finish_text = f"{_num(total)} km"
    finish_w = _text_width(finish_text, 10) * 1.1  # bold
    finish_centre = min(finish_x, width - 2 - finish_w / 2)
    tick = 0
    while tick * step < total:
        km = tick * step
        x = px(km)
        if x + _text_width(_num(km), 10) / 2 + 8 < finish_centre - finish_w / 2:
            out.append(
                f'<line x1="{_num(x)}" y1="{_num(bottom)}" x2="{_num(x)}"'
                f' y2="{_num(bottom + 4)}" stroke="{AXIS}"/>'
            )
            out.append(_text(x, bottom + 15, _num(km), text_anchor="middle"))
        tick += 1
    out.append(
        f'<line x1="{_num(finish_x)}" y1="{_num(bottom)}" x2="{_num(finish_x)}"'
        f' y2="{_num(bottom + 4)}" stroke="{AXIS}"/>'
    )
    out.append(
        _text(
            finish_centre,
            bottom + 15,
            finish_text,
            text_anchor="middle",
            font_weight=600,
            class_="profile-finish-km",
        )
    )
    out.append("</g>")

    # Climb labels: horizontal rows above the profile, a leader line down to each summit.
    if climbs:
        out.append(
            f'<g class="profile-climbs" font-size="{_num(LABEL_FONT)}" stroke="#fff"'
            ' stroke-width="3" paint-order="stroke" stroke-linejoin="round">'
        )
        summits = [(px(at_km), py(elevation)) for _, _, (at_km, elevation) in climbs]
        row_h = LABEL_FONT + 3
        row0_y = min(y for _, y in summits) - 7

        def row_allowed(row: int, start: float, end: float) -> bool | None:
            text_top = row0_y - row * row_h - LABEL_FONT * 0.8
            if text_top < 3:
                return None
            return not (title and start < title_end and text_top < top - 4)

        # Full names if they fit, else shorter ones; where climbs crowd the labels together, a
        # leader may have to cross a label (it then passes behind the text's halo).
        layout = None
        shown: list[str] = []
        for limit in (None, 26, 18, 12, 0):
            for allow_crossings in (False, True):
                shown = [
                    _shorten_climb(
                        _fit(name, width - 4 - _text_width(f" ({cat})", LABEL_FONT), LABEL_FONT),
                        cat,
                        limit,
                    )
                    for name, cat, _ in climbs
                ]
                layout = _layout_labels(
                    [x for x, _ in summits],
                    [_text_width(text, LABEL_FONT) for text in shown],
                    low=2.0,
                    high=width - 2.0,
                    row_allowed=row_allowed,
                    allow_crossings=allow_crossings,
                )
                if layout is not None:
                    break
            if layout is not None:
                break
        if layout is None:  # far too many climbs for the height: stack them, clipped at the top
            layout = [(index % 6, x - 3, x - 3, "start") for index, (x, _) in enumerate(summits)]
        baselines = [row0_y - row * row_h for row, _, _, _ in layout]
        for (sx, sy), baseline in zip(summits, baselines, strict=True):
            out.append(
                f'<line x1="{_num(sx)}" y1="{_num(sy - 3)}" x2="{_num(sx)}"'
                f' y2="{_num(baseline + 2)}" stroke="{MUTED}" stroke-width="0.7"/>'
            )
        for sx, sy in summits:
            out.append(
                f'<circle cx="{_num(sx)}" cy="{_num(sy)}" r="2.2" fill="#fff" stroke="{INK}"'
                ' stroke-width="1"/>'
            )
        for (name, category, _), text, baseline, (_, start, end, anchor) in zip(
            climbs, shown, baselines, layout, strict=True
        ):
            full = _climb_text(name, category)
            out.append(
                _text(
                    {"start": start, "end": end}.get(anchor, (start + end) / 2),
                    baseline,
                    text,
                    tooltip=full if text != full else "",
                    text_anchor=anchor,
                    class_="profile-climb",
                    data_label=full,
                )
            )
        out.append("</g>")

    # Legend: the terrains this stage uses, in a fixed order.
    present = [terrain for terrain in TERRAIN_COLOURS if any(p[0] == terrain for p in paths)]
    out.append('<g class="profile-legend" font-size="10">')
    x = left
    y = float(height) - 8
    for terrain in present:
        text = words[f"legend_{terrain}"]
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y - 8)}" width="10" height="10" rx="2"'
            f' fill="{TERRAIN_COLOURS[terrain]}"/>'
        )
        out.append(_text(x + 14, y, text, fill=INK))
        x += 14 + _text_width(text, 10) + 12
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# --------------------------------------------------------------------------------------------
# GC gaps
# --------------------------------------------------------------------------------------------

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
) -> str:
    """One line per rider: the gap to the GC leader after each stage, the leader along the top.

    ``texts`` overrides the chart's words by key (see ``GC_TEXTS``), for translations.
    """
    words = _merge_texts(GC_TEXTS, texts)
    stages = list(stage_numbers)
    riders = [
        (str(name), [_gap(gaps[i]) if i < len(gaps) else None for i in range(len(stages))])
        for name, gaps in (series or [])
    ]
    known = [gap for _, gaps in riders for gap in gaps if gap is not None]
    if not stages or not known:
        return _placeholder(words["no_standings"], width, title, css_class="chart chart-gc")

    legend_w = min(180.0, width * 0.28)
    step = next((s for s in GAP_STEPS if max(known) / s <= 6), None)
    if step is None:
        step = 3600 * math.ceil(max(known) / (3600 * 6))
    y_max = max(math.ceil(max(known) / step), 1) * step
    hours = y_max >= 3600

    # Room on the left for the axis title and the widest gap label.
    left = 30.0 + _text_width(format_gap(y_max, hours=hours), 10)
    right = width - legend_w - 18.0
    top = 40.0 if title else 16.0
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
                _format(words, GC_TEXTS, "rider_gap", name=name, gap=format_gap(last), stage=at)
            )
    label = _format(
        words,
        GC_TEXTS,
        "description_titled" if title else "description",
        title=title,
        first=stages[0],
        last=stages[-1],
        riders="; ".join(last_gaps),
    )
    out = [_svg_open(width, height, label, css_class="chart chart-gc")]
    if title:
        out.append(
            _text(left, 22, _fit(title, width - left - 8, 13), font_size=13, font_weight=600)
        )

    # Grid and y axis (gap, growing downwards).
    out.append(f'<g class="gc-axis" font-size="10" fill="{MUTED}">')
    tick = 0
    while tick <= y_max:
        y = py(tick)
        out.append(
            f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(right)}" y2="{_num(y)}"'
            f' stroke="{GRID if tick else AXIS}"/>'
        )
        out.append(_text(left - 6, y + 3.5, format_gap(tick, hours=hours), text_anchor="end"))
        tick += step
    every = max(1, math.ceil(len(stages) * 20 / max(plot_w, 1)))
    for index, number in enumerate(stages):
        x = px(index)
        out.append(
            f'<line x1="{_num(x)}" y1="{_num(top)}" x2="{_num(x)}" y2="{_num(bottom)}"'
            f' stroke="{GRID}" stroke-dasharray="2 3"/>'
        )
        if index % every == 0 or index == len(stages) - 1:
            out.append(_text(x, bottom + 15, str(number), text_anchor="middle"))
    out.append(_text(left + plot_w / 2, bottom + 31, words["stage_axis"], text_anchor="middle"))
    out.append(
        _text(
            14,
            top + plot_h / 2,
            words["gap_axis"],
            text_anchor="middle",
            transform=f"rotate(-90 14 {_num(top + plot_h / 2)})",
        )
    )
    out.append("</g>")

    # Lines: broken where a rider was not classified; drawn in reverse so the first is on top.
    def style(index: int) -> tuple[str, str | None]:
        return PALETTE[index % len(PALETTE)], DASHES[(index // len(PALETTE)) % len(DASHES)]

    def point_title(name: str, stage: int, gap: float) -> str:
        return _format(words, GC_TEXTS, "point", name=name, stage=stage, gap=format_gap(int(gap)))

    out.append('<g class="gc-lines" fill="none" stroke-width="2" stroke-linejoin="round">')
    for index in reversed(range(len(riders))):
        name, gaps = riders[index]
        colour, dash = style(index)
        out.append(f'<g class="gc-rider" data-rider="{_esc(name)}" stroke="{colour}">')
        out.append(f"<title>{_esc(name)}</title>")
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
                    f'<polyline{_attrs({"stroke_dasharray": dash})} points="{_points(run)}"/>'
                )
        for i, gap in enumerate(gaps):
            if gap is not None:
                # A point with no line through it (a lone stage, a gap either side) is bigger.
                alone = (i == 0 or gaps[i - 1] is None) and (
                    i + 1 >= len(gaps) or gaps[i + 1] is None
                )
                marker = "4" if alone else "2.8"
                out.append(
                    f'<circle cx="{_num(px(i))}" cy="{_num(py(gap))}" r="{marker}" fill="{colour}"'
                    f' stroke="#fff" stroke-width="1" data-stage="{stages[i]}">'
                    f"<title>{_esc(point_title(name, stages[i], gap))}</title>"
                    "</circle>"
                )
        out.append("</g>")
    out.append("</g>")

    # Legend, in the order given (normally GC order).
    row = 18.0
    fits = max(int((bottom - top) // row), 1)
    shown = riders if len(riders) <= fits else riders[: fits - 1]
    lx = right + 18
    out.append('<g class="gc-legend" font-size="11">')
    for index, (name, _) in enumerate(shown):
        colour, dash = style(index)
        y = top + row * index + 6
        out.append(
            f'<line x1="{_num(lx)}" y1="{_num(y)}" x2="{_num(lx + 18)}" y2="{_num(y)}"'
            f"{_attrs({'stroke': colour, 'stroke_width': '2', 'stroke_dasharray': dash})}/>"
        )
        out.append(f'<circle cx="{_num(lx + 9)}" cy="{_num(y)}" r="2.8" fill="{colour}"/>')
        fitted = _fit(name, width - lx - 24 - 4, 11)
        out.append(_text(lx + 24, y + 4, fitted, tooltip=name if fitted != name else ""))
    if len(shown) < len(riders):
        y = top + row * len(shown) + 6
        more = _format(words, GC_TEXTS, "more", count=len(riders) - len(shown))
        out.append(_text(lx + 24, y + 4, more, fill=MUTED))
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Rider radar
# --------------------------------------------------------------------------------------------

RADAR_AXES = (
    "rouleur",
    "sprinter",
    "baroudeur",
    "finisseur",
    "descender",
    "time_trialist",
    "puncheur",
    "climber",
)
RADAR_LABELS: dict[str, str] = {
    "rouleur": "Rouleur",
    "sprinter": "Sprinter",
    "baroudeur": "Baroudeur",
    "finisseur": "Finisseur",
    "descender": "Descender",
    "time_trialist": "Time trial",
    "puncheur": "Puncheur",
    "climber": "Climber",
}
# The other words of the radar, by key: ``radar_svg(..., texts={key: translation})``.
RADAR_TEXTS: dict[str, str] = {
    "description": "Rider profile: {summary}",
    "description_titled": "Rider profile: {title}: {summary}",
}
RATING_MIN, RATING_MAX = -1, 4
RADAR_COLOUR = "#d6452a"


def rating_text(rating: int) -> str:
    """-1 -> 'H', 0..4 -> the digit."""
    return "H" if rating == RATING_MIN else str(rating)


def _rating(value: object) -> int:
    try:
        rating = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        text = str(value).strip().upper()
        rating = RATING_MIN if text == "H" else 0
    return min(max(int(rating), RATING_MIN), RATING_MAX)


def _radius_fraction(rating: int) -> float:
    """H sits on a small ring of its own, then evenly out to 4 on the rim."""
    return 0.1 + 0.9 * (rating - RATING_MIN) / (RATING_MAX - RATING_MIN)


def radar_svg(
    ratings: Mapping[str, int],
    *,
    size: int = 280,
    title: str = "",
    labels: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
) -> str:
    """An 8-axis radar of a rider's ratings (H..4), each axis labelled with its rating.

    ``labels`` names the axes, ``texts`` overrides the other words (see ``RADAR_TEXTS``).
    """
    words = _merge_texts(RADAR_TEXTS, texts)
    values = {axis: _rating((ratings or {}).get(axis, 0)) for axis in RADAR_AXES}
    names = {axis: str((labels or {}).get(axis) or RADAR_LABELS[axis]) for axis in RADAR_AXES}
    font, gap, pad = 10.0, 6.0, 3.0
    top = 26.0 if title else 0.0
    cx = size / 2
    cy = top + (size - top) / 2
    angles = [math.radians(-90 + 45 * index) for index in range(len(RADAR_AXES))]

    # Each label is two lines, the name over the rating; the largest radius that keeps every
    # label inside the square.
    line = 12.0
    block = font * 0.8 + line + 3  # cap height of the name, down to the rating's descent

    def label_width(axis: str) -> float:
        return max(_text_width(names[axis], font), _text_width("H", font + 1))

    limits = [size * 0.45 - gap]
    for axis, angle in zip(RADAR_AXES, angles, strict=True):
        cos, sin = math.cos(angle), math.sin(angle)
        width = label_width(axis)
        if cos > 0.3:
            limits.append((size - pad - width - cx) / cos - gap)
        elif cos < -0.3:
            limits.append((cx - pad - width) / -cos - gap)
        if sin < -0.3:
            limits.append((cy - top - pad - block) / -sin - gap)
        elif sin > 0.3:
            limits.append((size - pad - block - cy) / sin - gap)
    radius = max(min(limits), size * 0.2)

    def point(index: int, fraction: float) -> tuple[float, float]:
        return (
            cx + radius * fraction * math.cos(angles[index]),
            cy + radius * fraction * math.sin(angles[index]),
        )

    summary = ", ".join(f"{names[axis]} {rating_text(values[axis])}" for axis in RADAR_AXES)
    if title:
        label = _format(words, RADAR_TEXTS, "description_titled", title=title, summary=summary)
    else:
        label = _format(words, RADAR_TEXTS, "description", summary=summary)
    out = [_svg_open(size, size, label, css_class="chart chart-radar")]
    if title:
        out.append(
            _text(
                cx,
                17,
                _fit(title, size - 8, 13),
                text_anchor="middle",
                font_size=13,
                font_weight=600,
            )
        )

    # Rings for H, 0..4 and the spokes.
    out.append(f'<g class="radar-grid" fill="none" stroke="{GRID}">')
    for rating in range(RATING_MIN, RATING_MAX + 1):
        ring = [point(index, _radius_fraction(rating)) for index in range(len(RADAR_AXES))]
        stroke = AXIS if rating in (RATING_MIN, RATING_MAX) else GRID
        out.append(
            f'<polygon data-rating="{rating_text(rating)}" points="{_points(ring)}"'
            f' stroke="{stroke}"/>'
        )
    for index in range(len(RADAR_AXES)):
        x, y = point(index, 1.0)
        out.append(f'<line x1="{_num(cx)}" y1="{_num(cy)}" x2="{_num(x)}" y2="{_num(y)}"/>')
    out.append("</g>")

    # The rider.
    shape = [point(i, _radius_fraction(values[axis])) for i, axis in enumerate(RADAR_AXES)]
    out.append(
        f'<polygon class="radar-shape" points="{_points(shape)}" fill="{RADAR_COLOUR}"'
        f' fill-opacity="0.3" stroke="{RADAR_COLOUR}" stroke-width="2" stroke-linejoin="round"/>'
    )
    out.append(f'<g class="radar-points" fill="{RADAR_COLOUR}">')
    for x, y in shape:
        out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.5"/>')
    out.append("</g>")

    # Ring values along the gap between the first two axes, haloed so lines don't cross them.
    out.append(
        f'<g class="radar-scale" font-size="8" fill="{MUTED}" stroke="#fff" stroke-width="2.5"'
        ' paint-order="stroke" text-anchor="middle">'
    )
    mid = math.radians(-90 + 22.5)
    for rating in range(RATING_MIN, RATING_MAX + 1):
        r = radius * _radius_fraction(rating) * math.cos(math.radians(22.5))
        out.append(_text(cx + r * math.cos(mid), cy + r * math.sin(mid) + 3, rating_text(rating)))
    out.append("</g>")

    # Axis labels, the rating in bold under each.
    out.append(f'<g class="radar-labels" font-size="{_num(font)}">')
    for index, axis in enumerate(RADAR_AXES):
        cos, sin = math.cos(angles[index]), math.sin(angles[index])
        x = cx + (radius + gap) * cos
        y = cy + (radius + gap) * sin
        anchor = "start" if cos > 0.3 else "end" if cos < -0.3 else "middle"
        if sin < -0.3:  # above the rim: the block ends at the spoke
            baseline = y - 3 - line
        elif sin > 0.3:  # below: it starts there
            baseline = y + font * 0.8
        else:  # beside: centred on the spoke
            baseline = y - block / 2 + font * 0.8
        room = (
            size - pad - x if anchor == "start" else x - pad if anchor == "end" else size - 2 * pad
        )
        shown_rating = rating_text(values[axis])
        name = _fit(names[axis], room, font)
        tooltip = f"<title>{_esc(names[axis])}</title>" if name != names[axis] else ""
        out.append(
            f"<text{_attrs({'x': x, 'y': baseline, 'text_anchor': anchor, 'data_axis': axis})}>"
            f"{tooltip}<tspan>{_esc(name)}</tspan>"
            f'<tspan x="{_num(x)}" dy="{_num(line)}" font-size="{_num(font + 1)}"'
            f' font-weight="700" fill="{RADAR_COLOUR}" class="radar-rating">{shown_rating}'
            "</tspan></text>"
        )
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)
