"""The adapter registry: one adapter per ruleset, found by the ruleset's name.

A game is a ruleset (``engine/rulesets/NAME/``) plus an adapter in the app that owns its data
(``races/adapters/`` for cycling, ``motor/adapters/`` for motor racing). Each app registers its
adapters in its ``AppConfig.ready()``; the season layer asks :func:`adapter_for` and nothing
else, so it names no game and a new one needs no edit of it. This package is plain Python and
imports no app, so every app can reach it without reaching another (import-linter).
"""

from plugins.protocol import GameAdapter, SeasonTables, StandingLine, Starter
from plugins.registry import (
    CYCLING,
    MOTOR,
    UnknownRuleset,
    WrongDiscipline,
    adapter_for,
    adapter_names,
    cycling_adapter,
    discipline_of,
    motor_adapter,
    register,
    ruleset_choices,
    unregister,
)

__all__ = [
    "CYCLING",
    "MOTOR",
    "GameAdapter",
    "SeasonTables",
    "StandingLine",
    "Starter",
    "UnknownRuleset",
    "WrongDiscipline",
    "adapter_for",
    "adapter_names",
    "cycling_adapter",
    "discipline_of",
    "motor_adapter",
    "register",
    "ruleset_choices",
    "unregister",
]
