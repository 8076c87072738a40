"""What a Ludicitude race gives back: per car rank, status, rounds, brake left and the speed
chosen each round; the structured events; the dice log (ludicitude.md §4, LU-12)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

from engine.outcome import JsonValue
from engine.rows import Rows
from engine.rulesets.ludicitude.orders import (
    DEFAULT_ORDERS,
    DEFAULT_SETTINGS,
    CarOrders,
    LudicitudeSettings,
)
from engine.rulesets.ludicitude.track import N_CARDS, Track

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


#: A car's state in a trace row (the Grand Prix's words: an eliminated car is ``retired``;
#: Ludicitude has no pit lane).
TRACE_RACING, TRACE_RETIRED, TRACE_FINISHED = "racing", "retired", "finished"
_TRACE_STATE = {"": TRACE_RACING, ELIMINATED: TRACE_RETIRED, FINISHED: TRACE_FINISHED}


class TraceCar(NamedTuple):
    """Where one car is in a trace row: its ``place`` in the running order (1 = leader:
    finishers in finishing order, then the racing cars by ``p``, ties in the round's play
    order, then the eliminated as LU-12 ranks them), its ``lap`` (``p // 24 + 1``, at most
    the race's laps), the ``card`` it stands on (T-4: ``p mod 24``; a finisher of an open
    circuit is past card 23 and shows 23), its ``position`` ``p`` and its ``state``."""

    car: str
    place: int
    lap: int
    card: int
    position: int
    state: str


class TraceRow(NamedTuple):
    """Every car after round 0 (the start) or after a round, in entry order."""

    round: int
    cars: tuple[TraceCar, ...]


#: A snapshot as the race keeps it: ``(round, p of every car, status of every car ("" while
#: racing), the racing cars in play order)``.
RawTraceRow = tuple[int, tuple[int, ...], tuple[str, ...], tuple[int, ...]]


def _trace_rows(
    cars: tuple[str, ...],
    laps: int,
    finish: int,
    closed: bool,
    finishers: tuple[int, ...],
    out_seq: tuple[int, ...],
    raw: list[RawTraceRow],
) -> tuple[TraceRow, ...]:
    """The :class:`TraceRow` of a race's compact snapshots: places (finishers in crossing
    order, then running cars by distance, then eliminated ones), lap, card and state."""
    rank_of = {i: n for n, i in enumerate(finishers)}
    rows = []
    for rnd, pos, status, racing in raw:
        done = [i for i, s in enumerate(status) if s == FINISHED]
        done.sort(key=rank_of.__getitem__)
        ahead = sorted(racing, key=lambda i: -pos[i])
        out = sorted(
            (i for i, s in enumerate(status) if s == ELIMINATED),
            key=lambda i: (-pos[i], -out_seq[i]),
        )
        places = [0] * len(cars)
        for place, i in enumerate([*done, *ahead, *out], 1):
            places[i] = place
        rows.append(
            TraceRow(
                rnd,
                tuple(
                    TraceCar(
                        car,
                        places[i],
                        min(pos[i] // N_CARDS + 1, laps),
                        pos[i] % N_CARDS if closed or pos[i] < finish else N_CARDS - 1,
                        pos[i],
                        _TRACE_STATE[status[i]],
                    )
                    for i, car in enumerate(cars)
                ),
            )
        )
    return tuple(rows)


class PositionTrace(Rows[TraceRow]):
    """The position trace of a race (one snapshot a round), an immutable sequence of
    :class:`TraceRow`. The race keeps compact rows and the :class:`TraceRow` are built when
    the trace is first read (:class:`engine.rows.Rows`)."""

    __slots__ = ()

    @classmethod
    def from_race(
        cls,
        cars: tuple[str, ...],
        laps: int,
        finish: int,
        closed: bool,
        finishers: tuple[int, ...],
        out_seq: tuple[int, ...],
        rows: list[RawTraceRow],
    ) -> PositionTrace:
        """The trace of :func:`~engine.rulesets.ludicitude.race.run_race`'s snapshots."""
        return cls(lambda: _trace_rows(cars, laps, finish, closed, finishers, out_seq, rows))

    def to_data(self) -> list[JsonValue]:
        """``[{"round": N, "cars": {"<car>": {"place", "lap", "card", "position", "state"}}}]``
        in round order (docs/ludicitude.md, "Position trace")."""
        return [
            {
                "round": row.round,
                "cars": {
                    c.car: {
                        "place": c.place,
                        "lap": c.lap,
                        "card": c.card,
                        "position": c.position,
                        "state": c.state,
                    }
                    for c in row.cars
                },
            }
            for row in self._all()
        ]

    @classmethod
    def from_data(cls, data: Iterable[Mapping[str, Any]]) -> PositionTrace:
        """The trace back from :meth:`to_data`."""
        return cls(
            tuple(
                TraceRow(
                    row["round"],
                    tuple(
                        TraceCar(car, c["place"], c["lap"], c["card"], c["position"], c["state"])
                        for car, c in row["cars"].items()
                    ),
                )
                for row in data
            )
        )


NO_TRACE = PositionTrace()

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
    #: One row after the start (round 0) and after every round (docs/ludicitude.md).
    trace: PositionTrace = NO_TRACE

    def result_of(self, car: str) -> CarResult:
        for r in self.results:
            if r.car == car:
                return r
        raise KeyError(car)

    @property
    def dice_count(self) -> int:
        """Number of d6 thrown."""
        return sum(len(faces) for _, _, faces in self.dice)
