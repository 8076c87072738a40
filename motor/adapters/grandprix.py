"""The Grand Prix adapter (rules/grandprix.md): an F1 dice game on a track file, qualifying
and race in one round; a player orders each car's risk (race and qualifying), its top gear,
the lowest gear it plays a speed card in, and its pit strategy (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from engine.motor import EntryError
from engine.rulesets.grandprix import GrandPrixInputs
from engine.rulesets.grandprix import simulate as grandprix_simulate
from engine.rulesets.grandprix.orders import CarOrders, orders_from_dict
from engine.rulesets.grandprix.outcome import outcome_to_json
from engine.rulesets.grandprix.settings import GrandPrixSettings
from motor.adapters.base import MotorAdapter

#: The words of the orders spec, for the French catalogue (the generated form says them
#: through gettext).
WORDS = (
    gettext_noop("Risk"),
    gettext_noop("Qualifying risk"),
    gettext_noop("Top gear"),
    gettext_noop("Speed cards from gear"),
    gettext_noop("Pit strategy"),
    pgettext_lazy("orders", "safe"),
    pgettext_lazy("orders", "normal"),
    pgettext_lazy("orders", "aggressive"),
    pgettext_lazy("orders", "only the stops the cards require"),
    pgettext_lazy("orders", "an insurance stop on lap 2"),
    pgettext_lazy("orders", "same as the race"),
)


class GrandPrixAdapter(MotorAdapter):
    name = "grandprix"
    label = _("Grand Prix (F1 dice game, gears and corners)")
    how_it_works = _(
        "Grand Prix: twelve cars on a track of squares in two lanes. Each car qualifies, then "
        "races a few laps: every turn it throws the dice of its gear, brakes for the corners "
        "(a corner taken too fast costs a skid or a trip off the track), may play a speed "
        "card, and must stop once in the pits. A player orders each car's risk in the race "
        "and in qualifying, its top gear, when it plays speed cards, and its pit strategy."
    )

    def engine_orders(self, orders: Mapping[str, Mapping[str, Any]]) -> dict[str, CarOrders]:
        """§7.1's reader (``quali_risk`` "same" is the race risk); EntryError names the car."""
        out = {}
        for car, order in orders.items():
            data = {**self.to_engine_order(order), "car": car}
            try:
                out[car] = orders_from_dict(data, car)
            except ValueError as error:
                raise EntryError(f"Car {car}: {error}") from None
        return out

    def to_engine_order(self, order: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in order.items() if k in self.orders_spec.names}

    def settings_of(self, values: Mapping[str, Any]) -> GrandPrixSettings:
        codec = self.ruleset.settings
        if codec is not None:
            return codec.from_data(dict(values))  # type: ignore[no-any-return]
        return GrandPrixSettings()

    def run(self, inputs: Mapping[str, Any], *, seed: int) -> Any:
        values = {k: v for k, v in inputs["settings"].items() if k != "laps"}
        return grandprix_simulate(
            GrandPrixInputs(
                track=self.engine_track(inputs),
                cars=self.engine_cars(inputs),
                orders=self.engine_orders(inputs["orders"]),
                settings=self.settings_of(values),
                laps=inputs["laps"],
            ),
            seed,
        )

    def outcome_json(self, outcome: Any) -> dict[str, Any]:
        return outcome_to_json(outcome)


ADAPTER = GrandPrixAdapter()
