"""The one serialiser of a Ludicitude race's inputs and outcome (JSON-ready data and back),
used by the golden files and by whatever stores a race to replay it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.outcome import JsonValue
from engine.rulesets.ludicitude.orders import orders_from_data, orders_to_data
from engine.rulesets.ludicitude.outcome import (
    CarEntry,
    CarResult,
    EventLog,
    PositionTrace,
    RaceInputs,
    RaceOutcome,
)
from engine.rulesets.ludicitude.specs import SETTINGS_CODEC
from engine.rulesets.ludicitude.track import track_from_data, track_to_data
from engine.spec import Codec

INPUTS_FORMAT = 1


def inputs_to_data(inputs: RaceInputs) -> dict[str, JsonValue]:
    """``{"format", "track": <§3.1 document>, "cars": [{car, mode, risk, max_speed,
    standing}], "settings": {...}}``."""
    return {
        "format": INPUTS_FORMAT,
        "track": track_to_data(inputs.track),
        "cars": [{**orders_to_data(c.car, c.orders), "standing": c.standing} for c in inputs.cars],
        "settings": SETTINGS_CODEC.to_data(inputs.settings),
    }


def inputs_from_data(data: Mapping[str, Any]) -> RaceInputs:
    """The inputs back; ValueError (a track, orders or settings error) on bad data."""
    if data.get("format") != INPUTS_FORMAT:
        raise ValueError(f"unknown Ludicitude inputs format {data.get('format')!r}")
    cars = []
    for item in data["cars"]:
        car, orders = orders_from_data({k: v for k, v in item.items() if k != "standing"})
        cars.append(CarEntry(car, orders, item.get("standing")))
    track = track_from_data(data["track"]).track
    return RaceInputs(track, tuple(cars), SETTINGS_CODEC.from_data(data.get("settings") or {}))


_RESULT_FIELDS = ("car", "rank", "status", "rounds", "position", "brake", "card", "reason")


def result_to_data(result: CarResult) -> dict[str, JsonValue]:
    """One car's result as :func:`outcome_to_data` gives it."""
    return {**{f: getattr(result, f) for f in _RESULT_FIELDS}, "speeds": list(result.speeds)}


def outcome_to_data(outcome: RaceOutcome) -> dict[str, JsonValue]:
    """The whole outcome: results, events (one row a turn that had any), dice log and the
    position trace (one row a round)."""
    return {
        "ruleset": outcome.ruleset,
        "seed": outcome.seed,
        "track": outcome.track,
        "laps": outcome.laps,
        "finish": outcome.finish,
        "rounds": outcome.rounds,
        "start_order": list(outcome.start_order),
        "results": [result_to_data(r) for r in outcome.results],
        "events": [
            [rnd, car, [list(t) for t in templates]] for rnd, car, templates in outcome.events.rows
        ],
        "dice": [[rnd, car, list(faces)] for rnd, car, faces in outcome.dice],
        "trace": outcome.trace.to_data(),
    }


def outcome_from_data(data: Mapping[str, Any]) -> RaceOutcome:
    """The outcome back from :func:`outcome_to_data`."""
    return RaceOutcome(
        ruleset=data["ruleset"],
        seed=data["seed"],
        track=data["track"],
        laps=data["laps"],
        finish=data["finish"],
        rounds=data["rounds"],
        start_order=tuple(data["start_order"]),
        results=tuple(CarResult(**{**r, "speeds": tuple(r["speeds"])}) for r in data["results"]),
        events=EventLog(
            (rnd, car, tuple(tuple(t) for t in templates)) for rnd, car, templates in data["events"]
        ),
        dice=tuple((rnd, car, tuple(faces)) for rnd, car, faces in data["dice"]),
        trace=PositionTrace.from_data(data.get("trace") or ()),
    )


INPUTS: Codec[RaceInputs] = Codec(inputs_to_data, inputs_from_data)
OUTCOME: Codec[RaceOutcome] = Codec(outcome_to_data, outcome_from_data)
