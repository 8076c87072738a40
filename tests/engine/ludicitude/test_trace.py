"""The position trace (docs/ludicitude.md, "Position trace"): one row after the start and one
after every round, every car in each, with its place, lap, card, position and state."""

from __future__ import annotations

import json

from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.codec import OUTCOME
from engine.rulesets.ludicitude.hooks import HOOKS
from engine.rulesets.ludicitude.orders import LudicitudeSettings
from engine.rulesets.ludicitude.outcome import CarEntry, RaceInputs
from engine.rulesets.ludicitude.track import load_track
from tests.engine.ludicitude.kit import TRACKS, SameFaces, cars, ring
from tests.engine.ludicitude.test_race import FacesByCar


def _row(out: object, rnd: int) -> dict[str, tuple[int, int, int, int, str]]:
    row = out.trace[rnd]  # type: ignore[attr-defined]
    assert row.round == rnd
    return {c.car: (c.place, c.lap, c.card, c.position, c.state) for c in row.cars}


def test_round_1_moves_the_car_its_dice_say_and_not_the_other() -> None:
    # lud-1 shows 5 on every die (no move, LU-3), lud-2 shows 1: at speed 1 it moves one card.
    inputs = RaceInputs(ring(), cars("normal", "normal"), LudicitudeSettings(max_rounds=3))
    out = simulate(inputs, FacesByCar(5, 1), 0)
    assert len(out.trace) == out.rounds + 1 == 4
    # At the start both are on card 0: places in the round-1 order drawn (LU-2).
    first, second = out.start_order
    assert _row(out, 0) == {first: (1, 1, 0, 0, "racing"), second: (2, 1, 0, 0, "racing")}
    assert _row(out, 1) == {"lud-1": (2, 1, 0, 0, "racing"), "lud-2": (1, 1, 1, 1, "racing")}


def test_finishers_and_an_eliminated_car_keep_their_last_card() -> None:
    # Every die a 1 (tests/engine/ludicitude/test_race.py): the aggressive car is out on card
    # 4 of lap 2 (p = 28) in round 8; the two others cross the line (p = F = 48, card 0).
    inputs = RaceInputs(
        ring(),
        (CarEntry("out", cars("aggressive")[0].orders), *cars("normal", "normal")),
    )
    out = simulate(inputs, SameFaces(1), 0)
    assert _row(out, 7)["out"][4] == "racing"
    assert _row(out, 8)["out"] == (3, 2, 4, 28, "retired")
    last = _row(out, out.rounds)
    assert last["out"] == (3, 2, 4, 28, "retired")
    assert {last[c][1:] for c in ("lud-1", "lud-2")} == {(2, 0, 48, "finished")}
    assert {last[r.car][0] for r in out.results} == {1, 2, 3}
    assert all(last[r.car][0] == r.rank for r in out.results)


def test_a_finisher_of_an_open_circuit_is_shown_on_its_last_card() -> None:
    track = load_track(TRACKS / "route-des-cretes.yaml").track
    finishers = 0
    for seed in range(20):
        out = simulate(RaceInputs(track, cars("safe", "normal", "aggressive")), None, seed)
        for r in out.results:
            car = _row(out, out.rounds)[r.car]
            if r.status == "finished":
                finishers += 1
                assert car[1:] == (1, 23, 24, "finished")
    assert finishers > 10


def test_places_are_finishers_then_racing_by_position_then_the_eliminated() -> None:
    inputs = RaceInputs(ring(), cars(*["safe", "normal", "aggressive"] * 4))
    for seed in range(30):
        out = simulate(inputs, None, seed)
        for row in out.trace:
            by_place = sorted(row.cars, key=lambda c: c.place)
            states = [c.state for c in by_place]
            assert states == sorted(states, key=["finished", "racing", "retired"].index)
            racing = [c.position for c in by_place if c.state == "racing"]
            assert racing == sorted(racing, reverse=True)
        last = {c.car: c.place for c in out.trace[-1].cars}
        assert all(last[r.car] == r.rank for r in out.results), seed


def test_every_car_is_in_every_row_in_json_and_back() -> None:
    inputs = RaceInputs(ring(), cars(*["safe", "normal", "aggressive"] * 4))
    out = simulate(inputs, None, 7)
    ids = [c.car for c in inputs.cars]
    for row in out.trace:
        assert [c.car for c in row.cars] == ids
        assert sorted(c.place for c in row.cars) == list(range(1, 13))
    stored = json.loads(json.dumps(OUTCOME.to_data(out)))
    assert [row["round"] for row in stored["trace"]] == list(range(out.rounds + 1))
    assert OUTCOME.from_data(stored).trace == out.trace
    assert stored["trace"][1]["cars"]["lud-1"].keys() == {
        "place",
        "lap",
        "card",
        "position",
        "state",
    }
    assert HOOKS.outcome_json is not None
