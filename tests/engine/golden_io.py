"""Golden files of whole stages: fixed inputs and seed, expected outcome (STYLE.md §8).

A file holds the inputs (course, entrants, settings), the seed and the expected outcome:
results and events one per line, the number of dice rolls and the sha256 of the dice log.
Regenerate with ``python -m tests.engine.regen_golden`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from engine import simulate
from engine.cycling.codec import outcome_to_data
from engine.cycling.inputs import StageInputs
from engine.cycling.outcome import Outcome
from engine.registry import cycling_ruleset
from tests.engine.factory import flat_course, itt_course, mountain_course, peloton

GOLDEN_DIR = Path(__file__).parent / "golden"
SEED = 20240601

#: case name -> (ruleset, course factory)
CASES = {
    "moreno/flat": ("moreno", flat_course),
    "moreno/mountain": ("moreno", mountain_course),
    "moreno/itt": ("moreno", itt_course),
    "cyclosim/flat": ("cyclosim", flat_course),
    "cyclosim/mountain": ("cyclosim", mountain_course),
    "cyclosim/itt": ("cyclosim", itt_course),
}


def golden_path(case: str) -> Path:
    return GOLDEN_DIR / f"{case}.json"


def inputs_to_dict(ruleset: str, inputs: StageInputs[Any, Any]) -> dict[str, Any]:
    """The inputs as data: the ruleset's one inputs serialiser."""
    codec = cycling_ruleset(ruleset).inputs
    assert codec is not None
    return codec.to_data(inputs)


def inputs_from_dict(ruleset: str, data: dict[str, Any]) -> StageInputs[Any, Any]:
    """The inverse of :func:`inputs_to_dict` (files of the old format too)."""
    codec = cycling_ruleset(ruleset).inputs
    assert codec is not None
    return codec.from_data(data)


def dice_sha256(outcome: Outcome) -> str:
    text = json.dumps([list(row) for row in outcome.dice.rows], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def expected_lines(outcome: Outcome) -> dict[str, Any]:
    """The outcome as comparable, line-per-item data: the outcome's one JSON form
    (engine.cycling.codec), its dice log as a count and a sha256."""
    data = outcome_to_data(outcome)
    expected = {
        "turns": data["turns"],
        "n_cases": data["n_cases"],
        "dice_count": len(outcome.dice),
        "dice_sha256": dice_sha256(outcome),
        "results": data["results"],
        "events": data["events"],
    }
    if data["carried"]:
        expected["carried"] = data["carried"]
    return expected


def _flat_dict(value: object) -> bool:
    return isinstance(value, dict) and not any(isinstance(v, dict | list) for v in value.values())


def render(data: dict[str, Any]) -> str:
    """JSON with one result / event / entrant per line, so that diffs read well."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, dict) and value and all(_flat_dict(v) for v in value.values()):
            lines.append(f"  {json.dumps(key)}: {{")
            for j, (k, item) in enumerate(value.items()):
                sep = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(k)}: {json.dumps(item, ensure_ascii=False)}{sep}")
            lines.append(f"  }}{comma}")
        elif isinstance(value, dict):
            lines.append(
                f"  {json.dumps(key)}: {render(value).replace(chr(10), chr(10) + '  ')}{comma}"
            )
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False)}{sep}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def build_case(
    case: str, inputs: StageInputs[Any, Any] | None = None
) -> tuple[str, StageInputs[Any, Any], Outcome]:
    ruleset, course = CASES[case]
    if inputs is None:
        inputs = StageInputs(course(), peloton())
    return ruleset, inputs, simulate(ruleset, inputs, SEED)


def golden_document(ruleset: str, inputs: StageInputs[Any, Any], outcome: Outcome) -> str:
    return (
        render(
            {
                "ruleset": ruleset,
                "seed": SEED,
                "expected": expected_lines(outcome),
                "inputs": inputs_to_dict(ruleset, inputs),
            }
        )
        + "\n"
    )


def load(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(case).read_text(encoding="utf-8"))
    return data
