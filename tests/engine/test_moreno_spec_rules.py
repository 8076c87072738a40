"""Rules of moreno.md that had no test of their own: R-C4, R-D5, the d20 = 6 fallback,
abandon criteria 5 and 6, and a no-breakaway rider on d20 = 20 (R-P20.20), with scripted dice."""

from __future__ import annotations

from dataclasses import replace

from engine.cycling.course import board_from_cases
from engine.rulesets.moreno.bunch import resolve_bunch
from engine.rulesets.moreno.finish import select_abandons, stage_gaps
from engine.rulesets.moreno.rules import resolve_climber, resolve_descender
from tests.engine.moreno_kit import Kit, R, rider

COL_AT_100 = board_from_cases([("plain", 100), ("col1", 100), ("plain", 100)])
DESCENT_AT_150 = board_from_cases([("plain", 150), ("descent", 100), ("plain", 50)])


def test_r_c4_a_climber_showing_the_lowest_faces_never_crashes_nor_chains() -> None:
    # T-T is the 1-1 of a dT; on a plain it would call a confirm die. H climber: min(1, 1) = 1.
    kit = Kit(
        [rider("X", 120, climber=-1), rider("Y", 120), rider("Z", 119)],
        ["T", "T"],
        board=COL_AT_100,
    )
    kit.start_turn()
    resolve_climber(kit.race, kit["X"])
    assert kit.pos("X") == 121
    assert not kit.fallen("X")
    assert not kit.fallen("Y")
    assert not kit.fallen("Z")
    assert [r[1] for r in kit.dice.rolls] == ["R-C1", "R-C1"]
    assert kit.race.crashes[kit["X"]] == []


def test_r_d5_ones_on_the_descent_dice_call_no_crash_check() -> None:
    # Descender 0: T = 0, so T-T-T sums to 0 and the move is 1 (R-D4); no confirm die, no
    # chain for the rider on the case behind.
    kit = Kit(
        [rider("X", 160, descender=0), rider("Y", 159)],
        ["T", "T", "T"],
        board=DESCENT_AT_150,
    )
    kit.start_turn()
    resolve_descender(kit.race, kit["X"])
    assert kit.pos("X") == 161
    assert not kit.fallen("X")
    assert not kit.fallen("Y")
    assert kit.done()
    assert [r[1] for r in kit.dice.rolls] == ["R-D1"] * 3


def four() -> list[R]:
    """a (team 1) 100, b (team 2) 100, c (team 1) 99, d (team 3) 99, e (team 4) 98."""
    teams = {"a": 1, "b": 2, "c": 1, "d": 3, "e": 4}
    cases = {"a": 100, "b": 100, "c": 99, "d": 99, "e": 98}
    return [rider(n, cases[n], teams[n]) for n in "abcde"]


def bunch(riders: list[R], faces: list[object]) -> Kit:
    kit = Kit(riders, faces)  # type: ignore[arg-type]
    groups = kit.start_turn()
    resolve_bunch(kit.race, groups[-1].members, len(kit.race.units) - 1)
    return kit


def test_d20_6_without_a_sprinter_falls_back_to_case_2() -> None:
    # Case 2: head a rolls 9 + A = 10; a and his team-mate c lead the pack from 110.
    kit = bunch(four(), [6, 9, "A"])
    assert kit.case(110) == ["a", "c", "b", "d"]
    assert kit.case(109) == ["e"]
    assert [r[1] for r in kit.dice.rolls] == ["R-P20", "R-P20.2", "R-P20.2"]


def test_d20_20_a_no_breakaway_rider_rolling_king_six_is_no_trigger() -> None:
    riders = four()[:4]
    riders[0].no_breakaway = True
    # a: 6 + K (4) = 10 -> 110 and no dEsc8: the others roll 1 + 9 = 10 each.
    kit = bunch(riders, [20, 6, "K", 1, 9, 1, 9, 1, 9])
    assert kit.pos("a") == 110
    assert kit.done()
    assert "breakaway" not in [e.kind for e in kit.race.events]


def abandon_field() -> Kit:
    """P0..P9 on cases 200, 197, ... 173 (gaps 0, 6, ... 54 s). GC before: P7 first (0 s),
    then P0, P1, P2, P4, P5, P6, P8, P9 (30 s), P3 last (10 000 s); P6 has 2 crashes in the
    tour, P5 one."""
    riders = [rider(f"P{i}", 200 - 3 * i) for i in range(10)]
    gc_order = ["P7", "P0", "P1", "P2", "P4", "P5", "P6", "P8", "P9", "P3"]
    for place, name in enumerate(gc_order, start=1):
        r = riders[int(name[1])]
        r.gc_rank_before = place
        r.gc_time_before = {"P7": 0, "P3": 10_000}.get(name, 30)
    riders[6].tour_crash_count = 2
    riders[5].tour_crash_count = 1
    return Kit(riders)


def test_abandon_criteria_5_most_gc_places_lost_and_6_second_to_last_arrived() -> None:
    kit = abandon_field()
    order = kit.race.race_order()
    gaps = stage_gaps(kit.race, order)
    assert [gaps[kit[f"P{i}"]] for i in range(10)] == [6 * i for i in range(10)]
    quits = select_abandons(kit.race, order, gaps, 6)
    # 1 last arrived P9; 2 last on GC P3; 3 no crash this stage -> 4 most tour crashes P6;
    # 4 P5; 5 P7 falls from 1st to 4th on GC (P0 30, P1 36, P2 42 - ahead on stage rank -,
    # P7 42); 6 second-to-last arrived: P8 (rank 9).
    assert [(kit.names[r], c) for r, c in quits] == [
        ("P9", 1),
        ("P3", 2),
        ("P6", 4),
        ("P5", 4),
        ("P7", 5),
        ("P8", 6),
    ]


def test_abandon_criterion_6_takes_the_next_one_up_when_second_to_last_is_chosen() -> None:
    kit = abandon_field()
    order = kit.race.race_order()
    # P8 is now last on GC, so criterion 2 takes him; criterion 6 moves up to P4 (P7, P6, P5
    # are taken by then).
    kit.race.entrants = tuple(
        e
        if kit.names[i] not in ("P3", "P8")
        else type(e)(
            **{
                **{f: getattr(e, f) for f in e.__dataclass_fields__},
                "gc_time_before": 10_000 if kit.names[i] == "P8" else 30,
            }
        )
        for i, e in enumerate(kit.race.entrants)
    )
    quits = select_abandons(kit.race, order, stage_gaps(kit.race, order), 6)
    assert [(kit.names[r], c) for r, c in quits] == [
        ("P9", 1),
        ("P8", 2),
        ("P6", 4),
        ("P5", 4),
        ("P7", 5),
        ("P4", 6),
    ]


def test_riders_who_entered_the_sprint_zone_together_finish_in_one_group() -> None:
    # The sprint table spread one group over 301..292 (4+ free cases between 301 and 295):
    # one group at the line. A rider who did not sprint, 3 free cases behind, is not in it.
    from engine.rulesets.moreno.finish import finish_groups

    kit = Kit([rider("S1", 301), rider("S2", 295), rider("S3", 292), rider("B", 288)])
    for name in ("S1", "S2", "S3"):
        kit.race.sprint_group[kit[name]] = 7
    order = kit.race.race_order()
    assert finish_groups(kit.race, order) == [0, 0, 0, 1]
    # Without the sprint rule: 5 free cases split S1 from S2, 2 keep S3 with S2, 3 split B.
    kit.race.sprint_group[kit["S2"]] = -1
    assert finish_groups(kit.race, order) == [0, 1, 1, 2]


def test_a_bunch_that_sprinted_in_several_groups_crosses_the_line_in_one_time() -> None:
    # The bunch reached the zone in three groups (sprints 7, 8 and 9), the table spread them:
    # riders who both sprinted, up to sprint_free_cases (6) free cases apart, are one group;
    # a sprinter 7 free cases behind the last of them starts another.
    from engine.rulesets.moreno.finish import finish_groups

    kit = Kit(
        [
            rider("W", 301),
            rider("A", 295),  # 5 free cases behind the winner
            rider("B", 291),  # 3 behind A, another sprint
            rider("C", 288),
            rider("L", 280),  # 7 free cases behind C
        ]
    )
    for name, sprint in (("W", 7), ("A", 8), ("B", 9), ("C", 9), ("L", 10)):
        kit.race.sprint_group[kit[name]] = sprint
    order = kit.race.race_order()
    assert finish_groups(kit.race, order) == [0, 0, 0, 0, 1]
    # Version 4's reading (0: only group_free_cases): each gap of 3+ free cases splits.
    kit.race.settings = replace(kit.race.settings, sprint_free_cases=0)
    assert finish_groups(kit.race, order) == [0, 1, 2, 2, 3]


def test_on_a_climb_finish_only_riders_on_one_case_share_a_group() -> None:
    from engine.rulesets.moreno.finish import finish_groups

    summit = board_from_cases([("plain", 250), ("col1", 50)])
    kit = Kit([rider("A", 301), rider("B", 301), rider("C", 300), rider("D", 297)], board=summit)
    assert finish_groups(kit.race, kit.race.race_order()) == [0, 0, 1, 2]
    flat = Kit([rider("A", 281), rider("B", 281), rider("C", 280), rider("D", 277)])
    assert finish_groups(flat.race, flat.race.race_order()) == [0, 0, 0, 0]
