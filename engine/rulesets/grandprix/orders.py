"""Per-car orders (grandprix.md §7.1), validated with the car and the field named."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MODES = ("auto", "interactive")
RISKS = ("safe", "normal", "aggressive")
PIT_STRATEGIES = ("required_only", "lap2_insurance")
#: ``quali_risk`` of the orders spec's form: the race risk (P-6; None in :class:`CarOrders`).
SAME_AS_RISK = "same"


class OrdersError(ValueError):
    """Orders that break §7.1; ``car`` and ``field`` say where."""

    def __init__(self, car: str, field: str, message: str) -> None:
        self.car = car
        self.field = field
        self.message = message
        super().__init__(f"car {car}, field {field}: {message}")


@dataclass(frozen=True, slots=True)
class CarOrders:
    """§7.1. ``interactive`` is driven as ``auto`` by the engine (the deadline has passed).

    The defaults are the orders of ``auto`` and of every computer car: since version 4 the
    best fixed orders ``bench/auto_vs_best.py`` finds, speed cards from 2nd gear and the lap-2
    insurance stop (§7.1's example, cards from 3rd and required stops only, left 37 % of the
    speed cards drawn unused and scored 1.8 points a race less: docs/grandprix.md, "auto
    against the best fixed orders"). :data:`SPEC_EXAMPLE` keeps the example's values."""

    car: str
    mode: str = "auto"
    risk: str = "normal"
    quali_risk: str | None = None
    max_gear: int = 4
    card_min_gear: int = 2
    pit_strategy: str = "lap2_insurance"

    def __post_init__(self) -> None:
        def bad(field: str, message: str) -> OrdersError:
            return OrdersError(self.car, field, message)

        for field, value, choices in (
            ("mode", self.mode, MODES),
            ("risk", self.risk, RISKS),
            ("pit_strategy", self.pit_strategy, PIT_STRATEGIES),
        ):
            if value not in choices:
                raise bad(field, f"{value!r} is not one of {', '.join(choices)}")
        if self.quali_risk is not None and self.quali_risk not in RISKS:
            raise bad("quali_risk", f"{self.quali_risk!r} is not one of {', '.join(RISKS)}")
        for field, gear in (("max_gear", self.max_gear), ("card_min_gear", self.card_min_gear)):
            if type(gear) is not int or not 2 <= gear <= 4:
                raise bad(field, f"{gear!r} is not a gear 2..4")

    @property
    def qualifying_risk(self) -> str:
        """P-6: ``quali_risk``, defaulting to ``risk``."""
        return self.quali_risk or self.risk


#: §7.1's example orders (``card_min_gear`` 3, ``required_only``): the defaults of versions
#: 1-3, which the §8 vectors and the hand-placed tests are written for.
SPEC_EXAMPLE = {"card_min_gear": 3, "pit_strategy": "required_only"}

FIELDS = ("car", "mode", "risk", "quali_risk", "max_gear", "card_min_gear", "pit_strategy")


def orders_from_dict(data: Mapping[str, Any], car: str | None = None) -> CarOrders:
    """Build :class:`CarOrders` from a §7.1 object; :class:`OrdersError` names car and field.
    A ``quali_risk`` of ``same`` (the orders form's choice) is the race risk, as None is."""
    car_id = str(data.get("car", car or "?"))
    for key in data:
        if key not in FIELDS:
            raise OrdersError(car_id, str(key), f"unknown field (known: {', '.join(FIELDS)})")
    values = {k: v for k, v in data.items() if k != "car"}
    if values.get("quali_risk") == SAME_AS_RISK:
        values["quali_risk"] = None
    for key in ("max_gear", "card_min_gear"):
        if key in values and (isinstance(values[key], bool) or not isinstance(values[key], int)):
            raise OrdersError(car_id, key, f"{values[key]!r} is not a gear 2..4")
    for key in ("mode", "risk", "quali_risk", "pit_strategy"):
        if key in values and values[key] is not None and not isinstance(values[key], str):
            raise OrdersError(car_id, key, f"{values[key]!r} is not a text")
    return CarOrders(car=car_id, **values)


def orders_to_dict(orders: CarOrders) -> dict[str, Any]:
    """The §7.1 object of ``orders``."""
    return {f: getattr(orders, f) for f in FIELDS}
