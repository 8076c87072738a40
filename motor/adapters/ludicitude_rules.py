"""The short wording of each Ludicitude rule the pages cite (the help of the settings and
orders), linked to its line on the "how it works" page. Sections of rules/ludicitude.md."""

from django.utils.translation import gettext_lazy as _

RULE_TITLES = {
    "§7.1": _("The orders of a car"),
    "T-3": _("Closed or open circuit"),
    "LU-2": _("Rounds and turn order"),
    "LU-5": _("Penalties on the cards"),
    "LU-11": _("The round cap"),
    "S-5": _("Round-1 order by the standings"),
    "B3": _("The speed compared with the limits"),
    "λ": _("the weight of a brake point against a card moved"),
}
