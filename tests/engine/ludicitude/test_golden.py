"""Whole Ludicitude races against their golden files (regenerate:
``python -m tests.engine.ludicitude.golden``)."""

from __future__ import annotations

import difflib
import json

import pytest

from engine.rulesets.ludicitude import simulate
from tests.engine.ludicitude.golden import (
    CASES,
    case_inputs,
    expected_lines,
    inputs_from_dict,
    inputs_to_dict,
    load,
)


def _lines(items: list[object]) -> list[str]:
    return [json.dumps(item, ensure_ascii=False) for item in items]


@pytest.mark.parametrize("case", sorted(CASES))
def test_race_matches_its_golden_file(case: str) -> None:
    stored = load(case)
    inputs = inputs_from_dict(stored["inputs"])
    assert len(inputs.cars) == 12
    # The stored inputs are still those of the shipped track (a track edit shows here).
    assert stored["inputs"] == json.loads(json.dumps(inputs_to_dict(case_inputs(case))))
    got = expected_lines(simulate(inputs, None, stored["seed"]))
    want = stored["expected"]
    problems = []
    for key in ("results", "events"):
        if got[key] != want[key]:
            diff = difflib.unified_diff(
                _lines(want[key]), _lines(got[key]), f"golden {key}", f"engine {key}", lineterm=""
            )
            problems.append("\n".join(list(diff)[:60]))
    for key in ("rounds", "finish", "start_order", "dice_count", "dice_sha256"):
        if got[key] != want[key]:
            problems.append(f"{key}: golden {want[key]!r}, engine {got[key]!r}")
    if problems:
        pytest.fail(
            f"{case} differs from its golden file (if the change is intended, run "
            f"`python -m tests.engine.ludicitude.golden {case}` and review the diff):\n"
            + "\n".join(problems),
            pytrace=False,
        )
