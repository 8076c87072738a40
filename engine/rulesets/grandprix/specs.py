"""What an organiser sets for a Grand Prix and what a player orders per car, as specs
(:mod:`engine.spec`) with their codecs: each field's kind, bounds, default (read from
:class:`GrandPrixSettings` and :class:`CarOrders`, so each default is written once), label and
help. A league's settings form is generated from ``SETTINGS_SPEC.to_data()``, the per-car
orders form from ``ORDERS_SPEC.to_data()``.

- ``SETTINGS_SPEC`` / ``SETTINGS_CODEC``: every [CFG] the engine reads (and the [D]
  ``max_qualifying_turns``). The S-3 points (``points_table``, ``pole_points``) are scored by
  the league, not the engine: they are not form fields, but the codec keeps them (a list of
  whole numbers and a whole number), so a stored settings object round-trips.
- ``ORDERS_SPEC`` / ``ORDERS_CODEC``: §7.1 per car, ``risk``, ``quali_risk``, ``max_gear``,
  ``card_min_gear``, ``pit_strategy``. ``mode`` is not a field: ``interactive`` is driven as
  ``auto`` at the deadline, which is all the engine does; the codec accepts it. ``quali_risk``
  defaults to ``risk`` (P-6): its choice ``same`` (:data:`SAME_AS_RISK`) stands for that,
  ``None`` in :class:`CarOrders`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.outcome import JsonValue
from engine.rulesets.grandprix.orders import (
    PIT_STRATEGIES,
    RISKS,
    SAME_AS_RISK,
    CarOrders,
    OrdersError,
    orders_from_dict,
)
from engine.rulesets.grandprix.settings import (
    SPEED_CARD_MODES,
    TRACK_EXIT_MODES,
    GrandPrixSettings,
)
from engine.spec import (
    BOOL,
    CHOICE,
    INT,
    Codec,
    Field,
    Spec,
    SpecError,
)

#: Bounds the spec gives none of: laps of an evening, a safety limit that ends a stuck race.
LAPS_MAX = 20
MAX_ROUNDS_CAP = 1000
MAX_QUALIFYING_TURNS_CAP = 300
#: Settings kept by the codec but scored by the league (S-3), not form fields.
LEAGUE_FIELDS = ("points_table", "pole_points")

_S = GrandPrixSettings()
_O = CarOrders("?")

SETTINGS_SPEC = Spec(
    (
        Field(
            "laps",
            INT,
            _S.laps,
            "Laps",
            "GP-1.1: laps of the race. Empty: the track file's own (3 on the shipped tracks).",
            minimum=1,
            maximum=LAPS_MAX,
            nullable=True,
        ),
        Field(
            "speed_card_mode",
            CHOICE,
            _S.speed_card_mode,
            "Speed cards",
            "§2, A2: every speed card lets the driver pick any advance of its gear's range, "
            "or only its printed value.",
            choices=(
                (SPEED_CARD_MODES[0], "any value of the range"),
                (SPEED_CARD_MODES[1], "printed value"),
            ),
        ),
        Field(
            "max_lane_changes",
            INT,
            _S.max_lane_changes,
            "Lane changes per move",
            "GP-6.2b, A10: the most lane changes a car makes in one move.",
            minimum=0,
            maximum=4,
        ),
        Field(
            "track_exit_mode",
            CHOICE,
            _S.track_exit_mode,
            "Track exits",
            "GP-7.3/7.5: a car that leaves the track goes into the run-off and rejoins, or "
            "retires (a harsher season).",
            choices=(
                (TRACK_EXIT_MODES[0], "rejoin from the run-off"),
                (TRACK_EXIT_MODES[1], "retire"),
            ),
        ),
        Field(
            "reshuffle",
            BOOL,
            _S.reshuffle,
            "Reshuffle empty piles",
            "GP-9.2: an empty lap pile is rebuilt from its discard pile; otherwise no more "
            "cards are drawn from it.",
        ),
        Field(
            "max_rounds",
            INT,
            _S.max_rounds,
            "Round cap",
            "GP-12.2: cars still running after this many rounds are not classified.",
            minimum=1,
            maximum=MAX_ROUNDS_CAP,
        ),
        Field(
            "max_qualifying_turns",
            INT,
            _S.max_qualifying_turns,
            "Qualifying turn cap",
            "A qualifying run still going after this many turns sets no time.",
            minimum=1,
            maximum=MAX_QUALIFYING_TURNS_CAP,
        ),
    )
)


def settings_to_data(settings: GrandPrixSettings) -> dict[str, JsonValue]:
    """Every setting: the spec's fields, then the league's points (S-3)."""
    data: dict[str, JsonValue] = {f.name: getattr(settings, f.name) for f in SETTINGS_SPEC}
    data["points_table"] = list(settings.points_table)
    data["pole_points"] = settings.pole_points
    return data


def settings_from_data(data: Mapping[str, Any]) -> GrandPrixSettings:
    """Settings from data; missing fields take their defaults; :class:`SpecError` names every
    field at fault (unknown ones too)."""
    given = dict(data)
    league = {k: given.pop(k) for k in LEAGUE_FIELDS if k in given}
    errors = SETTINGS_SPEC.errors(given)
    table = league.get("points_table", list(_S.points_table))
    if (
        not isinstance(table, list | tuple)
        or not table
        or any(type(x) is not int or x < 0 for x in table)
    ):
        errors["points_table"] = f"{table!r} is not a list of whole numbers >= 0"
    pole = league.get("pole_points", _S.pole_points)
    if type(pole) is not int or pole < 0:
        errors["pole_points"] = f"{pole!r} is not a whole number >= 0"
    if errors:
        raise SpecError(errors)
    values: dict[str, Any] = SETTINGS_SPEC.clean(given)
    return GrandPrixSettings(**values, points_table=tuple(table), pole_points=pole)


SETTINGS_CODEC: Codec[GrandPrixSettings] = Codec(settings_to_data, settings_from_data)

#: The pit strategies in a player's words (the values stay the spec's, §7.1).
PIT_STRATEGY_LABELS = {
    "required_only": "only the stops the cards require",
    "lap2_insurance": "an insurance stop on lap 2",
}

ORDERS_SPEC = Spec(
    (
        Field(
            "risk",
            CHOICE,
            _O.risk,
            "Risk",
            "§7.1, P-2: how close to a corner's limit the default driver takes its gear in the "
            "race (safe avoids green squares, aggressive seeks them).",
            choices=tuple((r, r) for r in RISKS),
        ),
        Field(
            "quali_risk",
            CHOICE,
            SAME_AS_RISK,
            "Qualifying risk",
            "P-6: the risk of the qualifying run; same: the race risk.",
            choices=((SAME_AS_RISK, "same as the race"), *((r, r) for r in RISKS)),
        ),
        Field(
            "max_gear",
            INT,
            _O.max_gear,
            "Top gear",
            "§7.1: the highest gear the driver shifts into (2..4).",
            minimum=2,
            maximum=4,
        ),
        Field(
            "card_min_gear",
            INT,
            _O.card_min_gear,
            "Speed cards from gear",
            "§7.1, P-3: a held speed card is played only in this gear or above (2..4).",
            minimum=2,
            maximum=4,
        ),
        Field(
            "pit_strategy",
            CHOICE,
            _O.pit_strategy,
            "Pit strategy",
            "§7.1, P-4: only the stops the cards require, or an insurance stop on lap 2 "
            "(a puncture then spares the car).",
            choices=tuple((p, PIT_STRATEGY_LABELS[p]) for p in PIT_STRATEGIES),
        ),
    )
)


def car_orders_to_data(orders: CarOrders) -> dict[str, JsonValue]:
    """``{"car", <ORDERS_SPEC fields>}``; a ``quali_risk`` of None is ``same``."""
    return {
        "car": orders.car,
        "risk": orders.risk,
        "quali_risk": orders.quali_risk or SAME_AS_RISK,
        "max_gear": orders.max_gear,
        "card_min_gear": orders.card_min_gear,
        "pit_strategy": orders.pit_strategy,
    }


def car_orders_from_data(data: Mapping[str, Any]) -> CarOrders:
    """One car's orders (``car`` included; ``mode`` accepted); missing fields take their
    defaults; :class:`OrdersError` (a ValueError) names the car and the field at fault."""
    car = str(data.get("car", "?"))
    errors = ORDERS_SPEC.errors({k: v for k, v in data.items() if k not in ("car", "mode")})
    if errors:
        field = sorted(errors)[0]
        raise OrdersError(car, field, errors[field])
    return orders_from_dict(data, car)


ORDERS_CODEC: Codec[CarOrders] = Codec(car_orders_to_data, car_orders_from_data)
