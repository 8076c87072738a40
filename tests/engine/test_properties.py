"""Properties every ruleset keeps, on small random courses and fields (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given

from engine import RULESETS, simulate
from engine.outcome import StageInputs
from tests.engine.strategies import ALL_TYPES, PROPERTY, seeds, stage_inputs

#: Stage rulesets only; the motor rulesets keep their own properties (tests/engine/grandprix/).
each_ruleset = pytest.mark.parametrize(
    "ruleset", sorted(name for name, r in RULESETS.items() if r.discipline == "cycling")
)


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_same_inputs_and_seed_give_the_same_outcome(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    first = simulate(ruleset, inputs, seed)
    again = simulate(ruleset, inputs, seed)
    assert first == again
    assert first.dice.rows == again.dice.rows


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_every_entrant_appears_exactly_once_in_rank_order(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    assert sorted(r.rider_id for r in out.results) == sorted(e.rider_id for e in inputs.entrants)
    assert [r.rank for r in out.results] == list(range(1, len(inputs.entrants) + 1))


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_gaps_are_non_negative_and_grow_with_rank(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    gaps = [r.gap_seconds for r in out.results]
    assert gaps[0] == 0
    assert gaps == sorted(gaps)
    groups = [r.final_group for r in out.results]
    assert groups[0] == 0
    assert groups == sorted(groups)
    assert all(r.squares_behind >= 0 for r in out.results)


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_summits_and_sprints_list_every_rider_once(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    ids = sorted(e.rider_id for e in inputs.entrants)
    for event in out.events:
        if event.kind in ("summit", "intermediate_sprint"):
            assert sorted(event.rider_ids) == ids
