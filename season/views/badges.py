"""The words a page shows for a round's state (the lifecycle's status, as a player reads it)."""

from dataclasses import dataclass

from season.models import DONE_STATUSES, Job, Round


@dataclass(frozen=True)
class Badge:
    status: str
    label: str


def round_badge(round: Round, *, job: Job | None) -> Badge:
    """A round whose resolution is queued or running reads "Resolving" (its stored status is
    still "locked" until a worker claims it); otherwise the stored status."""
    if round.status not in DONE_STATUSES and job is not None and job.active:
        return Badge(Round.Status.RESOLVING, str(Round.Status.RESOLVING.label))
    return Badge(round.status, round.get_status_display())
