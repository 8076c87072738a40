"""What each Moréno rule code of the dice log and the events means, in a player's words (the
"how it works" page and the hover text of a code). Sections of rules/moreno.md."""

from django.utils.translation import gettext_lazy as _

RULE_TEXTS = {
    "R-A3": _(
        "Abandons: after the stage a d6 of 4 to 6 makes riders far behind the bunch abandon."
    ),
    "R-A4": _(
        "Who abandons: the riders are picked by the rules' criteria in turn (crashes, "
        "the last to arrive…)."
    ),
    "R-C1": _("Climbing: two climbing dice read through the climber rating (puncheur on a hill)."),
    "R-C3": _("A climber rated 4 who rolls the best result rolls again and adds it."),
    "R-D1": _("Descending: three descent dice read through the descender rating."),
    "R-P20": _("The bunch's d20: the table decides how the whole bunch moves this turn."),
    "R-P20.1": _("d20 = 1: the head of the bunch rolls; the bunch packs behind him."),
    "R-P20.2": _("d20 = 2: as 1, with the head's team first in the pack."),
    "R-P20.3": _("d20 = 3: the yellow jersey's team rides at the front; the bunch packs behind."),
    "R-P20.4": _("d20 = 4: as 3, with the whole yellow-jersey team first."),
    "R-P20.5": _("d20 = 5: a sprinter's team rides at the front; the bunch packs behind."),
    "R-P20.6": _("d20 = 6: as 5, with the sprinter's whole team first."),
    "R-P20.7": _("d20 = 7: the head rolls; the bunch strings out in single file."),
    "R-P20.8": _("d20 = 8: the bunch closes on the riders just ahead."),
    "R-P20.9": _("d20 = 9: as 8, and the bunches behind close up too."),
    "R-P20.10": _("d20 = 10: everyone gains one square; breakaway riders roll."),
    "R-P20.11": _("d20 = 11: each rider moves by his rouleur rating, no dice."),
    "R-P20.12": _("d20 = 12: each rider moves by his rouleur rating; the bunch stays together."),
    "R-P20.13": _("d20 = 13: each rider moves by his puncheur rating, no dice."),
    "R-P20.14": _("d20 = 14: a sprinters' train; the others roll to keep up."),
    "R-P20.15": _("d20 = 15: each rider rolls; baroudeurs and finisseurs may escape."),
    "R-P20.16": _("d20 = 16: each rider rolls d6 + poker die; K and 6 is a long attack."),
    "R-P20.17": _("d20 = 17: the domestiques roll; leaders and sprinters sit on their wheels."),
    "R-P20.18": _("d20 = 18: each rider rolls a d20 and moves that far."),
    "R-P20.19": _(
        "d20 = 19: each rider rolls; an eligible rider rolling K and 6 may start a breakaway."
    ),
    "R-P20.20": _("d20 = 20: as 19, and every rider may start a breakaway."),
    "R-S1": _("A lone rider three squares behind a group may close the gap (poker die)."),
    "R-S2": _("A lone rider rolls d6 + poker die."),
    "R-S3": _("Two riders together: the front one rolls, and they take turns."),
    "R-SP1": _("The sprint: one d6 for the group, read through each rider's sprinter rating."),
    "R-TT2": _("Time trial: each rider rolls alone, read through his time-trial rating."),
    "R-X1": _("A double 1 (or ace) may be a crash: a confirm die decides."),
    "R-X1.2": _("A second confirm die: the crash happens only on a 1 or a 2."),
    "R-X2": _("A crash brings down the riders right behind on a poker die."),
    "R-X5": _("A fallen rider gets back on his bike on a poker die (A, 9 or 10)."),
}

#: The short wording of each rule the pages cite (the help of the settings and orders, the
#: dice log's codes by family): "R-X1" is shown as "R-X1 Crashes", linked to its line on the
#: "how it works" page. Sections of rules/moreno.md.
RULE_TITLES = {
    "§2.7": _("The riders on the road"),
    "§4": _("Time gaps"),
    "R-T": _("The turn"),
    "R-G": _("Groups"),
    "R-C": _("Climbs"),
    "R-D": _("Descents"),
    "R-S": _("A rider alone or a pair"),
    "R-P20": _("The bunch's d20 table"),
    "R-X": _("Crashes"),
    "R-X2": _("Riders brought down by a crash"),
    "R-SP": _("The sprint"),
    "R-SP1": _("Who sprints"),
    "R-F": _("Finish, ranking and time"),
    "R-A": _("Abandons"),
    "R-A2": _("The abandon table"),
    "R-A3": _("The abandon roll"),
    "R-TT": _("Time trials"),
    "R-TT3": _("Time-trial gaps"),
}
