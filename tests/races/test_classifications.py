"""Classifications as pure functions over stage results (docs/classifications.md). No database."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from races.classifications import (
    CLIMB_TERRAINS,
    STAGE_FINISHERS,
    STAGE_TYPES,
    ClimbRecord,
    ResultRecord,
    StageRecord,
    StandingLine,
    all_classifications,
    general,
    is_youth,
    jersey_holders,
    mountains,
    points,
    teams,
    youth,
)

# Teams of the cast; riders are 1, 2, 3, ... and ride for the team named in each test.
UAE, JUMBO, INEOS = 100, 200, 300


def res(rider, rank, time, team=UAE, *, bonus=0, penalty=0, status="finished"):
    return ResultRecord(
        rider_id=rider,
        team_id=team,
        rank=rank,
        time_seconds=time,
        bonus_seconds=bonus,
        penalty_seconds=penalty,
        status=status,
    )


def out(rider, status="dns", team=UAE):
    return ResultRecord(rider_id=rider, team_id=team, rank=None, time_seconds=None, status=status)


def stage(number, results, stage_type="flat", climbs=(), sprints=()):
    return StageRecord(
        number=number,
        stage_type=stage_type,
        results=tuple(results),
        climbs=tuple(climbs),
        intermediate_sprints=tuple(tuple(s) for s in sprints),
    )


def climb(terrain, *crossing, summit_finish=False):
    return ClimbRecord(terrain=terrain, crossing_order=crossing, summit_finish=summit_finish)


def table(lines):
    """(rider or team, value, gap) in rank order."""
    return [(x.rider_id if x.rider_id is not None else x.team_id, x.value, x.gap) for x in lines]


def riders_of(lines):
    return [x.rider_id for x in lines]


# --- general ------------------------------------------------------------------------------


def test_gc_sums_times_minus_bonuses_plus_penalties():
    stages = [
        stage(1, [res(1, 1, 14_400, bonus=10), res(2, 2, 14_400, bonus=6), res(3, 3, 14_420)]),
        stage(2, [res(2, 1, 9_990), res(1, 2, 10_000), res(3, 3, 10_000, penalty=20)]),
    ]
    # rider 1: 14400 - 10 + 10000 = 24390; rider 2: 14400 - 6 + 9990 = 24384
    # rider 3: 14420 + 10000 + 20 = 24440
    assert table(general(stages)) == [(2, 24_384, 0), (1, 24_390, 6), (3, 24_440, 56)]


def test_gc_tie_is_broken_by_sum_of_stage_places_then_last_stage():
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100), res(3, 3, 100), res(4, 4, 100)]),
        stage(2, [res(3, 1, 100), res(4, 2, 100), res(2, 3, 100), res(1, 4, 100)]),
    ]
    # All on 200 s. Places: rider 1 1+4=5, rider 2 2+3=5, rider 3 3+1=4, rider 4 4+2=6.
    # Riders 1 and 2 tie on 5: rider 2 was 3rd in the last stage, rider 1 4th.
    assert riders_of(general(stages)) == [3, 2, 1, 4]
    assert [x.gap for x in general(stages)] == [0, 0, 0, 0]
    assert [x.rank for x in general(stages)] == [1, 2, 3, 4]


def test_gc_carries_the_team_of_each_rider():
    stages = [stage(1, [res(1, 1, 100, team=JUMBO), res(2, 2, 100, team=INEOS)])]
    assert [(x.rider_id, x.team_id) for x in general(stages)] == [(1, JUMBO), (2, INEOS)]


def test_stages_are_taken_in_number_order():
    s1 = stage(1, [res(1, 1, 100), res(2, 2, 100)])
    s2 = stage(2, [res(2, 1, 100), res(1, 2, 100)])
    # Same sums of places (3 each); the last stage is stage 2 whatever the list order.
    assert riders_of(general([s2, s1])) == [2, 1]


def test_no_stage_no_standings():
    assert all_classifications([], birth_dates={}, season_year=2024) == {
        "general": [],
        "points": [],
        "mountains": [],
        "youth": [],
        "teams": [],
    }


# --- riders out of the race ---------------------------------------------------------------


def test_rider_out_of_the_race_leaves_every_classification():
    # Rider 1 wins stage 1, the sprint and the climb, then finishes stage 2 and abandons.
    stages = [
        stage(
            1,
            [res(1, 1, 100), res(2, 2, 100), res(3, 3, 100), res(4, 4, 100, team=JUMBO)],
            climbs=[climb("col1", 1, 2)],
            sprints=[(1, 2)],
        ),
        stage(
            2,
            [
                res(1, 1, 90, status="abandoned"),
                res(2, 2, 100),
                res(3, 3, 100),
                res(4, 4, 100, team=JUMBO),
            ],
        ),
    ]
    standings = all_classifications(
        stages, birth_dates={1: date(2003, 5, 1), 2: date(2003, 5, 1)}, season_year=2024
    )
    for name in ("general", "points", "mountains", "youth"):
        assert 1 not in riders_of(standings[name]), name
    assert riders_of(standings["general"]) == [2, 3, 4]
    assert riders_of(standings["youth"]) == [2]
    # Rider 2 keeps his own points: 30 (2nd, flat) + 17 (2nd at the sprint) + 30 (2nd) = 77.
    assert table(standings["points"])[0] == (2, 77, 0)
    assert table(standings["mountains"]) == [(2, 8, 0)]
    # He did finish stage 2, so his 90 s count for UAE that day:
    # stage 1: 100 + 100 + 100 = 300; stage 2: 90 + 100 + 100 = 290; 590. Jumbo has one rider.
    assert table(standings["teams"]) == [(UAE, 590, 0)]


@pytest.mark.parametrize("status", ["crashed_out", "otl", "dnf", "dsq"])
def test_any_status_but_finished_puts_a_rider_out(status):
    time = None if status in ("dnf", "dsq") else 150
    rank = None if time is None else 2
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100)]),
        stage(2, [res(1, 1, 100), res(2, rank, time, status=status)]),
    ]
    assert riders_of(general(stages)) == [1]


def test_a_rider_missing_from_a_stage_is_out():
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100)]),
        stage(2, [res(1, 1, 100)]),
    ]
    assert riders_of(general(stages)) == [1]


def test_a_rider_cannot_ride_again_after_leaving_the_race():
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100, status="otl")]),
        stage(2, [res(1, 1, 100), res(2, 2, 100)]),
    ]
    with pytest.raises(
        ValueError, match="stage 2: rider 2 is finished but left the race in stage 1"
    ):
        general(stages)
    # A "did not start" line after leaving is fine.
    stages[1] = stage(2, [res(1, 1, 100), out(2)])
    assert riders_of(general(stages)) == [1]


# --- points -------------------------------------------------------------------------------


def test_points_follow_the_2023_tables_by_stage_type():
    ranks = [1, 2, 15, 16]
    expected = {
        "flat": [50, 30, 2],
        "hilly": [30, 25, 2],
        "mountain": [20, 17, 1],
        "ITT": [20, 17, 1],
    }
    for stage_type, values in expected.items():
        results = [res(rider, rank, 100 + rank) for rider, rank in enumerate(ranks, start=1)]
        # The 16th (rider 4) scores nothing, so is not listed.
        assert [x.value for x in points([stage(1, results, stage_type)])] == values, stage_type
    results = [res(rider, rank, 100) for rider, rank in enumerate(ranks, start=1)]
    assert points([stage(1, results, "TTT")]) == []


def test_intermediate_sprint_points_go_by_crossing_order():
    results = [res(1, 1, 100), res(2, 2, 100), res(3, 3, 100)]
    stages = [stage(1, results, "TTT", sprints=[(3, 2), (3,)])]
    # rider 3: 20 + 20; rider 2: 17; TTT finish gives no points
    assert table(points(stages)) == [(3, 40, 0), (2, 17, 23)]


def test_points_tie_is_broken_by_stage_wins_then_sprint_wins():
    # Stage wins: rider 1 wins (50); rider 2 is 2nd (30) and wins the sprint (20): 50 each.
    stages = [stage(1, [res(2, 2, 100), res(1, 1, 100)], sprints=[(2,)])]
    assert table(points(stages)) == [(1, 50, 0), (2, 50, 0)]
    # Sprint wins: rider 3 wins the stage (50) and is 2nd at the sprint (17) = 67;
    # rider 1 is 2nd (30) and 6th at the sprint (10) = 40; rider 2 is 3rd (20) + wins it (20) = 40.
    results = [res(3, 1, 100), res(1, 2, 100), res(2, 3, 100)]
    results += [res(r, r, 100) for r in (4, 5, 6)]
    stages = [stage(1, results, sprints=[(2, 3, 4, 5, 6, 1)])]
    # riders 4, 5, 6: 18 + 15 = 33, 16 + 13 = 29, 14 + 11 = 25
    assert table(points(stages)) == [
        (3, 67, 0),
        (2, 40, 27),
        (1, 40, 27),
        (4, 33, 34),
        (5, 29, 38),
        (6, 25, 42),
    ]


def test_points_tie_without_wins_goes_to_the_better_gc_rider():
    stages = [
        stage(1, [res(3, 1, 100), res(1, 2, 100), res(2, 3, 100)]),
        stage(2, [res(3, 1, 100), res(2, 2, 100), res(1, 3, 105)]),
    ]
    # Riders 1 and 2: 30 + 20 = 50 each, no wins; rider 2 is 2nd on GC (200 s), rider 1 3rd.
    assert table(points(stages)) == [(3, 100, 0), (2, 50, 50), (1, 50, 50)]


# --- mountains ----------------------------------------------------------------------------


def test_mountain_points_follow_the_category_tables():
    results = [res(1, 1, 100), res(2, 2, 100), res(3, 3, 100)]
    climbs = [
        climb("colhc", 1, 2, 3),  # 20, 15, 12
        climb("col1", 2, 1),  # 10, 8
        climb("col2", 3),  # 5
        climb("col3", 1, 2),  # 2, 1
        climb("hill", 3, 2),  # 1, 0
    ]
    # rider 1: 20 + 8 + 2 = 30; rider 2: 15 + 10 + 1 = 26; rider 3: 12 + 5 + 1 = 18
    assert table(mountains([stage(1, results, "mountain", climbs)])) == [
        (1, 30, 0),
        (2, 26, 4),
        (3, 18, 12),
    ]


def test_summit_finish_doubles_mountain_points():
    results = [res(1, 1, 100), res(2, 2, 100), res(3, 3, 100)]
    climbs = [
        climb("colhc", 1, 2, summit_finish=True),  # 40, 30
        climb("col2", 3, summit_finish=True),  # 10
    ]
    assert table(mountains([stage(1, results, "mountain", climbs)])) == [
        (1, 40, 0),
        (2, 30, 10),
        (3, 10, 30),
    ]


def test_summit_finish_on_a_cat_3_or_4_climb_is_not_doubled():
    results = [res(1, 1, 100), res(2, 2, 100)]
    climbs = [climb("col3", 1, summit_finish=True), climb("hill", 2, summit_finish=True)]
    assert table(mountains([stage(1, results, "hilly", climbs)])) == [(1, 2, 0), (2, 1, 1)]


def test_mountains_tie_is_broken_by_hc_first_places_then_cat_1():
    results = [res(1, 1, 100), res(2, 2, 100)]
    # rider 2 (two cat 1 wins, 20) against rider 1 (one HC win, 20): HC first places win.
    climbs = [climb("col1", 2), climb("col1", 2), climb("colhc", 1)]
    assert riders_of(mountains([stage(1, results, "mountain", climbs)])) == [1, 2]
    # rider 2 (two cat 2 wins, 10) against rider 1 (one cat 1 win, 10): cat 1 first places win.
    climbs = [climb("col2", 2), climb("col2", 2), climb("col1", 1)]
    assert riders_of(mountains([stage(1, results, "mountain", climbs)])) == [1, 2]


def test_mountains_tie_without_first_places_goes_to_the_better_gc_rider():
    results = [res(3, 1, 100), res(1, 2, 110), res(2, 3, 105)]
    climbs = [climb("col2", 3, 1, 2), climb("col2", 3, 2, 1)]
    # riders 1 and 2: 3 + 2 = 5 each; rider 2 is ahead on GC (105 s against 110 s).
    assert table(mountains([stage(1, results, "mountain", climbs)])) == [
        (3, 10, 0),
        (2, 5, 5),
        (1, 5, 5),
    ]


def test_riders_without_points_are_not_listed():
    results = [res(1, 1, 100), res(2, 2, 100)]
    assert riders_of(mountains([stage(1, results, climbs=[climb("col3", 2)])])) == [2]
    assert mountains([stage(1, results)]) == []


# --- youth --------------------------------------------------------------------------------


def test_youth_is_under_26_on_1_january():
    # Season 2024: born 1 January 1998 -> 26 on 1 January 2024, out; born 2 January 1998 -> in.
    assert not is_youth(date(1998, 1, 1), season_year=2024)
    assert is_youth(date(1998, 1, 2), season_year=2024)
    assert not is_youth(None, season_year=2024)
    stages = [stage(1, [res(1, 1, 100), res(2, 2, 110), res(3, 3, 120), res(4, 4, 130)])]
    birth_dates = {1: date(1998, 1, 1), 2: date(1998, 1, 2), 3: None, 4: date(2004, 7, 14)}
    # GC 1, 2, 3, 4; eligible: 2 and 4, ranked 1 and 2, gaps to the best young rider.
    lines = youth(stages, birth_dates=birth_dates, season_year=2024)
    assert [(x.rank, x.rider_id, x.value, x.gap) for x in lines] == [
        (1, 2, 110, 0),
        (2, 4, 130, 20),
    ]


def test_a_rider_with_no_birth_date_on_record_is_not_young():
    stages = [stage(1, [res(1, 1, 100)])]
    assert youth(stages, birth_dates={}, season_year=2024) == []


# --- teams --------------------------------------------------------------------------------


def test_team_time_is_the_sum_of_its_three_best_riders():
    stages = [
        stage(
            1,
            [
                res(1, 1, 100, UAE),
                res(5, 2, 100, JUMBO),
                res(6, 3, 100, JUMBO),
                res(2, 4, 101, UAE),
                res(3, 5, 102, UAE),
                res(7, 6, 150, JUMBO),
                res(4, 7, 200, UAE),
            ],
        )
    ]
    # UAE 100 + 101 + 102 = 303 (rider 4 does not count); Jumbo 100 + 100 + 150 = 350.
    lines = teams(stages)
    assert table(lines) == [(UAE, 303, 0), (JUMBO, 350, 47)]
    assert all(x.rider_id is None for x in lines)


def test_team_with_two_finishers_drops_out():
    three_each = [
        res(1, 1, 100, UAE),
        res(2, 2, 100, UAE),
        res(3, 3, 100, UAE),
        res(4, 4, 100, JUMBO),
        res(5, 5, 100, JUMBO),
        res(6, 6, 100, JUMBO),
    ]
    stage_1 = stage(1, three_each)
    assert [x.team_id for x in teams([stage_1])] == [UAE, JUMBO]
    # Stage 2: Jumbo's rider 6 is outside the time limit; two finishers are not enough.
    stage_2 = stage(2, [*three_each[:5], res(6, 6, 3000, JUMBO, status="otl")])
    assert table(teams([stage_1, stage_2])) == [(UAE, 600, 0)]
    # Even with three finishers again later, a team out stays out.
    stage_3 = stage(3, [*three_each[:5], res(7, 6, 100, JUMBO)])
    assert [x.team_id for x in teams([stage_1, stage_2, stage_3])] == [UAE]


def test_abandoned_and_crashed_out_riders_count_for_their_team_that_day():
    stages = [
        stage(
            1,
            [
                res(1, 1, 100, UAE),
                res(2, 2, 100, UAE, status="abandoned"),
                res(3, 3, 100, UAE, status="crashed_out"),
            ],
        )
    ]
    assert table(teams(stages)) == [(UAE, 300, 0)]


def test_team_time_leaves_bonuses_and_penalties_out():
    stages = [
        stage(1, [res(1, 1, 100, bonus=10), res(2, 2, 100, penalty=60), res(3, 3, 100)]),
    ]
    assert table(teams(stages)) == [(UAE, 300, 0)]


def _team_stage(number, times_by_team):
    """Three riders a team (UAE 1-3, Jumbo 4-6, Ineos 7-9), ranked by time then team."""
    first_rider = {UAE: 1, JUMBO: 4, INEOS: 7}
    rows = [
        (time, team, first_rider[team] + i)
        for team, times in times_by_team.items()
        for i, time in enumerate(times)
    ]
    rows.sort()
    return stage(
        number, [res(rider, rank, time, team) for rank, (time, team, rider) in enumerate(rows, 1)]
    )


def test_team_tie_is_broken_by_daily_wins_then_best_rider_in_last_stage():
    # Stage 1: UAE 300 (wins the day), Jumbo 302, Ineos 301.
    # Stage 2: UAE 303, Jumbo 301, Ineos 300 (wins the day).
    # Totals: Ineos 601; UAE 603 and Jumbo 603: UAE has one daily win, Jumbo none.
    stages = [
        _team_stage(1, {UAE: [100, 100, 100], JUMBO: [100, 101, 101], INEOS: [100, 100, 101]}),
        _team_stage(2, {UAE: [101, 101, 101], JUMBO: [100, 100, 101], INEOS: [100, 100, 100]}),
    ]
    assert table(teams(stages)) == [(INEOS, 601, 0), (UAE, 603, 2), (JUMBO, 603, 2)]
    # Stage 1: Ineos 300 wins the day, UAE 301. Stage 2: UAE 299 wins the day, Ineos 300
    # but Ineos's rider 7 is first on the line (98 s). 600 each, one daily win each:
    # Ineos's best rider in the last stage puts it first.
    stages = [
        _team_stage(1, {INEOS: [100, 100, 100], UAE: [100, 100, 101]}),
        _team_stage(2, {UAE: [99, 100, 100], INEOS: [98, 101, 101]}),
    ]
    assert table(teams(stages)) == [(INEOS, 600, 0), (UAE, 600, 0)]


def _stage_in_order(number, riders_and_times):
    """Ranks follow the list order; UAE rides 1-3, Jumbo 4-6, Ineos 7-9."""
    team = {1: UAE, 2: UAE, 3: UAE, 4: JUMBO, 5: JUMBO, 6: JUMBO, 7: INEOS, 8: INEOS, 9: INEOS}
    return stage(
        number,
        [res(r, rank, t, team[r]) for rank, (r, t) in enumerate(riders_and_times, start=1)],
    )


# Stage 2 of both cases below: Ineos wins the day (270 s); UAE and Jumbo ride 300 s each and
# UAE's rider 1 (4th) beats Jumbo's best (5th). So if UAE and Jumbo had the same number of
# daily wins, UAE would come first.
_INEOS_DAY = [(7, 90), (8, 90), (9, 90), (1, 99), (4, 100), (5, 100), (6, 100), (2, 100), (3, 101)]


def test_daily_team_tie_on_time_goes_to_the_sum_of_places():
    # Stage 1: Jumbo 99 + 100 + 101 = 300 with places 1 + 2 + 6 = 9;
    # UAE 100 + 100 + 100 = 300 with places 3 + 4 + 5 = 12: Jumbo wins the day. Ineos 333.
    day_1 = [
        (4, 99),
        (5, 100),
        (1, 100),
        (2, 100),
        (3, 100),
        (6, 101),
        (7, 111),
        (8, 111),
        (9, 111),
    ]
    stages = [_stage_in_order(1, day_1), _stage_in_order(2, _INEOS_DAY)]
    # Jumbo 600 (one daily win), UAE 600 (none), Ineos 333 + 270 = 603.
    assert table(teams(stages)) == [(JUMBO, 600, 0), (UAE, 600, 0), (INEOS, 603, 3)]


def test_daily_team_tie_on_time_and_places_goes_to_the_best_rider():
    # Stage 1: Jumbo 98 + 100 + 102 = 300, places 1 + 5 + 7 = 13;
    # UAE 100 + 100 + 100 = 300, places 3 + 4 + 6 = 13. Jumbo's best is 1st: Jumbo wins the day.
    day_1 = [(4, 98), (7, 99), (1, 100), (2, 100), (5, 100), (3, 100), (6, 102), (8, 120), (9, 120)]
    stages = [_stage_in_order(1, day_1), _stage_in_order(2, _INEOS_DAY)]
    # Jumbo 600 (one daily win), UAE 600 (none), Ineos 99 + 120 + 120 + 270 = 609.
    assert table(teams(stages)) == [(JUMBO, 600, 0), (UAE, 600, 0), (INEOS, 609, 9)]


# --- jerseys and the bundle ---------------------------------------------------------------


def test_jersey_holders_are_the_leaders_and_a_team_for_teams():
    standings = {
        "general": [
            StandingLine(rank=2, rider_id=8, team_id=UAE, value=110, gap=10),
            StandingLine(rank=1, rider_id=7, team_id=UAE, value=100, gap=0),
        ],
        "teams": [StandingLine(rank=1, rider_id=None, team_id=JUMBO, value=300, gap=0)],
        "mountains": [],
    }
    assert jersey_holders(standings) == {"general": 7, "teams": JUMBO, "mountains": None}


def test_all_classifications_match_the_single_functions():
    stages = [
        stage(
            1,
            [res(1, 1, 100), res(2, 2, 100), res(3, 3, 105), res(4, 4, 120, team=JUMBO)],
            "mountain",
            climbs=[climb("col1", 3, 1)],
            sprints=[(2, 1)],
        ),
    ]
    birth_dates = {1: date(2000, 1, 1), 3: date(2001, 6, 1)}
    standings = all_classifications(stages, birth_dates=birth_dates, season_year=2024)
    assert list(standings) == ["general", "points", "mountains", "youth", "teams"]
    assert standings["general"] == general(stages)
    assert standings["points"] == points(stages)
    assert standings["mountains"] == mountains(stages)
    assert standings["youth"] == youth(stages, birth_dates=birth_dates, season_year=2024)
    assert standings["teams"] == teams(stages)
    assert jersey_holders(standings) == {
        "general": 1,
        # riders 1 and 2 both on 37 (20 + 17, 17 + 20): rider 1 won the stage
        "points": 1,
        "mountains": 3,
        "youth": 1,
        "teams": UAE,
    }


# --- validation ---------------------------------------------------------------------------


def test_bad_input_names_the_stage_and_rider_at_fault():
    ok = [res(1, 1, 100), res(2, 2, 100)]
    cases = [
        ([stage(1, ok), stage(1, ok)], "stage 1 is given twice"),
        ([stage(1, ok, "prologue")], "stage 1: unknown stage type 'prologue'"),
        ([stage(1, [res(1, 1, 100), res(1, 2, 100)])], "stage 1: rider 1 appears twice"),
        ([stage(1, [res(1, 1, 100), res(2, 1, 100)])], "rank 1 is already taken by rider 1"),
        ([stage(1, [res(1, 1, None)])], "stage 1: rider 1 is finished but has no rank or no time"),
        ([stage(1, [res(1, 1, 100, status="lost")])], "rider 1: unknown status 'lost'"),
        ([stage(1, [res(1, 1, -5)])], "rider 1: time -5 s is negative"),
        ([stage(1, ok, climbs=[climb("col4", 1)])], "stage 1: unknown climb 'col4'"),
        (
            [stage(1, ok, climbs=[climb("col2", 9)])],
            "stage 1, col2 climb: rider 9 crossed but has no result in the stage",
        ),
        (
            [stage(1, ok, sprints=[(2, 2)])],
            "stage 1, intermediate sprint 1: rider 2 crossed twice",
        ),
    ]
    for stages, message in cases:
        with pytest.raises(ValueError, match=message):
            general(stages)


# --- properties ---------------------------------------------------------------------------

_STATUS_DRAW = ["finished"] * 8 + ["abandoned", "crashed_out", "otl", "dnf", "dns", "dsq"]


@st.composite
def races(draw):
    """A few stages of a race whose riders leave it for good, with climbs and sprints."""
    n_riders = draw(st.integers(min_value=3, max_value=14))
    riders = list(range(1, n_riders + 1))
    team_of = {r: draw(st.sampled_from([UAE, JUMBO, INEOS])) for r in riders}
    out_of_race: set[int] = set()
    stages = []
    for number in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        starters = [r for r in riders if r not in out_of_race]
        status = {r: draw(st.sampled_from(_STATUS_DRAW)) for r in starters}
        ranked = [r for r in starters if status[r] in STAGE_FINISHERS or status[r] == "otl"]
        order = draw(st.permutations(ranked))
        time = draw(st.integers(1_000, 20_000))
        results = []
        for rank, rider in enumerate(order, start=1):
            time += draw(st.integers(0, 120))
            results.append(
                res(
                    rider,
                    rank,
                    time,
                    team_of[rider],
                    bonus=draw(st.sampled_from([0, 0, 4, 6, 10])),
                    penalty=draw(st.sampled_from([0, 0, 20])),
                    status=status[rider],
                )
            )
        results += [out(r, status[r], team_of[r]) for r in starters if r not in ranked]
        if draw(st.booleans()):
            results += [out(r, "dns", team_of[r]) for r in riders if r in out_of_race]
        in_stage = [r.rider_id for r in results]
        climbs = [
            climb(terrain, *draw(st.permutations(in_stage))[:k], summit_finish=summit)
            for terrain, k, summit in draw(
                st.lists(
                    st.tuples(st.sampled_from(CLIMB_TERRAINS), st.integers(0, 10), st.booleans()),
                    max_size=4,
                )
            )
        ]
        sprints = [
            draw(st.permutations(in_stage))[:k]
            for k in draw(st.lists(st.integers(0, 16), max_size=2))
        ]
        stage_type = draw(st.sampled_from(STAGE_TYPES))
        stages.append(stage(number, draw(st.permutations(results)), stage_type, climbs, sprints))
        out_of_race |= {r for r in starters if status[r] != "finished"}
    birth_dates = {
        r: draw(st.one_of(st.none(), st.dates(date(1990, 1, 1), date(2006, 12, 31))))
        for r in riders
    }
    return stages, birth_dates


@given(race=races())
def test_every_classification_is_ranked_one_to_n_with_growing_gaps(race):
    stages, birth_dates = race
    standings = all_classifications(stages, birth_dates=birth_dates, season_year=2024)
    still_in = {r.rider_id for r in stages[0].results if r.status == "finished"}
    for s in stages[1:]:
        still_in &= {r.rider_id for r in s.results if r.status == "finished"}
    for name, lines in standings.items():
        assert [x.rank for x in lines] == list(range(1, len(lines) + 1)), name
        gaps = [x.gap for x in lines]
        assert all(g >= 0 for g in gaps), name
        assert gaps == sorted(gaps), name
        if lines:
            assert gaps[0] == 0, name
        if name == "teams":
            assert all(x.rider_id is None for x in lines)
            assert len({x.team_id for x in lines}) == len(lines)
        else:
            ids = [x.rider_id for x in lines]
            assert len(set(ids)) == len(ids), name
            assert set(ids) <= still_in, name
    gc = standings["general"]
    assert {x.rider_id for x in gc} == still_in
    if gc:
        assert gc[0].value == min(x.value for x in gc)
    young = {x.rider_id for x in standings["youth"]}
    assert [x.rider_id for x in gc if x.rider_id in young] == [
        x.rider_id for x in standings["youth"]
    ]
    assert all(x.value > 0 for x in standings["points"] + standings["mountains"])
    holders = jersey_holders(standings)
    assert holders["general"] == (gc[0].rider_id if gc else None)
