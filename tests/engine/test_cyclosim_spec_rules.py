"""Rules of cyclosim.md that had no test of their own: R-F7, R-X2 with R-F1 (a crash drops
the follower), R-RC for a finisher, and the §3.12 team time trial, with scripted dice."""

from __future__ import annotations

from engine import simulate
from engine.cycling.course import Course, Segment, board_from_cases
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.profile import Profile
from engine.dice import ScriptedDice
from engine.rulesets.cyclosim.settings import CyclosimRider, CyclosimSettings
from engine.rulesets.cyclosim.sheet import FINISHED, SIT_A
from engine.rulesets.cyclosim.stage import crash, end_of_turn, follower_attacks, move
from tests.engine.cyclosim_kit import Kit

DESCENT = board_from_cases([("plain", 50), ("descent", 100)])


def linked(board: object = DESCENT) -> Kit:
    """P at (60, 1), his follower F at (59, 1)."""
    k = Kit([("P", 60, 1, 40), ("F", 59, 1, 40)], board=board)  # type: ignore[arg-type]
    p, f = k["P"], k["F"]
    k.race.pred[f], k.race.fol[p] = p, f
    return k


def test_r_f7_a_rider_dropped_in_turn_t_gets_no_attack_bonus_in_t_and_t_plus_1() -> None:
    k = linked()
    f = k["F"]
    assert follower_attacks(k.race, f) == -1  # free to attack (no window: the default)
    k.race.dropped_turn[f] = k.race.turn
    assert follower_attacks(k.race, f) == -2
    k.race.turn += 1
    assert follower_attacks(k.race, f) == -2
    k.race.turn += 1
    assert follower_attacks(k.race, f) == -1


def test_r_x2_a_crash_drops_the_follower_so_r_f7_applies_to_him() -> None:
    k = linked()
    f = k["F"]
    crash(k.race, k["P"], 3)
    assert k.race.pred[f] == -1
    assert k.race.dropped_turn[f] == k.race.turn
    assert follower_attacks(k.race, f) == -2


def test_r_rc_a_rider_who_finishes_recovers_nothing_in_his_last_turn() -> None:
    # A leader moving 4 flat cells recovers 1 (table A, V7), unless the move crossed the line.
    k = Kit([("W", 296, 1, 50), ("L", 100, 1, 50)])
    move(k.race, k["W"], k.path("W", 4), SIT_A)
    move(k.race, k["L"], k.path("L", 4), SIT_A)
    assert k.race.status[k["W"]] == FINISHED
    end_of_turn(k.race)
    assert k.pe("W") == 50
    assert k.pe("L") == 51


TTT_5 = Course("ttt", "TTT", 5, (Segment("plain", 5),))


def ttt(counting: int) -> list[tuple[int, int]]:
    """One team of four, profiles off, every die a 6. 10 rows, turn_s = 450.

    Turn 1: the leader (row 0, PI 6) bids `expected` = 13 rows: 12 + 6 >= 13 (spends 1), over
    the line after 10 cost points of the 18 his roll and PI could pay (R-FT1 [D] in a time
    trial): 10/18 · 450 = 250 s. Riders 2 and 3 follow beyond 10 cost points with +2 (14 >= 13)
    in his unit: his time (R-FT2). Rider 4, with 10 PE (PI 2), cannot pay the 13 of the wheel
    (R-F2): dropped, he bids 9 rows (7 + 2) and rolls 12: row 6. Turn 2: 9 rows more, over the
    line after 4 of the 12 his roll pays: (1 + 4/12) · 450 = 600 s.
    """
    entrants = tuple(Entrant(rider_id=i, team_id=1, bib=i, profile=Profile()) for i in (1, 2, 3, 4))
    settings = CyclosimSettings(
        lanes=3, profiles=False, overnight_recovery=0, ttt_counting_rider=counting
    )
    dice = ScriptedDice([6] * 10)
    out = simulate(
        "cyclosim",
        StageInputs(TTT_5, entrants, settings=settings, extras={4: CyclosimRider(pe_consumed=50)}),
        0,
        dice=dice,
    )
    assert dice.remaining == 0
    return [(r.rider_id, r.gap_seconds) for r in out.results]


def test_ttt_the_team_time_is_its_third_rider_and_the_riders_behind_keep_their_own() -> None:
    assert ttt(3) == [(1, 0), (2, 0), (3, 0), (4, 600 - 250)]


def test_ttt_counting_the_fourth_rider_gives_the_whole_team_his_time() -> None:
    assert ttt(4) == [(1, 0), (2, 0), (3, 0), (4, 0)]


def test_r_f5_downhill_a_follower_lets_go_a_wheel_his_safe_pace_would_not_risk() -> None:
    """[D] L goes 20 descent cells; F (PI 6) follows free up to 10 + 6 = 16 and his `safe`
    descent cap with +2 is max(2 + 2 + 6, 12) + 6 = 18 < 20: dropped before moving, no dice."""
    from engine.rulesets.cyclosim.stage import resolve_file

    k = Kit([("L", 60, 1, 60), ("F", 59, 1, 60)], board=DESCENT)
    p, f = k["L"], k["F"]
    k.race.pred[f], k.race.fol[p] = p, f
    move(k.race, p, k.path("L", 20), SIT_A)
    assert resolve_file(k.race, p, set()) == [f]
    assert k.cell("F") == (59, 1)
    assert k.race.pred[f] == -1
    assert k.dice.remaining == 0
    assert k.race.crashes[f] == []
