"""What each Cyclo Sim code of the dice log and the events means, in a player's words (the
"how it works" page and the hover text of a code). Sections of rules/cyclosim.md."""

from django.utils.translation import gettext_lazy as _

RULE_TEXTS = {
    "contract": _(
        "A contract: two d6 decide how far a rider at the front gets for the energy he spends."
    ),
    "follow": _(
        "Following: two d6 decide whether a rider holds the wheel beyond the free distance."
    ),
    "attack": _("An attack: two d6 with a bonus decide how far the attacker jumps."),
    "R-AT": _("An attack, in the rider's attack window."),
}

#: The short wording of each rule the pages cite (the help of the settings and orders, the
#: dice log's codes by family), linked to its line on the "how it works" page. Sections of
#: rules/cyclosim.md.
RULE_TITLES = {
    "§1": _("Roles"),
    "§2.1": _("The road"),
    "§2.3": _("Energy and potential"),
    "§3.12": _("Time trials"),
    "§4.6": _("Riders without orders"),
    "§5": _("Time gaps"),
    "R-M": _("Movement"),
    "R-T": _("The turn"),
    "R-A": _("The auction for the road"),
    "R-R": _("Contracts"),
    "R-F": _("Followers"),
    "R-AT": _("Attacks"),
    "R-W": _("Taking a wheel"),
    "R-RB": _("Closing up"),
    "R-RL": _("Relays"),
    "R-RC": _("Recovery"),
    "R-X": _("Crashes and elimination"),
    "R-FT": _("Finish and time"),
}
