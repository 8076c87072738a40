"""The track map, drawn from a track file's content (the stored JSON of a validated file):
a Grand Prix board (grandprix.md §3: both lanes, corners with their max gear, racing lines,
the pit lane with its boxes, the grid and start lanes) or a Ludicitude ring of cards
(ludicitude.md §3), with the cars of one round of a race on it and the frames of its replay.

The squares lie on the loop of :mod:`motor.charts.layout` (the files have no coordinates).
Lane A runs on the left of the direction of travel, lane B on the right, the start lanes C and
D beyond them (T-10), the pit road inside the loop; square ``A_i`` covers half-positions
``2i .. 2i+2`` and ``B_i`` ``2i+1 .. 2i+3`` (T-2), so the lanes are staggered by half a square
as on the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.rulesets.grandprix.track import grid_index, parse_square
from motor.charts.lap_chart import PALETTE
from motor.charts.layout import Bend, Loop, Point
from svg.markup import MUTED, esc, fit, num, placeholder, svg_open, svg_points, svg_text
from svg.wording import merge_texts, text_format

MAP_TEXTS: dict[str, str] = {
    "no_track": "No track file for this round",
    "description": "Map of {name}: {corners} corners, {length} squares a lane, {direction}",
    "clockwise": "clockwise",
    "anticlockwise": "anticlockwise",
    "corner": "{name}: max gear {gear}",
    "max_gear_square": "max-gear square",
    "racing_line": "racing line",
    "pit_lane": "pit lane",
    "grid": "grid slot",
    "green": "green square",
    "start_lanes": "start lanes",
    "line": "start/finish",
    "card": "Card {index}: {tokens}",
    "cards_description": "Map of {name}: {count} cards, {circuit} circuit",
    "closed": "closed",
    "open": "open",
    "car": "Car {label}",
}
INK = "#1f2933"
ASPHALT = "#d9dde1"
SQUARE = "#ffffff"
GREEN = "#dcefd9"
MARKED = "#f6c1bd"
KERB = "#c62828"
LINE_COLOUR = "#1565c0"
PIT = "#c9ced4"
START_LANE = "#eef0f2"
CAR = "#1f2933"
CAR_OUT = "#9aa1a9"
INCIDENT = "#d97706"
LANE = 1.0  # a lane's width, in squares
MARGIN = 46.0  # room around the loop for the corner labels, in pixels
CARD = 2.0  # a Ludicitude card's length on the loop, in units of its width


def direction_clockwise(content: Mapping[str, Any]) -> bool:
    """The track's direction: the optional ``direction`` key (``clockwise``, the default, or
    ``anticlockwise`` / ``anti_clockwise`` as in ``races.csv``)."""
    text = str(content.get("direction") or "clockwise").lower().replace("-", "_")
    return text not in ("anticlockwise", "anti_clockwise", "counterclockwise")


@dataclass(frozen=True)
class CarDot:
    """A car to draw: its id (the trace key), its label (a number), a hover text and its team's
    colour (``team_colours``)."""

    id: str
    label: str
    title: str = ""
    colour: str = CAR


def team_colours(teams: Sequence[object]) -> dict[object, str]:
    """A colour per team, in the given order (team-mates share their team's, as on a real
    grid): the charts' palette, repeated past its end, where each car's number tells it apart."""
    return {team: PALETTE[index % len(PALETTE)] for index, team in enumerate(teams)}


def _luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def label_colour(fill: str) -> str:
    """White or ink, whichever reads better on ``fill`` (the larger WCAG contrast)."""
    light = _luminance(fill)
    on_white = 1.05 / (light + 0.05)
    on_ink = (light + 0.05) / (_luminance(INK) + 0.05)
    return "#fff" if on_white >= on_ink else INK


@dataclass(frozen=True)
class Incident:
    """Something that happened to a car in a round of the race (a track exit, a retirement...)."""

    round: int
    car: str
    text: str


class _Canvas:
    """Loop coordinates (squares) to pixels: the loop scaled to ``width``, margins around."""

    def __init__(self, points: Sequence[Point], width: float, top: float) -> None:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        self.x0, self.y0 = min(xs), min(ys)
        span_x = max(max(xs) - self.x0, 1e-6)
        span_y = max(max(ys) - self.y0, 1e-6)
        self.scale = (width - 2 * MARGIN) / span_x
        # A tall loop is not drawn taller than 1.1 times the width.
        self.scale = min(self.scale, (1.1 * width - 2 * MARGIN) / span_y)
        self.left = (width - span_x * self.scale) / 2
        self.top = top + MARGIN
        self.height = self.top + span_y * self.scale + MARGIN

    def p(self, point: Point) -> Point:
        return (
            self.left + (point[0] - self.x0) * self.scale,
            self.top + (point[1] - self.y0) * self.scale,
        )

    def poly(self, points: Sequence[Point]) -> str:
        return svg_points(self.p(point) for point in points)


def _legend(out: list[str], items: list[tuple[str, str]], *, y: float, width: float) -> float:
    """Legend swatches (SVG fragment, label) in rows; returns the height used."""
    x, row = 12.0, 0
    for swatch, label in items:
        w = 26 + len(label) * 11 * 0.58 + 14
        if x + w > width - 8 and x > 12:
            x, row = 12.0, row + 1
        yy = y + row * 20
        out.append(f'<g transform="translate({num(x)} {num(yy)})">{swatch}')
        out.append(svg_text(24, 4, label, font_size=11) + "</g>")
        x += w
    return (row + 1) * 20.0


class GrandPrixMap:
    """A Grand Prix track (grandprix.md §3.5 content) laid out on a loop and drawn."""

    def __init__(
        self, content: Mapping[str, Any], *, width: int = 720, texts: Mapping[str, str] | None
    ) -> None:
        self.words = merge_texts(MAP_TEXTS, texts)
        self.content = content
        self.n = int(content["length"])
        self.name = str(content.get("name") or content.get("id") or "")
        self.corners = list(content.get("corners") or [])
        self.lines = list(content.get("racing_lines") or [])
        self.slots = int((content.get("grid") or {}).get("slots", 12))
        start = content.get("start_lanes") or {}
        self.start_length = int(start.get("length", 7))
        self.from_slots = tuple(start.get("from_slots") or (12, 11))
        self.pit = content.get("pit") or {}
        self.loop = Loop(
            self.n,
            [
                Bend(int(c["marked"]) + 0.5, 1.6 if int(c["max_gear"]) <= 2 else 1.0)
                for c in self.corners
            ],
            clockwise=direction_clockwise(content),
        )
        self.width = width
        outline = [
            self.loop.offset(q / 2, side * 3.6) for q in range(2 * self.n) for side in (-1, 1)
        ]
        self.canvas = _Canvas(outline, width, 30.0)

    # -- where things are, in loop coordinates ---------------------------------------------

    def _green(self, lane: str, index: int) -> bool:
        green = self.content.get("green") or {"rule": "even"}
        if green.get("rule", "even") == "even":
            return index % 2 == 0
        return index in (green.get(lane) or [])

    def _square_span(self, lane: str, index: int) -> tuple[float, float, float, float] | None:
        """(q0, q1, lateral0, lateral1) of a square, or None if there is no such square."""
        n = self.n
        if lane in "AB" and 0 <= index < n:
            half = 2 * index + (lane == "B")
            lateral = (-LANE, 0.0) if lane == "A" else (0.0, LANE)
            return half / 2, half / 2 + 1, *lateral
        if lane in "CD" and 0 <= index < self.start_length:
            slot = self.from_slots[0] if lane == "C" else self.from_slots[1]
            half = (2 * n - slot + 1 + 2 * index) % (2 * n)
            lateral = (-2 * LANE, -LANE) if lane == "C" else (LANE, 2 * LANE)
            return half / 2, half / 2 + 1, *lateral
        return None

    def _pit_span(self) -> tuple[float, float] | None:
        """Where the pit road runs, in squares: from past the gate to the exit square."""
        gate = self.pit.get("gate")
        exit_square = parse_square(self.pit.get("exit"))
        if gate is None or exit_square is None:
            return None
        start = int(gate) + 1.0
        end = exit_square[1] + (0.5 if exit_square[0] == "B" else 0.0)
        if end <= start:
            end += self.n
        return start, end

    @property
    def pit_lateral(self) -> float:
        return self.loop.inside * 3.0 * LANE

    def location(self, cell: Mapping[str, Any]) -> Point | None:
        """The loop point of a trace cell ``{"square": [lane, index], ...}`` (lanes A-D, P for
        a pit box, R for a run-off); None when it names no place on this track."""
        square = cell.get("square")
        if not isinstance(square, Sequence) or isinstance(square, str) or len(square) != 2:
            return None
        lane, index = str(square[0]), square[1]
        if lane in ("runoff", "R"):
            # A run-off: just outside the track before its corner's rejoin square (T-7).
            corner = next((c for c in self.corners if c["id"] == index), None)
            rejoin = int(corner["rejoin"]) if corner else index
            if not isinstance(rejoin, int) or isinstance(rejoin, bool):
                return None
            return self.loop.offset(rejoin - 1.0, -self.loop.inside * 2.6 * LANE)
        if not isinstance(index, int) or isinstance(index, bool):
            return None
        span = self._square_span(lane, index)
        if span is not None:
            q0, q1, l0, l1 = span
            return self.loop.offset((q0 + q1) / 2, (l0 + l1) / 2)
        pit = self._pit_span()
        if lane == "P" and pit is not None and 4 <= index <= 23:
            start, end = pit
            q = start + 1 + (end - start - 2) * (23 - index + 0.5) / 20
            return self.loop.offset(q, self.pit_lateral)
        return None

    # -- drawing -----------------------------------------------------------------------------

    def svg(
        self,
        *,
        cars: Sequence[CarDot] = (),
        positions: Mapping[str, Point] | None = None,
        incidents: Sequence[Incident] = (),
        incident_positions: Sequence[Point | None] = (),
    ) -> str:
        words = self.words
        c = self.canvas
        loop = self.loop
        direction = words["clockwise"] if loop.clockwise else words["anticlockwise"]
        label = text_format(
            words,
            MAP_TEXTS,
            "description",
            name=self.name,
            corners=len(self.corners),
            length=self.n,
            direction=direction,
        )
        legend: list[str] = []
        legend_h = _legend(legend, self._legend_items(), y=c.height + 6, width=self.width)
        height = c.height + legend_h + 8
        out = [svg_open(self.width, height, label, css_class="chart chart-track")]
        out.append(
            svg_text(12, 20, fit(self.name, self.width - 24, 14), font_size=14, font_weight=600)
        )

        # The pit road (inside the loop), with its boxes P23 .. P4 and its two links.
        pit = self._pit_span()
        if pit is not None:
            start, end = pit
            lat = self.pit_lateral
            inner = lat - 0.5 * loop.inside
            outer = lat + 0.5 * loop.inside
            out.append(
                f'<g class="pit-lane"><title>{esc(words["pit_lane"])}</title>'
                f'<polygon points="{c.poly(loop.band(start + 1, end - 1, inner, outer))}"'
                f' fill="{PIT}" stroke="{MUTED}" stroke-width="0.8"/>'
            )
            gate_edge = loop.inside * LANE
            for q_track, q_pit in ((start - 0.5, start + 1), (end, end - 1)):
                a = c.p(loop.offset(q_track, gate_edge))
                b = c.p(loop.offset(q_pit, lat))
                out.append(
                    f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}"'
                    f' stroke="{MUTED}" stroke-width="{num(0.5 * c.scale)}" stroke-linecap="round"'
                    ' opacity="0.6"/>'
                )
            box = (end - start - 2) / 20
            for k in range(23, 3, -1):
                q0 = start + 1 + box * (23 - k) + box * 0.1
                out.append(
                    f'<polygon class="pit-box" data-box="P{k}"'
                    f' points="{c.poly(loop.band(q0, q0 + box * 0.8, inner, outer))}"'
                    f' fill="#fff" stroke="{MUTED}" stroke-width="0.5"/>'
                )
            for k, q in ((23, start + 1 + box / 2), (4, end - 1 - box / 2)):
                x, y = c.p(loop.offset(q, lat + 1.1 * loop.inside))
                out.append(
                    svg_text(x, y + 3, f"P{k}", text_anchor="middle", font_size=9, fill=MUTED)
                )
            out.append("</g>")

        # Start lanes C and D (T-10): usable only at the start.
        out.append(f'<g class="start-lanes"><title>{esc(words["start_lanes"])}</title>')
        for lane in "CD":
            for j in range(self.start_length):
                span = self._square_span(lane, j)
                assert span is not None
                out.append(
                    f'<polygon points="{c.poly(loop.band(*span))}" fill="{START_LANE}"'
                    f' stroke="{MUTED}" stroke-width="0.6" stroke-dasharray="2 2"/>'
                )
        out.append("</g>")

        # The two lanes, square by square (T-1, T-2), green squares tinted (T-6).
        marked = {int(corner["marked"]): corner for corner in self.corners}
        out.append(f'<g class="lanes" stroke="{INK}" stroke-width="0.6">')
        for lane in "AB":
            for i in range(self.n):
                span = self._square_span(lane, i)
                assert span is not None
                fill = MARKED if i in marked else GREEN if self._green(lane, i) else SQUARE
                out.append(
                    f'<polygon data-square="{lane}{i}" points="{c.poly(loop.band(*span))}"'
                    f' fill="{fill}"/>'
                )
        out.append("</g>")

        # Kerbs along the outside of each corner's zone, and the max gear on its marked squares.
        outside = -loop.inside * LANE
        out.append('<g class="corners">')
        for corner in self.corners:
            z1, z2 = (corner.get("zone") or [corner["marked"], corner["marked"]])[:2]
            kerb = [
                c.p(loop.offset(q / 2, outside * 1.08)) for q in range(2 * int(z1), 2 * int(z2) + 3)
            ]
            out.append(
                f'<polyline points="{svg_points(kerb)}" fill="none" stroke="{KERB}"'
                f' stroke-width="{num(max(0.18 * c.scale, 2))}" stroke-dasharray="4 3"/>'
            )
            m = int(corner["marked"])
            for lane in "AB":
                span = self._square_span(lane, m)
                assert span is not None
                x, y = c.p(loop.offset((span[0] + span[1]) / 2, (span[2] + span[3]) / 2))
                out.append(
                    svg_text(
                        x,
                        y + 3.5,
                        str(corner["max_gear"]),
                        text_anchor="middle",
                        font_size=max(8, min(11, c.scale * 0.55)),
                        font_weight=700,
                    )
                )
        out.append("</g>")

        # Racing lines (T-8): a dashed line through the centres of their squares.
        out.append(
            f'<g class="racing-lines" fill="none" stroke="{LINE_COLOUR}" stroke-width="2.2">'
        )
        for line in self.lines:
            centres = []
            for text in line.get("squares") or []:
                sq = parse_square(text)
                spot = self.location({"square": list(sq)}) if sq else None
                if spot is not None:
                    centres.append(c.p(spot))
            out.append(
                f'<polyline class="racing-line" data-line="{esc(line.get("id", ""))}"'
                f' points="{svg_points(centres)}" stroke-dasharray="5 3"'
                f' stroke-linecap="round"><title>{esc(words["racing_line"])}'
                f" {esc(line.get('id', ''))} (+{esc(line.get('bonus', 1))})</title></polyline>"
            )
        out.append("</g>")

        # The line (T-4) across both lanes, chequered, and the direction of travel.
        a = c.p(loop.offset(0, -LANE * 1.15))
        b = c.p(loop.offset(0, LANE * 1.15))
        out.append(
            f'<g class="finish-line"><title>{esc(words["line"])}</title>'
            f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}"'
            f' stroke="{INK}" stroke-width="5"/>'
            f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}"'
            ' stroke="#fff" stroke-width="5" stroke-dasharray="3 3"/></g>'
        )
        tail = c.p(loop.offset(2.0, outside * 2.2))
        head = c.p(loop.offset(5.0, outside * 2.2))
        angle = math.degrees(math.atan2(head[1] - tail[1], head[0] - tail[0]))
        out.append(
            f'<g class="direction" transform="translate({num(head[0])} {num(head[1])})'
            f' rotate({num(angle)})"><title>{esc(direction)}</title>'
            f'<line x1="{num(-math.dist(head, tail))}" y1="0" x2="-2" y2="0" stroke="{INK}"'
            ' stroke-width="2"/><polygon points="0,0 -8,-4.5 -8,4.5" fill="{INK}"/></g>'.replace(
                "{INK}", INK
            )
        )

        # The grid (T-9): slot numbers on their squares.
        out.append('<g class="grid" font-size="9" text-anchor="middle">')
        for slot in range(1, self.slots + 1):
            lane, index = grid_index(slot, self.n)
            spot = self.location({"square": [lane, index]})
            if spot is None:
                continue
            x, y = c.p(spot)
            out.append(
                f'<rect x="{num(x - 7)}" y="{num(y - 6)}" width="14" height="12" rx="2"'
                f' fill="#fff" stroke="{INK}" stroke-width="0.8"/>'
            )
            out.append(svg_text(x, y + 3.2, str(slot), font_weight=700 if slot == 1 else 400))
        out.append("</g>")

        # Corner labels outside the loop: a badge with the max gear and the corner's id.
        out.append('<g class="corner-labels">')
        for corner in self.corners:
            q = int(corner["marked"]) + 0.5
            x, y = c.p(loop.offset(q, outside * 3.4))
            title = text_format(
                words,
                MAP_TEXTS,
                "corner",
                name=corner.get("name") or corner["id"],
                gear=corner["max_gear"],
            )
            out.append(
                f'<g class="corner-label" data-corner="{esc(corner["id"])}"'
                f' data-max-gear="{esc(corner["max_gear"])}"><title>{esc(title)}</title>'
                f'<circle cx="{num(x)}" cy="{num(y)}" r="9" fill="{KERB}"/>'
                + svg_text(
                    x,
                    y + 4,
                    str(corner["max_gear"]),
                    text_anchor="middle",
                    fill="#fff",
                    font_size=12,
                    font_weight=700,
                    class_="gear",
                )
                + svg_text(
                    x,
                    y + 21,
                    fit(str(corner["id"]), 70, 10),
                    text_anchor="middle",
                    font_size=10,
                    class_="corner-name",
                )
                + "</g>"
            )
        out.append("</g>")

        out.extend(_cars_and_incidents(c, cars, positions, incidents, incident_positions, words))
        out.extend(legend)
        out.append("</svg>")
        return "".join(out)

    def _legend_items(self) -> list[tuple[str, str]]:
        w = self.words
        items = [
            (
                f'<rect x="0" y="-6" width="18" height="12" fill="{MARKED}" stroke="{INK}"'
                ' stroke-width="0.6"/><text x="9" y="4" font-size="10" font-weight="700"'
                ' text-anchor="middle">2</text>',
                w["max_gear_square"],
            ),
            (
                f'<line x1="0" y1="0" x2="18" y2="0" stroke="{LINE_COLOUR}" stroke-width="2.2"'
                ' stroke-dasharray="5 3"/>',
                w["racing_line"],
            ),
            (
                f'<rect x="0" y="-6" width="18" height="12" fill="{GREEN}" stroke="{INK}"'
                ' stroke-width="0.6"/>',
                w["green"],
            ),
            (
                '<rect x="2" y="-6" width="14" height="12" rx="2" fill="#fff" stroke="#1f2933"'
                ' stroke-width="0.8"/>'
                '<text x="9" y="3" font-size="9" text-anchor="middle">1</text>',
                w["grid"],
            ),
        ]
        if self._pit_span() is not None:
            items.append(
                (
                    f'<rect x="0" y="-5" width="18" height="10" fill="{PIT}"'
                    f' stroke="{MUTED}" stroke-width="0.8"/>',
                    w["pit_lane"],
                )
            )
        return items


def _cars_and_incidents(
    c: _Canvas,
    cars: Sequence[CarDot],
    positions: Mapping[str, Point] | None,
    incidents: Sequence[Incident],
    incident_positions: Sequence[Point | None],
    words: Mapping[str, str],
) -> list[str]:
    """The cars as numbered dots (pixel positions) and the incident markers by round; a car
    without a position is drawn off the map (hidden) so that the replay can move it."""
    out: list[str] = []
    if incidents:
        out.append('<g class="incidents">')
        for incident, spot in zip(incidents, incident_positions, strict=True):
            if spot is None:
                continue
            x, y = spot
            out.append(
                f'<g class="incident" data-round="{incident.round}" data-car="{esc(incident.car)}">'
                f"<title>{esc(incident.text)}</title>"
                f'<polygon points="{num(x)},{num(y - 17)} {num(x - 8)},{num(y - 4)}'
                f' {num(x + 8)},{num(y - 4)}" fill="{INCIDENT}" stroke="#fff" stroke-width="1"/>'
                + svg_text(
                    x,
                    y - 6.5,
                    "!",
                    text_anchor="middle",
                    font_size=10,
                    font_weight=700,
                    fill="#fff",
                )
                + "</g>"
            )
        out.append("</g>")
    if cars:
        out.append('<g class="cars" font-size="9" font-weight="700" text-anchor="middle">')
        for car in cars:
            spot = (positions or {}).get(car.id)
            hidden = spot is None
            x, y = spot if spot is not None else (-50.0, -50.0)
            title = car.title or text_format(words, MAP_TEXTS, "car", label=car.label)
            out.append(
                f'<g class="car" data-car="{esc(car.id)}" transform="translate({num(x)} {num(y)})"'
                + (' visibility="hidden"' if hidden else "")
                + f"><title>{esc(title)}</title>"
                f'<circle r="8" fill="{car.colour}" stroke="{INK}" stroke-width="1"/>'
                + svg_text(0, 3.2, fit(car.label, 16, 9), fill=label_colour(car.colour))
                + "</g>"
            )
        out.append("</g>")
    return out


class LudicitudeMap:
    """A Ludicitude track (ludicitude.md §3.1 content): 24 cards in driving order on a loop
    whose bends are the slow cards (MAX2 / MAX3), each card labelled with its tokens."""

    def __init__(
        self, content: Mapping[str, Any], *, width: int = 720, texts: Mapping[str, str] | None
    ) -> None:
        self.words = merge_texts(MAP_TEXTS, texts)
        self.content = content
        self.name = str(content.get("name") or content.get("id") or "")
        self.cards = [str(card) for card in content.get("cards") or []]
        self.closed = str(content.get("circuit", "closed")) != "open"
        n = max(len(self.cards), 3)
        bends = []
        for index, card in enumerate(self.cards):
            tokens = card.split()
            limit = next((int(t[3:]) for t in tokens if t.startswith("MAX") and t[3:].isdigit()), 9)
            if limit <= 3:
                bends.append(Bend(CARD * (index + 0.5), 1.6 if limit <= 2 else 1.0))
        self.loop = Loop(CARD * n, bends, clockwise=direction_clockwise(content))
        self.n = n
        self.width = width
        outline = [
            self.loop.offset(q / 2, side * 1.2)
            for q in range(int(2 * CARD * n))
            for side in (-1, 1)
        ]
        self.canvas = _Canvas(outline, width, 30.0)

    def location(self, cell: Mapping[str, Any]) -> Point | None:
        card = cell.get("card")
        if not isinstance(card, int) or isinstance(card, bool):
            return None
        return self.loop.offset(CARD * ((card % self.n) + 0.5), 0.0)

    def svg(
        self,
        *,
        cars: Sequence[CarDot] = (),
        positions: Mapping[str, Point] | None = None,
        incidents: Sequence[Incident] = (),
        incident_positions: Sequence[Point | None] = (),
    ) -> str:
        words = self.words
        c = self.canvas
        loop = self.loop
        label = text_format(
            words,
            MAP_TEXTS,
            "cards_description",
            name=self.name,
            count=len(self.cards),
            circuit=words["closed"] if self.closed else words["open"],
        )
        out = [svg_open(self.width, c.height, label, css_class="chart chart-track")]
        out.append(
            svg_text(12, 20, fit(self.name, self.width - 24, 14), font_size=14, font_weight=600)
        )
        out.append(f'<g class="cards" stroke="{INK}" stroke-width="0.8">')
        font = max(8.0, min(11.0, c.scale * 0.3))
        for index, card in enumerate(self.cards):
            tokens = card.split()
            slow = any(t in ("MAX1", "MAX2") for t in tokens)
            fill = (
                MARKED if slow else GREEN if any(t.startswith("BRAKE") for t in tokens) else SQUARE
            )
            title = text_format(words, MAP_TEXTS, "card", index=index, tokens=card)
            outline = loop.band(CARD * index + 0.06, CARD * (index + 1) - 0.06, -0.85, 0.85)
            out.append(
                f'<g class="track-card" data-card="{index}"><title>{esc(title)}</title>'
                f'<polygon points="{c.poly(outline)}" fill="{fill}"/>'
            )
            x, y = c.p(loop.offset(CARD * (index + 0.5), -0.55))
            out.append(
                svg_text(
                    x,
                    y + 3,
                    str(index),
                    text_anchor="middle",
                    font_size=8,
                    fill=MUTED,
                    stroke="none",
                )
            )
            shown = [t for t in tokens if t != "PLAIN"]
            for row, token in enumerate(shown[:2]):
                x, y = c.p(loop.offset(CARD * (index + 0.5), 0.05 + 0.42 * row))
                out.append(
                    svg_text(
                        x,
                        y + 3,
                        token,
                        text_anchor="middle",
                        font_size=font,
                        font_weight=600,
                        stroke="none",
                    )
                )
            out.append("</g>")
        out.append("</g>")
        if not self.closed:
            a = c.p(loop.offset(CARD * self.n - 0.02, -1.0))
            b = c.p(loop.offset(CARD * self.n - 0.02, 1.0))
            out.append(
                f'<line class="finish-line" x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}"'
                f' y2="{num(b[1])}" stroke="{INK}" stroke-width="4"'
                f' stroke-dasharray="3 3"><title>{esc(words["line"])}</title></line>'
            )
        out.extend(_cars_and_incidents(c, cars, positions, incidents, incident_positions, words))
        out.append("</svg>")
        return "".join(out)


TrackMap = GrandPrixMap | LudicitudeMap


def track_map_for(
    content: Mapping[str, Any] | None, *, width: int = 720, texts: Mapping[str, str] | None = None
) -> TrackMap | None:
    """The map of a track file's content (by its ``game``), None if it is not a motor track."""
    if not isinstance(content, Mapping):
        return None
    try:
        if content.get("game") == "grandprix":
            return GrandPrixMap(content, width=width, texts=texts)
        if content.get("game") == "ludicitude":
            return LudicitudeMap(content, width=width, texts=texts)
    except (KeyError, TypeError, ValueError):
        return None
    return None


def track_map_svg(
    content: Mapping[str, Any] | None, *, width: int = 720, texts: Mapping[str, str] | None = None
) -> str:
    """The map alone, or a placeholder saying there is no track file."""
    drawn = track_map_for(content, width=width, texts=texts)
    if drawn is None:
        words = merge_texts(MAP_TEXTS, texts)
        return placeholder(words["no_track"], width, "", css_class="chart chart-track")
    return drawn.svg()


# --- The replay --------------------------------------------------------------------------------


def _spread(points: list[tuple[str, Point]], radius: float) -> dict[str, Point]:
    """Cars sharing a place (a Ludicitude card, a run-off) set around it so each shows."""
    out: dict[str, Point] = {}
    groups: dict[Point, list[str]] = {}
    for car, point in points:
        groups.setdefault((round(point[0], 1), round(point[1], 1)), []).append(car)
    for (x, y), members in groups.items():
        if len(members) == 1:
            out[members[0]] = (x, y)
            continue
        for k, car in enumerate(members):
            angle = 2 * math.pi * k / len(members)
            out[car] = (x + radius * math.cos(angle), y + radius * math.sin(angle))
    return out


def frame_positions(drawn: TrackMap, cells: Mapping[str, Mapping[str, Any]]) -> dict[str, Point]:
    """Pixel positions of the cars of one trace round ``{"car": {"square"|"card": ..}}``;
    retired cars and cars at no known place are left out."""
    spots: list[tuple[str, Point]] = []
    for car, cell in cells.items():
        if not isinstance(cell, Mapping) or cell.get("state") == "retired":
            continue
        spot = drawn.location(cell)
        if spot is not None:
            spots.append((str(car), drawn.canvas.p(spot)))
    return _spread(spots, 9.0)


def replay_frames(drawn: TrackMap, trace: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The replay's frames, one per trace round: ``{"round": N, "cars": {id: [x, y, state,
    lap]}}`` in the map's pixels (a car missing from a frame is not drawn in it)."""
    frames = []
    for entry in trace:
        cells = entry.get("cars") or {}
        spots = frame_positions(drawn, cells)
        frames.append(
            {
                "round": entry.get("round"),
                "cars": {
                    car: [
                        round(x, 1),
                        round(y, 1),
                        str(cells[car].get("state", "racing")),
                        cells[car].get("lap"),
                    ]
                    for car, (x, y) in spots.items()
                },
            }
        )
    return frames


def replay_svg(
    drawn: TrackMap,
    trace: Sequence[Mapping[str, Any]],
    *,
    cars: Sequence[CarDot],
    incidents: Sequence[Incident] = (),
) -> tuple[str, list[dict[str, Any]]]:
    """The map with the cars of the first trace round on it, the incident markers (each where
    its car was in its round) and the frames the replay's script moves the cars through."""
    frames = replay_frames(drawn, trace)
    by_round = {frame["round"]: frame["cars"] for frame in frames}
    spots: list[Point | None] = []
    for incident in incidents:
        spot = (by_round.get(incident.round) or {}).get(incident.car)
        if spot is None:
            # A retired car is no longer in its round's frame: the round before shows where.
            earlier = [r for r in by_round if isinstance(r, int) and r < incident.round]
            spot = (by_round.get(max(earlier)) or {}).get(incident.car) if earlier else None
        spots.append((spot[0], spot[1]) if spot else None)
    first = {car: (v[0], v[1]) for car, v in (frames[0]["cars"] if frames else {}).items()}
    svg = drawn.svg(cars=cars, positions=first, incidents=incidents, incident_positions=spots)
    return svg, frames
