"""The Grand Prix ruleset object: settings and §7.1 orders specs and codecs (the league's
forms are generated from them)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import get_ruleset
from engine.registry import motor_ruleset, ruleset_for_game
from engine.rulesets import grandprix
from engine.rulesets.grandprix.hooks import HOOKS
from engine.rulesets.grandprix.orders import CarOrders, OrdersError, orders_from_dict
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.specs import (
    LEAGUE_FIELDS,
    ORDERS_CODEC,
    ORDERS_SPEC,
    SETTINGS_CODEC,
    SETTINGS_SPEC,
)
from engine.spec import SpecError


def test_grandprix_is_one_registered_motor_ruleset_with_its_specs() -> None:
    ruleset = get_ruleset("grandprix")
    assert (ruleset.name, ruleset.discipline, ruleset.version) == (
        "grandprix",
        "motor",
        grandprix.VERSION,
    )
    assert ruleset.motor is HOOKS
    assert motor_ruleset("grandprix") == (ruleset, HOOKS)
    assert ruleset_for_game("grandprix") is ruleset
    assert ruleset.settings_spec is SETTINGS_SPEC
    assert ruleset.settings is SETTINGS_CODEC
    assert ruleset.orders_spec is ORDERS_SPEC
    assert ruleset.default_settings() == GrandPrixSettings()


def test_every_engine_setting_is_a_field_or_kept_for_the_league() -> None:
    names = {f.name for f in dataclasses.fields(GrandPrixSettings)}
    assert set(SETTINGS_SPEC.names) | set(LEAGUE_FIELDS) == names
    defaults = GrandPrixSettings()
    assert SETTINGS_SPEC.defaults() == {n: getattr(defaults, n) for n in SETTINGS_SPEC.names}
    json.dumps(SETTINGS_SPEC.to_data())


def test_the_settings_codec_round_trips_and_names_every_field_at_fault() -> None:
    settings = GrandPrixSettings(
        laps=5, speed_card_mode="printed", track_exit_mode="retire", points_table=(10, 6, 4)
    )
    stored = json.loads(json.dumps(SETTINGS_CODEC.to_data(settings)))
    assert SETTINGS_CODEC.from_data(stored) == settings
    assert SETTINGS_CODEC.from_data({}) == GrandPrixSettings()
    assert SETTINGS_CODEC.from_data({"max_rounds": 50}) == GrandPrixSettings(max_rounds=50)
    with pytest.raises(SpecError) as err:
        SETTINGS_CODEC.from_data(
            {
                "laps": 0,
                "track_exit_mode": "crash",
                "max_rounds": 1001,
                "points_table": [25, -1],
                "pole_points": "1",
                "weather": "rain",
            }
        )
    assert set(err.value.errors) == {
        "laps",
        "track_exit_mode",
        "max_rounds",
        "points_table",
        "pole_points",
        "weather",
    }


def test_the_orders_spec_is_section_7_1_with_the_defaults_of_car_orders() -> None:
    assert ORDERS_SPEC.names == ("risk", "quali_risk", "max_gear", "card_min_gear", "pit_strategy")
    assert ORDERS_SPEC.defaults() == {
        "risk": "normal",
        "quali_risk": "same",
        "max_gear": 4,
        "card_min_gear": 2,  # version 4: the best fixed orders (bench/auto_vs_best.py)
        "pit_strategy": "lap2_insurance",
    }
    assert ORDERS_CODEC.from_data({"car": "c1", **ORDERS_SPEC.defaults()}) == CarOrders("c1")
    assert [v for v, _ in ORDERS_SPEC["quali_risk"].choices] == [
        "same",
        "safe",
        "normal",
        "aggressive",
    ]
    assert (ORDERS_SPEC["max_gear"].minimum, ORDERS_SPEC["max_gear"].maximum) == (2, 4)
    json.dumps(ORDERS_SPEC.to_data())


def test_the_orders_codec_round_trips_and_same_is_the_race_risk() -> None:
    orders = CarOrders("c2", risk="aggressive", max_gear=3, pit_strategy="lap2_insurance")
    stored = json.loads(json.dumps(ORDERS_CODEC.to_data(orders)))
    assert stored["quali_risk"] == "same"
    back = ORDERS_CODEC.from_data(stored)
    assert back == orders
    assert back.qualifying_risk == "aggressive"
    given = CarOrders("c3", quali_risk="safe")
    assert ORDERS_CODEC.from_data(ORDERS_CODEC.to_data(given)) == given
    # A §7.1 file's object with mode is accepted; "same" also in the orders file reader.
    assert ORDERS_CODEC.from_data({"car": "c4", "mode": "interactive"}).mode == "interactive"
    assert orders_from_dict({"quali_risk": "same"}, "c5") == CarOrders("c5")


def test_bad_orders_name_the_car_and_the_field() -> None:
    with pytest.raises(OrdersError) as err:
        ORDERS_CODEC.from_data({"car": "c6", "max_gear": 5})
    assert (err.value.car, err.value.field) == ("c6", "max_gear")
    with pytest.raises(OrdersError) as err:
        ORDERS_CODEC.from_data({"car": "c7", "risk": "wild"})
    assert (err.value.car, err.value.field) == ("c7", "risk")
    with pytest.raises(OrdersError) as err:
        ORDERS_CODEC.from_data({"car": "c8", "tyres": "soft"})
    assert (err.value.car, err.value.field) == ("c8", "tyres")
