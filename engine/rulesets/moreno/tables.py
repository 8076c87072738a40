"""Codes and value tables of the Moréno ruleset (moreno.md §2.4, §2.5).

Ratings are stored as ``rating + 1`` indices into the tables (H = -1 -> index 0).
Dice are handled internally as face indices in the canonical order of :mod:`engine.dice`.
"""

from __future__ import annotations

from typing import Final

# Terrain codes (index into the engine's per-case arrays).
PLAIN: Final = 0
HILL: Final = 1
COL3: Final = 2
COL2: Final = 3
COL1: Final = 4
COLHC: Final = 5
DESCENT: Final = 6
TERRAIN_CODE: Final[dict[str, int]] = {
    "plain": PLAIN,
    "hill": HILL,
    "col3": COL3,
    "col2": COL2,
    "col1": COL1,
    "colhc": COLHC,
    "descent": DESCENT,
}

# Role codes (§2.3, §5).
GC_LEADER: Final = 0
SPRINTER_ROLE: Final = 1
BREAKAWAY_ROLE: Final = 2
DOMESTIQUE: Final = 3
ROLE_CODE: Final[dict[str, int]] = {
    "gc_leader": GC_LEADER,
    "sprinter": SPRINTER_ROLE,
    "breakaway": BREAKAWAY_ROLE,
    "domestique": DOMESTIQUE,
}

# Rider status during a stage (§2.7); FROZEN is the optional shower (§3.12).
ACTIVE: Final = 0
FALLEN: Final = 1
FROZEN: Final = 2

# Face indices.
T_FACE: Final = 0  # dT and dDesc
GREEN_FACE: Final = 1  # dDesc
SIX_INDEX: Final = 5  # dT, d6
ONE_INDEX: Final = 0  # d6
POKER_K: Final = 0
POKER_A: Final = 3  # K Q J A 9 10: indices 0..2 are the court cards

#: Value of A, 9, 10 on the poker die (J/Q/K take the rouleur value), §2.4.
POKER_NUMBER_VALUES: Final = (1, 9, 10)

# §2.5 tables, indexed by rating + 1 (H, 0, 1, 2, 3, 4).
CLIMB_T: Final = (1, 2, 4, 5, 6, 6)
DESC_T: Final = (-1, 0, 4, 6, 8, 10)
ROULEUR: Final = (2, 4, 6, 8, 10, 12)
PUNCH13: Final = (1, 5, 10, 15, 20, 25)
TT_VALUE: Final = ROULEUR

#: Sprint table (R-SP1): SPRINT[d6 face - 1][rating + 1].
SPRINT: Final = (
    (1, 1, 1, 1, 1, 1),
    (2, 2, 2, 2, 2, 2),
    (1, 3, 3, 3, 3, 3),
    (1, 1, 4, 4, 4, 6),
    (1, 1, 1, 5, 5, 6),
    (1, 1, 1, 1, 6, 6),
)

#: Farther than any board: "no sprint zone", "no climb ahead".
FAR: Final = 1 << 30


def climb_move(i1: int, i2: int, rating: int) -> int:
    """R-C1, R-C2: the climb formula of §2.5 on two dT face indices (T = ``CLIMB_T``)."""
    t = CLIMB_T[rating + 1]
    a1 = t if i1 == T_FACE else i1 + 1
    a2 = t if i2 == T_FACE else i2 + 1
    if rating < 0:
        return a1 if a1 < a2 else a2
    if rating == 0:
        return a1 if a1 > a2 else a2
    if rating == 1:
        return a1 + a2
    if rating == 2:
        return a1 + a2 + 2
    return a1 + a2 + 3


def is_max_climb(i1: int, i2: int) -> bool:
    """R-C3 trigger: both faces in {6, T}."""
    return i1 in (T_FACE, SIX_INDEX) and i2 in (T_FACE, SIX_INDEX)
