"""A season is a calendar of events (issue 30): its rounds are numbered across the calendar,
each race keeps its own stages, standings and abandons, and the pages name a later race's
rounds by their stage in it."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse

from races.league.ranking import OUT_OF_RACE
from races.models import Classification, StageResult, Standing
from season import results, selectors
from season.demo import demo_load
from season.leagues import CalendarInvalid, LeagueError, calendar_event_add
from season.models import Round, Season, SeasonEvent
from season.round_names import round_name
from season.services.lifecycle import rounds_force_lock
from season.services.resolution import round_resolve
from tests.season.builders import league, template_race
from tests.season.motor_builders import motor_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_races():
    """The demo cut to two stages of the Tour, then the Tour again as the calendar's second
    race, cut to two stages too: rounds 1-2 are race 1's, rounds 3-4 race 2's."""
    cache.clear()
    season = demo_load()
    season.rounds.filter(number__gt=2).delete()
    last = season.rounds.get(number=2).orders_deadline
    template = season.event.template
    item = calendar_event_add(
        season=season, event=template, first_deadline=last + timedelta(days=3), hours_between=24
    )
    season.rounds.filter(number__gt=4).delete()
    season.refresh_from_db()
    season.calendar_forget()
    return season, item


def _resolve(season, numbers):
    for round_ in rounds_force_lock(season=season, numbers=numbers):
        round_resolve(round_id=round_.pk)


def test_a_second_race_follows_the_first_in_the_calendar(two_races):
    season, item = two_races
    assert [event.number for event in season.calendar()] == [1, 2]
    assert item.race.template_id == season.calendar()[0].race.template_id
    assert item.race_id != season.calendar()[0].race_id  # a league copy of its own
    rounds = list(season.rounds.select_related("stage").order_by("number"))
    assert [(r.number, r.season_event.number, r.stage.number) for r in rounds] == [
        (1, 1, 1),
        (2, 1, 2),
        (3, 2, 1),
        (4, 2, 2),
    ]
    assert rounds[2].orders_deadline > rounds[1].orders_deadline
    assert season.event_of_round(3) == (season.calendar()[1], 1)
    assert round_name(season, 3) == "stage 1 of Tour de France 2023"
    assert round_name(season, 1) == "stage 1 of Tour de France 2023"


def test_each_race_keeps_its_own_standings_and_the_current_event_moves_on(two_races):
    season, item = two_races
    first = season.calendar()[0]
    assert season.current_event() == first
    _resolve(season, [1, 2, 3])
    season.calendar_forget()
    assert season.current_event() == item
    # Race 2's stage 1 starts a new GC: its times are one stage's, not three stages'.
    after_three = {
        s.rider_id: s.value
        for s in Standing.objects.filter(
            stage__race=item.race, stage__number=1, classification=Classification.GENERAL
        )
    }
    stage_one = {
        r.rider_id: r.time_seconds for r in StageResult.objects.filter(stage__race=item.race)
    }
    leader = min(after_three, key=after_three.get)
    assert after_three[leader] <= stage_one[leader] + 60  # at most its bonus seconds apart
    # The season's round 3 reads race 2's stage 1, not race 1's stage 3.
    assert selectors.stage_of(season=season, number=3) == (item.race_id, 1)
    table = selectors.standings_table(season=season, number=3, classification="general")
    assert {s.stage.race_id for s in table} == {item.race_id}


def test_abandons_are_listed_by_the_seasons_round_numbers(two_races):
    season, item = two_races
    _resolve(season, [1, 2, 3, 4])
    # One rider out on each race's first stage, whatever the dice did.
    first, second = (
        StageResult.objects.filter(stage__race=race, stage__number=1, rank=1).get()
        for race in (season.calendar()[0].race, item.race)
    )
    StageResult.objects.filter(pk__in=[first.pk, second.pk]).update(
        status=StageResult.Status.ABANDONED
    )
    out = results.abandons(season=season, numbers=[1, 2, 3, 4])
    stored = {
        (r.stage.round.number, r.rider_id)
        for r in StageResult.objects.filter(
            stage__round__season=season, status__in=OUT_OF_RACE
        ).select_related("stage__round")
    }
    assert {(a.stage, a.rider_id) for a in out} == stored
    # Race 2's stage 1 is the season's round 3, not round 1.
    assert (1, first.rider_id) in stored
    assert (3, second.rider_id) in stored
    assert results.abandons(season=season, numbers=[3]) == [a for a in out if a.stage == 3]


def test_the_season_page_shows_the_current_race_and_round_pages_name_its_stages(client, two_races):
    season, _item = two_races
    _resolve(season, [1, 2, 3])
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    cache.clear()
    page = client.get(reverse("season-detail", args=[season.slug])).content.decode()
    assert reverse("season-stage", args=[season.slug, 3]) in page
    stage_page = client.get(reverse("season-stage", args=[season.slug, 3])).content.decode()
    heading = stage_page.split("<h1>", 1)[1].split("</main>", 1)[0]
    assert heading.startswith("Stage 1: ")
    assert "Tour de France 2023" in heading.split("</h1>", 1)[1][:200]
    standings = client.get(
        reverse("season-standings", args=[season.slug, "general"]) + "?after=3"
    ).content.decode()
    assert "after stage 1 of Tour de France 2023" in standings


def test_a_race_is_added_only_after_the_calendars_last_deadline(two_races):
    season, _item = two_races
    last = season.rounds.order_by("-number").first().orders_deadline
    with pytest.raises(LeagueError, match="must come after the calendar's last one"):
        calendar_event_add(
            season=season,
            event=template_race(stages=2, start_list=True),
            first_deadline=last,
            hours_between=24,
        )
    assert SeasonEvent.objects.filter(season=season).count() == 2


def test_a_race_that_is_over_cannot_grow(two_races):
    season, _item = two_races
    _resolve(season, [1, 2, 3, 4])
    with pytest.raises(LeagueError, match="The season is over"):
        calendar_event_add(
            season=season,
            event=season.event.template,
            first_deadline=season.rounds.order_by("-number").first().orders_deadline
            + timedelta(days=1),
            hours_between=24,
        )


def test_starters_are_bounded_by_the_squad_and_a_past_deadline_refused(alice):
    season = league(organiser=alice)
    last = season.rounds.order_by("-number").first().orders_deadline
    with pytest.raises(LeagueError, match="Starters per team"):
        calendar_event_add(
            season=season,
            event=template_race(stages=2),
            first_deadline=last + timedelta(days=1),
            hours_between=24,
            starters=season.roster_size + 1,
        )
    with pytest.raises(CalendarInvalid):
        calendar_event_add(
            season=season,
            event=template_race(stages=2),
            first_deadline=last - timedelta(days=30),
            hours_between=24,
        )
    assert season.events.count() == 1
    assert Round.objects.filter(season=season).count() == 3


def test_a_championship_is_the_whole_calendar_of_a_motor_season(alice):
    season = motor_league(organiser=alice)
    with pytest.raises(LeagueError, match="A championship is the whole calendar"):
        calendar_event_add(
            season=season,
            event=season.championship,
            first_deadline=season.rounds.order_by("-number").first().orders_deadline
            + timedelta(days=1),
            hours_between=24,
        )
    assert season.single_event
