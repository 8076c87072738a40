"""The default driver (grandprix.md §7.2, P-1..P-6): deterministic, used for ``auto`` orders,
for ``interactive`` ones at the deadline and for the computer's cars."""

from __future__ import annotations

from itertools import combinations, product

from engine.rulesets.grandprix.board import Board
from engine.rulesets.grandprix.search import room

#: P-2: θ per risk.
THETA = {"safe": 0.05, "normal": 0.15, "aggressive": 0.30}


def _threshold(gear: int, theta: float) -> int:
    """P-2: the smallest r with P(sum of the ``gear`` lowest dice of 4d6 > r) <= θ."""
    sums = [sum(sorted(t)[:gear]) for t in product(range(1, 7), repeat=4)]
    total = len(sums)
    r = 0
    while sum(1 for s in sums if s > r) / total > theta:
        r += 1
    return r


#: [D] P-5 as the risk level uses it: a green end square (a card draw, GP-9.1) counts this
#: many half-squares more in D_end. ``aggressive`` (+2) ends on green when that costs at most
#: one half-square (the speed cards it draws make it faster, the incidents retire it more
#: often); ``safe`` (-2) gives up as much to avoid a draw; ``normal`` (0) is P-5 as written.
#: Measured in docs/grandprix.md ("Risk levels").
GREEN_BIAS: dict[str, int] = {"safe": -2, "normal": 0, "aggressive": 2}

#: P-2's table R[risk][gear] (gears 3 and 4; gears <= 2 always pass), computed from θ.
RISK_TABLE: dict[str, dict[int, int]] = {
    risk: {g: _threshold(g, theta) for g in (3, 4)} for risk, theta in THETA.items()
}

#: GP-5.3: the distinct sums of g of the 4 dice, per sorted throw, ascending.
_SUMS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
for _throw in product(range(1, 7), repeat=4):
    _key = tuple(sorted(_throw))
    if _key not in _SUMS:
        _SUMS[_key] = tuple(
            tuple(sorted({sum(c) for c in combinations(_key, g)})) if g else () for g in range(5)
        )


#: The same by throw as drawn (all 1296), so that a turn does not sort its dice.
_SUMS_BY_THROW: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {
    _throw: _SUMS[tuple(sorted(_throw))] for _throw in product(range(1, 7), repeat=4)
}


def dice_sums(throw: tuple[int, int, int, int], gear: int) -> tuple[int, ...]:
    """GP-5.3 / P-5: the distinct sums of exactly ``gear`` of the four dice, ascending."""
    return _SUMS_BY_THROW[throw][gear]


def choose_gear(
    board: Board,
    loc: int,
    line: int,
    pit_flag: bool,
    top: int,
    risk: str,
    max_lane_changes: int,
) -> int:
    """P-2: from ``top`` (= min(g_old + 1, max_gear, caps)) down, the first g with g <= 2 or
    room(g) >= R[g][risk] (P-1)."""
    if top <= 2:
        return max(top, 1)
    rooms = room(board, loc, line, pit_flag, max_lane_changes)
    needed = RISK_TABLE[risk]
    for g in range(top, 2, -1):
        if rooms[g] >= needed[g]:
            return g
    return 2
