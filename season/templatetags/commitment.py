"""``{% round_commitment round %}``: the round's dice commitment while orders are open, and the
seed, the nonces and a Verify panel once it is resolved (season.services.commitment)."""

from typing import Any

from django import template

from season.models import DONE_STATUSES, DiceLog, Round
from season.permissions import round_results_visible
from season.services.commitment import round_reveal, round_seed_commit

register = template.Library()


@register.inclusion_tag("season/_commitment.html", takes_context=True)
def round_commitment(context: Any, round: Round) -> dict[str, Any]:
    commitment = round.commitment
    if not commitment and round.status == Round.Status.OPEN:
        # An open round shows its commitment before any orders are taken (a round opened by the
        # formation of the teams, say, commits on its first showing or its first orders).
        commitment = round_seed_commit(round=round)
    request = context.get("request")
    user = getattr(request, "user", None)
    # Revealed with the results: to whom, and when, the results are shown.
    visible = round.status in DONE_STATUSES and round_results_visible(round.season, round, user)
    reveal = round_reveal(round=round) if visible else None
    log = DiceLog.objects.filter(round=round).first() if reveal is not None else None
    return {
        "round": round,
        "commitment": commitment,
        "reveal": reveal,
        "dice_sha256": log.sha256 if log else "",
    }
