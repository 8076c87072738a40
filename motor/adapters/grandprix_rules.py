"""The short wording of each Grand Prix rule the pages cite (the help of the settings and
orders), linked to its line on the "how it works" page. Sections of rules/grandprix.md."""

from django.utils.translation import gettext_lazy as _

RULE_TITLES = {
    "§2": _("Speed and incident cards"),
    "§7.1": _("The orders of a car"),
    "T-3": _("Steps on the track"),
    "GP-1": _("Setup"),
    "GP-2": _("Qualifying"),
    "GP-3": _("Rounds and turn order"),
    "GP-4": _("Gears"),
    "GP-5": _("The throw"),
    "GP-6": _("Movement"),
    "GP-7": _("Corners and track exits"),
    "GP-8": _("Blocking and passing"),
    "GP-9": _("Green squares and the card piles"),
    "GP-10": _("Incident cards"),
    "GP-11": _("Pit stops"),
    "GP-12": _("Finish and classification"),
    "P-2": _("The default driver's gear"),
    "P-3": _("The default driver's speed cards"),
    "P-4": _("The default driver's pit stops"),
    "P-6": _("The default driver in qualifying"),
    "A2": _("Choosing the advance of a speed card"),
    "A10": _("Lane changes in one move"),
}
