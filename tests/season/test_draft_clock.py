"""The draft's pick clock (issue 17): the automatic pick when the team on turn runs out of time,
checked with a frozen clock (the services take `now`; nothing sleeps)."""

import random
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse

from races.team_rules import rider_price
from season import formation
from season.models import DraftPick, PickSource, Season
from season.services import draft_clock
from season.tasks import draft_clocks_expire_task
from tests.season.builders import free_riders, joined, league

MINUTES = 5


@pytest.fixture
def clocked(alice, bob, charlie):
    """A draft of two teams of two riders, five minutes per pick, started a moment ago."""
    season = league(organiser=charlie, roster_size=2, max_per_real_team=1)
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=MINUTES)
    season.refresh_from_db()
    alice_team, bob_team = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    season.refresh_from_db()
    alice_team.refresh_from_db()
    bob_team.refresh_from_db()
    first, second = sorted([alice_team, bob_team], key=lambda t: t.draft_position)
    return season, first, second


def _status(season):
    return formation.draft_status(season=season)


@pytest.mark.django_db
def test_the_clock_runs_from_the_start_of_the_draft(clocked):
    season, first, _second = clocked
    status = _status(season)
    assert status.on_turn == first
    deadline = draft_clock.pick_deadline(season=season, status=status)
    assert deadline == season.draft_started_at + timedelta(minutes=MINUTES)


@pytest.mark.django_db
def test_no_pick_is_made_while_time_is_left(clocked):
    season, _first, _second = clocked
    almost = season.draft_started_at + timedelta(minutes=MINUTES, seconds=-1)
    assert draft_clock.draft_clock_pick(season=season, now=almost) is None
    assert not DraftPick.objects.exists()


@pytest.mark.django_db
def test_when_the_time_runs_out_the_dearest_rider_that_fits_is_picked_by_the_clock(clocked):
    season, first, _second = clocked
    expected = formation.auto_choice(season=season, team=first)
    at = season.draft_started_at + timedelta(minutes=MINUTES)
    pick = draft_clock.draft_clock_pick(season=season, now=at)
    assert pick is not None
    assert (pick.number, pick.team, pick.rider, pick.source) == (1, first, expected, "clock")
    assert pick.picked_by is None
    assert pick.picked_at == at
    dearest = max([*free_riders(season), expected], key=rider_price)
    assert rider_price(expected) == rider_price(dearest)


@pytest.mark.django_db
def test_the_clock_takes_the_first_free_rider_of_the_wish_list(clocked):
    season, first, second = clocked
    cheap = sorted(free_riders(season), key=rider_price)
    formation.wish_add(team=first, pickable=cheap[0])
    formation.wish_add(team=first, pickable=cheap[1])
    formation.wish_add(team=second, pickable=cheap[0])
    formation.wish_move(team=first, pickable=cheap[1], offset=-1)
    at = season.draft_started_at + timedelta(minutes=MINUTES)
    pick = draft_clock.draft_clock_pick(season=season, now=at)
    assert pick.rider == cheap[1]
    # A rider picked leaves every list; the rest stay in order.
    assert [w.rider for w in formation.wish_list(team=first)] == [cheap[0]]
    assert [w.rider for w in formation.wish_list(team=second)] == [cheap[0]]


@pytest.mark.django_db
def test_a_wish_the_rules_forbid_is_passed_over(clocked):
    season, first, second = clocked
    by_team = {}
    for rider in free_riders(season):
        by_team.setdefault(rider.team_id, []).append(rider)
    t0, t1, t2, t3 = (sorted(riders, key=rider_price) for riders in by_team.values())
    formation.draft_pick(season=season, team=first, pickable=t0[0], user=first.owner)
    formation.draft_pick(season=season, team=second, pickable=t1[0], user=second.owner)
    formation.draft_pick(season=season, team=second, pickable=t2[0], user=second.owner)
    # One rider per real team: the wish of a second rider of t0's team cannot be picked.
    formation.wish_add(team=first, pickable=t0[1])
    formation.wish_add(team=first, pickable=t3[0])
    status = _status(season)
    assert status.on_turn == first
    pick = draft_clock.draft_clock_pick(
        season=season, now=status.turn_started_at + timedelta(minutes=MINUTES)
    )
    assert pick.rider == t3[0]


@pytest.mark.django_db
def test_the_next_team_gets_its_full_time_from_the_automatic_pick(clocked):
    season, _first, second = clocked
    at = season.draft_started_at + timedelta(minutes=MINUTES, seconds=30)
    draft_clock.draft_clock_pick(season=season, now=at)
    status = _status(season)
    assert status.on_turn == second
    assert draft_clock.pick_deadline(season=season, status=status) == at + timedelta(
        minutes=MINUTES
    )


@pytest.mark.django_db
def test_a_second_check_at_the_same_instant_makes_no_second_pick(clocked):
    """Two beats (or a task delivered twice) at once: the second finds the next turn just
    begun, under the same lock."""
    season, _first, _second = clocked
    at = season.draft_started_at + timedelta(minutes=MINUTES)
    assert draft_clock.draft_clock_pick(season=season, now=at) is not None
    assert draft_clock.draft_clock_pick(season=season, now=at) is None
    assert draft_clock.draft_clocks_expire(now=at) == []
    assert DraftPick.objects.count() == 1


@pytest.mark.django_db
def test_a_player_who_picks_late_but_before_the_check_keeps_his_pick(clocked):
    season, first, second = clocked
    late = season.draft_started_at + timedelta(minutes=MINUTES + 1)
    rider = free_riders(season)[0]
    formation.draft_pick(season=season, team=first, pickable=rider, user=first.owner, now=late)
    assert draft_clock.draft_clock_pick(season=season, now=late) is None
    assert DraftPick.objects.get().source == PickSource.PLAYER
    assert _status(season).on_turn == second


@pytest.mark.django_db
def test_no_clock_no_automatic_pick(clocked):
    season, _first, _second = clocked
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=0)
    season.refresh_from_db()
    much_later = season.draft_started_at + timedelta(days=30)
    assert draft_clock.pick_deadline(season=season, status=_status(season)) is None
    assert draft_clock.draft_clock_pick(season=season, now=much_later) is None
    assert draft_clock.draft_clocks_expire(now=much_later) == []


@pytest.mark.django_db
def test_beat_check_picks_for_every_draft_due_and_only_those(clocked, alice, bob):
    season, first, _second = clocked
    other = league(organiser=alice, slug="other", roster_size=2)
    joined(other, alice, bob)
    formation.draft_start(season=other, rng=random.Random(2))
    Season.objects.filter(pk=other.pk).update(draft_pick_minutes=MINUTES * 10)
    at = season.draft_started_at + timedelta(minutes=MINUTES)
    picks = draft_clock.draft_clocks_expire(now=at)
    assert [(p.season_id, p.team_id) for p in picks] == [(season.pk, first.pk)]


@pytest.mark.django_db
def test_the_clock_finishes_a_draft_and_opens_stage_1(clocked):
    season, _first, _second = clocked
    at = season.draft_started_at
    for _pick in range(4):
        at += timedelta(minutes=MINUTES)
        assert draft_clock.draft_clock_pick(season=season, now=at) is not None
    assert _status(season).complete
    assert season.rounds.get(number=1).status == "open"
    assert draft_clock.drafts_on_the_clock() == []
    assert set(DraftPick.objects.values_list("source", flat=True)) == {"clock"}


@pytest.mark.django_db
def test_the_beat_task_runs_the_check(clocked):
    season, _first, _second = clocked
    # The draft began more than its minutes ago: the task (eager in the tests) picks now.
    Season.objects.filter(pk=season.pk).update(
        draft_started_at=F("draft_started_at") - timedelta(minutes=MINUTES + 1)
    )
    draft_clocks_expire_task.delay()
    assert DraftPick.objects.get().source == "clock"


@pytest.mark.django_db
def test_the_organisers_automatic_pick_is_marked_as_his(clocked, charlie):
    season, first, _second = clocked
    pick = formation.draft_autopick(season=season, user=charlie)
    assert (pick.team, pick.source, pick.picked_by) == (first, "organiser", charlie)


@pytest.mark.django_db
def test_the_turn_starts_at_the_last_pick_even_if_a_clock_ran_behind(clocked):
    """Two web servers whose clocks differ by a minute: the turn starts at the last pick by
    number, not at the latest time written."""
    season, _first, second = clocked
    at = season.draft_started_at + timedelta(minutes=MINUTES)
    draft_clock.draft_clock_pick(season=season, now=at)
    behind = at - timedelta(minutes=1)
    formation.draft_pick(
        season=season, team=second, pickable=free_riders(season)[0], user=second.owner, now=behind
    )
    status = _status(season)
    assert status.turn_started_at == behind
    assert draft_clock.pick_deadline(season=season, status=status) == behind + timedelta(
        minutes=MINUTES
    )


# --- a draft of cars: the same clock (issue 27: one team formation for both disciplines) ----


@pytest.fixture
def clocked_cars(alice, bob, charlie):
    """A motor draft of two teams of two cars, five minutes per pick, started a moment ago."""
    from season.formation import draft_start as car_draft_start
    from tests.season.motor_builders import joined as joined_cars
    from tests.season.motor_builders import motor_league

    season = motor_league(
        organiser=charlie, formation_mode=Season.FormationMode.DRAFT, draft_pick_minutes=MINUTES
    )
    joined_cars(season, alice, bob)
    car_draft_start(season=season, rng=random.Random(1))
    season.refresh_from_db()
    return season


@pytest.mark.django_db
def test_a_draft_of_cars_runs_on_the_same_clock(clocked_cars):
    from motor.adapters.formation import car_price
    from season.formation import draft_status as car_draft_status
    from tests.season.motor_builders import free_entries

    season = clocked_cars
    status = car_draft_status(season=season)
    first = status.on_turn
    deadline = draft_clock.pick_deadline(season=season, status=status)
    assert deadline == season.draft_started_at + timedelta(minutes=MINUTES)
    assert draft_clock.draft_clock_pick(season=season, now=deadline - timedelta(seconds=1)) is None
    dearest = max(car_price(entry) for entry in free_entries(season=season))
    pick = draft_clock.draft_clock_pick(season=season, now=deadline)
    assert (pick.number, pick.team, pick.source) == (1, first, PickSource.CLOCK)
    assert car_price(pick.entry) == dearest
    assert first.seats.get().entry == pick.entry
    # The next team's five minutes start from the automatic pick.
    after = car_draft_status(season=season)
    assert after.on_turn != first
    assert draft_clock.pick_deadline(season=season, status=after) == deadline + timedelta(
        minutes=MINUTES
    )
    # The beat's check finds it among the drafts on the clock.
    assert season in draft_clock.drafts_on_the_clock()


@pytest.mark.django_db
def test_the_clock_finishes_a_draft_of_cars_and_opens_round_1(clocked_cars):
    from season.models import Round

    season = clocked_cars
    at = season.draft_started_at
    for _ in range(4):
        at += timedelta(minutes=MINUTES)
        assert draft_clock.draft_clocks_expire(now=at)
    assert season.rounds.get(number=1).status == Round.Status.OPEN
    assert season not in draft_clock.drafts_on_the_clock()
    assert list(DraftPick.objects.filter(season=season).values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
    ]


@pytest.mark.django_db
def test_the_team_page_of_a_draft_of_cars_shows_the_time_left(clocked_cars, client):
    from season.formation import draft_status as car_draft_status

    season = clocked_cars
    status = car_draft_status(season=season)
    waiting = next(team for team in status.order if team != status.on_turn)
    client.force_login(waiting.owner)
    page = client.get(reverse("player-team", args=[season.slug, waiting.pk])).content.decode()
    assert f"Time left for {status.on_turn.name}:" in page
    assert "data-pick-clock" in page
    assert "then the pick is made automatically, from the wish list first" in page
    client.force_login(status.on_turn.owner)
    on_turn = reverse("player-team", args=[season.slug, status.on_turn.pk])
    page = client.get(on_turn).content.decode()
    assert "Your time left:" in page
