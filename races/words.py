"""The cycling engines' abandon reasons in words, for translation (the round's "What
happened"): the engine keeps its English phrases (engine/rulesets/moreno/finish.py
ABANDON_REASONS, engine/rulesets/cyclosim/finish.py); the pages say them as the results do
(races/league/reasons.py, the one list). A reason not listed (an organiser's, the time cut's
with its figures) is shown as it is."""

from collections.abc import Mapping
from types import MappingProxyType

from django.utils.functional import Promise

from races.league.reasons import ENGINE_REASONS

ABANDON_REASONS: Mapping[str, Promise] = MappingProxyType(ENGINE_REASONS)


def abandon_reason_label(reason: object) -> str:
    text = str(reason or "")
    label = ABANDON_REASONS.get(text)
    return str(label) if label is not None else text
