"""A resolved round's inputs, seed and nonces as one JSON file: what ``python -m engine replay
ROUND.json`` re-runs with no database (the Verify panel of the stage page links it)."""

from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from season import selectors
from season.models import DiceLog, Round
from season.permissions import round_results_visible
from season.services.commitment import round_reveal


def round_json(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    round = get_object_or_404(
        Round.objects.select_related("season", "stage"), season=season, number=number
    )
    reveal = round_reveal(round=round)
    if (
        reveal is None
        or round.engine_inputs is None
        or not round_results_visible(season, round, request.user)
    ):
        raise Http404(_("This round has no revealed dice yet."))
    log = DiceLog.objects.filter(round=round).first()
    response = JsonResponse(
        {
            "season": season.slug,
            "round": round.number,
            "ruleset": season.ruleset,
            "seed": reveal.seed,
            "commitment": reveal.commitment,
            "nonces": [nonce for _team, _name, nonce in reveal.nonces],
            "teams": [name for _team, name, _nonce in reveal.nonces],
            "dice_seed": reveal.dice_seed,
            "dice_sha256": log.sha256 if log else "",
            "inputs": round.engine_inputs,
        },
        json_dumps_params={"indent": 1},
    )
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-{round.number}.json"'
    return response
