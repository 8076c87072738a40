"""The Ludicitude ruleset object of the registry: its identity, specs, codecs and motor
hooks."""

from __future__ import annotations

from typing import Any

from engine.ruleset import MOTOR, Ruleset
from engine.rulesets.ludicitude import DESCRIPTION, NAME, VERSION
from engine.rulesets.ludicitude.codec import INPUTS, OUTCOME
from engine.rulesets.ludicitude.hooks import HOOKS
from engine.rulesets.ludicitude.orders import LudicitudeSettings
from engine.rulesets.ludicitude.specs import ORDERS_SPEC, SETTINGS_CODEC, SETTINGS_SPEC

RULESET: Ruleset[Any, Any, LudicitudeSettings] = Ruleset(
    NAME,
    DESCRIPTION,
    VERSION,
    MOTOR,
    settings_type=LudicitudeSettings,
    settings_spec=SETTINGS_SPEC,
    settings=SETTINGS_CODEC,
    orders_spec=ORDERS_SPEC,
    inputs=INPUTS,
    outcome=OUTCOME,
    motor=HOOKS,
)
