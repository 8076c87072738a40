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
from dataclasses import dataclass
from decimal import Decimal

from plugins.countback import Line, place_count, ranked

__all__ = ["Line", "RaceLine", "Scoring", "ranked"]

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
            place_count(line, result.position, result.round)
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
        place_count(line, result.position, result.round)
    for team, line in lines.items():
        line.points = _best(scores[team], scoring.constructors_best_results)
    return ranked(
        lines.values(), latest=scoring.latest_result_tiebreak, scoring_places=len(scoring.table)
    )


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
