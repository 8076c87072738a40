"""Rules of §2 and §4 beyond the worked examples: piles, policy table, incidents, orders,
track validation V1-V6."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.motor import TrackError, parse_document
from engine.rulesets.grandprix import cards as C
from engine.rulesets.grandprix.orders import OrdersError, orders_from_dict
from engine.rulesets.grandprix.policy import RISK_TABLE, dice_sums
from engine.rulesets.grandprix.race import FINISHED, OUT_OF_FUEL, PUNCTURE, RETIRED, RUNNING
from engine.rulesets.grandprix.track import load_track
from tests.engine.grandprix.kit import GV_PATH, placed


def test_the_piles_hold_30_29_29_cards_with_24_20_20_speed_cards() -> None:
    sizes = [len(C.build_pile(lap)) for lap in (1, 2, 3)]
    assert sizes == [30, 29, 29]
    assert [sum(1 for c in C.build_pile(lap) if c < 10) for lap in (1, 2, 3)] == [24, 20, 20]


def test_the_risk_table_follows_from_theta() -> None:
    assert RISK_TABLE == {
        "safe": {3: 14, 4: 20},
        "normal": {3: 12, 4: 18},
        "aggressive": {3: 10, 4: 16},
    }


def test_dice_sums_are_the_distinct_sums_of_exactly_g_dice() -> None:
    assert dice_sums((6, 3, 3, 1), 2) == (4, 6, 7, 9)
    assert dice_sums((6, 5, 4, 3), 3) == (12, 13, 14, 15)
    assert dice_sums((3, 5, 2, 5), 4) == (15,)
    assert dice_sums((2, 4, 1, 3), 1) == (1, 2, 3, 4)


def test_a_yellow_lasts_the_turns_of_the_other_running_cars() -> None:
    race, car = placed({"x": ("A40", 1, 3), "y": ("A60", 1, 3), "z": ("A80", 1, 3)})
    race.piles[1] = [C.YELLOW_FLAG]
    race.draw(car["x"])
    race.end_turn(car["x"], ())
    assert race.yellow_left == 2  # the drawer's own turn does not count
    race.end_turn(car["y"], ())
    race.end_turn(car["z"], ())
    assert race.yellow_left == 0


def test_out_of_fuel_retires_unless_fuel_saving_is_held() -> None:
    race, car = placed({"x": ("A40", 3, 3), "y": ("A60", 3, 3)})
    race.fuel_saving[car["x"]] = [3]
    race.piles[3] = [C.OUT_OF_FUEL, C.OUT_OF_FUEL]
    race.draw(car["x"])
    race.draw(car["y"])
    assert race.status[car["x"]] == RUNNING
    assert race.fuel_saving[car["x"]] == []
    assert sorted(race.discards[3]) == [C.FUEL_SAVING, C.OUT_OF_FUEL, C.OUT_OF_FUEL]
    assert race.reason[car["y"]] == OUT_OF_FUEL


def test_each_fuel_saving_card_held_saves_the_car_from_one_out_of_fuel() -> None:
    race, car = placed({"x": ("A40", 3, 3)})
    race.piles[2] = [C.FUEL_SAVING]
    race.crossings[car["x"]] = 2
    race.draw(car["x"])
    race.crossings[car["x"]] = 3
    race.piles[3] = [C.OUT_OF_FUEL, C.OUT_OF_FUEL, C.FUEL_SAVING]
    race.draw(car["x"])  # the second fuel-saving card, pile 3's
    assert race.fuel_saving[car["x"]] == [2, 3]
    race.draw(car["x"])
    race.draw(car["x"])
    assert race.status[car["x"]] == RUNNING  # two cards held, two out-of-fuel cards survived
    assert sorted(race.discards[3]) == [C.FUEL_SAVING, C.OUT_OF_FUEL, C.OUT_OF_FUEL]
    assert race.discards[2] == [C.FUEL_SAVING]  # each card back to the pile it came from


@pytest.mark.parametrize("laps", [4, 5, 20])
def test_a_race_of_more_than_three_laps_runs_to_the_flag(laps: int) -> None:
    from engine.rulesets.grandprix import GrandPrixInputs, simulate
    from tests.engine.grandprix.kit import FIELD, GV

    outcome = simulate(GrandPrixInputs(track=GV, cars=FIELD[:6], laps=laps), seed=7)
    assert outcome.laps == laps
    assert any(line.status == FINISHED for line in outcome.results)


def test_a_long_race_draws_pile_one_on_the_first_lap_three_on_the_last_two_between() -> None:
    race, _car = placed({"x": ("A40", 1, 3)})
    race.laps = 6
    assert [race.pile_of(lap) for lap in range(1, 7)] == [1, 2, 2, 2, 2, 3]
    race.laps = 3
    assert [race.pile_of(lap) for lap in (1, 2, 3)] == [1, 2, 3]


def test_a_puncture_spares_a_car_that_stopped_on_lap_two_or_later() -> None:
    race, car = placed({"x": ("A40", 3, 3), "y": ("A60", 3, 3)})
    race.pit_stops[car["x"]] = [2]
    race.pit_stops[car["y"]] = [1]
    race.piles[3] = [C.PUNCTURE, C.PUNCTURE]
    race.draw(car["x"])
    race.draw(car["y"])
    assert race.status[car["x"]] == RUNNING
    assert race.status[car["y"]] == RETIRED
    assert race.reason[car["y"]] == PUNCTURE


def test_a_gearbox_failure_locks_second_gear_even_after_a_pit_stop() -> None:
    race, car = placed({"x": ("A40", 3, 4)}, [(1, 1, 1, 1)])
    race.piles[3] = [C.GEARBOX_FAILURE]
    race.draw(car["x"])
    race.forced_first[car["x"]] = True
    assert race.select_gear(car["x"], False) == 2


def test_tyre_wear_is_kept_and_obliges_a_stop() -> None:
    race, car = placed({"x": ("A40", 2, 4)})
    race.piles[2] = [C.TYRE_WEAR]
    race.draw(car["x"])
    assert race.must_pit[car["x"]]
    assert race.tyre_wear[car["x"]]
    assert race.discards[2] == []


def test_an_empty_pile_is_reshuffled_from_its_discard() -> None:
    race, car = placed({"x": ("A40", 1, 4)}, decks={1: [["WRONG_TYRES"]]})
    race.discards[1] = [C.WRONG_TYRES, 0]
    race.draw(car["x"])
    assert race.must_pit[car["x"]]
    assert race.piles[1] == [0]


def test_a_pit_throw_on_an_occupied_box_goes_behind() -> None:
    race, car = placed({"x": ("B84", 1, 2), "y": ("P13", 1, 1)}, [(5, 4, 3, 1)])
    race.must_pit[car["x"]] = True
    race.play_turn(car["x"])
    assert race.board.names[race.loc[car["x"]]] == "P14"


def test_orders_name_the_car_and_the_field() -> None:
    assert orders_from_dict({"car": "r1", "risk": "safe"}).qualifying_risk == "safe"
    with pytest.raises(OrdersError, match=r"car r1, field max_gear: 5 is not a gear 2\.\.4"):
        orders_from_dict({"car": "r1", "max_gear": 5})
    with pytest.raises(OrdersError, match="car r1, field risk: 'wild' is not one of"):
        orders_from_dict({"car": "r1", "risk": "wild"})
    with pytest.raises(OrdersError, match="car r1, field speed: unknown field"):
        orders_from_dict({"car": "r1", "speed": 3})


GV_TEXT = GV_PATH.read_text(encoding="utf-8")


def faults_of(text: str) -> list[str]:
    with pytest.raises(TrackError) as caught:
        load_track(parse_document(text, "t.yaml"))
    return [f"{f.rule} {f.place} {f.field} line {f.line}" for f in caught.value.faults]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("length: 100 ", "length: 30 ", "V1  length line 9"),
        ("zone: [6, 9]", "zone: [6, 7]", "V2 corner T1-T2 corners[0].zone line 16"),
        ("zone: [18, 21]", "zone: [9, 21]", "V2 corner T3-T4 corners[1].zone line 17"),
        ("zone: [86, 89]", "zone: [86, 95]", "V2 corner T13-T14 corners[5].zone line 21"),
        ("[B6, B7, A8, A9]", "[B6, B7, B9, A9]", "V3 racing line RL-T1 square B9"),
        ("[B6, B7, A8, A9]", "[B6, B7, A7, A9]", "V3 racing line RL-T1 square A7"),
        ("[B6, B7, A8, A9]", "[B6, B7, Q8, A9]", "V1 racing line RL-T1 square Q8"),
        ("gate: 84", "gate: 87", "V4 pit pit.gate line 25"),
        ("boxes: [4, 23]", "boxes: [4, 22]", "V5 pit pit.boxes line 25"),
        ("slots: 12", "slots: 14", "V6  grid.slots line 13"),
        ("game: grandprix", "game: chess", "SCHEMA  game line 4"),
    ],
)
def test_each_validation_rule_names_rule_place_field_and_line(
    old: str, new: str, expected: str
) -> None:
    assert old in GV_TEXT
    faults = faults_of(GV_TEXT.replace(old, new, 1))
    assert any(f.startswith(expected) for f in faults), faults


def test_every_fault_is_reported_at_once() -> None:
    text = GV_TEXT.replace("boxes: [4, 23]", "boxes: [4, 22]").replace("slots: 12", "slots: 13")
    assert [f.split()[0] for f in faults_of(text)] == ["V6", "V5"]


def test_the_json_form_of_a_track_has_the_same_content_hash(tmp_path: Path) -> None:
    import json

    import yaml

    data = yaml.safe_load(GV_TEXT)
    path = tmp_path / "gv.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    from engine.motor import load_document

    yaml_track = load_track(load_document(GV_PATH))
    assert load_track(load_document(path)).content_hash == yaml_track.content_hash
