"""Standings lines ranked by points with countback, whatever the game: pure Python, shared by
the motor championships (motor.championship) and the cycling seasons' league points
(races.league.season_points), which may not import each other.

Ties: countback (most wins, then most seconds, ...), then the better result in the latest
round where the two differ, then the key; or (``latest=False``, the real F1 tables) a tie on
points and the whole countback shares the position.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

ZERO = Decimal(0)


@dataclass
class Line:
    """One line of a table: key, points, wins and the countback (places 1, 2, ... counted)."""

    key: str | tuple[str, str]
    points: Decimal = ZERO
    countback: list[int] = field(default_factory=list)
    # the best place in each round, for the latest-result tie-break (None: not classified)
    places: dict[int, int | None] = field(default_factory=dict)
    position: int = 0

    @property
    def wins(self) -> int:
        return self.countback[0] if self.countback else 0


def place_count(line: Line, position: int | None, round_number: int) -> None:
    """Count ``position`` (None: not classified) in ``line``'s countback and keep its best place
    of round ``round_number`` for the latest-result tie-break."""
    if position is not None:
        while len(line.countback) < position:
            line.countback.append(0)
        line.countback[position - 1] += 1
    best = line.places.get(round_number)
    if position is not None and (best is None or position < best):
        line.places[round_number] = position
    else:
        line.places.setdefault(round_number, best)


def _latest_first(line: Line) -> list[tuple[int, int]]:
    # Later rounds first; a missing or unclassified place sorts after every place.
    return [
        (-round_number, place if place is not None else 10**6)
        for round_number, place in sorted(line.places.items(), reverse=True)
    ]


def ranked(
    lines: Iterable[Line], *, latest: bool = True, scoring_places: int | None = None
) -> list[Line]:
    """Points, then countback, then (``latest``) the better result in the latest round, then
    the key. Without ``latest``, lines equal on points and countback share a position (listed
    by key), as the official F1 tables print them: their countback reads the scoring places
    only (``scoring_places``; 1981: four drivers 18th on one 6th place each, whatever their
    7th places).
    """
    items = list(lines)
    width = max((len(line.countback) for line in items), default=0)

    def sort_key(line: Line) -> tuple[object, ...]:
        countback = line.countback + [0] * (width - len(line.countback))
        if not latest and scoring_places is not None:
            countback = countback[:scoring_places]
        return (-line.points, [-n for n in countback], _latest_first(line), str(line.key))

    items.sort(key=sort_key)
    previous: tuple[object, ...] | None = None
    for index, line in enumerate(items, start=1):
        key = sort_key(line)[:2]
        if latest or previous is None or key != previous:
            line.position = index
        else:
            line.position = items[index - 2].position
        previous = key
    return items
