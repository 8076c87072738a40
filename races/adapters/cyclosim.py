"""The Cyclo Sim adapter (rules/cyclosim.md): energy, contracts and drafting; a player gives
each rider his §4.1 orders (pace per terrain, energy kept, wheel, relays, an attack window in
km), and each rider carries his energy consumed to the next stage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.rulesets.cyclosim.sheet import consumed_at_start, pe_max_of
from races.adapters.base import CyclingAdapter, profile_of
from races.adapters.cyclosim_rules import RULE_TEXTS, RULE_TITLES


class CyclosimAdapter(CyclingAdapter):
    name = "cyclosim"
    #: The codes of the dice log and the events, explained (the "how it works" page).
    rule_texts = RULE_TEXTS
    rule_titles = RULE_TITLES
    label = _("Cyclo Sim (energy, contracts, drafting)")
    how_it_works = _(
        "Cyclo Sim: each rider has a store of energy points and, every turn, an instantaneous "
        "potential; riders bid for the road in an auction of contracts, shelter in drafting "
        "files, relay each other, attack and sit up. Energy spent is carried to the next "
        "stage, less a night's recovery. A player gives each rider a pace per terrain, the "
        "energy he keeps for the final, whose wheel he takes, whom he relays with and one "
        "attack window; riders without orders follow the default plan of their role."
    )
    orders_legend = _(
        "Paces: free = as fast as the dice allow; tempo = a steady effort; safe = never beyond "
        "what costs no contract; expected = the likely roll; all out = everything left. "
        "Energy kept: the share of energy the rider never spends before the final. "
        "The attack window is given in km from the start."
    )

    #: Cyclo Sim's time trials spread the field about 1.35 times wider than real ones (speed
    #: goes with 7 + PI, and PI spans 3..8): scaled, the ITT gaps match real ones and riders
    #: stop missing the time cut there (docs/rules-choices.md, bench/realism.py).
    gap_scale = MappingProxyType(
        {"flat": 1.0, "hilly": 1.0, "mountain": 1.0, "ITT": 0.75, "TTT": 1.0}
    )

    def seat_clean(self, values: Mapping[str, Any], *, round: Any) -> dict[str, Any]:
        """The attack window (R-AT): both ends or neither, the end after the start, the start
        before the finish of the round's stage."""
        stage = round.stage if round is not None else None
        distance_km = float(stage.distance_km) if stage is not None and stage.distance_km else None
        start, end = values.get("attack_from_km"), values.get("attack_to_km")
        if (start is None) != (end is None):
            return {"attack_to_km": gettext("Give both ends of the attack window, or neither.")}
        if start is not None and end is not None and end <= start:
            return {"attack_to_km": gettext("The window must end after it starts.")}
        if start is not None and distance_km and start >= distance_km:
            return {
                "attack_from_km": gettext(
                    "The stage is %(km)s km long: the attack must start before the finish."
                )
                % {"km": f"{distance_km:g}"}
            }
        return {}

    def team_energy(
        self,
        *,
        rules: Any,
        starters: Sequence[Any],
        carried: Mapping[int, Mapping[str, Any]],
        ratings: Mapping[int, Mapping[str, int]],
    ) -> dict[int, tuple[int, int]]:
        """A rider's energy at the start of a stage, ``(pe, pe_max)`` (cyclosim.md §2.3), from
        the points he had consumed at the previous finish, as the engine counts it."""
        settings = self.engine_settings(rules)
        energy = {}
        for member in starters:
            pe_max = pe_max_of(
                profile_of(ratings[member.rider_pk]),
                profiles=settings.profiles,
                base=settings.pe_base,
                per_rouleur=settings.pe_per_rouleur,
            )
            consumed = int(carried.get(member.rider_id, {}).get("pe_consumed", 0))
            energy[member.rider_id] = (
                pe_max - consumed_at_start(consumed, pe_max, settings.overnight_recovery),
                pe_max,
            )
        return energy


ADAPTER = CyclosimAdapter()
