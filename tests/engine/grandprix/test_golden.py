"""Whole Grand Prix events against their golden files (regenerate:
``python -m tests.engine.grandprix.golden [CASE ...]`` and review the diff)."""

from __future__ import annotations

import difflib
import json

import pytest

from engine.rulesets.grandprix import simulate
from tests.engine.grandprix.golden import (
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
def test_event_matches_its_golden_file(case: str) -> None:
    stored = load(case)
    inputs = inputs_from_dict(stored["inputs"])
    assert len(inputs.cars) == 12
    # The stored inputs are still those of the shipped track and the case (an edit shows here).
    assert stored["inputs"] == json.loads(json.dumps(inputs_to_dict(*case_inputs(case))))
    got = expected_lines(simulate(inputs, stored["seed"]))
    want = stored["expected"]
    problems = []
    for key in ("results", "events"):
        if got[key] != want[key]:
            diff = difflib.unified_diff(
                _lines(want[key]), _lines(got[key]), f"golden {key}", f"engine {key}", lineterm=""
            )
            problems.append("\n".join(list(diff)[:60]))
    for key in ("version", "rounds", "car_turns", "log_count", "log_sha256"):
        if got[key] != want[key]:
            problems.append(f"{key}: golden {want[key]!r}, engine {got[key]!r}")
    if problems:
        pytest.fail(
            f"{case} differs from its golden file (if the change is intended, run "
            f"`python -m tests.engine.grandprix.golden {case}` and review the diff):\n"
            + "\n".join(problems),
            pytrace=False,
        )


def test_golden_events_cover_the_rules() -> None:
    """The stored events are not trivial: qualifying, exits, incidents, pits, finishes and
    retirements all appear across the cases (otherwise a rule change could go unseen)."""
    kinds: set[str] = set()
    statuses: set[str] = set()
    for case in CASES:
        expected = load(case)["expected"]
        kinds.update(e["kind"] for e in expected["events"])
        statuses.update(r["status"] for r in expected["results"])
    assert {"qualifying", "start", "track_exit", "incident", "pit_stop", "finish"} <= kinds
    assert {"retired", "finished"} <= statuses
