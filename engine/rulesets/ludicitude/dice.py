"""The dice of a Ludicitude race: speed dice (LU-3) and the round-1 draw (LU-2, S-5).

A race takes any :class:`engine.dice.DiceSource` (tests inject ``ScriptedDice``: every d6 is
asked for with rule ``LU-3``, and a random round-1 order draws one die per swap of a
Fisher-Yates shuffle with rule ``LU-2``). A seeded race (``RandomDice``, or no dice at all)
uses one ``random.Random(seed)`` and a faster draw of the same law: the ``n`` speed dice of a
turn are the ``n`` base-6 digits of ``⌊random()·6ⁿ⌋`` (each of the ``6ⁿ`` throws equally
likely up to the 2⁻⁵³ grain of ``random()``), and the round-1 order is ``rng.shuffle``. Both
give the same faces on every machine for a seed.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.dice import D6, DiceSource, Die, RandomDice
from engine.rulesets.ludicitude.rules import MOVING_FACES
from engine.rulesets.ludicitude.track import SPEED_MAX

POWERS: tuple[int, ...] = tuple(6**n for n in range(SPEED_MAX + 1))


class SpeedDice(Protocol):
    """What a race asks of its dice."""

    def throw(self, n: int, *, round_no: int, unit: int) -> tuple[tuple[int, ...], int]:
        """LU-3: the faces of ``n`` d6 and ``m``, how many show 1..4."""
        ...

    def shuffle(self, units: list[int]) -> None:
        """LU-2: put ``units`` in a random order, in place."""
        ...


def _throws(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every throw of ``n`` d6 in base-6 order, with its ``m``."""
    table = []
    for k in range(POWERS[n]):
        faces = []
        for _ in range(n):
            k, digit = divmod(k, 6)
            faces.append(digit + 1)
        table.append((tuple(faces), sum(1 for f in faces if f in MOVING_FACES)))
    return tuple(table)


_THROWS: list[tuple[tuple[tuple[int, ...], int], ...] | None] = [None] * (SPEED_MAX + 1)


def throws(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The table of :func:`_throws`, built on first use (6⁶ rows for six dice)."""
    table = _THROWS[n]
    if table is None:
        table = _THROWS[n] = _throws(n)
    return table


class SeededSpeedDice:
    """One ``random.Random`` per race; see the module's docstring for the draw."""

    __slots__ = ("rng", "tables")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tables = [throws(n) for n in range(SPEED_MAX + 1)]

    def throw(self, n: int, *, round_no: int, unit: int) -> tuple[tuple[int, ...], int]:
        return self.tables[n][int(self.rng.random() * POWERS[n])]

    def shuffle(self, units: list[int]) -> None:
        self.rng.shuffle(units)


class SourceSpeedDice:
    """Any :class:`DiceSource`, one ``roll`` per die (``rider_id`` is the car's entry index,
    ``unit`` the die's index in the throw)."""

    __slots__ = ("source",)

    def __init__(self, source: DiceSource) -> None:
        self.source = source

    def throw(self, n: int, *, round_no: int, unit: int) -> tuple[tuple[int, ...], int]:
        faces = []
        for k in range(n):
            face = self.source.roll(D6, turn=round_no, unit=k, rider_id=unit, rule_id="LU-3")
            faces.append(int(face))
        return tuple(faces), sum(1 for f in faces if f in MOVING_FACES)

    def shuffle(self, units: list[int]) -> None:
        """Fisher-Yates: for ``i`` from the last place down to 1, a ``d(i+1)`` picks the unit
        that goes to place ``i``."""
        for i in range(len(units) - 1, 0, -1):
            die = Die(f"d{i + 1}", tuple(range(1, i + 2)))
            j = int(self.source.roll(die, turn=0, unit=i, rider_id=None, rule_id="LU-2")) - 1
            units[i], units[j] = units[j], units[i]


def speed_dice(dice: DiceSource | None, seed: int) -> SpeedDice:
    """The race's dice: seeded (``RandomDice`` or none: one ``random.Random(seed)``) or the
    injected source."""
    if dice is None:
        return SeededSpeedDice(random.Random(seed))
    if type(dice) is RandomDice:
        return SeededSpeedDice(dice.rng)
    return SourceSpeedDice(dice)
