"""A team's orders for a round: stored before the deadline only, in the shape of the season's
ruleset."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.models import Orders, Round, SeasonTeam
from season.orders import orders_errors
from season.round_names import round_name
from season.selectors import season_seats
from season.services.commitment import new_nonce, round_seed_commit
from season.services.lifecycle import RoundError


class OrdersClosed(RoundError):
    pass


class OrdersInvalid(RoundError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


def _seat_order(key: str) -> tuple[int, str]:
    # Seats are named by numbers as text (a rider's id, a car's number): in their numeric order.
    return len(key), key


def team_orders_check(
    *, team: SeasonTeam, round: Round, orders: Mapping[Any, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """A team's orders ``{seat: fields}`` as stored (every field of the ruleset's orders spec,
    its defaults for those not given), or OrdersInvalid naming each problem: the same checks
    for every game, seat by seat. A seat that is not one of the team's starters in the round
    is refused, naming it; a seat with a role in the squad (a rider) must be given his role
    for the round within the team's limits (season.orders); then the ruleset checks the orders
    on the round's course or track."""
    adapter = adapter_for(team.season.ruleset)
    event = adapter.round_event(round)
    seats = adapter.starters_racing(
        event=event, starters=season_seats(season=team.season, team=team, round=round)
    )
    given = {str(seat): dict(order) for seat, order in orders.items()}
    unknown = sorted(set(given) - {s.key for s in seats}, key=_seat_order)
    errors = []
    if unknown:
        errors.append(
            str(adapter.unknown_seats)
            % {
                "ids": [int(k) if k.isdigit() else k for k in unknown],
                "numbers": ", ".join(unknown),
            }
        )
    else:
        roled = {int(s.key) for s in seats if s.role}
        if roled:
            errors += orders_errors(
                orders={int(k): v for k, v in given.items() if int(k) in roled}, rider_ids=roled
            )
    data = {seat: adapter.orders_stored(given[seat]) for seat in sorted(given, key=_seat_order)}
    if not errors:
        errors = adapter.orders_errors(orders=data, round=round)
    if errors:
        raise OrdersInvalid(errors)
    return data


def orders_submit(
    *,
    team: SeasonTeam,
    round: Round,
    orders: dict[Any, dict[str, Any]],
    user: Any,
    now: datetime | None = None,
    standing: bool = False,
    source: str = Orders.Source.PLAYER,
) -> Orders:
    """Store a team's orders for a stage, before its deadline only; ``standing``: kept for
    every following round until the player gives others (season.services.carry)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status != Round.Status.OPEN:
            raise OrdersClosed(
                _("Orders for %(round)s are closed: it is %(status)s.")
                % {
                    "round": round_name(team.season, locked.number),
                    "status": locked.get_status_display(),
                }
            )
        if locked.orders_deadline and now >= locked.orders_deadline:
            deadline = timezone.localtime(locked.orders_deadline).strftime("%d %b %Y %H:%M")
            raise OrdersClosed(
                _("Orders for %(round)s closed at %(deadline)s.")
                % {"round": round_name(team.season, locked.number), "deadline": deadline}
            )
        # No orders before the round's seed is committed (a round opened another way than
        # round_open: the first submission commits it, under the round's lock).
        round_seed_commit(round=locked)
        data = team_orders_check(team=team, round=locked, orders=orders)
        record, _created = Orders.objects.update_or_create(
            team=team,
            round=locked,
            defaults={
                "data": data,
                "submitted_by": user,
                "nonce": new_nonce(),
                "standing": standing,
                "source": source,
            },
        )
    return record
