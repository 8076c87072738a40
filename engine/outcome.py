"""What every game's outcome is made of, whatever the game: structured events and the dice log.

An :class:`Event` is ``(turn, kind, entrant_ids, data)``: ``data`` is a plain mapping of JSON
values whose keys are fixed by the ``kind`` (each discipline lists its kinds and their fields,
e.g. :mod:`engine.cycling.events`), so pages and classifications read fields, never parse a
string. The dice log keeps every roll (ARCHITECTURE.md, "The engine boundary").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, overload

from engine.dice import Face

#: A JSON value as the engine writes it (no floats that are not finite, no other types).
JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
EventData: TypeAlias = Mapping[str, JsonValue]


@dataclass(frozen=True, slots=True)
class Event:
    """Something worth telling: ``kind`` (crash, attack, summit...), who (``entrant_ids``: riders
    or cars, in the order that matters to the kind) and its typed ``data``."""

    turn: int
    kind: str
    entrant_ids: tuple[int, ...]
    data: EventData

    @property
    def rider_ids(self) -> tuple[int, ...]:
        """The entrants of a cycling event: riders."""
        return self.entrant_ids


def event_to_data(event: Event) -> dict[str, JsonValue]:
    """The one JSON form of an event: ``{"turn", "kind", "riders", "data"}``."""
    return {
        "turn": event.turn,
        "kind": event.kind,
        "riders": list(event.entrant_ids),
        "data": dict(event.data),
    }


def event_from_data(data: Mapping[str, JsonValue]) -> Event:
    """The inverse of :func:`event_to_data`; ValueError on a malformed event."""
    turn, kind, riders, payload = data["turn"], data["kind"], data["riders"], data["data"]
    if type(turn) is not int or not isinstance(kind, str):
        raise ValueError(f"an event needs an int turn and a text kind, got {turn!r}, {kind!r}")
    if not isinstance(riders, list) or any(type(r) is not int for r in riders):
        raise ValueError(f"event riders must be a list of ids, got {riders!r}")
    if not isinstance(payload, dict):
        raise ValueError(f"event data must be an object, got {payload!r}")
    return Event(turn, kind, tuple(r for r in riders if isinstance(r, int)), payload)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One roll of the dice log (moreno.md §2.8)."""

    turn: int
    unit: int
    rider_id: int | None
    rule_id: str
    die: str
    face: Face


DiceRow = tuple[int, int, int | None, str, str, Face]


class DiceLog(Sequence[DiceRoll]):
    """The dice log of an outcome: an immutable sequence of :class:`DiceRoll`.

    It keeps the rolls as plain tuples ``(turn, unit, rider_id, rule_id, die, face)`` and builds
    a ``DiceRoll`` when one is read, so a stage with thousands of rolls costs no thousands of
    objects unless somebody reads them; ``rows`` gives the tuples themselves.
    """

    __slots__ = ("_rows",)

    def __init__(self, rows: Iterable[DiceRow] = ()) -> None:
        self._rows: tuple[DiceRow, ...] = tuple(rows)

    @property
    def rows(self) -> tuple[DiceRow, ...]:
        """The rolls as tuples, in order."""
        return self._rows

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> DiceRoll: ...

    @overload
    def __getitem__(self, index: slice) -> DiceLog: ...

    def __getitem__(self, index: int | slice) -> DiceRoll | DiceLog:
        if isinstance(index, slice):
            return DiceLog(self._rows[index])
        return DiceRoll(*self._rows[index])

    def __iter__(self) -> Iterator[DiceRoll]:
        for row in self._rows:
            yield DiceRoll(*row)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DiceLog):
            return self._rows == other._rows
        if isinstance(other, tuple | list):
            return len(other) == len(self._rows) and all(
                a == b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._rows)

    def __repr__(self) -> str:
        return f"DiceLog(<{len(self._rows)} rolls>)"


def dice_to_data(log: DiceLog) -> list[list[JsonValue]]:
    """The one JSON form of a dice log: ``[[turn, unit, rider_id, rule_id, die, face], ...]``."""
    return [list(row) for row in log.rows]


def dice_from_data(rows: Sequence[Sequence[JsonValue]]) -> DiceLog:
    """The inverse of :func:`dice_to_data`."""
    out: list[DiceRow] = []
    for row in rows:
        turn, unit, rider, rule, die, face = row
        if (
            type(turn) is not int
            or type(unit) is not int
            or not (rider is None or type(rider) is int)
            or not isinstance(rule, str)
            or not isinstance(die, str)
            or not isinstance(face, int | str)
            or isinstance(face, bool)
        ):
            raise ValueError(f"not a dice roll: {row!r}")
        out.append((turn, unit, rider, rule, die, face))
    return DiceLog(out)
