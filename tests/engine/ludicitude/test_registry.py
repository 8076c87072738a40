"""Ludicitude in the registry: one motor entry, found by name and by its files' game."""

from __future__ import annotations

import pytest

from engine import RULESETS, get_ruleset
from engine.registry import WrongDiscipline, motor_ruleset, ruleset_for_game, simulate
from engine.rulesets import ludicitude
from engine.rulesets.ludicitude.hooks import HOOKS
from engine.rulesets.ludicitude.orders import CarOrders, LudicitudeSettings
from engine.spec import SpecError


def test_ludicitude_is_a_registered_motor_ruleset() -> None:
    ruleset = get_ruleset("ludicitude")
    assert (ruleset.name, ruleset.discipline, ruleset.version) == ("ludicitude", "motor", 2)
    assert ruleset.motor is HOOKS
    assert motor_ruleset("ludicitude") == (ruleset, HOOKS)
    assert ruleset_for_game("ludicitude") is ruleset
    assert ruleset.version == ludicitude.VERSION
    assert "ludicitude" in RULESETS


def test_it_resolves_no_cycling_stage() -> None:
    with pytest.raises(WrongDiscipline, match="races on a track"):
        simulate("ludicitude", None, 1)


def test_the_settings_spec_holds_every_setting_with_its_default_and_bounds() -> None:
    ruleset = get_ruleset("ludicitude")
    assert ruleset.settings_spec.defaults() == {
        "first_round_order": "random",
        "limit_basis": "distance",
        "max_rounds": 200,
        "laps": None,
    }
    assert ruleset.default_settings() == LudicitudeSettings()
    assert ruleset.settings is not None
    assert ruleset.settings.from_data({"laps": 3, "first_round_order": "reverse_standings"}) == (
        LudicitudeSettings(first_round_order="reverse_standings", laps=3)
    )
    with pytest.raises(SpecError) as err:
        ruleset.settings.from_data({"laps": 0, "limit_basis": "gear", "rounds": 3})
    assert set(err.value.errors) == {"laps", "limit_basis", "rounds"}
    assert ruleset.settings.to_data(LudicitudeSettings(laps=1))["laps"] == 1


def test_the_orders_spec_defaults_are_the_orders_defaults() -> None:
    spec = get_ruleset("ludicitude").orders_spec
    assert spec.defaults() == {"mode": "auto", "risk": "normal", "max_speed": 6}
    assert CarOrders(**spec.clean({"risk": "safe"})) == CarOrders(risk="safe")
    with pytest.raises(SpecError, match="max_speed"):
        spec.clean({"max_speed": 7})
