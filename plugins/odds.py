"""Odds of a round: the same inputs simulated K times, each run with its own seed, counted.

Pure and game-free: a run is a list of :class:`RunLine` (one per entrant: finish place, out of
the race or not, gap, value in the standing after the round), whatever ruleset produced it.
Counts are plain sums, so the counts of any split of the runs merge into the counts of the whole
(:meth:`OddsCounts.merge`): the workers each count a chunk of runs, the chord's callback merges
them, and the result equals one process counting every run with the same seeds.

Each run's seed comes from the round's seed base and the run's number through SHA-256
(:func:`seed_for`): no run shares a stream with another, and the n-th run of a round is the
same run on every machine, in whichever chunk it falls.

Each shown chance gets its 95 % interval (:func:`wilson`, the Wilson score interval), and the
counts are **settled** when every shown chance's interval has a half-width of at most a bound
(:func:`settled`, one percentage point by default): the request then stops at the shortest
settled prefix of its chunks, in index order (:func:`settled_prefix`), so that the same runs give
the same table whichever chunk finished first.

It lives with the registry, not in the engine: no engine uses it, every adapter produces its runs
and the season counts them, so the season reaches it without an exception to the engine boundary.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Places that count as a podium and a top ten.
PODIUM = 3
TOP = 10
#: Gaps are summed to the millisecond, each sum rounded: the sums of tenths of seconds (a Grand
#: Prix's gaps) are then the same in whichever order the chunks merge, as whole seconds are.
GAP_DIGITS = 3
#: The seeds are 62-bit numbers, like the seed drawn for a round's resolution.
SEED_BITS = 62
#: z of a two-sided 95 % interval (the 97.5th percentile of the standard normal law).
Z95 = 1.959963984540054
#: The counted chances the table shows (EntrantCounts fields), each with its interval: win,
#: podium, top ten (a motor round's points finish), leads after the round, out.
SHOWN = ("wins", "podiums", "top10", "leads", "outs")
#: The same chances by OddsRow's names.
SHOWN_ROWS = ("win", "podium", "top10", "lead", "out")


def wilson(successes: int, runs: int, *, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a chance seen ``successes`` times in ``runs`` runs, as
    (low, high) in 0..1: centre (p + z²/2n) / (1 + z²/n), half-width
    z·sqrt(p(1 - p)/n + z²/4n²) / (1 + z²/n), p = successes / n. (0, 1) for no run."""
    if runs < 0 or not 0 <= successes <= max(runs, 0):
        raise ValueError(f"{successes} successes in {runs} runs")
    if runs == 0:
        return (0.0, 1.0)
    p = successes / runs
    z2 = z * z
    scale = 1 + z2 / runs
    centre = (p + z2 / (2 * runs)) / scale
    half = z * math.sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


def half_width(successes: int, runs: int) -> float:
    """Half the width of the Wilson 95 % interval, in 0..1 (0.01: one percentage point)."""
    low, high = wilson(successes, runs)
    return (high - low) / 2


def chunk_sizes(runs: int, size: int) -> list[int]:
    return [stop - start for start, stop in chunks(runs, size)]


def seed_for(base: int, run: int) -> int:
    """The seed of run number ``run`` (0, 1, ...) of a round whose odds seed base is ``base``:
    the first 62 bits of SHA-256("base:run")."""
    if run < 0:
        raise ValueError(f"run number must be 0 or more, got {run}")
    digest = hashlib.sha256(f"{base}:{run}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def chunks(runs: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` run ranges of at most ``size`` runs covering ``0 .. runs``."""
    if runs < 1 or size < 1:
        raise ValueError(f"runs and chunk size must be 1 or more, got {runs} and {size}")
    return [(start, min(start + size, runs)) for start in range(0, runs, size)]


@dataclass(frozen=True)
class RunLine:
    """One entrant in one run.

    ``place`` is the finish place (1 = the winner), None for an entrant out of the race
    (``out``: abandoned, crashed out, outside the time limit, retired). ``gap`` is the seconds
    behind the winner of a finisher. ``standing`` is the entrant's value in the standing after
    the round where lower leads (a time; minus the points for a points table), None for one
    who is no longer in it. ``top`` says whether the place counts in the third column (a
    points finish in a motor round); None: the first :data:`TOP` places.
    """

    entrant: int | str
    place: int | None
    out: bool = False
    gap: float = 0.0
    standing: float | None = None
    top: bool | None = None


@dataclass
class EntrantCounts:
    wins: int = 0
    podiums: int = 0
    top10: int = 0
    leads: int = 0
    outs: int = 0
    #: Finished runs and the sums of their gaps and places (the expected gap and place are
    #: over the finished runs).
    finishes: int = 0
    gap_sum: float = 0.0
    place_sum: int = 0

    def add(self, other: EntrantCounts) -> None:
        self.wins += other.wins
        self.podiums += other.podiums
        self.top10 += other.top10
        self.leads += other.leads
        self.outs += other.outs
        self.finishes += other.finishes
        self.gap_sum = round(self.gap_sum + other.gap_sum, GAP_DIGITS)
        self.place_sum += other.place_sum

    def to_data(self) -> list[float]:
        return [
            self.wins,
            self.podiums,
            self.top10,
            self.leads,
            self.outs,
            self.finishes,
            self.gap_sum,
            self.place_sum,
        ]

    @classmethod
    def from_data(cls, data: Sequence[float]) -> EntrantCounts:
        wins, podiums, top10, leads, outs, finishes, gap_sum, place_sum = data
        return cls(
            wins=int(wins),
            podiums=int(podiums),
            top10=int(top10),
            leads=int(leads),
            outs=int(outs),
            finishes=int(finishes),
            gap_sum=float(gap_sum),
            place_sum=int(place_sum),
        )


def _key(entrant: int | str) -> str:
    """Entrant ids as JSON object keys (ints and strings alike)."""
    return str(entrant)


@dataclass
class OddsCounts:
    """Counts over ``runs`` runs, per entrant (keyed by ``str(entrant)``)."""

    runs: int = 0
    entrants: dict[str, EntrantCounts] = field(default_factory=dict)

    def count(self, lines: Iterable[RunLine]) -> None:
        """Count one run. The leader after the round is the entrant with the lowest standing
        value (ties: the better place in the round, then the order given)."""
        self.runs += 1
        leader: tuple[float, int, int] | None = None
        leader_key = None
        for order, line in enumerate(lines):
            key = _key(line.entrant)
            counts = self.entrants.get(key)
            if counts is None:
                counts = self.entrants[key] = EntrantCounts()
            if line.out or line.place is None:
                counts.outs += 1
            else:
                counts.finishes += 1
                counts.gap_sum = round(counts.gap_sum + round(line.gap, GAP_DIGITS), GAP_DIGITS)
                counts.place_sum += line.place
                counts.wins += line.place == 1
                counts.podiums += line.place <= PODIUM
                counts.top10 += line.place <= TOP if line.top is None else line.top
            if line.standing is not None:
                rank = (line.standing, line.place if line.place is not None else 10**9, order)
                if leader is None or rank < leader:
                    leader, leader_key = rank, key
        if leader_key is not None:
            self.entrants[leader_key].leads += 1

    def merge(self, other: OddsCounts) -> OddsCounts:
        """These counts and ``other``'s added (a new object; neither changes)."""
        merged = OddsCounts(self.runs + other.runs)
        for source in (self, other):
            for key, counts in source.entrants.items():
                merged.entrants.setdefault(key, EntrantCounts()).add(counts)
        return merged

    def to_data(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "entrants": {key: c.to_data() for key, c in sorted(self.entrants.items())},
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> OddsCounts:
        return cls(
            int(data["runs"]),
            {key: EntrantCounts.from_data(v) for key, v in data["entrants"].items()},
        )


def merge_all(parts: Iterable[OddsCounts]) -> OddsCounts:
    total = OddsCounts()
    for part in parts:
        total = total.merge(part)
    return total


def count_runs(
    run: Callable[[int], Iterable[RunLine]],
    *,
    base: int,
    start: int,
    stop: int,
    keep_going: Callable[[], bool] | None = None,
    check_every: int = 10,
) -> OddsCounts:
    """Counts of runs ``start .. stop - 1``: ``run(seed)`` simulates one run and returns its
    lines. With ``keep_going``, asked before every ``check_every`` runs: False stops the count
    there (the counts then hold fewer than ``stop - start`` runs)."""
    counts = OddsCounts()
    for number in range(start, stop):
        if keep_going is not None and (number - start) % check_every == 0 and not keep_going():
            break
        counts.count(run(seed_for(base, number)))
    return counts


def widest_half_width(counts: OddsCounts) -> float:
    """The largest half-width of the 95 % intervals of every shown chance of every entrant
    (1.0 with no run)."""
    if counts.runs < 1:
        return 1.0
    runs = counts.runs
    known: dict[int, float] = {}
    widest = 0.0
    for entrant in counts.entrants.values():
        for name in SHOWN:
            successes = getattr(entrant, name)
            width = known.get(successes)
            if width is None:
                width = known[successes] = half_width(successes, runs)
            widest = max(widest, width)
    return widest


def settled(counts: OddsCounts, bound: float) -> bool:
    """Whether every shown chance's 95 % interval has a half-width of at most ``bound`` (in
    0..1: 0.01 is one percentage point); never with no run, nor with a bound of 0 or less."""
    return bound > 0 and counts.runs > 0 and widest_half_width(counts) <= bound


def settled_prefix(
    parts: Sequence[OddsCounts | None], bound: float
) -> tuple[OddsCounts, int, bool]:
    """The counts of the shortest prefix of ``parts`` (chunks in index order) that is settled,
    or of every part: (counts, parts counted, settled). A part that is None (a chunk skipped)
    must come after a settled prefix: ValueError otherwise."""
    total = OddsCounts()
    for index, part in enumerate(parts):
        if part is None:
            raise ValueError(f"chunk {index} has no counts and no earlier prefix settled")
        total = total.merge(part)
        if settled(total, bound):
            return total, index + 1, True
    return total, len(parts), False


@dataclass(frozen=True)
class OddsRow:
    """One entrant's odds: chances in 0..1, the expected gap in seconds and the expected place
    over his finishes."""

    entrant: str
    win: float
    podium: float
    top10: float
    lead: float
    out: float
    expected_gap: float | None
    expected_place: float | None = None
    #: The 95 % interval (low, high, in 0..1) of each chance, by the names above (SHOWN_ROWS).
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)


def odds_rows(counts: OddsCounts) -> list[OddsRow]:
    """Every entrant's odds, the likeliest winner first (then podium, top ten, the smaller
    expected gap)."""
    runs = counts.runs or 1
    rows = [
        OddsRow(
            entrant=key,
            win=c.wins / runs,
            podium=c.podiums / runs,
            top10=c.top10 / runs,
            lead=c.leads / runs,
            out=c.outs / runs,
            expected_gap=c.gap_sum / c.finishes if c.finishes else None,
            expected_place=c.place_sum / c.finishes if c.finishes else None,
            intervals={
                row: wilson(getattr(c, name), counts.runs)
                for row, name in zip(SHOWN_ROWS, SHOWN, strict=True)
            },
        )
        for key, c in counts.entrants.items()
    ]

    def order(row: OddsRow) -> tuple[float, ...]:
        gap = row.expected_gap if row.expected_gap is not None else float("inf")
        return (-row.win, -row.podium, -row.top10, -row.lead, gap)

    return sorted(rows, key=order)
