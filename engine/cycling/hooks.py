"""What a cycling ruleset gives beyond ``simulate`` and its codecs: its per-rider part of the
inputs, built from a player's orders (of the ruleset's orders spec) and the state the rider
carries from the previous stage, and the ruleset's own check of a team's orders."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.cycling.codec import RiderCodec
from engine.cycling.course import Course

X = TypeVar("X")

#: ``{rider_id (text) or "team": {field label: message}}``; empty when the orders are valid.
OrdersErrors = dict[str, dict[str, str]]


def no_orders_errors(orders: Mapping[int, Mapping[str, Any]], course: Course) -> OrdersErrors:
    """For a ruleset whose orders spec says it all."""
    return {}


@dataclass(frozen=True, slots=True)
class CyclingHooks(Generic[X]):
    """- ``rider``: the codec of the ruleset's per-rider type (its fields, default, JSON);
    - ``rider_of(orders, carried, course) -> X``: a rider's part from his orders (the fields
      of the ruleset's orders spec, defaults filled) and his carried state (the ``carried`` of
      his previous result);
    - ``orders_errors(orders_by_rider, course)``: the ruleset's own check of a team's orders
      on a course, beyond the spec's bounds."""

    rider: RiderCodec[X]
    rider_of: Callable[[Mapping[str, Any], Mapping[str, Any], Course], X]
    orders_errors: Callable[[Mapping[int, Mapping[str, Any]], Course], OrdersErrors] = (
        no_orders_errors
    )
