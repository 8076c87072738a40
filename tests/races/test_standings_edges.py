"""The standings writer (races/standings.py): the classification snapshots of a stage, read
from the stored results and events and written as Standing rows (issue 12, mutation testing).

One small race worked out by hand from docs/classifications.md: six riders in two teams of
three, a flat stage and a mountain stage ending on an HC summit. SQLite is enough: the writer
uses plain queries and one transaction.
"""

from datetime import date

import pytest

from races.models import Classification, RaceEvent, Stage, StageResult, Standing
from races.standings import standings_update
from tests.factories import RaceFactory, RiderFactory, StageFactory, TeamFactory

pytestmark = pytest.mark.django_db

#: Ends on a plain: its climb is not a summit finish.
FLAT_COURSE = [
    {"terrain": "plain", "km": 100, "name": "Plain"},
    {"terrain": "col2", "km": 10, "name": "Col du Test"},
    {"terrain": "descent", "km": 10, "name": "Descent"},
    {"terrain": "plain", "km": 30, "name": "Run-in"},
]
#: Ends on an HC climb: the last summit is a summit finish (points doubled).
MOUNTAIN_COURSE = [
    {"terrain": "plain", "km": 60, "name": "Valley"},
    {"terrain": "col1", "km": 12, "name": "Col du Premier"},
    {"terrain": "descent", "km": 12, "name": "Descent"},
    {"terrain": "colhc", "km": 16, "name": "Montée finale"},
]


def result(stage, rider, rank, time, *, bonus=0, penalty=0, entry_team_id=None):
    return StageResult.objects.create(
        stage=stage,
        rider=rider,
        team=rider.team,
        entry_team_id=entry_team_id,
        rank=rank,
        status=StageResult.Status.FINISHED,
        time_seconds=time,
        gap_seconds=0,
        bonus_seconds=bonus,
        penalty_seconds=penalty,
    )


def event(stage, seq, kind, riders, **data):
    return RaceEvent.objects.create(
        stage=stage,
        seq=seq,
        turn=seq,
        kind=kind,
        rider=riders[0] if riders else None,
        rider_ids=[r.pk for r in riders],
        data=data,
    )


def summit(stage, seq, terrain, riders):
    return event(stage, seq, RaceEvent.Kind.SUMMIT, riders, climb=terrain, terrain=terrain)


def sprint(stage, seq, riders):
    return event(stage, seq, RaceEvent.Kind.INTERMEDIATE_SPRINT, riders, km=50.0)


def written(stage):
    """Every Standing row of the stage: {classification: [(who, value, gap), ...]} by rank."""
    tables: dict[str, list[tuple[int | None, int, int]]] = {}
    for row in Standing.objects.filter(stage=stage).order_by("classification", "rank"):
        assert row.rank == len(tables.get(row.classification, [])) + 1
        who = row.rider_id if row.rider_id is not None else row.entry_team_id
        tables.setdefault(row.classification, []).append((who, row.value, row.gap))
    return tables


@pytest.fixture
def cast():
    """Team A: a1 a2 a3, team B: b1 b2 b3. Season 2024: young means born after 1 Jan 1998."""
    team_a, team_b = TeamFactory(), TeamFactory()
    born = {
        "a1": None,  # no birth date on record: never young
        "a2": date(2000, 5, 1),
        "a3": date(1990, 1, 1),
        "b1": date(1990, 1, 1),
        "b2": date(1998, 1, 1),  # 26 on 1 January 2024: not young
        "b3": date(1998, 1, 2),  # still 25 on 1 January 2024: young
    }
    riders = {
        name: RiderFactory(team=team_a if name[0] == "a" else team_b, birth_date=birth)
        for name, birth in born.items()
    }
    return riders, team_a, team_b


@pytest.fixture
def race(cast):
    """Two stages, results and events stored as a resolution leaves them."""
    r, _, _ = cast
    tour = RaceFactory(year=2024)
    s1 = StageFactory(race=tour, number=1, stage_type=Stage.StageType.FLAT, segments=FLAT_COURSE)
    s2 = StageFactory(
        race=tour, number=2, stage_type=Stage.StageType.MOUNTAIN, segments=MOUNTAIN_COURSE
    )
    result(s1, r["a1"], 1, 12_000, bonus=10)
    result(s1, r["b1"], 2, 12_000, bonus=6)
    result(s1, r["a2"], 3, 12_000, bonus=4)
    result(s1, r["b2"], 4, 12_030)
    result(s1, r["a3"], 5, 12_030)
    result(s1, r["b3"], 6, 12_100)
    sprint(s1, 1, [r["b2"], r["a1"], r["b1"]])
    summit(s1, 2, "col2", [r["b3"], r["a3"]])
    # Neither a summit nor a sprint: no points, whatever riders it names.
    event(s1, 3, RaceEvent.Kind.CRASH, [r["a2"]], rule="R-C1")

    result(s2, r["b1"], 1, 15_000, bonus=10)
    result(s2, r["a1"], 2, 15_000, bonus=6)
    result(s2, r["b3"], 3, 15_020, bonus=4)
    result(s2, r["a2"], 4, 15_060)
    result(s2, r["b2"], 5, 15_060, penalty=20)
    result(s2, r["a3"], 6, 15_200)
    # Stored out of order on purpose: the summits count in the order of the race (seq).
    summit(s2, 2, "colhc", [r["b1"], r["a1"], r["b3"]])
    summit(s2, 1, "col1", [r["a3"], r["b1"], r["a1"]])
    return s1, s2


def expected_after_stage_2(cast):
    r, team_a, team_b = cast
    a1, a2, a3, b1, b2, b3 = (r[n].pk for n in ("a1", "a2", "a3", "b1", "b2", "b3"))
    return {
        # time - bonus + penalty: a1 12000-10 + 15000-6 = 26984, b1 12000-6 + 15000-10 = 26984:
        # a tie, and the same sum of places (1+2 = 2+1): b1 won the last stage, he leads.
        # a2 11996 + 15060 = 27056; b2 12030 + 15060 + 20 = 27110; b3 12100 + 15016 = 27116;
        # a3 12030 + 15200 = 27230.
        Classification.GENERAL: [
            (b1, 26_984, 0),
            (a1, 26_984, 0),
            (a2, 27_056, 72),
            (b2, 27_110, 126),
            (b3, 27_116, 132),
            (a3, 27_230, 246),
        ],
        # Flat 50 30 20 18 16 14, sprint 20 17 15, mountain 20 17 15 13 11 10:
        # a1 50+17+17 = 84; b1 30+15+20 = 65; b2 18+20+11 = 49; a2 20+13 = 33;
        # b3 14+15 = 29; a3 16+10 = 26.
        Classification.POINTS: [
            (a1, 84, 0),
            (b1, 65, 19),
            (b2, 49, 35),
            (a2, 33, 51),
            (b3, 29, 55),
            (a3, 26, 58),
        ],
        # col2 (no summit finish) b3 5, a3 3; col1 a3 10, b1 8, a1 6; HC summit finish doubled
        # b1 40, a1 30, b3 24. b1 48, a1 36, b3 29, a3 13; a2 and b2 have none.
        Classification.MOUNTAINS: [(b1, 48, 0), (a1, 36, 12), (b3, 29, 19), (a3, 13, 35)],
        # Young in 2024: a2 (2000) and b3 (2 January 1998), in GC order.
        Classification.YOUTH: [(a2, 27_056, 0), (b3, 27_116, 60)],
        # Three best stage times, no bonuses or penalties. Stage 1: A 12000+12000+12030 = 36030,
        # B 12000+12030+12100 = 36130. Stage 2: A 15000+15060+15200 = 45260,
        # B 15000+15020+15060 = 45080. B 81210, A 81290.
        Classification.TEAMS: [(team_b.pk, 81_210, 0), (team_a.pk, 81_290, 80)],
    }


def test_the_standings_after_a_stage_are_every_classification_of_the_stages_so_far(cast, race):
    _, s2 = race
    tables = standings_update(stage=s2)
    assert written(s2) == expected_after_stage_2(cast)
    # What it returns is what it wrote.
    returned = {
        name: [(x.rider_id if x.rider_id is not None else x.team_id, x.value, x.gap) for x in lines]
        for name, lines in tables.items()
    }
    assert returned == expected_after_stage_2(cast)


def test_the_team_lines_name_no_rider(cast, race):
    _, s2 = race
    standings_update(stage=s2)
    teams = Standing.objects.filter(stage=s2, classification=Classification.TEAMS)
    assert [row.rider_id for row in teams] == [None, None]


def test_the_standings_after_stage_1_count_stage_1_only(cast, race):
    r, team_a, team_b = cast
    s1, _ = race
    standings_update(stage=s1)
    a1, a2, a3, b1, b2, b3 = (r[n].pk for n in ("a1", "a2", "a3", "b1", "b2", "b3"))
    tables = written(s1)
    # 11990, 11994, 11996, 12030 (b2 rank 4, a3 rank 5), 12100.
    assert tables[Classification.GENERAL] == [
        (a1, 11_990, 0),
        (b1, 11_994, 4),
        (a2, 11_996, 6),
        (b2, 12_030, 40),
        (a3, 12_030, 40),
        (b3, 12_100, 110),
    ]
    # The col2 of stage 1 is not a summit finish: 5 and 3, not doubled.
    assert tables[Classification.MOUNTAINS] == [(b3, 5, 0), (a3, 3, 2)]
    assert tables[Classification.TEAMS] == [(team_a.pk, 36_030, 0), (team_b.pk, 36_130, 100)]


def test_later_stages_and_other_races_do_not_count(cast, race):
    r, _, _ = cast
    _, s2 = race
    # Stage 3 of the same race already holds results (a replay, an import), and another race
    # has a stage 2: neither may change the standings after stage 2.
    s3 = StageFactory(race=s2.race, number=3, segments=FLAT_COURSE)
    other = StageFactory(race=RaceFactory(year=2024), number=2, segments=FLAT_COURSE)
    for rank, name in enumerate(("a3", "b3", "b2", "a2", "a1", "b1"), start=1):
        result(s3, r[name], rank, 10_000 + 100 * rank)
        result(other, r[name], rank, 10_000 + 100 * rank)
    sprint(s3, 1, [r["a3"]])
    summit(other, 1, "colhc", [r["a2"]])
    standings_update(stage=s2)
    assert written(s2) == expected_after_stage_2(cast)


def test_recomputing_replaces_the_snapshot_of_that_stage_and_keeps_the_others(cast, race):
    r, _, _ = cast
    s1, s2 = race
    standings_update(stage=s1)
    standings_update(stage=s2)
    before_stage_1 = written(s1)
    # A jury adds 300 s to a2 in stage 2: the second run replaces the first one.
    StageResult.objects.filter(stage=s2, rider=r["a2"]).update(penalty_seconds=300)
    standings_update(stage=s2)
    general = written(s2)[Classification.GENERAL]
    assert (r["a2"].pk, 27_356, 372) in general
    assert len(general) == 6
    assert written(s1) == before_stage_1


def test_the_league_team_of_a_result_comes_before_the_riders_real_team(cast, race):
    r, _, _ = cast
    _, s2 = race
    # A league: a1 b1 b2 ride for league team 7, the others for league team 8.
    league_of = {"a1": 7, "b1": 7, "b2": 7, "a2": 8, "a3": 8, "b3": 8}
    for name, league_team in league_of.items():
        StageResult.objects.filter(rider=r[name]).update(entry_team_id=league_team)
    standings_update(stage=s2)
    # Team 7: stage 1 12000+12000+12030 = 36030, stage 2 15000+15000+15060 = 45060: 81090.
    # Team 8: stage 1 12000+12030+12100 = 36130, stage 2 15020+15060+15200 = 45280: 81410.
    assert written(s2)[Classification.TEAMS] == [(7, 81_090, 0), (8, 81_410, 320)]
    rows = Standing.objects.filter(stage=s2, classification=Classification.GENERAL)
    assert {row.rider_id: row.entry_team_id for row in rows} == {
        r[name].pk: team for name, team in league_of.items()
    }


def test_a_rider_without_any_team_counts_for_no_team(cast, race):
    r, _, team_b = cast
    _, s2 = race
    # a3 has lost his team: team A has two riders left with a team, and drops out.
    StageResult.objects.filter(rider=r["a3"]).update(team=None, entry_team_id=None)
    standings_update(stage=s2)
    assert written(s2)[Classification.TEAMS] == [(team_b.pk, 81_210, 0)]
    rows = Standing.objects.filter(stage=s2, classification=Classification.GENERAL)
    assert {row.rider_id: row.entry_team_id for row in rows}[r["a3"].pk] == 0


def test_a_stage_that_does_not_end_on_a_climb_has_no_summit_finish(cast, race):
    r, _, _ = cast
    _, s2 = race
    # The same mountain stage with a descent to the line: the HC is not doubled any more.
    Stage.objects.filter(pk=s2.pk).update(segments=[*MOUNTAIN_COURSE, FLAT_COURSE[2]])
    standings_update(stage=s2)
    a1, a3, b1, b3 = (r[n].pk for n in ("a1", "a3", "b1", "b3"))
    # b1 8+20 = 28, a1 6+15 = 21, b3 5+12 = 17, a3 3+10 = 13.
    assert written(s2)[Classification.MOUNTAINS] == [
        (b1, 28, 0),
        (a1, 21, 7),
        (b3, 17, 11),
        (a3, 13, 15),
    ]


def test_a_stage_without_a_course_has_no_summit_finish(cast, race):
    r, _, _ = cast
    _, s2 = race
    Stage.objects.filter(pk=s2.pk).update(segments=[])
    standings_update(stage=s2)
    assert written(s2)[Classification.MOUNTAINS][0] == (r["b1"].pk, 28, 0)


def test_a_summit_finish_without_summit_events_is_no_error(cast, race):
    _, s2 = race
    # The course ends on the HC climb, but no summit was recorded in stage 2.
    RaceEvent.objects.filter(stage=s2, kind=RaceEvent.Kind.SUMMIT).delete()
    standings_update(stage=s2)
    # Only stage 1's col2 is left: b3 5, a3 3.
    mountains = written(s2)[Classification.MOUNTAINS]
    assert [(value, gap) for _, value, gap in mountains] == [(5, 0), (3, 2)]


def test_a_single_summit_at_the_finish_is_the_summit_finish(cast, race):
    r, _, _ = cast
    _, s2 = race
    # Stage 2 without its col1: its one summit, the HC at the line, is doubled.
    RaceEvent.objects.filter(stage=s2, data__terrain="col1").delete()
    standings_update(stage=s2)
    a1, a3, b1, b3 = (r[n].pk for n in ("a1", "a3", "b1", "b3"))
    # b1 40, a1 30, b3 5 + 24 = 29, a3 3.
    assert written(s2)[Classification.MOUNTAINS] == [
        (b1, 40, 0),
        (a1, 30, 10),
        (b3, 29, 11),
        (a3, 3, 37),
    ]


def test_a_summit_without_a_category_is_refused_naming_the_stage(race):
    s1, s2 = race
    RaceEvent.objects.filter(stage=s1, kind=RaceEvent.Kind.SUMMIT).update(data={"climb": "Col"})
    with pytest.raises(ValueError, match="stage 1: unknown climb ''"):
        standings_update(stage=s2)
    assert not Standing.objects.filter(stage=s2).exists()


def test_riders_out_of_the_race_drop_out_of_the_written_standings(cast, race):
    r, _, _ = cast
    _, s2 = race
    # b2 abandoned in stage 2 after crossing the line: out of the individual standings,
    # still one of team B's three that day.
    StageResult.objects.filter(stage=s2, rider=r["b2"]).update(status="abandoned")
    standings_update(stage=s2)
    tables = written(s2)
    assert r["b2"].pk not in [who for who, _, _ in tables[Classification.GENERAL]]
    assert r["b2"].pk not in [who for who, _, _ in tables[Classification.POINTS]]
    assert tables[Classification.TEAMS][0][1] == 81_210
