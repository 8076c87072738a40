"""What a Ludicitude race gives back: per car rank, status, rounds, brake left and the speed
chosen each round; the structured events; the dice log (ludicitude.md §4, LU-12)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

from engine.rulesets.ludicitude.orders import (
    DEFAULT_ORDERS,
    DEFAULT_SETTINGS,
    CarOrders,
    LudicitudeSettings,
)
from engine.rulesets.ludicitude.track import Track

#: Car status (LU-6, LU-7, LU-11).
FINISHED = "finished"
ELIMINATED = "eliminated"
NOT_CLASSIFIED = "not_classified"
STATUSES: tuple[str, ...] = (FINISHED, ELIMINATED, NOT_CLASSIFIED)

#: Event kinds, in the order they can happen within a turn.
BRAKE_LOST = "brake_lost"  # LU-5/LU-6: ``amount`` points lost on the card at ``position``
ELIMINATION = "eliminated"  # LU-6: the brake fell below 1 on the card at ``position``
FINISH = "finish"  # LU-7: ``amount`` is the finishing place
RECOVERY = "recovery"  # LU-8: ``amount`` points regained on the card at ``position``
SPEED_COST = "speed_cost"  # LU-9: 1 point paid for a change of 2 (``amount`` = the new speed)
OUT_OF_TIME = "not_classified"  # LU-11: still racing after ``max_rounds``
EVENT_KINDS: tuple[str, ...] = (BRAKE_LOST, ELIMINATION, FINISH, RECOVERY, SPEED_COST, OUT_OF_TIME)


@dataclass(frozen=True, slots=True)
class CarEntry:
    """A car at the start: its id, its orders (§7.1) and, for the ``reverse_standings`` round-1
    order (S-5), its place in the season's standings before the race (1 = the leader; None =
    unranked, after every ranked car)."""

    car: str
    orders: CarOrders = DEFAULT_ORDERS
    standing: int | None = None

    def __post_init__(self) -> None:
        if not self.car:
            raise ValueError("a car needs an id")
        if self.standing is not None and (type(self.standing) is not int or self.standing < 1):
            raise ValueError(
                f"car {self.car}: standing must be None or >= 1, got {self.standing!r}"
            )


@dataclass(frozen=True, slots=True)
class RaceInputs:
    """Everything a race needs besides its dice."""

    track: Track
    cars: tuple[CarEntry, ...]
    settings: LudicitudeSettings = DEFAULT_SETTINGS

    def __post_init__(self) -> None:
        if not self.cars:
            raise ValueError("a race needs at least one car")
        ids = [c.car for c in self.cars]
        if len(set(ids)) != len(ids):
            raise ValueError("car ids must be unique")
        if self.settings.laps not in (None, 1) and not self.track.closed:
            raise ValueError(f"laps: an open circuit is raced once (T-3), got {self.settings.laps}")

    @property
    def laps(self) -> int:
        """T-3: the settings' laps on a closed circuit, else the track file's; 1 when open."""
        if not self.track.closed:
            return 1
        return self.settings.laps if self.settings.laps is not None else self.track.laps

    @property
    def finish(self) -> int:
        """T-3: ``F = 24·L``."""
        return self.track.finish(self.laps)


class RaceEvent(NamedTuple):
    """Something that happened to one car: ``kind`` (see ``EVENT_KINDS``), the round, the car,
    the position ``q`` it happened at (its card is ``q mod 24``), the points or place it is
    about (``amount``) and the car's brake afterwards."""

    round: int
    kind: str
    car: str
    position: int
    card: int
    amount: int
    brake: int


#: Events as a race keeps them: ``(round, car, ((kind, position, card, amount, brake), ...))``.
EventRow = tuple[int, str, tuple[tuple[str, int, int, int, int], ...]]


class EventLog(Sequence[RaceEvent]):
    """The events of a race: an immutable sequence of :class:`RaceEvent`.

    Like :class:`engine.outcome.DiceLog` it keeps compact rows (one per turn that had events)
    and builds a ``RaceEvent`` when one is read; ``rows`` gives the rows themselves.
    """

    __slots__ = ("_events", "_rows")

    def __init__(self, rows: Iterable[EventRow] = ()) -> None:
        self._rows: tuple[EventRow, ...] = tuple(rows)
        self._events: tuple[RaceEvent, ...] | None = None

    @property
    def rows(self) -> tuple[EventRow, ...]:
        return self._rows

    def _all(self) -> tuple[RaceEvent, ...]:
        if self._events is None:
            self._events = tuple(
                RaceEvent(rnd, kind, car, q, card, amount, brake)
                for rnd, car, templates in self._rows
                for kind, q, card, amount, brake in templates
            )
        return self._events

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> RaceEvent: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[RaceEvent, ...]: ...

    def __getitem__(self, index: int | slice) -> RaceEvent | tuple[RaceEvent, ...]:
        return self._all()[index]

    def __iter__(self) -> Iterator[RaceEvent]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._rows == other._rows
        if isinstance(other, tuple | list):
            return list(self._all()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._rows)

    def __repr__(self) -> str:
        return f"EventLog(<{len(self)} events>)"


#: One throw of the dice log (LU-3): ``(round, car, faces of its speed dice)``.
DiceRow = tuple[int, str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class CarResult:
    """One car's race.

    ``rounds`` is the round it finished or went out in (the rounds played when not
    classified); ``position`` where it ended (``F`` for a finisher, the card where its brake
    ran out for an eliminated car); ``brake`` what is left (below 1 when eliminated);
    ``speeds`` the speed chosen after each of its turns (LU-9); ``card`` the card index of the
    elimination; ``reason`` a line for people."""

    car: str
    rank: int
    status: str
    rounds: int
    position: int
    brake: int
    speeds: tuple[int, ...]
    card: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class RaceOutcome:
    """A resolved race: results in LU-12 order, the round-1 order drawn (LU-2), events in the
    order they happened, and every speed roll."""

    ruleset: str
    seed: int
    track: str
    laps: int
    finish: int
    rounds: int
    start_order: tuple[str, ...]
    results: tuple[CarResult, ...]
    events: EventLog
    dice: tuple[DiceRow, ...]

    def result_of(self, car: str) -> CarResult:
        for r in self.results:
            if r.car == car:
                return r
        raise KeyError(car)

    @property
    def dice_count(self) -> int:
        """Number of d6 thrown."""
        return sum(len(faces) for _, _, faces in self.dice)
