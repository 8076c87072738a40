"""The worked examples G1-G10 of grandprix.md §8 on the §3.6 track, with scripted dice and
cards (a script that runs short or does not fit fails the test)."""

from __future__ import annotations

import pytest

from engine.dice import ScriptExhausted
from engine.rulesets.grandprix import cards as C
from engine.rulesets.grandprix.race import (
    ACCIDENT,
    ENGINE,
    RETIRED,
    RUNNING,
    QualifyingRun,
)
from engine.rulesets.grandprix.search import END_FINISH, Context, best_move, room
from engine.rulesets.grandprix.source import ScriptedSource
from tests.engine.grandprix.kit import placed


def draws(race) -> list[str]:  # type: ignore[no-untyped-def]
    return [card for (_, _, _, kind, _, card) in race.log if kind == "draw"]


def test_g1_the_policy_selects_fourth_gear_and_moves_straight_to_a79() -> None:
    race, car = placed({"x": ("A64", 2, 3)}, [(3, 5, 2, 5)])
    x = car["x"]
    race.piles[2] = [C.OIL]  # a draw would show
    assert room(race.board, race.loc[x], 0, False, 2)[4] == 24
    race.play_turn(x)
    assert race.gear[x] == 4
    assert race.board.names[race.loc[x]] == "A79"
    assert race.d(x) == 558
    assert draws(race) == []
    assert race.source.remaining == 0  # type: ignore[attr-defined]


def test_g1_variant_a_lap_two_speed_card_is_played_for_23_to_a87() -> None:
    race, car = placed({"x": ("A64", 2, 3)})  # no dice: a throw would fail the test
    x = car["x"]
    race.cards[x] = [20]  # a speed card tagged lap 2
    race.play_turn(x)
    assert race.board.names[race.loc[x]] == "A87"
    assert race.d(x) == 574
    assert race.cards[x] == []
    assert race.discards[2] == [0]
    assert not race.must_pit[x]
    assert race.pit_stops[x] == []


def test_g2_the_policy_downshifts_to_second_before_the_hairpin() -> None:
    race, car = placed({"x": ("B52", 1, 3)}, [(6, 3, 3, 1)])
    x = car["x"]
    rooms = room(race.board, race.loc[x], 0, False, 2)
    assert rooms[3] == rooms[4] == 8
    race.play_turn(x)
    assert race.gear[x] == 2
    assert race.board.names[race.loc[x]] == "B61"
    assert race.d(x) == 323
    assert draws(race) == []


def test_g3_track_exit_into_the_run_off_and_rejoin_from_it() -> None:
    race, car = placed({"x": ("A55", 1, 2)}, [(6, 5, 4, 3), (2, 4, 1, 3)])
    x = car["x"]
    race.piles[1] = [C.OIL]
    assert room(race.board, race.loc[x], 0, False, 2)[3] == 5
    race.play_turn(x, gear=3)
    assert race.board.names[race.loc[x]] == "runoff T10"
    assert race.d(x) == 200 + 124 - 2
    assert race.gear[x] == 1
    assert race.forced_first[x]
    assert race.track_exits[x] == ["T10"]
    assert draws(race) == []
    race.play_turn(x)
    assert race.gear[x] == 1
    assert race.board.names[race.loc[x]] == "B65"
    assert race.d(x) == 331
    assert draws(race) == []


def test_g3_the_chosen_move_is_twelve_points_and_exits_on_the_fifth_step() -> None:
    race, _car = placed({"x": ("A55", 1, 2)})
    board = race.board
    ctx = Context(0, False, 2, False, -1, 2)
    move = best_move(board, board.square("A55"), 0, 3, (12, 13, 14, 15), ctx)
    assert move.m == 12
    assert [board.names[s] for s in move.path] == ["A56", "A57", "A58", "A59", "A60"]
    assert move.end_kind == "exit"


def test_g4_the_racing_line_lets_third_gear_through_a8() -> None:
    race, car = placed({"x": ("B5", 1, 2)}, [(1, 2, 2, 4)])
    x = car["x"]
    board = race.board
    assert room(board, race.loc[x], 0, False, 2)[3] == 24
    ctx = Context(0, False, 2, False, -1, 2)
    move = best_move(board, race.loc[x], 0, 3, (5, 7, 8), ctx)
    assert [board.names[s] for s in move.path] == [
        "B6", "B7", "A8", "A9", "A10", "A11", "A12", "A13"
    ]  # fmt: skip
    assert move.lane_changes == 1
    race.play_turn(x)
    assert race.gear[x] == 3
    assert board.names[race.loc[x]] == "A13"
    assert race.d(x) == 226
    assert race.line[x] == 0  # left the line at A10


def test_g4_counter_check_through_b8_off_the_line_is_a_track_exit() -> None:
    race, car = placed({"x": ("B5", 1, 2), "y": ("A8", 1, 2)})  # A8 taken: only B8 is left
    board = race.board
    others = race.occ & ~(1 << race.loc[car["x"]])
    move = best_move(board, race.loc[car["x"]], 0, 3, (8,), Context(others, False, 2, False, -1, 2))
    assert move.end_kind == "exit"
    assert board.track.corners[move.corner].id == "T1-T2"


def test_g5_four_sixes_blow_the_engine_in_any_gear() -> None:
    race, car = placed({"x": ("A30", 1, 1), "y": ("A40", 1, 3)}, [(6, 6, 6, 6)] * 2)
    race.piles[1] = [C.OIL]
    race.play_turn(car["x"])
    race.play_turn(car["y"])
    for i in car.values():
        assert race.status[i] == RETIRED
        assert race.reason[i] == ENGINE
        assert race.loc[i] == -1
    assert race.occ == 0
    assert draws(race) == []


def test_g5_four_sixes_as_a_pit_throw_blow_the_engine() -> None:
    race, car = placed({"x": ("B84", 1, 2)}, [(6, 6, 6, 6)])
    race.must_pit[car["x"]] = True
    race.play_turn(car["x"])  # starts on the gate: enters directly (GP-11.3)
    assert race.status[car["x"]] == RETIRED
    assert race.reason[car["x"]] == ENGINE


def test_g5_four_sixes_in_qualifying_mean_no_time_and_the_back_of_the_grid() -> None:
    race, car = placed({"x": ("A30", 0, 1)}, [(6, 6, 6, 6)])
    run = race.qualifying_run(car["x"])
    assert run == QualifyingRun(car["x"], False, 1, 0, ENGINE)
    assert race.status[car["x"]] == RUNNING  # still starts the race


def test_g6_pit_stop_through_the_line() -> None:
    dice = [(3, 4, 2, 5), (5, 4, 3, 1), (2, 6, 3, 3), (5, 4, 1, 1)]
    race, car = placed({"x": ("B82", 1, 4)}, dice)
    x = car["x"]
    board = race.board
    race.must_pit[x] = True
    race.play_turn(x)
    assert race.gear[x] == 1
    assert race.forced_first[x]
    assert board.names[race.loc[x]] == "P13"
    assert race.pit_stops[x] == [1]
    assert race.d(x) == 405
    assert not race.must_pit[x]
    race.play_turn(x)
    assert board.names[race.loc[x]] == "P7"
    assert race.d(x) == 417
    race.cards[x] = [10]  # a lap-1 speed card, removed when lap 2 begins
    race.play_turn(x)
    assert race.gear[x] == 2
    assert race.crossings[x] == 2
    assert board.names[race.loc[x]] == "B17"
    assert race.d(x) == 435
    assert race.cards[x] == []
    assert draws(race) == []


def test_g6_the_first_move_enters_at_the_gate_and_loses_eleven_points() -> None:
    race, car = placed({"x": ("B82", 1, 4)})
    board = race.board
    move = best_move(board, race.loc[car["x"]], 0, 4, (14,), Context(0, True, 2, False, -1, 2))
    assert move.end_kind == "pit"
    assert [board.names[s] for s in move.path] == ["B83", "B84"]
    assert move.m - move.steps == 11


def test_g7_blocking_stops_the_car_on_b73() -> None:
    race, car = placed({"x": ("A71", 2, 2), "y": ("A74", 2, 2), "z": ("B74", 2, 2)}, [(6, 5, 1, 1)])
    x = car["x"]
    board = race.board
    race.piles[2] = [C.OIL]
    race.play_turn(x, gear=2)
    assert board.names[race.loc[x]] == "B73"
    assert race.d(x) == 547
    others = race.occ & ~(1 << race.loc[x])
    move = best_move(
        board, board.square("A71"), 0, 2, (2, 6, 7, 11), Context(others, False, 2, False, -1, 2)
    )
    assert move.m == 6
    assert [board.names[s] for s in move.path] == ["A72", "A73", "B73"]
    assert move.m - move.steps == 3
    assert draws(race) == []


def test_g8_a_yellow_flag_forbids_passing_the_car_ahead_and_speed_cards() -> None:
    race, car = placed({"x": ("A64", 2, 4), "y": ("B69", 2, 2)}, [(4, 4, 3, 3)])
    x = car["x"]
    race.yellow_left = 3
    race.cards[x] = [20]
    race.play_turn(x)
    assert race.board.names[race.loc[x]] == "A69"
    assert race.d(x) == 538
    assert race.cards[x] == [20]  # the card could not be played
    assert race.yellow_left == 2


def test_g9_oil_skids_two_squares_and_gives_the_car_ahead_a_pit_stop() -> None:
    race, car = placed({"x": ("A40", 1, 3), "w": ("B45", 1, 3)})
    race.piles[1] = [C.OIL]
    race.draw(car["x"])
    assert race.board.names[race.loc[car["x"]]] == "A42"
    assert race.d(car["x"]) == 284
    assert race.must_pit[car["w"]]
    assert not race.must_pit[car["x"]]
    assert draws(race) == ["OIL"]


def test_g9_variant_blocked_outside_a_zone_the_skid_hits_the_wall() -> None:
    # §8 says W still gets must_pit, but the car on A41 is then the nearest car ahead, and
    # GP-10.5 (the rule) gives it the card: the rule stands (docs/grandprix.md).
    race, car = placed({"x": ("A40", 1, 3), "w": ("B45", 1, 3), "v": ("A41", 1, 3)})
    race.piles[1] = [C.OIL]
    race.draw(car["x"])
    assert race.status[car["x"]] == RETIRED
    assert race.reason[car["x"]] == ACCIDENT
    assert race.must_pit[car["v"]]
    assert not race.must_pit[car["w"]]


def test_g9_variant_with_a_blocker_that_is_not_ahead_w_gets_the_obligation() -> None:
    # A41 blocked by a car that is behind in D (it has one crossing fewer): W receives.
    race, car = placed({"x": ("A40", 1, 3), "w": ("B45", 1, 3), "v": ("A41", 0, 3)})
    race.piles[1] = [C.OIL]
    race.draw(car["x"])
    assert race.reason[car["x"]] == ACCIDENT
    assert race.must_pit[car["w"]]
    assert not race.must_pit[car["v"]]


def test_a_skid_blocked_inside_a_corner_zone_is_a_track_exit() -> None:
    race, car = placed({"x": ("A56", 1, 3), "v": ("A57", 1, 3)})
    race.piles[1] = [C.BRAKE_FAILURE]
    race.draw(car["x"])
    assert race.status[car["x"]] == RUNNING
    assert race.board.names[race.loc[car["x"]]] == "runoff T10"
    assert race.must_pit[car["x"]]


def test_g10a_the_last_qualifying_throw_gives_nine_throws_and_overshoot_seven() -> None:
    race, _car = placed({"x": ("A97", 1, 4)})
    board = race.board
    move = best_move(board, board.square("A97"), 0, 4, (10,), Context(0, False, 1, False, -1, 2))
    assert move.end_kind == END_FINISH
    assert [board.names[s] for s in move.path] == ["A98", "A99", "A0"]
    assert move.m - move.steps == 7


def test_g10b_the_grid_from_throws_overshoot_and_a_tie_throw() -> None:
    race, _car = placed({f"#{n}": (f"A{10 * n}", 0, 1) for n in range(1, 6)})
    race.source = ScriptedSource([(2, 3, 4, 1), (6, 5, 1, 1)])
    runs = [
        QualifyingRun(0, True, 7, 3),
        QualifyingRun(1, True, 8, 10),
        QualifyingRun(2, True, 7, 3),
        QualifyingRun(3, True, 7, 6),
        QualifyingRun(4, False, 1, 0, ENGINE),
    ]
    grid = race.rank_qualifying(runs)
    assert [race.names[i] for i in grid] == ["#4", "#3", "#1", "#2", "#5"]
    assert [race.board.names[race.board.grid[s]] for s in range(5)] == [
        "B99", "A99", "B98", "A98", "B97"
    ]  # fmt: skip
    ties = [(car_i, values) for (_, _, car_i, kind, values, _) in race.log if kind == "tie"]
    assert ties == [(0, (2, 3, 4, 1)), (2, (6, 5, 1, 1))]


def test_g10c_a_blue_flag_caps_second_gear_until_the_holder_is_overtaken() -> None:
    race, car = placed({"w": ("A68", 2, 4), "v": ("A65", 2, 2), "u": ("A50", 2, 2)}, [(3, 3, 1, 1)])
    w, v = car["w"], car["v"]
    race.piles[2] = [0, C.BLUE_FLAG]  # BLUE_FLAG on top, then a speed card for V
    assert race.d(w) == 536
    race.draw(w)
    assert race.blue[w]
    assert race.gear[w] == 2
    assert race.select_gear(w, False) <= 2
    assert race.d(v) == 530
    race.play_turn(v, gear=2)
    assert race.d(v) == 541
    assert not race.blue[w]
    assert race.round_order([w, v, car["u"]])[:2] == [v, w]


def test_a_blue_flag_on_the_last_car_has_no_effect() -> None:
    race, car = placed({"w": ("A68", 2, 4), "v": ("A70", 2, 2)})
    race.piles[2] = [C.BLUE_FLAG]
    race.draw(car["w"])
    assert not race.blue[car["w"]]
    assert race.gear[car["w"]] == 4


def test_the_scripted_source_fails_loudly() -> None:
    race, car = placed({"x": ("A30", 1, 2)}, [(1, 2, 3)])
    with pytest.raises(ScriptExhausted):
        race.play_turn(car["x"])
    with pytest.raises(ScriptExhausted, match="pile 1 shuffled without a scripted order"):
        placed({"x": ("A30", 1, 2)})[0].shuffle_piles()
