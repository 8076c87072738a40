"""Golden files of whole stages: fixed inputs and seed, expected outcome (STYLE.md §8).

A file holds the inputs (course, entrants, settings), the seed and the expected outcome:
results and events one per line, the number of dice rolls and the sha256 of the dice log.
Regenerate with ``python -m tests.engine.regen_golden`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from engine import simulate
from engine.course import Course, Segment
from engine.outcome import (
    CyclosimSettings,
    Entrant,
    MorenoSettings,
    Outcome,
    Profile,
    StageInputs,
)
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


def inputs_to_dict(inputs: StageInputs) -> dict[str, Any]:
    """The inputs as data; Cyclo Sim fields at their defaults are left out (Moréno files keep
    their shape)."""
    data = dataclasses.asdict(inputs)
    if data.get("cyclosim") is None:
        data.pop("cyclosim", None)
    for e in data["entrants"]:
        if e.get("orders") is None:
            e.pop("orders", None)
        if e.get("pe_consumed") == 0:
            e.pop("pe_consumed", None)
    return data


def inputs_from_dict(data: dict[str, Any]) -> StageInputs:
    c = data["course"]
    settings = dict(data["settings"])
    settings["abandon_table"] = tuple(tuple(row) for row in settings["abandon_table"])
    return StageInputs(
        course=Course(
            c["name"],
            c["stage_type"],
            c["distance_km"],
            tuple(Segment(**s) for s in c["segments"]),
            tuple(c["intermediate_sprints_km"]),
        ),
        entrants=tuple(
            Entrant(**{**e, "profile": Profile(**e["profile"])}) for e in data["entrants"]
        ),
        settings=MorenoSettings(**settings),
        yellow_jersey=data["yellow_jersey"],
        green_jersey=data["green_jersey"],
        cyclosim=CyclosimSettings(**data["cyclosim"]) if data.get("cyclosim") else None,
    )


def dice_sha256(outcome: Outcome) -> str:
    text = json.dumps([list(row) for row in outcome.dice.rows], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def expected_lines(outcome: Outcome) -> dict[str, Any]:
    """The outcome as comparable, line-per-item data."""
    return {
        "turns": outcome.turns,
        "n_cases": outcome.n_cases,
        "dice_count": len(outcome.dice),
        "dice_sha256": dice_sha256(outcome),
        "results": [
            {
                "rider": r.rider_id,
                "rank": r.rank,
                "case": r.final_case,
                "behind": r.squares_behind,
                "gap": r.gap_seconds,
                "status": r.status,
                "group": r.final_group,
                "reason": r.abandon_reason,
                "crashes": [[c.turn, c.case, c.severity] for c in r.crashes],
            }
            for r in outcome.results
        ],
        "events": [
            {
                "turn": e.turn,
                "kind": e.kind,
                "riders": list(e.rider_ids),
                "case": e.case,
                "detail": e.detail,
            }
            for e in outcome.events
        ],
    }


def render(data: dict[str, Any]) -> str:
    """JSON with one result / event / entrant per line, so that diffs read well."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, dict):
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


def build_case(case: str, inputs: StageInputs | None = None) -> tuple[str, StageInputs, Outcome]:
    ruleset, course = CASES[case]
    if inputs is None:
        inputs = StageInputs(course(), peloton())
    return ruleset, inputs, simulate(ruleset, inputs, SEED)


def golden_document(ruleset: str, inputs: StageInputs, outcome: Outcome) -> str:
    return (
        render(
            {
                "ruleset": ruleset,
                "seed": SEED,
                "expected": expected_lines(outcome),
                "inputs": inputs_to_dict(inputs),
            }
        )
        + "\n"
    )


def load(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(case).read_text(encoding="utf-8"))
    return data
