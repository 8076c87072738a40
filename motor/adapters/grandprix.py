"""The Grand Prix adapter (rules/grandprix.md): an F1 dice game on a track file, qualifying
and race in one round; a player orders each car's risk (race and qualifying), its top gear,
the lowest gear it plays a speed card in, and its pit strategy (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from engine.rulesets.grandprix import GrandPrixInputs
from engine.rulesets.grandprix import simulate as grandprix_simulate
from engine.rulesets.grandprix.orders import PIT_STRATEGIES, RISKS, CarOrders, orders_from_dict
from engine.rulesets.grandprix.outcome import outcome_to_json
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.spec import CHOICE, INT, Field, Spec
from motor.adapters.base import MotorAdapter

_DEFAULT = CarOrders("?")

#: §7.1 as a spec, while the engine's Grand Prix ruleset object has none of its own (the
#: adapter prefers the engine's as soon as it has fields). Defaults read from CarOrders.
FALLBACK_ORDERS_SPEC = Spec(
    (
        Field(
            "risk",
            CHOICE,
            _DEFAULT.risk,
            "Risk",
            "§7.1: how close to a corner's limit the default driver drives in the race.",
            choices=tuple((r, r) for r in RISKS),
        ),
        Field(
            "quali_risk",
            CHOICE,
            _DEFAULT.risk,
            "Qualifying risk",
            "P-6: the risk of the qualifying run.",
            choices=tuple((r, r) for r in RISKS),
        ),
        Field(
            "max_gear",
            INT,
            _DEFAULT.max_gear,
            "Top gear",
            "§7.1: the highest gear the driver shifts into.",
            minimum=2,
            maximum=4,
        ),
        Field(
            "card_min_gear",
            INT,
            _DEFAULT.card_min_gear,
            "Speed cards from gear",
            "§7.1: a speed card is played only in this gear or above.",
            minimum=2,
            maximum=4,
        ),
        Field(
            "pit_strategy",
            CHOICE,
            _DEFAULT.pit_strategy,
            "Pit strategy",
            "§7.1: only the required stop, or an early stop on lap 2 as insurance.",
            choices=tuple((p, p) for p in PIT_STRATEGIES),
        ),
    )
)

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
    pgettext_lazy("orders", "required_only"),
    pgettext_lazy("orders", "lap2_insurance"),
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

    @property
    def orders_spec(self) -> Spec:
        own = self.ruleset.orders_spec
        return own if own.fields else FALLBACK_ORDERS_SPEC

    def engine_orders(self, orders: Mapping[str, Mapping[str, Any]]) -> dict[str, CarOrders]:
        out = {}
        for car, order in orders.items():
            try:
                out[car] = orders_from_dict(self.to_engine_order(order), car)
            except ValueError as error:
                from engine.motor import EntryError

                raise EntryError(f"Car {car}: {error}") from None
        return out

    def to_engine_order(self, order: Mapping[str, Any]) -> dict[str, Any]:
        known = set(FALLBACK_ORDERS_SPEC.names) | set(self.ruleset.orders_spec.names) | {"mode"}
        return {k: v for k, v in order.items() if k in known}

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
