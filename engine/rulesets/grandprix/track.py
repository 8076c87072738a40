"""Grand Prix track files (grandprix.md §3.5): schema, validation V1-V6, frozen track data.

Squares are addressed as in §3.1: ``A12`` (lane A, index 12), ``B7``; start lanes ``C0..C6``,
``D0..D6`` (T-10); pit boxes ``P4..P23`` (T-11). The geometry built from a track (successors,
positions, limits) is in :mod:`engine.rulesets.grandprix.board`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.motor import DataDocument, Faults, check_game
from engine.motor.faults import too_big, too_many

GAME = "grandprix"
MIN_LENGTH = 40
MAX_GRID_SLOTS = 12
# Bounds of every other number and list of a track file (issue 28): generous beside the shipped
# tracks (at most 154 squares, 9 corners, 4 racing lines of 4 squares, a 117 s lap of 6,790 m,
# 2 open rounds), so that no file makes the loader, the board or a playtest grow without end.
MAX_LENGTH = 1500
MAX_LAPS = 20
MAX_START_LANE = 20
MAX_OPEN_ROUNDS = 20
MAX_CORNERS = 90
MAX_RACING_LINES = 90
MAX_LINE_SQUARES = 40
MAX_LAP_SECONDS = 1200
MAX_LAP_METRES = 100_000
PIT_BOXES = (4, 23)
SQUARE_RE = re.compile(r"^([A-D])(\d+)$")


@dataclass(frozen=True, slots=True)
class Corner:
    """T-7: a corner with its marked index, skid zone and run-off rejoin index."""

    id: str
    name: str
    max_gear: int
    marked: int
    zone: tuple[int, int]
    rejoin: int


@dataclass(frozen=True, slots=True)
class RacingLine:
    """T-8: an ordered chain of squares through one marked square of ``corner``."""

    id: str
    corner: str
    bonus: int
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Track:
    """A validated Grand Prix track (§3.5); ``content_hash`` identifies its version."""

    id: str
    name: str
    approximation: bool
    length: int
    laps: int
    green_a: frozenset[int]
    green_b: frozenset[int]
    grid_slots: int
    start_lane_length: int
    start_from_slots: tuple[int, int]
    start_open_rounds: int
    corners: tuple[Corner, ...]
    racing_lines: tuple[RacingLine, ...]
    pit_gate: int
    pit_exit: str
    content_hash: str
    #: Optional, [D]: seconds of a reference lap, to turn distance into gaps (default 90).
    reference_lap_seconds: float = 90.0
    #: Optional: the real lap length in metres (documentation of the approximation).
    lap_length_m: int | None = None


def grid_index(slot: int, n: int) -> tuple[str, int]:
    """T-9: the square of grid slot ``slot`` (pos = 2n - slot)."""
    if slot % 2:
        return "B", n - (slot + 1) // 2
    return "A", n - slot // 2


def parse_square(text: Any) -> tuple[str, int] | None:
    """``"B12"`` -> ``("B", 12)``; None if it is not a square id."""
    if not isinstance(text, str):
        return None
    match = SQUARE_RE.match(text.strip())
    return (match.group(1), int(match.group(2))) if match else None


def _square_exists(square: tuple[str, int], n: int, start_length: int) -> bool:
    lane, index = square
    if lane in "AB":
        return 0 <= index < n
    return 0 <= index < start_length


def load_track(doc: DataDocument) -> Track:
    """Build a :class:`Track` from a parsed file; :class:`~engine.motor.TrackError` with every
    fault (schema, then V1-V6, each naming the rule, the corner or square and the field)."""
    f = Faults(doc)
    if not check_game(f, GAME):
        f.check()
    f.integer(("format_version",), maximum=1, minimum=1)
    track_id = f.text(("id",), max_length=80)
    name = f.text(("name",), max_length=120)
    approximation = f.boolean(("approximation",), default=False)
    n = f.integer(("length",), maximum=MAX_LENGTH)
    if n is not None and n < MIN_LENGTH:
        f.at("V1", "", ("length",), f"length {n} is below {MIN_LENGTH} squares")
        n = None
    laps = f.integer(("laps",), default=3, minimum=1, maximum=MAX_LAPS)
    ref_lap = f.number(("reference_lap_seconds",), minimum=1, maximum=MAX_LAP_SECONDS)
    lap_m = f.integer(("lap_length_m",), required=False, minimum=1, maximum=MAX_LAP_METRES)
    slots = f.integer(("grid", "slots"), default=12, minimum=1)
    if slots is not None and slots > MAX_GRID_SLOTS:
        f.at("V6", "", ("grid", "slots"), too_big(slots, MAX_GRID_SLOTS))
        slots = None  # nothing is built from it (100,000,000 slots took 2.3 GB)
    start_len = (
        f.integer(("start_lanes", "length"), default=7, minimum=0, maximum=MAX_START_LANE) or 0
    )
    from_slots_raw = f.value(("start_lanes", "from_slots"), required=False)
    from_slots = (12, 11)
    if from_slots_raw is not None:
        if (
            not isinstance(from_slots_raw, list)
            or len(from_slots_raw) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in from_slots_raw)
        ):
            f.at("SCHEMA", "", ("start_lanes", "from_slots"), "expected two grid slots")
        else:
            from_slots = (from_slots_raw[0], from_slots_raw[1])
            if from_slots[0] % 2 or not from_slots[1] % 2:
                f.at(
                    "SCHEMA",
                    "",
                    ("start_lanes", "from_slots"),
                    "lane C starts from an even slot (lane A), lane D from an odd one (lane B)",
                )
    if slots is not None and any(s < 1 or s > max(slots, 1) for s in from_slots):
        f.at("SCHEMA", "", ("start_lanes", "from_slots"), f"slots {from_slots} not on the grid")
    open_rounds = f.integer(
        ("start_lanes", "open_rounds"), default=2, minimum=0, maximum=MAX_OPEN_ROUNDS
    )
    green_a, green_b = _green(f, n)
    corners = _corners(f, n, slots)
    lines = _racing_lines(f, n, start_len, corners)
    gate, exit_square = _pit(f, n, start_len, corners)
    f.check()
    assert track_id
    assert name
    assert n
    assert laps
    assert slots
    assert open_rounds is not None
    assert approximation is not None
    assert gate is not None
    assert exit_square is not None
    return Track(
        id=track_id,
        name=name,
        approximation=approximation,
        length=n,
        laps=laps,
        green_a=green_a,
        green_b=green_b,
        grid_slots=slots,
        start_lane_length=start_len,
        start_from_slots=from_slots,
        start_open_rounds=open_rounds,
        corners=corners,
        racing_lines=lines,
        pit_gate=gate,
        pit_exit=exit_square,
        content_hash=doc.content_hash,
        reference_lap_seconds=float(ref_lap) if ref_lap is not None else 90.0,
        lap_length_m=lap_m,
    )


def _green(f: Faults, n: int | None) -> tuple[frozenset[int], frozenset[int]]:
    """T-6: ``{rule: even}`` (default) or ``{rule: list, A: [...], B: [...]}``."""
    rule = f.text(("green", "rule"), default="even", choices=("even", "list"))
    if n is None:
        return frozenset(), frozenset()
    if rule != "list":
        evens = frozenset(range(0, n, 2))
        return evens, evens
    lanes = []
    for lane in ("A", "B"):
        raw = f.value(("green", lane), required=False) or []
        good = set()
        if not isinstance(raw, list):
            f.at("SCHEMA", "", ("green", lane), "expected a list of indices")
            raw = []
        elif len(raw) > n:
            f.at("SCHEMA", "", ("green", lane), too_many(len(raw), n))
            raw = []
        for i, index in enumerate(raw):
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                f.at("V1", f"square {lane}{index}", ("green", lane, i), "no such square")
            else:
                good.add(index)
        lanes.append(frozenset(good))
    return lanes[0], lanes[1]


def _corners(f: Faults, n: int | None, slots: int | None) -> tuple[Corner, ...]:
    """T-7 and V2."""
    raw = f.sequence(("corners",), max_items=MAX_CORNERS)
    if raw is None:
        return ()
    corners: list[Corner] = []
    seen: set[str] = set()
    grid = {grid_index(s, n)[1] for s in range(1, (slots or 12) + 1)} if n else set()
    for i, item in enumerate(raw):
        path: tuple[str | int, ...] = ("corners", i)
        if not isinstance(item, dict):
            f.at("SCHEMA", "", path, "expected a mapping")
            continue
        cid = f.text((*path, "id"))
        place = f"corner {cid}" if cid else f"corner #{i + 1}"
        if cid in seen:
            f.at("SCHEMA", place, (*path, "id"), f"corner id {cid!r} used twice")
        seen.add(cid or "")
        cname = f.text((*path, "name"), default=cid or "", place=place)
        max_gear = f.integer((*path, "max_gear"), place=place, minimum=2, maximum=3)
        marked = f.integer((*path, "marked"), place=place)
        rejoin = f.integer((*path, "rejoin"), place=place)
        zone_raw = f.value((*path, "zone"))
        zone = None
        if zone_raw is not None:
            if (
                isinstance(zone_raw, list)
                and len(zone_raw) == 2
                and all(isinstance(z, int) and not isinstance(z, bool) for z in zone_raw)
            ):
                zone = (zone_raw[0], zone_raw[1])
            else:
                f.at("SCHEMA", place, (*path, "zone"), f"{zone_raw!r} is not [z1, z2]")
        if None in (cid, max_gear, marked, rejoin, zone) or n is None:
            continue
        assert cid
        assert cname is not None
        assert max_gear
        assert marked is not None
        assert zone
        assert rejoin is not None
        z1, z2 = zone
        if not 0 <= z1 <= marked <= z2 < rejoin < n:
            f.at(
                "V2",
                place,
                (*path, "zone"),
                f"needs 0 <= z1 <= marked <= z2 < rejoin < length: z1 {z1}, marked {marked},"
                f" z2 {z2}, rejoin {rejoin}, length {n}",
            )
            continue
        if z1 == 0:
            f.at("V2", place, (*path, "zone"), "a zone may not contain index 0 (the line)")
        on_grid = sorted(grid & set(range(z1, z2 + 1)))
        if on_grid:
            f.at("V2", place, (*path, "zone"), f"zone contains grid-slot index {on_grid[0]}")
        for other in corners:
            if not (z2 < other.zone[0] or other.zone[1] < z1):
                f.at("V2", place, (*path, "zone"), f"zone overlaps corner {other.id}'s zone")
        corners.append(Corner(cid, cname, max_gear, marked, zone, rejoin))
    return tuple(corners)


def _successors(square: tuple[str, int], n: int, start_len: int) -> set[tuple[str, int]]:
    """T-3 and T-10 successors by square id (for V3; the board has the fast version)."""
    lane, i = square
    if lane == "A":
        return {("A", (i + 1) % n), ("B", i)}
    if lane == "B":
        return {("B", (i + 1) % n), ("A", (i + 1) % n)}
    nxt = {(lane, i + 1)} if i + 1 < start_len else set()
    return nxt


def _racing_lines(
    f: Faults, n: int | None, start_len: int, corners: tuple[Corner, ...]
) -> tuple[RacingLine, ...]:
    """T-8 and V3."""
    raw = f.value(("racing_lines",), required=False)
    if raw is None:
        return ()
    if not isinstance(raw, list):
        f.at("SCHEMA", "", ("racing_lines",), "expected a list")
        return ()
    if len(raw) > MAX_RACING_LINES:
        f.at("SCHEMA", "", ("racing_lines",), too_many(len(raw), MAX_RACING_LINES))
        return ()
    by_id = {c.id: c for c in corners}
    lines: list[RacingLine] = []
    for i, item in enumerate(raw):
        path: tuple[str | int, ...] = ("racing_lines", i)
        if not isinstance(item, dict):
            f.at("SCHEMA", "", path, "expected a mapping")
            continue
        lid = f.text((*path, "id"))
        place = f"racing line {lid}" if lid else f"racing line #{i + 1}"
        corner_id = f.text((*path, "corner"), place=place)
        bonus = f.integer((*path, "bonus"), default=1, minimum=1, maximum=2, place=place)
        squares_raw = f.sequence((*path, "squares"), place=place, max_items=MAX_LINE_SQUARES)
        if None in (lid, corner_id, bonus, squares_raw) or n is None:
            continue
        assert lid
        assert corner_id
        assert bonus
        assert squares_raw is not None
        corner = by_id.get(corner_id)
        if corner is None:
            f.at("V3", place, (*path, "corner"), f"no corner {corner_id!r}")
            continue
        squares: list[tuple[str, int]] = []
        for j, text in enumerate(squares_raw):
            sq = parse_square(text)
            if sq is None or sq[0] not in "AB" or not _square_exists(sq, n, start_len):
                f.at("V1", f"{place} square {text}", (*path, "squares", j), "no such square")
                squares = []
                break
            squares.append(sq)
        if not squares:
            if squares_raw == []:
                f.at("V3", place, (*path, "squares"), "a racing line needs squares")
            continue
        for j in range(len(squares) - 1):
            if squares[j + 1] not in _successors(squares[j], n, start_len):
                a, b = squares[j], squares[j + 1]
                f.at(
                    "V3",
                    f"{place} square {b[0]}{b[1]}",
                    (*path, "squares", j + 1),
                    f"{b[0]}{b[1]} is not a successor of {a[0]}{a[1]}",
                )
                break
        if len(set(squares)) != len(squares):
            f.at("V3", place, (*path, "squares"), "a square appears twice")
        marked = [s for s in squares if s[1] == corner.marked]
        if len(marked) != 1:
            f.at(
                "V3",
                place,
                (*path, "squares"),
                f"must contain exactly one marked square of {corner.id} (A{corner.marked} or "
                f"B{corner.marked}), has {len(marked)}",
            )
        lines.append(RacingLine(lid, corner_id, bonus, tuple(f"{s[0]}{s[1]}" for s in squares)))
    return tuple(lines)


def _pit(
    f: Faults, n: int | None, start_len: int, corners: tuple[Corner, ...]
) -> tuple[int | None, str | None]:
    """T-11, V4 and V5."""
    if f.mapping(("pit",)) is None:
        return None, None
    gate = f.integer(("pit", "gate"), place="pit")
    exit_raw = f.value(("pit", "exit"))
    boxes = f.value(("pit", "boxes"), required=False)
    if boxes is not None and boxes != list(PIT_BOXES):
        f.at("V5", "pit", ("pit", "boxes"), f"boxes must be exactly [4, 23], not {boxes!r}")
    exit_sq = parse_square(exit_raw) if exit_raw is not None else None
    if exit_raw is not None and (
        exit_sq is None or exit_sq[0] not in "AB" or (n is not None and exit_sq[1] >= n)
    ):
        f.at("V1", f"square {exit_raw}", ("pit", "exit"), "the pit exit must be an A or B square")
        exit_sq = None
    if n is None or gate is None or exit_sq is None:
        return gate, None
    if not 0 <= gate < n:
        f.at("V1", "pit", ("pit", "gate"), f"gate index {gate} is not on the track")
        return None, None
    for corner in corners:
        z1, z2 = corner.zone
        if z1 <= gate <= z2:
            f.at("V4", "pit", ("pit", "gate"), f"gate {gate} lies in corner {corner.id}'s zone")
        if z1 <= exit_sq[1] <= z2:
            f.at(
                "V4",
                f"square {exit_raw}",
                ("pit", "exit"),
                f"exit lies in corner {corner.id}'s zone",
            )
    if gate == exit_sq[1]:
        f.at("V4", "pit", ("pit", "exit"), "the exit index equals the gate index")
    return gate, f"{exit_sq[0]}{exit_sq[1]}"


def summary(track: Track) -> str:
    """One line for ``check-track``."""
    kind = "approximation" if track.approximation else "track"
    return (
        f"{track.id}: {track.name} ({kind}), {track.length} squares a lane, {track.laps} laps, "
        f"{len(track.corners)} corners, {len(track.racing_lines)} racing lines, "
        f"{track.grid_slots} grid slots, pit gate {track.pit_gate} exit {track.pit_exit}, "
        f"{track.content_hash[:19]}"
    )
