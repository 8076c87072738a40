"""Roles per stage: the default orders and the limits a team's orders must respect."""

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from races.team_rules import default_roles
from season.models import RiderRole

__all__ = ["ROLE_LIMITS", "default_roles", "orders_errors", "role_count_text"]

ROLE_LIMITS = {RiderRole.GC_LEADER: 1, RiderRole.SPRINTER: 1, RiderRole.BREAKAWAY: 2}


def role_count_text(role: str, count: int) -> str:
    """A number of riders of a role ("1 GC leader", "2 riders in the breakaways") in the plural
    form the language gives that number."""
    if role == RiderRole.GC_LEADER:
        return ngettext("%(count)d GC leader", "%(count)d GC leaders", count) % {"count": count}
    if role == RiderRole.SPRINTER:
        return ngettext("%(count)d sprinter", "%(count)d sprinters", count) % {"count": count}
    if role == RiderRole.BREAKAWAY:
        return ngettext(
            "%(count)d rider in the breakaways", "%(count)d riders in the breakaways", count
        ) % {"count": count}
    return ngettext("%(count)d domestique", "%(count)d domestiques", count) % {"count": count}


def orders_errors(*, orders: Mapping[int, Mapping[str, Any]], rider_ids: set[int]) -> list[str]:
    """Problems with a team's orders ({rider_id: {"role", "no_breakaway"}}), each named."""
    errors = []
    unknown = sorted(set(orders) - rider_ids)
    if unknown:
        errors.append(
            _("Riders %(ids)s are not in this team's starting riders.") % {"ids": unknown}
        )
    missing = sorted(rider_ids - set(orders))
    if missing:
        errors.append(_("Orders are missing for riders %(ids)s.") % {"ids": missing})
    valid_roles = set(RiderRole.values)
    for rider_id, order in orders.items():
        if order.get("role") not in valid_roles:
            errors.append(
                _("Rider %(id)s: role %(role)r is not one of %(roles)s.")
                % {"id": rider_id, "role": order.get("role"), "roles": ", ".join(RiderRole.values)}
            )
    counts = Counter(order.get("role") for order in orders.values())
    for role, limit in ROLE_LIMITS.items():
        if counts[role.value] > limit:
            errors.append(
                _("At most %(riders)s per team (%(given)s given).")
                % {"riders": role_count_text(role, limit), "given": counts[role.value]}
            )
    return errors
