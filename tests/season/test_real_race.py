"""A league on a real race that was only imported: the Tour de France 2022 of tests/data/tdf2022
(the 2022 rows of ../shared/data): generated courses, the whole start list racing (players'
teams and computer teams named after the real ones), every stage resolved, the standings."""

from pathlib import Path

import pytest
from django.utils.translation import override

from races.adapters.base import CyclingAdapter
from races.importing import import_files_read, results_import
from races.models import Classification, Race, RaceEntry, RaceEvent, Stage, StageResult, Standing
from season import formation
from season.computer_teams import computer_teams_fill
from season.leagues import RouteInvalid
from season.models import Round, Season, SeasonTeam, Seat
from season.services import lifecycle, resolution
from tests.season.builders import joined, league, stage

pytestmark = pytest.mark.django_db

TDF2022 = Path(__file__).resolve().parents[1] / "data" / "tdf2022"
ROSTER = 4


@pytest.fixture
def tour2022(db):
    report = results_import(files=import_files_read(paths=[TDF2022]))
    assert report.ok, report.lines()
    return Race.objects.get(slug="tour-de-france-2022")


def _cheapest_of_distinct_teams(season, count, taken=()):
    chosen, teams = [], set()
    for rider in sorted(formation.pool(season=season), key=lambda r: (r.team_id, r.pk)):
        if rider.pk in taken or rider.team_id in teams:
            continue
        chosen.append(rider)
        teams.add(rider.team_id)
        if len(chosen) == count:
            return chosen
    raise AssertionError("not enough riders")


def _budget_league(organiser, template, *players, **settings):
    season = league(
        organiser=organiser,
        template=template,
        roster_size=ROSTER,
        formation_mode=Season.FormationMode.BUDGET,
        max_per_real_team=1,
        **settings,
    )
    taken = []
    for team in joined(season, *players):
        riders = _cheapest_of_distinct_teams(season, ROSTER, taken)
        formation.team_select(team=team, pickable_ids=[r.pk for r in riders])
        taken += [r.pk for r in riders]
    return season


def test_the_import_gives_every_stage_of_the_real_tour_a_generated_course(tour2022):
    stages = list(tour2022.stages.order_by("number"))
    assert len(stages) == 21
    assert all(s.course_generated for s in stages)
    by_number = {s.number: s for s in stages}
    # La Planche des Belles Filles, a mountain stage without an icon: a summit finish.
    assert by_number[7].segments[-1]["name"] == "La Planche des Belles Filles"
    assert by_number[7].segments[-1]["terrain"] in ("col1", "colhc")
    assert by_number[21].segments[-1]["terrain"] == "plain"
    assert by_number[1].segments == [{"terrain": "plain", "km": 13.0, "name": ""}]


def test_a_season_on_the_real_tour_races_its_whole_start_list_to_paris(tour2022, alice, bob):
    season = _budget_league(alice, tour2022, alice, bob)
    players = set(Seat.objects.filter(season=season).values_list("rider_id", flat=True))
    assert len(players) == 2 * ROSTER

    # The organiser opens stage 1: the race starts, everybody else rides for computer teams.
    lifecycle.round_open(round=stage(season, 1))
    computer = SeasonTeam.objects.filter(season=season, owner__isnull=True)
    real_names = set(RaceEntry.objects.filter(race=tour2022).values_list("team__name", flat=True))
    assert set(computer.values_list("name", flat=True)) == real_names
    assert computer.count() == 22
    start_list = set(RaceEntry.objects.filter(race=tour2022).values_list("rider_id", flat=True))
    members = Seat.objects.filter(season=season)
    assert set(members.values_list("rider_id", flat=True)) == start_list
    # Nobody took a rider twice, and the players' teams are as they chose them.
    assert members.count() == 176
    assert set(members.filter(team__owner__isnull=False).values_list("rider_id", flat=True)) == (
        players
    )
    bibs = list(members.values_list("number", flat=True))
    assert None not in bibs
    assert len(set(bibs)) == 176
    assert [p.team.owner for p in formation.teams_progress(season=season)] == [alice, bob]

    lifecycle.rounds_force_lock(season=season, numbers=list(range(1, 22)))
    out: set[int] = set()
    for number in range(1, 22):
        resolved = resolution.round_resolve(round_id=stage(season, number).pk)
        assert resolved.status == Round.Status.RESOLVED, number
        results = StageResult.objects.filter(stage=resolved.stage)
        assert set(results.values_list("rider_id", flat=True)) == start_list - out, number
        out |= set(
            results.exclude(status=StageResult.Status.FINISHED).values_list("rider_id", flat=True)
        )

    last = Stage.objects.get(race=season.event, number=21)
    general = Standing.objects.filter(stage=last, classification=Classification.GENERAL)
    assert general.count() == 176 - len(out)
    assert set(general.values_list("rider_id", flat=True)) == start_list - out
    assert list(general.order_by("rank").values_list("rank", flat=True)) == list(
        range(1, general.count() + 1)
    )
    for classification in (Classification.POINTS, Classification.MOUNTAINS, Classification.TEAMS):
        assert Standing.objects.filter(stage=last, classification=classification).exists()
    team_ids = set(
        Standing.objects.filter(stage=last, classification=Classification.TEAMS).values_list(
            "entry_team_id", flat=True
        )
    )
    assert team_ids <= set(SeasonTeam.objects.filter(season=season).values_list("pk", flat=True))
    assert computer.filter(pk__in=team_ids).exists()
    # The generated courses raced as courses do: intermediate sprints and summits crossed.
    kinds = set(RaceEvent.objects.filter(stage__race=season.event).values_list("kind", flat=True))
    assert {"intermediate_sprint", "summit"} <= kinds


def test_computer_teams_are_filled_once(tour2022, alice):
    season = _budget_league(alice, tour2022, alice)
    first = computer_teams_fill(season=season)
    assert len(first) == 22
    assert computer_teams_fill(season=season) == []
    assert Seat.objects.filter(season=season).count() == 176


def test_a_computer_team_does_not_take_a_players_team_name(tour2022, alice):
    season = league(organiser=alice, template=tour2022, roster_size=ROSTER)
    from season.leagues import season_join

    season_join(season=season, user=alice, team_name="jumbo-visma")
    computer_teams_fill(season=season)
    names = set(SeasonTeam.objects.filter(season=season).values_list("name", flat=True))
    assert "Jumbo-Visma (computer)" in names
    assert "Jumbo-Visma" not in names


def test_the_last_draft_pick_starts_the_race_with_the_computer_teams(tour2022, alice, bob):
    season = league(organiser=alice, template=tour2022, roster_size=2, max_per_real_team=None)
    joined(season, alice, bob)
    formation.draft_start(season=season)
    for _pick in range(4):
        formation.draft_autopick(season=season, user=alice)
    assert stage(season, 1).status == Round.Status.OPEN
    assert SeasonTeam.objects.filter(season=season, owner__isnull=True).count() >= 21
    assert Seat.objects.filter(season=season).count() == 176
    assert formation.teams_formed(season=season)


def test_a_route_with_a_stage_that_cannot_be_raced_is_refused_and_nothing_written(tour2022, alice):
    Stage.objects.filter(race=tour2022, number=3).update(segments=[], profile_icon="p7")
    Stage.objects.filter(race=tour2022, number=9).update(
        segments=[{"terrain": "plain", "km": 150}], course_generated=False
    )
    races, seasons = Race.objects.count(), Season.objects.count()
    with override("en"), pytest.raises(RouteInvalid) as refusal:
        league(organiser=alice, template=tour2022)
    assert refusal.value.errors == [
        "Stage 3 (Vejle – Sønderborg): no course, and none can be built: the profile icon "
        "'p7' is not one of p0 to p5.",
        "Stage 9 (Aigel – Châtel): the segments add up to 150.0 km but the stage is 183.0 km: "
        "33.0 km missing.",
    ]
    assert (Race.objects.count(), Season.objects.count()) == (races, seasons)


def test_a_stage_the_template_left_without_a_course_gets_one_in_the_league(tour2022, alice):
    Stage.objects.filter(race=tour2022, number=5).update(segments=[], course_generated=False)
    season = league(organiser=alice, template=tour2022)
    copied = Stage.objects.get(race=season.event, number=5)
    assert copied.course_generated
    assert copied.segments
    assert Stage.objects.get(race=tour2022, number=5).segments == []


def test_resolution_refuses_an_invalid_course_before_the_engine(tour2022, alice, monkeypatch):
    season = _budget_league(alice, tour2022, alice)
    lifecycle.round_open(round=stage(season, 1))
    Stage.objects.filter(race=season.event, number=1).update(
        segments=[{"terrain": "plain", "km": 10}]
    )

    def engine_reached(self, inputs, **kwargs):
        raise AssertionError("the engine was reached")

    monkeypatch.setattr(CyclingAdapter, "simulate", engine_reached)
    with override("en"), pytest.raises(lifecycle.RoundError, match=r"3\.0 km missing"):
        resolution.round_resolve(round_id=stage(season, 1).pk)
    failed = stage(season, 1)
    assert failed.status == Round.Status.LOCKED
    assert "Stage 1 (Copenhagen – Copenhagen)" in failed.last_error
    assert not StageResult.objects.filter(stage=failed.stage).exists()


def test_a_season_of_the_players_riders_only_races_them_alone(tour2022, alice, bob):
    season = _budget_league(alice, tour2022, alice, bob, peloton=Season.Peloton.PLAYERS)
    taken = set(Seat.objects.filter(season=season).values_list("rider_id", flat=True))

    lifecycle.round_open(round=stage(season, 1))
    assert not SeasonTeam.objects.filter(season=season, owner__isnull=True).exists()
    assert computer_teams_fill(season=season) == []
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = resolution.round_resolve(round_id=stage(season, 1).pk)
    assert resolved.status == Round.Status.RESOLVED
    raced = set(StageResult.objects.filter(stage=resolved.stage).values_list("rider_id", flat=True))
    assert raced == taken
    assert len(raced) == 2 * ROSTER
