"""The risk levels of the default driver (§7.2 and the engine's [D] GREEN_BIAS): the choice of
an end square, then the behaviour over many seeds (issue 13's goals)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rulesets.grandprix import GrandPrixInputs, simulate
from engine.rulesets.grandprix.board import board_for
from engine.rulesets.grandprix.orders import CarOrders
from engine.rulesets.grandprix.policy import GREEN_BIAS
from engine.rulesets.grandprix.race import FINISHED, RETIRED
from engine.rulesets.grandprix.search import Context, best_move
from tests.engine.grandprix.kit import FIELD, GV, TRACKS


def _end(risk: str, m: int) -> str:
    """Where a car on GV's A10 ends a move of ``m`` in gear 1 (no car near, no corner)."""
    board = board_for(GV)
    ctx = Context(0, False, 2, False, -1, 2, GREEN_BIAS[risk])
    move = best_move(board, board.square("A10"), 0, 1, (m,), ctx)
    return board.names[move.end]


def test_normal_takes_p5_as_written_the_straight_line() -> None:
    # 3 steps ahead: A13 (odd index, no draw, T-6); 2 steps: A12 (green).
    assert _end("normal", 3) == "A13"
    assert _end("normal", 2) == "A12"


def test_aggressive_ends_on_green_for_one_half_square_less() -> None:
    # One diag instead of an ahead step: B12, D one half-square short of A13, but green.
    assert _end("aggressive", 3) == "B12"
    assert _end("aggressive", 2) == "A12"  # already green: the straight line stays


def test_safe_avoids_green_for_one_half_square() -> None:
    assert _end("safe", 2) == "B11"  # instead of green A12
    assert _end("safe", 3) == "A13"


def _mixed_field(races: int) -> Counter[tuple[str, str]]:
    """Teams alternately aggressive and safe (then swapped), on every shipped track."""
    count: Counter[tuple[str, str]] = Counter()
    for track in TRACKS:
        for swap in (0, 1):
            orders = {
                c.car_id: CarOrders(
                    c.car_id, risk="aggressive" if (i // 2 + swap) % 2 == 0 else "safe"
                )
                for i, c in enumerate(FIELD)
            }
            inputs = GrandPrixInputs(track, FIELD, orders)
            for seed in range(races):
                for r in simulate(inputs, 1000 * swap + seed).results:
                    risk = orders[r.car].risk
                    count[risk, "cars"] += 1
                    count[risk, r.status] += 1
                    if r.rank == 1 and r.status == FINISHED:
                        count[risk, "wins"] += 1
    return count


@pytest.mark.parametrize("races", [12])
def test_aggressive_retires_more_and_wins_more_of_the_races_it_finishes(races: int) -> None:
    """Issue 13: over many seeds with the default driver, ``aggressive`` retires more cars
    than ``safe`` and wins more of the races it finishes (figures in docs/grandprix.md)."""
    c = _mixed_field(races)
    retired = {r: c[r, RETIRED] / c[r, "cars"] for r in ("aggressive", "safe")}
    per_finish = {r: c[r, "wins"] / c[r, FINISHED] for r in ("aggressive", "safe")}
    assert retired["aggressive"] > retired["safe"] + 0.1
    assert per_finish["aggressive"] > per_finish["safe"]
