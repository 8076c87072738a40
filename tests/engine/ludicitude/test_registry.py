"""Ludicitude in the registry: one motor entry, found by name and by its files' game."""

from __future__ import annotations

import pytest

from engine import RULESETS, get_ruleset
from engine.registry import WrongDiscipline, motor_ruleset, ruleset_for_game, simulate
from engine.rulesets import ludicitude
from engine.rulesets.ludicitude.hooks import HOOKS


def test_ludicitude_is_a_registered_motor_ruleset() -> None:
    ruleset = get_ruleset("ludicitude")
    assert (ruleset.name, ruleset.discipline, ruleset.version) == ("ludicitude", "motor", 1)
    assert ruleset.motor is HOOKS
    assert motor_ruleset("ludicitude") == (ruleset, HOOKS)
    assert ruleset_for_game("ludicitude") is ruleset
    assert ruleset.version == ludicitude.VERSION
    assert "ludicitude" in RULESETS


def test_it_resolves_no_cycling_stage() -> None:
    with pytest.raises(WrongDiscipline, match="races on a track"):
        simulate("ludicitude", None, 1)  # type: ignore[arg-type]
