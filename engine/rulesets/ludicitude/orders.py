"""Ludicitude per-race orders (ludicitude.md §7.1) and the race settings ([CFG] of §3-§4).

The only decision of the game is the next speed (LU-9); the orders tune how the default
driver (§7.2) takes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engine.rulesets.ludicitude.track import SPEED_MAX, SPEED_MIN

MODES: tuple[str, ...] = ("auto", "interactive")
RISKS: tuple[str, ...] = ("safe", "normal", "aggressive")
#: §7.1: the risk's weight λ of a brake point against a card moved.
LAMBDA: Mapping[str, Fraction] = MappingProxyType(
    {"safe": Fraction(2), "normal": Fraction(1), "aggressive": Fraction(1, 2)}
)
FIRST_ROUND_ORDERS: tuple[str, ...] = ("random", "reverse_standings")
LIMIT_BASES: tuple[str, ...] = ("distance", "marker")
ORDER_FIELDS: tuple[str, ...] = ("car", "mode", "risk", "max_speed")


class OrdersError(ValueError):
    """Orders that cannot be used; names the car and the field."""

    def __init__(self, car: str, field: str, message: str) -> None:
        self.car = car
        self.field = field
        self.message = message
        super().__init__(f"car {car}, field {field}: {message}")


@dataclass(frozen=True, slots=True)
class CarOrders:
    """§7.1 orders of one car. ``interactive`` is resolved as ``auto`` once the deadline has
    passed: the engine always drives with the policy (§7.2)."""

    mode: str = "auto"
    risk: str = "normal"
    max_speed: int = SPEED_MAX

    def __post_init__(self) -> None:
        check_orders(self, car="?")

    @property
    def weight(self) -> Fraction:
        """λ of §7.1."""
        return LAMBDA[self.risk]


def check_orders(orders: CarOrders, *, car: str) -> None:
    """§7.1 bounds; :class:`OrdersError` names ``car`` and the field."""
    if orders.mode not in MODES:
        raise OrdersError(car, "mode", f"{orders.mode!r} is not one of {', '.join(MODES)}")
    if orders.risk not in RISKS:
        raise OrdersError(car, "risk", f"{orders.risk!r} is not one of {', '.join(RISKS)}")
    if type(orders.max_speed) is not int or not SPEED_MIN <= orders.max_speed <= SPEED_MAX:
        raise OrdersError(
            car, "max_speed", f"{orders.max_speed!r} is not a speed {SPEED_MIN}..{SPEED_MAX}"
        )


DEFAULT_ORDERS = CarOrders()


def orders_from_data(data: object) -> tuple[str, CarOrders]:
    """One §7.1 JSON object as ``(car, orders)``; missing fields take their defaults.
    :class:`OrdersError` names the car and the field at fault (unknown fields included)."""
    if not isinstance(data, Mapping):
        raise OrdersError("?", "car", f"orders are an object with a car, got {data!r}")
    car = data.get("car")
    if not isinstance(car, str | int) or isinstance(car, bool) or str(car) == "":
        raise OrdersError("?", "car", f"{car!r} is not a car id")
    car_id = str(car)
    for key in data:
        if key not in ORDER_FIELDS:
            raise OrdersError(car_id, str(key), f"unknown field (known: {', '.join(ORDER_FIELDS)})")
    values: dict[str, Any] = {k: data[k] for k in ORDER_FIELDS[1:] if k in data}
    speed = values.get("max_speed")
    if isinstance(speed, bool):  # before CarOrders: compiled (mypyc), its int field keeps True as 1
        raise OrdersError(car_id, "max_speed", f"{speed!r} is not a speed {SPEED_MIN}..{SPEED_MAX}")
    try:
        orders = CarOrders(**values)
    except OrdersError as exc:
        raise OrdersError(car_id, exc.field, exc.message) from None
    return car_id, orders


def orders_to_data(car: str, orders: CarOrders) -> dict[str, Any]:
    return {"car": car, "mode": orders.mode, "risk": orders.risk, "max_speed": orders.max_speed}


@dataclass(frozen=True, slots=True)
class LudicitudeSettings:
    """The [CFG] settings: round-1 order (LU-2), what the limits are compared with (LU-5,
    B3), the safety limit (LU-11), and the laps of a closed circuit (T-3; None = the track
    file's own ``laps``)."""

    first_round_order: str = "random"
    limit_basis: str = "distance"
    max_rounds: int = 200
    laps: int | None = None

    def __post_init__(self) -> None:
        if self.first_round_order not in FIRST_ROUND_ORDERS:
            raise ValueError(
                f"first_round_order must be one of {', '.join(FIRST_ROUND_ORDERS)}, "
                f"got {self.first_round_order!r}"
            )
        if self.limit_basis not in LIMIT_BASES:
            raise ValueError(
                f"limit_basis must be one of {', '.join(LIMIT_BASES)}, got {self.limit_basis!r}"
            )
        if type(self.max_rounds) is not int or self.max_rounds < 1:
            raise ValueError(f"max_rounds must be an int >= 1, got {self.max_rounds!r}")
        if self.laps is not None and (type(self.laps) is not int or self.laps < 1):
            raise ValueError(f"laps must be None or an int >= 1, got {self.laps!r}")


DEFAULT_SETTINGS = LudicitudeSettings()
