"""A race forked after stage N: every classification is the given state after stage N (the
baseline) plus the league's stages N+1.. (docs/classifications.md "A race forked at a stage").
Pure, no database."""

from datetime import date

import pytest

from races.classifications import (
    Baseline,
    StandingLine,
    all_classifications,
    general,
    mountains,
    points,
    teams,
    youth,
)
from tests.races.test_classifications import INEOS, JUMBO, UAE, climb, out, res, stage


def line(rank, rider, value, gap=0, team=UAE):
    return StandingLine(rank=rank, rider_id=rider, team_id=team, value=value, gap=gap)


def team_line(rank, team, value, gap=0):
    return StandingLine(rank=rank, rider_id=None, team_id=team, value=value, gap=gap)


# After stage 10: rider 1 leads rider 2 by 30 s, rider 3 is 2:00 down; rider 4 has left.
AFTER_10 = Baseline(
    after_stage=10,
    general=(line(1, 1, 36_000), line(2, 2, 36_030, 30, JUMBO), line(3, 3, 36_120, 120, INEOS)),
    points=(line(1, 2, 120, 0, JUMBO), line(2, 1, 80, 40)),
    mountains=(line(1, 3, 25, 0, INEOS),),
    youth=(line(1, 3, 36_120, 0, INEOS),),
    teams=(team_line(1, UAE, 108_000), team_line(2, JUMBO, 108_100, 100)),
)


def test_before_any_league_stage_the_classifications_are_the_baseline():
    tables = all_classifications([], birth_dates={}, season_year=2022, baseline=AFTER_10)
    assert [(s.rider_id, s.value, s.gap) for s in tables["general"]] == [
        (1, 36_000, 0),
        (2, 36_030, 30),
        (3, 36_120, 120),
    ]
    assert [(s.rider_id, s.value) for s in tables["points"]] == [(2, 120), (1, 80)]
    assert [(s.rider_id, s.value) for s in tables["mountains"]] == [(3, 25)]
    assert [s.rider_id for s in tables["youth"]] == [3]
    assert [(s.team_id, s.value) for s in tables["teams"]] == [(UAE, 108_000), (JUMBO, 108_100)]


def test_a_riders_gc_time_is_his_baseline_time_plus_his_league_stage_times():
    # Stage 11: rider 2 wins by 40 s with the 10 s bonus: he takes the lead by 20 s.
    stage_11 = stage(
        11,
        [res(2, 1, 15_000, JUMBO, bonus=10), res(3, 2, 15_040, INEOS), res(1, 3, 15_040)],
        "mountain",
    )
    lines = general([stage_11], baseline=AFTER_10)
    assert [(s.rider_id, s.value, s.gap) for s in lines] == [
        (2, 36_030 + 15_000 - 10, 0),
        (1, 36_000 + 15_040, 20),
        (3, 36_120 + 15_040, 140),
    ]


def test_points_and_mountains_are_carried_and_added_to():
    stage_11 = stage(
        11,
        [res(1, 1, 15_000), res(2, 2, 15_000, JUMBO), res(3, 3, 15_000, INEOS)],
        "flat",
        climbs=[climb("col1", 1, 3)],
    )
    assert [(s.rider_id, s.value) for s in points([stage_11], baseline=AFTER_10)] == [
        (2, 120 + 30),
        (1, 80 + 50),
        (3, 20),
    ]
    assert [(s.rider_id, s.value) for s in mountains([stage_11], baseline=AFTER_10)] == [
        (3, 25 + 8),
        (1, 10),
    ]


def test_a_rider_who_leaves_in_a_league_stage_loses_his_carried_points():
    stage_11 = stage(
        11,
        [res(1, 1, 15_000), res(3, 2, 15_000, INEOS), out(2, "dnf", JUMBO)],
        "flat",
    )
    tables = all_classifications([stage_11], birth_dates={}, season_year=2022, baseline=AFTER_10)
    assert 2 not in {s.rider_id for s in tables["general"]}
    assert 2 not in {s.rider_id for s in tables["points"]}


def test_a_rider_out_of_the_race_before_the_fork_may_not_ride_after_it():
    stage_11 = stage(11, [res(1, 1, 15_000), res(4, 2, 15_000)])
    with pytest.raises(ValueError, match="rider 4 is finished but was out of the race after"):
        general([stage_11], baseline=AFTER_10)


def test_a_given_stage_cannot_be_raced_again():
    with pytest.raises(ValueError, match=r"stage 10 is one of the given stages 1\.\.10"):
        general([stage(10, [res(1, 1, 15_000)])], baseline=AFTER_10)


def test_the_baselines_young_riders_stay_eligible_and_others_by_birth_date():
    stage_11 = stage(11, [res(1, 1, 15_000), res(2, 2, 15_000, JUMBO), res(3, 3, 15_000, INEOS)])
    # No birth date on record for rider 3 (the real classification knew it); rider 2 is young.
    lines = youth(
        [stage_11],
        birth_dates={1: date(1990, 1, 1), 2: date(2000, 5, 5)},
        season_year=2022,
        baseline=AFTER_10,
    )
    assert [s.rider_id for s in lines] == [2, 3]


def test_team_times_carry_and_only_the_baselines_teams_race_on():
    stage_11 = stage(
        11,
        [res(r, r, 15_000 + r, (UAE, JUMBO, INEOS)[(r - 1) // 3]) for r in range(1, 10)],
    )
    baseline = Baseline(
        after_stage=10,
        general=tuple(line(r, r, 36_000 + r, r - 1) for r in range(1, 10)),
        teams=AFTER_10.teams,
    )
    lines = teams([stage_11], baseline=baseline)
    assert [(s.team_id, s.value) for s in lines] == [
        (UAE, 108_000 + 45_006),
        (JUMBO, 108_100 + 45_015),
    ]
