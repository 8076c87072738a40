"""The round lifecycle (ARCHITECTURE "Round lifecycle"): open, lock and publish, the deadline
lock, and the rule that rounds resolve in order. Each transition is a conditional update, so two
requests at once move a round once."""

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from season.cache import season_changed
from season.computer_teams import computer_teams_fill
from season.models import DONE_STATUSES, RESOLVABLE_STATUSES, Job, Round, Season
from season.round_names import round_name, round_name_start
from season.services.commitment import round_seed_commit

# The status each organiser's transition starts from: the checks below and the conditional
# updates of the transitions read the same constants.
OPENS_FROM = Round.Status.SCHEDULED
LOCKS_FROM = Round.Status.OPEN
PUBLISHES_FROM = Round.Status.RESOLVED


class RoundError(Exception):
    """A lifecycle step that is not allowed now; the message says why."""


def _round_move(round: Round, *, source: str, target: str, refusal: str) -> Round:
    # A conditional update: zero rows means the stage was not (or no longer) in `source`.
    updated = Round.objects.filter(pk=round.pk, status=source).update(status=target)
    if not updated:
        raise RoundError(refusal % {"round": round_name_start(round.season, round.number)})
    round.refresh_from_db()
    season_changed(round.season)
    return round


def round_open(*, round: Round) -> Round:
    """Open orders; opening stage 1 starts the race: the start list's riders that no player
    took ride for computer teams from then on."""
    opened = _round_move(
        round,
        source=OPENS_FROM,
        target=Round.Status.OPEN,
        refusal=_("%(round)s is not scheduled: it cannot be opened."),
    )
    if opened.number == 1:
        computer_teams_fill(season=opened.season)
    # The seed is drawn and committed as orders open (season.services.commitment).
    round_seed_commit(round=opened)
    return opened


def round_lock(*, round: Round) -> Round:
    round_seed_commit(round=round)
    return _round_move(
        round,
        source=LOCKS_FROM,
        target=Round.Status.LOCKED,
        refusal=_("%(round)s is not open: it cannot be locked."),
    )


def round_publish(*, round: Round) -> Round:
    """Announce a resolved stage's results (players are emailed by the notifications task)."""
    return _round_move(
        round,
        source=PUBLISHES_FROM,
        target=Round.Status.PUBLISHED,
        refusal=_("%(round)s is not resolved: nothing to publish."),
    )


def rounds_lock_due(*, now: datetime | None = None) -> list[int]:
    """Lock every open stage whose deadline has passed; return the locked stages whose deadline
    has passed and that can be resolved now (every earlier stage of their season is resolved),
    in stage order."""
    now = now or timezone.now()
    # Read once with their seasons: on a busy evening hundreds of rounds are due at once, and
    # each then costs its conditional update and its season's change mark only (issue 33).
    due = Round.objects.filter(status=Round.Status.OPEN, orders_deadline__lte=now).select_related(
        "season"
    )
    for stage in list(due):
        round_seed_commit(round=stage)
        if Round.objects.filter(pk=stage.pk, status=Round.Status.OPEN).update(
            status=Round.Status.LOCKED
        ):
            season_changed(stage.season)
    # A stage the organiser locked early waits for its deadline (or for "resolve now"); one
    # whose season has an earlier round not done waits for it (one query for them all).
    pending_before = Round.objects.filter(
        season_id=OuterRef("season_id"), number__lt=OuterRef("number")
    ).exclude(status__in=DONE_STATUSES)
    locked = (
        Round.objects.filter(status=Round.Status.LOCKED, orders_deadline__lte=now)
        .annotate(pending_before=Exists(pending_before))
        .order_by("season_id", "number")
    )
    return [pk for pk, pending in locked.values_list("pk", "pending_before") if not pending]


def rounds_force_lock(*, season: Season, numbers: list[int]) -> list[Round]:
    """Close orders now on the given stages (the organiser runs them without waiting)."""
    with transaction.atomic():
        stages = list(
            Round.objects.select_for_update()
            .filter(season=season, number__in=numbers)
            .order_by("number")
        )
        missing = sorted(set(numbers) - {s.number for s in stages})
        if missing:
            raise RoundError(
                _("Season %(slug)s has no %(round)s.")
                % {"slug": season.slug, "round": round_name(season, missing[0])}
            )
        for stage in stages:
            if stage.status in (Round.Status.SCHEDULED, Round.Status.OPEN):
                round_seed_commit(round=stage)
                stage.status = Round.Status.LOCKED
                stage.save(update_fields=["status"])
        season_changed(season)
    return stages


def previous_resolved_check(round: Round) -> None:
    previous = earlier_round_pending(round)
    if previous is not None:
        raise RoundError(
            _("%(round)s cannot be resolved before %(previous)s.")
            % {
                "round": round_name_start(round.season, round.number),
                "previous": round_name(round.season, previous.number),
            }
        )


def earlier_round_pending(round: Round) -> Round | None:
    """The first earlier round of the season without results: rounds resolve in order."""
    return (
        Round.objects.filter(season_id=round.season_id, number__lt=round.number)
        .exclude(status__in=DONE_STATUSES)
        .order_by("number")
        .first()
    )


def later_round_resolved(round: Round) -> bool:
    """A later round has results: this round's results are built upon and stay as they are."""
    return Round.objects.filter(
        season_id=round.season_id, number__gt=round.number, status__in=DONE_STATUSES
    ).exists()


# --- what the organiser may do now (the stage page shows these actions and no others) ----


def can_give_orders(round: Round) -> bool:
    """Players may send orders (orders_submit still checks the deadline to the second)."""
    return round.status == Round.Status.OPEN


def can_open(round: Round) -> bool:
    return round.status == OPENS_FROM


def can_lock(round: Round) -> bool:
    return round.status == LOCKS_FROM


def can_publish(round: Round) -> bool:
    return round.status == PUBLISHES_FROM


def can_resolve(round: Round, *, job: Job | None) -> bool:
    """ "Resolve now" starts a resolution: the round takes one, no worker is on it already (a
    silent job may be handed on), and every earlier round is resolved."""
    if round.status not in RESOLVABLE_STATUSES:
        return False
    if job is not None and job.active and not job.silent:
        return False
    return earlier_round_pending(round) is None


def can_reinstate(round: Round) -> bool:
    """A rider outside the time limit can be kept in the race once the round has results and
    until the next round is resolved (docs/rules-choices.md, ``time_cut_pct``)."""
    return round.status in DONE_STATUSES and not later_round_resolved(round)


@dataclass(frozen=True)
class RoundActions:
    """The organiser's actions on a round that the lifecycle allows now, for the pages."""

    open: bool
    lock: bool
    resolve: bool
    publish: bool
    reinstate: bool


def round_actions(round: Round, *, job: Job | None) -> RoundActions:
    return RoundActions(
        open=can_open(round),
        lock=can_lock(round),
        resolve=can_resolve(round, job=job),
        publish=can_publish(round),
        reinstate=can_reinstate(round),
    )
