"""A motor team's orders page (plugins.orders_page.OrdersPage): a card per car with the
ruleset's fields, below the Grand Prix's track map."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from motor.league.pages import track_svg
from motor.models import GrandPrix
from motor.place_names import place_name


class MotorOrdersPage:
    orders_template = "motor/league/_orders.html"
    orders_round_missing = gettext_lazy(
        "These orders do not say which round they are for: reload the page and give them again."
    )
    orders_no_seats = gettext_lazy("Your team has no cars to give orders to.")

    #: The adapter's (motor.adapters.base.MotorAdapter).
    round_label: Callable[[int], str]

    def orders_title(self, round: Any) -> str:
        """ "round 2, Monaco Grand Prix"."""
        grand_prix: GrandPrix | None = round.grand_prix
        label = str(self.round_label(round.number))
        return f"{label}, {place_name(grand_prix.name)}" if grand_prix is not None else label

    def seat_clean(self, values: Mapping[str, Any], *, round: Any) -> dict[str, Any]:
        """Checks across one car's fields, {field name: message}; none by default."""
        return {}

    def orders_context(
        self, round: Any, *, starters: Sequence[Any], form: Any | None
    ) -> dict[str, Any]:
        grand_prix: GrandPrix | None = round.grand_prix
        return {
            "grand_prix": grand_prix,
            "track_map": mark_safe(track_svg(grand_prix))
            if grand_prix is not None and form is not None
            else "",
            # The page is as wide as the screen: a car's card holds many fields.
            "wide": True,
        }
