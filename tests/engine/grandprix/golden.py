"""Golden Grand Prix events: fixed inputs and seed, expected outcome (STYLE.md §8).

A file (``tests/engine/golden/grandprix/<case>.json``) holds the inputs (the track as its §3.5
document, the cars with their orders, the settings, the laps), the seed and the expected
outcome: rounds and car-turns, the results and the events one per line, the number of log
rows (throws, pit throws, tie-throws, cards, draws, shuffles) and the sha256 of that log.
Regenerate with ``python -m tests.engine.grandprix.golden [CASE ...]`` and review the diff: a
rule or policy change shows there.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.motor import CarEntry, DataDocument, load_document
from engine.rulesets.grandprix import GrandPrixInputs, simulate
from engine.rulesets.grandprix.orders import CarOrders, orders_from_dict, orders_to_dict
from engine.rulesets.grandprix.outcome import GrandPrixOutcome, outcome_to_json
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.track import load_track
from tests.engine.golden_io import render
from tests.engine.grandprix.kit import FIELD, TRACKS_DIR

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "grandprix"
SEED = 20240601
RISKS = ("safe", "normal", "aggressive")

#: case -> (track file, settings, extra orders by car)
CASES: dict[str, tuple[str, GrandPrixSettings, dict[str, dict[str, Any]]]] = {
    # The spec's own track, every default setting.
    "gilles-villeneuve": ("gilles-villeneuve.yaml", GrandPrixSettings(), {}),
    # Monaco with the other orders (§7.1) and the printed speed-card variant.
    "monaco": (
        "monaco.yaml",
        GrandPrixSettings(speed_card_mode="printed"),
        {
            "car1": {"quali_risk": "aggressive"},
            "car2": {"max_gear": 3},
            "car3": {"card_min_gear": 3},  # the defaults are 2 and lap2_insurance (version 4)
            "car4": {"pit_strategy": "required_only"},
            "car5": {"mode": "interactive"},
        },
    ),
    # Monza where a track exit retires the car (GP-7.5).
    "monza-retire": ("monza.yaml", GrandPrixSettings(track_exit_mode="retire"), {}),
}


def case_inputs(case: str) -> tuple[dict[str, Any], GrandPrixInputs]:
    """The track document and the inputs of a case: the 12 cars of the playtest field, risks
    safe / normal / aggressive in turn, the case's extra orders."""
    track_file, settings, extra = CASES[case]
    doc = load_document(TRACKS_DIR / track_file)
    orders = {
        c.car_id: orders_from_dict({"risk": RISKS[i % 3], **extra.get(c.car_id, {})}, c.car_id)
        for i, c in enumerate(FIELD)
    }
    return doc.data, GrandPrixInputs(load_track(doc), FIELD, orders, settings)


def inputs_to_dict(track_data: dict[str, Any], inputs: GrandPrixInputs) -> dict[str, Any]:
    settings = dataclasses.asdict(inputs.settings)
    settings["points_table"] = list(settings["points_table"])
    return {
        "track": track_data,
        "cars": [
            {
                "car": c.car_id,
                "driver": c.driver,
                "team": c.team,
                "orders": orders_to_dict(inputs.orders.get(c.car_id) or CarOrders(c.car_id)),
            }
            for c in inputs.cars
        ],
        "settings": settings,
        "laps": inputs.laps,
    }


def inputs_from_dict(data: dict[str, Any]) -> GrandPrixInputs:
    track = load_track(DataDocument("golden", data["track"], {}))
    cars = tuple(CarEntry(c["car"], c["driver"], c["team"]) for c in data["cars"])
    orders = {c["car"]: orders_from_dict(c["orders"], c["car"]) for c in data["cars"]}
    settings = dict(data["settings"])
    settings["points_table"] = tuple(settings["points_table"])
    return GrandPrixInputs(track, cars, orders, GrandPrixSettings(**settings), laps=data["laps"])


def log_sha256(dice: list[dict[str, Any]]) -> str:
    text = json.dumps(dice, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def expected_lines(outcome: GrandPrixOutcome) -> dict[str, Any]:
    """The outcome as comparable, line-per-item data."""
    doc = outcome_to_json(outcome)
    return {
        "version": outcome.version,
        "rounds": outcome.rounds,
        "car_turns": outcome.car_turns,
        "log_count": len(doc["dice"]),
        "log_sha256": log_sha256(doc["dice"]),
        "results": doc["results"],
        "events": doc["events"],
    }


def golden_path(case: str) -> Path:
    return GOLDEN_DIR / f"{case}.json"


def golden_document(track_data: dict[str, Any], inputs: GrandPrixInputs) -> str:
    outcome = simulate(inputs, SEED)
    doc = {"ruleset": "grandprix", "seed": SEED, "expected": expected_lines(outcome)}
    return render({**doc, "inputs": inputs_to_dict(track_data, inputs)}) + "\n"


def load(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(case).read_text(encoding="utf-8"))
    return data


def main(argv: list[str]) -> int:
    unknown = [c for c in argv if c not in CASES]
    if unknown:
        print(f"unknown case {unknown[0]!r}; known: {', '.join(CASES)}", file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for case in argv or sorted(CASES):
        track_data, inputs = case_inputs(case)
        golden_path(case).write_text(golden_document(track_data, inputs), encoding="utf-8")
        print(f"wrote {golden_path(case)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
