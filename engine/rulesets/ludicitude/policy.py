"""The default driver (ludicitude.md §7.2): a one-turn look-ahead in exact rational arithmetic.

After its move a car at position ``p`` with brake ``b`` and speed ``v`` weighs every next speed
``v'`` (P-1) by the expected utility of the roll it will make with it (P-2) and keeps the best
(P-3). The scores depend on the state ``(p, b, v)``, the risk λ, the ``max_speed`` cap and the
track only, so :func:`decision_table` caches the choice per state across races.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from engine.rulesets.ludicitude.orders import LAMBDA
from engine.rulesets.ludicitude.rules import Move, resolve_move, speed_options
from engine.rulesets.ludicitude.track import SPEED_MAX, Track

#: P-2: the utility of an outcome that eliminates the car.
ELIMINATED = Fraction(-100)
#: P-2: ``PROBABILITY[v][m] = C(v,m)·(2/3)^m·(1/3)^(v-m)``, the chance that ``v`` dice show
#: ``m`` faces 1..4 (LU-3).
PROBABILITY: tuple[tuple[Fraction, ...], ...] = tuple(
    tuple(Fraction(comb(v, m) * 2**m, 3**v) for m in range(v + 1)) for v in range(SPEED_MAX + 1)
)


#: [D] P-2 as the engine plays it (version 2): a brake point is worth λ while the car stands
#: at least this many cards from the finish, then less in proportion to the cards left, and
#: nothing once the move finishes (no penalty is left to pay with it). P-2 as written weighs it
#: λ to the line, so the driver finished with 5.5 points unspent (issue 32; docs/ludicitude.md,
#: "auto against the best fixed orders"). Far from the finish (the §8 vectors L10-L12) the
#: scores are P-2's.
BRAKE_HORIZON = 24  # one lap of the 24 cards (tried 12 and 18: auto 0.55 and 0.36 points short)


def brake_worth(position: int, finish: int) -> Fraction:
    """The share of λ a brake point is worth to a car at ``position``: 1 at ``BRAKE_HORIZON``
    cards or more from the finish, down to 0 on it."""
    return Fraction(max(0, min(BRAKE_HORIZON, finish - position)), BRAKE_HORIZON)


def utility(move: Move, *, position: int, brake: int, finish: int, weight: Fraction) -> Fraction:
    """P-2: -100 if the car is eliminated, otherwise ``min(m, F - p) + λ·w·(b_after - b)``
    (``b_after`` after the cost of the change, the penalties and any recovery; ``w`` is
    :func:`brake_worth` of the car's position ``p``, 0 for a move that finishes; far from
    the finish ``w`` is 1 and this is P-2 as written)."""
    if move.eliminated:
        return ELIMINATED
    moved = min(move.moved, finish - position)
    if move.finished:
        return Fraction(moved)
    return moved + weight * brake_worth(position, finish) * (move.brake - brake)


def scores(
    track: Track,
    *,
    position: int,
    brake: int,
    speed: int,
    weight: Fraction,
    finish: int,
    max_speed: int = SPEED_MAX,
    marker_basis: bool = False,
) -> dict[int, Fraction]:
    """P-1, P-2: ``score(v') = Σ P(m)·u(m)`` for every candidate next speed ``v'``.

    Each outcome applies LU-4 .. LU-8 from ``(p, b - c)``, ``c`` the cost of a change of 2
    (LU-9); with ``marker_basis`` the limits are compared with ``v'`` rather than ``m``.
    """
    result = {}
    for new_speed, cost in speed_options(speed, brake, max_speed):
        start = brake - cost
        total = Fraction(0)
        for moved, chance in enumerate(PROBABILITY[new_speed]):
            move = resolve_move(
                track,
                position=position,
                brake=start,
                moved=moved,
                finish=finish,
                speed=new_speed if marker_basis else None,
            )
            total += chance * utility(
                move, position=position, brake=brake, finish=finish, weight=weight
            )
        result[new_speed] = total
    return result


def best_speed(speed: int, options: dict[int, Fraction]) -> int:
    """P-3: the highest score; ties to the smaller change ``|v' - v|``, then the smaller ``v'``."""
    return min(options, key=lambda v: (-options[v], abs(v - speed), v))


def choose_speed(
    track: Track,
    *,
    position: int,
    brake: int,
    speed: int,
    weight: Fraction,
    finish: int,
    max_speed: int = SPEED_MAX,
    marker_basis: bool = False,
) -> int:
    """§7.2: the next speed the default driver picks (P-1 .. P-3)."""
    options = scores(
        track,
        position=position,
        brake=brake,
        speed=speed,
        weight=weight,
        finish=finish,
        max_speed=max_speed,
        marker_basis=marker_basis,
    )
    return best_speed(speed, options)


class DecisionTable:
    """The default driver's choice per state ``(p, b, v)`` for one track, finish, basis, λ and
    cap, computed on first use and kept (the look-ahead is exact but costs ~100 fraction
    operations; a race asks the same states again and again)."""

    __slots__ = ("_choices", "cap", "finish", "marker_basis", "track", "weight")

    def __init__(
        self, track: Track, finish: int, marker_basis: bool, weight: Fraction, cap: int
    ) -> None:
        self.track = track
        self.finish = finish
        self.marker_basis = marker_basis
        self.weight = weight
        self.cap = cap
        self._choices: dict[int, int] = {}

    def choose(self, position: int, brake: int, speed: int) -> int:
        """The next speed of a car in this state (P-1 .. P-3)."""
        key = (position * 16 + brake) * 8 + speed
        choice = self._choices.get(key)
        if choice is None:
            choice = choose_speed(
                self.track,
                position=position,
                brake=brake,
                speed=speed,
                weight=self.weight,
                finish=self.finish,
                max_speed=self.cap,
                marker_basis=self.marker_basis,
            )
            self._choices[key] = choice
        return choice


@lru_cache(maxsize=256)
def decision_table(
    track: Track, finish: int, marker_basis: bool, risk: str, cap: int
) -> DecisionTable:
    """The shared :class:`DecisionTable` of these inputs and ``risk`` (§7.1) (bounded cache;
    its contents depend on the inputs only, so sharing it between races changes no outcome)."""
    return DecisionTable(track, finish, marker_basis, LAMBDA[risk], cap)
