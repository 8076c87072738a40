"""The worked examples of moreno.md §7, replayed with scripted dice."""

from __future__ import annotations

import pytest

from engine.cycling.course import Course, Segment, board_from_cases, build_board, segment_cases
from engine.dice import ScriptExhausted
from engine.rulesets.moreno import finish_mass_start
from engine.rulesets.moreno.bunch import resolve_bunch
from engine.rulesets.moreno.finish import abandon_count, abandons, stage_gaps
from engine.rulesets.moreno.rules import (
    resolve_climber,
    resolve_descender,
    resolve_fallen,
    resolve_pair,
    resolve_solo,
)
from engine.rulesets.moreno.settings import MorenoSettings
from engine.rulesets.moreno.stage import run
from tests.engine.moreno_kit import SPEC_CHAIN, Kit, R, rider

COL_AT_100 = board_from_cases([("plain", 100), ("col1", 100), ("plain", 100)])
HILL_AT_50 = board_from_cases([("plain", 50), ("hill", 50), ("plain", 200)])
COL2_AT_50 = board_from_cases([("plain", 50), ("col2", 50), ("plain", 200)])
DESCENT_AT_150 = board_from_cases([("plain", 150), ("descent", 100), ("plain", 50)])
CLIMB_AT_230 = board_from_cases([("plain", 230), ("col1", 20), ("plain", 50)])


def climb(rating: int, faces: list[object]) -> tuple[int, Kit]:
    kit = Kit([rider("X", 120, climber=rating)], faces, board=COL_AT_100)  # type: ignore[arg-type]
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    return kit.pos("X") - 120, kit


# M1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rating", "move"), [(-1, 1), (0, 5), (1, 9), (2, 12), (3, 14), (4, 14)])
def test_m1_col_move_by_climber_rating_with_5_and_t(rating: int, move: int) -> None:
    got, kit = climb(rating, [5, "T"])
    assert got == move
    assert kit.done()


@pytest.mark.parametrize(("rating", "move"), [(-1, 1), (0, 2), (1, 8), (2, 12), (3, 15)])
def test_m1_col_move_by_climber_rating_with_t_and_t(rating: int, move: int) -> None:
    got, kit = climb(rating, ["T", "T"])
    assert got == move
    assert kit.done()


def test_m1_rating_4_on_t_t_makes_15_and_rolls_again() -> None:
    got, kit = climb(4, ["T", "T", 2, 2])
    assert got == 15 + 7
    assert kit.done()


# M2 -----------------------------------------------------------------------------------------


def test_m2_rating_4_climber_rolls_again_on_six_and_t_and_adds_it() -> None:
    kit = Kit([rider("X", 100, climber=4)], [6, "T", 4, 2], board=COL_AT_100)
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    assert kit.pos("X") == 124
    assert [r[1] for r in kit.dice.rolls] == ["R-C1", "R-C1", "R-C3", "R-C3"]


def test_m2_rating_4_extra_roll_of_double_six_adds_15_and_never_rolls_a_third_time() -> None:
    kit = Kit([rider("X", 100, climber=4)], [6, "T", 6, 6], board=COL_AT_100)
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    assert kit.pos("X") == 130
    assert kit.done()


def test_m2_rating_3_never_rolls_again() -> None:
    got, kit = climb(3, [6, 6])
    assert got == 15
    assert kit.done()


# M3 -----------------------------------------------------------------------------------------


def test_m3_hill_uses_puncheur_not_climber() -> None:
    kit = Kit([rider("X", 50, climber=3, puncheur=-1)], [6, 3], board=HILL_AT_50)
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    assert kit.pos("X") == 53


def test_m3_col_uses_climber() -> None:
    kit = Kit([rider("X", 50, climber=3, puncheur=-1)], [6, 3], board=COL2_AT_50)
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    assert kit.pos("X") == 62


# M4 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("descender", "faces", "move"),
    [(1, ["T", 5, 3], 12), (-1, ["T", "T", 3], 1), (-1, ["T", "T", "T"], 1)],
)
def test_m4_descent_sums_three_dice_and_moves_at_least_one(
    descender: int, faces: list[object], move: int
) -> None:
    kit = Kit([rider("X", 160, descender=descender)], faces, board=DESCENT_AT_150)  # type: ignore[arg-type]
    kit.start_turn()
    resolve_descender(kit.race, kit["X"])
    assert kit.pos("X") - 160 == move


# M5 -----------------------------------------------------------------------------------------


def descent_with_rider_ahead(faces: list[object], descender: int = 0) -> Kit:
    kit = Kit(
        [rider("Y", 214), rider("X", 200, descender=descender)],
        faces,  # type: ignore[arg-type]
        board=DESCENT_AT_150,
    )
    kit.start_turn()
    kit.race.moved[kit["Y"]] = kit.race.turn
    resolve_descender(kit.race, kit["X"])
    return kit


def test_m5_green_brings_the_descender_up_behind_the_rider_ahead() -> None:
    kit = descent_with_rider_ahead(["G", 3, "T"])
    assert kit.pos("X") == 214
    assert kit.case(214) == ["Y", "X"]


def test_m5_green_with_a_sum_short_of_the_rider_ahead_still_reaches_him() -> None:
    kit = descent_with_rider_ahead(["G", 6, 5])
    assert kit.pos("X") == 214


def test_m5_without_green_the_descender_may_pass_the_rider_ahead() -> None:
    kit = descent_with_rider_ahead([6, 6, 5])
    assert kit.pos("X") == 217


def test_m5_triple_green_makes_an_h_descender_crash_and_starts_a_chain() -> None:
    kit = Kit(
        [
            rider("Y", 214),
            rider("X", 200, descender=-1),
            rider("Z", 199),
            rider("W", 199),
            rider("V", 197),
        ],
        ["G", "G", "G", "Q", 9],
        board=DESCENT_AT_150,
        settings=SPEC_CHAIN,
    )
    kit.start_turn()
    resolve_descender(kit.race, kit["X"])
    assert kit.fallen("X")
    assert kit.pos("X") == 200
    assert kit.fallen("Z")
    assert kit.pos("W") == 201
    assert not kit.fallen("W")
    assert kit.pos("V") == 197
    assert kit.done()
    assert [r[1] for r in kit.dice.rolls] == ["R-D1", "R-D1", "R-D1", "R-X2", "R-X2"]


def test_m5_triple_green_takes_a_good_descender_exactly_to_the_rider_ahead() -> None:
    kit = descent_with_rider_ahead(["G", "G", "G"], descender=3)
    assert kit.pos("X") == 214


# M6 -----------------------------------------------------------------------------------------


def solo_three_free_cases_behind(face: str) -> Kit:
    kit = Kit([rider("A", 84), rider("S", 80)], [face])
    units = kit.start_turn()
    assert [len(u.members) for u in units] == [1, 1]
    kit.race.place(kit["A"], 95)  # the group ahead has moved first
    resolve_solo(kit.race, kit["S"], units[1].ahead)
    return kit


def test_m6_solo_three_free_cases_behind_joins_on_a_court_card() -> None:
    kit = solo_three_free_cases_behind("K")
    assert kit.pos("S") == 94


def test_m6_solo_three_free_cases_behind_moves_two_on_a_number() -> None:
    kit = solo_three_free_cases_behind("10")
    assert kit.pos("S") == 82


@pytest.mark.parametrize(("rouleur", "end"), [(1, 71), (3, 75)])
def test_m6_distant_solo_moves_d6_plus_poker_with_jack_worth_his_rouleur(
    rouleur: int, end: int
) -> None:
    kit = Kit([rider("A", 80), rider("T", 60, rouleur=rouleur)], [5, "J"])
    units = kit.start_turn()
    resolve_solo(kit.race, kit["T"], units[1].ahead)
    assert kit.pos("T") == end
    assert kit.done()


# M7 -----------------------------------------------------------------------------------------


def test_m7_pair_front_crashes_on_1_a_confirmed_and_the_chain_takes_his_partner() -> None:
    kit = Kit([rider("A", 120), rider("B", 119)], [1, "A", 1, "J", "K", 9, 10], settings=SPEC_CHAIN)
    kit.start_turn()
    resolve_pair(kit.race, kit["A"], kit["B"])
    assert kit.fallen("A")
    assert kit.fallen("B")
    assert (kit.pos("A"), kit.pos("B")) == (120, 119)

    kit.start_turn()
    resolve_fallen(kit.race, kit["A"])
    resolve_fallen(kit.race, kit["B"])
    assert kit.fallen("A")
    assert kit.race.fallen_turns[kit["A"]] == 1
    assert not kit.fallen("B")
    assert kit.pos("B") == 121
    assert [(c.turn, c.case, c.severity) for c in kit.race.crashes[kit["B"]]] == [(1, 119, 1)]

    kit.start_turn()
    resolve_fallen(kit.race, kit["A"])
    assert kit.pos("A") == 122
    assert [(c.turn, c.case, c.severity) for c in kit.race.crashes[kit["A"]]] == [(1, 120, 2)]
    assert kit.done()


def test_m7_unconfirmed_crash_moves_the_front_exactly_two_and_the_partner_goes_ahead() -> None:
    kit = Kit([rider("A", 120), rider("B", 119)], [1, "A", 4])
    kit.start_turn()
    resolve_pair(kit.race, kit["A"], kit["B"])
    assert (kit.pos("A"), kit.pos("B")) == (122, 123)
    assert kit.done()


# M8 -----------------------------------------------------------------------------------------


def test_m8_pair_front_rolls_and_the_second_goes_ahead_of_him() -> None:
    kit = Kit([rider("A", 50, rouleur=2), rider("B", 49)], [4, "Q", 3, 9])
    kit.start_turn()
    resolve_pair(kit.race, kit["A"], kit["B"])
    assert (kit.pos("A"), kit.pos("B")) == (62, 63)
    units = kit.start_turn()
    assert units[0].members == [kit["B"], kit["A"]]
    resolve_pair(kit.race, *units[0].members)
    assert (kit.pos("B"), kit.pos("A")) == (75, 76)


# M9 -----------------------------------------------------------------------------------------


def test_m9_d20_3_the_yellow_team_rolls_and_leads_the_pack_and_the_red_rolls_3_dice() -> None:
    riders = [
        rider("B1", 110, team=2),
        rider("A2", 110, team=1, rouleur=2),
        rider("C1", 109, team=3),
        rider("A1", 109, team=1, role="gc_leader"),
        rider("R1", 108, team=3, role="breakaway", rouleur=1),
        rider("B2", 108, team=2),
        rider("C2", 107, team=3),
        rider("D1", 107, team=4),
    ]
    kit = Kit(riders, [3, 9, "K", 2, "K", 14], yellow="A1")
    units = kit.start_turn()
    assert len(units) == 1
    resolve_bunch(kit.race, units[0].members, 0)
    assert kit.case(127) == ["A2", "B1", "C1", "A1"]
    assert kit.case(126) == ["B2", "C2", "D1"]
    assert kit.pos("R1") == 128
    assert kit.done()


# M10 ----------------------------------------------------------------------------------------


def m10_bunch(face: int) -> Kit:
    kit = Kit(
        [
            rider("a", 200, rouleur=0, puncheur=0),
            rider("b", 200, rouleur=1, puncheur=1),
            rider("c", 199, rouleur=3, puncheur=3),
            rider("d", 199, rouleur=-1, puncheur=-1),
        ],
        [face],
    )
    units = kit.start_turn()
    resolve_bunch(kit.race, units[0].members, 0)
    return kit


def test_m10_d20_12_packs_everybody_from_the_best_target_nobody_dropped() -> None:
    kit = m10_bunch(12)
    assert kit.case(209) == ["c", "b", "a", "d"]


def test_m10_d20_13_moves_each_rider_his_puncheur_value() -> None:
    kit = m10_bunch(13)
    assert kit.positions() == {"a": 205, "b": 210, "c": 219, "d": 200}


# M11 ----------------------------------------------------------------------------------------


def test_m11_d20_19_eligible_k6_goes_clear_and_takes_the_best_baroudeur_along() -> None:
    kit = Kit(
        [
            rider("X1", 150, role="breakaway", baroudeur=2, rouleur=1),
            rider("X2", 150, baroudeur=1, rouleur=0),
            rider("X3", 149, baroudeur=0, rouleur=1),
        ],
        [19, 6, "K", 3, 9, 2, "A", 40, 2],
        board=CLIMB_AT_230,
    )
    units = kit.start_turn()
    resolve_bunch(kit.race, units[0].members, 0)
    assert kit.case(202) == ["X1", "X2"]
    assert kit.pos("X3") == 152
    assert kit.done()
    events = [(e.kind, e.riders) for e in kit.race.events]
    assert events == [("breakaway", (kit["X1"], kit["X2"]))]


def test_m11_the_breakaway_die_is_capped_before_the_next_climb() -> None:
    kit = Kit(
        [
            rider("X1", 200, role="breakaway", baroudeur=2, finisseur=2, rouleur=1),
            rider("X2", 200, baroudeur=1, rouleur=0),
            rider("X3", 199, baroudeur=0, rouleur=1),
        ],
        [19, 6, "K", 3, 9, 2, "A", 40, 1],
        board=CLIMB_AT_230,
    )
    units = kit.start_turn()
    resolve_bunch(kit.race, units[0].members, 0)
    assert kit.pos("X1") == 229


# M12 ----------------------------------------------------------------------------------------


def test_m12_sprint_table_over_two_turns_then_gaps_of_one_second_per_zone_case() -> None:
    kit = Kit(
        [
            rider("S3", 290, sprinter=0),
            rider("S4", 290, sprinter=-1),
            rider("S1", 289, sprinter=4),
            rider("S2", 289, sprinter=2),
        ],
        [4, 6],
    )
    order, _ = run(kit.race)
    assert kit.race.turn == 2
    assert kit.positions() == {"S1": 301, "S2": 294, "S3": 292, "S4": 292}
    out = finish_mass_start(kit.race, order, seed=0)
    assert [r.rider_id for r in out.results] == [kit[n] + 1 for n in ("S1", "S2", "S3", "S4")]
    assert [r.gap_seconds for r in out.results] == [0, 7, 9, 9]
    assert kit.done()


def test_m12_sprint_first_turn_moves_by_the_table() -> None:
    kit = Kit(
        [
            rider("S3", 290, sprinter=0),
            rider("S4", 290, sprinter=-1),
            rider("S1", 289, sprinter=4),
            rider("S2", 289, sprinter=2),
        ],
        [4],
    )
    with pytest.raises(ScriptExhausted):
        run(kit.race)
    assert kit.positions() == {"S3": 291, "S4": 291, "S1": 295, "S2": 293}


def test_m12_mixed_terrain_gap_is_140_seconds() -> None:
    board = board_from_cases([("plain", 200), ("col1", 40), ("descent", 20), ("plain", 40)])
    assert board.sprint_zone_start == 288
    assert board.gap_seconds(230, 302) == 140
    kit = Kit([rider("W", 302), rider("X", 230)], board=board)
    gaps = stage_gaps(kit.race, kit.race.race_order())
    assert gaps[kit["X"]] == 140


# Conversion check -------------------------------------------------------------------------


def test_conversion_170_km_gives_300_cases_and_the_plain_absorbs_the_compression() -> None:
    course = Course(
        "c",
        "flat",
        170,
        (
            Segment("plain", 100),
            Segment("col1", 10),
            Segment("descent", 10),
            Segment("plain", 50),
        ),
    )
    assert segment_cases(course) == (173, 20, 20, 87)
    assert build_board(course).n_cases == 300


@pytest.mark.parametrize(("km", "cases"), [(200, 343), (120, 200), (240, 400), (170, 300)])
def test_conversion_of_a_plain_course(km: float, cases: int) -> None:
    course = Course("c", "flat", km, (Segment("plain", km),))
    assert build_board(course).n_cases == cases


# Abandon check ----------------------------------------------------------------------------


def test_abandon_check_k_23_gives_3_abandons_by_criteria_1_2_then_4_for_lack_of_crash() -> None:
    riders: list[R] = [rider(f"P{i}", 200 - i // 4) for i in range(60)]
    # 23 stragglers, each 4+ free cases apart, behind the main peloton (last case 186).
    riders += [rider(f"S{i}", 180 - 5 * i) for i in range(23)]
    riders[65].gc_time_before = 10_000  # last on GC before the stage
    riders[30].tour_crash_count = 2
    # The spec's table as it stands (83 riders: no scaling to the field, R-A2 [D]).
    kit = Kit(riders, [5], settings=MorenoSettings(abandon_field=0))
    order = kit.race.race_order()
    assert abandon_count(kit.race, order) == 3
    gaps = stage_gaps(kit.race, order)
    quits = abandons(kit.race, order, gaps)
    assert [(kit.names[r], c) for r, c in quits] == [("S22", 1), ("S5", 2), ("P30", 4)]
    assert kit.done()


def test_abandon_check_a_low_die_cancels_the_abandons() -> None:
    riders: list[R] = [rider(f"P{i}", 200 - i // 4) for i in range(60)]
    riders += [rider(f"S{i}", 180 - 5 * i) for i in range(23)]
    kit = Kit(riders, [3])
    order = kit.race.race_order()
    assert abandons(kit.race, order, stage_gaps(kit.race, order)) == []
