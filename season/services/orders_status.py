"""Who has given orders for a round, and what the organiser's confirmations say (reads only:
the pages and the confirmations ask here instead of counting in templates)."""

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from season.models import Orders, Round, SeasonTeam


@dataclass(frozen=True)
class TeamOrders:
    """A player's team and when it last saved its orders for the round (None: not yet)."""

    team: SeasonTeam
    given_at: datetime | None

    @property
    def given(self) -> bool:
        return self.given_at is not None


def orders_status(*, round: Round) -> list[TeamOrders]:
    """Every player's team of the round's season (computer teams give no orders), those
    without orders first, then by name: two queries."""
    teams = list(
        SeasonTeam.objects.filter(season_id=round.season_id, owner__isnull=False)
        .select_related("owner")
        .order_by("name")
    )
    given = dict(Orders.objects.filter(round=round).values_list("team_id", "updated_at"))
    rows = [TeamOrders(team=team, given_at=given.get(team.pk)) for team in teams]
    return sorted(rows, key=lambda row: row.given)


@dataclass(frozen=True)
class OrdersCount:
    given: int
    teams: int

    @property
    def missing(self) -> int:
        return self.teams - self.given


def orders_count(status: list[TeamOrders]) -> OrdersCount:
    return OrdersCount(given=sum(row.given for row in status), teams=len(status))


def deadline_ahead(round: Round, *, now: datetime | None = None) -> bool:
    """The round's deadline is still to come (resolving now is then early)."""
    now = now or timezone.now()
    return round.orders_deadline is not None and round.orders_deadline > now
