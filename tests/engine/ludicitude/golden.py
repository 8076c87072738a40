"""Golden Ludicitude races: fixed inputs and seed, expected outcome (STYLE.md §8).

A file (``tests/engine/golden/ludicitude/<case>.json``) holds the inputs (the track as its
§3.1 document, the cars and their orders, the settings), the seed and the expected outcome:
results and events one per line, the number of dice and the sha256 of the dice log.
Regenerate with ``python -m tests.engine.ludicitude.golden [CASE ...]`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.codec import INPUTS
from engine.rulesets.ludicitude.orders import LudicitudeSettings
from engine.rulesets.ludicitude.outcome import RaceInputs, RaceOutcome
from engine.rulesets.ludicitude.playtest import playtest_field
from engine.rulesets.ludicitude.track import load_track
from tests.engine.golden_io import render
from tests.engine.ludicitude.kit import TRACKS

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "ludicitude"
SEED = 20240601

#: case -> (track file, settings)
CASES: dict[str, tuple[str, LudicitudeSettings]] = {
    "anneau-exemple": ("anneau-exemple.yaml", LudicitudeSettings()),
    "lacets": ("lacets.yaml", LudicitudeSettings(first_round_order="reverse_standings")),
}


def case_inputs(case: str) -> RaceInputs:
    """The inputs of a case from the shipped track: 12 cars, safe/normal/aggressive in turn,
    standings 12 .. 1 for the reverse-standings case."""
    track_file, settings = CASES[case]
    track = load_track(TRACKS / track_file).track
    field = tuple(
        dataclasses.replace(c, standing=12 - i) for i, c in enumerate(playtest_field(12, "mixed"))
    )
    return RaceInputs(track, field, settings)


def inputs_to_dict(inputs: RaceInputs) -> dict[str, Any]:
    """The ruleset's own inputs codec (the one serialiser)."""
    return INPUTS.to_data(inputs)


def inputs_from_dict(data: dict[str, Any]) -> RaceInputs:
    return INPUTS.from_data(data)


def dice_sha256(outcome: RaceOutcome) -> str:
    text = json.dumps([[r, c, list(f)] for r, c, f in outcome.dice], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def expected_lines(outcome: RaceOutcome) -> dict[str, Any]:
    """The outcome as comparable, line-per-item data."""
    return {
        "rounds": outcome.rounds,
        "finish": outcome.finish,
        "start_order": list(outcome.start_order),
        "dice_count": outcome.dice_count,
        "dice_sha256": dice_sha256(outcome),
        "results": [
            {**dataclasses.asdict(r), "speeds": "".join(map(str, r.speeds))}
            for r in outcome.results
        ],
        "events": [e._asdict() for e in outcome.events],
    }


def golden_path(case: str) -> Path:
    return GOLDEN_DIR / f"{case}.json"


def golden_document(inputs: RaceInputs, outcome: RaceOutcome) -> str:
    doc = {"ruleset": "ludicitude", "seed": SEED, "expected": expected_lines(outcome)}
    return render({**doc, "inputs": inputs_to_dict(inputs)}) + "\n"


def load(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(case).read_text(encoding="utf-8"))
    return data


def main(argv: list[str]) -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for case in argv or sorted(CASES):
        inputs = case_inputs(case)
        golden_path(case).write_text(
            golden_document(inputs, simulate(inputs, None, SEED)), encoding="utf-8"
        )
        print(f"wrote {golden_path(case)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
