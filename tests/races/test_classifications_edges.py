"""Classifications: the rules that mutation testing found unguarded (issue 12).

Each test states one rule of docs/classifications.md with a race small enough to work out by
hand; the arithmetic is in the comments. Ties are built so that only the rule under test can
separate the riders: counting a second stage win, sprint win, HC first place or daily team
win must matter, not only the first. No database.
"""

import re

import pytest

from races.classifications import (
    ClimbRecord,
    ResultRecord,
    StageRecord,
    general,
    mountains,
    points,
    teams,
)

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


# --- who is still in the race ---------------------------------------------------------------


def test_a_rider_missing_from_a_middle_stage_is_out_for_good():
    # Rider 2 has no line in stage 2 and finishes stage 3: "a rider missing from a stage
    # counts as not finished", in whichever stage it is.
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100)]),
        stage(2, [res(1, 1, 100)]),
        stage(3, [res(1, 1, 100), res(2, 2, 100)]),
    ]
    assert table(general(stages)) == [(1, 300, 0)]


def test_a_rider_missing_from_the_first_stage_is_out():
    stages = [
        stage(1, [res(1, 1, 100)]),
        stage(2, [res(2, 1, 90), res(1, 2, 100)]),
    ]
    assert table(general(stages)) == [(1, 200, 0)]


# --- points -----------------------------------------------------------------------------------


def test_a_non_finisher_listed_first_takes_no_points_from_the_others():
    # The dns line comes first in the stage: the finishers behind it still score 50, 30.
    stages = [stage(1, [out(9), res(1, 1, 100), res(2, 2, 100)])]
    assert table(points(stages)) == [(1, 50, 0), (2, 30, 20)]


def test_two_stage_wins_beat_one_when_points_are_level():
    # Rider 1 wins stage 1 (flat, 50) and the TTT (a stage win, no points), 2nd in stage 3
    # (30): 80 points, 2 stage wins. Rider 2: 2nd (30), 2nd, then wins stage 3 (50): 80, 1 win.
    # Rider 2 is better on GC (21801 s against 21900 s): only the count of wins puts rider 1
    # first. Rider 3, third everywhere: 20 + 20 = 40.
    stages = [
        stage(1, [res(1, 1, 10_000), res(2, 2, 10_000), res(3, 3, 10_000)]),
        stage(2, [res(1, 1, 1_800), res(2, 2, 1_801), res(3, 3, 1_802)], "TTT"),
        stage(3, [res(2, 1, 10_000), res(1, 2, 10_100), res(3, 3, 10_100)]),
    ]
    assert [(x.rider_id, x.value) for x in general(stages)] == [
        (2, 21_801),
        (1, 21_900),
        (3, 21_902),
    ]
    assert table(points(stages)) == [(1, 80, 0), (2, 80, 0), (3, 40, 40)]


def test_two_sprint_wins_beat_one_when_points_and_stage_wins_are_level():
    # A hilly stage (30 25 22 19) with three sprints (20 17):
    # rider 1: 4th (19) + sprints 20 + 17 + 20 = 76, two sprint wins;
    # rider 2: 3rd (22) + sprints 17 + 20 + 17 = 76, one sprint win, better on GC (3rd).
    # Riders 3 and 4 win the stage and are 2nd: 30 and 25.
    results = [res(3, 1, 100), res(4, 2, 100), res(2, 3, 100), res(1, 4, 100)]
    stages = [stage(1, results, "hilly", sprints=[(1, 2), (2, 1), (1, 2)])]
    assert table(points(stages)) == [(1, 76, 0), (2, 76, 0), (3, 30, 46), (4, 25, 51)]


def test_a_points_line_carries_the_riders_team_of_his_latest_stage():
    # Rider 1 moves from UAE to Jumbo (a league transfer between stages).
    stages = [
        stage(1, [res(1, 1, 100), res(2, 2, 100, team=INEOS)], climbs=[climb("col3", 2)]),
        stage(2, [res(1, 1, 100, team=JUMBO), res(2, 2, 100, team=INEOS)]),
    ]
    assert [(x.rider_id, x.team_id) for x in points(stages)] == [(1, JUMBO), (2, INEOS)]
    assert [(x.rider_id, x.team_id) for x in mountains(stages)] == [(2, INEOS)]


# --- mountains --------------------------------------------------------------------------------


def test_two_hc_first_places_beat_one_when_mountain_points_are_level():
    # Rider 1: first over two HC climbs, 20 + 20 = 40. Rider 2: first over one HC and two
    # cat 1 climbs, 20 + 10 + 10 = 40. HC first places decide: 2 against 1, before cat 1.
    climbs = [
        climb("colhc", 1),
        climb("colhc", 1),
        climb("colhc", 2),
        climb("col1", 2),
        climb("col1", 2),
    ]
    # Rider 2 wins the stage: he is ahead on GC, which must not matter.
    results = [res(2, 1, 100), res(1, 2, 100)]
    assert table(mountains([stage(1, results, "mountain", climbs)])) == [(1, 40, 0), (2, 40, 0)]


# --- teams ------------------------------------------------------------------------------------


def test_two_daily_wins_beat_one_when_team_times_are_level():
    # UAE (riders 1-3) wins stages 1 and 2 by 10 s (3000 against 3010); Jumbo (riders 4-6)
    # wins stage 3 by 20 s (3000 against 3020). Both on 9020 s. Jumbo has the best rider of
    # the last stage, which must not matter: UAE has two daily wins, Jumbo one.
    def day(number, uae_times, jumbo_times, jumbo_first):
        uae = [(r, t, UAE) for r, t in zip((1, 2, 3), uae_times, strict=True)]
        jumbo = [(r, t, JUMBO) for r, t in zip((4, 5, 6), jumbo_times, strict=True)]
        order = jumbo + uae if jumbo_first else uae + jumbo
        return stage(number, [res(r, rank, t, team) for rank, (r, t, team) in enumerate(order, 1)])

    stages = [
        day(1, (1000, 1000, 1000), (1000, 1000, 1010), jumbo_first=False),
        day(2, (1000, 1000, 1000), (1000, 1000, 1010), jumbo_first=False),
        day(3, (1000, 1010, 1010), (1000, 1000, 1000), jumbo_first=True),
    ]
    assert table(teams(stages)) == [(UAE, 9020, 0), (JUMBO, 9020, 0)]


# --- bad input: the whole message, with what would have been accepted -----------------------


def raises_exactly(message):
    return pytest.raises(ValueError, match=f"^{re.escape(message)}$")


OK = [res(1, 1, 100), res(2, 2, 100)]


def test_an_unknown_stage_type_lists_the_known_ones():
    with raises_exactly(
        "stage 1: unknown stage type 'prologue' (known: flat, hilly, mountain, ITT, TTT)"
    ):
        general([stage(1, OK, "prologue")])


def test_an_unknown_status_lists_the_known_ones():
    with raises_exactly(
        "stage 1: rider 1: unknown status 'lost' "
        "(known: finished, abandoned, crashed_out, otl, dnf, dns, dsq)"
    ):
        general([stage(1, [res(1, 1, 100, status="lost")])])


def test_an_unknown_climb_lists_the_known_categories():
    with raises_exactly("stage 1: unknown climb 'col4' (known: colhc, col1, col2, col3, hill)"):
        general([stage(1, OK, climbs=[climb("col4", 1)])])


def test_a_rank_below_one_is_refused():
    with raises_exactly("stage 1: rider 1: rank 0 must be >= 1"):
        general([stage(1, [res(1, 0, 100)])])


@pytest.mark.parametrize(("bonus", "penalty"), [(-10, 0), (0, -20)])
def test_a_negative_bonus_or_a_negative_penalty_alone_is_refused(bonus, penalty):
    with raises_exactly("stage 2: rider 2: bonus and penalty must be >= 0 seconds"):
        general(
            [stage(1, OK), stage(2, [res(1, 1, 100), res(2, 2, 100, bonus=bonus, penalty=penalty)])]
        )


def test_a_time_of_zero_seconds_is_not_negative():
    # Only a negative time is refused: 0 s is a time (a neutralised stage, say).
    assert table(general([stage(1, [res(1, 1, 0), res(2, 2, 0)])])) == [(1, 0, 0), (2, 0, 0)]
