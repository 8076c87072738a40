"""The Grand Prix adapter (rules/grandprix.md): an F1 dice game on a track file, qualifying
and race in one round; a player orders each car's risk (race and qualifying), its top gear,
the lowest gear it plays a speed card in, and its pit strategy (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.rulesets.grandprix.league import league_orders
from engine.rulesets.grandprix.orders import CarOrders
from motor.adapters.base import MotorAdapter
from motor.adapters.grandprix_rules import RULE_TITLES


class GrandPrixAdapter(MotorAdapter):
    name = "grandprix"
    #: The rules the settings and orders cite, in words (the "how it works" page).
    rule_titles = RULE_TITLES
    label = _("Grand Prix (F1 dice game, gears and corners)")
    how_it_works = _(
        "Grand Prix: twelve cars on a track of squares in two lanes. Each car qualifies, then "
        "races a few laps: every turn it throws the dice of its gear, brakes for the corners "
        "(a corner taken too fast costs a skid or a trip off the track), may play a speed "
        "card, and must stop once in the pits. A player orders each car's risk in the race "
        "and in qualifying, its top gear, when it plays speed cards, and its pit strategy."
    )

    def engine_orders(self, orders: Mapping[str, Mapping[str, Any]]) -> dict[str, CarOrders]:
        """§7.1's reader (``quali_risk`` "same" is the race risk); EntryError names the car.
        The run, its outcome's JSON and its dice rows are the engine's league round
        (engine/rulesets/grandprix/league.py), so that ``python -m engine replay`` runs the
        same."""
        return league_orders(orders)


ADAPTER = GrandPrixAdapter()
