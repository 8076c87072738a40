"""Whole stages against their golden files (regenerate: python -m tests.engine.regen_golden)."""

from __future__ import annotations

import difflib
import json

import pytest

from tests.engine.golden_io import CASES, build_case, expected_lines, inputs_from_dict, load


def _lines(items: list[object]) -> list[str]:
    return [json.dumps(item, ensure_ascii=False) for item in items]


@pytest.mark.parametrize("case", sorted(CASES))
def test_stage_matches_its_golden_file(case: str) -> None:
    stored = load(case)
    assert len(stored["inputs"]["entrants"]) == 176
    ruleset = stored["ruleset"]
    _, _, outcome = build_case(case, inputs_from_dict(ruleset, stored["inputs"]))
    assert outcome.seed == stored["seed"]
    got = expected_lines(outcome)
    want = stored["expected"]
    problems = []
    for key in ("results", "events"):
        if got[key] != want[key]:
            diff = difflib.unified_diff(
                _lines(want[key]), _lines(got[key]), f"golden {key}", f"engine {key}", lineterm=""
            )
            problems.append("\n".join(list(diff)[:60]))
    if got.get("carried") != want.get("carried"):
        problems.append("carried: the state carried to the next stage differs")
    for key in ("turns", "n_cases", "dice_count", "dice_sha256"):
        if got[key] != want[key]:
            problems.append(f"{key}: golden {want[key]!r}, engine {got[key]!r}")
    if problems:
        pytest.fail(
            f"{case} differs from its golden file (if the change is intended, run "
            f"`python -m tests.engine.regen_golden {case}` and review the diff):\n"
            + "\n".join(problems),
            pytrace=False,
        )
