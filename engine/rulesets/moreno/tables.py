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


# -- Per-pair tables (§2.4, §2.5) ---------------------------------------------------------
# Two or three dice rolled together come back from ``Race.roll2`` / ``Race.roll3`` as one
# code (``i1 * n2 + i2``, ``(i1 * 6 + i2) * 6 + i3``): the moves they make are read from these
# tables, built once from the formulas above, instead of being recomputed at every roll.

#: Poker movement values by face index for a rouleur rating (index rating + 1): J/Q/K are the
#: ROULEUR value, A/9/10 are 1/9/10 (§2.4).
POKER_VALUES: Final = tuple((v,) * 3 + POKER_NUMBER_VALUES for v in ROULEUR)

#: R-C1, R-C2: the climb move of two dT (code ``i1 * 6 + i2``), by rating + 1.
CLIMB_MOVES: Final = tuple(
    tuple(climb_move(i1, i2, rating) for i1 in range(6) for i2 in range(6))
    for rating in range(-1, 5)
)
#: R-C3: both dT in {6, T}, by code.
MAX_CLIMB: Final = tuple(is_max_climb(i1, i2) for i1 in range(6) for i2 in range(6))

#: 2 dPoker (code ``i1 * 6 + i2``): the sum of their movement values, by rouleur + 1.
POKER_PAIR: Final = tuple(
    tuple(pv[i1] + pv[i2] for i1 in range(6) for i2 in range(6)) for pv in POKER_VALUES
)
#: d6 + dPoker (code ``a * 6 + b``): ``a + 1 + pv[b]``, by rouleur + 1 (R-S2, R-P20.16/19/20).
D6_POKER: Final = tuple(
    tuple(a + 1 + pv[b] for a in range(6) for b in range(6)) for pv in POKER_VALUES
)
#: Codes of the pairs that ask for a crash check (R-X1): A-A on 2 dPoker, 1-A on d6 + dPoker.
POKER_PAIR_CRASH: Final = POKER_A * 6 + POKER_A
D6_POKER_CRASH: Final = ONE_INDEX * 6 + POKER_A
#: R-P20.16/19/20: 6-K on d6 + dPoker.
D6_POKER_TRIGGER: Final = SIX_INDEX * 6 + POKER_K
#: R-P20.17: 1-1 on 2 d6 (the crash check), and the move of any other pair.
TWO_D6_CRASH: Final = ONE_INDEX * 6 + ONE_INDEX
TWO_D6: Final = tuple(a + b + 2 for a in range(6) for b in range(6))

#: Face indices of three dDesc by code (R-D1).
DESC_FACES: Final = tuple((i1, i2, i3) for i1 in range(6) for i2 in range(6) for i3 in range(6))
#: Green faces among three dDesc, by code (R-D2, R-D3).
DESC_GREENS: Final = tuple(f.count(GREEN_FACE) for f in DESC_FACES)
