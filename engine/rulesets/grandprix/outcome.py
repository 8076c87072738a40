"""What an event gives back (issue 13 item 4): per car grid, qualifying, rank, status, laps,
pit stops, track exits and gap; ordered structured events; the dice and card log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.motor import CarEntry
from engine.rows import Rows
from engine.rulesets.grandprix.race import (
    FINISHED,
    NOT_CLASSIFIED,
    RETIRED,
    GrandPrixRace,
)


@dataclass(frozen=True, slots=True)
class CarResult:
    """One car's event. ``qualifying`` is ``(throws, overshoot)`` or None (no time, with
    ``qualifying_note`` the reason). ``gap_seconds`` on the lead lap, ``laps_behind`` otherwise
    (both None for a retired car or when no car finished)."""

    car: str
    driver: str
    team: str
    grid: int
    qualifying: tuple[int, int] | None
    qualifying_note: str | None
    rank: int
    status: str
    reason: str | None
    retired_lap: int | None
    laps: int
    pit_stops: tuple[int, ...]
    track_exits: tuple[str, ...]
    gap_seconds: float | None
    laps_behind: int | None


@dataclass(frozen=True, slots=True)
class RaceEvent:
    """A structured event: ``phase`` (qualifying or race), ``round``, ``kind``, the car and
    typed details (kinds: qualifying, start, lead, track_exit, incident, oil_received, skid,
    blue_cleared, pit_stop, retired, finish)."""

    phase: str
    round: int
    kind: str
    car: str
    detail: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class LogRow:
    """One entry of the dice and card log: a ``throw``, ``pit`` throw, ``tie`` throw, a
    ``card`` played (value M), a ``draw`` (value: the pile; ``card`` its name) or a
    ``shuffle`` (value: the pile); ``car`` is None for the shuffles before the event."""

    phase: str
    round: int
    car: str | None
    kind: str
    values: tuple[int, ...]
    card: str


#: A car's state in a trace row.
TRACE_RACING, TRACE_PIT, TRACE_RETIRED, TRACE_FINISHED = "racing", "pit", "retired", "finished"


@dataclass(frozen=True, slots=True)
class TraceCar:
    """Where one car is in a trace row: its ``place`` in the running order (1 = leader:
    finishers in crossing order, then the running cars by D, then the retired as GP-12.3
    ranks them), its ``lap`` (GP-1.4), its ``square`` as the track file addresses it (§3.1:
    ``("A", 12)``, ``("B", 12)`` half a square ahead, start lanes ``("C", j)``/``("D", j)``,
    pit boxes ``("P", k)``, a corner's run-off ``("runoff", "<corner id>")``), and its
    ``state`` (racing, pit, retired, finished). A car off the board keeps its last square."""

    car: str
    place: int
    lap: int
    square: tuple[str, int | str]
    state: str


@dataclass(frozen=True, slots=True)
class TraceRow:
    """Every car after the grid is formed (round 0) or after a race round, in entry order."""

    round: int
    cars: tuple[TraceCar, ...]


@dataclass(frozen=True, slots=True)
class GrandPrixOutcome:
    """The whole event, results in classification order (GP-12.3)."""

    ruleset: str
    version: int
    seed: int
    track_id: str
    track_name: str
    track_hash: str
    laps: int
    results: tuple[CarResult, ...]
    events: Sequence[RaceEvent]
    log: Sequence[LogRow]
    rounds: int
    car_turns: int
    trace: Sequence[TraceRow] = ()


def classification(race: GrandPrixRace) -> list[int]:
    """GP-12.3: finishers in order, then non-classified by D, then retired by D at
    retirement (descending), ties to the later retirement."""
    finished = list(race.finish_order)
    unclassified = sorted(
        (i for i in range(race.k) if race.status[i] == NOT_CLASSIFIED),
        key=lambda i: -race.final_d[i],
    )
    retired = sorted(
        (i for i in range(race.k) if race.status[i] == RETIRED),
        key=lambda i: (-race.final_d[i], -race.retired_at[i]),
    )
    return finished + unclassified + retired


def square_address(race: GrandPrixRace, loc: int) -> tuple[str, int | str]:
    """The §3.1 address of a location (see :class:`TraceCar`)."""
    board = race.board
    lane = board.lane[loc]
    if lane == "R":
        return ("runoff", board.track.corners[loc - board.runoff0].id)
    return (lane, board.index[loc])


def build_trace(race: GrandPrixRace) -> tuple[TraceRow, ...]:
    """The race's trace rows (one snapshot a round, :meth:`GrandPrixRace.snapshot`)."""
    names = race.names
    laps = race.laps
    is_pit = race.board.is_pit
    addresses: dict[int, tuple[str, int | str]] = {}
    rows = []
    for rnd, places, locs, crossings, statuses in race.trace:
        cars = []
        for i, loc in enumerate(locs):
            status = statuses[i]
            if status == FINISHED:
                state = TRACE_FINISHED
            elif status == RETIRED:
                state = TRACE_RETIRED
            else:
                state = TRACE_PIT if is_pit[loc] else TRACE_RACING
            square = addresses.get(loc)
            if square is None:
                square = addresses[loc] = square_address(race, loc)
            lap = min(max(crossings[i], 1), laps)
            cars.append(TraceCar(names[i], places[i], lap, square, state))
        rows.append(TraceRow(rnd, tuple(cars)))
    return tuple(rows)


def build_outcome(
    race: GrandPrixRace,
    cars: tuple[CarEntry, ...],
    *,
    ruleset: str,
    version: int,
    seed: int,
) -> GrandPrixOutcome:
    """Freeze a finished :class:`GrandPrixRace` into a :class:`GrandPrixOutcome`."""
    board = race.board
    track = board.track
    names = race.names
    grid_slot = {car: slot for slot, car in enumerate(race.grid, 1)}
    quali = {run.car: run for run in race.qualifying}
    results = []
    snapshot = race.winner_snapshot
    floor = 0  # [D] gaps never shrink down the order (a car in the pit lane has a virtual D)
    for rank, i in enumerate(classification(race), 1):
        status = race.status[i]
        gap: float | None = None
        behind_laps: int | None = None
        if snapshot is not None and status in (FINISHED, NOT_CLASSIFIED) and snapshot[i] >= 0:
            behind = max(race.winner_d - snapshot[i], floor)
            floor = behind
            if behind < board.lap:
                gap = round(behind / board.lap * track.reference_lap_seconds, 1)
                behind_laps = 0
            else:
                behind_laps = behind // board.lap
        run = quali.get(i)
        results.append(
            CarResult(
                car=names[i],
                driver=cars[i].driver,
                team=cars[i].team,
                grid=grid_slot[i],
                qualifying=(run.throws, run.overshoot) if run and run.time else None,
                qualifying_note=run.reason if run and not run.time else None,
                rank=rank,
                status=status,
                reason=race.reason[i],
                retired_lap=race.retired_lap[i] if status == RETIRED else None,
                laps=race.laps
                if status == FINISHED
                else min(max(race.crossings[i] - 1, 0), race.laps),
                pit_stops=tuple(race.pit_stops[i]),
                track_exits=tuple(race.track_exits[i]),
                gap_seconds=gap,
                laps_behind=behind_laps,
            )
        )
    raw_events, raw_log = race.events, race.log

    def events() -> tuple[RaceEvent, ...]:
        return tuple(
            RaceEvent(phase, rnd, kind, names[car], tuple(detail.items()))
            for phase, rnd, kind, car, detail in raw_events
        )

    def log() -> tuple[LogRow, ...]:
        return tuple(
            LogRow(phase, rnd, names[car] if car >= 0 else None, kind, values, card)
            for phase, rnd, car, kind, values, card in raw_log
        )

    return GrandPrixOutcome(
        ruleset=ruleset,
        version=version,
        seed=seed,
        track_id=track.id,
        track_name=track.name,
        track_hash=track.content_hash,
        laps=race.laps,
        results=tuple(results),
        events=Rows(events),
        log=Rows(log),
        rounds=race.round,
        car_turns=race.car_turns,
        trace=Rows(lambda: build_trace(race)),
    )


def outcome_to_json(outcome: GrandPrixOutcome) -> dict[str, Any]:
    """The JSON document of ``simulate --format json`` (issue 13 item 6)."""
    return {
        "ruleset": outcome.ruleset,
        "version": outcome.version,
        "seed": outcome.seed,
        "track": {"id": outcome.track_id, "name": outcome.track_name, "hash": outcome.track_hash},
        "laps": outcome.laps,
        "rounds": outcome.rounds,
        "results": results_to_json(outcome.results),
        "events": [
            {"phase": e.phase, "round": e.round, "kind": e.kind, "car": e.car, **dict(e.detail)}
            for e in outcome.events
        ],
        "dice": [
            {
                "phase": d.phase,
                "round": d.round,
                "car": d.car,
                "kind": d.kind,
                "values": list(d.values),
                **({"card": d.card} if d.card else {}),
            }
            for d in outcome.log
        ],
        "trace": trace_to_json(outcome.trace),
    }


def results_to_json(results: Sequence[CarResult]) -> list[dict[str, Any]]:
    """The classification of :func:`outcome_to_json` (``results``)."""
    return [
        {
            "car": r.car,
            "driver": r.driver,
            "team": r.team,
            "grid": r.grid,
            "qualifying": list(r.qualifying) if r.qualifying else r.qualifying_note,
            "rank": r.rank,
            "status": r.status,
            "reason": r.reason,
            "retired_lap": r.retired_lap,
            "laps": r.laps,
            "pit_stops": list(r.pit_stops),
            "track_exits": list(r.track_exits),
            "gap_seconds": r.gap_seconds,
            "laps_behind": r.laps_behind,
        }
        for r in results
    ]


def trace_to_json(trace: Sequence[TraceRow]) -> list[dict[str, Any]]:
    """``[{"round": N, "cars": {"<car>": {"place", "lap", "square": [lane, index], "state"}}}]``
    in round order (docs/grandprix.md, "Position trace")."""
    return [
        {
            "round": row.round,
            "cars": {
                c.car: {"place": c.place, "lap": c.lap, "square": list(c.square), "state": c.state}
                for c in row.cars
            },
        }
        for row in trace
    ]


def outcome_table(outcome: GrandPrixOutcome) -> str:
    """A readable classification."""
    rows = outcome.results
    dw = max([len("driver"), *(len(r.driver) for r in rows)])
    tw = max([len("team"), *(len(r.team) for r in rows)])
    lines = [
        f"{outcome.track_name}: {outcome.laps} laps, {outcome.rounds} rounds "
        f"(ruleset {outcome.ruleset}, seed {outcome.seed})",
        "",
        f"{'rank':>4}  {'car':<6}  {'driver':<{dw}}  {'team':<{tw}}  {'grid':>4}  "
        f"{'gap':>9}  {'laps':>4}  {'pits':>4}  {'exits':>5}  status",
    ]
    for r in rows:
        if r.gap_seconds is not None:
            gap = f"+{r.gap_seconds:.1f}s" if r.rank > 1 else "winner"
        elif r.laps_behind:
            gap = f"+{r.laps_behind} lap{'s' if r.laps_behind > 1 else ''}"
        else:
            gap = "-"
        status = r.status if r.reason is None else f"{r.status} ({r.reason}, lap {r.retired_lap})"
        lines.append(
            f"{r.rank:>4}  {r.car:<6}  {r.driver:<{dw}}  {r.team:<{tw}}  {r.grid:>4}  {gap:>9}  "
            f"{r.laps:>4}  {len(r.pit_stops):>4}  {len(r.track_exits):>5}  {status}"
        )
    return "\n".join(lines)
