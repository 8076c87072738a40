"""A league forked after stage 10 of a real Grand Tour (docs/league.md "A real race forked at a
stage"): the Tour de France 2022 of tests/data/fork (ProCyclingStats files, results of stages
1-10 and the classifications after stage 10 constructed), imported through the import."""

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.translation import override

from races.importing import import_files_read, results_import
from races.league.jerseys import jersey_holders
from races.models import Classification, Race, Stage, StageResult, Standing
from season import formation
from season.leagues import LeagueError
from season.models import Round, Season, Seat
from season.replay import stage_replay
from season.round_names import round_name
from season.services import lifecycle, resolution
from tests.season.builders import joined, league, stage
from tests.season.test_calendar import add_data
from tests.season.test_organiser_views import create_data

pytestmark = pytest.mark.django_db

FORK = Path(__file__).resolve().parents[1] / "data" / "fork"
ROSTER = 4


@pytest.fixture
def tour2022(db):
    report = results_import(files=import_files_read(paths=[FORK]))
    assert report.ok, report.lines()
    return Race.objects.get(slug="tour-de-france-2022")


def forked(organiser, template, *, start_after=10, **settings):
    values = {"roster_size": ROSTER, "max_per_real_team": None} | settings
    return league(
        organiser=organiser, template=template, options={"start_after": start_after}, **values
    )


def real_general(race, number):
    return list(
        Standing.objects.filter(
            stage__race=race, stage__number=number, classification=Classification.GENERAL
        )
        .order_by("rank")
        .values_list("rider_id", "value")
    )


def test_the_import_stores_the_real_state_after_stage_10(tour2022):
    after_10 = Stage.objects.get(race=tour2022, number=10)
    general = Standing.objects.filter(stage=after_10, classification=Classification.GENERAL)
    assert general.count() == 176 - 5
    for classification in (Classification.POINTS, Classification.MOUNTAINS, Classification.YOUTH):
        assert Standing.objects.filter(stage=after_10, classification=classification).exists()


def test_a_league_forked_after_stage_10_starts_from_the_real_state(tour2022, alice):
    season = forked(alice, tour2022)
    copy = season.event
    assert copy.start_after == 10
    # Its rounds are the stages 11 to 21, numbered 1 to 11 in the season.
    rounds = list(season.rounds.order_by("number").values_list("number", "stage__number"))
    assert rounds == [(n - 10, n) for n in range(11, 22)]
    with override("en"):
        assert round_name(season, 1) == "stage 11"
    # The real stages 1 to 10 are given: their results are in the copy.
    for number in range(1, 11):
        real = StageResult.objects.filter(stage__race=tour2022, stage__number=number)
        copied = StageResult.objects.filter(stage__race=copy, stage__number=number)
        assert sorted(copied.values_list("rider_id", "rank", "status", "time_seconds")) == sorted(
            real.values_list("rider_id", "rank", "status", "time_seconds")
        ), number
    # Before stage 11: the real general classification after stage 10, riders, order and gaps.
    real = real_general(tour2022, 10)
    assert real_general(copy, 10) == real
    leader_time = real[0][1]
    gaps = list(
        Standing.objects.filter(
            stage__race=copy, stage__number=10, classification=Classification.GENERAL
        )
        .order_by("rank")
        .values_list("gap", flat=True)
    )
    assert gaps == [value - leader_time for _, value in real]
    assert gaps[1] > 0
    # And the real jerseys.
    names = dict  # no league team leads a classification before stage 11
    real_jerseys = [
        (j.classification, j.rider_id)
        for j in jersey_holders(race_id=tour2022.pk, number=10, team_names=names)
    ]
    league_jerseys = [
        (j.classification, j.rider_id)
        for j in jersey_holders(race_id=copy.pk, number=10, team_names=names)
    ]
    assert [c for c, _ in league_jerseys][:4] == ["general", "points", "mountains", "youth"]
    assert league_jerseys[:4] == real_jerseys[:4]


def test_the_pool_of_a_forked_league_holds_the_riders_still_in_the_race(tour2022, alice):
    season = forked(alice, tour2022)
    still_in = {rider for rider, _ in real_general(tour2022, 10)}
    assert set(formation.pool(season=season).values_list("pk", flat=True)) == still_in
    abandoned = set(
        StageResult.objects.filter(stage__race=tour2022)
        .exclude(status=StageResult.Status.FINISHED)
        .values_list("rider_id", flat=True)
    )
    assert len(abandoned) == 5
    assert not abandoned & still_in


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
def test_stage_11_resolves_from_the_real_state_and_replays_identically(
    tour2022, alice, bob, ruleset
):
    season = forked(alice, tour2022, formation_mode=Season.FormationMode.DRAFT, ruleset=ruleset)
    joined(season, alice, bob)
    formation.draft_start(season=season)
    for _pick in range(2 * ROSTER):
        formation.draft_autopick(season=season, user=alice)
    first = stage(season, 1)
    assert first.status == Round.Status.OPEN
    assert first.stage.number == 11
    still_in = {rider for rider, _ in real_general(tour2022, 10)}
    # The computer teams race the others still in the race; nobody out of it starts.
    assert set(Seat.objects.filter(season=season).values_list("rider_id", flat=True)) == still_in

    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = resolution.round_resolve(round_id=first.pk)
    assert resolved.status == Round.Status.RESOLVED
    # The engine started every rider from his real state: his GC time and rank after stage 10.
    entrants = {e["rider_id"]: e for e in resolved.engine_inputs["entrants"]}
    assert set(entrants) == still_in
    real = real_general(tour2022, 10)
    for rank, (rider, value) in enumerate(real, start=1):
        assert (entrants[rider]["gc_rank_before"], entrants[rider]["gc_time_before"]) == (
            rank,
            value,
        )
    # After stage 11: each rider's GC time is his real time after stage 10 plus his stage 11.
    results = {r.rider_id: r for r in StageResult.objects.filter(stage=resolved.stage)}
    after_11 = Standing.objects.filter(stage=resolved.stage, classification="general")
    assert after_11.exists()
    before = dict(real)
    for line in after_11:
        result = results[line.rider_id]
        assert line.value == before[line.rider_id] + result.time_seconds - result.bonus_seconds
    replayed = Round.objects.select_related("season", "stage").get(pk=first.pk)
    assert stage_replay(round=replayed) == []


def three_best(times):
    return sum(sorted(times)[:3])


def test_the_league_teams_classification_counts_the_real_stages_with_their_riders(
    tour2022, alice, bob
):
    """docs/classifications.md "A race forked at a stage": each league team's time after
    stage 11 is, for every real stage 1-10 and for stage 11, the sum of its three best riders'
    stage times, as if its riders had ridden the real stages for it."""
    season = forked(alice, tour2022, formation_mode=Season.FormationMode.DRAFT)
    joined(season, alice, bob)
    formation.draft_start(season=season)
    for _pick in range(2 * ROSTER):
        formation.draft_autopick(season=season, user=alice)
    first = stage(season, 1)
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = resolution.round_resolve(round_id=first.pk)
    team_of = dict(
        StageResult.objects.filter(stage=resolved.stage).values_list("rider_id", "entry_team_id")
    )
    copy = resolved.stage.race
    expected = {}
    for number in range(1, 12):
        by_team = {}
        for result in StageResult.objects.filter(
            stage__race=copy, stage__number=number, status=StageResult.Status.FINISHED
        ):
            if result.rider_id in team_of:
                by_team.setdefault(team_of[result.rider_id], []).append(result.time_seconds)
        for team, times in by_team.items():
            expected[team] = expected.get(team, 0) + three_best(times)
    lines = Standing.objects.filter(stage=resolved.stage, classification=Classification.TEAMS)
    got = {line.entry_team_id: line.value for line in lines}
    assert got
    assert got == {team: expected[team] for team in got}
    # Every league team with three riders in the race is ranked, the players' teams included.
    assert {team.pk for team in season.teams.filter(owner__isnull=False)} <= set(got)


def test_a_fork_without_the_real_state_is_refused_naming_what_is_missing(tour2022, alice):
    with override("en"), pytest.raises(LeagueError) as refusal:
        forked(alice, tour2022, start_after=12)
    assert str(refusal.value) == (
        "Tour de France cannot start after stage 12: no general classification after it was "
        "imported, and no results for stages 11, 12. Tour de France can start after stage: "
        "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10."
    )
    with override("en"), pytest.raises(LeagueError, match="start after a stage from 0 to 20"):
        forked(alice, tour2022, start_after=21)


# --- the forms and pages ---------------------------------------------------------------------


def test_the_new_season_form_starts_a_league_after_a_stage_with_the_real_state(
    client, charlie, tour2022
):
    client.force_login(charlie)
    page = client.get(reverse("season-create")).content.decode()
    assert 'name="start_after"' in page
    response = client.post(
        reverse("season-create"), create_data(tour2022, start_after="10", peloton="start")
    )
    assert response.status_code == 302, response.context["form"].errors
    season = Season.objects.get(slug="amis")
    assert season.event.start_after == 10
    assert season.rounds.order_by("number").first().stage.number == 11
    dashboard = client.get(reverse("organiser-season", kwargs={"slug": "amis"})).content.decode()
    assert "Starts after stage 10 (the real race&#x27;s state)." in dashboard


def test_the_new_season_form_refuses_a_stage_without_the_real_state(client, charlie, tour2022):
    client.force_login(charlie)
    response = client.post(
        reverse("season-create"), create_data(tour2022, start_after="15", peloton="start")
    )
    assert response.status_code == 200
    errors = response.context["form"].errors["start_after"]
    assert errors == [
        "Tour de France cannot start after stage 15: no general classification after it was "
        "imported, and no results for stages 11, 12, 13, 14, 15.",
        "Tour de France can start after stage: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10.",
    ]
    assert not Season.objects.filter(slug="amis").exists()


def test_a_race_added_to_the_calendar_can_start_after_a_stage(client, charlie, tour2022):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-races", kwargs={"slug": season.slug})
    refused = client.post(url, add_data(tour2022, start_after="12"))
    assert refused.status_code == 200
    assert "no results for stages 11, 12" in refused.content.decode()
    response = client.post(url, add_data(tour2022, start_after="10"))
    assert response.status_code == 302
    added = season.events.get(number=2)
    assert added.race.start_after == 10
    numbers = list(added.rounds.order_by("number").values_list("stage__number", flat=True))
    assert numbers == list(range(11, 22))


def test_the_pages_show_the_real_gc_and_jerseys_before_stage_11(client, tour2022, alice):
    season = forked(alice, tour2022)
    real = real_general(tour2022, 10)
    page = client.get(reverse("season-standings", args=[season.slug, "general"]))
    assert page.status_code == 200
    rows = [line.rider_id for line in page.context["table"].data]
    assert rows == [rider for rider, _ in real]
    html = page.content.decode()
    assert "after stage 10 of the real race" in html
    leader = Standing.objects.get(
        stage__race=tour2022, stage__number=10, classification="general", rank=1
    )
    assert page.context["jerseys"][0].rider_id == leader.rider_id
    season_page = client.get(reverse("season-detail", args=[season.slug])).content.decode()
    assert "Starts after stage 10 (the real race&#x27;s state)." in season_page
    assert "Jerseys after stage 10" in season_page
    assert leader.rider.name in season_page


def test_without_a_stored_gc_the_real_state_is_computed_from_the_real_results(tour2022, alice):
    # No GC after stage 5 was imported: the league starts from stages 1-5's real results.
    assert not real_general(tour2022, 5)
    season = forked(alice, tour2022, start_after=5)
    time: dict[int, int] = {}
    finished_all: set[int] | None = None
    for number in range(1, 6):
        rows = StageResult.objects.filter(stage__race=tour2022, stage__number=number)
        finished = {r.rider_id for r in rows if r.status == StageResult.Status.FINISHED}
        finished_all = finished if finished_all is None else finished_all & finished
        for r in rows:
            if r.time_seconds is not None:
                time[r.rider_id] = time.get(r.rider_id, 0) + r.time_seconds - r.bonus_seconds
    given = real_general(season.event, 5)
    assert {rider for rider, _ in given} == finished_all
    assert [value for _, value in given] == sorted(time[r] for r in finished_all)
    assert all(value == time[rider] for rider, value in given)
    points = Standing.objects.filter(
        stage__race=season.event, stage__number=5, classification="points"
    )
    assert points.exists()
    teams = Standing.objects.filter(
        stage__race=season.event, stage__number=5, classification="teams"
    )
    assert teams.exists()
    assert not teams.filter(entry_team_id__isnull=False).exists()


def test_a_squad_rider_out_of_the_real_race_by_stage_10_does_not_start(tour2022, alice):
    from plugins import adapter_for
    from plugins.protocol import Starter

    season = forked(alice, tour2022)
    left = StageResult.objects.filter(
        stage__race=tour2022, status=StageResult.Status.DID_NOT_FINISH
    ).first()
    still = real_general(tour2022, 10)[0][0]
    # Not even his abandon on record (a GC after stage 10 imported without every stage's
    # results): the given general classification alone keeps him out.
    StageResult.objects.filter(stage__race=season.event, rider_id=left.rider_id).delete()
    starters = [
        Starter(team_id=1, team="Alice Racing", competitor_id=rider, key=str(rider), number=n)
        for n, rider in enumerate([left.rider_id, still], start=1)
    ]
    first = Stage.objects.get(race=season.event, number=11)
    racing = adapter_for(season.ruleset).starters_racing(event=first, starters=starters)
    assert [s.competitor_id for s in racing] == [still]


def test_every_page_of_a_forked_league_after_stage_11_answers(client, tour2022, alice, bob):
    season = forked(alice, tour2022, formation_mode=Season.FormationMode.DRAFT)
    joined(season, alice, bob)
    formation.draft_start(season=season)
    for _pick in range(2 * ROSTER):
        formation.draft_autopick(season=season, user=alice)
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolution.round_resolve(round_id=stage(season, 1).pk)
    client.force_login(alice)
    team = season.teams.filter(owner=alice).get()
    urls = [
        reverse("season-detail", args=[season.slug]),
        reverse("season-stage", args=[season.slug, 1]),
        reverse("season-stage", args=[season.slug, 2]),
        reverse("season-abandons", args=[season.slug]),
        reverse("season-players", args=[season.slug]),
        reverse("season-team", args=[season.slug, team.pk]),
        reverse("organiser-season", args=[season.slug]),
        reverse("organiser-races", args=[season.slug]),
        *(reverse("season-standings", args=[season.slug, c]) for c in Classification.values),
        reverse("season-standings", args=[season.slug, "general"]) + "?after=0",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
    stage_page = client.get(reverse("season-stage", args=[season.slug, 1])).content.decode()
    assert "Stage 11" in stage_page


# --- players take over real teams --------------------------------------------------------------


def test_players_take_over_real_teams_and_computer_teams_race_the_rest(
    client, tour2022, alice, bob
):
    season = forked(alice, tour2022, formation_mode=Season.FormationMode.REAL_TEAMS)
    alice_team, bob_team = joined(season, alice, bob)
    still_in = {rider for rider, _ in real_general(tour2022, 10)}
    offered = formation.real_teams_free(season=season, exclude_team=alice_team)
    assert "Jumbo-Visma" in offered
    assert all(p.pk in still_in for riders in offered.values() for p in riders)

    # Alice takes Jumbo-Visma on her team page: its riders still in, the dearest first.
    client.force_login(alice)
    url = reverse("player-team", args=[season.slug, alice_team.pk])
    page = client.get(url).content.decode()
    assert "Take over a real team" in page
    assert client.post(url, {"real_team": "Jumbo-Visma"}).status_code == 302
    jumbo = offered["Jumbo-Visma"]
    seated = set(Seat.objects.filter(team=alice_team).values_list("rider_id", flat=True))
    assert seated == {p.pk for p in jumbo[:ROSTER]}

    # Bob cannot take the same team; the organiser's limit per real team applies to him too.
    with override("en"), pytest.raises(formation.FormationError, match="not a real team of"):
        formation.real_team_take(team=bob_team, real_team="Jumbo-Visma")
    Season.objects.filter(pk=season.pk).update(max_per_real_team=2)
    with pytest.raises(formation.FormationError):
        formation.real_team_take(team=bob_team, real_team="UAE Team Emirates")
    Season.objects.filter(pk=season.pk).update(max_per_real_team=None)
    formation.real_team_take(team=bob_team, real_team="UAE Team Emirates")
    assert formation.teams_formed(season=season)

    # The race starts: computer teams race every other rider still in, Jumbo's others too.
    lifecycle.round_open(round=stage(season, 1))
    assert set(Seat.objects.filter(season=season).values_list("rider_id", flat=True)) == still_in
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = resolution.round_resolve(round_id=stage(season, 1).pk)
    assert resolved.status == Round.Status.RESOLVED
    with override("en"), pytest.raises(formation.FormationError, match="The race has started"):
        formation.real_team_take(team=bob_team, real_team="Jumbo-Visma")


def test_the_players_fantasy_points_count_the_leagues_stages_only(tour2022, alice, bob):
    from races.league import fantasy

    season = forked(alice, tour2022, formation_mode=Season.FormationMode.REAL_TEAMS)
    alice_team, _bob_team = joined(season, alice, bob)
    # Alice takes the team of the real leader after stage 10: its jersey days are not hers.
    leader = Standing.objects.select_related("rider__team").get(
        stage__race=tour2022, stage__number=10, classification="general", rank=1
    )
    formation.real_team_take(team=alice_team, real_team=leader.rider.team.name)
    lifecycle.round_open(round=stage(season, 1))
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = resolution.round_resolve(round_id=stage(season, 1).pk)
    rows = fantasy.race_rows(resolved.stage, players=[alice_team.pk])
    assert [each.number for each in rows.stages] == [11]
    score = fantasy.team_scores(resolved.stage, players=[alice_team.pk])[alice_team.pk]
    assert set(score.by_stage) <= {11}
