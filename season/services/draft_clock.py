"""The draft's pick clock (docs/league.md "The draft"): each team on turn has the season's
``draft_pick_minutes`` to pick; when they run out, Celery beat's check (season.tasks) makes the
automatic pick for it (season.formation.auto_choice: its wish list first).

The server's clock is the truth; the draft page counts down in the browser only to show it.
"""

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from season import formation
from season.models import DraftPick, PickSource, Season

logger = logging.getLogger(__name__)


def pick_deadline(*, season: Season, status: formation.DraftStatus) -> datetime | None:
    """When the turn of the team on turn ends: its turn's start plus the season's minutes per
    pick; None without a clock or a team on turn."""
    if not season.draft_pick_minutes or status.on_turn is None or status.turn_started_at is None:
        return None
    return status.turn_started_at + timedelta(minutes=season.draft_pick_minutes)


def clock_text(seconds: int) -> str:
    """A pick clock as "4:05" or "1:04:05" (the draft page's countdown starts from it)."""
    seconds = max(0, seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def clock_shown(
    *, season: Season, status: formation.DraftStatus, now: datetime | None = None
) -> dict[str, object]:
    """What a draft page shows of the clock (templates/season/_pick_clock.html), for riders
    and cars alike: the turn's deadline, the seconds left and their text."""
    deadline = pick_deadline(season=season, status=status)
    now = now or timezone.now()
    seconds_left = max(0, int((deadline - now).total_seconds())) if deadline is not None else None
    return {
        "pick_deadline": deadline,
        "seconds_left": seconds_left,
        "clock_text": clock_text(seconds_left) if seconds_left is not None else "",
    }


def draft_clock_pick(*, season: Season, now: datetime | None = None) -> DraftPick | None:
    """The automatic pick for the team on turn if its clock has run out at `now`, else None.

    Idempotent and safe against two beats or workers: the turn and its deadline are read again
    under the season's row lock, and once a pick is made the next team's clock starts at `now`,
    so a second check finds nothing due. A pick made by the player after his time ran out but
    before this check counts: the check then finds the next team's turn just begun."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = formation.season_lock(season)
        status = formation.draft_status(season=locked)
        deadline = pick_deadline(season=locked, status=status)
        if deadline is None or now < deadline:
            return None
        return formation.autopick_locked(
            season=locked, status=status, source=PickSource.CLOCK, user=None, now=now
        )


def drafts_on_the_clock() -> list[Season]:
    """The seasons whose draft (of riders or of cars) runs with a pick clock (one query)."""
    return list(
        Season.objects.filter(
            formation_mode=Season.FormationMode.DRAFT,
            draft_started_at__isnull=False,
            draft_pick_minutes__gt=0,
        )
        .annotate(
            picks=Count("draft_picks", distinct=True),
            drafting=Count("teams", filter=Q(teams__draft_position__isnull=False), distinct=True),
        )
        .filter(picks__lt=F("drafting") * F("roster_size"))
    )


def draft_clocks_expire(*, now: datetime | None = None) -> list[DraftPick]:
    """Beat's check: the automatic pick of every draft whose team on turn ran out of time."""
    now = now or timezone.now()
    picks = []
    for season in drafts_on_the_clock():
        try:
            pick = draft_clock_pick(season=season, now=now)
        except formation.FormationError as error:
            # No free rider fits the team's roster: the organiser has to step in; the other
            # drafts still get their picks.
            logger.warning("draft of %s: no automatic pick: %s", season.slug, error)
            continue
        if pick is not None:
            logger.info(
                "draft of %s: pick %d made by the clock for %s",
                season.slug,
                pick.number,
                pick.team.name,
            )
            picks.append(pick)
    return picks
