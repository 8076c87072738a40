"""The stage profile: the course drawn as elevation by terrain, its climbs named."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from svg.markup import (
    AXIS,
    INK,
    MUTED,
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

TERRAIN_GRADIENTS: dict[str, float] = {
    "plain": 0.0,
    "hill": 60.0,
    "col3": 50.0,
    "col2": 60.0,
    "col1": 70.0,
    "colhc": 80.0,
    "descent": -70.0,
}
# The climbs darken with their category, from cat. 4 (a hill) to HC.
TERRAIN_COLOURS: dict[str, str] = {
    "plain": "#a9b8a2",
    "hill": "#f2d140",
    "col3": "#f2a03d",
    "col2": "#e86a2c",
    "col1": "#c62d22",
    "colhc": "#7a1216",
    "descent": "#4f8fd0",
}
TERRAIN_LEGEND: dict[str, str] = {
    "plain": "Plain",
    "hill": "Cat. 4",
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
# The phone's drawing (stage_profile_pair): about a phone's width in CSS pixels, so its labels
# show near their design size, and taller, for the climbs' label rows and a wrapped legend.
PHONE_WIDTH = 400
PHONE_HEIGHT = 250


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


def _summary(
    words: Mapping[str, str], total: float, climbs: Sequence[tuple[str, str, tuple[float, float]]]
) -> str:
    """The profile in words: its length and its climbs ("182 km, 2 categorised climbs: ...")."""
    summary = f"{total:.1f} km".replace(".0 km", " km")
    if climbs:
        listed = ", ".join(
            text_format(
                words,
                PROFILE_TEXTS,
                "climb_at",
                climb=_climb_text(name, category),
                km=num(at_km),
            )
            for name, category, (at_km, _) in climbs
        )
        key = "climbs_other" if len(climbs) > 1 else "climbs_one"
        return (
            summary
            + ", "
            + text_format(words, PROFILE_TEXTS, key, count=len(climbs), climbs=listed)
        )
    return summary + ", " + words["no_climbs"]


def stage_profile_points(
    segments: Sequence[Mapping[str, Any]], *, texts: Mapping[str, str] | None = None
) -> tuple[list[tuple[str, list[tuple[float, float]]]], list[tuple[float, str]], str]:
    """What the SVG profile draws, as data for another drawing (the printed sheet): each
    segment's colour and (km, metres) points, each climb's summit km and label, and the
    profile in words (its description)."""
    words = merge_texts(PROFILE_TEXTS, texts)
    paths = _elevation_paths(segments or [])
    if not paths:
        return [], [], words["no_course"]
    climbs = [
        (name.strip(), words[f"category_{terrain}"], points[-1])
        for terrain, name, points in paths
        if terrain in CLIMB_CATEGORIES
    ]
    pieces = [
        (TERRAIN_COLOURS.get(terrain, UNKNOWN_COLOUR), points) for terrain, _, points in paths
    ]
    labels = [(km, _climb_text(name, category)) for name, category, (km, _) in climbs]
    summary = _summary(words, paths[-1][2][-1][0], climbs)
    return pieces, labels, text_format(words, PROFILE_TEXTS, "description", summary=summary)


def stage_profile_svg(
    segments: Sequence[Mapping[str, Any]],
    *,
    width: int = 720,
    height: int = 200,
    title: str = "",
    texts: Mapping[str, str] | None = None,
    narrow: bool = False,
) -> str:
    """The stage profile: coloured terrain areas over km, each climb labelled at its summit.

    ``texts`` overrides the chart's words by key (see ``PROFILE_TEXTS``), for translations.
    ``narrow`` marks the phone's drawing (class ``chart-narrow``, which site.css shows below
    600 px in place of the other).
    """
    words = merge_texts(PROFILE_TEXTS, texts)
    paths = _elevation_paths(segments or [])
    css_class = "chart chart-profile chart-narrow" if narrow else "chart chart-profile"
    if not paths:
        return placeholder(words["no_course"], width, title, css_class=css_class)
    total = paths[-1][2][-1][0]
    climbs = [
        (name.strip(), words[f"category_{terrain}"], points[-1])
        for terrain, name, points in paths
        if terrain in CLIMB_CATEGORIES
    ]

    left, right = 16.0, 26.0
    top = 30.0 if title else 6.0
    title_end = min(left + text_width(title, 13) * 1.1 + 8, width) if title else 0.0
    legend_row = 18.0
    # The legend: the terrains this stage uses, in a fixed order, in as many rows as the
    # width needs (a phone's drawing wraps it).
    present = [terrain for terrain in TERRAIN_COLOURS if any(p[0] == terrain for p in paths)]
    legend: list[tuple[int, float, str, str]] = []  # (row, x, terrain, text)
    legend_x, legend_rows = left, 1
    for terrain in present:
        text = words[f"legend_{terrain}"]
        item_w = 14 + text_width(text, 10)
        if legend_x > left and legend_x + item_w > width - 4:
            legend_x, legend_rows = left, legend_rows + 1
        legend.append((legend_rows - 1, legend_x, terrain, text))
        legend_x += item_w + 12
    bottom = float(height) - 20.0 - legend_row * legend_rows
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

    summary = _summary(words, total, climbs)
    if title:
        label = text_format(
            words, PROFILE_TEXTS, "description_titled", title=title, summary=summary
        )
    else:
        label = text_format(words, PROFILE_TEXTS, "description", summary=summary)

    out = [svg_open(width, height, label, css_class=css_class)]
    if title:
        out.append(
            svg_text(left, 18, fit(title, width - left - 8, 13), font_size=13, font_weight=600)
        )

    # Terrain areas, then the outline of the road on top.
    out.append('<g class="profile-terrain">')
    for terrain, name, points in paths:
        colour = TERRAIN_COLOURS.get(terrain, UNKNOWN_COLOUR)
        polygon = [(px(points[0][0]), bottom)]
        polygon += [(px(km), py(elevation)) for km, elevation in points]
        polygon.append((px(points[-1][0]), bottom))
        out.append(
            f'<polygon data-terrain="{esc(terrain)}" points="{svg_points(polygon)}"'
            f' fill="{colour}" stroke="{colour}" stroke-width="0.6" stroke-linejoin="round">'
            f"<title>{esc(name or words.get(f'legend_{terrain}', terrain))}</title></polygon>"
        )
    outline = [(px(points[0][0]), py(points[0][1])) for _, _, points in paths[:1]]
    for _, _, points in paths:
        outline += [(px(km), py(elevation)) for km, elevation in points[1:]]
    out.append(
        f'<polyline points="{svg_points(outline)}" fill="none" stroke="{INK}" stroke-width="1.2"'
        ' stroke-linejoin="round"/>'
    )
    out.append("</g>")

    # X axis: km ticks every 25 or 50 km (5 or 10 on a short time trial), the finish in full.
    out.append(f'<g class="profile-axis" fill="{MUTED}" font-size="10">')
    out.append(
        f'<line x1="{num(left)}" y1="{num(bottom)}" x2="{num(left + plot_w)}"'
        f' y2="{num(bottom)}" stroke="{AXIS}"/>'
    )
    # At most 8 ticks, fewer on a narrow drawing, so that their numbers never touch.
    step = _tick_step(total, (5, 10, 25, 50, 100), min(8, max(3, int(plot_w // 55))))
    finish_x = px(total)
    finish_text = f"{num(total)} km"
    finish_w = text_width(finish_text, 10) * 1.1  # bold
    finish_centre = min(finish_x, width - 2 - finish_w / 2)
    tick = 0
    while tick * step < total:
        km = tick * step
        x = px(km)
        if x + text_width(num(km), 10) / 2 + 8 < finish_centre - finish_w / 2:
            out.append(
                f'<line x1="{num(x)}" y1="{num(bottom)}" x2="{num(x)}"'
                f' y2="{num(bottom + 4)}" stroke="{AXIS}"/>'
            )
            out.append(svg_text(x, bottom + 15, num(km), text_anchor="middle"))
        tick += 1
    out.append(
        f'<line x1="{num(finish_x)}" y1="{num(bottom)}" x2="{num(finish_x)}"'
        f' y2="{num(bottom + 4)}" stroke="{AXIS}"/>'
    )
    out.append(
        svg_text(
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
            f'<g class="profile-climbs" font-size="{num(LABEL_FONT)}" stroke="#fff"'
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
                        fit(name, width - 4 - text_width(f" ({cat})", LABEL_FONT), LABEL_FONT),
                        cat,
                        limit,
                    )
                    for name, cat, _ in climbs
                ]
                layout = _layout_labels(
                    [x for x, _ in summits],
                    [text_width(text, LABEL_FONT) for text in shown],
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
                f'<line x1="{num(sx)}" y1="{num(sy - 3)}" x2="{num(sx)}"'
                f' y2="{num(baseline + 2)}" stroke="{MUTED}" stroke-width="0.7"/>'
            )
        for sx, sy in summits:
            out.append(
                f'<circle cx="{num(sx)}" cy="{num(sy)}" r="2.2" fill="#fff" stroke="{INK}"'
                ' stroke-width="1"/>'
            )
        for (name, category, _), text, baseline, (_, start, end, anchor) in zip(
            climbs, shown, baselines, layout, strict=True
        ):
            full = _climb_text(name, category)
            out.append(
                svg_text(
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

    out.append('<g class="profile-legend" font-size="10">')
    for row, x, terrain, text in legend:
        y = float(height) - 8 - legend_row * (legend_rows - 1 - row)
        out.append(
            f'<rect x="{num(x)}" y="{num(y - 8)}" width="10" height="10" rx="2"'
            f' fill="{TERRAIN_COLOURS[terrain]}"/>'
        )
        out.append(svg_text(x + 14, y, text, fill=INK))
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def stage_profile_pair(
    segments: Sequence[Mapping[str, Any]],
    *,
    title: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """The stage profile drawn twice: for a desktop, and for a phone (``PHONE_WIDTH``), which
    site.css shows below 600 px instead. Each shows the whole stage, km 0 to the finish, scaled
    to its box by its viewBox; the phone's keeps its labels readable without scrolling."""
    return stage_profile_svg(segments, title=title, texts=texts) + stage_profile_svg(
        segments, width=PHONE_WIDTH, height=PHONE_HEIGHT, title=title, texts=texts, narrow=True
    )


def profile_texts() -> dict[str, str]:
    """The stage profile's words (PROFILE_TEXTS) in the active language, for every page that
    draws a profile (the stage page, the course editor)."""
    return {
        "no_course": gettext("No course"),
        "description": gettext("Stage profile, {summary}"),
        "description_titled": gettext("Stage profile: {title}, {summary}"),
        "climbs_one": gettext("{count} categorised climb: {climbs}"),
        "climbs_other": gettext("{count} categorised climbs: {climbs}"),
        "no_climbs": gettext("no categorised climb"),
        "climb_at": gettext("{climb} at km {km}"),
        "legend_plain": gettext("Plain"),
        "legend_hill": gettext("Cat. 4"),
        "legend_col3": gettext("Cat. 3"),
        "legend_col2": gettext("Cat. 2"),
        "legend_col1": gettext("Cat. 1"),
        "legend_colhc": gettext("HC"),
        "legend_descent": gettext("Descent"),
        "category_hill": gettext("cat. 4"),
        "category_col3": gettext("cat. 3"),
        "category_col2": gettext("cat. 2"),
        "category_col1": gettext("cat. 1"),
        "category_colhc": gettext("HC"),
    }
