"""Moréno's settings and its per-rider part of a stage's inputs (moreno.md §3.10-3.12, §4).

:class:`MorenoSettings` holds every default once; :data:`SETTINGS_SPEC` adds each field's
bounds and help text (an organiser may set any of them within its bounds).
:class:`MorenoRider` is what Moréno alone reads of a rider: his no-breakaway order (R-P20).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cycling.inputs import ROLE_CHOICES
from engine.spec import CHOICE, About, Field, Spec, dataclass_codec, dataclass_spec

SPRINT_SELECTIONS: tuple[str, ...] = ("best_sprinters", "race_order")


@dataclass(frozen=True, slots=True)
class MorenoSettings:
    """League settings and engine-side numbers of the Moréno ruleset (moreno.md §3.10-3.12, §4).

    ``sprint_selection`` says which riders of a group in the sprint zone sprint (R-SP1):
    ``"best_sprinters"`` (default) the ``sprint_riders`` best ``sprinter`` ratings, ties by race
    order, or ``"race_order"`` the first ``sprint_riders`` in race order (see
    docs/rules-choices.md). ``crash_chain_cases`` is how far a crash chain reaches (R-X2):
    1 (default) the riders on the last faller's case, 2 that case and the case behind it (the
    spec's reading; docs/rules-choices.md). ``abandon_table`` lists ``(k_min, abandons)``
    rows in increasing ``k_min`` (R-A2); ``abandon_min_face`` is the lowest d6 face for which
    they apply (R-A3). ``abandon_field`` is the field the table is made for: a smaller field
    reads it at ``k`` scaled up to that field and takes that many abandons scaled down to its
    own size, half up (0: never scaled; docs/rules-choices.md). ``sprint_free_cases``: two
    riders who both sprinted (R-SP1) finish in one group across at most this many free cases on
    plain (0: only ``group_free_cases``; docs/rules-choices.md, version 5).
    ``crash_confirm_faces``: a crash confirmed by R-X1 needs a second d6 showing 1 to this
    face (6: no second die, the rules' literal reading; docs/rules-choices.md, version 5).
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
    abandon_field: int = 176
    abandons_enabled: bool = True
    max_turns: int = 500
    pack_width: int = 4
    sprint_riders: int = 12
    sprint_selection: str = "best_sprinters"
    crash_chain_cases: int = 1
    sprint_free_cases: int = 6
    crash_confirm_faces: int = 2

    def __post_init__(self) -> None:
        if self.sprint_selection not in SPRINT_SELECTIONS:
            raise ValueError(
                f"sprint_selection must be one of {', '.join(SPRINT_SELECTIONS)}, "
                f"got {self.sprint_selection!r}"
            )
        if self.abandon_field < 0:
            raise ValueError("abandon_field must be >= 0")
        if not 1 <= self.crash_confirm_faces <= 6:
            raise ValueError("crash_confirm_faces must be 1 to 6")
        if self.sprint_free_cases < 0:
            raise ValueError("sprint_free_cases must be >= 0")
        if self.crash_chain_cases not in (1, 2):
            raise ValueError("crash_chain_cases must be 1 or 2")
        if self.pack_width < 1 or self.sprint_riders < 1 or self.max_turns < 1:
            raise ValueError("pack_width, sprint_riders and max_turns must be >= 1")
        if self.shower_cases is not None and self.shower_cases < 1:
            raise ValueError("shower_cases must be None or >= 1")
        ks = [k for k, _ in self.abandon_table]
        if not ks or ks[0] != 0 or ks != sorted(ks):
            raise ValueError("abandon_table rows must start at k=0 and increase")


SETTINGS_SPEC: Spec = dataclass_spec(
    MorenoSettings,
    {
        "tt_multiplier": About(
            "Time-trial gap multiplier",
            "R-TT3: a time-trial gap is this many times the seconds of the cases behind.",
            1,
            10,
        ),
        "ttt_counting_rider": About(
            "Team time-trial counting rider",
            "R-TT: the team's time is the time of its rider finishing in this place.",
            1,
            9,
        ),
        "shower_cases": About(
            "Shower (cases behind the leader)",
            "The optional shower rule: a rider more than this many cases behind the leader at "
            "the end of a turn is frozen where he is. Empty: no shower.",
            1,
            400,
            kind="int",
        ),
        "group_free_cases": About(
            "Free cases inside a group",
            "§4: riders at most this many free cases apart finish in one group.",
            0,
            10,
        ),
        "final_km_neutralisation_cases": About(
            "Neutralised final cases",
            "§4: a rider who crashes in this many last cases gets the gap of his group at the "
            "start of the turn (6 cases = 3 km).",
            0,
            30,
        ),
        "abandon_table": About(
            "Abandon table",
            "R-A2: rows [riders behind the main peloton from, abandons], the first row from "
            "0, increasing.",
            0,
            500,
        ),
        "abandon_min_face": About(
            "Abandon roll: lowest face",
            "R-A3: the abandons of the table apply when the d6 shows this face or more.",
            1,
            6,
        ),
        "abandon_field": About(
            "Abandon table: field size",
            "R-A2 [D]: the number of riders the abandon table is made for. A smaller field "
            "reads it with the riders behind the main peloton scaled up to this field, and "
            "takes that many abandons scaled down to its own size. 0: never scaled.",
            0,
            1000,
        ),
        "abandons_enabled": About("Abandons", "R-A: the abandon roll after each mass-start stage."),
        "max_turns": About(
            "Turn cap", "A stage stops after this many turns (a safety net).", 1, 5000
        ),
        "pack_width": About(
            "Riders per case in a pack", "§2.7 pack(): this many riders side by side.", 1, 8
        ),
        "sprint_riders": About(
            "Sprinters per group", "R-SP1: how many riders of a group sprint.", 1, 50
        ),
        "sprint_selection": About(
            "Who sprints",
            "R-SP1: the best sprinters of the group, or the first riders in race order (the "
            "spec's literal reading).",
            choices=(
                ("best_sprinters", "the best sprinters"),
                ("race_order", "the first in race order"),
            ),
        ),
        "crash_chain_cases": About(
            "Crash chain: cases hit",
            "R-X2: a crash brings down riders on the faller's case (1) or on his case and the "
            "case behind it (2, the rules' literal reading).",
            1,
            2,
        ),
        "sprint_free_cases": About(
            "Free cases inside a sprint",
            "§4: two riders who both sprinted finish in one group when at most this many free "
            "cases apart on the flat (a sprint spreads riders by up to 6 cases a turn). 0: only "
            "the free cases inside a group.",
            0,
            20,
        ),
        "crash_confirm_faces": About(
            "Crash: second confirm die",
            "R-X1.2: a crash the confirm die gave happens only if a second d6 shows 1 to this "
            "face. 6: no second die (the rules' literal reading).",
            1,
            6,
        ),
    },
)
SETTINGS_CODEC = dataclass_codec(MorenoSettings, SETTINGS_SPEC)


@dataclass(frozen=True, slots=True)
class MorenoRider:
    """What Moréno alone reads of a rider: ``no_breakaway`` (he joins no d20 breakaway,
    R-P20)."""

    no_breakaway: bool = False


DEFAULT_RIDER = MorenoRider()

#: A rider's orders for a Moréno stage: his role and the no-breakaway order.
ORDERS_SPEC = Spec(
    (
        Field(
            "role",
            CHOICE,
            "domestique",
            "Role",
            "The rider's base: GC leader (yellow), sprinter (green), breakaway (red) or "
            "domestique (white).",
            choices=ROLE_CHOICES,
        ),
        Field(
            "no_breakaway",
            "bool",
            DEFAULT_RIDER.no_breakaway,
            "No breakaway",
            "R-P20: the rider never goes with a d20 breakaway.",
        ),
    )
)
