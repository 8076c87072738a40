"""The turn of one car (ludicitude.md §4, LU-3 .. LU-10), as pure functions.

The race (``race.py``) runs these through tables built from the same functions; the default
driver (``policy.py``) applies them to every outcome it weighs (P-2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rulesets.ludicitude.track import BRAKE_MAX, SPEED_MAX, SPEED_MIN, Track

#: LU-3: the faces of a speed die that move the car one card.
MOVING_FACES = frozenset((1, 2, 3, 4))


def count_moves(faces: Sequence[int]) -> int:
    """LU-3: ``m`` = the number of dice showing 1, 2, 3 or 4."""
    return sum(1 for f in faces if f in MOVING_FACES)


def counted_positions(position: int, moved: int, finish: int) -> range:
    """LU-4 (B4): the positions entered this turn that count, ``q = p+1 .. p+m`` with
    ``q < F``; the departure card never counts."""
    return range(position + 1, min(position + moved, finish - 1) + 1)


def card_losses(
    track: Track, position: int, moved: int, finish: int, speed: int
) -> tuple[tuple[int, int], ...]:
    """LU-5: ``(q, points)`` for every counted card that costs brake, in driving order.

    ``speed`` is what the limits are compared with: ``m`` by default (B3), the speed marker
    with ``limit_basis: marker``. A missing limit costs nothing; both limits apply (B5).
    """
    losses = []
    for q in counted_positions(position, moved, finish):
        points = track.card_at(q).excess(speed)
        if points:
            losses.append((q, points))
    return tuple(losses)


@dataclass(frozen=True, slots=True)
class Move:
    """What LU-4 .. LU-8 make of one roll: the car's position and brake afterwards, whether it
    finished or went out, and why.

    ``eliminated_at`` is the position of the card on which the brake fell below 1 (an
    eliminated car keeps that position for LU-12); ``gained`` the points LU-8 gave back."""

    moved: int
    position: int
    brake: int
    penalty: int
    losses: tuple[tuple[int, int], ...]
    finished: bool = False
    eliminated_at: int | None = None
    gained: int = 0

    @property
    def eliminated(self) -> bool:
        return self.eliminated_at is not None


def resolve_move(
    track: Track, *, position: int, brake: int, moved: int, finish: int, speed: int | None = None
) -> Move:
    """LU-4 .. LU-8 and LU-10 for a car at ``position`` with ``brake`` that moves ``moved``
    cards; ``speed`` replaces ``moved`` in the limits' comparison (``limit_basis: marker``).

    LU-6 comes before LU-7 and LU-8 (B6): a car whose brake falls below 1 is out even if it
    would have stopped on a recovery card or crossed the line. A finisher gets no recovery
    (LU-7), a car that did not move neither (LU-10, B7).
    """
    if moved == 0:
        return Move(0, position, brake, 0, ())
    losses = card_losses(track, position, moved, finish, moved if speed is None else speed)
    penalty = sum(points for _, points in losses)
    left = brake - penalty
    if left < 1:
        running = brake
        for q, points in losses:
            running -= points
            if running < 1:
                return Move(moved, q, left, penalty, losses, eliminated_at=q)
    target = position + moved
    if target >= finish:
        return Move(moved, finish, left, penalty, losses, finished=True)
    gain = track.card_at(target).gain
    after = min(BRAKE_MAX, left + gain) if gain else left
    return Move(moved, target, after, penalty, losses, gained=after - left)


def change_cost(speed: int, new_speed: int) -> int:
    """LU-9: a change of 2 costs 1 brake point; 0 or 1 is free."""
    return 1 if abs(new_speed - speed) == 2 else 0


def speed_options(speed: int, brake: int, cap: int = SPEED_MAX) -> tuple[tuple[int, int], ...]:
    """LU-9 (B8, B12): the next speeds ``(speed', cost)`` in 1..6 (and at most ``cap``, the
    orders' ``max_speed``, P-1); the ±2 changes only with ``brake >= 2``, so that a car never
    eliminates itself. A car above ``cap`` (which the policy never leaves) may still slow down
    as far as the rules allow."""
    allowed = [
        v
        for v in range(max(SPEED_MIN, speed - 2), min(SPEED_MAX, speed + 2) + 1)
        if brake >= 2 or change_cost(speed, v) == 0
    ]
    capped = [v for v in allowed if v <= cap] or allowed[:1]
    return tuple((v, change_cost(speed, v)) for v in capped)
