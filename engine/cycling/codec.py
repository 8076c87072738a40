"""The one JSON form of each cycling type: course, entrant, a stage's inputs, its outcome.

The command line, the golden files and the league's adapter (stored inputs of a resolved
stage, for replays) all go through these functions. A ruleset gives its own settings codec and
its per-rider codec (:class:`RiderCodec`); :func:`inputs_codec` puts them together.

Inputs, format 2 (``"format": 2``)::

    {"format": 2, "course": {...}, "entrants": [{rider_id, team_id, bib, profile, role,
     tour_crash_count, gc_rank_before, gc_time_before, <the ruleset's rider fields>}],
     "settings": {<the ruleset's settings>}, "yellow_jersey": id|null, "green_jersey": id|null}

Inputs stored before (no ``format``: ``dataclasses.asdict`` of the old ``StageInputs``, which
held Moréno's settings in ``settings``, Cyclo Sim's in ``cyclosim`` and both games' rider
fields in every entrant) are still read: each ruleset names where its settings were
(``legacy_settings_key``), and the other game's rider fields are dropped when they hold their
defaults (they always did: a season gave each ruleset's fields only to its own stages).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.cycling.course import STAGE_TYPES, TERRAINS, Course, Segment
from engine.cycling.inputs import ROLES, Entrant, StageInputs
from engine.cycling.outcome import Crash, Outcome, RiderResult
from engine.cycling.profile import PROFILE_AXES, Profile
from engine.outcome import (
    JsonValue,
    dice_from_data,
    dice_to_data,
    event_from_data,
    event_to_data,
)
from engine.spec import Codec

S = TypeVar("S")
X = TypeVar("X")

INPUTS_FORMAT = 2
#: Segments may add up to the stage distance give or take this much.
DISTANCE_TOLERANCE_KM = 0.5
ENTRANT_KEYS: tuple[str, ...] = (
    "rider_id",
    "team_id",
    "bib",
    "profile",
    "role",
    "tour_crash_count",
    "gc_rank_before",
    "gc_time_before",
)
#: Rider fields of the old two-game ``Entrant`` and their defaults (legacy inputs).
LEGACY_RIDER_DEFAULTS: Mapping[str, object] = {
    "no_breakaway": False,
    "orders": None,
    "pe_consumed": 0,
}


class InputError(ValueError):
    """Bad input data; the message names the file, the line (when known) and the field."""


# -- course ------------------------------------------------------------------------------


def _line_of(text: str, token: str) -> int | None:
    """Line of the only occurrence of ``token`` in ``text``, if it occurs exactly once."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if token in line]
    return hits[0] if len(hits) == 1 else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def course_to_data(course: Course) -> dict[str, JsonValue]:
    """``{"name", "stage_type", "distance_km", "segments": [{terrain, km, name}],
    "intermediate_sprints_km": [...]}``."""
    return {
        "name": course.name,
        "stage_type": course.stage_type,
        "distance_km": course.distance_km,
        "segments": [{"terrain": s.terrain, "km": s.km, "name": s.name} for s in course.segments],
        "intermediate_sprints_km": list(course.intermediate_sprints_km),
    }


def course_from_data(
    data: Any, *, name: str = "course.json", text: str = "", check_distance: bool = True
) -> Course:
    """Validate and build a :class:`Course` from parsed JSON; :class:`InputError` names the
    field (and the line of ``text``, the file's text, when it can tell). ``check_distance``:
    the segments must add up to ``distance_km`` within :data:`DISTANCE_TOLERANCE_KM`."""

    def fail(field: str, message: str, token: Any = None) -> InputError:
        tok = json.dumps(token, ensure_ascii=False) if token is not None else None
        line = _line_of(text, tok) if tok else None
        where = f"{name} line {line}, field {field}" if line else f"{name}, field {field}"
        return InputError(f"{where}: {message}")

    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a JSON object with name, stage_type, segments")
    for key in ("name", "stage_type", "distance_km", "segments"):
        if key not in data:
            raise InputError(f"{name}, field {key}: missing")
    stage_type = data["stage_type"]
    if stage_type not in STAGE_TYPES:
        raise fail(
            "stage_type",
            f"{stage_type!r} is not a stage type ({', '.join(STAGE_TYPES)})",
            stage_type,
        )
    distance = _number(data["distance_km"])
    if distance is None or distance <= 0:
        raise fail("distance_km", f"{data['distance_km']!r} is not a positive number")
    raw_segments = data["segments"]
    if not isinstance(raw_segments, list) or not raw_segments:
        raise InputError(f"{name}, field segments: expected a non-empty list")
    segments = []
    for i, seg in enumerate(raw_segments):
        where = f"segments[{i}]"
        if not isinstance(seg, dict):
            raise InputError(f"{name}, field {where}: expected an object")
        terrain = seg.get("terrain")
        if terrain not in TERRAINS:
            raise fail(
                f"{where}.terrain",
                f"{terrain!r} is not a terrain ({', '.join(TERRAINS)})",
                terrain,
            )
        km = _number(seg.get("km"))
        if km is None or km < 0:
            raise fail(f"{where}.km", f"{seg.get('km')!r} is not a number of km >= 0")
        label = seg.get("name", "")
        if not isinstance(label, str):
            raise fail(f"{where}.name", f"{label!r} is not a text")
        segments.append(Segment(terrain, km, label))
    total = sum(s.km for s in segments)
    if check_distance and abs(total - distance) > DISTANCE_TOLERANCE_KM:
        raise InputError(
            f"{name}, field segments: segment km add up to {total:g}, not distance_km "
            f"{distance:g} (±{DISTANCE_TOLERANCE_KM:g} km allowed)"
        )
    sprints = data.get("intermediate_sprints_km", [])
    if not isinstance(sprints, list) or any(_number(k) is None for k in sprints):
        raise InputError(f"{name}, field intermediate_sprints_km: expected a list of km")
    for km in sprints:
        if not 0 < float(km) <= distance:
            raise fail("intermediate_sprints_km", f"{km!r} is not within the stage", km)
    course_name = data["name"]
    if not isinstance(course_name, str):
        raise fail("name", f"{course_name!r} is not a text")
    return Course(
        course_name, stage_type, distance, tuple(segments), tuple(float(k) for k in sprints)
    )


# -- entrants ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RiderCodec(Generic[X]):
    """A ruleset's per-rider part of the inputs: its ``fields`` (flattened into each entrant's
    JSON), ``default``, and the two conversions."""

    fields: tuple[str, ...]
    default: X
    to_data: Callable[[X], dict[str, JsonValue]]
    from_data: Callable[[Mapping[str, Any]], X]


def entrant_to_data(entrant: Entrant) -> dict[str, JsonValue]:
    profile: dict[str, JsonValue] = {axis: getattr(entrant.profile, axis) for axis in PROFILE_AXES}
    return {
        "rider_id": entrant.rider_id,
        "team_id": entrant.team_id,
        "bib": entrant.bib,
        "profile": profile,
        "role": entrant.role,
        "tour_crash_count": entrant.tour_crash_count,
        "gc_rank_before": entrant.gc_rank_before,
        "gc_time_before": entrant.gc_time_before,
    }


def entrant_from_data(data: Mapping[str, Any]) -> Entrant:
    """An :class:`Entrant` from the common keys of an entrant's JSON."""
    role = data.get("role", "domestique")
    if role not in ROLES:
        raise ValueError(f"rider {data.get('rider_id')!r}: unknown role {role!r}")
    return Entrant(
        rider_id=int(data["rider_id"]),
        team_id=int(data["team_id"]),
        bib=int(data["bib"]),
        profile=Profile(**data["profile"]),
        role=role,
        tour_crash_count=int(data.get("tour_crash_count", 0)),
        gc_rank_before=data.get("gc_rank_before"),
        gc_time_before=int(data.get("gc_time_before", 0)),
    )


# -- inputs ------------------------------------------------------------------------------


def inputs_codec(
    settings: Codec[S], riders: RiderCodec[X], *, default_settings: S, legacy_settings_key: str
) -> Codec[StageInputs[S, X]]:
    """The inputs codec of a ruleset with these settings and rider codecs (module docstring)."""

    def to_data(inputs: StageInputs[S, X]) -> dict[str, JsonValue]:
        extras = inputs.extras
        entrants: list[JsonValue] = []
        for e in inputs.entrants:
            own = extras.get(e.rider_id, riders.default)
            entrants.append({**entrant_to_data(e), **riders.to_data(own)})
        chosen = inputs.settings if inputs.settings is not None else default_settings
        return {
            "format": INPUTS_FORMAT,
            "course": course_to_data(inputs.course),
            "entrants": entrants,
            "settings": settings.to_data(chosen),
            "yellow_jersey": inputs.yellow_jersey,
            "green_jersey": inputs.green_jersey,
        }

    def from_data(data: Mapping[str, Any]) -> StageInputs[S, X]:
        version = data.get("format")
        legacy = version is None
        if not legacy and version != INPUTS_FORMAT:
            raise ValueError(f"inputs format {version!r} is not known (this engine reads 2)")
        course = course_from_data(data["course"], name="inputs", check_distance=False)
        entrants = []
        extras: dict[int, X] = {}
        for raw in data["entrants"]:
            entrant = entrant_from_data(raw)
            own = {k: raw[k] for k in riders.fields if k in raw}
            rest = set(raw) - set(ENTRANT_KEYS) - set(riders.fields)
            for key in sorted(rest):
                if not legacy or key not in LEGACY_RIDER_DEFAULTS:
                    raise ValueError(f"rider {entrant.rider_id}: unknown field {key!r}")
                if raw[key] != LEGACY_RIDER_DEFAULTS[key]:
                    raise ValueError(
                        f"rider {entrant.rider_id}: {key} = {raw[key]!r} is not a field of "
                        "this ruleset"
                    )
            rider = riders.from_data(own)
            if rider != riders.default:
                extras[entrant.rider_id] = rider
            entrants.append(entrant)
        stored = (data.get(legacy_settings_key) or {}) if legacy else data["settings"]
        return StageInputs(
            course=course,
            entrants=tuple(entrants),
            settings=settings.from_data(stored),
            extras=extras,
            yellow_jersey=data.get("yellow_jersey"),
            green_jersey=data.get("green_jersey"),
        )

    return Codec(to_data, from_data)


# -- outcome -----------------------------------------------------------------------------


def result_to_data(r: RiderResult) -> dict[str, JsonValue]:
    """One result as a compact line (the golden files' shape)."""
    return {
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


def outcome_to_data(outcome: Outcome) -> dict[str, JsonValue]:
    """``{"ruleset", "seed", "turns", "n_cases", "rider_moves", "results", "carried",
    "events", "dice"}``; ``carried`` maps a rider id (text) to the state he carries to the next
    stage (only riders who carry some)."""
    carried: dict[str, JsonValue] = {
        str(r.rider_id): dict(r.carried) for r in outcome.results if r.carried
    }
    results: list[JsonValue] = [result_to_data(r) for r in outcome.results]
    events: list[JsonValue] = [event_to_data(e) for e in outcome.events]
    dice: list[JsonValue] = list(dice_to_data(outcome.dice))
    return {
        "ruleset": outcome.ruleset,
        "seed": outcome.seed,
        "turns": outcome.turns,
        "n_cases": outcome.n_cases,
        "rider_moves": outcome.rider_moves,
        "results": results,
        "carried": carried,
        "events": events,
        "dice": dice,
    }


def _crashes(rows: Sequence[Sequence[int]]) -> tuple[Crash, ...]:
    return tuple(Crash(int(t), int(c), int(s)) for t, c, s in rows)


def outcome_from_data(data: Mapping[str, Any]) -> Outcome:
    """The inverse of :func:`outcome_to_data`."""
    carried = data.get("carried", {})
    return Outcome(
        ruleset=data["ruleset"],
        seed=int(data["seed"]),
        results=tuple(
            RiderResult(
                rider_id=r["rider"],
                rank=r["rank"],
                final_case=r["case"],
                squares_behind=r["behind"],
                gap_seconds=r["gap"],
                status=r["status"],
                crashes=_crashes(r["crashes"]),
                final_group=r["group"],
                abandon_reason=r["reason"],
                carried=dict(carried.get(str(r["rider"]), {})),
            )
            for r in data["results"]
        ),
        events=tuple(event_from_data(e) for e in data["events"]),
        dice=dice_from_data(data["dice"]),
        turns=int(data["turns"]),
        n_cases=int(data["n_cases"]),
        rider_moves=int(data.get("rider_moves", 0)),
    )


OUTCOME_CODEC: Codec[Outcome] = Codec(outcome_to_data, outcome_from_data)
