"""A property of the Cyclo Sim engine itself (hypothesis); those of every ruleset are in
test_properties.py."""

from __future__ import annotations

from hypothesis import given

from engine.cycling.inputs import StageInputs
from engine.dice import RandomDice
from engine.rulesets.cyclosim import new_race
from engine.rulesets.cyclosim.sheet import FINISHED, OUT
from engine.rulesets.cyclosim.stage import play_turn, start_grid
from tests.engine.strategies import PROPERTY, seeds, stage_inputs


@PROPERTY
@given(stage_inputs(ruleset="cyclosim"), seeds)
def test_nobody_moves_backwards_during_a_stage(inputs: StageInputs, seed: int) -> None:
    race = new_race(inputs, RandomDice(seed))
    start_grid(race)
    while race.turn < 300 and not all(s == FINISHED for s in race.status):
        before = list(race.pos)
        was_out = [s == OUT for s in race.status]
        play_turn(race)
        for r, (a, b) in enumerate(zip(race.pos, before, strict=True)):
            # R-RL: a relay swaps a leader back into his follower's cell (<= 3 rows); R-X3: a
            # crashed rider comes back on his crash row or behind it.
            assert a >= b or was_out[r] or (race.relayed[r] == race.turn and b - a <= 3)
