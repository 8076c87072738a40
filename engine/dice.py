"""Dice of the board games, and the sources that roll them.

Faces are listed in the canonical order of the specs (moreno.md §2.4): a random roll of die ``X``
is ``X.faces[rng.randrange(len(X.faces))]`` (§2.8), so a seed gives the same faces on every
machine. Engines take a :class:`DiceSource`; tests inject :class:`ScriptedDice`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

Face = int | str


@dataclass(frozen=True, slots=True)
class Die:
    """A die: its log name and its faces in canonical order.

    ``n`` and ``bits`` (faces, and bits per ``getrandbits`` draw) serve engines' fast paths.
    """

    name: str
    faces: tuple[Face, ...]
    n: int = field(init=False, repr=False, compare=False)
    bits: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", len(self.faces))
        object.__setattr__(self, "bits", len(self.faces).bit_length())


D6 = Die("d6", (1, 2, 3, 4, 5, 6))
DT = Die("dT", ("T", 2, 3, 4, 5, 6))
DDESC = Die("dDesc", ("T", "G", 3, 4, 5, 6))
DPOKER = Die("dPoker", ("K", "Q", "J", "A", 9, 10))
D20 = Die("d20", tuple(range(1, 21)))
DESC6 = Die("dEsc6", (2, 4, 8, 16, 32, 64))
DESC8 = Die("dEsc8", (10, 20, 30, 40, 50, 60, 70, 80))

DICE: dict[str, Die] = {d.name: d for d in (D6, DT, DDESC, DPOKER, D20, DESC6, DESC8)}


class DiceSource(Protocol):
    """Where an engine gets its faces from (moreno.md §2.8)."""

    def roll(self, die: Die, *, turn: int, unit: int, rider_id: int | None, rule_id: str) -> Face:
        """Roll ``die`` for ``rule_id`` and return the face."""
        ...


class RandomDice:
    """Seeded dice: one ``random.Random(seed)``, a roll is ``faces[rng.randrange(len(faces))]``."""

    __slots__ = ("rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def roll(self, die: Die, *, turn: int, unit: int, rider_id: int | None, rule_id: str) -> Face:
        """Roll ``die`` (the context is not used: the sequence depends on the seed only)."""
        return die.faces[self.rng.randrange(len(die.faces))]


def fast_index(dice: DiceSource) -> Callable[[Die], int] | None:
    """The engines' one fast integer path: for a :class:`RandomDice` (exactly, not a subclass,
    which may roll otherwise) a function ``index(die)`` that draws the face index
    ``rng.randrange(die.n)`` would, without its checks; None for any other source.

    It is CPython's ``Random._randbelow_with_getrandbits``: ``k = n.bit_length()`` bits drawn
    until they make a number below ``n`` (``die.bits`` is ``k``). tests/engine/test_dice.py
    pins the equivalence with ``randrange`` on every die, so a seed gives the same faces.
    """
    if type(dice) is not RandomDice:
        return None
    getrandbits = dice.rng.getrandbits

    def index(die: Die) -> int:
        n = die.n
        k = die.bits
        x = getrandbits(k)
        while x >= n:
            x = getrandbits(k)
        return x

    return index


def fast_bits(dice: DiceSource) -> Callable[[int], int] | None:
    """``getrandbits`` of an exact :class:`RandomDice` (None for any other source), for an
    engine that inlines :func:`fast_index`'s loop in its hot path: ``x = bits(die.bits)``
    until ``x < die.n`` draws the face index ``randrange(die.n)`` would (the Moréno engine's
    ``Race.roll``; tests/engine/test_dice.py pins it)."""
    if type(dice) is not RandomDice:
        return None
    return dice.rng.getrandbits


class ScriptExhausted(AssertionError):
    """A scripted dice source was asked for more faces than its script holds."""


class ScriptMismatch(AssertionError):
    """A scripted face does not belong to the die that was rolled."""


def _normalise(face: Face) -> Face:
    if isinstance(face, str) and face.isdigit():
        return int(face)
    return face


class ScriptedDice:
    """Replays a list of faces, in consumption order, and fails loudly when it does not fit.

    Faces may be given as ints or strings (``"T"``, ``"G"``, ``"K"``, ``"9"``...). ``rolls`` keeps
    what was asked, for assertions on the consumption order.
    """

    __slots__ = ("_faces", "_next", "rolls")

    def __init__(self, faces: Iterable[Face]) -> None:
        self._faces: list[Face] = [_normalise(f) for f in faces]
        self._next = 0
        self.rolls: list[tuple[str, str, int | None, Face]] = []

    @property
    def remaining(self) -> int:
        """Number of scripted faces not consumed yet."""
        return len(self._faces) - self._next

    def roll(self, die: Die, *, turn: int, unit: int, rider_id: int | None, rule_id: str) -> Face:
        """Return the next scripted face; raise if there is none or it is not on ``die``."""
        where = f"turn {turn}, unit {unit}, rider {rider_id}, rule {rule_id}, die {die.name}"
        if self._next >= len(self._faces):
            raise ScriptExhausted(f"scripted dice ran out after {len(self._faces)} faces ({where})")
        face = self._faces[self._next]
        if face not in die.faces:
            raise ScriptMismatch(
                f"scripted face #{self._next} {face!r} is not a face of {die.name} "
                f"{die.faces} ({where})"
            )
        self._next += 1
        self.rolls.append((die.name, rule_id, rider_id, face))
        return face
