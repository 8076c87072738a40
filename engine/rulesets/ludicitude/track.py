"""Ludicitude tracks (ludicitude.md §3): cards, closed or open circuits, laps, and the
validation V-1..V-4 as pure functions over already-parsed data.

A card is written as space-separated tokens (§3.1): ``START``, ``PLAIN``, ``MIN<k>``,
``MAX<k>`` (k in 1..6), ``BRAKE+<g>`` (g in 1..9), e.g. ``"MIN2 MAX4"`` or ``"BRAKE+2 MAX4"``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Any

GAME = "ludicitude"
FORMAT_VERSION = 1
N_CARDS = 24
SPEED_MIN = 1
SPEED_MAX = 6
BRAKE_MAX = 9
CIRCUITS: tuple[str, ...] = ("closed", "open")
#: [CFG laps: 2] of T-3 (closed circuits; an open one is always raced once).
DEFAULT_LAPS = 2
#: V-4: a gap between recovery cards may differ from 24/k by at most this many cards.
SPREAD_TOLERANCE = 2

ERROR = "error"
WARNING = "warning"

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


@dataclass(frozen=True, slots=True)
class TrackFault:
    """One problem of a track file: the rule broken, where (a card index when there is one),
    the field (``cards[4]``, ``laps``...), the message, and whether it is an error or a warning.
    ``line`` is filled by the loader when it knows the file's lines."""

    rule: str
    field: str
    message: str
    card: int | None = None
    severity: str = ERROR
    line: int | None = None

    def __str__(self) -> str:
        where = f"card {self.card}" if self.card is not None else self.field
        return f"{self.rule} ({where}, field {self.field}): {self.message}"


class TrackError(ValueError):
    """A track that cannot be raced: its errors (warnings are not raised)."""

    def __init__(self, faults: Sequence[TrackFault]) -> None:
        self.faults = tuple(faults)
        super().__init__("; ".join(str(f) for f in self.faults))


# -- cards ----------------------------------------------------------------------------------


def parse_card(text: object, index: int) -> TrackCard | TrackFault:
    """A card from its tokens (§3.1), or the fault that stops it (rule ``§3.1`` for syntax,
    V-3 for a ``min`` above its ``max``)."""
    field = f"cards[{index}]"

    def fault(message: str, rule: str = "§3.1") -> TrackFault:
        return TrackFault(rule, field, message, card=index)

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
        value = int(match.group(2) or match.group(3) or match.group(4))
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
    if low is not None and high is not None and low > high:
        return fault(f"MIN{low} is above MAX{high}: min must be <= max", rule="V-3")
    return TrackCard(low, high, gain)


# -- validation -----------------------------------------------------------------------------


def check_cards(cards: Sequence[TrackCard], circuit: str) -> list[TrackFault]:
    """V-1 (24 cards, START first and only there), V-2 (adjacent intervals overlap, 23-0 too
    on a closed circuit), V-3 (min <= max); errors, in card order."""
    faults: list[TrackFault] = []
    if len(cards) != N_CARDS:
        faults.append(
            TrackFault("V-1", "cards", f"a track has exactly {N_CARDS} cards, got {len(cards)}")
        )
    if cards and not cards[0].start:
        faults.append(
            TrackFault("V-1", "cards[0]", f"card 0 must be START, got {cards[0].label}", card=0)
        )
    for i, card in enumerate(cards):
        if i and card.start:
            faults.append(TrackFault("V-1", f"cards[{i}]", "only card 0 may be START", card=i))
        if card.lo > card.hi:
            faults.append(
                TrackFault("V-3", f"cards[{i}]", f"min {card.lo} is above max {card.hi}", card=i)
            )
    pairs = [(i, i + 1) for i in range(len(cards) - 1)]
    if circuit == "closed" and len(cards) == N_CARDS:
        pairs.append((N_CARDS - 1, 0))
    for a, b in pairs:
        ca, cb = cards[a], cards[b]
        if max(ca.lo, cb.lo) > min(ca.hi, cb.hi):
            faults.append(
                TrackFault(
                    "V-2",
                    f"cards[{b}]",
                    f"card {b} ({cb.label}, speeds {cb.lo}-{cb.hi}) is not compatible with "
                    f"card {a} ({ca.label}, speeds {ca.lo}-{ca.hi}): their speeds do not overlap",
                    card=b,
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


def check_spread(cards: Sequence[TrackCard], circuit: str) -> list[TrackFault]:
    """V-4 (a warning): every gap between recovery cards is within 2 cards of 24/k."""
    k = sum(1 for c in cards if c.gain > 0)
    if not k or len(cards) != N_CARDS:
        return []
    even = Fraction(N_CARDS, k)
    faults = []
    for a, b, gap in recovery_gaps(cards, circuit):
        if abs(gap - even) > SPREAD_TOLERANCE:
            faults.append(
                TrackFault(
                    "V-4",
                    f"cards[{b}]",
                    f"{gap} cards from recovery card {a} to recovery card {b}; with {k} recovery "
                    f"cards an even spread is {float(even):g} ± {SPREAD_TOLERANCE}",
                    card=b,
                    severity=WARNING,
                )
            )
    return faults


# -- the file's structure -------------------------------------------------------------------


def track_from_data(data: object) -> tuple[Track | None, list[TrackFault]]:
    """The §3.1 document (parsed YAML or JSON) as a :class:`Track` and every fault found
    (errors and V-4 warnings). The track is None when there is any error."""
    if not isinstance(data, Mapping):
        return None, [TrackFault("§3.1", "", "a track file is a mapping (game, id, cards...)")]
    faults: list[TrackFault] = []

    def need(key: str, expected: str) -> Any:
        if key not in data:
            faults.append(TrackFault("§3.1", key, f"missing ({expected})"))
        return data.get(key)

    game = need("game", GAME)
    if game is not None and game != GAME:
        faults.append(TrackFault("§3.1", "game", f"{game!r} is not {GAME!r}"))
    version = need("format_version", str(FORMAT_VERSION))
    if version is not None and (type(version) is not int or version != FORMAT_VERSION):
        faults.append(TrackFault("§3.1", "format_version", f"{version!r} is not {FORMAT_VERSION}"))
    track_id = need("id", "a slug")
    if track_id is not None and (
        not isinstance(track_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", track_id)
    ):
        faults.append(TrackFault("§3.1", "id", f"{track_id!r} is not a slug (a-z, 0-9, -)"))
    name = need("name", "a text")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        faults.append(TrackFault("§3.1", "name", f"{name!r} is not a text"))
    circuit = need("circuit", "closed or open")
    if circuit is not None and circuit not in CIRCUITS:
        faults.append(TrackFault("T-3", "circuit", f"{circuit!r} is not closed or open"))
    laps = data.get("laps", DEFAULT_LAPS if circuit == "closed" else 1)
    if type(laps) is not int or laps < 1:
        faults.append(TrackFault("T-3", "laps", f"{laps!r} is not a number of laps >= 1"))
    elif circuit == "open" and laps != 1:
        faults.append(TrackFault("T-3", "laps", f"an open circuit is raced once, got {laps}"))
    raw_cards = need("cards", f"a list of {N_CARDS} cards")
    cards: list[TrackCard] = []
    if raw_cards is not None and not isinstance(raw_cards, list):
        faults.append(TrackFault("§3.1", "cards", f"expected a list of {N_CARDS} cards"))
    elif raw_cards is not None:
        card_faults = False
        for i, text in enumerate(raw_cards):
            card = parse_card(text, i)
            if isinstance(card, TrackFault):
                faults.append(card)
                card_faults = True
            else:
                cards.append(card)
        if not card_faults and circuit in CIRCUITS:
            faults.extend(check_cards(cards, str(circuit)))
            faults.extend(check_spread(cards, str(circuit)))
    if any(f.severity == ERROR for f in faults):
        return None, faults
    track = Track(str(track_id), str(name), str(circuit), int(laps), tuple(cards))
    return track, faults


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


def build_track(data: object) -> Track:
    """:func:`track_from_data`, raising :class:`TrackError` on any error."""
    track, faults = track_from_data(data)
    if track is None:
        raise TrackError([f for f in faults if f.severity == ERROR])
    return track
