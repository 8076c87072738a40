"""A team's orders for a round: stored before the deadline only, in the shape of the season's
ruleset."""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from races.engine_adapter import cyclosim_orders_errors
from season.models import Orders, Round, Season, SeasonTeam
from season.orders import orders_errors
from season.selectors import team_starters
from season.services.lifecycle import RoundError

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
