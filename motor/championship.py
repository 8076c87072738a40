"""Championship standings from race results: pure functions, no database (as
``races/classifications.py`` is for cycling).

Rules (grandprix.md §6 S-3..S-5, ludicitude.md §6 S-2..S-4, and the real F1 tables):
- ``table[i]`` points to the (i+1)-th classified finisher; unclassified cars score 0;
- pole and fastest-lap points when the system gives them (the fastest lap only within the
  top ``fastest_lap_top`` finishers when that is set, as in 2019-2024);
- a shared drive (two drivers in one car) splits the car's points between them when the
  system says so (the 1950s), else nobody scores for it;
- drivers: the sum of their best ``best_results`` round scores (all when None; 1981: 11);
- constructors: the sum of both cars in every round, one line per constructor *and* engine
  (a constructor racing two engines is two lines), best ``constructors_best_results``;
- ties: countback (most wins, then most seconds, ...), then the better result in the latest
  round where the two differ, then the key (S-4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

ZERO = Decimal(0)


@dataclass(frozen=True)
class Scoring:
    """A points system as plain data (``motor.models.PointsSystem.scoring()``)."""

    table: tuple[Decimal, ...]
    pole: Decimal = ZERO
    fastest_lap: Decimal = ZERO
    fastest_lap_top: int | None = None  # the fastest lap scores only in the top N (None: any)
    best_results: int | None = None  # drivers: only the best N round scores count
    constructors_best_results: int | None = None
    split_shared_drives: bool = False
    # True (the games, S-4): the latest result, then the key, split a countback tie. False
    # (the real F1 tables): a tie on points and the whole countback shares the position.
    latest_result_tiebreak: bool = True


@dataclass(frozen=True)
class RaceLine:
    """One car's result in one round. ``position`` is the classified place (None if not
    classified); ``drivers`` more than one for a shared drive; ``team`` the
    (constructor, engine) key of the constructors' table."""

    round: int
    drivers: tuple[str, ...]
    team: tuple[str, str]
    position: int | None
    pole: bool = False
    fastest_lap: bool = False


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


def car_points(line: RaceLine, scoring: Scoring) -> Decimal:
    """The points one car scores in its round (S-3)."""
    points = ZERO
    if line.position is not None and 1 <= line.position <= len(scoring.table):
        points += scoring.table[line.position - 1]
    if line.pole:
        points += scoring.pole
    if line.fastest_lap and (
        scoring.fastest_lap_top is None
        or (line.position is not None and line.position <= scoring.fastest_lap_top)
    ):
        points += scoring.fastest_lap
    return points


def _count(line: Line, position: int | None, round_number: int) -> None:
    if position is not None:
        while len(line.countback) < position:
            line.countback.append(0)
        line.countback[position - 1] += 1
    best = line.places.get(round_number)
    if position is not None and (best is None or position < best):
        line.places[round_number] = position
    else:
        line.places.setdefault(round_number, best)


def _best(scores: dict[int, Decimal], best_n: int | None) -> Decimal:
    values = sorted(scores.values(), reverse=True)
    return sum(values if best_n is None else values[:best_n], ZERO)


def drivers_table(results: Iterable[RaceLine], scoring: Scoring) -> list[Line]:
    """The drivers' standings after every round given (S-4)."""
    lines: dict[str, Line] = {}
    scores: dict[str, dict[int, Decimal]] = {}
    for result in results:
        points = car_points(result, scoring)
        if len(result.drivers) > 1:
            points = points / len(result.drivers) if scoring.split_shared_drives else ZERO
        for driver in result.drivers:
            line = lines.setdefault(driver, Line(driver))
            per_round = scores.setdefault(driver, {})
            per_round[result.round] = per_round.get(result.round, ZERO) + points
            _count(line, result.position, result.round)
    for driver, line in lines.items():
        line.points = _best(scores[driver], scoring.best_results)
    return ranked(
        lines.values(), latest=scoring.latest_result_tiebreak, scoring_places=len(scoring.table)
    )


def constructors_table(results: Iterable[RaceLine], scoring: Scoring) -> list[Line]:
    """The constructors' standings: both cars summed, per constructor and engine (S-5)."""
    lines: dict[tuple[str, str], Line] = {}
    scores: dict[tuple[str, str], dict[int, Decimal]] = {}
    for result in results:
        line = lines.setdefault(result.team, Line(result.team))
        per_round = scores.setdefault(result.team, {})
        per_round[result.round] = per_round.get(result.round, ZERO) + car_points(result, scoring)
        _count(line, result.position, result.round)
    for team, line in lines.items():
        line.points = _best(scores[team], scoring.constructors_best_results)
    return ranked(
        lines.values(), latest=scoring.latest_result_tiebreak, scoring_places=len(scoring.table)
    )


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


def standings_by_round(
    results: Sequence[RaceLine], scoring: Scoring
) -> dict[int, tuple[list[Line], list[Line]]]:
    """The drivers' and constructors' tables after each round (rounds in order)."""
    rounds = sorted({result.round for result in results})
    out: dict[int, tuple[list[Line], list[Line]]] = {}
    for last in rounds:
        upto = [result for result in results if result.round <= last]
        out[last] = (drivers_table(upto, scoring), constructors_table(upto, scoring))
    return out
