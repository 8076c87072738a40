"""A league round of Ludicitude as the league stores it (``round.json``'s ``inputs``: the track
file's content, the cars with their places in the standings, their stored orders, the laps and
the settings), run with no database: the league's adapter (motor/adapters/ludicitude.py) and
``python -m engine replay`` both call these, so that a downloaded round replays to the dice
log the league keeps."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.motor import DataDocument, EntryError, LeagueHooks
from engine.rulesets.ludicitude import simulate
from engine.rulesets.ludicitude.codec import OUTCOME, result_to_data
from engine.rulesets.ludicitude.orders import CarOrders, OrdersError, orders_from_data
from engine.rulesets.ludicitude.outcome import CarEntry as RaceCar
from engine.rulesets.ludicitude.outcome import RaceInputs, RaceOutcome
from engine.rulesets.ludicitude.specs import SETTINGS_CODEC
from engine.rulesets.ludicitude.track import track_from_document


def league_orders(orders: Mapping[str, Mapping[str, Any]]) -> dict[str, CarOrders]:
    """§7.1's reader of stored orders; EntryError names the car and the field."""
    out = {}
    for car, order in orders.items():
        try:
            _, out[car] = orders_from_data({**order, "car": car})
        except OrdersError as exc:
            raise EntryError(f"orders, car {car}, field {exc.field}: {exc.message}") from None
    return out


def league_inputs(inputs: Mapping[str, Any]) -> RaceInputs:
    """The engine's inputs of stored inputs (an open circuit is raced once: T-3)."""
    stored = inputs["track"]
    track = track_from_document(DataDocument(stored["slug"], stored["content"], {})).track
    orders = league_orders(inputs["orders"])
    values = dict(inputs["settings"])
    if track.closed:
        values["laps"] = inputs["laps"]
    else:
        values.pop("laps", None)
    return RaceInputs(
        track,
        tuple(RaceCar(c["car"], orders[c["car"]], c["standing"]) for c in inputs["cars"]),
        SETTINGS_CODEC.from_data(values),
    )


def league_run(inputs: Mapping[str, Any], seed: int) -> RaceOutcome:
    """The race of stored inputs with ``seed``."""
    return simulate(league_inputs(inputs), None, seed)


def league_odds(inputs: Mapping[str, Any]) -> Callable[[int], list[dict[str, Any]]]:
    """The odds' runs of stored inputs, read once: ``run(seed)`` is
    ``league_outcome_json(league_run(inputs, seed))["results"]``, the race run without its
    events, dice log and trace."""
    race = league_inputs(inputs)

    def run(seed: int) -> list[dict[str, Any]]:
        return [result_to_data(r) for r in simulate(race, None, seed, record=False).results]

    return run


def league_outcome_json(outcome: RaceOutcome) -> dict[str, Any]:
    """The outcome's codec data, its events as one object each (round, kind, car, position,
    card, amount, brake), as the league stores it."""
    data = dict(OUTCOME.to_data(outcome))
    data["events"] = [event._asdict() for event in outcome.events]
    return data


def league_dice_rows(outcome: Mapping[str, Any]) -> list[list[Any]]:
    """LU-2's draw of the first round's order (``order``, the cars in the order drawn), then
    every throw of the speed dice (LU-3: ``speed``, its faces), as ``[phase, round, car, kind,
    values, card]`` like the Grand Prix's rows."""
    rows: list[list[Any]] = [
        ["race", 0, None, "order", [], ",".join(outcome.get("start_order", []))]
    ]
    rows += [
        ["race", rnd, car, "speed", list(faces), ""] for rnd, car, faces in outcome.get("dice", [])
    ]
    return rows


LEAGUE = LeagueHooks(
    run=league_run,
    outcome_json=league_outcome_json,
    dice_rows=league_dice_rows,
    odds=league_odds,
)
