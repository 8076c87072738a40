"""Time trials: each rider his own time, "s.t." only for true ties (issue 16)."""

from races.timing import REFERENCE_SPEED_KMH, EngineLine, TimingRules, stage_times


def gaps(stage_type, engine_gaps, scale):
    rules = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, gap_scale=scale)
    lines = [EngineLine(i + 1, i + 1, g, i, "finished") for i, g in enumerate(engine_gaps)]
    timed = stage_times(lines=lines, stage_type=stage_type, distance_km=24, rules=rules)
    return [t.gap_seconds for t in timed]


def test_a_slower_rider_is_never_given_the_time_of_the_one_ahead_by_the_rounding():
    # x 0.75: 6 -> 4.5 -> 5 and 7 -> 5.25 -> 5 would be "s.t."; the second is 6 s instead.
    # 9 and 9 are a true tie and keep one time; 10 -> 7.5 -> 8.
    assert gaps("ITT", [0, 6, 7, 9, 9, 10], {"ITT": 0.75}) == [0, 5, 6, 7, 7, 8]


def test_a_team_time_trial_keeps_its_team_times():
    assert gaps("TTT", [0, 0, 0, 40, 40, 41], {"TTT": 0.75}) == [0, 0, 0, 30, 30, 31]


def test_road_stages_keep_the_same_time_of_their_groups():
    # Two riders of one group at the line: one time (same_group_same_time), not +1 s.
    rules = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, gap_scale={"flat": 0.75})
    lines = [EngineLine(1, 1, 0, 0, "finished"), EngineLine(2, 2, 4, 0, "finished")]
    timed = stage_times(lines=lines, stage_type="flat", distance_km=150, rules=rules)
    assert [t.gap_seconds for t in timed] == [0, 0]
