"""Time trials (moreno.md §3.11)."""

from __future__ import annotations

from engine import simulate
from engine.cycling.course import Course, Segment
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.outcome import Outcome
from engine.cycling.profile import Profile
from engine.dice import Face, ScriptedDice

ITT_10 = Course("itt", "ITT", 10, (Segment("plain", 10),))
TTT_10 = Course("ttt", "TTT", 10, (Segment("plain", 10),))


def entrant(i: int, team: int = 1, **ratings: int) -> Entrant:
    return Entrant(rider_id=i, team_id=team, bib=i, profile=Profile(**ratings))


def run(course: Course, entrants: list[Entrant], faces: list[Face]) -> Outcome:
    dice = ScriptedDice(faces)
    out = simulate("moreno", StageInputs(course, tuple(entrants)), 0, dice=dice)
    assert dice.remaining == 0
    return out


def test_itt_riders_start_in_reverse_order_and_the_fewest_turns_wins() -> None:
    # Start order: 2 then 1. Rider 2: 6+10, 6+10 -> 32 (crosses in turn 2).
    # Rider 1: 2+9, 2+9 -> 22 (turn 2 too, smaller overshoot).
    out = run(ITT_10, [entrant(1), entrant(2)], [6, 10, 6, 10, 2, 9, 2, 9])
    assert [r.rider_id for r in out.results] == [2, 1]
    # [D] exact times: rider 2 reaches case 20 a quarter into his turn 2 (16 -> 32), when
    # rider 1 (11 -> 22) is at 11 + 11/4 = 13.75: 6.25 cases at 2 s, x 3 = 37.5 -> 38 s.
    assert [r.gap_seconds for r in out.results] == [0, 38]
    assert [d.unit for d in out.dice] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_itt_court_cards_are_worth_the_time_trialist_value() -> None:
    out = run(ITT_10, [entrant(1, time_trialist=4)], [4, "K", 4, "K"])
    assert out.results[0].final_case == 32


def test_itt_gap_uses_positions_at_the_winners_exact_crossing() -> None:
    # Rider 2 crosses in turn 2 (12 -> 24) two thirds into it; rider 1 is then two thirds
    # into his turn 2 (3 -> 8): 3 + 10/3, 13.67 cases from the line at 2 s, x 3 = 82 s.
    out = run(
        ITT_10,
        [entrant(1), entrant(2)],
        [2, 10, 2, 10, 2, "A", 4, "A", 6, 10],
    )
    assert [r.rider_id for r in out.results] == [2, 1]
    # His case when the winner crossed (6.33 -> 6); the winner's is his after that turn (24).
    assert out.results[1].final_case == 6
    assert out.results[1].squares_behind == 18
    assert out.results[1].gap_seconds == 82


def test_itt_descent_counts_green_as_two() -> None:
    course = Course("itt", "ITT", 10, (Segment("descent", 10),))
    faces: list[Face] = ["G", "G", "G", "G", "G", "G", "G", "G", 6]
    out = run(course, [entrant(1, descender=0)], faces)
    assert [d.rule_id for d in out.dice] == ["R-D1"] * 9
    assert out.results[0].final_case == 6 + 6 + 10


def test_ttt_rotates_the_front_in_bib_order_and_times_the_fourth_rider() -> None:
    team_a = [entrant(i, team=1) for i in (1, 2, 3, 4)]
    team_b = [entrant(i, team=2) for i in (5, 6, 7, 8)]
    # Team B starts first: rider 5 rolls 6+10, rider 6 rolls 6+10 -> 32.
    # Team A: rider 1 rolls 1+9, rider 2 rolls 1+9 -> 20.
    out = run(TTT_10, team_a + team_b, [6, 10, 6, 10, 1, 9, 1, 9])
    assert [d.rider_id for d in out.dice] == [5, 5, 6, 6, 1, 1, 2, 2]
    assert [r.rider_id for r in out.results] == [5, 6, 7, 8, 1, 2, 3, 4]
    # [D] exact times: team B's 4th crosses a quarter into turn 2 (16 -> 32); team A is then
    # at 10 + 10/4 = 12.5: 7.5 cases at 2 s, x 3 = 45 s.
    assert {r.gap_seconds for r in out.results[4:]} == {45}
    assert {r.gap_seconds for r in out.results[:4]} == {0}


def test_ttt_a_crashed_rider_leaves_the_unit_and_rides_alone() -> None:
    team = [entrant(i, team=1) for i in (1, 2, 3, 4, 5)]
    faces: list[Face] = [1, "A", 1]  # rider 1 crashes; the four others move 2 (-> 2)
    faces += [6, 10, "K"]  # rider 2 leads: -> 18; rider 1 stays down
    faces += [6, 10, 9]  # rider 3 leads: -> 34, over; rider 1 restarts: 2
    faces += [6, 10, 6, 10]  # rider 1 alone: 18, 34
    out = run(TTT_10, team, faces)
    assert [r.rider_id for r in out.results] == [2, 3, 4, 5, 1]
    assert out.results[-1].crashes[0].severity == 2
    assert out.results[-1].gap_seconds > 0
