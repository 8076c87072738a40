"""A team's orders for a round: stored before the deadline only, in the shape of the season's
ruleset."""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.models import Orders, Round, SeasonTeam
from season.orders import orders_errors
from season.round_names import round_name
from season.selectors import team_starters
from season.services.commitment import new_nonce, round_seed_commit
from season.services.lifecycle import RoundError
from season.services.motor_rounds import car_orders_errors, is_motor


class OrdersClosed(RoundError):
    pass


class OrdersInvalid(RoundError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


def orders_submit(
    *,
    team: SeasonTeam,
    round: Round,
    orders: dict[Any, dict[str, Any]],
    user: Any,
    now: datetime | None = None,
) -> Orders:
    """Store a team's orders for a stage, before its deadline only."""
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
        if is_motor(team.season):
            # Per car of the team ({car number: fields}), checked by the ruleset's adapter.
            data, errors = car_orders_errors(
                adapter=adapter_for(team.season.ruleset), team=team, round=locked, orders=orders
            )
            if errors:
                raise OrdersInvalid(errors)
            record, _created = Orders.objects.update_or_create(
                team=team,
                round=locked,
                defaults={"data": data, "submitted_by": user, "nonce": new_nonce()},
            )
            return record
        starters = {m.rider_pk for m in team_starters(team=team, round=locked)}
        errors = orders_errors(orders=orders, rider_ids=starters)
        # Each rider's orders in the fields of the ruleset's orders spec (its defaults for
        # those not given), then the ruleset's own check of them on the stage's course.
        adapter = adapter_for(team.season.ruleset)
        data = {
            str(rider_id): adapter.orders_stored(order)
            for rider_id, order in sorted(orders.items())
        }
        if not errors:
            errors = adapter.orders_errors(
                orders={int(k): v for k, v in data.items()}, round=locked
            )
        if errors:
            raise OrdersInvalid(errors)
        record, _created = Orders.objects.update_or_create(
            team=team,
            round=locked,
            defaults={"data": data, "submitted_by": user, "nonce": new_nonce()},
        )
    return record
