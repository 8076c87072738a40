"""Orders that carry over from round to round (issue 29, item 3).

A team that has given orders once does not start from the defaults at the next round: its
orders page starts from the team's latest orders of an earlier round of the season, as far as
they still apply (the game's adapter says what does: ``orders_carry``). Orders the player marks
as standing are also raced at every following round he gives none for: a copy is written as
the round is claimed for resolution, with a nonce of its own drawn as for any save, before the
dice seed is derived from the nonces and the inputs are frozen (so the replay verifies)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Q, Subquery

from plugins import GameAdapter, adapter_for
from season.models import Orders, Round, SeasonTeam
from season.selectors import season_seats
from season.services.commitment import new_nonce
from season.services.orders import OrdersInvalid, team_orders_check

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Carry:
    """What a team's orders page starts from when it has no orders for the round yet."""

    #: The round the orders come from (its number) and whether they stand.
    number: int
    standing: bool
    #: ``{seat key: fields}`` still valid for the round (the rest: their defaults).
    data: dict[str, dict[str, object]]
    #: Why each seat or field that did not carry did not.
    dropped: list[str] = field(default_factory=list)


def orders_latest_before(*, team: SeasonTeam, round: Round) -> Orders | None:
    """The team's orders of the latest earlier round of the season that has some."""
    return (
        Orders.objects.filter(
            team=team, round__season_id=round.season_id, round__number__lt=round.number
        )
        .select_related("round")
        .order_by("-round__number")
        .first()
    )


def orders_carried(*, team: SeasonTeam, round: Round) -> Carry | None:
    """The orders a team's page for ``round`` starts from when the team has none for it: its
    latest earlier orders as far as they still apply (None: the team has no orders for an
    earlier round, or orders for this one)."""
    if Orders.objects.filter(team=team, round=round).exists():
        return None
    previous = orders_latest_before(team=team, round=round)
    if previous is None:
        return None
    adapter = adapter_for(team.season.ruleset)
    data, dropped = adapter.orders_carry(
        previous.data, round, starters=season_seats(season=team.season, team=team, round=round)
    )
    return Carry(
        number=previous.round.number, standing=previous.standing, data=data, dropped=dropped
    )


def orders_source(
    *, carry: Carry | None, orders: Mapping[str, Mapping[str, Any]], adapter: GameAdapter
) -> str:
    """How a save from the orders page is recorded: "carried" when the player saved the orders
    carried over unchanged (every seat's stored orders as carried), "player" otherwise."""
    if carry is None:
        return Orders.Source.PLAYER
    unchanged = all(
        key in carry.data
        and adapter.orders_stored(order) == adapter.orders_stored({**order, **carry.data[key]})
        for key, order in orders.items()
    )
    return Orders.Source.CARRIED if unchanged else Orders.Source.PLAYER


def standing_teams(*, round: Round) -> Q:
    """The teams (a SeasonTeam filter) whose latest orders before ``round`` are standing: they
    race with those at ``round`` unless they give others, so no reminder nor missed-deadline
    notice is theirs."""
    latest = (
        Orders.objects.filter(
            team_id=OuterRef("pk"),
            round__season_id=round.season_id,
            round__number__lt=round.number,
        )
        .order_by("-round__number")
        .values("standing")[:1]
    )
    teams = SeasonTeam.objects.filter(season_id=round.season_id).annotate(
        latest_standing=Subquery(latest)
    )
    return Q(pk__in=teams.filter(latest_standing=True).values("pk"))


def standing_orders_write(*, round: Round) -> list[Orders]:
    """Inside the transaction that claims ``round`` for resolution (its row locked): a copy
    of each team's standing orders for the round, for every team without orders for it whose
    latest earlier orders stand, as far as they still apply (``orders_carry``; a copy the
    round's checks refuse is not written: the team races with the defaults, and the log says
    why). Each copy stands in turn and draws its own nonce, as any save does."""
    adapter = adapter_for(round.season.ruleset)
    event = adapter.round_event(round)
    if event is None or adapter.round_errors(event):
        # The resolution refuses this round, naming why: nothing to copy for it.
        return []
    given = Orders.objects.filter(round=round).values("team_id")
    teams = (
        SeasonTeam.objects.filter(standing_teams(round=round))
        .exclude(pk__in=given)
        .select_related("season")
        .order_by("pk")
    )
    written = []
    for team in teams:
        carry = orders_carried(team=team, round=round)
        if carry is None:
            continue
        seats = adapter.starters_racing(
            event=event, starters=season_seats(season=team.season, team=team, round=round)
        )
        # Every starter's orders, the seats that carried nothing at their defaults (a rider
        # at his squad role), so that the round's checks see a whole team.
        orders = {
            s.key: carry.data.get(s.key) or ({"role": s.role} if s.role else {}) for s in seats
        }
        try:
            data = team_orders_check(team=team, round=round, orders=orders)
        except OrdersInvalid as error:
            logger.warning(
                "Standing orders of team %s not raced at round %s: %s",
                team.pk,
                round.number,
                error,
            )
            continue
        written.append(
            Orders.objects.create(
                team=team,
                round=round,
                data=data,
                standing=True,
                source=Orders.Source.STANDING,
                nonce=new_nonce(),
            )
        )
    return written
