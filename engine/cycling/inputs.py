"""A stage's inputs: the course, the riders in start order, and the ruleset's own parts.

``StageInputs[S, X]`` is generic in the ruleset's settings type ``S`` (``MorenoSettings``,
``CyclosimSettings``) and in its per-rider type ``X`` (``MorenoRider``: the no-breakaway order;
``CyclosimRider``: the §4.1 orders and the energy carried from the previous stage). An
:class:`Entrant` holds only what every cycling ruleset reads; ``extras`` maps a rider id to
his ruleset-specific part, and a rider missing from it takes the ruleset's defaults. Each
ruleset reads its extras once, when it sets the stage up, so the hot loops stay on plain
lists (docs/engine.md, "A stage's inputs").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, TypeVar

from engine.cycling.course import Course
from engine.cycling.profile import Profile

ROLES: tuple[str, ...] = ("gc_leader", "sprinter", "breakaway", "domestique")
#: (role, label) of every role, as the orders specs offer them.
ROLE_CHOICES: tuple[tuple[str, str], ...] = (
    ("gc_leader", "GC leader"),
    ("sprinter", "sprinter"),
    ("breakaway", "breakaway"),
    ("domestique", "domestique"),
)

S = TypeVar("S")
X = TypeVar("X")

_NO_EXTRAS: Mapping[int, object] = MappingProxyType({})


def _no_extras() -> Mapping[int, X]:
    return _NO_EXTRAS  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A rider at the start of a stage, with what every cycling ruleset reads of him: his role
    (the spec's yellow, green, red and white bases) and the state the season carries for him
    from earlier stages (crashes, GC rank and time)."""

    rider_id: int
    team_id: int
    bib: int
    profile: Profile
    role: str = "domestique"
    tour_crash_count: int = 0
    gc_rank_before: int | None = None
    gc_time_before: int = 0

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r} (known: {', '.join(ROLES)})")


@dataclass(frozen=True, slots=True)
class StageInputs(Generic[S, X]):
    """Everything a stage needs; ``entrants`` in start order (GC order, or bib order).

    ``settings`` is the ruleset's settings object (None: the ruleset's defaults); ``extras``
    the ruleset's per-rider part by rider id (a rider not in it: the ruleset's defaults).
    """

    course: Course
    entrants: tuple[Entrant, ...]
    settings: S | None = None
    extras: Mapping[int, X] = field(default_factory=_no_extras)
    yellow_jersey: int | None = None
    green_jersey: int | None = None

    def __post_init__(self) -> None:
        if not self.entrants:
            raise ValueError("a stage needs at least one entrant")
        ids = [e.rider_id for e in self.entrants]
        if len(set(ids)) != len(ids):
            raise ValueError("rider ids must be unique")
        strangers = sorted(set(self.extras) - set(ids))
        if strangers:
            raise ValueError(f"extras given for riders who do not start: {strangers[:10]}")

    def extras_in_order(self, default: X) -> list[X]:
        """The riders' extras in start order, ``default`` for a rider who has none."""
        extras = self.extras
        return [extras.get(e.rider_id, default) for e in self.entrants]
