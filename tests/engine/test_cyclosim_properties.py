"""Properties of any Cyclo Sim stage, on small random courses and fields (hypothesis)."""

from __future__ import annotations

from hypothesis import given

from races.engine import simulate
from races.engine.dice import RandomDice
from races.engine.outcome import StageInputs
from races.engine.rulesets.cyclosim import new_race
from races.engine.rulesets.cyclosim.sheet import FINISHED, OUT
from races.engine.rulesets.cyclosim.stage import play_turn, start_grid
from tests.engine.test_moreno_properties import ALL_TYPES, PROPERTY, seeds, stage_inputs


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_same_inputs_and_seed_give_the_same_outcome(inputs: StageInputs, seed: int) -> None:
    first = simulate("cyclosim", inputs, seed)
    assert first == simulate("cyclosim", inputs, seed)


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_every_entrant_appears_exactly_once_in_rank_order(inputs: StageInputs, seed: int) -> None:
    out = simulate("cyclosim", inputs, seed)
    assert sorted(r.rider_id for r in out.results) == sorted(e.rider_id for e in inputs.entrants)
    assert [r.rank for r in out.results] == list(range(1, len(inputs.entrants) + 1))


@PROPERTY
@given(stage_inputs(ALL_TYPES), seeds)
def test_gaps_are_non_negative_and_grow_with_rank(inputs: StageInputs, seed: int) -> None:
    out = simulate("cyclosim", inputs, seed)
    gaps = [r.gap_seconds for r in out.results]
    assert gaps[0] == 0
    assert gaps == sorted(gaps)
    groups = [r.final_group for r in out.results]
    assert groups == sorted(groups)
    assert all(r.squares_behind >= 0 for r in out.results)


@PROPERTY
@given(stage_inputs(), seeds)
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
