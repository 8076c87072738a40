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
