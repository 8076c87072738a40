"""The Grand Prix ruleset's :class:`~engine.motor.MotorHooks` (registry and command line)."""

from __future__ import annotations

from typing import Any

from engine.motor import CarEntry, EntryError, MotorHooks, RawOrders
from engine.rulesets.grandprix import GrandPrixInputs, simulate
from engine.rulesets.grandprix.league import LEAGUE
from engine.rulesets.grandprix.orders import RISKS, CarOrders, OrdersError, orders_from_dict
from engine.rulesets.grandprix.outcome import GrandPrixOutcome, outcome_table, outcome_to_json
from engine.rulesets.grandprix.playtest import render, run_playtest
from engine.rulesets.grandprix.track import GAME, Track, load_track, summary


def parse_orders(raw: RawOrders, name: str, cars: tuple[CarEntry, ...]) -> dict[str, CarOrders]:
    """§7.1 objects of an orders file; :class:`EntryError` names file, line, car and field."""
    out = {}
    for car, (data, line) in raw.items():
        try:
            out[car] = orders_from_dict(data, car)
        except OrdersError as exc:
            where = f"{name} line {line}" if line else name
            raise EntryError(f"{where}, car {exc.car}, field {exc.field}: {exc.message}") from None
    return out


def run(
    track: Track, cars: tuple[CarEntry, ...], orders: Any, seed: int, laps: int | None
) -> GrandPrixOutcome:
    """One event from the command line's inputs."""
    return simulate(GrandPrixInputs(track, cars, orders or {}, laps=laps), seed)


def playtest(track: Track, races: int, risk: str, seed: int, laps: int | None) -> str:
    """The playtest report's text."""
    return render(run_playtest(track, races, risk, seed, laps))


HOOKS = MotorHooks(
    game=GAME,
    max_cars=12,
    team_size=2,
    risks=RISKS,
    load_track=load_track,
    track_summary=summary,
    parse_orders=parse_orders,
    simulate=run,
    outcome_json=outcome_to_json,
    outcome_table=outcome_table,
    playtest=playtest,
    league=LEAGUE,
)
