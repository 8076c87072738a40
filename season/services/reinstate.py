"""The organiser keeps a rider who finished outside the time limit in the race (rules R-T3; the
time cut), while the next round is not resolved."""

from django.db import transaction
from django.utils.translation import gettext as _

from races.adapters.base import REINSTATED_REASON
from races.models import StageResult
from races.standings import standings_update
from season.cache import season_changed
from season.models import DONE_STATUSES, Round
from season.services.lifecycle import RoundError, later_round_resolved
from season.services.season_standings import season_standings_write


def rider_reinstate(*, round: Round, rider_id: int) -> StageResult:
    """The organiser keeps a rider who finished outside the time limit in the race."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if later_round_resolved(locked):
            raise RoundError(_("A rider can only be reinstated before the next stage is resolved."))
        if locked.status not in DONE_STATUSES:
            raise RoundError(
                _("Stage %(number)d has no results yet: nobody can be reinstated.")
                % {"number": locked.number}
            )
        result = (
            StageResult.objects.select_for_update()
            .filter(stage_id=locked.stage_pk, rider_id=rider_id)
            .first()
        )
        if result is None:
            raise RoundError(
                _("No rider %(rider_id)d rode stage %(number)d.")
                % {"rider_id": rider_id, "number": locked.number}
            )
        if result.status != StageResult.Status.OUTSIDE_TIME_LIMIT:
            raise RoundError(
                _("%(rider)s did not finish outside the time limit.") % {"rider": result.rider}
            )
        result.status = StageResult.Status.FINISHED
        result.status_reason = REINSTATED_REASON
        result.reinstated = True
        result.save(update_fields=["status", "status_reason", "reinstated"])
        standings_update(stage=locked.stage)
        # The standings across the season after this round read the race's standings again.
        season_standings_write(season=locked.season, number=locked.number)
        season_changed(locked.season)
    return result
