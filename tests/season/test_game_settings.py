"""The organiser's settings of the season's game: a form generated from the ruleset's settings
spec by its adapter, stored in the season's rules, used by the engine, checked from both sides."""

import pytest
from django.urls import reverse

from plugins import adapter_for
from season.demo import demo_load
from season.leagues import LeagueError
from season.models import Round, Season
from season.services import resolution
from season.services.game_settings import game_settings_update, game_settings_values
from tests.factories import UserFactory
from tests.season.builders import joined, league, stage

pytestmark = pytest.mark.django_db


def url(season):
    return reverse("organiser-game-settings", kwargs={"slug": season.slug})


def posted(season, **changes):
    """The form as the organiser sees it, with ``changes``."""
    values = game_settings_values(season)
    data = {}
    for spec_field in adapter_for(season.ruleset).settings_spec:
        value = changes.get(spec_field.name, values[spec_field.name])
        if spec_field.kind == "bool":
            if value:
                data[spec_field.name] = "on"
        elif spec_field.kind == "int_pairs":
            data[spec_field.name] = ", ".join(f"{a}:{b}" for a, b in value)
        elif value is not None:
            data[spec_field.name] = str(value)
    return data


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
def test_the_form_has_every_setting_of_the_ruleset_within_its_bounds(client, ruleset):
    organiser = UserFactory()
    season = league(organiser=organiser, ruleset=ruleset)
    client.force_login(organiser)
    form = client.get(url(season)).context["form"]
    spec = adapter_for(ruleset).settings_spec
    # Beside the game's settings, the league's runs of the odds (docs/odds.md).
    assert [name for name in form.fields if name != "odds_runs"] == list(spec.names)
    for spec_field in spec:
        if spec_field.kind == "int":
            assert form.fields[spec_field.name].max_value == spec_field.maximum


def test_a_cyclosim_setting_is_saved_and_reaches_the_engine(client):
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="cyclosim")
    season.refresh_from_db()
    client.force_login(season.organiser)
    response = client.post(url(season), posted(season, overnight_recovery=77))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.rules.engine == {"overnight_recovery": 77}

    resolved = resolution.round_resolve(round_id=stage(season, 1).pk)
    assert resolved.engine_inputs["settings"]["overnight_recovery"] == 77


def test_only_values_that_differ_from_the_defaults_are_stored(client):
    organiser = UserFactory()
    season = league(organiser=organiser)
    client.force_login(organiser)
    client.post(url(season), posted(season))
    season.refresh_from_db()
    assert season.rules.engine == {}
    # The league's own default (six cases neutralised at the line) is what the form shows.
    assert game_settings_values(season)["final_km_neutralisation_cases"] == 6


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("tt_multiplier", "11", "less than or equal to 10"),
        ("tt_multiplier", "9" * 40, "less than or equal to 10"),
        ("sprint_riders", "=1+1", "Enter a whole number"),
        ("abandon_table", "4:1, x:2", "is not a pair of whole numbers"),
    ],
)
def test_a_value_out_of_the_ruleset_bounds_is_refused_naming_the_field(
    client, name, value, message
):
    organiser = UserFactory()
    season = league(organiser=organiser)
    client.force_login(organiser)
    response = client.post(url(season), posted(season) | {name: value})
    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors[name])
    season.refresh_from_db()
    assert season.rules.engine == {}


def test_the_service_refuses_what_the_spec_refuses_and_writes_nothing():
    season = league(organiser=UserFactory())
    with pytest.raises(LeagueError, match="tt_multiplier: 99 is not within 1"):
        game_settings_update(season=season, values={"tt_multiplier": 99})
    with pytest.raises(LeagueError, match="Unknown setting: drafting"):
        game_settings_update(season=season, values={"drafting": True})
    assert Season.objects.get(pk=season.pk).rules.engine == {}


def test_the_settings_are_fixed_once_a_round_is_resolved(client):
    organiser = UserFactory()
    season = league(organiser=organiser)
    # A resolved round (as far as the rules are concerned).
    Round.objects.filter(season=season, number=1).update(status=Round.Status.RESOLVED)
    with pytest.raises(LeagueError, match="can no longer change"):
        game_settings_update(season=season, values={"tt_multiplier": 5})
    client.force_login(organiser)
    form = client.get(url(season)).context["form"]
    # All but the league's runs of the odds, which the results do not depend on.
    assert all(field.disabled for name, field in form.fields.items() if name != "odds_runs")


def test_a_player_or_another_organiser_cannot_change_them(client):
    organiser, other = UserFactory(), UserFactory()
    season = league(organiser=organiser)
    (team,) = joined(season, UserFactory())
    league(organiser=other, slug="theirs")
    for user in (team.owner, other):
        client.force_login(user)
        assert client.get(url(season)).status_code in (403, 404)
        response = client.post(url(season), posted(season, tt_multiplier=5))
        assert response.status_code in (403, 404)
    client.logout()
    assert client.post(url(season), posted(season, tt_multiplier=5)).status_code == 302
    assert Season.objects.get(pk=season.pk).rules.engine == {}
