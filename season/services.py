"""The league's business: orders, the stage lifecycle and stage resolution."""

import logging
import secrets
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

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
from season.models import Job, Orders, Season, SeasonStage, SeasonTeam, SeasonTeamRider
from season.orders import orders_errors

logger = logging.getLogger(__name__)

DONE = (SeasonStage.Status.RESOLVED, SeasonStage.Status.PUBLISHED)
RESOLVABLE = (SeasonStage.Status.OPEN, SeasonStage.Status.LOCKED, SeasonStage.Status.RESOLVING)
OUT_OF_RACE = [s for s in StageResult.Status.values if s != StageResult.Status.FINISHED]


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


class StageError(Exception):
    """A lifecycle step that is not allowed now; the message says why."""


class OrdersClosed(StageError):
    pass


class OrdersInvalid(StageError):
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


def team_starters(*, team: SeasonTeam, season_stage: SeasonStage) -> list[SeasonTeamRider]:
    out = riders_out_of_race(season=team.season, before_number=season_stage.number)
    return [m for m in team.members.select_related("rider") if m.rider_id not in out]


def _previous_standing(season_stage: SeasonStage, classification: str) -> list[Standing]:
    return list(
        Standing.objects.filter(
            stage__race_id=season_stage.season.race_id,
            stage__number=season_stage.number - 1,
            classification=classification,
        ).order_by("rank")
    )


def _carried_states(season_stage: SeasonStage) -> dict[int, dict[str, Any]]:
    """The engine state each rider carries from the previous stage (Cyclo Sim: energy)."""
    return dict(
        StageResult.objects.filter(
            stage__race_id=season_stage.season.race_id, stage__number=season_stage.number - 1
        ).values_list("rider_id", "state")
    )


def team_energy(
    *, season_stage: SeasonStage, starters: Sequence[SeasonTeamRider]
) -> dict[int, tuple[int, int]]:
    """Cyclo Sim: each starter's energy at the start of the stage, ``(pe, pe_max)``, after
    the night's recovery (empty for a Moréno season)."""
    season = season_stage.season
    if season.ruleset != Season.Ruleset.CYCLOSIM:
        return {}
    settings = season.rules.stage_settings(season.ruleset)["cyclosim"]
    carried = _carried_states(season_stage)
    return {
        m.rider_id: cyclosim_energy(
            rider=m.rider,
            pe_consumed=int(carried.get(m.rider_id, {}).get("pe_consumed", 0)),
            settings=settings,
        )
        for m in starters
    }


def stage_entrants(
    *, season_stage: SeasonStage
) -> tuple[list[EntrantSpec], int | None, int | None]:
    """Starters in start order (GC order; stage 1: bib order), with their orders and the
    state they carry (rules/moreno.md R-T1; ARCHITECTURE "State carried between stages").

    A stage whose course the engine would refuse is refused here, before any engine input is
    built (StageError naming the stage). Stage 1 first puts the start-list riders no player
    took into computer teams, should the race have started without them (docs/league.md).
    """
    season = season_stage.season
    errors = stage_course_errors(season_stage.stage)
    if errors:
        raise StageError(" ".join(errors))
    if season_stage.number == 1 and season_stage.status not in DONE:
        computer_teams_fill(season=season)
    out = riders_out_of_race(season=season, before_number=season_stage.number)
    members = [
        m
        for m in SeasonTeamRider.objects.filter(season=season).order_by("bib", "pk")
        if m.rider_id not in out
    ]
    orders = {o.team_id: o.data for o in Orders.objects.filter(season_stage=season_stage)}
    crash_counts: dict[int, int] = {}
    for rider_id, crashes in StageResult.objects.filter(
        stage__race_id=season.race_id, stage__number__lt=season_stage.number
    ).values_list("rider_id", "crashes"):
        crash_counts[rider_id] = crash_counts.get(rider_id, 0) + len(crashes)
    carried = _carried_states(season_stage)
    cyclosim = season.ruleset == Season.Ruleset.CYCLOSIM
    general = _previous_standing(season_stage, Classification.GENERAL)
    gc = {line.rider_id: line for line in general}
    points = _previous_standing(season_stage, Classification.POINTS)

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
    season_stage: SeasonStage,
    orders: dict[int, dict[str, Any]],
    user: Any,
    now: datetime | None = None,
) -> Orders:
    """Store a team's orders for a stage, before its deadline only."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = SeasonStage.objects.select_for_update().get(pk=season_stage.pk)
        if locked.status != SeasonStage.Status.OPEN:
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
        starters = {m.rider_id for m in team_starters(team=team, season_stage=locked)}
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
            team=team, season_stage=locked, defaults={"data": data, "submitted_by": user}
        )
    return record


# --- the lifecycle ----------------------------------------------------------------------


def _stage_move(
    season_stage: SeasonStage, *, source: str, target: str, refusal: str
) -> SeasonStage:
    # A conditional update: zero rows means the stage was not (or no longer) in `source`.
    updated = SeasonStage.objects.filter(pk=season_stage.pk, status=source).update(status=target)
    if not updated:
        raise StageError(refusal % {"number": season_stage.number})
    season_stage.refresh_from_db()
    return season_stage


def stage_open(*, season_stage: SeasonStage) -> SeasonStage:
    """Open orders; opening stage 1 starts the race: the start list's riders that no player
    took ride for computer teams from then on."""
    opened = _stage_move(
        season_stage,
        source=SeasonStage.Status.SCHEDULED,
        target=SeasonStage.Status.OPEN,
        refusal=_("Stage %(number)s is not scheduled: it cannot be opened."),
    )
    if opened.number == 1:
        computer_teams_fill(season=opened.season)
    return opened


def stage_lock(*, season_stage: SeasonStage) -> SeasonStage:
    return _stage_move(
        season_stage,
        source=SeasonStage.Status.OPEN,
        target=SeasonStage.Status.LOCKED,
        refusal=_("Stage %(number)s is not open: it cannot be locked."),
    )


def stage_publish(*, season_stage: SeasonStage) -> SeasonStage:
    """Announce a resolved stage's results (players are emailed by the notifications task)."""
    return _stage_move(
        season_stage,
        source=SeasonStage.Status.RESOLVED,
        target=SeasonStage.Status.PUBLISHED,
        refusal=_("Stage %(number)s is not resolved: nothing to publish."),
    )


def stages_lock_due(*, now: datetime | None = None) -> list[int]:
    """Lock every open stage whose deadline has passed; return the locked stages whose deadline
    has passed and that can be resolved now (every earlier stage of their season is resolved),
    in stage order."""
    now = now or timezone.now()
    due = SeasonStage.objects.filter(status=SeasonStage.Status.OPEN, orders_deadline__lte=now)
    for pk in due.values_list("pk", flat=True):
        SeasonStage.objects.filter(pk=pk, status=SeasonStage.Status.OPEN).update(
            status=SeasonStage.Status.LOCKED
        )
    ready = []
    # A stage the organiser locked early waits for its deadline (or for "resolve now").
    locked = SeasonStage.objects.filter(
        status=SeasonStage.Status.LOCKED, orders_deadline__lte=now
    ).order_by("season_id", "number")
    for stage in locked:
        pending_before = (
            SeasonStage.objects.filter(season_id=stage.season_id, number__lt=stage.number)
            .exclude(status__in=DONE)
            .exists()
        )
        if not pending_before:
            ready.append(stage.pk)
    return ready


def stages_force_lock(*, season: Season, numbers: list[int]) -> list[SeasonStage]:
    """Close orders now on the given stages (the organiser runs them without waiting)."""
    with transaction.atomic():
        stages = list(
            SeasonStage.objects.select_for_update()
            .filter(season=season, number__in=numbers)
            .order_by("number")
        )
        missing = sorted(set(numbers) - {s.number for s in stages})
        if missing:
            raise StageError(
                _("Season %(slug)s has no stage %(number)s.")
                % {"slug": season.slug, "number": missing[0]}
            )
        for stage in stages:
            if stage.status in (SeasonStage.Status.SCHEDULED, SeasonStage.Status.OPEN):
                stage.status = SeasonStage.Status.LOCKED
                stage.save(update_fields=["status"])
    return stages


def _check_previous_resolved(season_stage: SeasonStage) -> None:
    previous = (
        SeasonStage.objects.filter(season_id=season_stage.season_id, number__lt=season_stage.number)
        .exclude(status__in=DONE)
        .order_by("number")
        .first()
    )
    if previous is not None:
        raise StageError(
            _("Stage %(number)s cannot be resolved before stage %(previous)s.")
            % {"number": season_stage.number, "previous": previous.number}
        )


def stage_resolve_request(*, season_stage: SeasonStage, user: Any = None) -> Job:
    """The organiser's "resolve now": lock the stage and queue its resolution."""
    from season.tasks import stage_resolve_task

    with transaction.atomic():
        locked = SeasonStage.objects.select_for_update().get(pk=season_stage.pk)
        if locked.status in DONE:
            raise StageError(_("Stage %(number)s is already resolved.") % {"number": locked.number})
        if locked.status not in RESOLVABLE:
            raise StageError(
                _("Stage %(number)s is %(status)s.")
                % {"number": locked.number, "status": locked.get_status_display()}
            )
        _check_previous_resolved(locked)
        if locked.status == SeasonStage.Status.OPEN:
            locked.status = SeasonStage.Status.LOCKED
            locked.save(update_fields=["status"])
        job = Job.objects.create(season_stage=locked, requested_by=user)
        stage_resolve_task.delay_on_commit(locked.pk, job.pk)
    return job


def _next_stage_follow(resolved: SeasonStage) -> None:
    """Open the next stage for orders; if it is already locked and its deadline has passed,
    queue its resolution once this one is committed."""
    from season.tasks import stage_resolve_task

    following = SeasonStage.objects.filter(
        season_id=resolved.season_id, number=resolved.number + 1
    ).first()
    if following is None:
        return
    if following.status == SeasonStage.Status.SCHEDULED:
        following.status = SeasonStage.Status.OPEN
        following.save(update_fields=["status"])
    elif (
        following.status == SeasonStage.Status.LOCKED
        and following.orders_deadline is not None
        and following.orders_deadline <= timezone.now()
    ):
        stage_resolve_task.delay_on_commit(following.pk)


def _job_update(job_id: int | None, **fields: Any) -> None:
    if job_id is not None:
        Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)


def stage_resolve(*, season_stage_id: int, job_id: int | None = None) -> SeasonStage:
    """Resolve a stage exactly once (ARCHITECTURE "Stage lifecycle").

    Claim: lock the row, return at once if resolved, draw and store the seed (once, so that a
    retry replays the same race), mark it resolving. Simulate outside any lock: the engine is
    pure and its inputs are frozen once the stage is locked. Write: lock again, return if
    another worker finished first, write results, events, dice and standings in one
    transaction. A failure leaves nothing half-written and is recorded before re-raising.
    """
    with transaction.atomic():
        stage = (
            SeasonStage.objects.select_for_update()
            .select_related("season", "stage")
            .get(pk=season_stage_id)
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
            raise StageError(
                _("Stage %(number)s is %(status)s.")
                % {"number": stage.number, "status": stage.get_status_display()}
            )
        _check_previous_resolved(stage)
        if stage.seed is None:
            stage.seed = secrets.randbits(62)
        stage.status = SeasonStage.Status.RESOLVING
        stage.attempts += 1
        stage.save(update_fields=["seed", "status", "attempts"])
    _job_update(
        job_id, status=Job.Status.RUNNING, progress=10, message=gettext_noop("simulating the stage")
    )

    try:
        rules = stage.season.rules
        entrants, yellow, green = stage_entrants(season_stage=stage)
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
            locked = SeasonStage.objects.select_for_update().get(pk=stage.pk)
            if locked.status in DONE:
                return locked
            outcome_write(
                stage=stage.stage,
                outcome=outcome,
                timed=timed,
                team_of={e.rider_id: e.team_id for e in entrants},
            )
            standings_update(stage=stage.stage)
            locked.status = SeasonStage.Status.RESOLVED
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
        SeasonStage.objects.filter(pk=stage.pk, status=SeasonStage.Status.RESOLVING).update(
            status=SeasonStage.Status.LOCKED, last_error=reason
        )
        _job_update(job_id, status=Job.Status.FAILED, message=reason[:200])
        raise
    _job_update(job_id, status=Job.Status.DONE, progress=100, message=gettext_noop("resolved"))
    locked.refresh_from_db()
    return locked


def rider_reinstate(*, season_stage: SeasonStage, rider_id: int) -> StageResult:
    """The organiser keeps a rider who finished outside the time limit in the race."""
    with transaction.atomic():
        locked = SeasonStage.objects.select_for_update().get(pk=season_stage.pk)
        later = SeasonStage.objects.filter(
            season_id=locked.season_id, number__gt=locked.number, status__in=DONE
        ).exists()
        if later:
            raise StageError(_("A rider can only be reinstated before the next stage is resolved."))
        if locked.status not in DONE:
            raise StageError(
                _("Stage %(number)d has no results yet: nobody can be reinstated.")
                % {"number": locked.number}
            )
        result = (
            StageResult.objects.select_for_update()
            .filter(stage_id=locked.stage_id, rider_id=rider_id)
            .first()
        )
        if result is None:
            raise StageError(
                _("No rider %(rider_id)d rode stage %(number)d.")
                % {"rider_id": rider_id, "number": locked.number}
            )
        if result.status != StageResult.Status.OUTSIDE_TIME_LIMIT:
            raise StageError(
                _("%(rider)s did not finish outside the time limit.") % {"rider": result.rider}
            )
        result.status = StageResult.Status.FINISHED
        result.status_reason = gettext_noop("reinstated by the organiser")
        result.save(update_fields=["status", "status_reason"])
        standings_update(stage=locked.stage)
    return result
