"""The position trace (docs/grandprix.md, "Position trace"): one row after the grid is formed
and one after every race round, every car in each, with its place, lap, square and state."""

from __future__ import annotations

import json

from engine.rulesets.grandprix import GrandPrixInputs, new_race, simulate
from engine.rulesets.grandprix.outcome import build_outcome, build_trace, outcome_to_json
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.source import ScriptedSource
from tests.engine.grandprix.kit import FIELD, GV, TRACKS, placed


def _squares(row: dict[str, object]) -> dict[str, tuple[str, int, int, str, int]]:
    cars = row["cars"]
    assert isinstance(cars, dict)
    return {
        car: (c["square"][0], c["square"][1], c["lap"], c["state"], c["place"])
        for car, c in cars.items()
    }


def test_round_0_is_the_grid_and_round_1_follows_the_rules() -> None:
    # Three cars, no qualifying: grid in entry order (T-9: P1 = B99, P2 = A99, P3 = B98).
    # Round 1 is driven in gear 1 (GP-4.1), so a throw of four equal dice gives M = that die:
    # car1 goes 1 ahead over the line (B0: the greatest D, P-5), car2 3 (A0, A1, A2) and
    # leads, car3 blows its engine on four sixes (GP-5.2) and keeps its grid square.
    inputs = GrandPrixInputs(GV, FIELD[:3], settings=GrandPrixSettings(max_rounds=1))
    race = new_race(inputs, ScriptedSource([(1, 1, 1, 1), (3, 3, 3, 3), (6, 6, 6, 6)]))
    race.start_grid()
    race.run_race()
    doc = outcome_to_json(build_outcome(race, FIELD[:3], ruleset="grandprix", version=0, seed=0))
    trace = json.loads(json.dumps(doc["trace"]))
    assert [row["round"] for row in trace] == [0, 1]
    assert _squares(trace[0]) == {
        "car1": ("B", 99, 1, "racing", 1),
        "car2": ("A", 99, 1, "racing", 2),
        "car3": ("B", 98, 1, "racing", 3),
    }
    assert _squares(trace[1]) == {
        "car1": ("B", 0, 1, "racing", 2),
        "car2": ("A", 2, 1, "racing", 1),
        "car3": ("B", 98, 1, "retired", 3),
    }


def test_a_finished_car_keeps_its_line_square_and_a_car_in_the_pit_is_in_the_pit() -> None:
    # Round 7 of 3 laps: "fin" on A97 with 3 crossings crosses the line for the 4th time
    # with any throw of fives (GP-12.1); "box" is on pit box P13.
    race, idx = placed(
        {"fin": ("A97", 3, 3), "box": ("P13", 2, 1)},
        [(5, 5, 5, 5), (1, 1, 1, 1)],
        round_no=6,
        settings=GrandPrixSettings(max_rounds=7),
    )
    race.grid = [idx["fin"], idx["box"]]
    race.run_race()
    (row,) = build_trace(race)
    cars = {c.car: c for c in row.cars}
    assert row.round == 7
    fin = cars["fin"]
    assert (fin.state, fin.lap, fin.place) == ("finished", 3, 1)
    assert fin.square in (("A", 0), ("B", 0))
    # The steps from P13 go down the boxes (GP-11.6): a throw of ones moves M = gear squares.
    gear = race.gear[idx["box"]]
    assert (cars["box"].square, cars["box"].state, cars["box"].place) == (
        ("P", 13 - gear),
        "pit",
        2,
    )


def test_every_car_is_in_every_row_and_the_last_row_is_the_classification() -> None:
    for track in TRACKS:
        for seed in (1, 2):
            outcome = simulate(GrandPrixInputs(track, FIELD), seed)
            assert [row.round for row in outcome.trace] == list(range(outcome.rounds + 1))
            ids = [c.car_id for c in FIELD]
            for row in outcome.trace:
                assert [c.car for c in row.cars] == ids
                assert sorted(c.place for c in row.cars) == list(range(1, 13))
            last = {c.car: c for c in outcome.trace[-1].cars}
            for r in outcome.results:
                assert last[r.car].place == r.rank
                assert last[r.car].state == {"finished": "finished", "retired": "retired"}.get(
                    r.status, "racing"
                )
            # A retired car keeps its square from the round it retired in.
            for r in outcome.results:
                if r.status != "retired":
                    continue
                states = [next(c for c in row.cars if c.car == r.car) for row in outcome.trace]
                first = next(k for k, c in enumerate(states) if c.state == "retired")
                assert len({c.square for c in states[first:]}) == 1
