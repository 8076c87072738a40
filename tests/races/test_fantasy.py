"""Fantasy points of a stage race's league (races.league.fantasy, docs/league.md "The players'
ranking"): one stage's facts in, each rider's points out; a small stored race added up for
the players' teams."""

import pytest

from races.classifications import ClimbRecord
from races.league import fantasy
from races.league.fantasy import StageFacts, stage_points
from races.league.ranking import points_lines
from races.models import RaceEvent, StageResult, Standing
from tests.factories import RaceFactory, RiderFactory, StageFactory

GENERAL, POINTS, MOUNTAINS, YOUTH = "general", "points", "mountains", "youth"


def test_a_stage_pays_places_daily_gc_jerseys_sprints_and_summits():
    facts = StageFacts(
        number=1,
        finish={1: 1, 2: 2, 3: 20, 4: 21},
        standings={GENERAL: [2, 1], POINTS: [1], MOUNTAINS: [3], YOUTH: [2]},
        sprints=[(4, 3)],
        climbs=[ClimbRecord(terrain="col1", crossing_order=(3, 1))],
    )
    points = stage_points(facts)
    # Rider 1: won (50), 2nd on GC (12), green jersey (3), 2nd over the col (8).
    assert points[1] == {"stage": 50, "gc": 12, "jersey": 3, "summit": 8}
    # Rider 2: 2nd (30), leads the GC (15) in yellow (5) and white (3).
    assert points[2] == {"stage": 30, "gc": 15, "jersey": 8}
    # Rider 3: 20th (1), polka dot (3), 2nd at the sprint (17), first over the col (10).
    assert points[3] == {"stage": 1, "jersey": 3, "sprint": 17, "summit": 10}
    # Rider 4: 21st pays nothing; first at the sprint (20).
    assert points[4] == {"sprint": 20}


def test_a_summit_finish_pays_double_and_the_last_stage_pays_the_finals():
    facts = StageFacts(
        number=3,
        finish={1: 1},
        standings={GENERAL: [1, 2], POINTS: [2, 1], MOUNTAINS: [1], YOUTH: [2]},
        climbs=[ClimbRecord(terrain="colhc", crossing_order=(1,), summit_finish=True)],
        last=True,
    )
    points = stage_points(facts)
    # Final GC 1st (100), final points 2nd (25), final mountains 1st (40).
    assert points[1]["final"] == 100 + 25 + 40
    assert points[1]["summit"] == 40  # HC 20, doubled at a summit finish
    assert points[2]["final"] == 80 + 40 + 25
    assert "final" not in stage_points(StageFacts(number=3, finish={}, standings=facts.standings))


def _score(team_id, points, wins=0, best_gc=None):
    return fantasy.TeamScore(team_id, points=points, stage_wins=wins, best_gc=best_gc)


def test_ties_are_broken_by_stage_wins_then_the_best_gc_rider_then_the_name():
    players = {1: ("Zebra", "zed"), 2: ("Alpha", "al"), 3: ("Mango", "mo"), 4: ("Kiwi", "ki")}
    scores = {
        1: _score(1, 100, wins=1, best_gc=(9, "A")),
        2: _score(2, 100, wins=0, best_gc=(2, "B")),
        3: _score(3, 100, wins=0, best_gc=(2, "C")),
        4: _score(4, 120, wins=0, best_gc=None),
    }
    lines = points_lines(scores, players=players)
    # 120 first; then at 100 the stage win; then the best GC rider; at that equal, the name.
    assert [team for _place, team, _score, _behind in lines] == [4, 1, 2, 3]
    assert [place for place, *_rest in lines] == [1, 2, 3, 4]
    assert [behind for *_rest, behind in lines] == ["", "−20", "−20", "−20"]
    # A team with no rider left on the GC loses the tie to one that has.
    scores[4] = _score(4, 100, wins=0, best_gc=None)
    lines = points_lines(scores, players=players)
    assert [team for _place, team, _score, _behind in lines] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_a_stored_race_adds_up_each_players_riders():
    race = RaceFactory()
    one = StageFactory(race=race, number=1, segments=[{"terrain": "flat"}])
    two = StageFactory(race=race, number=2, segments=[{"terrain": "col1"}])
    ann, bea, cid, dan = RiderFactory.create_batch(4)
    red, blue = 101, 102  # the players' league teams
    team = {ann.pk: red, bea.pk: red, cid.pk: blue, dan.pk: None}
    places = {one: [ann, cid, bea, dan], two: [cid, ann, dan, bea]}
    for stage, order in places.items():
        for rank, rider in enumerate(order, start=1):
            StageResult.objects.create(
                stage=stage, rider=rider, entry_team_id=team[rider.pk], rank=rank, time_seconds=1
            )
    gc = {one: [ann, cid, bea, dan], two: [cid, ann, dan, bea]}
    for stage, order in gc.items():
        for rank, rider in enumerate(order, start=1):
            Standing.objects.create(
                stage=stage,
                classification=GENERAL,
                rank=rank,
                rider=rider,
                entry_team_id=team[rider.pk],
                value=rank,
            )
    RaceEvent.objects.create(
        stage=one, seq=1, turn=1, kind="intermediate_sprint", rider_ids=[dan.pk, bea.pk]
    )
    RaceEvent.objects.create(
        stage=two, seq=1, turn=1, kind="summit", rider_ids=[cid.pk], data={"terrain": "col1"}
    )
    scores = fantasy.team_scores(two, players=[red, blue])
    # Stage 1: Ann wins (50), leads the GC (15) in yellow (5); Bea 3rd (20), 3rd on GC (10),
    # 2nd at the sprint (17). Stage 2 (the last: finals): Ann 2nd (30), 2nd on GC (12),
    # final GC 2nd (80); Bea 4th (18), 4th on GC (8), final GC 4th (55).
    assert scores[red].points == (50 + 15 + 5 + 20 + 10 + 17) + (30 + 12 + 80 + 18 + 8 + 55)
    # Cid: 2nd (30), 2nd on GC (12); then wins (50), the summit finish doubled (2 x 10), leads
    # the GC (15) in yellow (5), final GC 1st (100).
    assert scores[blue].points == (30 + 12) + (50 + 20 + 15 + 5 + 100)
    assert scores[red].stage_wins == scores[blue].stage_wins == 1
    assert scores[red].best_gc == (2, ann.name)
    assert scores[blue].best_gc == (1, cid.name)
    assert scores[red].jersey_days == scores[blue].jersey_days == 1
    assert scores[red].by_stage == {1: 117, 2: 203}
    assert scores[red].best_day == (203, 2)
    assert scores[red].best_stage == (1, 1, ann.name)
    # After stage 1 only, no final: the points so far.
    assert fantasy.team_scores(one, players=[red, blue])[red].points == 117
