"""The events a cycling stage tells, and the data each kind carries.

Every event is an :class:`engine.outcome.Event` whose ``data`` holds the fields of its kind
(:data:`EVENT_FIELDS`), built here only, so the pages and the classifications read fields
(``data["terrain"]`` of a summit) and never parse a string. ``case`` is the board case (Cyclo
Sim: the row) where it happened; ``rule`` the rule id of the spec that made it happen.

==================== ==================================================================
kind                 data
==================== ==================================================================
crash                ``case``, ``rule`` (Moréno R-X1, R-D3, R-X2; Cyclo Sim R-R6),
                     Cyclo Sim: ``out_turns`` (the turns he stays down)
eliminated           Cyclo Sim (R-X4): ``case``, ``rule``, ``out_turns`` (more than 6)
attack               ``case``, ``rule`` (Moréno R-P20.k, the d20 row; Cyclo Sim R-AT1),
                     Cyclo Sim: ``pace`` (the attack's pace)
breakaway            ``case``, ``rule`` (Moréno R-P20.k)
summit               ``case`` (the summit line), ``climb`` (its name), ``terrain`` (its
                     category: hill, col3, col2, col1, colhc); riders in crossing order
intermediate_sprint  ``case`` (the line), ``km`` (from the start); riders in crossing order
abandon              ``case``, ``rule`` (R-A4), ``criterion`` (1..6), ``reason``
==================== ==================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

from engine.cycling.course import Board
from engine.outcome import Event, EventData, JsonValue

CRASH = "crash"
ELIMINATED = "eliminated"
ATTACK = "attack"
BREAKAWAY = "breakaway"
SUMMIT = "summit"
INTERMEDIATE_SPRINT = "intermediate_sprint"
ABANDON = "abandon"
#: The events of the summit and intermediate sprint lines: the timing reads the sprints'
#: crossing order (bonuses), so the lean path (odds) keeps these and no others.
LINE_EVENTS: frozenset[str] = frozenset({SUMMIT, INTERMEDIATE_SPRINT})

#: Each kind's fields and their JSON types: (required, optional).
EVENT_FIELDS: Mapping[str, tuple[Mapping[str, type], Mapping[str, type]]] = MappingProxyType(
    {
        CRASH: ({"case": int, "rule": str}, {"out_turns": int}),
        ELIMINATED: ({"case": int, "rule": str, "out_turns": int}, {}),
        ATTACK: ({"case": int, "rule": str}, {"pace": str}),
        BREAKAWAY: ({"case": int, "rule": str}, {}),
        SUMMIT: ({"case": int, "climb": str, "terrain": str}, {}),
        INTERMEDIATE_SPRINT: ({"case": int, "km": float}, {}),
        ABANDON: ({"case": int, "rule": str, "criterion": int, "reason": str}, {}),
    }
)


def _data(**fields: JsonValue) -> EventData:
    return cast(EventData, fields)


def crash_data(case: int, rule: str, out_turns: int | None = None) -> EventData:
    if out_turns is None:
        return _data(case=case, rule=rule)
    return _data(case=case, rule=rule, out_turns=out_turns)


def eliminated_data(case: int, rule: str, out_turns: int) -> EventData:
    return _data(case=case, rule=rule, out_turns=out_turns)


def attack_data(case: int, rule: str, pace: str | None = None) -> EventData:
    if pace is None:
        return _data(case=case, rule=rule)
    return _data(case=case, rule=rule, pace=pace)


def breakaway_data(case: int, rule: str) -> EventData:
    return _data(case=case, rule=rule)


def summit_data(case: int, climb: str, terrain: str) -> EventData:
    return _data(case=case, climb=climb, terrain=terrain)


def sprint_data(case: int, km: float) -> EventData:
    return _data(case=case, km=float(km))


def abandon_data(case: int, criterion: int, reason: str, rule: str = "R-A4") -> EventData:
    return _data(case=case, rule=rule, criterion=criterion, reason=reason)


def event_case(event: Event) -> int:
    """The case (row) where a cycling event happened."""
    case = event.data["case"]
    assert type(case) is int
    return case


def event_errors(event: Event) -> list[str]:
    """What does not fit :data:`EVENT_FIELDS` in ``event`` (empty when it fits)."""
    schema = EVENT_FIELDS.get(event.kind)
    if schema is None:
        return [f"unknown event kind {event.kind!r}"]
    required, optional = schema
    errors = []
    for name in required:
        if name not in event.data:
            errors.append(f"{event.kind}: missing {name}")
    for name, value in event.data.items():
        want = required.get(name) or optional.get(name)
        if want is None:
            errors.append(f"{event.kind}: unknown field {name}")
        elif type(value) is not want:
            errors.append(f"{event.kind}.{name}: {value!r} is not a {want.__name__}")
    return errors


class RawEvent:
    """An event while a stage runs (riders as the ruleset's indices or ids); frozen into an
    :class:`~engine.outcome.Event` at the end, when its riders are known."""

    __slots__ = ("data", "kind", "riders", "turn")

    def __init__(self, turn: int, kind: str, riders: tuple[int, ...], data: EventData):
        self.turn = turn
        self.kind = kind
        self.riders = riders
        self.data = data

    def freeze(self, ids: list[int] | None = None) -> Event:
        """The event, riders mapped through ``ids`` (index -> rider id) when given."""
        riders = self.riders if ids is None else tuple(map(ids.__getitem__, self.riders))
        return Event(self.turn, self.kind, riders, self.data)


def line_data(board: Board) -> list[tuple[int, str, EventData]]:
    """The summit and intermediate sprint lines of ``board`` as ``(case, kind, data)``, sorted
    by case (summits first on a tie)."""
    lines = [(c.line, SUMMIT, summit_data(c.line, c.name, c.terrain)) for c in board.climbs]
    lines += [
        (case, INTERMEDIATE_SPRINT, sprint_data(case, km))
        for km, case in board.intermediate_sprints
    ]
    lines.sort(key=lambda x: x[0])
    return lines
