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


def test_each_ruleset_scales_its_own_gaps():
    settings = RuleSettings()
    moreno = settings.timing_rules("moreno").gap_scale
    cyclosim = settings.timing_rules("cyclosim").gap_scale
    assert (moreno["mountain"], moreno["ITT"]) == (3.0, 1.0)
    assert (cyclosim["mountain"], cyclosim["ITT"]) == (1.0, 0.75)


def test_a_season_stored_before_the_cyclosim_gap_scale_gets_its_default():
    stored = RuleSettings().to_data()
    del stored["cyclosim_gap_scale"]
    assert RuleSettings.from_data(stored).cyclosim_gap_scale["ITT"] == 0.75


def test_a_cyclosim_gap_scale_must_be_positive():
    with pytest.raises(ValueError, match=r"cyclosim_gap_scale: each value must be between 0\.1"):
        RuleSettings.from_data({"cyclosim_gap_scale": {"ITT": 0}})
