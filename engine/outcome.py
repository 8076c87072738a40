"""Plain frozen data in and out of the engines (ARCHITECTURE.md, "The engine boundary")."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, overload

from engine.course import Course
from engine.dice import Face

if TYPE_CHECKING:
    from engine.rulesets.cyclosim.orders import RiderOrders

H = -1
RATING_MIN = H
RATING_MAX = 4
ROLES: tuple[str, ...] = ("gc_leader", "sprinter", "breakaway", "domestique")
SPRINT_SELECTIONS: tuple[str, ...] = ("best_sprinters", "race_order")

#: Rider status in an :class:`RiderResult`.
FINISHED = "finished"
ABANDONED = "abandoned"
CRASHED_OUT = "crashed_out"


@dataclass(frozen=True, slots=True)
class Profile:
    """The eight ratings of a rider (moreno.md §2.2): ints, H = -1, then 0..4."""

    rouleur: int = 0
    sprinter: int = 0
    baroudeur: int = 0
    finisseur: int = 0
    descender: int = 0
    time_trialist: int = 0
    puncheur: int = 0
    climber: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not int or not RATING_MIN <= value <= RATING_MAX:
                raise ValueError(f"{f.name} must be an int rating -1 (H) .. 4, got {value!r}")


#: The eight axes of a profile, in order (riders.models.RATING_AXES is the same list on the
#: other side of the engine boundary; a test keeps the two in step).
PROFILE_AXES: tuple[str, ...] = tuple(f.name for f in fields(Profile))


@dataclass(frozen=True, slots=True)
class Entrant:
    """A rider at the start of a stage, with what he carries from earlier stages."""

    rider_id: int
    team_id: int
    bib: int
    profile: Profile
    role: str = "domestique"
    no_breakaway: bool = False
    tour_crash_count: int = 0
    gc_rank_before: int | None = None
    gc_time_before: int = 0
    #: Cyclo Sim (cyclosim.md §4.1): this rider's stage orders; None = the default AI (§4.6).
    orders: RiderOrders | None = None
    #: Cyclo Sim (§2.3): energy points consumed at the end of the previous stage (0 on stage 1);
    #: the engine applies the overnight recovery of :class:`CyclosimSettings`.
    pe_consumed: int = 0

    def __post_init__(self) -> None:
        if self.pe_consumed < 0:
            raise ValueError(f"pe_consumed must be >= 0, got {self.pe_consumed!r}")
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r} (known: {', '.join(ROLES)})")


@dataclass(frozen=True, slots=True)
class MorenoSettings:
    """League settings and engine-side numbers of the Moréno ruleset (moreno.md §3.10-3.12, §4).

    ``sprint_selection`` says which riders of a group in the sprint zone sprint (R-SP1):
    ``"best_sprinters"`` (default) the ``sprint_riders`` best ``sprinter`` ratings, ties by race
    order, or ``"race_order"`` the first ``sprint_riders`` in race order (see
    docs/rules-choices.md). ``abandon_table`` lists ``(k_min, abandons)`` rows in increasing
    ``k_min`` (R-A2); ``abandon_min_face`` is the lowest d6 face for which they apply (R-A3).
    """

    tt_multiplier: int = 3
    ttt_counting_rider: int = 4
    shower_cases: int | None = None
    group_free_cases: int = 2
    final_km_neutralisation_cases: int = 0
    abandon_table: tuple[tuple[int, int], ...] = (
        (0, 0),
        (5, 1),
        (10, 2),
        (20, 3),
        (35, 4),
        (55, 5),
        (80, 6),
    )
    abandon_min_face: int = 4
    abandons_enabled: bool = True
    max_turns: int = 500
    pack_width: int = 4
    sprint_riders: int = 12
    sprint_selection: str = "best_sprinters"

    def __post_init__(self) -> None:
        if self.sprint_selection not in SPRINT_SELECTIONS:
            raise ValueError(
                f"sprint_selection must be one of {', '.join(SPRINT_SELECTIONS)}, "
                f"got {self.sprint_selection!r}"
            )
        if self.pack_width < 1 or self.sprint_riders < 1 or self.max_turns < 1:
            raise ValueError("pack_width, sprint_riders and max_turns must be >= 1")
        if self.shower_cases is not None and self.shower_cases < 1:
            raise ValueError("shower_cases must be None or >= 1")
        ks = [k for k, _ in self.abandon_table]
        if not ks or ks[0] != 0 or ks != sorted(ks):
            raise ValueError("abandon_table rows must start at k=0 and increase")


@dataclass(frozen=True, slots=True)
class CyclosimSettings:
    """League settings and [D] numbers of the Cyclo Sim ruleset (cyclosim.md §2, §3.11, §3.12).

    ``lanes`` is W (§2.1); ``profiles`` the advanced game (§2.3); ``rows_per_turn`` and
    ``turn_kmh`` give ``turn_s`` (R-FT1); ``overnight_recovery`` the points recovered between
    two stages; ``group_chain_rows`` chains finishers into one ``final_group`` when each crossed
    at most that many rows' time after the one ahead (§5 ``gap_chain_rows``); ``bunch_gaps``
    measures a mass-start group's gap as the group ahead's plus the hole between them, so the
    length of a bunch on the board (one rider per cell) costs no time (docs/rules-choices.md,
    "Cyclo Sim engine"). ``lanes = 8`` and ``group_chain_rows = 6`` are tuned with
    bench/realism.py.
    """

    lanes: int = 8
    profiles: bool = True
    pe_base: int = 60
    pe_per_rouleur: int = 5
    rows_per_turn: int = 10
    turn_kmh: float = 40.0
    same_unit_time: bool = True
    overnight_recovery: int = 40
    group_chain_rows: int = 6
    relay_pe_margin: int = 8
    ttt_counting_rider: int = 3
    max_turns: int = 1000
    bunch_gaps: bool = True

    def __post_init__(self) -> None:
        if self.lanes < 1 or self.rows_per_turn < 1 or self.max_turns < 1:
            raise ValueError("lanes, rows_per_turn and max_turns must be >= 1")
        if self.pe_base < 10 or not self.turn_kmh > 0:
            raise ValueError("pe_base must be >= 10 and turn_kmh > 0")
        if self.overnight_recovery < 0 or self.group_chain_rows < 0 or self.ttt_counting_rider < 1:
            raise ValueError(
                "overnight_recovery and group_chain_rows must be >= 0, ttt_counting_rider >= 1"
            )


@dataclass(frozen=True, slots=True)
class StageInputs:
    """Everything a stage needs; ``entrants`` in start order (GC order, or bib order)."""

    course: Course
    entrants: tuple[Entrant, ...]
    settings: MorenoSettings = MorenoSettings()
    yellow_jersey: int | None = None
    green_jersey: int | None = None
    #: Cyclo Sim settings; None = ``CyclosimSettings()``. Moréno ignores it.
    cyclosim: CyclosimSettings | None = None

    def __post_init__(self) -> None:
        if not self.entrants:
            raise ValueError("a stage needs at least one entrant")
        ids = [e.rider_id for e in self.entrants]
        if len(set(ids)) != len(ids):
            raise ValueError("rider ids must be unique")


@dataclass(frozen=True, slots=True)
class Crash:
    """A crash: when, where, and how many restart rolls it took (R-X6)."""

    turn: int
    case: int
    severity: int


@dataclass(frozen=True, slots=True)
class RiderResult:
    """One rider's stage: place, where he ended, his gap, and what happened to him."""

    rider_id: int
    rank: int
    final_case: int
    squares_behind: int
    gap_seconds: int
    status: str
    crashes: tuple[Crash, ...]
    final_group: int
    abandon_reason: str | None = None
    #: Cyclo Sim (§2.3): energy points consumed at the finish, carried to the next stage as
    #: ``Entrant.pe_consumed``; None for Moréno.
    pe_consumed: int | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """Something worth telling: crash, attack, breakaway, summit, intermediate_sprint, abandon."""

    turn: int
    kind: str
    rider_ids: tuple[int, ...]
    case: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One roll of the dice log (§2.8)."""

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


@dataclass(frozen=True, slots=True)
class Outcome:
    """A simulated stage: results in rank order, events in order, the full dice log
    (a :class:`DiceLog`, an immutable sequence of :class:`DiceRoll`)."""

    ruleset: str
    seed: int
    results: tuple[RiderResult, ...]
    events: tuple[Event, ...]
    dice: DiceLog
    turns: int
    n_cases: int
    rider_moves: int = 0
