"""The season's calendar (issue 30): adding and removing a race, the organiser's page of the
calendar's races, the season page's year, a page per event, `manage.py season_calendar`."""

import csv
import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from races.models import Race
from season.leagues import LeagueError, calendar_event_add, calendar_event_remove
from season.models import Round, SeasonEvent
from tests.season.builders import joined, league, template_race
from tests.season.motor_builders import motor_league

pytestmark = pytest.mark.django_db


def three_races(organiser, *, stages=(3, 2, 2)):
    """A season of three races: ``stages`` stages each, a day apart, races a week apart."""
    season = league(organiser=organiser, template=template_race(stages=stages[0]))
    for count in stages[1:]:
        last = season.rounds.order_by("-number").first()
        calendar_event_add(
            season=season,
            event=template_race(stages=count),
            first_deadline=last.orders_deadline + timedelta(days=7),
            hours_between=24,
        )
    return season


def calendar_of(season):
    """(event number, [round numbers]) of every event, in order."""
    return [
        (item.number, list(item.rounds.order_by("number").values_list("number", flat=True)))
        for item in SeasonEvent.objects.filter(season=season).order_by("number")
    ]


# --- the services ------------------------------------------------------------------------


def test_a_race_added_at_the_end_numbers_its_rounds_on(charlie):
    season = three_races(charlie)
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5]), (3, [6, 7])]


def test_adding_a_race_refuses_a_first_deadline_before_the_calendars_last(charlie):
    season = league(organiser=charlie)
    last = season.rounds.order_by("-number").first()
    with pytest.raises(LeagueError, match="after the calendar's last one"):
        calendar_event_add(
            season=season,
            event=template_race(),
            first_deadline=last.orders_deadline,
            hours_between=24,
        )
    assert season.events.count() == 1


def test_adding_a_race_refuses_more_starters_than_the_squad(charlie):
    season = league(organiser=charlie)
    with pytest.raises(LeagueError, match="Starters per team"):
        calendar_event_add(
            season=season,
            event=template_race(),
            first_deadline=timezone.now() + timedelta(days=30),
            hours_between=24,
            starters=season.roster_size + 1,
        )


def test_a_championship_takes_no_other_event(charlie):
    season = motor_league(organiser=charlie)
    with pytest.raises(LeagueError, match="whole calendar"):
        calendar_event_add(
            season=season,
            event=template_race(),
            first_deadline=timezone.now() + timedelta(days=60),
            hours_between=24,
        )


def test_removing_a_race_renumbers_the_races_and_rounds_after_it(charlie):
    season = three_races(charlie)
    removed = season.events.get(number=2).race_id
    after = season.events.get(number=3)
    calendar_event_remove(season=season, number=2)
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5])]
    # The race that was third is second now, its rounds moved up two places.
    assert SeasonEvent.objects.get(pk=after.pk).number == 2
    assert not Race.objects.filter(pk=removed).exists()
    assert Round.objects.filter(season=season).count() == 5


def test_removing_the_last_race_leaves_the_rest_as_it_was(charlie):
    season = three_races(charlie)
    calendar_event_remove(season=season, number=3)
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5])]


def test_a_race_that_has_started_cannot_be_removed(charlie):
    season = three_races(charlie)
    first = season.events.get(number=2).rounds.order_by("number").first()
    Round.objects.filter(pk=first.pk).update(status=Round.Status.OPEN)
    with pytest.raises(LeagueError, match="has started"):
        calendar_event_remove(season=season, number=2)
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5]), (3, [6, 7])]


def test_the_only_race_cannot_be_removed(charlie):
    season = league(organiser=charlie)
    with pytest.raises(LeagueError, match="only one"):
        calendar_event_remove(season=season, number=1)
    assert season.events.count() == 1


def test_an_unknown_race_number_is_refused_by_number(charlie):
    season = three_races(charlie)
    with pytest.raises(LeagueError, match="number 9"):
        calendar_event_remove(season=season, number=9)


# --- the command -------------------------------------------------------------------------


def test_the_calendar_command_prints_one_csv_row_per_round(charlie):
    season = three_races(charlie)
    out = io.StringIO()
    call_command("season_calendar", season.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["event"], r["round"], r["round_in_race"]) for r in rows] == [
        ("1", "1", "1"),
        ("1", "2", "2"),
        ("1", "3", "3"),
        ("2", "4", "1"),
        ("2", "5", "2"),
        ("3", "6", "1"),
        ("3", "7", "2"),
    ]
    second = season.events.get(number=2)
    assert rows[3]["race"] == second.race.template.name
    assert rows[3]["name"] == f"Stage 1 of {second.race.template.name}"
    fourth = season.rounds.get(number=4)
    assert rows[3]["deadline"] == timezone.localtime(fourth.orders_deadline, season.tz).isoformat()
    assert rows[3]["deadline"].endswith(("+01:00", "+02:00"))  # Europe/Paris
    assert {r["status"] for r in rows} == {"scheduled"}


def test_the_calendar_command_prints_a_table_by_default(charlie):
    season = three_races(charlie)
    out = io.StringIO()
    call_command("season_calendar", season.slug, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == [
        "event",
        "race",
        "round",
        "round_in_race",
        "name",
        "deadline",
        "status",
    ]
    assert len(lines) == 1 + 7


def test_the_calendar_command_names_an_unknown_season():
    with pytest.raises(CommandError, match="'nowhere'"):
        call_command("season_calendar", "nowhere")


# --- the organiser's page ----------------------------------------------------------------


def add_data(template, *, days=30, **overrides):
    first = timezone.localtime(timezone.now() + timedelta(days=days)).replace(tzinfo=None)
    return {
        "event": f"race-{template.pk}",
        "first_deadline": first.strftime("%Y-%m-%dT20:00"),
        "hours_between": "24",
        "starters": "",
    } | overrides


def test_the_organiser_adds_a_race_on_the_page(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-races", kwargs={"slug": season.slug})
    page = client.get(url)
    assert page.status_code == 200
    assert "Add a race" in page.content.decode()
    response = client.post(url, add_data(template_race(stages=2), starters="2"))
    assert response.status_code == 302
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5])]
    assert season.events.get(number=2).starters == 2
    page = client.get(url).content.decode()
    assert "Stage 1 of" in page
    assert "after the previous race" in page


def test_a_refused_race_is_named_on_the_form_and_nothing_added(client, charlie):
    season = league(organiser=charlie, first_deadline=timezone.now() + timedelta(days=40))
    client.force_login(charlie)
    url = reverse("organiser-races", kwargs={"slug": season.slug})
    response = client.post(url, add_data(template_race(), days=20))
    assert response.status_code == 200
    assert "must come after the calendar&#x27;s last one" in response.content.decode()
    assert season.events.count() == 1


def test_starters_above_the_squad_are_refused_on_the_form(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-races", kwargs={"slug": season.slug})
    response = client.post(url, add_data(template_race(), starters=str(season.roster_size + 1)))
    assert response.status_code == 200
    assert response.context["form"].errors["starters"]
    assert season.events.count() == 1


def test_a_championship_page_offers_no_add_form_and_says_why(client, charlie):
    season = motor_league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-races", kwargs={"slug": season.slug})
    page = client.get(url).content.decode()
    assert 'id="race-add-closed"' in page
    assert 'name="first_deadline"' not in page
    assert client.post(url, add_data(template_race())).status_code == 403


def test_the_organiser_removes_a_race_not_started(client, charlie):
    season = three_races(charlie)
    client.force_login(charlie)
    confirm = reverse("organiser-race-remove-confirm", kwargs={"slug": season.slug, "number": 2})
    assert client.get(confirm).status_code == 200
    done = reverse("organiser-race-remove", kwargs={"slug": season.slug, "number": 2})
    assert client.post(done).status_code == 302
    assert calendar_of(season) == [(1, [1, 2, 3]), (2, [4, 5])]


def test_the_dashboard_links_the_races_page(client, charlie):
    season = league(organiser=charlie)
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", kwargs={"slug": season.slug})).content.decode()
    assert reverse("organiser-races", kwargs={"slug": season.slug}) in page


def test_a_player_may_not_use_the_races_page(client, charlie, alice):
    season = three_races(charlie)
    joined(season, alice)
    client.force_login(alice)
    kwargs = {"slug": season.slug}
    assert client.get(reverse("organiser-races", kwargs=kwargs)).status_code == 403
    assert client.post(reverse("organiser-races", kwargs=kwargs), {}).status_code == 403
    remove = reverse("organiser-race-remove", kwargs=kwargs | {"number": 2})
    assert client.post(remove).status_code == 403
    assert season.events.count() == 3


def test_a_private_season_races_page_is_not_found_for_a_stranger(client, charlie, bob):
    season = league(organiser=charlie, is_public=False)
    client.force_login(bob)
    assert client.get(reverse("organiser-races", kwargs={"slug": season.slug})).status_code == 404


def test_the_deadlines_of_a_later_race_are_edited_on_the_calendar_page(client, charlie):
    season = three_races(charlie)
    client.force_login(charlie)
    url = reverse("organiser-calendar", kwargs={"slug": season.slug})
    data = {}
    with timezone.override(season.tz):
        for r in season.rounds.order_by("number"):
            moved = r.orders_deadline + (timedelta(hours=2) if r.number == 7 else timedelta())
            data[f"stage_{r.number}"] = timezone.localtime(moved).strftime("%Y-%m-%dT%H:%M")
    before = season.rounds.get(number=7).orders_deadline
    assert client.post(url, data).status_code == 302
    expected = before.replace(second=0, microsecond=0) + timedelta(hours=2)
    assert season.rounds.get(number=7).orders_deadline == expected


# --- the season page and the event pages --------------------------------------------------


def test_the_season_page_shows_the_whole_year(client, charlie):
    season = three_races(charlie)
    Round.objects.filter(season=season, number__lte=3).update(status=Round.Status.PUBLISHED)
    page = client.get(reverse("season-detail", kwargs={"slug": season.slug})).content.decode()
    assert 'id="calendar-year"' in page
    for number in (1, 2, 3):
        assert reverse("season-event", kwargs={"slug": season.slug, "number": number}) in page
    assert page.count("status-done") == 1
    assert page.count("status-now") == 1
    assert page.count("status-to-come") == 1
    assert "Next deadline:" in page


def test_a_season_of_one_race_has_no_calendar_block(client, charlie):
    season = league(organiser=charlie)
    page = client.get(reverse("season-detail", kwargs={"slug": season.slug})).content.decode()
    assert 'id="calendar-year"' not in page


def test_an_event_page_shows_its_own_rounds_only(client, charlie):
    season = three_races(charlie)
    page = client.get(reverse("season-event", kwargs={"slug": season.slug, "number": 2}))
    assert page.status_code == 200
    rounds = [r.number for r in page.context["calendar_rounds"]]
    assert rounds == [4, 5]
    assert "Race 2 of the calendar" in page.content.decode()


def test_an_unknown_event_is_not_found(client, charlie):
    season = three_races(charlie)
    url = reverse("season-event", kwargs={"slug": season.slug, "number": 4})
    assert client.get(url).status_code == 404


def test_an_event_page_of_a_private_season_is_not_found_for_a_stranger(client, charlie, bob):
    season = league(organiser=charlie, is_public=False)
    client.force_login(bob)
    url = reverse("season-event", kwargs={"slug": season.slug, "number": 1})
    assert client.get(url).status_code == 404


def test_an_event_page_hides_results_not_published(client, charlie):
    season = three_races(charlie)
    season.auto_publish = False
    season.save(update_fields=["auto_publish"])
    Round.objects.filter(season=season, number=1).update(status=Round.Status.RESOLVED)
    url = reverse("season-event", kwargs={"slug": season.slug, "number": 1})
    assert client.get(url).context["last"] is None
    client.force_login(charlie)
    assert client.get(url).context["last"] == 1


def test_the_organiser_sets_who_starts_a_race_until_it_begins(client, alice):
    from season.leagues import calendar_event_starters
    from season.services.lifecycle import round_open

    season = league(organiser=alice, roster_size=4)
    client.force_login(alice)
    url = reverse("organiser-race-starters", args=[season.slug, 1])
    client.post(url, {"starters": "3"})
    assert season.events.get(number=1).starters == 3
    client.post(url, {"starters": "5"})  # more than the squad: refused, nothing changes
    assert season.events.get(number=1).starters == 3
    client.post(url, {"starters": ""})
    assert season.events.get(number=1).starters is None
    round_open(round=season.rounds.get(number=1))
    with pytest.raises(LeagueError, match="This race has started"):
        calendar_event_starters(season=season, number=1, starters=2)
    assert season.events.get(number=1).starters is None
