"""Resolving a round exactly once: who starts with which orders, the engine run outside the lock,
and every row written in one transaction (STYLE "Stage resolution")."""

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from plugins import adapter_for, cycling_adapter
from races.adapters.base import EntrantSpec
from races.course_validation import stage_course_errors
from races.models import Classification, StageResult
from races.standings import standings_update
from season.cache import season_changed
from season.computer_teams import computer_teams_fill
from season.models import (
    DONE_STATUSES,
    RESOLVABLE_STATUSES,
    Job,
    Orders,
    Round,
    Seat,
)
from season.round_names import round_name_start
from season.selectors import carried_states, previous_standing, riders_out_of_race
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
from season.services.motor_rounds import is_motor, motor_round_simulate, motor_round_write

logger = logging.getLogger(__name__)


def round_entrants(*, round: Round) -> tuple[list[EntrantSpec], int | None, int | None]:
    """Starters in start order (GC order; stage 1: bib order), with their orders and the
    state they carry (the GC order of the rules, R-T1; ARCHITECTURE "State carried between
    stages"): the orders as stored and the carried state go to the ruleset's adapter as they are.

    A stage whose course the engine would refuse is refused here, before any engine input is
    built (RoundError naming the stage). Stage 1 first puts the start-list riders no player
    took into computer teams, should the race have started without them (docs/league.md).
    """
    season = round.season
    errors = stage_course_errors(round.stage)
    if errors:
        raise RoundError(" ".join(errors))
    if round.number == 1 and round.status not in DONE_STATUSES:
        computer_teams_fill(season=season)
    out = riders_out_of_race(season=season, before_number=round.number)
    members = [
        m
        for m in Seat.objects.filter(season=season).order_by("number", "pk")
        if m.rider_id not in out
    ]
    orders = {o.team_id: o.data for o in Orders.objects.filter(round=round)}
    crash_counts: dict[int, int] = {}
    for rider_id, crashes in StageResult.objects.filter(
        stage__race_id=season.race_pk, stage__number__lt=round.number
    ).values_list("rider_id", "crashes"):
        crash_counts[rider_id] = crash_counts.get(rider_id, 0) + len(crashes)
    carried = carried_states(round)
    general = previous_standing(round, Classification.GENERAL)
    gc = {line.rider_id: line for line in general}
    points = previous_standing(round, Classification.POINTS)

    specs = []
    for member in members:
        team_orders: dict[str, Any] = orders.get(member.team_id, {})
        order = team_orders.get(str(member.rider_id), {})
        standing = gc.get(member.rider_id)
        specs.append(
            EntrantSpec(
                rider_id=member.rider_pk,
                team_id=member.team_id,
                bib=member.number or member.pk,
                role=order.get("role", member.role),
                tour_crash_count=crash_counts.get(member.rider_pk, 0),
                gc_rank_before=standing.rank if standing else None,
                gc_time_before=standing.value if standing else 0,
                orders=order,
                carried=carried.get(member.rider_pk) or {},
            )
        )
    big = 10**9
    specs.sort(key=lambda s: (s.gc_rank_before or big, s.bib))
    yellow = general[0].rider_id if general else None
    green = points[0].rider_id if points else None
    return specs, yellow, green


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
    *, round_id: int, job_id: int | None = None, retry_in: int | None = None
) -> Round:
    """Resolve a stage exactly once (ARCHITECTURE "Stage lifecycle").

    Claim: lock the row, return at once if resolved, draw and store the seed (once, so that a
    retry replays the same race), mark it resolving. Simulate outside any lock: the engine is
    pure and its inputs are frozen once the stage is locked. Write: lock again, return if
    another worker finished first, write results, events, dice and standings in one
    transaction. A failure leaves nothing half-written and is recorded on the stage and the
    job before re-raising; the job says a retry is coming only for a passing fault when the
    task will retry (`retry_in` seconds from now, given by the task).
    """
    try:
        with transaction.atomic():
            stage = (
                Round.objects.select_for_update(of=("self",))
                .select_related("season", "stage")
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
    )

    try:
        if is_motor(stage.season):
            return _motor_round_finish(stage, job_id=job_id)
        rules = stage.season.rules
        adapter = cycling_adapter(stage.season.ruleset)
        entrants, yellow, green = round_entrants(round=stage)
        inputs = adapter.inputs_build(
            stage=stage.stage,
            entrants=entrants,
            rules=rules,
            yellow_jersey=yellow,
            green_jersey=green,
        )
        outcome = adapter.simulate(inputs, seed=dice_seed_of(stage))
        timed = adapter.stage_times(stage=stage.stage, outcome=outcome, rules=rules)
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
            adapter.outcome_write(
                stage=stage.stage,
                outcome=outcome,
                timed=timed,
                team_of={e.rider_id: e.team_id for e in entrants},
            )
            standings_update(stage=stage.stage)
            dice_log_write(round=locked, adapter=adapter, outcome=outcome)
            locked.status = Round.Status.RESOLVED
            locked.resolved_at = timezone.now()
            locked.engine_inputs = adapter.inputs_to_data(inputs)
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


def _motor_round_finish(claimed: Round, *, job_id: int | None) -> Round:
    """A claimed Grand Prix round: the grid filled on round 1, the engine run outside the lock,
    then, locked again, the rows written once (results, events, trace, both tables). Errors go
    to round_resolve's handler, which puts the round back and records them on the job."""
    adapter = adapter_for(claimed.season.ruleset)
    if claimed.number == 1:
        computer_teams_fill(season=claimed.season)
    run = motor_round_simulate(round=claimed, adapter=adapter)
    job_update(job_id, progress=60, message=gettext_noop("writing results and standings"))
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=claimed.pk)
        if locked.status in DONE_STATUSES:
            job_update(
                job_id,
                status=Job.Status.DONE,
                progress=100,
                message=gettext_noop("already resolved"),
            )
            return locked
        motor_round_write(round=claimed, adapter=adapter, run=run)
        locked.status = Round.Status.RESOLVED
        locked.resolved_at = timezone.now()
        locked.engine_inputs = run.inputs
        locked.last_error = ""
        locked.save(update_fields=["status", "resolved_at", "engine_inputs", "last_error"])
        _next_round_follow(locked)
        # Done in the round's own transaction, as a stage's job is.
        job_update(job_id, status=Job.Status.DONE, progress=100, message=gettext_noop("resolved"))
    locked.refresh_from_db()
    return locked
