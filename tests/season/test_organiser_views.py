"""The organiser's pages, end to end: create a season, settings, calendar, invitations, draft."""

from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from plugins.event_keys import event_key
from races.models import Race, RaceEntry
from season.leagues import LeagueError, season_settings_of, season_settings_update
from season.models import Membership, Round, Season
from tests.season.builders import joined, league, stage, template_race

pytestmark = pytest.mark.django_db


def create_data(template, **overrides):
    first = timezone.localtime(timezone.now() + timedelta(days=3)).replace(tzinfo=None)
    return {
        "name": "Tour des Amis",
        "slug": "amis",
        "event": f"race-{template.pk}",
        "ruleset": "moreno",
        "is_public": "on",
        "time_zone": "Europe/Paris",
        "first_deadline": first.strftime("%Y-%m-%dT20:00"),
        "hours_between": "168",
        "roster_size": "6",
        "formation_mode": "budget",
        "budget": "150",
        "max_per_real_team": "2",
        "peloton": "start",
        "same_group_same_time": "on",
        "finish_bonuses": "20, 12, 8",
        "intermediate_sprint_bonuses": "",
        **overrides,
    }


def test_an_organiser_creates_a_season_from_a_real_race(client, charlie):
    template = template_race(stages=3, start_list=True)
    client.force_login(charlie)
    assert client.get(reverse("season-create")).status_code == 200
    data = create_data(template)
    response = client.post(reverse("season-create"), data)
    season = Season.objects.get(slug="amis")
    assert response.status_code == 302
    assert response.url == reverse("organiser-season", kwargs={"slug": "amis"})
    assert season.organiser == charlie
    assert Membership.objects.get(season=season).role == Membership.Role.ORGANISER
    assert (season.roster_size, season.formation_mode, season.budget) == (6, "budget", 150)
    assert season.max_per_real_team == 2
    rules = season.rules
    assert rules.finish_bonuses == (20, 12, 8)
    assert rules.intermediate_sprint_bonuses == ()
    assert not rules.time_cut_enabled
    assert rules.same_group_same_time
    first = timezone.localtime(stage(season, 1).orders_deadline, season.tz)
    assert (first.hour, first.minute) == (20, 0)
    assert stage(season, 3).orders_deadline - stage(season, 1).orders_deadline == timedelta(days=14)
    assert season.event.kind == Race.Kind.LEAGUE


def test_the_organiser_chooses_a_field_of_the_players_riders_only(client, charlie):
    template = template_race(stages=3)
    client.force_login(charlie)
    response = client.post(reverse("season-create"), create_data(template, peloton="players"))
    assert response.status_code == 302
    season = Season.objects.get(slug="amis")
    assert season.peloton == Season.Peloton.PLAYERS
    dashboard = client.get(reverse("organiser-season", kwargs={"slug": "amis"}))
    assert "the players&#x27; riders only" in dashboard.content.decode()


def test_a_field_that_is_not_offered_is_refused_by_name(client, charlie):
    template = template_race(stages=3)
    client.force_login(charlie)
    response = client.post(reverse("season-create"), create_data(template, peloton="everyone"))
    assert response.status_code == 200
    assert "peloton" in response.context["form"].errors
    assert not Season.objects.filter(slug="amis").exists()


def test_a_motor_ruleset_on_a_stage_race_is_refused_and_nothing_created(client, charlie):
    from motor.models import Championship

    client.force_login(charlie)
    template = template_race(stages=3)
    page = client.get(reverse("season-create")).content.decode()
    # Both games' rulesets are offered, grouped under the events their leagues run.
    assert 'value="grandprix"' in page
    assert 'value="moreno"' in page
    response = client.post(reverse("season-create"), create_data(template, ruleset="grandprix"))
    assert response.status_code == 200
    (message,) = response.context["form"].errors["ruleset"]
    assert "Grand Prix (F1 dice game" in message
    assert template.name in message
    assert "Moréno" in message
    assert not Season.objects.exists()
    assert not Round.objects.exists()
    assert not Championship.objects.exists()
    assert not Race.objects.filter(kind=Race.Kind.LEAGUE).exists()


def test_the_season_model_refuses_a_ruleset_of_another_discipline_naming_both(charlie):
    from django.core.exceptions import ValidationError

    season = league(organiser=charlie, slug="amis")
    season.ruleset = "grandprix"
    with pytest.raises(ValidationError) as refused:
        season.full_clean()
    message = " ".join(refused.value.message_dict["ruleset"])
    assert "Grand Prix" in message
    assert season.event.name in message
    assert "Moréno" in message or "Moreno" in message


def test_a_season_address_is_taken_once(client, alice, charlie):
    league(organiser=alice, slug="amis")
    client.force_login(charlie)
    response = client.post(reverse("season-create"), create_data(template_race()))
    assert response.status_code == 200
    assert "Another season already uses this address." in response.content.decode()
    assert Season.objects.count() == 1


def test_the_first_deadline_must_be_in_the_future(client, charlie):
    client.force_login(charlie)
    data = create_data(template_race(), first_deadline="2020-01-01T20:00")
    response = client.post(reverse("season-create"), data)
    assert "The first deadline must be in the future." in response.content.decode()
    assert not Season.objects.exists()


def test_only_real_races_with_stages_are_offered_as_routes(client, charlie):
    offered = template_race()
    empty = Race.objects.create(name="Empty", year=2023, slug="empty", kind=Race.Kind.REAL)
    client.force_login(charlie)
    groups = dict(client.get(reverse("season-create")).context["form"].fields["event"].choices)
    keys = {str(value) for value, _label in groups["Stage races"]}
    assert f"race-{offered.pk}" in keys
    assert f"race-{empty.pk}" not in keys


def test_the_dashboard_shows_the_invitation_link_and_code(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", kwargs={"slug": season.slug})).content.decode()
    assert f"http://testserver/join/{season.invite_code}/" in page
    assert season.invite_code in page


def test_a_new_code_replaces_the_old_link(client, charlie):
    season = league(organiser=charlie)
    old = season.invite_code
    client.force_login(charlie)
    response = client.post(
        reverse("organiser-invite-regenerate", kwargs={"slug": season.slug}), follow=True
    )
    season.refresh_from_db()
    assert season.invite_code != old
    assert season.invite_code in response.content.decode()
    assert client.get(reverse("season-join", kwargs={"code": old})).status_code == 404


def test_the_organiser_starts_the_draft_and_follows_it(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    client.force_login(charlie)
    url = reverse("organiser-draft-start", kwargs={"slug": season.slug})
    assert client.get(url).status_code == 405
    response = client.post(url, follow=True)
    page = response.content.decode()
    assert "The draft has started" in page
    assert "Pick 1 of 4 (round 1)" in page
    autopick = reverse("organiser-draft-autopick", kwargs={"slug": season.slug})
    page = client.post(autopick, follow=True).content.decode()
    assert "Pick 1:" in page
    assert "Pick 2 of 4" in page


def test_the_calendar_takes_deadlines_in_the_season_time_zone(client, charlie):
    season = league(organiser=charlie, time_zone="America/New_York")
    client.force_login(charlie)
    url = reverse("organiser-calendar", kwargs={"slug": season.slug})
    local = timezone.localtime(stage(season, 1).orders_deadline, season.tz)
    assert f'value="{local:%Y-%m-%dT%H:%M}"' in client.get(url).content.decode()

    days = [timezone.localdate() + timedelta(days=n) for n in (3, 4, 5)]
    data = {f"stage_{n}": f"{day:%Y-%m-%d}T18:30" for n, day in zip((1, 2, 3), days, strict=True)}
    response = client.post(url, data)
    assert response.status_code == 302
    saved = timezone.localtime(stage(season, 2).orders_deadline, season.tz)
    assert (saved.date(), saved.hour, saved.minute) == (days[1], 18, 30)
    assert (
        saved.utcoffset()
        == datetime(days[1].year, days[1].month, days[1].day, tzinfo=season.tz).utcoffset()
    )


def test_the_calendar_refuses_deadlines_out_of_order_and_keeps_them(client, charlie):
    season = league(organiser=charlie)
    before = list(season.rounds.values_list("orders_deadline", flat=True))
    client.force_login(charlie)
    day = timezone.localdate() + timedelta(days=5)
    data = {"stage_1": f"{day}T20:00", "stage_2": f"{day}T19:00", "stage_3": f"{day}T21:00"}
    response = client.post(reverse("organiser-calendar", kwargs={"slug": season.slug}), data)
    assert response.status_code == 200
    assert "Stage 2: the deadline must come after stage 1&#x27;s." in response.content.decode()
    assert list(season.rounds.values_list("orders_deadline", flat=True)) == before


def test_a_locked_stage_is_shown_but_not_editable_on_the_calendar(client, charlie):
    season = league(organiser=charlie)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.LOCKED)
    client.force_login(charlie)
    form = client.get(reverse("organiser-calendar", kwargs={"slug": season.slug})).context["form"]
    assert form.fields["stage_1"].disabled
    assert not form.fields["stage_2"].disabled


def test_the_organiser_changes_the_rules_before_the_race(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    form = client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (False, None)}
    data |= {"name": "Renamed", "finish_bonuses": "5 3 1", "time_cut_enabled": ""}
    data = {k: v for k, v in data.items() if v != ""}
    response = client.post(url, data)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Renamed"
    assert season.rules.finish_bonuses == (5, 3, 1)
    assert not season.rules.time_cut_enabled


def test_team_rules_show_as_fixed_once_the_draft_has_started(client, alice, bob, charlie):
    from season import formation

    season = league(organiser=charlie, template=template_race(start_list=True))
    joined(season, alice, bob)
    formation.draft_start(season=season)
    client.force_login(charlie)
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    form = client.get(url).context["form"]
    assert form.fields["roster_size"].disabled
    assert form.fields["peloton"].disabled
    assert not form.fields["name"].disabled
    data = {k: v for k, v in form.initial.items() if v not in (False, None)}
    data |= {"roster_size": "9", "peloton": "players"}
    client.post(url, data)
    season.refresh_from_db()
    assert season.roster_size == 2
    assert season.peloton == Season.Peloton.START_LIST


def test_the_dashboard_works_on_the_demo_season(client):
    from season.demo import demo_load

    demo = demo_load()
    client.force_login(demo.organiser)
    response = client.get(reverse("organiser-season", kwargs={"slug": "demo"}))
    page = response.content.decode()
    assert response.status_code == 200
    assert "The teams are formed." in page
    assert "Jumbo-Visma" in page
    assert "The race has started: this season takes no new teams." in page


# --- one create page, one settings page, for every game (issue 27) ----------------------------


def _one_page_create_data(discipline, **overrides):
    """The new-season form as a browser posts it: every field of the page, whichever game."""
    from tests.season.motor_builders import real_championship

    if discipline == "cycling":
        return create_data(template_race(stages=3, start_list=True), auto_publish="on", **overrides)
    real = real_championship()
    return create_data(
        template_race(stages=3),
        event=f"championship-{real.pk}",
        ruleset="grandprix",
        points_system="f1-1961-1990",
        auto_publish="on",
        **overrides,
    )


def _settings_as_shown(page, **changes):
    """The settings form posted as shown: its fields' values, ``changes`` on top (False
    unticks a box)."""
    form = page.context["form"]
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if value is True:
            data[name] = "on"
        elif value not in (None, False):
            data[name] = ", ".join(map(str, value)) if isinstance(value, tuple) else value
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return data


@pytest.mark.parametrize("discipline", ["cycling", "motor"])
def test_auto_publish_is_chosen_on_the_one_create_page_and_changed_in_the_settings(
    client, charlie, discipline
):
    client.force_login(charlie)
    response = client.post(reverse("season-create"), _one_page_create_data(discipline))
    assert response.status_code == 302, response.context["form"].errors
    season = Season.objects.get(slug="amis")
    assert season.auto_publish
    url = reverse("organiser-settings", kwargs={"slug": season.slug})
    page = client.get(url)
    assert 'name="auto_publish"' in page.content.decode()
    assert client.post(url, _settings_as_shown(page, auto_publish=False)).status_code == 302
    assert not Season.objects.get(pk=season.pk).auto_publish


def test_a_motor_season_created_on_the_one_page_keeps_its_cars_and_ignores_the_race_rules(
    client, charlie
):
    """The page shows the cycling settings too; a season of Grands Prix takes none of them:
    teams of its game's two cars, no limit per real team, the default race rules."""
    from season.rule_settings import RuleSettings

    client.force_login(charlie)
    page = client.get(reverse("season-create")).context["form"]
    assert "Not used for Championships (Grands Prix)." in page.fields["roster_size"].help_text
    # What the page holds in the fields a motor league does not use is not even checked.
    data = _one_page_create_data("motor", roster_size="40000", finish_bonuses="ten, six")
    response = client.post(reverse("season-create"), data)
    assert response.status_code == 302
    season = Season.objects.get(slug="amis")
    assert (season.roster_size, season.max_per_real_team) == (2, None)
    assert season.rules == RuleSettings()
    assert season.points_system.slug == "f1-1961-1990"
    page = client.get(reverse("organiser-settings", kwargs={"slug": season.slug}))
    fields = page.context["form"].fields
    assert not {"roster_size", "peloton", "finish_bonuses"} & set(fields)
    assert fields["ruleset"].disabled
    assert [name for name, _label in fields["ruleset"].choices] == ["grandprix"]
    assert (
        fields["budget"].help_text
        == "Budget picks only: the most a team's two cars may cost together."
    )


# --- the peloton tells the truth (issue 29) -------------------------------------------------


def test_the_create_page_says_which_races_have_no_start_list(client, charlie):
    bare = template_race(stages=2)
    listed = template_race(stages=2, start_list=True)
    client.force_login(charlie)
    page = client.get(reverse("season-create")).content.decode()
    assert f">{bare} (no start list)<" in page
    assert f">{listed}<" in page


def test_the_organiser_page_says_who_races_without_a_start_list(client, charlie):
    season = league(
        organiser=charlie,
        template=template_race(stages=2),
        peloton=Season.Peloton.PLAYERS,
    )
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    assert "Who races: the players&#x27; riders only." in page
    assert "The race has no start list: the teams are picked from the riders" in page


def test_a_whole_start_list_is_refused_for_a_race_that_has_none(charlie):
    bare = template_race(stages=2)
    with pytest.raises(LeagueError, match=r"has no start list.*the players' riders only"):
        league(organiser=charlie, template=bare, peloton=Season.Peloton.START_LIST)
    assert not Season.objects.filter(slug="friends").exists()
    season = league(organiser=charlie, template=bare, peloton=Season.Peloton.PLAYERS)
    with pytest.raises(LeagueError, match="has no start list"):
        season_settings_update(
            season=season,
            settings=replace(season_settings_of(season), peloton=Season.Peloton.START_LIST),
        )
    season.refresh_from_db()
    assert season.peloton == Season.Peloton.PLAYERS


def test_the_create_form_names_the_peloton_a_race_without_a_start_list_can_have(client, charlie):
    bare = template_race(stages=2)
    client.force_login(charlie)
    form = client.get(reverse("season-create")).context["form"]
    data = {
        name: field.initial() if callable(field.initial) else field.initial
        for name, field in form.fields.items()
        if field.initial is not None
    } | {
        "name": "Bare Tour",
        "slug": "bare",
        "ruleset": "moreno",
        "event": event_key("race", bare.pk),
        "peloton": Season.Peloton.START_LIST,
        "first_deadline": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
    }
    page = client.post(reverse("season-create"), data)
    assert page.status_code == 200
    errors = page.context["form"].errors
    assert "peloton" in errors, errors
    assert "has no start list" in errors["peloton"][0]
    assert not Season.objects.filter(slug="bare").exists()


def test_the_organiser_page_counts_the_start_list_that_races(client, charlie):
    template = template_race(stages=2, start_list=True)
    riders = RaceEntry.objects.filter(race=template).count()
    season = league(organiser=charlie, template=template, peloton=Season.Peloton.START_LIST)
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    assert f"computer teams with the rest of the start list&#x27;s {riders} riders" in page
    assert "The start list has riders for" in page


def test_the_organiser_page_of_a_players_only_league_promises_no_computer_team(client, charlie):
    season = league(
        organiser=charlie,
        template=template_race(stages=2),
        peloton=Season.Peloton.PLAYERS,
        formation_mode=Season.FormationMode.BUDGET,
    )
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    assert "only the players' teams race" in page
    assert "computer teams take what no player took" not in page
