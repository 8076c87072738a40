"""Where a race gets its dice and shuffles: seeded, or scripted for the §8 vectors.

The engine asks for whole throws (4 dice, GP-5.1) and for pile shuffles (GP-1.3, GP-9.2);
the race itself logs them with round and car. :class:`ScriptedSource` fails loudly, as
:class:`engine.dice.ScriptedDice` does, when a test's script runs out or does not fit.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from engine.dice import ScriptExhausted, ScriptMismatch
from engine.rulesets.grandprix.cards import card_code, card_name

Throw = tuple[int, int, int, int]


class RaceSource(Protocol):
    """Dice and shuffles of one event (qualifying and race)."""

    def throw(self, rule: str) -> Throw:
        """Four d6 for ``rule`` (GP-5.1, GP-11.4, GP-2.5)."""
        ...

    def shuffle(self, cards: list[int], pile: int) -> None:
        """Shuffle ``cards`` (a lap pile, top card last) in place (GP-1.3, GP-9.2)."""
        ...


class RandomSource:
    """One ``random.Random(seed)`` per event: a die is ``1 + int(random() * 6)`` and a shuffle
    is ``Random.shuffle``; the same seed gives the same event on every machine."""

    __slots__ = ("_random", "rng", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._random = self.rng.random

    def throw(self, rule: str) -> Throw:
        """Four dice (``rule`` is not used: the sequence depends on the seed only)."""
        r = self._random
        return (1 + int(r() * 6), 1 + int(r() * 6), 1 + int(r() * 6), 1 + int(r() * 6))

    def shuffle(self, cards: list[int], pile: int) -> None:
        """Shuffle in place."""
        self.rng.shuffle(cards)


class ScriptedSource:
    """Replays scripted throws and pile orders; raises when the script is short or wrong.

    ``dice``: faces in consumption order (ints, or 4-tuples for readability); each throw takes
    four. ``decks``: per pile number, a list of orders, one per shuffle of that pile (the
    first is GP-1.3's, later ones GP-9.2's reshuffles). An order names the top cards, top
    first (``"OIL"``, ``"SPEED"``); they must be in the pile; the other cards follow in their
    built order. A shuffle with no order left raises :class:`ScriptExhausted`.
    ``log`` keeps ``(rule, throw)`` and ``("shuffle", pile)`` as consumed.
    """

    __slots__ = ("_decks", "_faces", "_next", "log")

    def __init__(
        self,
        dice: Iterable[int | Sequence[int]] = (),
        decks: Mapping[int, Sequence[Sequence[str]]] | None = None,
    ) -> None:
        faces: list[int] = []
        for item in dice:
            if isinstance(item, int):
                faces.append(item)
            else:
                faces.extend(item)
        self._faces = faces
        self._next = 0
        self._decks = {
            pile: [list(order) for order in orders] for pile, orders in (decks or {}).items()
        }
        self.log: list[tuple[str, object]] = []

    @property
    def remaining(self) -> int:
        """Faces not consumed yet."""
        return len(self._faces) - self._next

    def throw(self, rule: str) -> Throw:
        """The next four scripted faces."""
        if self._next + 4 > len(self._faces):
            raise ScriptExhausted(
                f"scripted dice ran out after {self._next} of {len(self._faces)} faces "
                f"(a throw of 4 for {rule})"
            )
        faces = self._faces[self._next : self._next + 4]
        for face in faces:
            if type(face) is not int or not 1 <= face <= 6:
                raise ScriptMismatch(f"scripted face {face!r} is not a face of a d6 ({rule})")
        self._next += 4
        throw = (faces[0], faces[1], faces[2], faces[3])
        self.log.append((rule, throw))
        return throw

    def shuffle(self, cards: list[int], pile: int) -> None:
        """Put the next scripted order of ``pile`` on top; the rest keep their built order."""
        orders = self._decks.get(pile)
        if not orders:
            raise ScriptExhausted(f"pile {pile} shuffled without a scripted order")
        order = orders.pop(0)
        rest = list(cards)
        top: list[int] = []
        for name in order:
            code = card_code(name)
            if code not in rest:
                raise ScriptMismatch(
                    f"scripted card {name!r} is not (or no longer) in pile {pile} "
                    f"({', '.join(sorted({card_name(c) for c in cards}))})"
                )
            rest.remove(code)
            top.append(code)
        # Piles are drawn with pop(): the top card is the last one.
        cards[:] = rest[::-1] + top[::-1]
        self.log.append(("shuffle", pile))
