"""A hostile user finds nothing: each value below once answered 500 or was stored unchecked.
Each is refused with a message that names the field or the rule, and nothing changes."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from season.models import Season, SeasonTeam
from season.rule_settings import RuleSettings
from season.tables import spreadsheet_safe
from tests.season.builders import joined, league, template_race
from tests.season.test_organiser_views import create_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def settings_data(season, **overrides):
    from season.forms import SeasonSettingsForm

    initial = SeasonSettingsForm.initial_for(season)
    data = {key: value for key, value in initial.items() if value not in (None, False)}
    data = {key: ("on" if value is True else value) for key, value in data.items()}
    return data | overrides


def errors_of(response, field):
    return [str(e) for e in response.context["form"].errors.get(field, [])]


# --- integer limits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("budget", "99999999999", "less than or equal to 10000"),
        ("max_per_real_team", "40000", "less than or equal to 30"),
        ("roster_size", "40000", "less than or equal to 30"),
    ],
)
def test_a_huge_number_on_the_new_season_form_is_refused_by_its_field(
    client, charlie, field, value, message
):
    client.force_login(charlie)
    response = client.post(reverse("season-create"), create_data(template_race(), **{field: value}))
    assert response.status_code == 200
    assert any(message in error for error in errors_of(response, field))
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"), [("budget", "99999999999"), ("max_per_real_team", "40000")]
)
def test_a_huge_number_on_the_settings_form_is_refused_and_nothing_changes(
    client, charlie, field, value
):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    response = client.post(url, settings_data(season, **{field: value}))
    assert response.status_code == 200
    assert errors_of(response, field)
    season.refresh_from_db()
    assert (season.budget, season.max_per_real_team) == (180, 3)


def test_a_first_deadline_in_the_year_9999_is_refused(client, charlie):
    client.force_login(charlie)
    data = create_data(template_race(), first_deadline="9999-12-31T23:00")
    response = client.post(reverse("season-create"), data)
    assert response.status_code == 200
    assert "Give a date between the years 2000 and 2099." in errors_of(response, "first_deadline")
    assert not Season.objects.exists()


def test_a_season_that_would_end_years_from_now_is_refused(client, charlie):
    client.force_login(charlie)
    first = timezone.localtime(timezone.now() + timedelta(days=700)).replace(tzinfo=None)
    data = create_data(
        template_race(stages=5), first_deadline=first.strftime("%Y-%m-%dT20:00"), hours_between=672
    )
    response = client.post(reverse("season-create"), data)
    assert response.status_code == 200
    assert any("within two years" in e for e in errors_of(response, "first_deadline"))
    assert not Season.objects.exists()


def test_a_calendar_deadline_in_the_year_9999_is_refused(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-calendar", kwargs={"slug": season.slug})
    before = list(season.rounds.values_list("orders_deadline", flat=True))
    data = {"stage_1": "9999-12-31T23:00", "stage_2": "2030-01-01T10:00"}
    response = client.post(url, data | {"stage_3": "2030-01-02T10:00"})
    assert response.status_code == 200
    assert "Give a date between the years 2000 and 2099." in response.content.decode()
    assert list(season.rounds.values_list("orders_deadline", flat=True)) == before


def test_a_calendar_deadline_years_away_is_refused_by_the_service(charlie):
    from season.leagues import CalendarInvalid, calendar_update

    season = league(organiser=charlie)
    before = list(season.rounds.values_list("orders_deadline", flat=True))
    far = timezone.now() + timedelta(days=3 * 365)
    with pytest.raises(CalendarInvalid, match="Stage 3: the deadline is more than two years away"):
        calendar_update(season=season, deadlines={3: far})
    assert list(season.rounds.values_list("orders_deadline", flat=True)) == before


# --- reinstating --------------------------------------------------------------------------------


def test_reinstating_a_rider_who_did_not_ride_says_so(client, demo):
    from season.services import resolution
    from tests.season.builders import stage

    resolution.round_resolve(round_id=stage(demo, 1).pk)
    client.force_login(demo.organiser)
    url = reverse(
        "season-stage-reinstate", kwargs={"slug": demo.slug, "number": 1, "rider_id": 999999}
    )
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert "No rider 999999 rode stage 1." in response.content.decode()


def test_reinstating_on_a_stage_without_results_says_so(client, demo):
    client.force_login(demo.organiser)
    rider_id = demo.teams.first().seats.first().rider_id
    url = reverse(
        "season-stage-reinstate", kwargs={"slug": demo.slug, "number": 2, "rider_id": rider_id}
    )
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert "Stage 2 has no results yet: nobody can be reinstated." in response.content.decode()


# --- invitation codes ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["%00", "abc%00def", "x" * 500, "%E2%80%AE"])
def test_a_hostile_invitation_code_finds_no_season(client, alice, charlie, code):
    league(organiser=charlie)
    client.force_login(alice)
    response = client.get(f"/join/{code}/")
    assert response.status_code == 404


# --- rule settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1000000000000000000000000000000", "Give seconds as whole numbers"),
        (", ".join(["1"] * 20000), "At most 10 bonuses"),
        ("10, 6, 4000", "A bonus is at most 600 seconds."),
    ],
)
def test_bonuses_beyond_any_real_race_are_refused_on_the_form(client, charlie, value, message):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    response = client.post(url, settings_data(season, finish_bonuses=value))
    assert response.status_code == 200
    assert any(message in e for e in errors_of(response, "finish_bonuses"))
    season.refresh_from_db()
    assert season.rules.finish_bonuses == (10, 6, 4)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"finish_bonuses": [10**30]}, "finish_bonuses: each bonus must be 0 to 600"),
        ({"finish_bonuses": [1] * 20000}, "finish_bonuses: at most 10 bonuses"),
        ({"finish_bonuses": "10, 6"}, "finish_bonuses must be a list of whole numbers"),
        ({"intermediate_sprint_bonuses": [True]}, "must be a list of whole numbers"),
        ({"reference_speed_kmh": {"flat": 1e308}}, "between 10 and 80"),
        ({"reference_speed_kmh": {"flat": float("nan")}}, "not a finite number"),
        ({"reference_speed_kmh": {"flat": "fast"}}, "'fast' is not a number"),
        ({"reference_speed_kmh": {"motorway": 90}}, "unknown stage type(s) motorway"),
        ({"gap_scale": [1, 2]}, "gap_scale must map each stage type to a number"),
        ({"time_cut_pct": {"flat": 0}}, "time_cut_pct: each value must be between 1 and 100"),
        ({"time_cut_enabled": "no"}, "time_cut_enabled must be true or false"),
    ],
)
def test_stored_rule_settings_are_checked_against_their_bounds(data, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RuleSettings.from_data(data)


def test_the_admin_refuses_rule_settings_out_of_bounds_and_keeps_the_season(client, charlie):
    from django.contrib.auth.models import User

    season = league(organiser=charlie)
    admin = User.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    url = reverse("admin:season_season_change", args=[season.pk])
    form = client.get(url).context["adminform"].form
    data = {
        name: form[name].value()
        for name in form.fields
        if form[name].value() is not None and name != "rule_settings"
    }
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    stored = season.rules.to_data() | {"finish_bonuses": [10**30]}
    data["rule_settings"] = json.dumps(stored)
    for prefix in ("stages", "memberships"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "each bonus must be 0 to 600 seconds" in response.content.decode()
    season.refresh_from_db()
    assert season.rules.finish_bonuses == (10, 6, 4)


# --- names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [("Les \u202eséhcappÉ", "U+202E"), ("Tab\tTeam", "U+0009"), ("Null\x00Team", "U+0000")],
)
def test_a_team_name_with_control_or_bidi_characters_is_refused(client, alice, charlie, name, code):
    season = league(organiser=charlie)
    client.force_login(alice)
    link = reverse("season-join", kwargs={"code": season.invite_code})
    response = client.post(link, {"team_name": name})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Names cannot contain control or invisible formatting characters" in page
    assert code in page
    assert not SeasonTeam.objects.filter(owner=alice).exists()


def test_a_season_name_with_a_bidi_override_is_refused(client, charlie):
    client.force_login(charlie)
    response = client.post(
        reverse("season-create"), create_data(template_race(), name="Tour \u202edrawkcab")
    )
    assert response.status_code == 200
    assert any("U+202E" in e for e in errors_of(response, "name"))
    assert not Season.objects.exists()


def test_the_models_refuse_unprintable_names_for_the_admin_too(charlie):
    from django.core.exceptions import ValidationError

    season = league(organiser=charlie)
    season.name = "Tour\u2066 hidden"
    with pytest.raises(ValidationError, match="U\\+2066"):
        season.full_clean()


# --- spreadsheet exports ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "exported"),
    [
        ('=HYPERLINK("http://x/","click")', '\'=HYPERLINK("http://x/","click")'),
        ("+cmd", "'+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("-3", "-3"),
        ("+12.5", "+12.5"),
        ("Jumbo-Visma", "Jumbo-Visma"),
        (42, 42),
    ],
)
def test_a_cell_a_spreadsheet_would_run_is_quoted(value, exported):
    assert spreadsheet_safe(value) == exported


def test_a_formula_team_name_reaches_the_organisers_csv_as_text(client, alice, charlie):
    season = league(organiser=charlie)
    team = joined(season, alice)[0]
    SeasonTeam.objects.filter(pk=team.pk).update(name='=HYPERLINK("http://x/","click")')
    client.force_login(charlie)
    url = reverse("organiser-season", kwargs={"slug": season.slug})
    response = client.get(url, {"_export": "csv", "_table": "members-"})
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert '\'=HYPERLINK("http://x/","click")' in cells
    assert '=HYPERLINK("http://x/","click")' not in cells


# --- methods and the orders form ----------------------------------------------------------------


@pytest.mark.parametrize("method", ["put", "patch", "delete", "trace"])
def test_the_orders_page_answers_405_to_other_methods(client, demo, method):
    team = demo.teams.get(owner__username="alice")
    client.force_login(team.owner)
    url = reverse("player-orders", kwargs={"slug": demo.slug, "team_id": team.pk})
    response = getattr(client, method)(url)
    assert response.status_code == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "POST", "OPTIONS"}


@pytest.mark.parametrize("stage_value", ["abc", None, "-1"])
def test_orders_that_do_not_say_their_stage_are_refused_with_the_reason(client, demo, stage_value):
    from season.models import Orders

    team = demo.teams.get(owner__username="alice")
    client.force_login(team.owner)
    url = reverse("player-orders", kwargs={"slug": demo.slug, "team_id": team.pk})
    form = client.get(url).context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    if stage_value is None:
        del data["stage"]
    else:
        data["stage"] = stage_value
    before = Orders.objects.count()
    response = client.post(url, data)
    assert response.status_code == 200
    assert "These orders do not say which stage they are for" in response.content.decode()
    assert Orders.objects.count() == before
