"""The Moréno adapter (rules/moreno.md): 8-axis profiles and dice; a player gives each rider a
role and, if he likes, the no-breakaway order (R-P20)."""

from __future__ import annotations

from types import MappingProxyType

from django.utils.translation import gettext_lazy as _

from races.adapters.base import CyclingAdapter
from races.adapters.moreno_rules import RULE_TEXTS, RULE_TITLES


class MorenoAdapter(CyclingAdapter):
    name = "moreno"
    #: The codes of the dice log and the events, explained (the "how it works" page).
    rule_texts = RULE_TEXTS
    rule_titles = RULE_TITLES
    label = _("Moréno (8-axis profiles, dice)")
    how_it_works = _(
        "Moréno: each rider has eight ratings (rouleur, sprinter, baroudeur, finisseur, "
        "descender, time trialist, puncheur, climber). Every turn the riders move along the "
        "road's squares by dice read through their ratings and the terrain; bunches form and "
        "break up on the d20 table, climbs and descents sort the riders, crashes and abandons "
        "happen on the dice, and the sprint settles the finish. Each square behind the winner "
        "costs time. A player gives each rider a role and may tell him never to join a "
        "breakaway."
    )

    #: R-F3's seconds per case keep the back of the field 4-5 times closer than in real Tours:
    #: the gaps of hilly and mountain stages are stretched beyond their first 60 s, so the GC
    #: lands in the real bands and the winning margins stay as raced (docs/rules-choices.md,
    #: "Gap scale"; bench/realism.py).
    gap_scale = MappingProxyType(
        {"flat": 1.0, "hilly": 1.5, "mountain": 3.0, "ITT": 1.0, "TTT": 1.0}
    )
    gap_scale_after_s = 60
    #: The league neutralises the gaps of the final kilometre's cases, as real races do
    #: (docs/rules-choices.md); the engine's own default is none.
    season_defaults = MappingProxyType({"final_km_neutralisation_cases": 6})


ADAPTER = MorenoAdapter()
