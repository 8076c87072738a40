"""The test vectors of ludicitude.md §8 (track §3.2, closed, L = 2, F = 48), each with
scripted dice through the race's own turn."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.dice import ScriptedDice, ScriptExhausted
from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.orders import LudicitudeSettings
from engine.rulesets.ludicitude.outcome import (
    BRAKE_LOST,
    ELIMINATION,
    FINISHED,
    RECOVERY,
    CarEntry,
    RaceInputs,
)
from engine.rulesets.ludicitude.policy import PROBABILITY, choose_speed, scores, utility
from engine.rulesets.ludicitude.race import FINISHES, GOES_ON, OUT
from engine.rulesets.ludicitude.rules import resolve_move, speed_options
from tests.engine.ludicitude.kit import F, SameFaces, ring, turn

NORMAL = Fraction(1)


def test_l1_speed_5_rolling_2_2_4_5_6_moves_3_cards() -> None:
    t = turn(0, 9, 5, [2, 2, 4, 5, 6])
    assert t.moved == 3
    assert (t.move.position, t.move.penalty) == (3, 0)
    assert t.code == GOES_ON


def test_l2_penalties_on_max4_max2_max3_and_no_gain_passing_over_brake_card() -> None:
    t = turn(2, 9, 5, [1, 3, 4, 2, 6])
    assert t.moved == 4
    assert t.move.losses == ((4, 2), (6, 1))
    assert (t.move.penalty, t.move.brake, t.move.position, t.move.gained) == (3, 6, 6, 0)
    assert [e[:4] for e in t.events if e[0] == BRAKE_LOST] == [
        (BRAKE_LOST, 4, 4, 2),
        (BRAKE_LOST, 6, 6, 1),
    ]
    assert not any(e[0] == RECOVERY for e in t.events)


def test_l3_penalty_then_recovery_when_the_move_ends_on_brake_card() -> None:
    t = turn(2, 5, 3, [1, 1, 4])
    assert t.moved == 3
    assert t.move.losses == ((4, 1),)
    assert (t.move.brake, t.move.position, t.move.gained) == (7, 5, 3)
    assert (RECOVERY, 5, 5, 3, 7) in t.events


def test_l4_moving_one_card_onto_min3_costs_two() -> None:
    t = turn(7, 6, 2, [3, 5])
    assert t.moved == 1
    assert t.move.losses == ((8, 2),)
    assert (t.move.brake, t.move.position) == (4, 8)


def test_l5_six_cards_through_the_chicane_eliminates_with_brake_0() -> None:
    t = turn(15, 9, 6, [1, 2, 3, 4, 4, 2])
    assert t.moved == 6
    assert t.move.losses == ((16, 2), (19, 3), (20, 4))
    assert t.move.penalty == 9
    assert t.move.brake == 0
    assert t.code == OUT
    assert t.move.eliminated_at == 20
    assert t.events[-1] == (ELIMINATION, 20, 20, 9, 0)


def test_l5b_one_card_onto_min2_max4_costs_one() -> None:
    t = turn(15, 5, 2, [1, 6])
    assert t.moved == 1
    assert t.move.losses == ((16, 1),)
    assert (t.move.brake, t.move.position) == (4, 16)


def test_l6_elimination_comes_before_the_recovery_of_the_card_stopped_on() -> None:
    t = turn(2, 1, 4, [1, 2, 3, 6])
    assert t.moved == 3
    assert t.move.penalty == 1
    assert t.move.brake == 0
    assert t.code == OUT
    assert t.move.gained == 0
    assert t.move.eliminated_at == 4
    assert not any(e[0] == RECOVERY for e in t.events)


@pytest.mark.parametrize(
    ("speed", "brake", "options"),
    [
        (3, 4, ((1, 1), (2, 0), (3, 0), (4, 0), (5, 1))),
        (3, 1, ((2, 0), (3, 0), (4, 0))),
        (6, 9, ((4, 1), (5, 0), (6, 0))),
        (1, 9, ((1, 0), (2, 0), (3, 1))),
    ],
)
def test_l7_speed_options_and_their_brake_cost(
    speed: int, brake: int, options: tuple[tuple[int, int], ...]
) -> None:
    assert speed_options(speed, brake) == options


def test_l8_crossing_the_line_finishes_without_counting_f_nor_recovering() -> None:
    t = turn(46, 5, 4, [1, 4, 4, 6])
    assert t.moved == 3
    assert t.move.losses == ()
    assert t.move.finished
    assert (t.move.brake, t.move.gained, t.move.position) == (5, 0, F)
    assert t.code == FINISHES


def test_l8_cards_beyond_the_line_do_not_count() -> None:
    # q = 47 .. 52: only 47 is before F; q = 51 would be card 3 (MAX4), 2 over at m = 6.
    t = turn(46, 5, 6, [1, 1, 1, 1, 1, 1])
    assert t.moved == 6
    assert t.move.losses == ()
    assert (t.code, t.move.brake) == (FINISHES, 5)


def test_l8_a_car_finishing_later_in_the_same_round_ranks_behind() -> None:
    # Every die shows 1: both cars move alike and finish in the same round; the car that
    # plays first in round 1 (reverse standings: the lower-ranked) keeps playing first on
    # ties (LU-2) and crosses first (LU-7).
    inputs = RaceInputs(
        ring(),
        (CarEntry("leader", standing=1), CarEntry("chaser", standing=2)),
        LudicitudeSettings(first_round_order="reverse_standings"),
    )
    out = simulate(inputs, SameFaces(1), 0)
    assert out.start_order == ("chaser", "leader")
    a, b = out.results
    assert (a.car, a.status, a.rank) == ("chaser", FINISHED, 1)
    assert (b.car, b.status, b.rank) == ("leader", FINISHED, 2)
    assert a.rounds == b.rounds


def test_l9_no_move_no_penalty_no_gain_but_a_new_speed() -> None:
    t = turn(10, 6, 2, [5, 6])
    assert t.moved == 0
    assert (t.move.position, t.move.brake, t.move.penalty, t.move.gained) == (10, 6, 0, 0)
    assert t.code == GOES_ON
    assert t.position == 10
    expected = choose_speed(ring(), position=10, brake=6, speed=2, weight=NORMAL, finish=F)
    assert t.next_speed == expected


def _scores(position: int, brake: int, speed: int) -> dict[int, Fraction]:
    return scores(ring(), position=position, brake=brake, speed=speed, weight=NORMAL, finish=F)


def test_l10_policy_keeps_speed_4_at_p2_brake_6() -> None:
    assert _scores(2, 6, 4) == {
        2: Fraction(1, 3),
        3: Fraction(70, 27),
        4: Fraction(232, 81),
        5: Fraction(-2630, 243),
        6: Fraction(-24901, 729),
    }
    assert choose_speed(ring(), position=2, brake=6, speed=4, weight=NORMAL, finish=F) == 4


def test_l10_p_elim_at_speed_5_is_32_over_243() -> None:
    # From brake 5 (6 less the point of a change of 2) only m = 5 eliminates: 3 + 2 on the
    # MAX2 and MAX3 cards.
    out = [
        m
        for m in range(6)
        if resolve_move(ring(), position=2, brake=5, moved=m, finish=F).eliminated
    ]
    assert sum(PROBABILITY[5][m] for m in out) == Fraction(32, 243)


def test_l11_policy_keeps_speed_3_at_p12_brake_4() -> None:
    assert _scores(12, 4, 3) == {
        1: Fraction(-1, 3),
        2: Fraction(4, 3),
        3: Fraction(46, 27),
        4: Fraction(136, 81),
        5: Fraction(-11081, 243),
    }
    assert choose_speed(ring(), position=12, brake=4, speed=3, weight=NORMAL, finish=F) == 3


def test_l11_utilities_of_speed_3() -> None:
    u = [
        utility(
            resolve_move(ring(), position=12, brake=4, moved=m, finish=F),
            position=12,
            brake=4,
            finish=F,
            weight=NORMAL,
        )
        for m in range(4)
    ]
    assert u == [0, 1, 2, 2]
    assert PROBABILITY[3] == tuple(Fraction(k, 27) for k in (1, 6, 12, 8))


def test_l12_policy_speeds_up_to_5_before_the_min_cards() -> None:
    assert _scores(7, 6, 3) == {
        1: Fraction(-5, 3),
        2: Fraction(-8, 9),
        3: Fraction(-2, 27),
        4: Fraction(16, 9),
        5: Fraction(185, 81),
    }
    assert choose_speed(ring(), position=7, brake=6, speed=3, weight=NORMAL, finish=F) == 5
    # The race's own turn takes the same decision (and pays the point of a change of 2).
    t = turn(6, 6, 3, [5, 6, 1])
    assert (t.moved, t.move.position, t.move.brake) == (1, 7, 6)
    assert (t.next_speed, t.brake) == (5, 5)


def test_scripted_dice_that_run_out_fail_loudly() -> None:
    inputs = RaceInputs(ring(), (CarEntry("solo"),))
    with pytest.raises(ScriptExhausted, match="LU-3"):
        simulate(inputs, ScriptedDice([1, 1, 1]), 0)
