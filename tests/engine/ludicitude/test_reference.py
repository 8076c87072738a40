"""The race's cached steps equal the rules played plainly: a slow reference race, written
from the spec with ``resolve_move`` and ``choose_speed`` and nothing kept between turns,
gives the same results and events as :func:`simulate` on every shipped track."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.dice import SeededSpeedDice
from engine.rulesets.ludicitude.orders import LAMBDA, LudicitudeSettings
from engine.rulesets.ludicitude.outcome import RaceInputs
from engine.rulesets.ludicitude.playtest import playtest_field
from engine.rulesets.ludicitude.policy import choose_speed
from engine.rulesets.ludicitude.rules import resolve_move
from engine.rulesets.ludicitude.track import load_track
from tests.engine.ludicitude.kit import TRACKS


def reference(inputs: RaceInputs, seed: int) -> tuple[list[tuple[str, str, int]], list[tuple]]:
    """``(car, status, position)`` in LU-12 order, and the events."""
    track, finish = inputs.track, inputs.finish
    marker = inputs.settings.limit_basis == "marker"
    dice = SeededSpeedDice(random.Random(seed))
    cars = [c.car for c in inputs.cars]
    order = list(range(len(cars)))
    dice.shuffle(order)
    p = [0] * len(cars)
    b = [9] * len(cars)
    v = [1] * len(cars)
    done: list[int] = []
    out: list[tuple[int, int, int]] = []  # (position, sequence, car)
    events: list[tuple] = []
    rnd = 0
    while order and rnd < inputs.settings.max_rounds:
        rnd += 1
        order.sort(key=lambda i: -p[i])
        for i in list(order):
            _, m = dice.throw(v[i], round_no=rnd, unit=i)
            move = resolve_move(
                track,
                position=p[i],
                brake=b[i],
                moved=m,
                finish=finish,
                speed=v[i] if marker else None,
            )
            running = b[i]
            for q, points in move.losses:
                running -= points
                events.append((rnd, "brake_lost", cars[i], q, points, running))
            p[i], b[i] = move.position, move.brake
            if move.eliminated or move.finished:
                order.remove(i)
                if move.finished:
                    done.append(i)
                    events.append((rnd, "finish", cars[i], finish, len(done), b[i]))
                else:
                    out.append((p[i], len(out), i))
                    events.append((rnd, "eliminated", cars[i], p[i], move.penalty, b[i]))
                continue
            if move.gained:
                events.append((rnd, "recovery", cars[i], p[i], move.gained, b[i]))
            new = choose_speed(
                track,
                position=p[i],
                brake=b[i],
                speed=v[i],
                weight=LAMBDA[inputs.cars[i].orders.risk],
                finish=finish,
                max_speed=inputs.cars[i].orders.max_speed,
                marker_basis=marker,
            )
            if abs(new - v[i]) == 2:
                b[i] -= 1
                events.append((rnd, "speed_cost", cars[i], p[i], new, b[i]))
            v[i] = new
    ranked = [(cars[i], "finished", finish) for i in done]
    ranked += [(cars[i], "not_classified", p[i]) for i in sorted(order, key=lambda i: -p[i])]
    ranked += [(cars[i], "eliminated", q) for q, _, i in sorted(out, key=lambda t: (-t[0], -t[1]))]
    return ranked, events


@pytest.mark.parametrize("path", sorted(TRACKS.glob("*.yaml")), ids=lambda p: p.stem)
@pytest.mark.parametrize("basis", ["distance", "marker"])
def test_cached_race_equals_the_plain_rules(path: Path, basis: str) -> None:
    track = load_track(path).track
    inputs = RaceInputs(track, playtest_field(12, "mixed"), LudicitudeSettings(limit_basis=basis))
    for seed in range(8):
        got = simulate(inputs, None, seed)
        ranked, events = reference(inputs, seed)
        assert [(r.car, r.status, r.position) for r in got.results] == ranked
        assert [
            (e.round, e.kind, e.car, e.position, e.amount, e.brake) for e in got.events
        ] == events
