"""Stage times from engine gaps (moreno.md §3.9 R-F4, §3.12, §4). No database."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from races.timing import (
    DEFAULT_TIME_CUT_MAX_OUT_PCT,
    DEFAULT_TIME_CUT_PCT,
    REFERENCE_SPEED_KMH,
    STAGE_TYPES,
    EngineLine,
    TimedLine,
    TimingRules,
    clock,
    stage_times,
    winner_time_seconds,
)

# The time cut alone: these fields are a few riders, where one rider out is more than the
# jury's 20 % (its rule has tests of its own below).
RULES = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, time_cut_max_out_pct=100.0)
# 176 km at 44 km/h: the flat-stage winner rides exactly 4:00:00 = 14400 s.
FLAT_KM = 176
FLAT_WINNER = 14_400


def line(rider_id, rank, gap, group=0, status="finished", reinstated=False):
    return EngineLine(
        rider_id=rider_id,
        rank=rank,
        gap_seconds=gap,
        final_group=group,
        status=status,
        reinstated=reinstated,
    )


def flat(lines, rules=RULES, **kwargs):
    return stage_times(lines=lines, stage_type="flat", distance_km=FLAT_KM, rules=rules, **kwargs)


def by_rider(timed):
    return {t.rider_id: t for t in timed}


# --- winner's time ------------------------------------------------------------------------


def test_winner_time_is_the_distance_at_the_reference_speed():
    assert winner_time_seconds(distance_km=176, stage_type="flat", rules=RULES) == 14_400
    # 3600 * 150 / 37 = 14594.59 s
    assert winner_time_seconds(distance_km=150, stage_type="mountain", rules=RULES) == 14_595
    # 3600 * 24 / 48 = 1800 s
    assert winner_time_seconds(distance_km=24, stage_type="ITT", rules=RULES) == 1_800


def test_half_a_second_rounds_up():
    # 3600 * 2.5 / 3600 = 2.5 s exactly: half up gives 3 (round() would give 2).
    rules = TimingRules(reference_speed_kmh={"flat": 3600.0})
    assert winner_time_seconds(distance_km=2.5, stage_type="flat", rules=rules) == 3


def test_unknown_stage_type_or_missing_speed_is_an_error():
    with pytest.raises(ValueError, match="unknown stage type 'cobbles'"):
        winner_time_seconds(distance_km=100, stage_type="cobbles", rules=RULES)
    with pytest.raises(ValueError, match="no reference speed for TTT"):
        winner_time_seconds(
            distance_km=30, stage_type="TTT", rules=TimingRules(reference_speed_kmh={"ITT": 48})
        )


def test_rules_reject_unknown_stage_types_and_bad_numbers():
    with pytest.raises(ValueError, match="unknown stage type 'gravel'"):
        TimingRules(reference_speed_kmh={"gravel": 30})
    with pytest.raises(ValueError, match="must be > 0"):
        TimingRules(reference_speed_kmh={"flat": 0})
    with pytest.raises(ValueError, match="finish_bonuses must be >= 0"):
        TimingRules(reference_speed_kmh={"flat": 44}, finish_bonuses=(10, -6))


def test_rules_keep_their_own_copy_of_the_tables():
    speeds = {"flat": 44.0}
    rules = TimingRules(reference_speed_kmh=speeds)
    speeds["flat"] = 10.0
    assert rules.reference_speed_kmh["flat"] == 44.0
    with pytest.raises(TypeError):
        rules.reference_speed_kmh["flat"] = 1.0  # type: ignore[index]


# --- same time ----------------------------------------------------------------------------


def test_same_group_gets_the_time_of_its_first_rider():
    lines = [
        line(1, 1, 0, group=0),
        line(2, 2, 2, group=0),
        line(3, 3, 6, group=0),
        line(4, 4, 20, group=1),
        line(5, 5, 26, group=1),
    ]
    timed = flat(lines)
    # group 0 -> gap of rider 1 (0 s), group 1 -> gap of rider 4 (20 s)
    assert [t.gap_seconds for t in timed] == [0, 0, 0, 20, 20]
    assert [t.time_seconds for t in timed] == [14_400, 14_400, 14_400, 14_420, 14_420]


def test_same_time_off_keeps_the_engine_gaps():
    rules = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, same_group_same_time=False)
    timed = flat([line(1, 1, 0), line(2, 2, 2), line(3, 3, 6)], rules=rules)
    assert [t.gap_seconds for t in timed] == [0, 2, 6]


def test_time_trials_keep_individual_gaps_whatever_the_groups():
    lines = [line(1, 1, 0), line(2, 2, 9), line(3, 3, 30)]
    for stage_type in ("ITT", "TTT"):
        timed = stage_times(lines=lines, stage_type=stage_type, distance_km=24, rules=RULES)
        assert [t.gap_seconds for t in timed] == [0, 9, 30]


def test_a_rider_never_gets_less_time_than_one_ranked_ahead_of_him():
    # R-TT3 measures gaps after the winner's turn: rider 3, ranked third, can show 24 s < 30 s.
    lines = [line(1, 1, 0, group=0), line(2, 2, 30, group=1), line(3, 3, 24, group=2)]
    timed = stage_times(lines=lines, stage_type="ITT", distance_km=24, rules=RULES)
    assert [t.gap_seconds for t in timed] == [0, 30, 30]


def test_lines_come_back_in_rank_order_whatever_the_input_order():
    timed = flat([line(3, 3, 8, group=1), line(1, 1, 0), line(2, 2, 0)])
    assert [(t.rank, t.rider_id) for t in timed] == [(1, 1), (2, 2), (3, 3)]


# --- bonuses ------------------------------------------------------------------------------


def test_finish_bonuses_go_to_the_first_three_on_road_stages_only():
    lines = [line(1, 1, 0), line(2, 2, 0), line(3, 3, 0), line(4, 4, 0)]
    assert [t.bonus_seconds for t in flat(lines)] == [10, 6, 4, 0]
    itt = stage_times(lines=lines, stage_type="ITT", distance_km=24, rules=RULES)
    assert [t.bonus_seconds for t in itt] == [0, 0, 0, 0]


def test_intermediate_sprint_bonuses_go_by_crossing_order():
    lines = [line(1, 1, 0), line(2, 2, 0), line(3, 3, 0), line(4, 4, 0), line(5, 5, 0)]
    timed = by_rider(flat(lines, intermediate_sprints=[(5, 2, 1, 3), (5, 4)]))
    # rider 1: 10 (finish) + 1 (3rd at sprint 1) = 11
    # rider 2: 6 + 2 = 8; rider 3: 4 + 0 (4th) = 4; rider 4: 2 (2nd at sprint 2)
    # rider 5: 3 + 3 (first at both sprints) = 6
    assert {r: t.bonus_seconds for r, t in timed.items()} == {1: 11, 2: 8, 3: 4, 4: 2, 5: 6}


def test_bonuses_are_reported_not_taken_off_the_stage_time():
    timed = flat([line(1, 1, 0), line(2, 2, 0)])
    assert timed[0] == TimedLine(
        rider_id=1,
        rank=1,
        time_seconds=FLAT_WINNER,
        gap_seconds=0,
        bonus_seconds=10,
        status="finished",
        status_reason="",
    )


def test_a_sprint_crossed_by_a_stranger_is_an_error():
    with pytest.raises(ValueError, match="rider 99 crossed sprint 1 but is not in the stage"):
        flat([line(1, 1, 0)], intermediate_sprints=[(99,)])
    with pytest.raises(ValueError, match="rider 1 crossed sprint 2 twice"):
        flat([line(1, 1, 0)], intermediate_sprints=[(1,), (1, 1)])


# --- time cut -----------------------------------------------------------------------------


def test_rider_beyond_the_time_cut_is_outside_the_time_limit():
    # Flat cut: 15 % of 4:00:00 = 2160 s = 36:00. Exactly 36:00 is inside, 36:01 is out.
    timed = by_rider(flat([line(1, 1, 0), line(2, 2, 2160, group=1), line(3, 3, 2161, group=2)]))
    assert timed[2].status == "finished"
    assert timed[2].status_reason == ""
    assert timed[3].status == "otl"
    assert timed[3].status_reason == "outside the time limit (+36:01 > 15 % of 4:00:00)"
    assert timed[3].time_seconds == FLAT_WINNER + 2161


def test_the_time_cut_uses_the_gap_after_the_same_time_rule():
    # Rider 3's own gap (2200 s) is beyond the cut, but his group's first rider is at 2000 s.
    timed = flat([line(1, 1, 0), line(2, 2, 2000, group=1), line(3, 3, 2200, group=1)])
    assert [t.status for t in timed] == ["finished", "finished", "finished"]


def test_reinstated_rider_stays_in_the_race_with_the_reason():
    timed = flat([line(1, 1, 0), line(2, 2, 2161, group=1, reinstated=True)])
    assert timed[1].status == "finished"
    assert timed[1].status_reason == (
        "reinstated by the organiser (outside the time limit: +36:01 > 15 % of 4:00:00)"
    )


def test_abandoned_and_crashed_out_riders_keep_their_status_beyond_the_cut():
    lines = [
        line(1, 1, 0),
        line(2, 2, 5000, group=1, status="abandoned"),
        line(3, 3, 5000, group=1, status="crashed_out"),
    ]
    assert [t.status for t in flat(lines)] == ["finished", "abandoned", "crashed_out"]


def test_no_time_cut_when_it_is_off():
    rules = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, time_cut_enabled=False)
    timed = flat([line(1, 1, 0), line(2, 2, 9000, group=1)], rules=rules)
    assert timed[1].status == "finished"


def _flat_field(finishers, outside):
    """A flat stage of ``finishers`` riders in one group and ``outside`` riders 40 minutes
    down (beyond the 15 % cut of 4:00:00)."""
    lines = [line(r, r, 0) for r in range(1, finishers + 1)]
    lines += [line(r, r, 2400, group=1) for r in range(finishers + 1, finishers + outside + 1)]
    return lines


def test_the_cut_eliminates_riders_while_they_are_at_most_a_fifth_of_the_starters():
    jury = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH)
    timed = flat(_flat_field(16, 4), rules=jury)  # 4 of 20 = 20 %
    assert [t.status for t in timed].count("otl") == 4


def test_the_jury_extends_the_limit_when_more_than_a_fifth_of_the_starters_are_outside_it():
    jury = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH)
    timed = flat(_flat_field(15, 5), rules=jury)  # 5 of 20 = 25 %
    assert {t.status for t in timed} == {"finished"}
    assert timed[-1].time_seconds == FLAT_WINNER + 2400
    assert timed[-1].status_reason == (
        "kept by the jury (outside the time limit: +40:00 > 15 % of 4:00:00; "
        "5 of 20 riders, more than 20 %)"
    )
    assert timed[0].status_reason == ""


def test_the_jurys_share_scales_with_the_field():
    # The same 5 riders 40 minutes down: kept in a field of 20, out in a Grand Tour field.
    jury = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH)
    assert {t.status for t in flat(_flat_field(171, 5), rules=jury)} == {"finished", "otl"}


def test_riders_the_organiser_reinstated_do_not_count_towards_the_jurys_share():
    jury = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH)
    lines = _flat_field(15, 5)
    lines[-1] = line(20, 20, 2400, group=1, reinstated=True)  # 4 of 20 left: 20 %
    timed = flat(lines, rules=jury)
    assert [t.status for t in timed].count("otl") == 4
    assert timed[-1].status_reason.startswith("reinstated by the organiser")


def test_the_jurys_share_must_be_a_percentage():
    with pytest.raises(ValueError, match="time_cut_max_out_pct must be 0 to 100 %, got 120"):
        TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, time_cut_max_out_pct=120)


def test_the_cut_depends_on_the_stage_type():
    # Mountain, 148 km at 37 km/h = 4:00:00; 30 % = 4320 s. 2161 s is fine here.
    lines = [line(1, 1, 0), line(2, 2, 2161, group=1), line(3, 3, 4321, group=2)]
    timed = stage_times(lines=lines, stage_type="mountain", distance_km=148, rules=RULES)
    assert [t.status for t in timed] == ["finished", "finished", "otl"]
    assert timed[2].status_reason == "outside the time limit (+1:12:01 > 30 % of 4:00:00)"


def test_clock_shows_hours_only_when_needed():
    assert clock(2472) == "41:12"
    assert clock(14_710) == "4:05:10"
    assert clock(5) == "0:05"


# --- validation ---------------------------------------------------------------------------


def test_duplicate_rank_names_both_riders():
    with pytest.raises(ValueError, match="rider 2: rank 1 is already taken by rider 1"):
        flat([line(1, 1, 0), line(2, 1, 0)])


def test_rank_outside_one_to_n_names_the_rider():
    with pytest.raises(ValueError, match=r"rider 2: rank 3 is outside 1\.\.2"):
        flat([line(1, 1, 0), line(2, 3, 0)])


def test_negative_gap_names_the_rider():
    with pytest.raises(ValueError, match="rider 2: gap -4 s is negative"):
        flat([line(1, 1, 0), line(2, 2, -4)])


def test_the_winner_must_have_no_gap():
    with pytest.raises(ValueError, match="rider 1: the winner's gap must be 0, got 3"):
        flat([line(1, 1, 3), line(2, 2, 5)])


def test_unknown_status_and_repeated_rider_are_errors():
    with pytest.raises(ValueError, match="rider 2: unknown status 'otl'"):
        flat([line(1, 1, 0), line(2, 2, 0, status="otl")])
    with pytest.raises(ValueError, match="rider 1 appears twice"):
        flat([line(1, 1, 0), line(1, 2, 0)])


def test_an_empty_stage_has_no_lines():
    assert flat([]) == []


# --- properties ---------------------------------------------------------------------------


@st.composite
def engine_stages(draw):
    n = draw(st.integers(min_value=1, max_value=25))
    riders = draw(st.permutations(range(100, 100 + n)))
    steps = draw(st.lists(st.integers(0, 900), min_size=n, max_size=n))
    groups = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    statuses = draw(
        st.lists(
            st.sampled_from(["finished", "finished", "finished", "abandoned", "crashed_out"]),
            min_size=n,
            max_size=n,
        )
    )
    reinstated = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    jitter = draw(st.booleans())
    gaps, gap = [], 0
    for rank in range(1, n + 1):
        # Mostly increasing gaps; with jitter, any gap (R-TT3 style) but the winner's.
        gap = gap + steps[rank - 1] if not jitter else steps[rank - 1]
        gaps.append(0 if rank == 1 else gap)
    lines = [
        EngineLine(riders[i], i + 1, gaps[i], groups[i], statuses[i], reinstated[i])
        for i in range(n)
    ]
    return lines


@given(
    lines=engine_stages(),
    stage_type=st.sampled_from(STAGE_TYPES),
    distance_km=st.floats(min_value=5, max_value=260),
    same_time=st.booleans(),
)
def test_stage_times_properties(lines, stage_type, distance_km, same_time):
    rules = TimingRules(
        reference_speed_kmh=REFERENCE_SPEED_KMH,
        same_group_same_time=same_time,
        time_cut_max_out_pct=DEFAULT_TIME_CUT_MAX_OUT_PCT,
    )
    timed = stage_times(lines=lines, stage_type=stage_type, distance_km=distance_km, rules=rules)
    winner = winner_time_seconds(distance_km=distance_km, stage_type=stage_type, rules=rules)
    assert [t.rank for t in timed] == list(range(1, len(lines) + 1))
    assert sorted(t.rider_id for t in timed) == sorted(x.rider_id for x in lines)
    gaps = [t.gap_seconds for t in timed]
    assert gaps[0] == 0
    assert all(g >= 0 for g in gaps)
    assert gaps == sorted(gaps)
    engine = {x.rider_id: x for x in lines}
    for t in timed:
        assert t.time_seconds == winner + t.gap_seconds
        assert t.bonus_seconds >= 0
        was = engine[t.rider_id]
        if was.status != "finished":
            assert t.status == was.status
        elif t.status == "otl":
            assert not was.reinstated
            assert t.gap_seconds * 100 > DEFAULT_TIME_CUT_PCT[stage_type] * winner
        else:
            assert t.status == "finished"
            kept_by_the_jury = t.status_reason.startswith("kept by the jury")
            assert (
                was.reinstated
                or kept_by_the_jury
                or t.gap_seconds * 100 <= DEFAULT_TIME_CUT_PCT[stage_type] * winner
            )
    # The jury's rule: riders are eliminated by the cut only while they are at most 20 % of
    # the starters; then none of them is.
    out = sum(1 for t in timed if t.status == "otl")
    assert out * 100 <= DEFAULT_TIME_CUT_MAX_OUT_PCT * len(timed)
    kept = [t for t in timed if t.status_reason.startswith("kept by the jury")]
    assert not (kept and out)
