"""The Ludicitude adapter (rules/ludicitude.md): 24-card tracks, speed dice, speed limits and
brake points; a player orders each car's risk and top speed (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy

from engine.rulesets.ludicitude import simulate as ludicitude_simulate
from engine.rulesets.ludicitude.orders import CarOrders
from engine.rulesets.ludicitude.outcome import CarEntry as RaceCar
from engine.rulesets.ludicitude.outcome import RaceInputs
from motor.adapters.base import MotorAdapter, MotorRun

WORDS = (
    gettext_noop("Mode"),
    gettext_noop("Risk"),
    gettext_noop("Top speed"),
    pgettext_lazy("orders", "auto"),
    pgettext_lazy("orders", "interactive"),
    pgettext_lazy("orders", "safe"),
    pgettext_lazy("orders", "normal"),
    pgettext_lazy("orders", "aggressive"),
)


class LudicitudeAdapter(MotorAdapter):
    name = "ludicitude"
    label = _("Ludicitude (speed dice, brake points)")
    how_it_works = _(
        "Ludicitude: twelve cars on a track of 24 cards, each with a speed limit. Every round "
        "each car chooses its speed and throws the speed dice; going over a card's limit costs "
        "brake points, and a car whose brake runs out is eliminated. A player orders each "
        "car's risk and its top speed."
    )

    def car_fields(self, given: Mapping[str, Any]) -> dict[str, forms.Field]:
        """A league's cars are driven by the default driver: no "interactive" mode (the
        stored orders keep the spec's default, auto)."""
        fields = super().car_fields(given)
        fields.pop("mode", None)
        return fields

    def run(self, inputs: Mapping[str, Any], *, seed: int) -> Any:
        orders: Mapping[str, CarOrders] = self.engine_orders(inputs["orders"])
        codec = self.ruleset.settings
        assert codec is not None
        values = dict(inputs["settings"])
        if self.engine_track(inputs).track.closed:
            values["laps"] = inputs["laps"]
        else:
            values.pop("laps", None)  # T-3: an open circuit is raced once
        settings = codec.from_data(values)
        race = RaceInputs(
            self.engine_track(inputs).track,
            tuple(RaceCar(c["car"], orders[c["car"]], c["standing"]) for c in inputs["cars"]),
            settings,
        )
        return ludicitude_simulate(race, None, seed)

    def dice_rows(self, run: MotorRun) -> list[list[Any]]:
        """LU-2's draw of the first round's order (``order``, the cars in the order drawn),
        then every throw of the speed dice (LU-3: ``speed``, its faces), as
        ``[phase, round, car, kind, values, card]`` like the Grand Prix's rows."""
        rows: list[list[Any]] = [
            ["race", 0, None, "order", [], ",".join(run.outcome.get("start_order", []))]
        ]
        rows += [
            ["race", rnd, car, "speed", list(faces), ""]
            for rnd, car, faces in run.outcome.get("dice", [])
        ]
        return rows

    def outcome_json(self, outcome: Any) -> dict[str, Any]:
        """The outcome's codec data, its events as one object each (as the command line's
        JSON gives them: round, kind, car, position, card, amount, brake)."""
        codec = self.ruleset.outcome
        assert codec is not None
        data = dict(codec.to_data(outcome))
        data["events"] = [event._asdict() for event in outcome.events]
        return data


ADAPTER = LudicitudeAdapter()
