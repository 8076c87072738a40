"""What a game's adapter answers for a team's orders page, riders and cars alike.

The season has one orders page (season.views.player.orders), one form (season.forms.
SeatOrdersForm: a row of the ruleset's fields per starter seat, named ``<seat key>-<field>``)
and one service (season.services.orders.orders_submit). What the page shows beside the form
is the game's: its fragment template (under templates/races/league/ or templates/motor/league/)
and that fragment's context, built from the game's own rows (a stage's profile and the riders'
energy; a Grand Prix's track map). The values are plain, so that this package imports no app.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class OrdersPage(Protocol):
    """The orders page's members of a game's adapter (part of plugins.protocol.GameAdapter)."""

    #: The game's fragment of the orders page, included by templates/season/player/orders.html
    #: once per ``part``: "event" (where the round is raced), "before" (above the form), "rows"
    #: (the form's fields, a card per seat), "after" (below them), "empty" (the team has no seat
    #: yet) and "submitted" (the orders given, once they can no longer change).
    orders_template: str
    #: The message of a form that does not say which round its orders are for (its hidden
    #: round field is missing or wrong), naming the round with the game's noun.
    orders_round_missing: Any
    #: The message of orders posted by a team that has no seat yet.
    orders_no_seats: Any

    def orders_title(self, round: Any) -> str:
        """The round as the orders page's heading and its messages name it ("stage 3",
        "round 2, Monaco Grand Prix")."""
        ...

    def seat_clean(self, values: Mapping[str, Any], *, round: Any) -> dict[str, Any]:
        """Checks across one seat's orders (its fields' cleaned ``values``) for ``round``,
        {field name: message}: the form shows each by its field, and the adapter's
        ``orders_errors`` checks them again for every path to the service."""
        ...

    def orders_context(
        self, round: Any, *, starters: Sequence[Any], form: Any | None
    ) -> dict[str, Any]:
        """The fragment's context for the team's ``starters`` (season.models.Seat rows) in
        ``round``; ``form`` is the orders form (None: the orders can no longer change)."""
        ...
