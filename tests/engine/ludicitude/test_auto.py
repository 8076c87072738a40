"""The default driver spends its brake by the finish (version 2, [D] ``BRAKE_HORIZON``): a
brake point is worth λ a lap or more from the finish, less in proportion nearer, nothing to a
move that finishes (docs/ludicitude.md, "auto against the best fixed orders"). Far from the
finish the scores are P-2's as written (the §8 vectors L10-L12 check them)."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.ludicitude.policy import (
    BRAKE_HORIZON,
    brake_worth,
    choose_speed,
    scores,
    utility,
)
from engine.rulesets.ludicitude.rules import resolve_move
from tests.engine.ludicitude.kit import F, ring

NORMAL = Fraction(1)


def test_a_brake_point_is_worth_lambda_a_lap_out_and_nothing_on_the_line() -> None:
    assert BRAKE_HORIZON == 24
    assert brake_worth(0, F) == brake_worth(F - 24, F) == 1
    assert brake_worth(F - 12, F) == Fraction(1, 2)
    assert brake_worth(F - 1, F) == Fraction(1, 24)
    assert brake_worth(F, F) == 0


def test_a_move_that_finishes_is_worth_its_cards_whatever_the_brake_it_costs() -> None:
    # p = 46, brake 5, speed 4 (L8): m = 3 finishes; the penalties would not count.
    move = resolve_move(ring(), position=46, brake=5, moved=3, finish=F)
    assert move.finished
    assert utility(move, position=46, brake=5, finish=F, weight=NORMAL) == 2


def test_eight_cards_out_the_car_pays_a_point_to_speed_up_from_2_to_4() -> None:
    # p = 40 (card 16, MIN2 MAX4), brake 6, speed 2: P-2 as written keeps speed 2 (a point
    # of brake worth a card); a third of a lap out the point is worth a third of it.
    assert brake_worth(40, F) == Fraction(1, 3)
    assert scores(ring(), position=40, brake=6, speed=2, weight=NORMAL, finish=F) == {
        1: Fraction(4, 3),
        2: Fraction(16, 9),
        3: Fraction(20, 9),
        4: Fraction(181, 81),
    }
    assert choose_speed(ring(), position=40, brake=6, speed=2, weight=NORMAL, finish=F) == 4
