import pytest

from plugins import adapter_for
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
    moreno = adapter_for("moreno").timing_rules(settings)
    cyclosim = adapter_for("cyclosim").timing_rules(settings)
    assert (moreno.gap_scale["mountain"], moreno.gap_scale["ITT"]) == (3.0, 1.0)
    assert (cyclosim.gap_scale["mountain"], cyclosim.gap_scale["ITT"]) == (1.0, 0.75)
    # Moréno leaves the first minute of a gap as raced; Cyclo Sim's gaps are seconds already.
    assert (moreno.gap_scale_after_s, cyclosim.gap_scale_after_s) == (60, 0)


def test_a_season_gap_scale_overrides_its_ruleset_per_stage_type():
    settings = RuleSettings.from_data({"gap_scale": {"mountain": 2.0}})
    timing = adapter_for("moreno").timing_rules(settings)
    assert (timing.gap_scale["mountain"], timing.gap_scale["hilly"]) == (2.0, 1.5)


def test_a_gap_scale_must_be_positive():
    with pytest.raises(ValueError, match=r"gap_scale: each value must be between 0\.1"):
        RuleSettings.from_data({"gap_scale": {"ITT": 0}})


def test_the_season_names_no_ruleset_setting_of_its_own():
    """Every setting of a ruleset lives in ``engine``: the season's fields are the league's."""
    names = set(RuleSettings().to_data())
    for name in ("moreno", "cyclosim"):
        assert not names & set(adapter_for(name).settings_spec.names)


def test_the_organisers_values_reach_the_engine_over_the_leagues_defaults():
    moreno = adapter_for("moreno")
    assert moreno.engine_settings(RuleSettings()).final_km_neutralisation_cases == 6
    rules = RuleSettings.from_data({"engine": {"tt_multiplier": 5}})
    settings = moreno.engine_settings(rules)
    assert (settings.tt_multiplier, settings.final_km_neutralisation_cases) == (5, 6)


def test_a_cyclosim_setting_set_by_the_organiser_is_the_engines():
    cyclosim = adapter_for("cyclosim")
    spec_field = next(f for f in cyclosim.settings_spec if f.kind == "int")
    value = int(spec_field.maximum if spec_field.maximum is not None else spec_field.default + 1)
    rules = RuleSettings.from_data({"engine": {spec_field.name: value}})
    assert getattr(cyclosim.engine_settings(rules), spec_field.name) == value


@pytest.mark.parametrize(
    ("ruleset", "values", "message"),
    [
        ("moreno", {"tt_multiplier": 10**12}, "tt_multiplier: 1000000000000 is not within 1"),
        ("moreno", {"ttt_counting_rider": 0}, "ttt_counting_rider: 0 is not within 1"),
        ("moreno", {"group_free_cases": "2"}, "group_free_cases: '2' is not a whole number"),
        ("moreno", {"drafting": 1}, "drafting"),
    ],
)
def test_the_ruleset_checks_its_own_settings_naming_the_field(ruleset, values, message):
    rules = RuleSettings.from_data({"engine": values})
    with pytest.raises(ValueError, match=message):
        adapter_for(ruleset).engine_settings(rules)


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        ([1, 2], "engine must map each setting"),
        ({"a b": 1}, "is not a setting name"),
        ({"x": {"deep": 1}}, "x must be a number, a word or true/false"),
        ({"x": float("inf")}, "x: inf is not a finite number"),
        ({"x": "y" * 201}, "x: at most 200 characters"),
        ({f"s{i}": 1 for i in range(101)}, "at most 100 settings"),
        ({"x": [[1, "2"]]}, "x must be a list of pairs of whole numbers"),
    ],
)
def test_hostile_engine_values_are_refused_when_stored(engine, message):
    with pytest.raises(ValueError, match=message):
        RuleSettings.from_data({"engine": engine})


@pytest.mark.django_db
def test_the_migration_moves_a_seasons_ruleset_settings_and_keeps_what_it_changed(
    django_user_model,
):
    """Seasons stored before issue 12 held Moréno's four settings and both gap scales at the
    top level; the migration keeps only what differs from the ruleset's own values."""
    import importlib

    from django.apps import apps

    from season.models import Season
    from tests.season.builders import league

    moving = importlib.import_module("season.migrations.0009_rule_settings_engine")
    organiser = django_user_model.objects.create_user("olga")
    moreno = league(organiser=organiser, slug="old-moreno")
    cyclosim = league(organiser=organiser, slug="old-cyclosim", ruleset="cyclosim")
    old = {k: v for k, v in RuleSettings().to_data().items() if k not in ("engine", "gap_scale")}
    old |= {"group_free_cases": 2, "final_km_neutralisation_cases": 6, "tt_multiplier": 4}
    old |= {"ttt_counting_rider": 4, "gap_scale": {"flat": 1.0, "hilly": 1.5, "mountain": 2.5}}
    old |= {"cyclosim_gap_scale": {"ITT": 0.75, "flat": 1.2}}
    Season.objects.filter(pk__in=[moreno.pk, cyclosim.pk]).update(rule_settings=old)

    moving.forwards(apps, None)

    moreno.refresh_from_db()
    cyclosim.refresh_from_db()
    assert moreno.rules.engine == {"tt_multiplier": 4}
    assert moreno.rules.gap_scale == {"mountain": 2.5}
    assert cyclosim.rules.engine == {}
    assert cyclosim.rules.gap_scale == {"flat": 1.2}
    timing = adapter_for("moreno").timing_rules(moreno.rules)
    assert (timing.gap_scale["mountain"], timing.gap_scale["hilly"]) == (2.5, 1.5)
    assert adapter_for("moreno").engine_settings(moreno.rules).tt_multiplier == 4


def test_the_jurys_share_of_the_time_cut_reaches_the_timing():
    rules = RuleSettings.from_data({"time_cut_max_out_pct": 35})
    assert rules.time_cut_max_out_pct == 35.0
    assert rules.timing_rules(gap_scale={}).time_cut_max_out_pct == 35.0
    assert RuleSettings().timing_rules(gap_scale={}).time_cut_max_out_pct == 20.0


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (101, "time_cut_max_out_pct must be between 0 and 100"),
        (1e308, "time_cut_max_out_pct must be between 0 and 100"),
        ("=1+1", "time_cut_max_out_pct: '=1\\+1' is not a number"),
        (True, "time_cut_max_out_pct: True is not a number"),
        (float("nan"), "time_cut_max_out_pct: nan is not a finite number"),
    ],
)
def test_a_jurys_share_that_is_not_a_percentage_is_refused_by_name(given, message):
    with pytest.raises(ValueError, match=message):
        RuleSettings.from_data({"time_cut_max_out_pct": given})
