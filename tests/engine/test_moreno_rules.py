"""Turn structure, groups, crashes, the sprint zone and the optional rules (moreno.md §3)."""

from __future__ import annotations

from engine.cycling.course import Course, Segment, board_from_cases
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.profile import Profile
from engine.dice import ScriptedDice
from engine.rulesets.moreno import finish_mass_start, new_race
from engine.rulesets.moreno.rules import close_up, resolve_solo, resolve_sprint
from engine.rulesets.moreno.settings import MorenoSettings
from engine.rulesets.moreno.stage import (
    Lines,
    build_units,
    end_of_turn,
    play_turn,
    run,
    start_grid,
)
from engine.rulesets.moreno.state import Group
from tests.engine.moreno_kit import SPEC_CHAIN, Kit, rider

CLIMB_AT_100 = board_from_cases([("plain", 100), ("col2", 20, "Col"), ("plain", 180)])
DESCENT_AT_150 = board_from_cases([("plain", 150), ("descent", 100), ("plain", 50)])


def test_groups_chain_over_at_most_two_free_cases() -> None:
    kit = Kit([rider("a", 100), rider("b", 97), rider("c", 93), rider("d", 92), rider("e", 90)])
    groups = kit.start_turn()
    assert [[kit.names[m] for m in g.members] for g in groups] == [["a", "b"], ["c", "d", "e"]]


def test_groups_ignore_climbers_and_fallen_riders() -> None:
    kit = Kit(
        [rider("climber", 103), rider("a", 99), rider("fallen", 98), rider("b", 97)],
        board=CLIMB_AT_100,
    )
    kit.race.status[kit["fallen"]] = 1
    units = build_units(kit.race, kit.race.race_order())
    assert units[0] == kit["climber"]
    assert isinstance(units[1], Group)
    assert [kit.names[m] for m in units[1].members] == ["a", "b"]
    assert units[2] == kit["fallen"]


def test_units_resolve_from_the_front_of_the_race() -> None:
    kit = Kit([rider("front", 120), rider("back", 60)], [5, 9, 1, 9])
    play_turn(kit.race, kit.race.race_order())
    assert [r[2] for r in kit.dice.rolls] == [1, 1, 2, 2]
    assert kit.positions() == {"front": 134, "back": 70}


def test_close_up_pulls_riders_one_or_two_free_cases_behind_up_to_the_wheel() -> None:
    kit = Kit([rider("a", 100), rider("b", 97), rider("c", 96), rider("d", 91)])
    kit.start_turn()
    assert close_up(kit.race, kit.race.race_order())
    # b closes up to 99; then c, 2 free cases behind b's new case, closes up to 98.
    assert kit.positions() == {"a": 100, "b": 99, "c": 98, "d": 91}


def test_close_up_leaves_the_sprint_zone_alone() -> None:
    kit = Kit([rider("a", 295), rider("b", 293)])
    kit.start_turn()
    assert not close_up(kit.race, kit.race.race_order())


def test_a_move_into_the_sprint_zone_stops_on_its_first_case() -> None:
    kit = Kit([rider("a", 280)], [6, 10])
    kit.start_turn()
    resolve_solo(kit.race, kit["a"], -1)
    assert kit.pos("a") == 288


def test_a_distant_solo_crashes_on_1_a_confirmed_by_1() -> None:
    kit = Kit([rider("a", 100), rider("b", 99), rider("c", 80)], [1, "A", 1, "K", 10])
    kit.start_turn()
    resolve_solo(kit.race, kit["c"], -1)
    assert kit.fallen("c")
    assert kit.race.events[0].kind == "crash"


def test_r_x1_2_a_second_confirm_die_of_1_or_2_makes_the_crash() -> None:
    # Version 5 (crash_confirm_faces = 2): 1-A, confirm 1, then a second d6 of 2 crashes...
    kit = Kit([rider("a", 100), rider("c", 80)], [1, "A", 1, 2], settings=MorenoSettings())
    kit.start_turn()
    resolve_solo(kit.race, kit["c"], -1)
    assert kit.fallen("c")
    assert kit.race.log[-1][3] == "R-X1.2"


def test_r_x1_2_a_second_confirm_die_of_3_or_more_moves_the_rider_two() -> None:
    # ... and one of 3 to 6 does not: he moves exactly 2, as after a failed confirm (R-X1).
    kit = Kit([rider("a", 100), rider("c", 80)], [1, "A", 1, 3], settings=MorenoSettings())
    kit.start_turn()
    resolve_solo(kit.race, kit["c"], -1)
    assert not kit.fallen("c")
    assert kit.pos("c") == 82
    assert not [e for e in kit.race.events if e.kind == "crash"]


def test_a_chain_roll_is_an_extra_two_for_a_rider_who_already_moved() -> None:
    kit = Kit([rider("a", 100), rider("b", 99)], [1, "A", 1, 9], settings=SPEC_CHAIN)
    kit.start_turn()
    kit.race.moved[kit["b"]] = kit.race.turn
    resolve_solo(kit.race, kit["a"], -1)
    assert kit.fallen("a")
    assert kit.pos("b") == 101


def test_a_chain_skips_fallen_riders_and_stops_at_a_gap() -> None:
    kit = Kit(
        [rider("a", 100), rider("down", 100), rider("b", 99), rider("far", 97)],
        [1, "A", 1, "Q"],
        settings=SPEC_CHAIN,
    )
    kit.start_turn()
    kit.race.status[kit["down"]] = 1
    resolve_solo(kit.race, kit["a"], -1)
    assert kit.fallen("b")
    assert kit.pos("far") == 97
    assert kit.done()


def test_a_fallen_rider_restarts_on_a_9_and_his_crash_gets_its_severity() -> None:
    kit = Kit([rider("a", 100)], [1, "A", 1, "K", "Q", 9])
    kit.start_turn()
    resolve_solo(kit.race, kit["a"], -1)
    for _ in range(3):
        kit.race.units = build_units(kit.race, kit.race.race_order())
        play_turn(kit.race, kit.race.race_order())
    assert kit.pos("a") == 102
    assert [c.severity for c in kit.race.crashes[kit["a"]]] == [3]


def test_a_rider_still_down_at_the_end_gets_rolls_made_plus_one() -> None:
    kit = Kit([rider("w", 299), rider("a", 100)], [5, "K"])
    kit.race.crash(kit["a"], "test")
    # Turn 1: w sprints (d6 5: +1) over the line; a rolls K and stays down.
    order, _ = run(kit.race)
    out = finish_mass_start(kit.race, order, 0)
    assert out.results[1].crashes[0].severity == 2
    assert kit.done()


def test_shower_freezes_riders_too_far_behind_the_leader() -> None:
    kit = Kit(
        [rider("a", 100), rider("b", 40)],
        [5, 9, 5, 9, 5, 9, 5, 9],
        settings=MorenoSettings(shower_cases=60),
    )
    lines = Lines(kit.race)
    play_turn(kit.race, kit.race.race_order())
    end_of_turn(kit.race, lines)
    assert kit.race.status[kit["b"]] == 0
    play_turn(kit.race, kit.race.race_order())
    end_of_turn(kit.race, lines)
    assert kit.positions() == {"a": 128, "b": 68}
    assert kit.race.status[kit["b"]] == 0
    kit.race.pos[kit["a"]] = 129  # one more case: b is now 61 behind
    end_of_turn(kit.race, lines)
    assert kit.race.status[kit["b"]] == 2


def test_final_km_neutralisation_gives_a_crashed_rider_his_groups_gap() -> None:
    kit = Kit(
        [rider("w", 299), rider("x", 294), rider("y", 292), rider("z", 292)],
        [1, 1, "A", 1, "K", "K", "K"],
        settings=MorenoSettings(final_km_neutralisation_cases=12),
    )
    # w (alone) sprints 1 -> 300; group x, y, z sprints 1 -> 295/293/293 (sprinter 0: +1)...
    order, _ = run(kit.race)
    out = finish_mass_start(kit.race, order, 0)
    gaps = {r.rider_id: r.gap_seconds for r in out.results}
    assert gaps[kit["x"] + 1] == 5  # 295..299 in the zone
    assert gaps[kit["y"] + 1] == 7


def test_summit_event_lists_every_rider_in_crossing_order() -> None:
    kit = Kit(
        [rider("a", 118, climber=4), rider("b", 117, climber=0), rider("c", 90)],
        # Turn 1: a 5,5 -> 131 (over the summit at 120), b 2,2 -> 119, c 5+9 -> 104.
        # Turn 2: a 4+9 on the plain, b 5,5 -> 124 (over), c (now on the col) 5,5 -> 109.
        [5, 5, 2, 2, 5, 9, 4, 9, 5, 5, 5, 5],
        board=CLIMB_AT_100,
    )
    lines = Lines(kit.race)
    for _ in range(2):
        play_turn(kit.race, kit.race.race_order())
        end_of_turn(kit.race, lines)
    lines.finish(kit.race.race_order())
    summit = [e for e in kit.race.events if e.kind == "summit"]
    assert len(summit) == 1
    assert summit[0].data == {"case": 120, "climb": "Col", "terrain": "col2"}
    assert summit[0].turn == 1
    assert [kit.names[r] for r in summit[0].riders] == ["a", "b", "c"]


def test_intermediate_sprint_crossing_order_is_turn_then_race_order() -> None:
    board = board_from_cases([("plain", 300)], intermediate_sprint_cases=[150])
    kit = Kit(
        [rider("a", 140), rider("b", 130), rider("c", 100)],
        [4, 9, 6, 10, 6, 10, 6, 9, 6, 10, 6, 10],
        board=board,
    )
    lines = Lines(kit.race)
    for _ in range(2):
        play_turn(kit.race, kit.race.race_order())
        end_of_turn(kit.race, lines)
    lines.finish(kit.race.race_order())
    # Turn 1: a 4+9 -> 153 (over 150), b 6+10 -> 146, c 6+10 -> 116.
    # Turn 2: a 6+9 -> 168, b 6+10 -> 162 (over), c 6+10 -> 132.
    ev = next(e for e in kit.race.events if e.kind == "intermediate_sprint")
    assert ev.turn == 1
    assert [kit.names[r] for r in ev.riders] == ["a", "b", "c"]
    assert kit.positions() == {"a": 168, "b": 162, "c": 132}


def test_the_start_grid_packs_four_per_case_with_the_yellow_jersey_first() -> None:
    course = Course("c", "flat", 20, (Segment("plain", 20),))
    entrants = tuple(Entrant(rider_id=i, team_id=1, bib=i, profile=Profile()) for i in range(1, 11))
    race = new_race(StageInputs(course, entrants, yellow_jersey=6), ScriptedDice([]))
    start_grid(race)
    assert [race.ids[r] for r in race.cases[race.off]] == [6, 1, 2, 3]
    assert [race.ids[r] for r in race.cases[race.off - 1]] == [4, 5, 7, 8]
    assert [race.ids[r] for r in race.cases[race.off - 2]] == [9, 10]


def sprint_group(selection: str) -> Kit:
    riders = [rider(f"r{i}", 292 - i // 4) for i in range(13)]
    riders.append(rider("fast", 288, sprinter=4))
    kit = Kit(riders, [6], settings=MorenoSettings(sprint_selection=selection))
    groups = kit.start_turn()
    assert len(groups) == 1
    resolve_sprint(kit.race, groups[0].members)
    return kit


def test_the_best_sprinters_of_a_group_in_the_zone_sprint_by_default() -> None:
    kit = sprint_group("best_sprinters")
    # 14 riders, 12 sprint (d6 6): "fast" (sprinter 4) +6, r0..r10 +1; r11 and r12 are
    # packed behind the rearmost sprinter (291).
    assert kit.pos("fast") == 294
    assert kit.pos("r0") == 293
    assert (kit.pos("r11"), kit.pos("r12")) == (290, 290)


def test_the_spec_reading_lets_the_first_twelve_in_race_order_sprint() -> None:
    kit = sprint_group("race_order")
    # r0..r11 sprint (+1); r12 and "fast" are packed behind the rearmost sprinter (291).
    assert kit.pos("r11") == 291
    assert kit.pos("fast") == 290
