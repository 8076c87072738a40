"""The league's business: orders, the stage lifecycle and stage resolution."""

import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from kombu.exceptions import OperationalError as BrokerError

from races.courses import stage_course_errors
from races.engine_adapter import (
    EntrantSpec,
    cyclosim_energy,
    cyclosim_orders_errors,
    inputs_to_data,
    outcome_write,
    stage_inputs_build,
    stage_simulate,
)
from races.models import Classification, StageResult, Standing
from races.standings import standings_update
from races.timing import EngineLine, stage_times
from season.computer_teams import computer_teams_fill
from season.models import Job, Orders, Round, Season, SeasonTeam, SeasonTeamRider
from season.orders import orders_errors

logger = logging.getLogger(__name__)

DONE = (Round.Status.RESOLVED, Round.Status.PUBLISHED)
RESOLVABLE = (Round.Status.OPEN, Round.Status.LOCKED, Round.Status.RESOLVING)
OUT_OF_RACE = [s for s in StageResult.Status.values if s != StageResult.Status.FINISHED]

# Faults that pass: the same resolution may well succeed a moment later, so the task retries
# these and only these (a stage is simulated from its stored seed: any other error would repeat).
PASSING_FAULTS = (OperationalError, InterfaceError)
# Failures that a new attempt would meet again: the deadline check leaves such a stage to the
# organiser, who sees the reason on the stage page.
REPEATING_FAILURES = (
    Job.Failure.WORKER_LOST,
    Job.Failure.DATABASE_REFUSED,
    Job.Failure.TIMEOUT,
    Job.Failure.STAGE,
    Job.Failure.UNEXPECTED,
)
# After this many starts of a stage whose worker went silent, the deadline check stops handing
# it on and tells the organiser (a stage that kills its worker would otherwise loop forever).
SILENT_ATTEMPTS_MAX = 4
# A job a worker still owes a report: queued, running, or failed with a retry scheduled.
ACTIVE_JOB = Q(status__in=(Job.Status.QUEUED, Job.Status.RUNNING)) | Q(
    status=Job.Status.FAILED, retry_at__isnull=False
)


# What a team's orders hold per rider, by ruleset (the orders form's fields).
ORDER_KEYS = {
    "moreno": ("role", "no_breakaway"),
    "cyclosim": (
        "role",
        "pace_flat",
        "pace_climb",
        "pace_descent",
        "floor_pct",
        "wheel",
        "relay",
        "attack_from_km",
        "attack_to_km",
    ),
}
ORDER_DEFAULTS: dict[str, Any] = {
    "no_breakaway": False,
    "pace_flat": "tempo",
    "pace_climb": "tempo",
    "pace_descent": "safe",
    "floor_pct": 0,
    "wheel": "any",
    "relay": "team",
    "attack_from_km": None,
    "attack_to_km": None,
}


class RoundError(Exception):
    """A lifecycle step that is not allowed now; the message says why."""


class OrdersClosed(RoundError):
    pass


class WorkersUnreachable(RoundError):
    """The broker did not take the task: nothing changed."""


class OrdersInvalid(RoundError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


# --- who starts -------------------------------------------------------------------------


def riders_out_of_race(*, season: Season, before_number: int) -> set[int]:
    return set(
        StageResult.objects.filter(
            stage__race_id=season.race_id,
            stage__number__lt=before_number,
            status__in=OUT_OF_RACE,
        ).values_list("rider_id", flat=True)
    )


def team_starters(*, team: SeasonTeam, round: Round) -> list[SeasonTeamRider]:
    out = riders_out_of_race(season=team.season, before_number=round.number)
    return [m for m in team.members.select_related("rider") if m.rider_id not in out]


def _previous_standing(round: Round, classification: str) -> list[Standing]:
    return list(
        Standing.objects.filter(
            stage__race_id=round.season.race_id,
            stage__number=round.number - 1,
            classification=classification,
        ).order_by("rank")
    )


def _carried_states(round: Round) -> dict[int, dict[str, Any]]:
    """The engine state each rider carries from the previous stage (Cyclo Sim: energy)."""
    return dict(
        StageResult.objects.filter(
            stage__race_id=round.season.race_id, stage__number=round.number - 1
        ).values_list("rider_id", "state")
    )


def team_energy(*, round: Round, starters: Sequence[SeasonTeamRider]) -> dict[int, tuple[int, int]]:
    """Cyclo Sim: each starter's energy at the start of the stage, ``(pe, pe_max)``, after
    the night's recovery (empty for a Moréno season)."""
    season = round.season
    if season.ruleset != Season.Ruleset.CYCLOSIM:
        return {}
    settings = season.rules.stage_settings(season.ruleset)["settings"]
    carried = _carried_states(round)
    return {
        m.rider_id: cyclosim_energy(
            rider=m.rider,
            pe_consumed=int(carried.get(m.rider_id, {}).get("pe_consumed", 0)),
            settings=settings,
        )
        for m in starters
    }


def round_entrants(*, round: Round) -> tuple[list[EntrantSpec], int | None, int | None]:
    """Starters in start order (GC order; stage 1: bib order), with their orders and the
    state they carry (rules/moreno.md R-T1; ARCHITECTURE "State carried between stages").

    A stage whose course the engine would refuse is refused here, before any engine input is
    built (RoundError naming the stage). Stage 1 first puts the start-list riders no player
    took into computer teams, should the race have started without them (docs/league.md).
    """
    season = round.season
    errors = stage_course_errors(round.stage)
    if errors:
        raise RoundError(" ".join(errors))
    if round.number == 1 and round.status not in DONE:
        computer_teams_fill(season=season)
    out = riders_out_of_race(season=season, before_number=round.number)
    members = [
        m
        for m in SeasonTeamRider.objects.filter(season=season).order_by("bib", "pk")
        if m.rider_id not in out
    ]
    orders = {o.team_id: o.data for o in Orders.objects.filter(round=round)}
    crash_counts: dict[int, int] = {}
    for rider_id, crashes in StageResult.objects.filter(
        stage__race_id=season.race_id, stage__number__lt=round.number
    ).values_list("rider_id", "crashes"):
        crash_counts[rider_id] = crash_counts.get(rider_id, 0) + len(crashes)
    carried = _carried_states(round)
    cyclosim = season.ruleset == Season.Ruleset.CYCLOSIM
    general = _previous_standing(round, Classification.GENERAL)
    gc = {line.rider_id: line for line in general}
    points = _previous_standing(round, Classification.POINTS)

    specs = []
    for member in members:
        team_orders: dict[str, Any] = orders.get(member.team_id, {})
        order = team_orders.get(str(member.rider_id), {})
        standing = gc.get(member.rider_id)
        specs.append(
            EntrantSpec(
                rider_id=member.rider_id,
                team_id=member.team_id,
                bib=member.bib or member.pk,
                role=order.get("role", member.role),
                no_breakaway=bool(order.get("no_breakaway", False)),
                tour_crash_count=crash_counts.get(member.rider_id, 0),
                gc_rank_before=standing.rank if standing else None,
                gc_time_before=standing.value if standing else 0,
                orders=order if cyclosim and order else None,
                pe_consumed=int(carried.get(member.rider_id, {}).get("pe_consumed", 0)),
            )
        )
    big = 10**9
    specs.sort(key=lambda s: (s.gc_rank_before or big, s.bib))
    yellow = general[0].rider_id if general else None
    green = points[0].rider_id if points else None
    return specs, yellow, green


# --- orders -----------------------------------------------------------------------------


def orders_submit(
    *,
    team: SeasonTeam,
    round: Round,
    orders: dict[int, dict[str, Any]],
    user: Any,
    now: datetime | None = None,
) -> Orders:
    """Store a team's orders for a stage, before its deadline only."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status != Round.Status.OPEN:
            raise OrdersClosed(
                _("Orders for stage %(number)s are closed: the stage is %(status)s.")
                % {"number": locked.number, "status": locked.get_status_display()}
            )
        if locked.orders_deadline and now >= locked.orders_deadline:
            deadline = timezone.localtime(locked.orders_deadline).strftime("%d %b %Y %H:%M")
            raise OrdersClosed(
                _("Orders for stage %(number)s closed at %(deadline)s.")
                % {"number": locked.number, "deadline": deadline}
            )
        starters = {m.rider_id for m in team_starters(team=team, round=locked)}
        errors = orders_errors(orders=orders, rider_ids=starters)
        keys = ORDER_KEYS[team.season.ruleset]
        data = {
            str(rider_id): {key: order.get(key, ORDER_DEFAULTS.get(key)) for key in keys}
            for rider_id, order in sorted(orders.items())
        }
        if not errors and team.season.ruleset == Season.Ruleset.CYCLOSIM:
            errors = cyclosim_orders_errors(
                orders={int(k): v for k, v in data.items()}, stage=locked.stage
            )
        if errors:
            raise OrdersInvalid(errors)
        record, _created = Orders.objects.update_or_create(
            team=team, round=locked, defaults={"data": data, "submitted_by": user}
        )
    return record


# --- the lifecycle ----------------------------------------------------------------------


def _stage_move(round: Round, *, source: str, target: str, refusal: str) -> Round:
    # A conditional update: zero rows means the stage was not (or no longer) in `source`.
    updated = Round.objects.filter(pk=round.pk, status=source).update(status=target)
    if not updated:
        raise RoundError(refusal % {"number": round.number})
    round.refresh_from_db()
    return round


def round_open(*, round: Round) -> Round:
    """Open orders; opening stage 1 starts the race: the start list's riders that no player
    took ride for computer teams from then on."""
    opened = _stage_move(
        round,
        source=Round.Status.SCHEDULED,
        target=Round.Status.OPEN,
        refusal=_("Stage %(number)s is not scheduled: it cannot be opened."),
    )
    if opened.number == 1:
        computer_teams_fill(season=opened.season)
    return opened


def round_lock(*, round: Round) -> Round:
    return _stage_move(
        round,
        source=Round.Status.OPEN,
        target=Round.Status.LOCKED,
        refusal=_("Stage %(number)s is not open: it cannot be locked."),
    )


def round_publish(*, round: Round) -> Round:
    """Announce a resolved stage's results (players are emailed by the notifications task)."""
    return _stage_move(
        round,
        source=Round.Status.RESOLVED,
        target=Round.Status.PUBLISHED,
        refusal=_("Stage %(number)s is not resolved: nothing to publish."),
    )


def rounds_lock_due(*, now: datetime | None = None) -> list[int]:
    """Lock every open stage whose deadline has passed; return the locked stages whose deadline
    has passed and that can be resolved now (every earlier stage of their season is resolved),
    in stage order."""
    now = now or timezone.now()
    due = Round.objects.filter(status=Round.Status.OPEN, orders_deadline__lte=now)
    for pk in due.values_list("pk", flat=True):
        Round.objects.filter(pk=pk, status=Round.Status.OPEN).update(status=Round.Status.LOCKED)
    ready = []
    # A stage the organiser locked early waits for its deadline (or for "resolve now").
    locked = Round.objects.filter(status=Round.Status.LOCKED, orders_deadline__lte=now).order_by(
        "season_id", "number"
    )
    for stage in locked:
        pending_before = (
            Round.objects.filter(season_id=stage.season_id, number__lt=stage.number)
            .exclude(status__in=DONE)
            .exists()
        )
        if not pending_before:
            ready.append(stage.pk)
    return ready


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
                _("Season %(slug)s has no stage %(number)s.")
                % {"slug": season.slug, "number": missing[0]}
            )
        for stage in stages:
            if stage.status in (Round.Status.SCHEDULED, Round.Status.OPEN):
                stage.status = Round.Status.LOCKED
                stage.save(update_fields=["status"])
    return stages


def _check_previous_resolved(round: Round) -> None:
    previous = (
        Round.objects.filter(season_id=round.season_id, number__lt=round.number)
        .exclude(status__in=DONE)
        .order_by("number")
        .first()
    )
    if previous is not None:
        raise RoundError(
            _("Stage %(number)s cannot be resolved before stage %(previous)s.")
            % {"number": round.number, "previous": previous.number}
        )


def round_resolve_request(*, round: Round, user: Any = None) -> Job:
    """The organiser's "resolve now": lock the stage and queue its resolution, once.

    A request for a stage already queued or resolving attaches to its job instead of starting
    another; a job whose worker went silent is queued again. The task is sent after the commit
    (a worker must find the job); if the broker cannot take it, the stage goes back to where it
    was, the job records why, and WorkersUnreachable says so.
    """
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status in DONE:
            raise RoundError(_("Stage %(number)s is already resolved.") % {"number": locked.number})
        job = locked.jobs.first()
        if job is not None and job.active and not job.silent:
            return job
        if locked.status not in RESOLVABLE:
            raise RoundError(
                _("Stage %(number)s is %(status)s.")
                % {"number": locked.number, "status": locked.get_status_display()}
            )
        _check_previous_resolved(locked)
        before = locked.status
        if locked.status == Round.Status.OPEN:
            locked.status = Round.Status.LOCKED
            locked.save(update_fields=["status"])
        job = _job_queue(locked, job if job is not None and job.active else None, user=user)
    _job_send(job, restore_status=before)
    return job


def _job_queue(stage: Round, silent: Job | None, *, user: Any = None) -> Job:
    """A new queued job for the stage, or its silent job made queued again (inside the lock)."""
    if silent is None:
        return Job.objects.create(round=stage, requested_by=user)
    Job.objects.filter(pk=silent.pk).update(
        status=Job.Status.QUEUED,
        progress=0,
        message=gettext_noop("queued again: the last worker went silent"),
        failure="",
        detail="",
        retry_at=None,
        updated_at=timezone.now(),
    )
    silent.refresh_from_db()
    return silent


def _job_send(job: Job, *, restore_status: str | None = None) -> None:
    """Hand a committed job to the workers. A broker that cannot take it leaves the job failed
    with the reason the page shows, and the stage in `restore_status` if given (the state before
    the request); WorkersUnreachable then says nothing changed."""
    from season.tasks import round_resolve_task

    try:
        round_resolve_task.apply_async((job.round_id, job.pk))
    except (BrokerError, OSError) as error:
        logger.warning("The broker refused the job of stage %s: %s", job.round_id, error)
        with transaction.atomic():
            if restore_status is not None and restore_status != Round.Status.LOCKED:
                Round.objects.filter(pk=job.round_id, status=Round.Status.LOCKED).update(
                    status=restore_status
                )
            _job_failed(job.pk, failure=Job.Failure.WORKERS_UNREACHABLE, error=error)
        raise WorkersUnreachable(
            _("The workers cannot be reached; nothing changed, try again.")
        ) from error


def _job_failed(
    job_id: int | None, *, failure: str, error: BaseException, retry_at: Any = None
) -> None:
    _job_update(
        job_id,
        status=Job.Status.FAILED,
        failure=failure,
        # A lifecycle refusal is already in words; anything else keeps its exception's name.
        detail=(
            str(error) if isinstance(error, RoundError) else f"{type(error).__name__}: {error}"
        )[:2000],
        retry_at=retry_at,
    )


def _failure_of(error: BaseException) -> str:
    if isinstance(error, RoundError):
        return Job.Failure.STAGE
    if isinstance(error, SoftTimeLimitExceeded):
        return Job.Failure.TIMEOUT
    if isinstance(error, PASSING_FAULTS):
        return Job.Failure.DATABASE_UNREACHABLE
    if isinstance(error, DatabaseError):
        return Job.Failure.DATABASE_REFUSED
    return Job.Failure.UNEXPECTED


def rounds_resolve_due(*, now: datetime | None = None) -> list[Job]:
    """Beat's deadline check (every STAGE_DEADLINE_CHECK_SECONDS): lock the stages whose deadline
    passed, queue each one that can be resolved now, and queue again the jobs whose worker went
    silent. A stage whose last job failed in a way that would repeat waits for the organiser,
    who sees why on the stage page (not a failure every minute in the log)."""
    queued = []
    due = set(rounds_lock_due(now=now))
    silent = {
        job.round_id
        for job in Job.objects.filter(
            round__status__in=(Round.Status.LOCKED, Round.Status.RESOLVING)
        ).filter(ACTIVE_JOB)
        if job.silent
    }
    for round_id in sorted(due | silent):
        with transaction.atomic():
            stage = Round.objects.select_for_update().get(pk=round_id)
            latest = stage.jobs.first()
            if stage.status in DONE or (latest is not None and latest.active and not latest.silent):
                continue
            if latest is not None and latest.failure in REPEATING_FAILURES:
                continue
            if latest is not None and latest.silent and stage.attempts >= SILENT_ATTEMPTS_MAX:
                # Every worker given this stage went silent (killed by its time limit, out of
                # memory...): handing it on again would only repeat that; the organiser decides.
                _job_failed(
                    latest.pk,
                    failure=Job.Failure.WORKER_LOST,
                    error=RoundError(
                        _("Started %(attempts)s times, never finished.")
                        % {"attempts": stage.attempts}
                    ),
                )
                logger.warning("Stage %s: %s attempts, none finished", stage.pk, stage.attempts)
                continue
            job = _job_queue(stage, latest if latest is not None and latest.active else None)
        try:
            _job_send(job)
        except WorkersUnreachable:
            continue  # recorded on the job; the next check tries again
        queued.append(job)
    return queued


def _next_stage_follow(resolved: Round) -> None:
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
    elif (
        following.status == Round.Status.LOCKED
        and following.orders_deadline is not None
        and following.orders_deadline <= timezone.now()
    ):
        job = Job.objects.create(round=following)
        # A broker out of reach leaves the job failed; the next deadline check sends it again.
        transaction.on_commit(lambda: _job_send_quietly(job))


def _job_send_quietly(job: Job) -> None:
    with contextlib.suppress(WorkersUnreachable):
        _job_send(job)


def _job_update(job_id: int | None, **fields: Any) -> None:
    if job_id is not None:
        Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


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
                Round.objects.select_for_update().select_related("season", "stage").get(pk=round_id)
            )
            if stage.status in DONE:
                _job_update(
                    job_id,
                    status=Job.Status.DONE,
                    progress=100,
                    message=gettext_noop("already resolved"),
                )
                return stage
            if stage.status not in RESOLVABLE:
                raise RoundError(
                    _("Stage %(number)s is %(status)s.")
                    % {"number": stage.number, "status": stage.get_status_display()}
                )
            _check_previous_resolved(stage)
            if stage.seed is None:
                stage.seed = secrets.randbits(62)
            stage.status = Round.Status.RESOLVING
            stage.attempts += 1
            stage.save(update_fields=["seed", "status", "attempts"])
    except RoundError as error:
        _job_failed(job_id, failure=Job.Failure.STAGE, error=error)
        raise
    _job_update(
        job_id,
        status=Job.Status.RUNNING,
        progress=10,
        message=gettext_noop("simulating the stage"),
        failure="",
        detail="",
        retry_at=None,
    )

    try:
        rules = stage.season.rules
        entrants, yellow, green = round_entrants(round=stage)
        inputs = stage_inputs_build(
            stage=stage.stage,
            entrants=entrants,
            **rules.stage_settings(stage.season.ruleset),
            yellow_jersey=yellow,
            green_jersey=green,
        )
        outcome = stage_simulate(ruleset=stage.season.ruleset, inputs=inputs, seed=stage.seed)
        sprints = [e.rider_ids for e in outcome.events if e.kind == "intermediate_sprint"]
        timed = stage_times(
            lines=[
                EngineLine(
                    rider_id=r.rider_id,
                    rank=r.rank,
                    gap_seconds=r.gap_seconds,
                    final_group=r.final_group,
                    status=r.status,
                )
                for r in outcome.results
            ],
            stage_type=stage.stage.stage_type,
            distance_km=float(stage.stage.distance_km),
            rules=rules.timing_rules(stage.season.ruleset),
            intermediate_sprints=sprints,
        )
        _job_update(job_id, progress=60, message=gettext_noop("writing results and standings"))
        with transaction.atomic():
            locked = Round.objects.select_for_update().get(pk=stage.pk)
            if locked.status in DONE:
                # Another worker wrote this stage first: this job's work is done all the same.
                _job_update(
                    job_id,
                    status=Job.Status.DONE,
                    progress=100,
                    message=gettext_noop("already resolved"),
                )
                return locked
            outcome_write(
                stage=stage.stage,
                outcome=outcome,
                timed=timed,
                team_of={e.rider_id: e.team_id for e in entrants},
            )
            standings_update(stage=stage.stage)
            locked.status = Round.Status.RESOLVED
            locked.resolved_at = timezone.now()
            locked.engine_inputs = inputs_to_data(inputs, ruleset=stage.season.ruleset)
            locked.last_error = ""
            locked.save(update_fields=["status", "resolved_at", "engine_inputs", "last_error"])
            _next_stage_follow(locked)
            pause = settings.STAGE_RESOLVE_PAUSE_BEFORE_COMMIT
            if pause:
                # Fault injection for the worker-kill test only (0 everywhere else).
                time.sleep(pause)
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"[:2000]
        logger.exception("Stage %s of %s failed", stage.number, stage.season.slug)
        Round.objects.filter(pk=stage.pk, status=Round.Status.RESOLVING).update(
            status=Round.Status.LOCKED, last_error=reason
        )
        retry = retry_in is not None and isinstance(error, PASSING_FAULTS)
        _job_failed(
            job_id,
            failure=_failure_of(error),
            error=error,
            retry_at=timezone.now() + timedelta(seconds=retry_in) if retry and retry_in else None,
        )
        raise
    _job_update(job_id, status=Job.Status.DONE, progress=100, message=gettext_noop("resolved"))
    locked.refresh_from_db()
    return locked


def rider_reinstate(*, round: Round, rider_id: int) -> StageResult:
    """The organiser keeps a rider who finished outside the time limit in the race."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        later = Round.objects.filter(
            season_id=locked.season_id, number__gt=locked.number, status__in=DONE
        ).exists()
        if later:
            raise RoundError(_("A rider can only be reinstated before the next stage is resolved."))
        if locked.status not in DONE:
            raise RoundError(
                _("Stage %(number)d has no results yet: nobody can be reinstated.")
                % {"number": locked.number}
            )
        result = (
            StageResult.objects.select_for_update()
            .filter(stage_id=locked.stage_id, rider_id=rider_id)
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
        result.status_reason = gettext_noop("reinstated by the organiser")
        result.save(update_fields=["status", "status_reason"])
        standings_update(stage=locked.stage)
    return result
