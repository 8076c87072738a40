"""A league round of the Grand Prix as the league stores it (``round.json``'s ``inputs``: the
track file's content, the cars, their stored orders, the laps and the settings), run with no
database: the league's adapter (motor/adapters/grandprix.py) and ``python -m engine replay``
both call these, so that a downloaded round replays to the dice log the league keeps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.motor import CarEntry, DataDocument, EntryError, LeagueHooks
from engine.rulesets.grandprix import GrandPrixInputs, simulate
from engine.rulesets.grandprix.orders import CarOrders, orders_from_dict
from engine.rulesets.grandprix.outcome import GrandPrixOutcome, outcome_to_json, results_to_json
from engine.rulesets.grandprix.specs import ORDERS_SPEC, SETTINGS_CODEC
from engine.rulesets.grandprix.track import load_track


def league_orders(orders: Mapping[str, Mapping[str, Any]]) -> dict[str, CarOrders]:
    """§7.1's reader of stored orders (``quali_risk`` "same" is the race risk); EntryError
    names the car."""
    names = set(ORDERS_SPEC.names)
    out = {}
    for car, order in orders.items():
        data = {k: v for k, v in order.items() if k in names} | {"car": car}
        try:
            out[car] = orders_from_dict(data, car)
        except ValueError as error:
            raise EntryError(f"Car {car}: {error}") from None
    return out


def league_inputs(inputs: Mapping[str, Any]) -> GrandPrixInputs:
    """The engine's inputs of stored inputs (the track validated again by its loader)."""
    track = inputs["track"]
    values = {k: v for k, v in inputs["settings"].items() if k != "laps"}
    return GrandPrixInputs(
        track=load_track(DataDocument(track["slug"], track["content"], {})),
        cars=tuple(CarEntry(c["car"], c["driver"], c["team"]) for c in inputs["cars"]),
        orders=league_orders(inputs["orders"]),
        settings=SETTINGS_CODEC.from_data(dict(values)),
        laps=inputs["laps"],
    )


def league_run(inputs: Mapping[str, Any], seed: int) -> GrandPrixOutcome:
    """Qualifying and race of stored inputs with ``seed``."""
    return simulate(league_inputs(inputs), seed)


def league_odds(inputs: Mapping[str, Any]) -> Callable[[int], list[dict[str, Any]]]:
    """The odds' runs of stored inputs, read once: ``run(seed)`` is
    ``outcome_to_json(league_run(inputs, seed))["results"]``, the event run without its
    events, dice log and trace."""
    event = league_inputs(inputs)

    def run(seed: int) -> list[dict[str, Any]]:
        return results_to_json(simulate(event, seed, record=False).results)

    return run


def league_dice_rows(outcome: Mapping[str, Any]) -> list[list[Any]]:
    """The dice and card log of an outcome's JSON as the league stores it, one row an entry in
    the order drawn: ``[phase, round, car, kind, values, card]`` (every ``throw``, ``pit``
    throw, ``tie`` throw, ``card`` played, ``draw`` and ``shuffle``)."""
    return [
        [d["phase"], d["round"], d["car"], d["kind"], list(d["values"]), d.get("card", "")]
        for d in outcome.get("dice", [])
    ]


LEAGUE = LeagueHooks(
    run=league_run,
    outcome_json=outcome_to_json,
    dice_rows=league_dice_rows,
    odds=league_odds,
)
