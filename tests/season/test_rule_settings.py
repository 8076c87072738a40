import pytest

from season.rule_settings import RuleSettings


def test_defaults_round_trip_through_data():
    settings = RuleSettings()
    assert RuleSettings.from_data(settings.to_data()) == settings


def test_stored_values_override_defaults_per_stage_type():
    settings = RuleSettings.from_data({"reference_speed_kmh": {"flat": 46}, "finish_bonuses": []})
    assert settings.reference_speed_kmh["flat"] == 46.0
    assert settings.reference_speed_kmh["mountain"] == 37.0
    assert settings.finish_bonuses == ()


def test_an_unknown_setting_is_named():
    with pytest.raises(ValueError, match="Unknown rule setting"):
        RuleSettings.from_data({"drafting": True})
