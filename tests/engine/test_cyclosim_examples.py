"""The worked examples of cyclosim.md §7, one test each, with scripted dice."""

from __future__ import annotations

from engine.cycling.course import board_from_cases
from engine.rulesets.cyclosim.finish import outcome
from engine.rulesets.cyclosim.orders import RiderOrders
from engine.rulesets.cyclosim.sheet import (
    ELIMINATED,
    FINISHED,
    OUT,
    SIT_A,
    SIT_B,
    SIT_C,
    pi_table,
)
from engine.rulesets.cyclosim.stage import (
    auction,
    contract,
    end_of_turn,
    leader_bid,
    move,
    relays,
    resolve_file,
)
from tests.engine.cyclosim_kit import Kit

CLIMB = board_from_cases([("plain", 50), ("col1", 100)])
DESCENT = board_from_cases([("plain", 50), ("descent", 100)])


def test_the_standard_sheet_reads_pi_from_pe() -> None:
    table = pi_table(60)
    assert [table[pe] for pe in (60, 48, 47, 36, 35, 24, 23, 15, 14, 6, 5, 1, 0)] == [
        6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0,
    ]  # fmt: skip


def test_v1a_a_roll_over_the_cost_moves_the_whole_path_free() -> None:
    k = Kit([("R", 50, 1, 52)], [5, 6])
    assert contract(k.race, k["R"], k.path("R", 10), 0, "contract", SIT_A) == 0
    assert k.cell("R") == (60, 1)
    assert k.pe("R") == 52


def test_v1b_a_short_roll_spends_the_difference() -> None:
    k = Kit([("R", 50, 1, 50)], [3, 5])
    contract(k.race, k["R"], k.path("R", 12), 0, "contract", SIT_A)
    assert k.cell("R") == (62, 1)
    assert k.pe("R") == 46


def test_v1c_a_low_roll_spends_pi_and_moves_a_prefix() -> None:
    k = Kit([("R", 50, 1, 40)], [1, 2])
    assert contract(k.race, k["R"], k.path("R", 13), 0, "contract", SIT_A) == 1
    assert k.pe("R") == 35
    assert k.cell("R") == (60, 1)


def test_v2_a_climb_costs_two_per_row() -> None:
    k = Kit([("R", 50, 1, 30)], [2, 4], board=CLIMB)
    contract(k.race, k["R"], k.path("R", 7), 0, "contract", SIT_A)
    assert k.pe("R") == 26
    assert k.cell("R") == (55, 1)


def test_v3_a_descent_shortfall_crashes_for_k_turns() -> None:
    k = Kit([("R", 50, 1, 20)], [1, 3], board=DESCENT)
    assert contract(k.race, k["R"], k.path("R", 14), 0, "contract", SIT_A) == 2
    assert k.pe("R") == 17
    assert k.race.status[k["R"]] == OUT
    assert k.race.crashes[k["R"]] == [(1, 60, 4)]
    assert k.race.return_turn[k["R"]] == 6


def test_v3_a_crash_of_more_than_six_turns_eliminates() -> None:
    k = Kit([("R", 50, 1, 20)], [1, 1], board=DESCENT)
    contract(k.race, k["R"], k.path("R", 20), 0, "contract", SIT_A)
    assert k.race.status[k["R"]] == ELIMINATED
    assert k.race.crashes[k["R"]] == [(1, 59, 11)]


def test_v3_a_descent_contract_may_cost_more_than_pe() -> None:
    k = Kit([("R", 50, 1, 4)], [4, 4], board=DESCENT)
    assert contract(k.race, k["R"], k.path("R", 9), 0, "contract", SIT_A) == 0
    assert k.cell("R") == (59, 1)
    assert k.pe("R") == 4


def _file(k: Kit, lead: str, follower: str) -> None:
    k.race.fol[k[lead]], k.race.pred[k[follower]] = k[follower], k[lead]


def test_v4_a_follower_within_ten_rides_free() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 20)])
    _file(k, "L", "F")
    move(k.race, k["L"], k.path("L", 9), SIT_A)
    assert resolve_file(k.race, k["L"], set()) == []
    assert k.cell("F") == (58, 1)
    assert k.pe("F") == 20
    assert k.dice.rolls == []


def test_v4_a_short_pull_drops_the_follower_before_he_moves() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 20)])
    _file(k, "L", "F")
    move(k.race, k["L"], k.path("L", 3), SIT_A)
    assert resolve_file(k.race, k["L"], set()) == [k["F"]]
    assert k.cell("F") == (49, 1)


def test_v4_a_follower_without_the_energy_is_dropped() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 8)])
    _file(k, "L", "F")
    move(k.race, k["L"], k.path("L", 9), SIT_A)
    assert resolve_file(k.race, k["L"], set()) == [k["F"]]


def test_v5_beyond_the_threshold_a_short_roll_drops_the_follower() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 25)], [2, 4])
    _file(k, "L", "F")
    move(k.race, k["L"], k.path("L", 13), SIT_A)
    resolve_file(k.race, k["L"], set())
    assert k.cell("F") == (61, 1)
    assert k.pe("F") == 21
    assert k.race.pred[k["F"]] == -1
    assert k.race.dropped_turn[k["F"]] == 1


def test_v5_beyond_the_threshold_a_good_roll_keeps_the_wheel() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 25)], [3, 4])
    _file(k, "L", "F")
    move(k.race, k["L"], k.path("L", 13), SIT_A)
    resolve_file(k.race, k["L"], set())
    assert k.cell("F") == (62, 1)
    assert k.pe("F") == 21
    assert k.race.pred[k["F"]] == k["L"]


def test_v6_an_attack_goes_round_the_leader() -> None:
    k = Kit([("L", 50, 1, 60), ("F", 49, 1, 40)], [2, 3])
    move(k.race, k["L"], k.path("L", 8), SIT_A)
    path = k.path("F", 14)
    assert path[8] == (58 + k.race.off, 0)
    assert len(path) == 14
    contract(k.race, k["F"], path, 2, "attack", SIT_A)
    assert k.pe("F") == 35
    assert k.cell("F") == (61, 0)


def test_v7_recovery_follows_the_situation_tables() -> None:
    k = Kit([("L", 50, 1, 50), ("F1", 40, 1, 50), ("F2", 30, 1, 50), ("S", 20, 0, 60)])
    move(k.race, k["L"], k.path("L", 4), SIT_A)
    move(k.race, k["F1"], k.path("F1", 6), SIT_B)
    move(k.race, k["F2"], k.path("F2", 8), SIT_C)
    move(k.race, k["S"], [], SIT_A)
    end_of_turn(k.race)
    assert (k.pe("L"), k.pe("F1"), k.pe("F2"), k.pe("S")) == (51, 51, 52, 60)


def test_v8_the_furthest_bid_wins_and_ties_go_by_road_order() -> None:
    k = Kit([("A", 40, 0, 60), ("B", 38, 1, 60)])
    a, b = leader_bid(k.race, k["A"]), leader_bid(k.race, k["B"])
    assert max((a, b), key=lambda x: (x[0], k.race.pos[x[1]])) is a


def test_v11_the_ai_takes_a_free_wheel_within_two_rows() -> None:
    k = Kit([("R", 100, 1, 44), ("Z", 109, 0, 60, 2)], [3, 3])
    k.race.moved[k["Z"]] = 1
    bid = leader_bid(k.race, k["R"])
    assert bid[0] - k.race.off == 108
    assert bid[2][-1] == (108 + k.race.off, 0)
    assert len(bid[2]) == 8
    contract(k.race, k["R"], bid[2], 0, "contract", SIT_A)
    assert k.pe("R") == 42
    end_of_turn(k.race)
    assert k.race.pred[k["R"]] == k["Z"]


def test_v12_finish_time_counts_the_fraction_of_the_last_turn() -> None:
    k = Kit([("L", 292, 1, 60), ("S", 295, 0, 60)], board=board_from_cases([("plain", 300)]))
    k.race.turn = 31
    assert k.race.turn_s == 450
    move(k.race, k["L"], k.path("L", 12), SIT_A)
    move(k.race, k["S"], k.path("S", 10), SIT_A)
    assert k.race.finish_time[k["L"]] == 13800
    assert k.race.finish_time[k["S"]] == 13725


def _v9(grant: str) -> Kit:
    """V9: Y (team 2) moves to (69,0), then X (team 1, no follower) ends at (70,0)."""
    k = Kit([("Y", 60, 0, 60, 2), ("X", 62, 1, 60)], [5, 5, 4, 4])
    k.race.orders[k["X"]] = RiderOrders(grant_wheel=grant)
    move(k.race, k["Y"], k.path("Y", 9), SIT_A)
    move(k.race, k["X"], k.path("X", 8, 0), SIT_A)
    assert (k.cell("Y"), k.cell("X")) == ((69, 0), (70, 0))
    end_of_turn(k.race)
    return k


def test_v9_a_refused_rabat_gives_an_attack_right_used_right_after_the_rabater() -> None:
    k = _v9("team")
    x, y = k["X"], k["Y"]
    assert k.race.attack_right[y] == x
    assert k.race.pred[y] == -1
    k.race.turn = 2
    auction(k.race)
    # X's unit first (the furthest bid), then Y attacks at once with +2, no auction.
    log = [(turn, unit, rid, purpose) for turn, unit, rid, purpose, _, _ in k.race.log]
    assert log == [
        (2, 1, x + 1, "contract"),
        (2, 1, x + 1, "contract"),
        (2, 2, y + 1, "attack"),
        (2, 2, y + 1, "attack"),
    ]
    assert k.cell("X") == (80, 0)
    # Expected pace with +2: cap 7 + 2 + 6 = 15; (4,4) + 2 = 10, 10 + 6 >= 15 -> spend 5.
    assert k.cell("Y")[0] == 84
    assert k.pe("Y") == 55
    assert [e.kind for e in k.race.events] == ["attack"]


def test_v9_a_granted_rabat_takes_the_rider_behind_in_the_wheel() -> None:
    k = _v9("all")
    assert k.race.pred[k["Y"]] == k["X"]
    assert k.race.fol[k["X"]] == k["Y"]
    assert k.race.attack_right[k["Y"]] == -1


def test_v10_a_relay_swaps_the_tired_leader_with_a_fresh_follower() -> None:
    k = Kit([("L", 80, 1, 20), ("F1", 79, 1, 45), ("F2", 78, 1, 60)])
    _file(k, "L", "F1")
    _file(k, "F1", "F2")
    relays(k.race, [k["L"]])
    assert (k.cell("F1"), k.cell("L"), k.cell("F2")) == ((80, 1), (79, 1), (78, 1))
    assert k.race.pred[k["F1"]] == -1
    assert k.race.pred[k["L"]] == k["F1"]
    assert k.race.fol[k["F1"]] == k["L"]
    assert k.race.pred[k["F2"]] == k["L"]
    assert k.race.fol[k["L"]] == k["F2"]
    assert k.race.relayed[k["L"]] == k.race.relayed[k["F1"]] == 1
    # Neither swaps again this turn, though F2 has far more PE than F1.
    relays(k.race, [k["F1"]])
    assert (k.cell("F1"), k.cell("L"), k.cell("F2")) == ((80, 1), (79, 1), (78, 1))


def test_v10_on_a_climb_a_relay_reaches_one_row_only() -> None:
    k = Kit([("L", 80, 1, 20), ("X", 79, 1, 25), ("F1", 78, 1, 45)], board=CLIMB)
    _file(k, "L", "X")
    _file(k, "X", "F1")
    relays(k.race, [k["L"]])
    assert (k.cell("L"), k.cell("X"), k.cell("F1")) == ((80, 1), (79, 1), (78, 1))
    k = Kit([("L", 80, 1, 20), ("X", 79, 1, 30), ("F1", 78, 1, 45)], board=CLIMB)
    _file(k, "L", "X")
    _file(k, "X", "F1")
    relays(k.race, [k["L"]])
    assert (k.cell("X"), k.cell("L"), k.cell("F1")) == ((80, 1), (79, 1), (78, 1))


def _crossed(k: Kit, times: tuple[int, ...]) -> list[tuple[int, int]]:
    race = k.race
    for seq, (name, t) in enumerate(zip("ABCD", times, strict=True)):
        r = k[name]
        race.status[r] = FINISHED
        race.finish_time[r] = race.cross_time[r] = t
        race.finish_seq[r] = seq
    out = outcome([race], ruleset="cyclosim", seed=0, log=[], events=[], turns=31)
    return [(r.gap_seconds, r.final_group) for r in out.results]


def test_gaps_count_the_holes_between_groups_not_the_length_of_the_bunch() -> None:
    """§5 [D] bunch gaps: 6 rows (270 s at turn_s 450) chain riders into one group; a group's
    gap is the one ahead plus the part of the hole in front of it beyond those 270 s."""
    k = Kit([("A", 1, 0, 60), ("B", 2, 0, 60), ("C", 3, 0, 60), ("D", 4, 0, 60)])
    # 13500 - 13100 = 400 s > 270 s: a new group, 400 - 270 = 130 s down.
    assert _crossed(k, (13000, 13100, 13500, 13600)) == [(0, 0), (0, 0), (130, 1), (130, 1)]


def test_on_a_climb_finish_one_row_chains_riders_and_gaps_start_at_one_second() -> None:
    """§5 [D]: up a climb, riders at most 1 row (45 s) apart share a time; a 46 s hole costs 1 s."""
    board = board_from_cases([("plain", 280), ("col1", 20)])
    k = Kit([("A", 1, 0, 60), ("B", 2, 0, 60), ("C", 3, 0, 60), ("D", 4, 0, 60)], board=board)
    assert _crossed(k, (13000, 13045, 13091, 13491)) == [(0, 0), (0, 0), (1, 1), (356, 2)]
