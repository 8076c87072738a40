"""Seasons as the organiser creates and runs them: route, calendar, invitations, joining."""

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from races.models import Race
from season import formation, leagues
from season.leagues import CalendarInvalid, JoinRefused, LeagueError
from season.models import Membership, Round, Season
from season.rule_settings import RuleSettings
from tests.season.builders import joined, league, stage, template_race

pytestmark = pytest.mark.django_db


def test_stage_deadlines_come_every_given_hours():
    first = datetime(2026, 7, 1, 18, 0, tzinfo=UTC)
    assert leagues.stage_deadlines(first=first, hours_between=168, count=3) == [
        first,
        first + timedelta(days=7),
        first + timedelta(days=14),
    ]


def test_creating_a_season_copies_the_route_with_one_deadline_per_stage(charlie):
    template = template_race(stages=3)
    first = timezone.now() + timedelta(days=1)
    season = league(organiser=charlie, template=template, first_deadline=first, hours_between=48)
    assert season.event.kind == Race.Kind.LEAGUE
    assert season.event.template == template
    assert season.event.stages.count() == 3
    deadlines = list(season.rounds.order_by("number").values_list("orders_deadline", flat=True))
    assert deadlines == [first, first + timedelta(hours=48), first + timedelta(hours=96)]
    assert set(season.rounds.values_list("status", flat=True)) == {Round.Status.SCHEDULED}


def test_the_creator_organises_the_new_season(charlie):
    season = league(organiser=charlie)
    assert season.organiser == charlie
    membership = Membership.objects.get(season=season)
    assert (membership.user, membership.role) == (charlie, Membership.Role.ORGANISER)


def test_the_rule_settings_are_stored_as_data(charlie):
    rules = RuleSettings(same_group_same_time=False, finish_bonuses=(20, 12, 8))
    season = league(organiser=charlie, rule_settings=rules)
    season.refresh_from_db()
    assert season.rules == rules


def test_every_season_has_its_own_invitation_code(charlie):
    first = league(organiser=charlie, slug="one")
    second = league(organiser=charlie, slug="two")
    assert first.invite_code != second.invite_code
    assert len(first.invite_code) >= 10


def test_a_new_invitation_code_retires_the_old_one(charlie):
    season = league(organiser=charlie)
    old = season.invite_code
    new = leagues.invite_code_regenerate(season=season)
    assert new != old
    assert leagues.season_by_invite_code(old) is None
    assert leagues.season_by_invite_code(f" {new} ") == season


def test_a_player_joins_with_a_team_named_as_he_chooses(alice, charlie):
    season = league(organiser=charlie)
    team = leagues.season_join(season=season, user=alice, team_name="  Les   Grimpeurs ")
    assert (team.name, team.owner, team.season) == ("Les Grimpeurs", alice, season)
    assert not team.seats.exists()
    membership = Membership.objects.get(season=season, user=alice)
    assert membership.role == Membership.Role.PLAYER


def test_team_names_are_unique_in_a_season_whatever_the_case(alice, bob, charlie):
    season = league(organiser=charlie)
    leagues.season_join(season=season, user=alice, team_name="Les Grimpeurs")
    with pytest.raises(JoinRefused, match="already called les grimpeurs"):
        leagues.season_join(season=season, user=bob, team_name="les grimpeurs")
    assert not Membership.objects.filter(season=season, user=bob).exists()


def test_a_player_has_one_team_per_season(alice, charlie):
    season = league(organiser=charlie)
    leagues.season_join(season=season, user=alice, team_name="First")
    with pytest.raises(JoinRefused, match="already play in this season with First"):
        leagues.season_join(season=season, user=alice, team_name="Second")


def test_the_organiser_may_play_in_his_own_season(charlie):
    season = league(organiser=charlie)
    team = leagues.season_join(season=season, user=charlie, team_name="Charlie's")
    assert team.owner == charlie
    assert Membership.objects.get(season=season, user=charlie).role == Membership.Role.ORGANISER


def test_nobody_joins_once_the_draft_has_started(alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(3))
    season.refresh_from_db()
    with pytest.raises(JoinRefused, match="The draft has started"):
        leagues.season_join(season=season, user=charlie, team_name="Late")


def test_nobody_joins_once_the_race_has_started(alice, charlie):
    season = league(organiser=charlie, formation_mode=Season.FormationMode.BUDGET)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    with pytest.raises(JoinRefused, match="The race has started"):
        leagues.season_join(season=season, user=alice, team_name="Late")


def test_nobody_joins_a_season_whose_start_list_is_used_up(alice, bob, charlie):
    season = league(
        organiser=charlie, template=template_race(real_teams=1, riders_per_team=3), roster_size=2
    )
    joined(season, alice)
    with pytest.raises(JoinRefused, match="This season is full"):
        leagues.season_join(season=season, user=bob, team_name="Bob's")


# --- the calendar ----------------------------------------------------------------------------


def test_the_organiser_moves_a_deadline(charlie):
    season = league(organiser=charlie)
    later = stage(season, 1).orders_deadline + timedelta(hours=3)
    leagues.calendar_update(season=season, deadlines={1: later})
    assert stage(season, 1).orders_deadline == later


def test_a_deadline_must_come_after_the_previous_stage(charlie):
    season = league(organiser=charlie)
    before = stage(season, 2).orders_deadline
    too_late = stage(season, 3).orders_deadline + timedelta(hours=1)
    with pytest.raises(CalendarInvalid) as refused:
        leagues.calendar_update(season=season, deadlines={2: too_late})
    assert refused.value.errors == ["Stage 3: the deadline must come after stage 2's."]
    assert stage(season, 2).orders_deadline == before


def test_a_deadline_cannot_move_into_the_past(charlie):
    season = league(organiser=charlie)
    with pytest.raises(CalendarInvalid, match="Stage 1: the deadline is in the past"):
        leagues.calendar_update(season=season, deadlines={1: timezone.now() - timedelta(minutes=1)})


def test_a_championships_calendar_refusals_name_its_rounds(charlie):
    from season.services.deadlines import deadlines_shift
    from tests.season.motor_builders import motor_league

    season = motor_league(organiser=charlie, first_deadline=timezone.now() + timedelta(hours=30))
    too_late = stage(season, 3).orders_deadline + timedelta(hours=1)
    with pytest.raises(CalendarInvalid) as refused:
        leagues.calendar_update(season=season, deadlines={2: too_late})
    assert refused.value.errors == ["Round 3: the deadline must come after round 2's."]
    with pytest.raises(CalendarInvalid, match="Round 1: the deadline is in the past"):
        leagues.calendar_update(season=season, deadlines={1: timezone.now() - timedelta(minutes=1)})
    far = timezone.now() + timedelta(days=800)
    with pytest.raises(CalendarInvalid, match="Round 3: the deadline is more than two years"):
        leagues.calendar_update(season=season, deadlines={3: far})
    with pytest.raises(CalendarInvalid) as refused:
        deadlines_shift(season=season, delta=timedelta(days=-2))
    assert refused.value.errors[0].startswith("Round 1: the deadline would be ")


def test_a_locked_stage_keeps_its_deadline(charlie):
    season = league(organiser=charlie)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.LOCKED)
    with pytest.raises(CalendarInvalid, match="Stage 1 is locked: its deadline can no longer"):
        leagues.calendar_update(
            season=season, deadlines={1: stage(season, 1).orders_deadline + timedelta(hours=1)}
        )


# --- settings ----------------------------------------------------------------------------------


def test_team_rules_are_fixed_once_teams_form(alice, bob, charlie):
    season = league(organiser=charlie, template=template_race(start_list=True))
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(3))
    season.refresh_from_db()
    changed = replace(leagues.season_settings_of(season), roster_size=5)
    with pytest.raises(LeagueError, match="team rules can no longer change"):
        leagues.season_settings_update(season=season, settings=changed)
    smaller = replace(leagues.season_settings_of(season), peloton=Season.Peloton.PLAYERS)
    with pytest.raises(LeagueError, match="team rules can no longer change"):
        leagues.season_settings_update(season=season, settings=smaller)
    renamed = replace(leagues.season_settings_of(season), name="Renamed", is_public=False)
    leagues.season_settings_update(season=season, settings=renamed)
    season.refresh_from_db()
    assert (season.name, season.is_public, season.roster_size) == ("Renamed", False, 2)


def test_rule_settings_are_fixed_once_a_stage_is_resolved(charlie):
    season = league(organiser=charlie)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.RESOLVED)
    changed = replace(
        leagues.season_settings_of(season), rule_settings=RuleSettings(time_cut_enabled=False)
    )
    with pytest.raises(LeagueError, match="rule settings can no longer change"):
        leagues.season_settings_update(season=season, settings=changed)


# --- what players see --------------------------------------------------------------------------


def test_my_seasons_lists_each_season_with_my_role_team_and_next_stage(alice, bob, charlie):
    mine = league(organiser=alice, slug="mine")
    played = league(organiser=charlie, slug="played")
    (team,) = joined(played, alice)
    league(organiser=bob, slug="not-mine")
    Round.objects.filter(season=played, number=1).update(status=Round.Status.RESOLVED)
    Round.objects.filter(season=played, number=2).update(status=Round.Status.OPEN)
    rows = {row.season.slug: row for row in leagues.my_seasons(user=alice)}
    assert set(rows) == {"mine", "played"}
    assert (rows["mine"].role, rows["mine"].team, rows["mine"].next_stage.number) == (
        "organiser",
        None,
        1,
    )
    assert (rows["played"].role, rows["played"].team, rows["played"].next_stage.number) == (
        "player",
        team,
        2,
    )
    assert rows["mine"].season == mine


def test_orders_are_given_for_the_first_stage_not_resolved(charlie):
    season = league(organiser=charlie)
    window = leagues.orders_window(season=season)
    assert (window.stage.number, window.is_open) == (1, False)
    assert window.reason == "Orders for stage 1 are not open yet."
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    window = leagues.orders_window(season=season)
    assert (window.stage.number, window.is_open) == (1, True)
    after = window.stage.orders_deadline + timedelta(seconds=1)
    closed = leagues.orders_window(season=season, now=after)
    assert not closed.is_open
    assert closed.reason == "Orders for stage 1 closed at the deadline."
    Round.objects.filter(season=season, number=1).update(status=Round.Status.LOCKED)
    assert leagues.orders_window(season=season).reason == (
        "Orders for stage 1 are closed: it is locked."
    )
    Round.objects.filter(season=season).update(status=Round.Status.RESOLVED)
    window = leagues.orders_window(season=season)
    assert (window.stage, window.is_open) == (None, False)


@pytest.mark.parametrize("discipline", ["cycling", "motor"])
def test_the_service_refuses_a_first_deadline_in_the_past_and_creates_nothing(alice, discipline):
    from motor.models import Championship
    from tests.season.motor_builders import motor_league, real_championship

    yesterday = timezone.now() - timedelta(days=1)
    if discipline == "cycling":
        template = template_race()
        races = Race.objects.count()
        with pytest.raises(leagues.CalendarInvalid, match="first deadline must be in the future"):
            league(organiser=alice, template=template, first_deadline=yesterday)
        assert Race.objects.count() == races
    else:
        real = real_championship()
        championships = Championship.objects.count()
        with pytest.raises(leagues.CalendarInvalid, match="first deadline must be in the future"):
            motor_league(organiser=alice, championship=real, first_deadline=yesterday)
        assert Championship.objects.count() == championships
    assert not Season.objects.exists()


# --- one way to create a season, for every game (issue 27) ---------------------------------


def test_the_service_refuses_a_motor_ruleset_on_a_stage_race_naming_both(alice):
    from motor.models import Championship

    template = template_race(stages=3)
    with pytest.raises(LeagueError) as refused:
        league(organiser=alice, template=template, ruleset="grandprix")
    message = str(refused.value)
    assert "The ruleset Grand Prix (F1 dice game" in message
    assert f"does not race {template.name}" in message
    assert "Moréno" in message
    assert not Season.objects.exists()
    assert not Round.objects.exists()
    assert not Championship.objects.exists()
    assert not Race.objects.filter(kind=Race.Kind.LEAGUE).exists()


@pytest.mark.parametrize("discipline", ["cycling", "motor"])
def test_one_service_creates_a_season_of_either_game_with_its_rounds(alice, discipline):
    """The same call, leagues.season_create: the event's copy comes from the ruleset's
    adapter, the rounds are one per stage or one per Grand Prix, each with its deadline."""
    from tests.season.motor_builders import motor_league

    if discipline == "cycling":
        season = league(organiser=alice, template=template_race(stages=3), hours_between=24)
        events = [r.stage.number for r in season.rounds.select_related("stage")]
        assert season.event == season.event
    else:
        season = motor_league(organiser=alice)
        events = [r.grand_prix.round for r in season.rounds.select_related("grand_prix")]
        assert season.event == season.championship
        assert season.roster_size == 2
    rounds = list(season.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3] == sorted(events)
    assert {r.status for r in rounds} == {Round.Status.SCHEDULED}
    assert rounds[1].orders_deadline - rounds[0].orders_deadline == timedelta(hours=24)
    assert Membership.objects.get(season=season).user == alice


def test_another_game_cannot_take_over_a_championship_on_its_tracks(alice):
    """A league's Grands Prix are on the tracks of its game: the season refuses another motor
    ruleset, naming the game that races them."""
    from django.core.exceptions import ValidationError

    from tests.season.motor_builders import motor_league

    season = motor_league(organiser=alice)
    season.ruleset = "ludicitude"
    with pytest.raises(ValidationError) as refused:
        season.full_clean()
    (message,) = refused.value.message_dict["ruleset"]
    assert "does not race Friends' Championship: choose one of Grand Prix" in message
