"""The cycling engines' abandon reasons in words, for translation (the round's "What
happened"): the engine keeps its English phrases (engine/rulesets/moreno/finish.py
ABANDON_REASONS, engine/rulesets/cyclosim/finish.py), the pages say these labels. A reason
not listed (an organiser's, the time cut's with its figures) is shown as it is."""

from collections.abc import Mapping
from types import MappingProxyType

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ABANDON_REASONS: Mapping[str, Promise] = MappingProxyType(
    {
        # Moréno R-A4: the criteria that pick who abandons.
        "last arrived": _("last to arrive"),
        "last on GC": _("last on general classification"),
        "worst crash of the stage": _("worst crash of the stage"),
        "most crashes in the tour": _("most crashes in the race"),
        "most GC places lost": _("most places lost on general classification"),
        "second-to-last arrived": _("second-to-last to arrive"),
        # Cyclo Sim R-X: eliminated by a crash, or out of the stage.
        "crash": _("crash"),
        "stage not finished": _("did not finish the stage"),
    }
)


def abandon_reason_label(reason: object) -> str:
    text = str(reason or "")
    label = ABANDON_REASONS.get(text)
    return str(label) if label is not None else text
