"""Resolving a round exactly once: who starts with which orders, the engine run outside the lock,
and every row written in one transaction (STYLE "Stage resolution")."""

import logging
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plugins import GameAdapter, Starter, adapter_for
from season.cache import season_changed
from season.computer_teams import computer_teams_fill
from season.models import (
    DONE_STATUSES,
    RESOLVABLE_STATUSES,
    Job,
    Orders,
    Round,
)
from season.round_names import round_name_start
from season.selectors import season_seats
from season.services.carry import standing_orders_write
from season.services.commitment import dice_seed_of, round_seed_commit
from season.services.dice import dice_log_write
from season.services.jobs import (
    PASSING_FAULTS,
    failure_of,
    job_failed,
    job_send_quietly,
    job_update,
)
from season.services.lifecycle import RoundError, previous_resolved_check
from season.services.season_standings import season_standings_write
from season.services.selections import selections_fill

logger = logging.getLogger(__name__)


def round_event(round: Round, adapter: GameAdapter) -> Any:
    """The row the round races (a stage, a Grand Prix), refused when it has none or when the
    game would refuse it as it stands (RoundError naming it), before any input is built."""
    event = adapter.round_event(round)
    if event is None:
        raise RoundError(
            _("%(round)s has nothing to race.")
            % {"round": round_name_start(round.season, round.number)}
        )
    errors = adapter.round_errors(event)
    if errors:
        raise RoundError(" ".join(errors))
    return event


def round_starters(*, round: Round) -> list[Starter]:
    """Every seat of the season's teams with its team's orders for the round (none: the spec's
    defaults, and a rider's squad role), as plain starters for the game's adapter, which keeps
    those still racing and adds the state its game carries (the GC order, a driver's place).

    Round 1 first puts the seats no player took into computer teams, should the season have
    started without them (docs/league.md).
    """
    season = round.season
    if round.number == 1 and round.status not in DONE_STATUSES:
        computer_teams_fill(season=season)
    if round.status == Round.Status.RESOLVING:
        # Computer teams seated only now get their stored selection as the others did.
        selections_fill(item=round.season_event)
    orders = {o.team_id: o.data for o in Orders.objects.filter(round=round)}
    return [
        replace(seat, orders=orders.get(seat.team_id, {}).get(seat.key, {}))
        for seat in season_seats(season=season, round=round)
    ]


def _next_round_follow(resolved: Round) -> None:
    """Open the next stage for orders; if it is already locked and its deadline has passed,
    queue its resolution once this one is committed."""
    following = Round.objects.filter(
        season_id=resolved.season_id, number=resolved.number + 1
    ).first()
    if following is None:
        return
    if following.status == Round.Status.SCHEDULED:
        following.status = Round.Status.OPEN
        following.save(update_fields=["status"])
        round_seed_commit(round=following)
    elif (
        following.status == Round.Status.LOCKED
        and following.orders_deadline is not None
        and following.orders_deadline <= timezone.now()
    ):
        job = Job.objects.create(round=following)
        # A broker out of reach leaves the job failed; the next deadline check sends it again.
        # Whatever else goes wrong in sending it is logged: this stage is resolved all the same.
        transaction.on_commit(lambda: job_send_quietly(job), robust=True)


def round_resolve(
    *, round_id: int, job_id: int | None = None, retry_in: int | None = None, worker: str = ""
) -> Round:
    """Resolve a stage exactly once (ARCHITECTURE "Stage lifecycle").

    Claim: lock the row, return at once if resolved, draw and store the seed (once, so that a
    retry replays the same race), mark it resolving. Simulate outside any lock: the engine is
    pure and its inputs are frozen once the stage is locked. Write: lock again, return if
    another worker finished first, write results, events, dice and standings in one
    transaction. A failure leaves nothing half-written and is recorded on the stage and the
    job before re-raising; the job says a retry is coming only for a passing fault when the
    task will retry (`retry_in` seconds from now, given by the task). The job records the
    `worker` that started it (the task's hostname; empty in-process).
    """
    try:
        with transaction.atomic():
            stage = (
                Round.objects.select_for_update(of=("self",))
                .select_related("season", "stage", "grand_prix__championship")
                .get(pk=round_id)
            )
            if stage.status in DONE_STATUSES:
                job_update(
                    job_id,
                    status=Job.Status.DONE,
                    progress=100,
                    message=gettext_noop("already resolved"),
                )
                return stage
            if stage.status not in RESOLVABLE_STATUSES:
                raise RoundError(
                    _("%(round)s is %(status)s.")
                    % {
                        "round": round_name_start(stage.season, stage.number),
                        "status": stage.get_status_display(),
                    }
                )
            previous_resolved_check(stage)
            # Never a plain seed: a round that reached here uncommitted is committed now.
            round_seed_commit(round=stage)
            # Standing orders are copied for the round now, under its lock and before its
            # dice seed is derived from the nonces: the copies' nonces count like any other.
            # The event's selections are written first: the standing orders copy its starters.
            selections_fill(item=stage.season_event)
            standing_orders_write(round=stage)
            stage.status = Round.Status.RESOLVING
            stage.attempts += 1
            stage.save(update_fields=["status", "attempts"])
    except RoundError as error:
        job_failed(job_id, failure=Job.Failure.STAGE, error=error)
        raise
    job_update(
        job_id,
        status=Job.Status.RUNNING,
        progress=10,
        message=gettext_noop("simulating the stage"),
        failure="",
        detail="",
        retry_at=None,
        worker=worker[:200],
    )

    try:
        rules = stage.season.rules
        adapter = adapter_for(stage.season.ruleset)
        event = round_event(stage, adapter)
        starters = round_starters(round=stage)
        inputs = adapter.round_inputs(event=event, starters=starters, rules=rules)
        outcome = adapter.simulate(inputs, seed=dice_seed_of(stage))
        job_update(job_id, progress=60, message=gettext_noop("writing results and standings"))
        with transaction.atomic():
            locked = Round.objects.select_for_update().get(pk=stage.pk)
            if locked.status in DONE_STATUSES:
                # Another worker wrote this stage first: this job's work is done all the same.
                job_update(
                    job_id,
                    status=Job.Status.DONE,
                    progress=100,
                    message=gettext_noop("already resolved"),
                )
                return locked
            adapter.round_write(event=event, outcome=outcome, starters=starters, rules=rules)
            dice_log_write(round=locked, adapter=adapter, outcome=outcome)
            season_standings_write(season=stage.season, number=locked.number)
            locked.status = Round.Status.RESOLVED
            locked.resolved_at = timezone.now()
            locked.engine_inputs = adapter.inputs_stored(inputs)
            locked.last_error = ""
            locked.save(update_fields=["status", "resolved_at", "engine_inputs", "last_error"])
            season_changed(stage.season)
            _next_round_follow(locked)
            # The job is done in the round's own transaction: nobody reads a resolved round
            # whose job is still running.
            job_update(
                job_id, status=Job.Status.DONE, progress=100, message=gettext_noop("resolved")
            )
            pause = settings.STAGE_RESOLVE_PAUSE_BEFORE_COMMIT
            if pause:
                # Fault injection for the worker-kill test only (0 everywhere else).
                time.sleep(pause)
    except Exception as error:
        if Round.objects.filter(pk=stage.pk, status__in=DONE_STATUSES).exists():
            # The results are committed: what failed came after them. The stage is resolved,
            # and so is its job.
            logger.exception("Stage %s of %s: after its commit", stage.number, stage.season.slug)
            job_update(
                job_id, status=Job.Status.DONE, progress=100, message=gettext_noop("resolved")
            )
            return Round.objects.get(pk=stage.pk)
        reason = f"{type(error).__name__}: {error}"[:2000]
        logger.exception("Stage %s of %s failed", stage.number, stage.season.slug)
        Round.objects.filter(pk=stage.pk, status=Round.Status.RESOLVING).update(
            status=Round.Status.LOCKED, last_error=reason
        )
        retry = retry_in is not None and isinstance(error, PASSING_FAULTS)
        job_failed(
            job_id,
            failure=failure_of(error),
            error=error,
            retry_at=timezone.now() + timedelta(seconds=retry_in) if retry and retry_in else None,
        )
        raise
    locked.refresh_from_db()
    return locked
