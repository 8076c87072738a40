"""The Ludicitude inputs and outcome codecs: JSON and back, the same race."""

from __future__ import annotations

import json

import pytest

from engine import get_ruleset
from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.codec import INPUTS, OUTCOME
from tests.engine.ludicitude.golden import CASES, case_inputs


@pytest.mark.parametrize("case", sorted(CASES))
def test_inputs_and_outcome_go_to_json_and_back(case: str) -> None:
    inputs = case_inputs(case)
    again = INPUTS.from_data(json.loads(json.dumps(INPUTS.to_data(inputs))))
    assert again == inputs
    outcome = simulate(inputs, None, 11)
    stored = json.loads(json.dumps(OUTCOME.to_data(outcome)))
    assert OUTCOME.from_data(stored) == outcome
    assert list(OUTCOME.from_data(stored).events) == list(outcome.events)
    assert simulate(again, None, 11) == outcome


def test_the_registry_lists_the_codecs() -> None:
    ruleset = get_ruleset("ludicitude")
    assert ruleset.inputs is INPUTS
    assert ruleset.outcome is OUTCOME


def test_bad_stored_inputs_are_refused() -> None:
    data = INPUTS.to_data(case_inputs("lacets"))
    with pytest.raises(ValueError, match="format"):
        INPUTS.from_data({**data, "format": 9})
    cars = data["cars"]
    assert isinstance(cars, list)
    with pytest.raises(ValueError, match="field risk"):
        INPUTS.from_data({**data, "cars": [{**cars[0], "risk": "wild"}]})
