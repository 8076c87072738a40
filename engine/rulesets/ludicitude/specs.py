"""What an organiser sets for a Ludicitude race and what a player orders per car, as specs
(:mod:`engine.spec`): each field's kind, bounds, default (read from the dataclasses, so each
default is written once), label and help."""

from __future__ import annotations

from engine.rulesets.ludicitude.orders import (
    DEFAULT_ORDERS,
    FIRST_ROUND_ORDERS,
    LIMIT_BASES,
    MODES,
    RISKS,
    LudicitudeSettings,
)
from engine.rulesets.ludicitude.track import SPEED_MAX, SPEED_MIN
from engine.spec import CHOICE, INT, About, Field, Spec, dataclass_codec, dataclass_spec

#: Bounds of the organiser's numbers (the spec gives none: a safety limit and laps that keep a
#: race within an evening).
MAX_ROUNDS_CAP = 1000
LAPS_CAP = 10

SETTINGS_SPEC: Spec = dataclass_spec(
    LudicitudeSettings,
    {
        "first_round_order": About(
            "Round-1 order",
            "LU-2: drawn at random, or the lowest-ranked car of the season first (S-5).",
            choices=(
                (FIRST_ROUND_ORDERS[0], "drawn at random"),
                (FIRST_ROUND_ORDERS[1], "reverse standings"),
            ),
        ),
        "limit_basis": About(
            "Speed compared with the limits",
            "LU-5, B3: the cards moved this turn (the source's example), or the speed marker.",
            choices=((LIMIT_BASES[0], "cards moved"), (LIMIT_BASES[1], "speed marker")),
        ),
        "max_rounds": About(
            "Round cap",
            "LU-11: cars still racing after this many rounds are not classified.",
            1,
            MAX_ROUNDS_CAP,
        ),
        "laps": About(
            "Laps",
            "T-3: laps of a closed circuit (an open one is raced once). Empty: the track's.",
            1,
            LAPS_CAP,
            kind=INT,
        ),
    },
)
SETTINGS_CODEC = dataclass_codec(LudicitudeSettings, SETTINGS_SPEC)

ORDERS_SPEC = Spec(
    (
        Field(
            "mode",
            CHOICE,
            DEFAULT_ORDERS.mode,
            "Mode",
            "§7.1: the default driver picks the next speed, or the player does after each "
            "move (at the deadline the default driver takes over).",
            choices=tuple((m, m) for m in MODES),
        ),
        Field(
            "risk",
            CHOICE,
            DEFAULT_ORDERS.risk,
            "Risk",
            "§7.1: how much a brake point weighs against a card moved (λ = 2, 1, 0.5).",
            choices=tuple((r, r) for r in RISKS),
        ),
        Field(
            "max_speed",
            INT,
            DEFAULT_ORDERS.max_speed,
            "Top speed",
            "§7.1: the default driver never picks a speed above this one.",
            minimum=SPEED_MIN,
            maximum=SPEED_MAX,
        ),
    )
)
