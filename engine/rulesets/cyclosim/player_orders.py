"""The orders a player gives a Cyclo Sim rider for a stage, as a spec, and their turn into the
engine's §4.1 orders on a course (cyclosim.md §4.1).

A player sets, per rider: his role, a pace per terrain, the share of energy he keeps, whose
wheel he takes, whom he relays with and one attack window in km from the start.
:data:`ORDERS_SPEC` is the one source of their defaults (read from :class:`RiderOrders`),
choices, bounds and help text; :func:`engine_orders` turns them into the §4.1 JSON shape (the
attack window in board rows) that :func:`~engine.rulesets.cyclosim.orders.validate_orders`
checks and :func:`~engine.rulesets.cyclosim.orders.orders_from_data` reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cycling.course import Course, segment_cases
from engine.cycling.inputs import ROLE_CHOICES
from engine.rulesets.cyclosim.orders import (
    CONSENTS,
    PACES,
    WHEEL_CLASSES,
    RiderOrders,
    orders_from_data,
    validate_orders,
)
from engine.spec import CHOICE, FLOAT, INT, Field, Spec

_D = RiderOrders()
_PACE_LABELS = {
    "free": "free",
    "tempo": "tempo",
    "safe": "safe",
    "expected": "expected",
    "max": "all out",
}
_PACE_HELP = (
    "free = as fast as the dice allow; tempo = a steady effort; safe = never beyond what costs "
    "no contract; expected = the likely roll; all out = everything left."
)
_PACES = tuple((p, _PACE_LABELS[p]) for p in PACES)


def _pace(name: str, default: str, label: str) -> Field:
    return Field(name, CHOICE, default, label, _PACE_HELP, choices=_PACES)


ORDERS_SPEC = Spec(
    (
        Field(
            "role",
            CHOICE,
            _D.role,
            "Role",
            "§1: GC leader, sprinter, breakaway or domestique; a rider with no other order "
            "rides the default AI of his role (§4.6).",
            choices=ROLE_CHOICES,
        ),
        _pace("pace_flat", _D.pace_flat, "Pace on the flat"),
        _pace("pace_climb", _D.pace_climb, "Pace climbing"),
        _pace("pace_descent", _D.pace_descent, "Pace descending"),
        Field(
            "floor_pct",
            INT,
            _D.floor_pct,
            "Energy kept (%)",
            "The share of energy the rider never spends before the final.",
            0,
            100,
        ),
        Field(
            "wheel",
            CHOICE,
            _D.wheel[0],
            "Takes the wheel of",
            "R-W: whose wheel he takes.",
            choices=tuple(
                (w, {"any": "anyone", "team": "team-mates only"}[w]) for w in WHEEL_CLASSES[::-1]
            ),
        ),
        Field(
            "relay",
            CHOICE,
            _D.relay,
            "Relays with",
            "R-RL: whom he takes turns with at the front.",
            choices=tuple(
                (c, {"all": "anyone", "team": "team-mates", "none": "nobody"}[c]) for c in CONSENTS
            ),
        ),
        Field(
            "attack_from_km",
            FLOAT,
            None,
            "Attack from km",
            "R-AT: the attack window, in km from the start (both ends, or neither).",
            0,
            nullable=True,
        ),
        Field(
            "attack_to_km",
            FLOAT,
            None,
            "to km",
            "R-AT: the end of the attack window, in km from the start.",
            0,
            nullable=True,
        ),
    )
)

#: The §4.1 fields of :func:`engine_orders` as a player's error messages name them.
ERROR_LABELS: Mapping[str, str] = {
    "pace.flat": "pace on the flat",
    "pace.climb": "pace climbing",
    "pace.descent": "pace descending",
    "floor_pct": "energy kept",
    "wheel": "takes the wheel of",
    "relay": "relays with",
    "attacks[0].from_row": "attack window (its start, in board rows)",
    "attacks[0].to_row": "attack window (its end, in board rows)",
}


def row_at_km(course: Course, km: float) -> int:
    """The board row (case) at ``km`` from the start, through each segment's own scale."""
    start_case, start_km = 0, 0.0
    for segment, cases in zip(course.segments, segment_cases(course), strict=True):
        if km <= start_km + segment.km:
            share = (km - start_km) / segment.km if segment.km else 0.0
            return start_case + round(share * cases)
        start_case += cases
        start_km += segment.km
    return start_case


def engine_orders(order: Mapping[str, Any], course: Course) -> dict[str, Any]:
    """A rider's orders of :data:`ORDERS_SPEC` (missing fields: their defaults) -> the §4.1
    JSON shape, the attack window in board rows of ``course``."""
    o = {**ORDERS_SPEC.defaults(), **order}
    data: dict[str, Any] = {
        "role": o["role"],
        "pace": {"flat": o["pace_flat"], "climb": o["pace_climb"], "descent": o["pace_descent"]},
        "floor_pct": int(o["floor_pct"]),
        "wheel": [o["wheel"]],
        "relay": o["relay"],
        "attacks": [],
    }
    start, end = o["attack_from_km"], o["attack_to_km"]
    if start is not None and end is not None:
        lo = row_at_km(course, float(start))
        data["attacks"] = [
            {
                "from_row": lo,
                "to_row": max(row_at_km(course, float(end)), lo + 1),
                "pace": "expected",
                "mode": "any",
            }
        ]
    return data


def orders_errors(
    orders: Mapping[int, Mapping[str, Any]], course: Course
) -> dict[str, dict[str, str]]:
    """The engine's own check (§4.1) of a team's orders by rider id: for each rider at fault
    (``"31"``, or ``"team"``), his fields at fault named as :data:`ERROR_LABELS` says."""
    data = {"riders": {str(rid): engine_orders(o, course) for rid, o in orders.items()}}
    errors = validate_orders(data, rider_ids=set(orders), n_rows=sum(segment_cases(course)))
    return {
        who: {ERROR_LABELS.get(name, name): message for name, message in fields.items()}
        for who, fields in errors.items()
    }


def rider_orders(order: Mapping[str, Any], course: Course, rider_id: int = 0) -> RiderOrders:
    """A rider's orders of :data:`ORDERS_SPEC` as the engine's :class:`RiderOrders`."""
    data = {"riders": {str(rider_id): engine_orders(order, course)}}
    return orders_from_data(data).riders[rider_id]
