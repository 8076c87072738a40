"""Courses become boards (moreno.md §2.6)."""

from __future__ import annotations

import pytest

from engine.cycling.course import (
    Course,
    Segment,
    board_from_cases,
    build_board,
    effective_km,
    segment_cases,
)


@pytest.mark.parametrize(
    ("km", "effective"), [(0, 0), (60, 50), (120, 100), (170, 150), (240, 200), (310, 250)]
)
def test_effective_km_runs_through_the_texts_anchors(km: float, effective: float) -> None:
    assert effective_km(km) == pytest.approx(effective)


def test_climbs_and_descents_keep_their_full_length_and_the_plain_pays() -> None:
    course = Course(
        "c", "mountain", 200, (Segment("plain", 150), Segment("colhc", 20), Segment("plain", 30))
    )
    cases = segment_cases(course)
    assert cases[1] == 40
    assert sum(cases) == 343


def test_time_trials_are_not_compressed_and_have_no_sprint_zone() -> None:
    course = Course("tt", "ITT", 30, (Segment("plain", 25), Segment("hill", 5)))
    board = build_board(course)
    assert board.segment_cases == (50, 10)
    assert board.sprint_zone_start is None
    flat = build_board(Course("tt", "ITT", 30, (Segment("plain", 30),)))
    assert flat.sprint_zone_start is None


def test_a_plain_finish_has_a_sprint_zone_of_12_cases_at_1_second() -> None:
    board = board_from_cases([("plain", 100), ("col1", 20), ("plain", 30)])
    assert board.sprint_zone_start == 138
    assert board.seconds_at(137) == 2
    assert board.seconds_at(138) == 1
    assert board.seconds_at(500) == 1
    assert board.seconds_at(-3) == 2


def test_a_summit_finish_has_no_sprint_zone() -> None:
    board = board_from_cases([("plain", 100), ("colhc", 30)])
    assert board.sprint_zone_start is None
    assert board.seconds_at(129) == 6
    assert board.seconds_at(135) == 6
    assert board.climbs[0].line == 130


def test_the_race_phase_splits_at_two_thirds() -> None:
    assert board_from_cases([("plain", 300)]).phase_split == 200
    assert board_from_cases([("plain", 301)]).phase_split == 200


def test_seconds_per_case_by_terrain() -> None:
    board = board_from_cases(
        [
            ("plain", 1),
            ("descent", 1),
            ("hill", 1),
            ("col3", 1),
            ("col2", 1),
            ("col1", 1),
            ("colhc", 1),
            ("plain", 1),
        ]
    )
    assert board.seconds == (2, 1, 3, 3, 4, 5, 6, 2)


def test_an_intermediate_sprint_sits_on_the_case_of_its_km() -> None:
    course = Course("c", "flat", 170, (Segment("plain", 170),), (85.0,))
    assert build_board(course).intermediate_sprints == ((85.0, 150),)


def test_unknown_terrain_and_stage_type_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown terrain 'flatt'"):
        Segment("flatt", 3)
    with pytest.raises(ValueError, match="unknown stage type"):
        Course("c", "sprint", 10, (Segment("plain", 10),))
