"""Stage times: the edges of the rules that mutation testing found unguarded (issue 12).

Each test states one rule of docs/classifications.md ("Stage times") or docs/rules-choices.md
(the season's timing settings: gap scale, time cut, bonuses) at its boundary, with the
expected figures worked out by hand in the comments. No database.
"""

import re

import pytest

from races.timing import (
    REFERENCE_SPEED_KMH,
    EngineLine,
    TimingRules,
    stage_times,
    winner_time_seconds,
)

KNOWN_TYPES = "known: flat, hilly, mountain, ITT, TTT"


def line(rider_id, rank, gap, group=0, status="finished"):
    return EngineLine(
        rider_id=rider_id, rank=rank, gap_seconds=gap, final_group=group, status=status
    )


def raises_exactly(message):
    """The whole message, not a part of it: a message is the user's only clue."""
    return pytest.raises(ValueError, match=f"^{re.escape(message)}$")


def rules(**settings):
    # The time cut alone (one rider out of two or three is more than the jury's share).
    return TimingRules(
        reference_speed_kmh=REFERENCE_SPEED_KMH, **({"time_cut_max_out_pct": 100.0} | settings)
    )


# --- the settings: what is accepted, what is refused and how it is said -------------------


def test_an_unknown_stage_type_in_a_setting_lists_the_known_ones():
    with raises_exactly(f"reference_speed_kmh: unknown stage type 'gravel' ({KNOWN_TYPES})"):
        TimingRules(reference_speed_kmh={"gravel": 30})


def test_any_speed_above_zero_is_a_speed():
    # 3600 s * 1 km / 0.5 km/h = 7200 s: slow, but a speed.
    slow = TimingRules(reference_speed_kmh={"flat": 0.5})
    assert winner_time_seconds(distance_km=1, stage_type="flat", rules=slow) == 7_200


def test_a_gap_scale_of_zero_is_refused_with_its_stage_type():
    with raises_exactly("gap scale for hilly must be > 0, got 0"):
        rules(gap_scale={"hilly": 0})


def test_a_time_cut_of_zero_percent_is_allowed_and_puts_out_anyone_behind_the_winner():
    # 0 % of the winner's time: a gap of 1 s is already beyond the limit (1·100 > 0).
    strict = rules(time_cut_pct={"flat": 0.0})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 1, group=1)],
        stage_type="flat",
        distance_km=176,
        rules=strict,
    )
    assert [t.status for t in timed] == ["finished", "otl"]
    assert timed[1].status_reason == "outside the time limit (+0:01 > 0 % of 4:00:00)"


def test_a_time_cut_under_one_percent_is_allowed():
    # 0.5 % of 4:00:00 (14400 s) is 72 s: 72 s is inside, 73 s is out.
    tight = rules(time_cut_pct={"flat": 0.5})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 72, group=1), line(3, 3, 73, group=2)],
        stage_type="flat",
        distance_km=176,
        rules=tight,
    )
    assert [t.status for t in timed] == ["finished", "finished", "otl"]


def test_a_negative_time_cut_is_refused_with_its_stage_type():
    with raises_exactly("time cut for mountain must be >= 0 %, got -1.0"):
        rules(time_cut_pct={"mountain": -1.0})


def test_a_bonus_of_zero_seconds_is_allowed():
    # Bonuses 10, 0, 4 at the finish and 0 at the sprint: the second rider gets nothing.
    zero = rules(finish_bonuses=(10, 0, 4), intermediate_sprint_bonuses=(0,))
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 0), line(3, 3, 0)],
        stage_type="flat",
        distance_km=176,
        rules=zero,
        intermediate_sprints=[(2,)],
    )
    assert [t.bonus_seconds for t in timed] == [10, 0, 4]


# --- the winner's time ----------------------------------------------------------------------


def test_an_unknown_stage_type_lists_the_known_ones():
    with raises_exactly(f"unknown stage type 'cobbles' ({KNOWN_TYPES})"):
        winner_time_seconds(distance_km=100, stage_type="cobbles", rules=rules())


def test_a_stage_of_zero_km_is_refused():
    with raises_exactly("the stage distance must be > 0 km, got 0"):
        winner_time_seconds(distance_km=0, stage_type="ITT", rules=rules())


def test_a_stage_shorter_than_a_kilometre_has_a_time():
    # A 0.8 km prologue at the ITT speed: 3600 · 0.8 / 48 = 60 s.
    assert winner_time_seconds(distance_km=0.8, stage_type="ITT", rules=rules()) == 60


# --- the engine's lines -------------------------------------------------------------------


def test_an_unknown_status_lists_the_statuses_the_engine_gives():
    with raises_exactly("rider 2: unknown status 'dns' (known: finished, abandoned, crashed_out)"):
        stage_times(
            lines=[line(1, 1, 0), line(2, 2, 0, status="dns")],
            stage_type="flat",
            distance_km=176,
            rules=rules(),
        )


def test_a_time_cut_missing_for_the_stage_type_is_an_error():
    # The league's table has a cut for flat stages only, and the time cut is on.
    flat_only = rules(time_cut_pct={"flat": 15.0})
    with raises_exactly("no time cut percentage for ITT stages"):
        stage_times(lines=[line(1, 1, 0)], stage_type="ITT", distance_km=24, rules=flat_only)


# --- the gap scale (docs/rules-choices.md, "Gap scale") -----------------------------------


def test_gaps_are_multiplied_by_the_gap_scale_of_the_stage_type():
    # Mountain gaps x 3 (the Moréno seasons' default): 7 s -> 21 s, 20 s -> 60 s.
    # Without same time, to see each rider's own gap.
    scaled = rules(gap_scale={"mountain": 3.0}, same_group_same_time=False)
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 7), line(3, 3, 20)],
        stage_type="mountain",
        distance_km=148,
        rules=scaled,
    )
    assert [t.gap_seconds for t in timed] == [0, 21, 60]
    # 148 km at 37 km/h = 14400 s; the times carry the scaled gaps.
    assert [t.time_seconds for t in timed] == [14_400, 14_421, 14_460]


def test_a_scaled_gap_is_rounded_half_up():
    # Cyclo Sim time trials x 0.75: 6 s -> 4.5 s -> 5 s; 10 s -> 7.5 s -> 8 s; 2 s -> 1.5 -> 2.
    scaled = rules(gap_scale={"ITT": 0.75})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 2), line(3, 3, 6), line(4, 4, 10)],
        stage_type="ITT",
        distance_km=24,
        rules=scaled,
    )
    assert [t.gap_seconds for t in timed] == [0, 2, 5, 8]


def test_a_stage_type_missing_from_the_gap_scale_keeps_the_engine_gaps():
    # The scale names hilly stages only: a time trial's gaps are not scaled at all.
    hilly_only = rules(gap_scale={"hilly": 1.5})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 9), line(3, 3, 30)],
        stage_type="ITT",
        distance_km=24,
        rules=hilly_only,
    )
    assert [t.gap_seconds for t in timed] == [0, 9, 30]


def test_the_time_cut_is_measured_on_the_scaled_gap():
    # Hilly x 1.5, 164 km at 41 km/h = 14400 s, cut 20 % = 2880 s.
    # Engine gap 1920 s -> 2880 s: exactly at the limit, inside; 1921 s -> 2881.5 -> 2882: out.
    scaled = rules(gap_scale={"hilly": 1.5})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 1920, group=1), line(3, 3, 1921, group=2)],
        stage_type="hilly",
        distance_km=164,
        rules=scaled,
    )
    assert [(t.gap_seconds, t.status) for t in timed] == [
        (0, "finished"),
        (2880, "finished"),
        (2882, "otl"),
    ]


def test_a_time_trial_rider_one_second_slower_is_never_given_the_same_time():
    # x 0.25: the engine's 1 s becomes 0.25 s, rounded to 0: "s.t." with the winner, though
    # the engine timed him slower. He is one second behind instead.
    scaled = rules(gap_scale={"ITT": 0.25})
    timed = stage_times(
        lines=[line(1, 1, 0), line(2, 2, 1)], stage_type="ITT", distance_km=24, rules=scaled
    )
    assert [t.gap_seconds for t in timed] == [0, 1]


@pytest.mark.parametrize("knee", [1.5, True, -1])
def test_the_gap_scale_knee_is_a_whole_number_of_seconds_from_zero(knee):
    with raises_exactly(f"gap_scale_after_s must be a whole number of seconds >= 0, got {knee!r}"):
        rules(gap_scale_after_s=knee)
