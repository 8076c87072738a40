"""Where a track lies on a map, derived from the track file alone (the files carry no
coordinates): a closed loop whose bends are the corners, in the track's direction.

The method (docs/motor-pages.md, "The track map"):
1. the bends are the corners (Grand Prix: the marked square; Ludicitude: the slow cards), each
   turning a share of the full 360 degrees, a slow corner (max 2nd gear) a larger share than a
   fast one; with fewer than three bends, bends are added in the middle of the longest gaps;
2. the straights between bends are as long as the squares between them; the polygon of
   straights is closed by the smallest change of their lengths (weighted least squares: a long
   straight gives more), any remainder spread along the loop;
3. each bend is rounded (a quadratic curve), and the squares are laid along the rounded loop
   piecewise evenly between bends, so a corner's marked square sits at its bend.
Every bend turns the same way (clockwise: right), so the loop is convex: a plausible
schematic, not the real circuit's shape.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
MIN_BENDS = 3
ROUNDING = 6.0  # the largest distance from a bend where its curve starts, in squares
SHORTEST = 0.3  # a straight keeps at least this share of its length when the loop is closed


@dataclass(frozen=True)
class Bend:
    """A bend ``at`` squares from the line, taking ``weight`` shares of the full turn."""

    at: float
    weight: float = 1.0


def _with_enough_bends(length: float, bends: Sequence[Bend]) -> list[Bend]:
    out = sorted((Bend(b.at % length, b.weight) for b in bends), key=lambda b: b.at)
    while len(out) < MIN_BENDS:
        if not out:
            out = [Bend(length / 6)]
            continue
        gaps = [
            ((out[(i + 1) % len(out)].at - out[i].at) % length or length, i)
            for i in range(len(out))
        ]
        gap, i = max(gaps)
        out.append(Bend((out[i].at + gap / 2) % length))
        out.sort(key=lambda b: b.at)
    return out


def _bezier(a: Point, c: Point, b: Point, t: float) -> Point:
    u = 1 - t
    return (
        u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
        u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
    )


class Loop:
    """A closed loop of ``length`` squares; ``point(q)`` is where the centre line is ``q``
    squares past the line, ``offset(q, lateral)`` a point ``lateral`` squares to the right
    of it (negative: to the left), in the direction of travel."""

    SAMPLES = 12  # points per rounded bend

    def __init__(self, length: float, bends: Sequence[Bend], *, clockwise: bool = True) -> None:
        self.length = float(length)
        self.clockwise = clockwise
        self.bends = _with_enough_bends(self.length, bends)
        k = len(self.bends)
        total = sum(max(b.weight, 0.01) for b in self.bends)
        sign = 1.0 if clockwise else -1.0  # screen y grows downwards: +angle turns right
        turns = [sign * 2 * math.pi * max(b.weight, 0.01) / total for b in self.bends]
        # Straight k runs from bend k to bend k + 1; the one through the line heads along +x.
        gaps = [
            (self.bends[(i + 1) % k].at - self.bends[i].at) % self.length or self.length
            for i in range(k)
        ]
        headings = []
        heading = 0.0
        for i in range(k):
            heading += turns[i]
            headings.append(heading)
        units = [(math.cos(h), math.sin(h)) for h in headings]
        sides = self._closed(gaps, units)
        vertices: list[Point] = [(0.0, 0.0)]
        for i in range(k - 1):
            x, y = vertices[-1]
            vertices.append((x + sides[i] * units[i][0], y + sides[i] * units[i][1]))
        # Whatever the lengths could not close is spread along the loop.
        end = (
            vertices[-1][0] + sides[-1] * units[-1][0],
            vertices[-1][1] + sides[-1] * units[-1][1],
        )
        run = sum(sides)
        walked = 0.0
        for i in range(k):
            share = walked / run
            vertices[i] = (vertices[i][0] - end[0] * share, vertices[i][1] - end[1] * share)
            walked += sides[i]
        points: list[Point] = []
        apex_index: list[int] = []
        for i in range(k):
            before, after = units[i - 1], units[i]
            cut = min(ROUNDING, 0.45 * sides[i - 1], 0.45 * sides[i])
            v = vertices[i]
            a = (v[0] - cut * before[0], v[1] - cut * before[1])
            b = (v[0] + cut * after[0], v[1] + cut * after[1])
            for j in range(self.SAMPLES + 1):
                if j == self.SAMPLES // 2:
                    apex_index.append(len(points))
                points.append(_bezier(a, v, b, j / self.SAMPLES))
        points.append(points[0])
        arcs = [0.0]
        for p, q in itertools.pairwise(points):
            arcs.append(arcs[-1] + math.dist(p, q))
        self.points = points
        self.arcs = arcs
        self.perimeter = arcs[-1]
        self.apex_arcs = [arcs[i] for i in apex_index]

    @staticmethod
    def _closed(gaps: list[float], units: list[Point]) -> list[float]:
        ex = sum(g * u[0] for g, u in zip(gaps, units, strict=True))
        ey = sum(g * u[1] for g, u in zip(gaps, units, strict=True))
        # min sum(d_k^2 / g_k) subject to sum(d_k u_k) = -E: d_k = g_k (u_k . lam).
        m11 = sum(g * u[0] * u[0] for g, u in zip(gaps, units, strict=True))
        m12 = sum(g * u[0] * u[1] for g, u in zip(gaps, units, strict=True))
        m22 = sum(g * u[1] * u[1] for g, u in zip(gaps, units, strict=True))
        det = m11 * m22 - m12 * m12
        if abs(det) < 1e-9:
            return list(gaps)
        lx = (-ex * m22 + ey * m12) / det
        ly = (-ey * m11 + ex * m12) / det
        return [
            max(g + g * (u[0] * lx + u[1] * ly), SHORTEST * g)
            for g, u in zip(gaps, units, strict=True)
        ]

    def _arc(self, q: float) -> float:
        """The arc length of the point ``q`` squares past the line: evenly between bends."""
        q %= self.length
        ats = [b.at for b in self.bends]
        k = len(ats)
        i = bisect.bisect_right(ats, q) - 1  # -1: before the first bend, on the last straight
        a0, s0 = ats[i % k], self.apex_arcs[i % k]
        a1, s1 = ats[(i + 1) % k], self.apex_arcs[(i + 1) % k]
        span = (a1 - a0) % self.length or self.length
        arc_span = (s1 - s0) % self.perimeter or self.perimeter
        return (s0 + arc_span * ((q - a0) % self.length) / span) % self.perimeter

    def frame(self, q: float) -> tuple[Point, Point]:
        """The centre-line point and the unit direction of travel ``q`` squares past the line."""
        s = self._arc(q)
        j = min(max(bisect.bisect_right(self.arcs, s) - 1, 0), len(self.points) - 2)
        p, r = self.points[j], self.points[j + 1]
        seg = self.arcs[j + 1] - self.arcs[j]
        t = (s - self.arcs[j]) / seg if seg else 0.0
        d = math.dist(p, r) or 1.0
        return (p[0] + (r[0] - p[0]) * t, p[1] + (r[1] - p[1]) * t), (
            (r[0] - p[0]) / d,
            (r[1] - p[1]) / d,
        )

    def offset(self, q: float, lateral: float) -> Point:
        (x, y), (ux, uy) = self.frame(q)
        # The right-hand normal of (ux, uy) on a screen (y down) is (-uy, ux).
        return (x - uy * lateral, y + ux * lateral)

    @property
    def inside(self) -> float:
        """+1 when the inside of the loop is to the right of the direction of travel."""
        return 1.0 if self.clockwise else -1.0

    def band(self, q0: float, q1: float, lateral0: float, lateral1: float) -> list[Point]:
        """The outline of the stretch from ``q0`` to ``q1`` between two lateral offsets (a
        square, a kerb, a pit road), with a point every half square to follow the bends."""
        steps = max(2, math.ceil((q1 - q0) * 2))
        qs = [q0 + (q1 - q0) * i / steps for i in range(steps + 1)]
        return [self.offset(q, lateral0) for q in qs] + [
            self.offset(q, lateral1) for q in reversed(qs)
        ]
