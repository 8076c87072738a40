"""The d20 bunch table (moreno.md §3.6), one row at a time, with scripted dice."""

from __future__ import annotations

from engine.cycling.course import board_from_cases
from engine.dice import Face
from engine.rulesets.moreno.bunch import resolve_bunch
from tests.engine.moreno_kit import SPEC_CHAIN, Kit, R, rider

CLIMB_AT_230 = board_from_cases([("plain", 230), ("col1", 20), ("plain", 50)])


def bunch(riders: list[R], faces: list[Face], **kw: object) -> Kit:
    kit = Kit(riders, faces, **kw)  # type: ignore[arg-type]
    groups = kit.start_turn()
    resolve_bunch(kit.race, groups[-1].members, len(kit.race.units) - 1)
    return kit


def four(**roles: str) -> list[R]:
    """a (team 1) 100, b (team 2) 100, c (team 1) 99, d (team 3) 99."""
    teams = {"a": 1, "b": 2, "c": 1, "d": 3}
    cases = {"a": 100, "b": 100, "c": 99, "d": 99}
    return [rider(n, cases[n], teams[n], roles.get(n, "domestique")) for n in "abcd"]


def test_d20_1_the_head_rolls_two_pokers_and_the_body_follows_packed_in_order() -> None:
    kit = bunch(four(), [1, 9, 10])
    assert kit.case(119) == ["a", "b", "c", "d"]
    assert kit.done()


def test_d20_2_the_head_and_his_team_mates_lead_the_pack() -> None:
    kit = bunch([*four(), rider("e", 98, 4)], [2, 9, "A"])
    assert kit.case(110) == ["a", "c", "b", "d"]
    assert kit.case(109) == ["e"]


def test_d20_3_without_a_yellow_team_rider_falls_back_to_case_1() -> None:
    kit = bunch(four(), [3, 9, 9])
    assert kit.case(118) == ["a", "b", "c", "d"]
    assert [r[1] for r in kit.dice.rolls] == ["R-P20", "R-P20.1", "R-P20.1"]


def test_d20_3_in_stage_1_the_yellow_team_is_the_first_gc_leaders() -> None:
    kit = bunch(four(d="gc_leader"), [3, "A", "A", 9])
    # d rolls A-A: the confirm 9 fails, V = 2, pack from head a's 100 + 2, d first.
    assert kit.case(102) == ["d", "a", "b", "c"]


def test_d20_4_the_whole_yellow_team_leads_the_pack() -> None:
    kit = bunch([*four(), rider("e", 98, 1)], [4, 9, 9], yellow="c")
    assert kit.case(118) == ["a", "c", "e", "b"]
    assert kit.case(117) == ["d"]


def test_d20_5_the_best_placed_sprinter_rolls_and_leads_and_6_brings_his_team() -> None:
    kit = bunch(four(d="sprinter"), [5, 10, 10])
    assert kit.case(120) == ["d", "a", "b", "c"]
    kit = bunch([*four(b="sprinter"), rider("e", 98, 2)], [6, 10, 10])
    assert kit.case(120) == ["b", "e", "a", "c"]


def test_d20_5_without_a_sprinter_falls_back_to_case_1() -> None:
    kit = bunch(four(), [5, 9, 9])
    assert [r[1] for r in kit.dice.rolls][1:] == ["R-P20.1", "R-P20.1"]


def test_d20_7_puts_the_bunch_in_single_file() -> None:
    kit = bunch(four(), [7, 9, "A"])
    assert kit.positions() == {"a": 110, "b": 109, "c": 108, "d": 107}


def test_d20_8_joins_behind_the_nearest_rider_ahead() -> None:
    kit = bunch([rider("lead", 150, 9), *four()], [8])
    assert kit.case(149) == ["a", "b", "c", "d"]
    assert kit.done()


def test_d20_8_with_nobody_ahead_moves_two_packed() -> None:
    kit = bunch(four(), [8])
    assert kit.case(102) == ["a", "b", "c", "d"]


def test_d20_8_reds_follow_the_body_without_rolling() -> None:
    kit = bunch([rider("lead", 150, 9), *four(a="breakaway")], [8])
    assert kit.case(149) == ["b", "c", "d", "a"]
    assert kit.done()


def test_d20_9_brings_every_chasing_bunch_up_behind_it_without_dice() -> None:
    riders = [
        rider("lead", 150, 9),
        *four(),
        rider("x", 80, 5),
        rider("y", 80, 5),
        rider("z", 80, 5),
    ]
    kit = Kit(riders, [9])
    groups = kit.start_turn()
    resolve_bunch(kit.race, groups[1].members, kit.race.units.index(groups[1]))
    assert kit.case(149) == ["a", "b", "c", "d"]
    assert kit.case(148) == ["x", "y", "z"]
    assert all(kit.race.moved[kit[n]] == kit.race.turn for n in "xyz")
    assert kit.done()


def test_d20_10_slows_the_body_to_one_case_and_reds_roll_three_dice() -> None:
    kit = bunch(four(b="breakaway"), [10, 6, "A", 20])
    assert kit.positions() == {"a": 101, "b": 126, "c": 100, "d": 100}
    assert [e.kind for e in kit.race.events] == ["attack"]


def test_d20_11_each_rider_moves_his_rouleur_value() -> None:
    riders = four()
    riders[0].ratings["rouleur"] = 4
    riders[3].ratings["rouleur"] = -1
    kit = bunch(riders, [11])
    assert kit.positions() == {"a": 112, "b": 104, "c": 103, "d": 101}


def test_d20_14_the_green_team_gets_20_cases_and_court_cards_ride_its_wheel() -> None:
    kit = bunch(four(c="sprinter"), [14, 9, "K"])
    # b rolls 9, d rolls K and joins the train of team 1 (a, c), packed from 100 + 20.
    assert kit.pos("b") == 109
    assert kit.case(120) == ["a", "c", "d"]


def test_d20_15_eligible_riders_roll_three_pokers_and_escape_with_the_d6_ladder() -> None:
    riders = four()
    riders[0].ratings["baroudeur"] = 2
    # a: 3 pokers 10+10+9 = 29 -> 129; b, c, d: 2 pokers.
    kit = bunch(riders, [15, 10, 10, 9, "A", 9, "A", 9, "A", 9, 16])
    assert (kit.pos("b"), kit.pos("c"), kit.pos("d")) == (110, 109, 109)
    assert kit.pos("a") == 129 + 16
    assert [(e.kind, e.riders) for e in kit.race.events] == [("breakaway", (kit["a"],))]


def test_d20_15_double_ace_is_a_crash_check() -> None:
    kit = bunch(four(), [15, "A", "A", "A", "J", 9, 9, 9], settings=SPEC_CHAIN)
    # a crashes (A-A confirmed by A); the chain: b behind him on his case rolls J and falls,
    # c on the case behind b rolls 9: +2 as his move, the chain stops; d rolls 9 + 9.
    assert kit.fallen("a")
    assert kit.fallen("b")
    assert (kit.pos("c"), kit.pos("d")) == (101, 117)
    assert kit.done()


def test_d20_16_king_six_moves_100_but_stops_behind_a_rider_ahead() -> None:
    kit = bunch([rider("lead", 160, 9), *four()], [16, 6, "K", 1, 9, 1, 9, 1, 9])
    assert kit.pos("a") == 159
    assert (kit.pos("b"), kit.pos("c"), kit.pos("d")) == (110, 109, 109)


def test_d20_16_king_six_stops_before_the_next_climb() -> None:
    kit = bunch(four(), [16, 6, "K", 1, 9, 1, 9, 1, 9], board=CLIMB_AT_230)
    assert kit.pos("a") == 200
    kit = Kit([rider(n, 190, 1) for n in "abc"], [16, 6, "K", 1, 9, 1, 9], board=CLIMB_AT_230)
    resolve_bunch(kit.race, kit.start_turn()[0].members, 0)
    assert kit.pos("a") == 229


def test_d20_17_leaders_go_ahead_of_their_best_team_mate_and_sprinters_behind() -> None:
    riders = [
        rider("lead", 100, 1, "gc_leader"),
        rider("mate", 100, 1),
        rider("sprint", 99, 1, "sprinter"),
        rider("other", 99, 2),
        rider("solo_leader", 99, 3, "gc_leader"),
    ]
    kit = bunch(riders, [17, 6, 6, 2, 2, 3, 3])
    # mate 12 -> 112; other 4 -> 103; the team-3 leader has no rolling team-mate: 6.
    assert kit.positions() == {
        "lead": 113,
        "mate": 112,
        "sprint": 111,
        "other": 103,
        "solo_leader": 105,
    }
    assert kit.done()


def test_d20_18_each_rider_rolls_a_d20() -> None:
    kit = bunch(four(), [18, 20, 1, 7, 13])
    assert kit.positions() == {"a": 120, "b": 101, "c": 106, "d": 112}


def test_d20_19_a_non_eligible_king_six_only_moves_the_sum() -> None:
    kit = bunch(four(), [19, 6, "K", 1, 9, 1, 9, 1, 9])
    assert kit.pos("a") == 110
    assert kit.done()


def test_d20_20_any_rider_rolling_king_six_triggers_a_breakaway() -> None:
    kit = bunch(four(), [20, 6, "K", 1, 9, 1, 9, 1, 9, 30, 3])
    # a: 6 + 4 = 10 -> 110, then 30 -> 140; gone; d20 3 -> two companions: b and c by race
    # order (nobody is breakaway_role, all baroudeur 0).
    assert kit.case(140) == ["a", "b", "c"]
    assert kit.pos("d") == 109
    assert [(e.kind, e.riders) for e in kit.race.events] == [
        ("breakaway", (kit["a"], kit["b"], kit["c"]))
    ]


def test_d20_20_companions_exclude_gc_leaders_and_no_breakaway_riders() -> None:
    riders = four(b="gc_leader")
    riders[2].no_breakaway = True
    kit = bunch(riders, [20, 6, "K", 1, 9, 1, 9, 1, 9, 30, 20])
    assert kit.case(140) == ["a", "d"]


def test_d20_20_a_trigger_stopped_by_a_rider_ahead_forms_no_breakaway() -> None:
    kit = bunch([rider("lead", 125, 9), *four()], [20, 6, "K", 1, 9, 1, 9, 1, 9, 80])
    assert kit.pos("a") == 124
    assert kit.done()
    assert [e.kind for e in kit.race.events] == ["attack"]


def test_red_roll_takes_the_two_best_of_d6_poker_and_d20() -> None:
    kit = bunch(four(d="breakaway"), [1, 9, 9, 5, "J", 3])
    # body a, b, c packed from 118; d: 5, 4 (J, rouleur 0), 3 -> 9 -> 108.
    assert kit.pos("d") == 108
