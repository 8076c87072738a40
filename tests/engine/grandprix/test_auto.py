"""The default orders (``auto`` and every computer car, version 4): speed cards from 2nd gear
and the lap-2 insurance stop, the best fixed orders ``bench/auto_vs_best.py`` finds
(docs/grandprix.md, "auto against the best fixed orders"); §7.1's example orders still play
a card only from 3rd gear and stop only when a card requires it."""

from __future__ import annotations

from engine.rulesets.grandprix import cards as C
from engine.rulesets.grandprix.orders import SPEC_EXAMPLE, CarOrders
from tests.engine.grandprix.kit import placed

AUTO = CarOrders("x")
EXAMPLE = CarOrders("x", **SPEC_EXAMPLE)


def test_the_default_orders_play_cards_from_2nd_gear_with_the_insurance_stop() -> None:
    assert (AUTO.mode, AUTO.risk, AUTO.max_gear) == ("auto", "normal", 4)
    assert (AUTO.card_min_gear, AUTO.pit_strategy) == (2, "lap2_insurance")
    assert (EXAMPLE.card_min_gear, EXAMPLE.pit_strategy) == (3, "required_only")


def test_auto_plays_its_card_in_2nd_gear_before_the_hairpin() -> None:
    # G2's position: the policy downshifts to 2nd before L'Épingle; a lap-1 card is held.
    race, car = placed({"x": ("B52", 1, 3)}, orders={"x": AUTO})  # no dice: a throw fails
    x = car["x"]
    race.cards[x] = [10]
    race.piles[1] = [C.GEARBOX_FAILURE]  # drawn should the card end on a green square
    d_before = race.d(x)
    race.play_turn(x)
    assert race.gear[x] == 2
    assert race.cards[x] == []
    assert race.discards[1][0] == 0  # the card played, back to its lap's discard
    assert race.log[0][3] == "card"  # no throw before it
    assert race.d(x) - d_before >= 2 * 10 - 2  # 10 to 12 points (half-squares: 2 a step)


def test_the_spec_example_orders_keep_the_card_and_throw_in_2nd_gear() -> None:
    race, car = placed({"x": ("B52", 1, 3)}, [(6, 3, 3, 1)], orders={"x": EXAMPLE})
    x = car["x"]
    race.cards[x] = [10]
    race.play_turn(x)
    assert race.gear[x] == 2
    assert race.cards[x] == [10]
    assert race.board.names[race.loc[x]] == "B61"  # G2's throw


def test_auto_means_to_stop_on_lap_2_and_the_example_only_when_required() -> None:
    for orders, intent in ((AUTO, True), (EXAMPLE, False)):
        race, car = placed({"x": ("A64", 2, 3)}, [(3, 5, 2, 5)], orders={"x": orders})
        x = car["x"]
        race.piles[2] = [C.OIL]  # a draw would show
        race.play_turn(x)
        assert race.pit_intent[x] is intent
        assert not race.must_pit[x]
