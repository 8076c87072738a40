"""The Ludicitude adapter (rules/ludicitude.md): 24-card tracks, speed dice, speed limits and
brake points; a player orders each car's risk and top speed (§7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from motor.adapters.base import MotorAdapter
from motor.adapters.ludicitude_rules import RULE_TITLES


class LudicitudeAdapter(MotorAdapter):
    name = "ludicitude"
    #: The rules the settings and orders cite, in words (the "how it works" page).
    rule_titles = RULE_TITLES
    label = _("Ludicitude (speed dice, brake points)")
    how_it_works = _(
        "Ludicitude: twelve cars on a track of 24 cards, each with a speed limit. Every round "
        "each car chooses its speed and throws the speed dice; going over a card's limit costs "
        "brake points, and a car whose brake runs out is eliminated. A player orders each "
        "car's risk and its top speed."
    )

    def order_fields(self, given: Mapping[str, Any]) -> dict[str, forms.Field]:
        """A league's cars are driven by the default driver: no "interactive" mode (the
        stored orders keep the spec's default, auto)."""
        fields = super().order_fields(given)
        fields.pop("mode", None)
        return fields

    # The run, its outcome's JSON and its dice rows are the engine's league round
    # (engine/rulesets/ludicitude/league.py), so that ``python -m engine replay`` runs the same.


ADAPTER = LudicitudeAdapter()
