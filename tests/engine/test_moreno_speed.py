"""The Moréno engine's fast paths give what the plain ones give (docs/engine.md, "Speed")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cycling.course import board_from_cases
from engine.cycling.inputs import Entrant
from engine.cycling.outcome import Outcome
from engine.cycling.profile import Profile
from engine.dice import D6, DDESC, DPOKER, DT, Face, RandomDice, ScriptedDice
from engine.rulesets.moreno.settings import MorenoRider
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.tables import (
    CLIMB_MOVES,
    D6_POKER,
    MAX_CLIMB,
    POKER_PAIR,
    POKER_VALUES,
    climb_move,
    is_max_climb,
)

BOARD = board_from_cases([("plain", 20)])


def _entrants(n: int, rouleur: int = 0) -> tuple[Entrant, ...]:
    return tuple(
        Entrant(rider_id=i + 1, team_id=1, bib=i + 1, profile=Profile(rouleur=rouleur))
        for i in range(n)
    )


@pytest.mark.parametrize(("d1", "d2"), [(DT, DT), (D6, DPOKER), (DPOKER, DPOKER), (D6, D6)])
def test_a_pair_is_two_seeded_rolls_in_order_and_logged_as_two(d1: object, d2: object) -> None:
    race = Race(BOARD, _entrants(1), dice=RandomDice(5))
    reference = random.Random(5)
    for _ in range(300):
        code = race.roll2(d1, d2, 0, "R-x")  # type: ignore[arg-type]
        i1 = reference.randrange(len(d1.faces))  # type: ignore[attr-defined]
        i2 = reference.randrange(len(d2.faces))  # type: ignore[attr-defined]
        assert code == i1 * len(d2.faces) + i2  # type: ignore[attr-defined]
    assert len(race.log) == 600


def test_three_descent_dice_are_three_seeded_rolls() -> None:
    race = Race(BOARD, _entrants(1), dice=RandomDice(8))
    reference = random.Random(8)
    for _ in range(300):
        i1, i2, i3 = (reference.randrange(6) for _ in range(3))
        assert race.roll3(DDESC, 0, "R-D1") == (i1 * 6 + i2) * 6 + i3
    assert len(race.log) == 900


def test_pairs_from_scripted_dice_log_the_same_rows_as_single_rolls() -> None:
    faces: list[Face] = ["T", 6, 3, "K", "A", "A", 2, 5, "T", "G", 4]
    paired = Race(BOARD, _entrants(1), dice=ScriptedDice(faces))
    single = Race(BOARD, _entrants(1), dice=ScriptedDice(faces))
    codes = [
        paired.roll2(DT, DT, 0, "R-C1"),
        paired.roll2(D6, DPOKER, 0, "R-S2"),
        paired.roll2(DPOKER, DPOKER, 0, "R-P20.1"),
        paired.roll2(D6, D6, 0, "R-P20.17"),
        paired.roll3(DDESC, 0, "R-D1"),
    ]
    rolls = [
        (DT, "R-C1"),
        (DT, "R-C1"),
        (D6, "R-S2"),
        (DPOKER, "R-S2"),
        (DPOKER, "R-P20.1"),
        (DPOKER, "R-P20.1"),
        (D6, "R-P20.17"),
        (D6, "R-P20.17"),
    ]
    index = [single.roll(die, 0, rule) for die, rule in rolls]
    index += [single.roll(DDESC, 0, "R-D1") for _ in range(3)]
    assert paired.log == single.log
    assert codes == [
        index[0] * 6 + index[1],
        index[2] * 6 + index[3],
        index[4] * 6 + index[5],
        index[6] * 6 + index[7],
        (index[8] * 6 + index[9]) * 6 + index[10],
    ]


def test_the_pair_tables_are_the_formulas_of_the_spec() -> None:
    for rating in range(-1, 5):
        for i1 in range(6):
            for i2 in range(6):
                code = i1 * 6 + i2
                assert CLIMB_MOVES[rating + 1][code] == climb_move(i1, i2, rating)
                assert MAX_CLIMB[code] == is_max_climb(i1, i2)
                pv = POKER_VALUES[rating + 1]
                assert POKER_PAIR[rating + 1][code] == pv[i1] + pv[i2]
                assert D6_POKER[rating + 1][code] == i1 + 1 + pv[i2]


def test_races_on_the_same_entrants_share_their_tables_but_not_their_state() -> None:
    entrants = _entrants(3)
    first = Race(BOARD, entrants, dice=RandomDice(1))
    second = Race(BOARD, entrants, dice=RandomDice(1), extras=[MorenoRider(no_breakaway=True)] * 3)
    assert second.rouleur is first.rouleur
    assert second.pos is not first.pos
    assert second.cases is not first.cases
    assert first.no_breakaway == [False] * 3
    assert second.no_breakaway == [True] * 3
    other = Race(BOARD, _entrants(3, rouleur=2), dice=RandomDice(1))
    assert other.rouleur == [2, 2, 2]
    assert first.rouleur == [0, 0, 0]
    assert other.rv != first.rv


def test_a_race_on_a_kept_board_and_field_has_the_outcome_of_a_fresh_one() -> None:
    import engine.rulesets.moreno as moreno
    from engine import simulate
    from engine.cycling.inputs import StageInputs
    from engine.rulesets.moreno import state
    from tests.engine.factory import flat_course, mountain_course, peloton

    def fresh(inputs: StageInputs[Any, Any], seed: int) -> Outcome:
        state._last_layout = state._last_field = moreno._last_board = None
        return simulate("moreno", inputs, seed)

    flat: StageInputs[Any, Any] = StageInputs(flat_course(), peloton())
    mountain: StageInputs[Any, Any] = StageInputs(mountain_course(), peloton(n_teams=5))
    want = {"flat": fresh(flat, 11), "mountain": fresh(mountain, 12)}
    for name, inputs, seed in [("flat", flat, 11), ("mountain", mountain, 12)] * 2:
        assert simulate("moreno", inputs, seed) == want[name], name  # after the other
        assert simulate("moreno", inputs, seed) == want[name], name  # on kept tables
