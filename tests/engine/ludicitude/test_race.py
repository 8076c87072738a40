"""Whole Ludicitude races: setup, round order, end, classification, settings and orders
(ludicitude.md §4, §7.1), with dice that a test can follow."""

from __future__ import annotations

import pytest

from engine.dice import Die, Face, ScriptedDice
from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.orders import (
    CarOrders,
    LudicitudeSettings,
    OrdersError,
    orders_from_data,
)
from engine.rulesets.ludicitude.outcome import (
    BRAKE_LOST,
    ELIMINATED,
    FINISHED,
    NOT_CLASSIFIED,
    RECOVERY,
    SPEED_COST,
    CarEntry,
    RaceInputs,
)
from engine.rulesets.ludicitude.race import classify
from engine.rulesets.ludicitude.rules import resolve_move
from tests.engine.ludicitude.kit import F, SameFaces, cars, ring


class FacesByCar:
    """Each car (by entry index) shows its own face on every d6."""

    def __init__(self, *faces: int) -> None:
        self.faces = faces

    def roll(self, die: Die, *, turn: int, unit: int, rider_id: int | None, rule_id: str) -> Face:
        if die.name != "d6":
            return die.faces[0]
        assert rider_id is not None
        return self.faces[rider_id]


def _rounds(out: object) -> dict[int, list[str]]:
    order: dict[int, list[str]] = {}
    for rnd, car, _ in out.dice:  # type: ignore[attr-defined]
        order.setdefault(rnd, []).append(car)
    return order


def test_lu1_every_car_starts_at_speed_1_so_round_1_rolls_one_die_each() -> None:
    out = simulate(RaceInputs(ring(), cars("normal", "safe", "aggressive")), None, 5)
    first = [faces for rnd, _, faces in out.dice if rnd == 1]
    assert [len(f) for f in first] == [1, 1, 1]


def test_lu2_leader_first_from_round_2_and_ties_keep_the_previous_order() -> None:
    # a (face 5) never moves, b (face 1) always does; c (face 6) never moves either.
    inputs = RaceInputs(
        ring(),
        (CarEntry("a", standing=3), CarEntry("b", standing=2), CarEntry("c", standing=1)),
        LudicitudeSettings(first_round_order="reverse_standings", max_rounds=3),
    )
    out = simulate(inputs, FacesByCar(5, 1, 6), 0)
    assert _rounds(out) == {1: ["a", "b", "c"], 2: ["b", "a", "c"], 3: ["b", "a", "c"]}


def test_lu2_random_round_1_order_is_drawn_from_the_seed() -> None:
    inputs = RaceInputs(ring(), cars(*["normal"] * 12))
    orders = {simulate(inputs, None, seed).start_order for seed in range(20)}
    assert len(orders) > 15
    assert simulate(inputs, None, 3).start_order == simulate(inputs, None, 3).start_order


def test_lu2_random_order_with_scripted_dice_is_a_fisher_yates_of_the_script() -> None:
    # Three cars: d3 picks the last place (3 -> car 3 stays), d2 the middle (1 -> swap 1, 2).
    script = ScriptedDice([3, 1, 6, 6, 6])
    inputs = RaceInputs(
        ring(), cars("normal", "normal", "normal"), LudicitudeSettings(max_rounds=1)
    )
    out = simulate(inputs, script, 0)
    assert out.start_order == ("lud-2", "lud-1", "lud-3")
    assert [r[1] for r in script.rolls] == ["LU-2", "LU-2", "LU-3", "LU-3", "LU-3"]


def test_s5_reverse_standings_puts_unranked_then_the_lowest_ranked_first() -> None:
    entries = (
        CarEntry("leader", standing=1),
        CarEntry("new"),
        CarEntry("third", standing=3),
        CarEntry("second", standing=2),
    )
    settings = LudicitudeSettings(first_round_order="reverse_standings", max_rounds=1)
    script = ScriptedDice([6, 6, 6, 6])  # no tie: nothing drawn, one die per car
    out = simulate(RaceInputs(ring(), entries, settings), script, 1)
    assert out.start_order == ("new", "third", "second", "leader")
    assert script.remaining == 0


def test_s5_ties_in_the_standings_are_drawn() -> None:
    entries = (CarEntry("a", standing=1), CarEntry("b", standing=2), CarEntry("c", standing=2))
    settings = LudicitudeSettings(first_round_order="reverse_standings", max_rounds=1)
    keep = simulate(RaceInputs(ring(), entries, settings), ScriptedDice([2, 6, 6, 6]), 1)
    swap = simulate(RaceInputs(ring(), entries, settings), ScriptedDice([1, 6, 6, 6]), 1)
    assert keep.start_order == ("b", "c", "a")
    assert swap.start_order == ("c", "b", "a")


def test_lu11_cars_still_racing_after_max_rounds_are_not_classified() -> None:
    inputs = RaceInputs(ring(), cars("normal", "normal"), LudicitudeSettings(max_rounds=4))
    out = simulate(inputs, FacesByCar(5, 1), 0)
    assert out.rounds == 4
    assert [(r.car, r.status, r.rounds) for r in out.results] == [
        ("lud-2", NOT_CLASSIFIED, 4),
        ("lud-1", NOT_CLASSIFIED, 4),
    ]
    assert out.results[0].position > out.results[1].position == 0
    assert out.results[0].reason == "still racing after 4 rounds"


def test_lu12_finishers_then_not_classified_then_eliminated_later_first_on_ties() -> None:
    status = [FINISHED, ELIMINATED, NOT_CLASSIFIED, ELIMINATED, FINISHED, ELIMINATED]
    pos = [48, 20, 30, 20, 48, 25]
    out_seq = [0, 1, 0, 2, 0, 3]
    assert classify([4, 0], [2], pos, status, out_seq) == [4, 0, 2, 5, 3, 1]


def test_an_eliminated_car_ends_on_the_card_where_its_brake_ran_out() -> None:
    # Every die a 1: the aggressive driver reaches the hairpin of lap 2 (p = 28, card 4
    # MAX2) at speed 4 with 1 brake left; the move also costs a point on card 6 (LU-5 counts
    # every card entered), but the car is out on card 4.
    out = simulate(RaceInputs(ring(), cars("aggressive")), SameFaces(1), 0)
    (r,) = out.results
    assert (r.status, r.rounds, r.position, r.card, r.brake) == (ELIMINATED, 8, 28, 4, -2)
    assert r.reason == "brake ran out on card 4 (MAX2) in round 8"
    assert [(e.kind, e.position, e.amount, e.brake) for e in out.events[-3:]] == [
        ("brake_lost", 28, 2, -1),
        ("brake_lost", 30, 1, -2),
        ("eliminated", 28, 3, -2),
    ]


def test_brake_left_is_9_less_what_the_events_took_plus_what_they_gave() -> None:
    inputs = RaceInputs(ring(), cars("safe", "normal", "aggressive", "normal", "aggressive"))
    for seed in range(30):
        out = simulate(inputs, None, seed)
        for r in out.results:
            mine = [e for e in out.events if e.car == r.car]
            lost = sum(e.amount for e in mine if e.kind == BRAKE_LOST)
            lost += sum(1 for e in mine if e.kind == SPEED_COST)
            gained = sum(e.amount for e in mine if e.kind == RECOVERY)
            assert r.brake == 9 - lost + gained, (seed, r.car)
            assert len(r.speeds) == r.rounds - (r.status != NOT_CLASSIFIED)
            assert all(abs(a - b) <= 2 for a, b in zip((1, *r.speeds), r.speeds, strict=False))
            costs = sum(
                1 for a, b in zip((1, *r.speeds), r.speeds, strict=False) if abs(a - b) == 2
            )
            assert costs == sum(1 for e in mine if e.kind == SPEED_COST)


def test_max_speed_caps_the_speeds_chosen() -> None:
    entries = (CarEntry("slow", CarOrders(max_speed=2)), CarEntry("free"))
    for seed in range(10):
        out = simulate(RaceInputs(ring(), entries), None, seed)
        assert max(out.result_of("slow").speeds) <= 2
        assert max(out.result_of("free").speeds) > 2


def test_interactive_orders_drive_as_auto_at_resolution() -> None:
    auto = RaceInputs(ring(), (CarEntry("x", CarOrders(mode="auto")), CarEntry("y")))
    inter = RaceInputs(ring(), (CarEntry("x", CarOrders(mode="interactive")), CarEntry("y")))
    assert simulate(auto, None, 9).results == simulate(inter, None, 9).results


def test_laps_setting_moves_the_finish_of_a_closed_circuit() -> None:
    one = RaceInputs(ring(), cars("normal"), LudicitudeSettings(laps=1))
    assert one.finish == 24
    out = simulate(one, None, 2)
    assert out.finish == 24
    assert out.laps == 1
    assert RaceInputs(ring(), cars("normal")).finish == F


def test_limit_basis_marker_compares_the_limits_with_the_speed_marker() -> None:
    # L4 again: speed 2, one card onto MIN3 costs 3 - 2 = 1 with the marker (2 with m = 1).
    move = resolve_move(ring(), position=7, brake=6, moved=1, finish=F, speed=2)
    assert move.losses == ((8, 1),)
    marker = RaceInputs(ring(), cars("normal"), LudicitudeSettings(limit_basis="marker"))
    distance = RaceInputs(ring(), cars("normal"))
    assert simulate(marker, None, 4).results != simulate(distance, None, 4).results


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"car": "lud-3", "risk": "reckless"}, "car lud-3, field risk: 'reckless' is not one of"),
        ({"car": "lud-3", "max_speed": 7}, "car lud-3, field max_speed: 7 is not a speed 1..6"),
        ({"car": "lud-3", "max_speed": True}, "car lud-3, field max_speed"),
        ({"car": "lud-3", "mode": "manual"}, "car lud-3, field mode: 'manual' is not one of"),
        ({"car": "lud-3", "gear": 3}, "car lud-3, field gear: unknown field"),
        ({"risk": "safe"}, "car ?, field car: None is not a car id"),
    ],
)
def test_bad_orders_name_the_car_and_the_field(data: object, message: str) -> None:
    with pytest.raises(OrdersError, match=message.replace("?", r"\?")):
        orders_from_data(data)


def test_orders_take_their_defaults() -> None:
    assert orders_from_data({"car": "lud-3"}) == ("lud-3", CarOrders("auto", "normal", 6))
    assert orders_from_data({"car": 7, "risk": "safe", "max_speed": 4}) == (
        "7",
        CarOrders("auto", "safe", 4),
    )


def test_settings_refuse_unknown_values() -> None:
    with pytest.raises(ValueError, match="first_round_order"):
        LudicitudeSettings(first_round_order="alphabetical")
    with pytest.raises(ValueError, match="limit_basis"):
        LudicitudeSettings(limit_basis="gear")
    with pytest.raises(ValueError, match="max_rounds"):
        LudicitudeSettings(max_rounds=0)


def test_inputs_refuse_duplicate_cars_and_laps_on_an_open_circuit() -> None:
    with pytest.raises(ValueError, match="unique"):
        RaceInputs(ring(), (CarEntry("a"), CarEntry("a")))
    from dataclasses import replace

    open_road = replace(ring(), circuit="open", laps=1)
    with pytest.raises(ValueError, match="open circuit is raced once"):
        RaceInputs(open_road, (CarEntry("a"),), LudicitudeSettings(laps=2))
