"""Properties every ruleset keeps, on small random courses and fields (hypothesis)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RULESETS, simulate
from engine.cycling.inputs import StageInputs
from engine.motor import CarEntry, load_document
from tests.engine.strategies import ALL_TYPES, PROPERTY, seeds, stage_inputs

#: Stage rulesets; the motor rulesets are at the end, through their hooks (and keep their own
#: properties in tests/engine/<game>/).
each_ruleset = pytest.mark.parametrize(
    "ruleset", sorted(name for name, r in RULESETS.items() if r.discipline == "cycling")
)


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_same_inputs_and_seed_give_the_same_outcome(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    first = simulate(ruleset, inputs, seed)
    again = simulate(ruleset, inputs, seed)
    assert first == again
    assert first.dice.rows == again.dice.rows


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_every_entrant_appears_exactly_once_in_rank_order(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    assert sorted(r.rider_id for r in out.results) == sorted(e.rider_id for e in inputs.entrants)
    assert [r.rank for r in out.results] == list(range(1, len(inputs.entrants) + 1))


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_gaps_are_non_negative_and_grow_with_rank(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    gaps = [r.gap_seconds for r in out.results]
    assert gaps[0] == 0
    assert gaps == sorted(gaps)
    groups = [r.final_group for r in out.results]
    assert groups[0] == 0
    assert groups == sorted(groups)
    assert all(r.squares_behind >= 0 for r in out.results)


@each_ruleset
@PROPERTY
@given(inputs=stage_inputs(ALL_TYPES), seed=seeds)
def test_summits_and_sprints_list_every_rider_once(
    ruleset: str, inputs: StageInputs, seed: int
) -> None:
    out = simulate(ruleset, inputs, seed)
    ids = sorted(e.rider_id for e in inputs.entrants)
    for event in out.events:
        if event.kind in ("summit", "intermediate_sprint"):
            assert sorted(event.rider_ids) == ids


# -- motor rulesets, through their MotorHooks -----------------------------------------------

TRACKS = Path(__file__).resolve().parents[2] / "motor" / "tracks"
MOTOR = sorted(name for name, r in RULESETS.items() if r.motor is not None)
each_motor_ruleset = pytest.mark.parametrize("ruleset", MOTOR)


def _motor_race(ruleset: str, track_index: int, teams: int, seed: int) -> dict[str, object]:
    hooks = RULESETS[ruleset].motor
    assert hooks is not None
    files = sorted((TRACKS / hooks.game).glob("*.yaml"))
    track = hooks.load_track(load_document(files[track_index % len(files)]))
    size = hooks.team_size
    n = min(hooks.max_cars, teams * size)
    cars = tuple(CarEntry(f"car-{i}", f"Driver {i}", f"Team {i // size}") for i in range(n))
    doc: dict[str, object] = hooks.outcome_json(hooks.simulate(track, cars, None, seed, None))
    doc["entered"] = [c.car_id for c in cars]
    return doc


motor_races = st.tuples(st.integers(0, 10), st.integers(1, 6), seeds)


@each_motor_ruleset
@PROPERTY
@given(race=motor_races)
def test_motor_same_track_cars_and_seed_give_the_same_race(
    ruleset: str, race: tuple[int, int, int]
) -> None:
    assert _motor_race(ruleset, *race) == _motor_race(ruleset, *race)


@each_motor_ruleset
@PROPERTY
@given(race=motor_races)
def test_motor_every_car_appears_once_in_rank_order(
    ruleset: str, race: tuple[int, int, int]
) -> None:
    doc = _motor_race(ruleset, *race)
    results = doc["results"]
    assert isinstance(results, list)
    assert sorted(r["car"] for r in results) == sorted(doc["entered"])  # type: ignore[call-overload]
    assert [r["rank"] for r in results] == list(range(1, len(results) + 1))


@each_motor_ruleset
@PROPERTY
@given(race=motor_races)
def test_motor_finishers_rank_first_in_crossing_order(
    ruleset: str, race: tuple[int, int, int]
) -> None:
    doc = _motor_race(ruleset, *race)
    results = doc["results"]
    events = doc["events"]
    assert isinstance(results, list)
    assert isinstance(events, list)
    statuses = [r["status"] for r in results]
    finished = statuses.count("finished")
    assert statuses[:finished] == ["finished"] * finished
    crossing = [e["car"] for e in events if e["kind"] == "finish"]
    assert crossing == [r["car"] for r in results[:finished]]
