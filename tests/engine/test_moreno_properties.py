"""A property of the Moréno engine itself (hypothesis); those of every ruleset are in
test_properties.py."""

from __future__ import annotations

from hypothesis import given

from engine.cycling.inputs import StageInputs
from engine.dice import RandomDice
from engine.rulesets.moreno import new_race
from engine.rulesets.moreno.stage import Lines, end_of_turn, play_turn, start_grid
from tests.engine.strategies import PROPERTY, seeds, stage_inputs


@PROPERTY
@given(stage_inputs(ruleset="moreno"), seeds)
def test_nobody_moves_backwards_during_a_stage(inputs: StageInputs, seed: int) -> None:
    race = new_race(inputs, RandomDice(seed))
    start_grid(race)
    lines = Lines(race)
    order = race.race_order()
    while race.turn < 200:
        before = list(race.pos)
        play_turn(race, order)
        order = end_of_turn(race, lines)
        assert all(a >= b for a, b in zip(race.pos, before, strict=True))
        if race.pos[order[0]] >= race.N:
            break
