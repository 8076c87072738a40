"""The gap scale beyond ``gap_scale_after_s`` (docs/rules-choices.md, "Gap scale", issue 16)."""

import pytest

from races.timing import REFERENCE_SPEED_KMH, EngineLine, TimingRules, stage_times


def times(rules, gaps):
    lines = [EngineLine(i + 1, i + 1, g, i, "finished") for i, g in enumerate(gaps)]
    return [
        t.gap_seconds
        for t in stage_times(lines=lines, stage_type="mountain", distance_km=148, rules=rules)
    ]


def test_gaps_up_to_the_knee_keep_the_engine_value_and_only_the_rest_is_scaled():
    rules = TimingRules(
        reference_speed_kmh=REFERENCE_SPEED_KMH,
        gap_scale={"mountain": 3.0},
        gap_scale_after_s=60,
    )
    # 48 s stays 48 s; 60 s stays 60; 100 s -> 60 + 3 x 40 = 180; 61 s -> 63.
    assert times(rules, [0, 48, 60, 61, 100]) == [0, 48, 60, 63, 180]


def test_without_a_knee_the_whole_gap_is_scaled():
    rules = TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, gap_scale={"mountain": 3.0})
    assert times(rules, [0, 48]) == [0, 144]


def test_a_negative_knee_is_refused():
    with pytest.raises(ValueError, match="gap_scale_after_s must be a whole number"):
        TimingRules(reference_speed_kmh=REFERENCE_SPEED_KMH, gap_scale_after_s=-1)
