"""A rider's ratings as an 8-axis radar (H..4 on each axis)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from django.utils.translation import gettext

from svg.markup import (
    AXIS,
    GRID,
    MUTED,
    attrs,
    esc,
    fit,
    num,
    svg_open,
    svg_points,
    svg_text,
    text_width,
)
from svg.wording import merge_texts, text_format

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
    words = merge_texts(RADAR_TEXTS, texts)
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
        return max(text_width(names[axis], font), text_width("H", font + 1))

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
        label = text_format(words, RADAR_TEXTS, "description_titled", title=title, summary=summary)
    else:
        label = text_format(words, RADAR_TEXTS, "description", summary=summary)
    out = [svg_open(size, size, label, css_class="chart chart-radar")]
    if title:
        out.append(
            svg_text(
                cx,
                17,
                fit(title, size - 8, 13),
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
            f'<polygon data-rating="{rating_text(rating)}" points="{svg_points(ring)}"'
            f' stroke="{stroke}"/>'
        )
    for index in range(len(RADAR_AXES)):
        x, y = point(index, 1.0)
        out.append(f'<line x1="{num(cx)}" y1="{num(cy)}" x2="{num(x)}" y2="{num(y)}"/>')
    out.append("</g>")

    # The rider.
    shape = [point(i, _radius_fraction(values[axis])) for i, axis in enumerate(RADAR_AXES)]
    out.append(
        f'<polygon class="radar-shape" points="{svg_points(shape)}" fill="{RADAR_COLOUR}"'
        f' fill-opacity="0.3" stroke="{RADAR_COLOUR}" stroke-width="2" stroke-linejoin="round"/>'
    )
    out.append(f'<g class="radar-points" fill="{RADAR_COLOUR}">')
    for x, y in shape:
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="2.5"/>')
    out.append("</g>")

    # Ring values along the gap between the first two axes, haloed so lines don't cross them.
    out.append(
        f'<g class="radar-scale" font-size="8" fill="{MUTED}" stroke="#fff" stroke-width="2.5"'
        ' paint-order="stroke" text-anchor="middle">'
    )
    mid = math.radians(-90 + 22.5)
    for rating in range(RATING_MIN, RATING_MAX + 1):
        r = radius * _radius_fraction(rating) * math.cos(math.radians(22.5))
        out.append(
            svg_text(cx + r * math.cos(mid), cy + r * math.sin(mid) + 3, rating_text(rating))
        )
    out.append("</g>")

    # Axis labels, the rating in bold under each.
    out.append(f'<g class="radar-labels" font-size="{num(font)}">')
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
        name = fit(names[axis], room, font)
        tooltip = f"<title>{esc(names[axis])}</title>" if name != names[axis] else ""
        out.append(
            f"<text{attrs({'x': x, 'y': baseline, 'text_anchor': anchor, 'data_axis': axis})}>"
            f"{tooltip}<tspan>{esc(name)}</tspan>"
            f'<tspan x="{num(x)}" dy="{num(line)}" font-size="{num(font + 1)}"'
            f' font-weight="700" fill="{RADAR_COLOUR}" class="radar-rating">{shown_rating}'
            "</tspan></text>"
        )
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def radar_labels() -> dict[str, str]:
    """The axes' names (RADAR_LABELS) in the active language."""
    return {
        "rouleur": gettext("Rouleur"),
        "sprinter": gettext("Sprinter"),
        "baroudeur": gettext("Baroudeur"),
        "finisseur": gettext("Finisseur"),
        "descender": gettext("Descender"),
        "time_trialist": gettext("Time trial"),
        "puncheur": gettext("Puncheur"),
        "climber": gettext("Climber"),
    }


def radar_texts() -> dict[str, str]:
    """The radar's other words (RADAR_TEXTS) in the active language."""
    return {
        "description": gettext("Rider profile: {summary}"),
        "description_titled": gettext("Rider profile: {title}: {summary}"),
    }
