"""The Grand Prix ruleset object of the registry: its identity, settings and orders specs
and codecs (:mod:`engine.rulesets.grandprix.specs`) and motor hooks."""

from __future__ import annotations

from typing import Any

from engine.ruleset import MOTOR, Ruleset
from engine.rulesets.grandprix import DESCRIPTION, NAME, VERSION
from engine.rulesets.grandprix.hooks import HOOKS
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.specs import ORDERS_SPEC, SETTINGS_CODEC, SETTINGS_SPEC

RULESET: Ruleset[Any, Any, GrandPrixSettings] = Ruleset(
    NAME,
    DESCRIPTION,
    VERSION,
    MOTOR,
    settings_type=GrandPrixSettings,
    settings_spec=SETTINGS_SPEC,
    settings=SETTINGS_CODEC,
    orders_spec=ORDERS_SPEC,
    motor=HOOKS,
)
