"""Ludicitude tracks (ludicitude.md §3): cards, closed or open circuits, laps, the validation
V-1..V-4 as pure functions over parsed cards, and the §3.1 file schema read through the
motor track-file mechanism (:mod:`engine.motor`: YAML or JSON, lines, faults, content hash).

A card is written as space-separated tokens (§3.1): ``START``, ``PLAIN``, ``MIN<k>``,
``MAX<k>`` (k in 1..6), ``BRAKE+<g>`` (g in 1..9), e.g. ``"MIN2 MAX4"`` or ``"BRAKE+2 MAX4"``.
Faults name the rule (``V-1`` .. ``V-4``, ``SCHEMA`` for the file's structure and the card
syntax), the card (``card 4``), the field (``cards[4]``) and the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

from engine.motor import DataDocument, Fault, Faults, check_game, load_document

GAME = "ludicitude"
FORMAT_VERSION = 1
N_CARDS = 24
SPEED_MIN = 1
SPEED_MAX = 6
BRAKE_MAX = 9
CIRCUITS: tuple[str, ...] = ("closed", "open")
#: [CFG laps: 2] of T-3 (closed circuits; an open one is always raced once).
DEFAULT_LAPS = 2
#: The most laps of a closed circuit (the shipped ones race 2; issue 28: a file's every number
#: is bounded, so that no file makes a race or a playtest run without end).
MAX_LAPS = 20
#: V-4: a gap between recovery cards may differ from 24/k by at most this many cards.
SPREAD_TOLERANCE = 2

_TOKEN = re.compile(r"^(START|PLAIN|MIN([1-9]\d*)|MAX([1-9]\d*)|BRAKE\+([1-9]\d*))$")


@dataclass(frozen=True, slots=True)
class TrackCard:
    """One card (T-2): optional ``min`` and ``max`` speed limits and a brake ``gain``."""

    min: int | None = None
    max: int | None = None
    gain: int = 0
    start: bool = False

    @property
    def lo(self) -> int:
        """Low end of the interval ``I = [min or 0, max or 6]`` (T-2)."""
        return self.min if self.min is not None else 0

    @property
    def hi(self) -> int:
        """High end of the interval ``I`` (T-2)."""
        return self.max if self.max is not None else SPEED_MAX

    @property
    def label(self) -> str:
        """The card in the file's token syntax (``"MIN2 MAX4"``, ``"BRAKE+3"``...)."""
        if self.start:
            return "START"
        parts = []
        if self.gain:
            parts.append(f"BRAKE+{self.gain}")
        if self.min is not None:
            parts.append(f"MIN{self.min}")
        if self.max is not None:
            parts.append(f"MAX{self.max}")
        return " ".join(parts) or "PLAIN"

    def excess(self, speed: int) -> int:
        """LU-5: brake points lost when this card is crossed at ``speed`` (both limits, B5)."""
        over = speed - self.max if self.max is not None and speed > self.max else 0
        under = self.min - speed if self.min is not None and speed < self.min else 0
        return over + under


START = TrackCard(start=True)


@dataclass(frozen=True, slots=True)
class Track:
    """A track file (§3.1): 24 cards in driving order, a circuit type and its laps (T-1, T-3)."""

    id: str
    name: str
    circuit: str
    laps: int
    cards: tuple[TrackCard, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Races look their tables up by track: hash the 24 cards once, not at every look-up.
        object.__setattr__(
            self, "_hash", hash((self.id, self.name, self.circuit, self.laps, self.cards))
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def closed(self) -> bool:
        return self.circuit == "closed"

    def finish(self, laps: int | None = None) -> int:
        """T-3: the finish position ``F = 24·L`` (L = 1 on an open circuit)."""
        if not self.closed:
            return N_CARDS
        return N_CARDS * (self.laps if laps is None else laps)

    def card_at(self, position: int) -> TrackCard:
        """T-4: the card a car at ``position`` stands on."""
        return self.cards[position % N_CARDS]


# -- cards ----------------------------------------------------------------------------------


def card_fault(rule: str, index: int, message: str) -> Fault:
    """A fault of card ``index`` (place ``card 4``, field ``cards[4]``; the loader adds the
    line)."""
    return Fault(rule, f"card {index}", f"cards[{index}]", message)


def parse_card(text: object, index: int) -> TrackCard | Fault:
    """A card from its tokens (§3.1), or the ``SCHEMA`` fault of its syntax. A ``min`` above
    its ``max`` parses: :func:`check_cards` reports it (V-3)."""

    def fault(message: str) -> Fault:
        return card_fault("SCHEMA", index, message)

    if not isinstance(text, str) or not text.split():
        return fault(f"{text!r} is not a card (START, PLAIN, MIN<k>, MAX<k>, BRAKE+<g>)")
    tokens = text.upper().split()
    low: int | None = None
    high: int | None = None
    gain = 0
    for token in tokens:
        match = _TOKEN.match(token)
        if match is None:
            return fault(f"unknown token {token!r} (START, PLAIN, MIN<k>, MAX<k>, BRAKE+<g>)")
        if token in ("START", "PLAIN"):
            if len(tokens) > 1:
                return fault(f"{token} stands alone on a card, got {text!r}")
            return START if token == "START" else TrackCard()
        kind = token[:3]
        digits = match.group(2) or match.group(3) or match.group(4)
        # More than two digits is above every bound; int() of 4,300 digits would raise.
        value = int(digits) if len(digits) <= 2 else 100
        if kind == "BRA":
            if gain:
                return fault(f"two BRAKE+ tokens in {text!r}")
            if value > BRAKE_MAX:
                return fault(f"{token}: a recovery gives 1..{BRAKE_MAX} brake points")
            gain = value
            continue
        if value > SPEED_MAX:
            return fault(f"{token}: a speed limit is 1..{SPEED_MAX}")
        if kind == "MIN":
            if low is not None:
                return fault(f"two MIN tokens in {text!r}")
            low = value
        else:
            if high is not None:
                return fault(f"two MAX tokens in {text!r}")
            high = value
    return TrackCard(low, high, gain)


# -- validation -----------------------------------------------------------------------------


def check_cards(cards: Sequence[TrackCard], circuit: str) -> list[Fault]:
    """V-1 (24 cards, START first and only there), V-3 (min <= max), V-2 (adjacent intervals
    overlap, the pair 23-0 too on a closed circuit); errors, in that order."""
    faults: list[Fault] = []
    if len(cards) != N_CARDS:
        faults.append(
            Fault("V-1", "", "cards", f"a track has exactly {N_CARDS} cards, got {len(cards)}")
        )
    if cards and not cards[0].start:
        faults.append(card_fault("V-1", 0, f"card 0 must be START, got {cards[0].label}"))
    for i, card in enumerate(cards):
        if i and card.start:
            faults.append(card_fault("V-1", i, "only card 0 may be START"))
        if card.lo > card.hi:
            faults.append(
                card_fault("V-3", i, f"{card.label}: min {card.lo} is above max {card.hi}")
            )
    pairs = [(i, i + 1) for i in range(len(cards) - 1)]
    if circuit == "closed" and len(cards) == N_CARDS:
        pairs.append((N_CARDS - 1, 0))
    for a, b in pairs:
        ca, cb = cards[a], cards[b]
        if ca.lo > ca.hi or cb.lo > cb.hi:
            continue  # an empty interval is V-3's fault already
        if max(ca.lo, cb.lo) > min(ca.hi, cb.hi):
            faults.append(
                card_fault(
                    "V-2",
                    b,
                    f"card {b} ({cb.label}, speeds {cb.lo}-{cb.hi}) is not compatible with "
                    f"card {a} ({ca.label}, speeds {ca.lo}-{ca.hi}): their speeds do not overlap",
                )
            )
    return faults


def recovery_gaps(cards: Sequence[TrackCard], circuit: str) -> list[tuple[int, int, int]]:
    """V-4: ``(from_card, to_card, gap)`` between successive recovery cards, cyclic when
    closed."""
    where = [i for i, c in enumerate(cards) if c.gain > 0]
    gaps = [(a, b, b - a) for a, b in pairwise(where)]
    if circuit == "closed" and where:
        gaps.append((where[-1], where[0], where[0] + len(cards) - where[-1]))
    return gaps


def check_spread(cards: Sequence[TrackCard], circuit: str) -> list[Fault]:
    """V-4, warnings: with k recovery cards, every gap between two of them (cyclic when
    closed) is within 2 cards of 24/k."""
    k = sum(1 for c in cards if c.gain > 0)
    if not k or len(cards) != N_CARDS:
        return []
    even = Fraction(N_CARDS, k)
    faults = []
    for a, b, gap in recovery_gaps(cards, circuit):
        if abs(gap - even) > SPREAD_TOLERANCE:
            faults.append(
                card_fault(
                    "V-4",
                    b,
                    f"{gap} cards from recovery card {a} to recovery card {b}; with {k} recovery "
                    f"cards an even spread is {float(even):g} ± {SPREAD_TOLERANCE} (a warning)",
                )
            )
    return faults


# -- the file ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LoadedTrack:
    """A valid track file: the track, its V-4 warnings (with lines) and its content hash."""

    track: Track
    warnings: tuple[Fault, ...]
    content_hash: str


def _with_line(doc: DataDocument, fault: Fault) -> Fault:
    if fault.place.startswith("card "):
        return replace(fault, line=doc.line("cards", int(fault.place.split()[1])))
    return replace(fault, line=doc.line(fault.field) if fault.field else None)


def track_from_document(doc: DataDocument) -> LoadedTrack:
    """The §3.1 schema of a parsed document: :class:`TrackError` with every error (schema,
    V-1 .. V-3) at once, each with its line; V-4 findings come back as warnings."""
    faults = Faults(doc)
    if not check_game(faults, GAME):
        faults.check()
    faults.integer(("format_version",), minimum=FORMAT_VERSION, maximum=FORMAT_VERSION)
    track_id = faults.text(("id",), max_length=80)
    if track_id is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]*", track_id):
        faults.at("SCHEMA", "", ("id",), f"{track_id!r} is not a slug (a-z, 0-9, -)")
    name = faults.text(("name",), max_length=120)
    circuit = faults.text(("circuit",), choices=CIRCUITS)
    laps = faults.integer(
        ("laps",),
        default=DEFAULT_LAPS if circuit == "closed" else 1,
        minimum=1,
        maximum=MAX_LAPS,
    )
    if circuit == "open" and laps not in (None, 1):
        faults.at("T-3", "", ("laps",), f"an open circuit is raced once, got {laps} laps")
    raw_cards = faults.sequence(("cards",))
    cards: list[TrackCard] = []
    warnings: list[Fault] = []
    if raw_cards is not None and len(raw_cards) > N_CARDS:
        # V-1 at once: no card of a longer list is read (each would add its own fault).
        faults.faults.append(
            _with_line(
                doc,
                Fault(
                    "V-1",
                    "",
                    "cards",
                    f"a track has exactly {N_CARDS} cards, got {len(raw_cards)}",
                ),
            )
        )
    elif raw_cards is not None:
        syntax = [parse_card(text, i) for i, text in enumerate(raw_cards)]
        for item in syntax:
            if isinstance(item, Fault):
                faults.faults.append(_with_line(doc, item))
            else:
                cards.append(item)
        if len(cards) == len(syntax) and circuit is not None:
            faults.faults.extend(_with_line(doc, f) for f in check_cards(cards, circuit))
            warnings = [_with_line(doc, f) for f in check_spread(cards, circuit)]
    faults.check()
    if track_id is None or name is None or circuit is None or laps is None:
        raise AssertionError("a missing field is a fault: check() has raised")
    track = Track(track_id, name, circuit, laps, tuple(cards))
    return LoadedTrack(track, tuple(warnings), doc.content_hash)


def track_from_data(data: Any, name: str = "track") -> LoadedTrack:
    """:func:`track_from_document` for data already parsed (no lines)."""
    return track_from_document(DataDocument(name, data, {}))


def load_track(path: str | Path) -> LoadedTrack:
    """Read, parse and validate a track file (YAML, or JSON by its ``.json`` suffix)."""
    return track_from_document(load_document(path))


def track_to_data(track: Track) -> dict[str, Any]:
    """The track as the §3.1 document (for golden files and stored inputs)."""
    data: dict[str, Any] = {
        "game": GAME,
        "format_version": FORMAT_VERSION,
        "id": track.id,
        "name": track.name,
        "circuit": track.circuit,
    }
    if track.closed:
        data["laps"] = track.laps
    data["cards"] = [c.label for c in track.cards]
    return data
