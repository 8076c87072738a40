"""A season keeps its ratings (issue 31, docs/league.md "A season keeps its ratings"): the
ratings and prices its riders had when its team formation started, whatever an admin edits
later, unless the admin applies the edit to the running season explicitly."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from plugins import cycling_adapter
from races.models import LeagueRating
from riders.models import Rider
from season import formation
from season.leagues import calendar_event_add
from season.models import HistoryEntry, Round, Season
from season.rated import rated_game
from season.replay import stage_replay
from season.services import lifecycle, resolution
from season.services.ratings import ratings_apply_running, running_changes
from tests.season.builders import joined, league, squad_riders, template_race

pytestmark = pytest.mark.django_db


def price_in(season, rider):
    """The rider's price as the season prices him (read afresh: a new season object)."""
    return rated_game(Season.objects.get(pk=season.pk)).candidate(rider).price


def edit(rider, **ratings):
    """What the admin's rider page saves."""
    for axis, value in ratings.items():
        setattr(rider, axis, value)
    rider.save()
    return Rider.objects.get(pk=rider.pk)


def inputs_of(round, rider):
    """The profile the engine would get for ``rider`` in ``round`` (its inputs as built now)."""
    round = Round.objects.select_related("stage", "season").get(pk=round.pk)
    adapter = cycling_adapter(round.season.ruleset)
    inputs = adapter.round_inputs(
        event=round.stage,
        starters=resolution.round_starters(round=round),
        rules=round.season.rules,
    )
    return next(e.profile for e in inputs.entrants if e.rider_id == rider.pk)


# --- the snapshot ----------------------------------------------------------------------------


def test_before_team_formation_starts_the_season_shows_the_live_ratings(alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    rider = formation.pool(season=season).first()
    before = price_in(season, rider)
    rider = edit(rider, climber=4)
    assert price_in(season, rider) > before
    assert not LeagueRating.objects.exists()


def test_the_draft_opening_keeps_every_pool_riders_ratings_once(alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    pool = list(formation.pool(season=season))
    formation.draft_start(season=season, rng=random.Random(1))
    kept = LeagueRating.objects.filter(race=season.event)
    assert sorted(kept.values_list("rider_id", flat=True)) == sorted(r.pk for r in pool)

    rider = pool[0]
    before = price_in(season, rider)
    rider = edit(rider, climber=4, sprinter=4)
    assert formation.ratings_freeze(Season.objects.get(pk=season.pk)) == 0
    assert price_in(season, rider) == before
    assert LeagueRating.objects.get(race=season.event, rider=rider).climber != 4


def test_a_budget_seasons_first_pick_keeps_the_ratings(alice, charlie):
    riders = squad_riders()
    season = league(
        organiser=charlie,
        template=template_race(real_teams=0),
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=2,
        budget=1000,
    )
    (team,) = joined(season, alice)
    leader = riders["leader"]
    before = price_in(season, leader)
    formation.budget_pick(team=team, pickable=riders["domestique"])
    edit(leader, sprinter=4)
    assert price_in(season, leader) == before
    # The team's later pick pays the kept price.
    seat = formation.budget_pick(team=team, pickable=Rider.objects.get(pk=leader.pk))
    assert seat.rider_id == leader.pk
    assert sum(c.price for c in formation.team_candidates(team=team)) == before + price_in(
        season, riders["domestique"]
    )


def test_a_race_added_to_a_running_calendar_races_with_the_seasons_ratings(alice, bob, charlie):
    riders_1, riders_2 = squad_riders(), squad_riders()
    season = league(
        organiser=charlie,
        template=template_race(stages=2, real_teams=0),
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=4,
        budget=1000,
        max_per_real_team=None,
    )
    team_1, team_2 = joined(season, alice, bob)
    formation.team_select(team=team_1, pickable_ids=[r.pk for r in riders_1.values()])
    formation.team_select(team=team_2, pickable_ids=[r.pk for r in riders_2.values()])
    leader = riders_1["leader"]
    kept = LeagueRating.objects.get(race=season.event, rider=leader)
    edit(leader, sprinter=4, descender=4)

    item = calendar_event_add(
        season=season,
        event=template_race(stages=2, real_teams=0),
        first_deadline=timezone.now() + timedelta(days=5),
        hours_between=24,
        starters=2,
    )
    added = LeagueRating.objects.get(race=item.race, rider=leader)
    assert (added.ratings, added.price) == (kept.ratings, kept.price)


# --- the Done-when line: an admin's edit mid-season, then applied explicitly -----------------


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def test_an_admin_edit_changes_no_running_season_until_applied_to_it(demo, client):
    pogacar = Rider.objects.get(name="Tadej Pogačar")
    first = resolution.round_resolve(round_id=demo.rounds.get(number=1).pk)
    second = demo.rounds.get(number=2)
    assert price_in(demo, pogacar) == 87
    profile_before = inputs_of(second, pogacar)

    # The admin raises his descending: 91 for the seasons whose formation starts later.
    pogacar = edit(pogacar, descender=4)
    assert price_in(demo, pogacar) == 87
    assert inputs_of(second, pogacar) == profile_before
    assert LeagueRating.objects.get(race=demo.event, rider=pogacar).descender == 3

    # Applied to the running season explicitly: from stage 2 on, and its history says so.
    (found,) = running_changes(riders=[pogacar])
    assert (found.season, found.from_round) == (demo, 2)
    assert [(c.name, c.old_price, c.new_price) for c in found.changes] == [
        ("Tadej Pogačar", 87, 91)
    ]
    admin = get_user_model().objects.create_superuser("ada", "ada@example.com", "x")
    ratings_apply_running(riders=[pogacar], season_ids=[demo.pk], by=admin)
    assert price_in(demo, pogacar) == 91
    assert inputs_of(second, pogacar).descender == 4
    assert inputs_of(second, pogacar) != profile_before
    entry = HistoryEntry.objects.get(season=demo)
    assert entry.from_round == 2

    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("season-detail", args=[demo.slug])).content.decode()
    assert "History of the season" in page
    assert "from round 2 on" in page
    assert "Tadej Pogačar: price 87 → 91 (Descender 3 → 4)" in page

    # Stage 1 raced with the ratings it was given: its replay is still identical; stage 2
    # races with the new ones, and replays identically too.
    assert stage_replay(round=Round.objects.get(pk=first.pk)) == []
    assert running_changes(riders=[pogacar]) == []
    lifecycle.rounds_force_lock(season=demo, numbers=[2])
    resolved = resolution.round_resolve(round_id=second.pk)
    stored = next(e for e in resolved.engine_inputs["entrants"] if e["rider_id"] == pogacar.pk)
    assert stored["profile"]["descender"] == 4
    assert stage_replay(round=resolved) == []


def test_a_finished_season_is_never_offered_the_change(alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    rider = formation.pool(season=season).first()
    edit(rider, climber=4 if rider.climber != 4 else 3)
    assert [f.season for f in running_changes(riders=[Rider.objects.get(pk=rider.pk)])] == [season]
    Round.objects.filter(season=season).update(status=Round.Status.PUBLISHED)
    assert running_changes(riders=[Rider.objects.get(pk=rider.pk)]) == []


# --- the admin's action ----------------------------------------------------------------------


def test_the_admin_confirms_the_seasons_named_before_applying(demo, admin_client):
    pogacar = edit(Rider.objects.get(name="Tadej Pogačar"), descender=4)
    changelist = reverse("admin:riders_rider_changelist")
    form = {"action": "apply_to_running_seasons", "_selected_action": [pogacar.pk]}
    confirm = admin_client.post(changelist, form)
    assert confirm.status_code == 200
    text = confirm.content.decode()
    assert demo.name in text
    assert "from round 1" in text
    assert "Tadej Pogačar" in text
    assert "87 → <strong>91</strong>" in text
    assert price_in(demo, pogacar) == 87

    done = admin_client.post(changelist, {**form, "apply": "1", "season": [demo.pk]})
    assert done.status_code == 302
    assert price_in(demo, pogacar) == 91
    assert HistoryEntry.objects.filter(season=demo, from_round=1).count() == 1


def test_the_admin_applies_to_none_when_no_season_is_ticked(demo, admin_client):
    pogacar = edit(Rider.objects.get(name="Tadej Pogačar"), descender=4)
    changelist = reverse("admin:riders_rider_changelist")
    form = {"action": "apply_to_running_seasons", "_selected_action": [pogacar.pk], "apply": "1"}
    admin_client.post(changelist, form)
    assert price_in(demo, pogacar) == 87
    assert not HistoryEntry.objects.exists()


def test_the_riders_page_names_the_running_seasons_that_keep_his_former_ratings(demo, admin_client):
    pogacar = Rider.objects.get(name="Tadej Pogačar")
    url = reverse("admin:riders_rider_change", args=[pogacar.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["descender"] = 4
    done = admin_client.post(url, data, follow=True)
    assert Rider.objects.get(pk=pogacar.pk).descender == 4
    notices = [str(m) for m in done.context["messages"]]
    assert any(demo.name in m and "Apply to running seasons" in m for m in notices), notices
    assert price_in(demo, pogacar) == 87


def test_approving_in_the_review_queue_names_the_running_seasons_and_offers_to_apply(
    demo, admin_client
):
    pogacar = Rider.objects.get(name="Tadej Pogačar")
    Rider.objects.filter(pk=pogacar.pk).update(
        suggested_ratings={**pogacar.ratings, "descender": 4}, ratings_reviewed_at=None
    )
    approve = reverse("admin:riders_ratingreview_approve", args=[pogacar.pk])
    done = admin_client.post(approve, follow=True)
    assert Rider.objects.get(pk=pogacar.pk).descender == 4
    notices = [str(m) for m in done.context["messages"]]
    assert any(demo.name in m and "Apply to running seasons" in m for m in notices), notices
    assert price_in(demo, pogacar) == 87
    # The riders' list applies it to the season, as the notice says.
    riders = reverse("admin:riders_rider_changelist")
    form = {"action": "apply_to_running_seasons", "_selected_action": [pogacar.pk]}
    assert demo.name in admin_client.post(riders, form).content.decode()
    admin_client.post(riders, {**form, "apply": "1", "season": [demo.pk]})
    assert price_in(demo, pogacar) == 91
