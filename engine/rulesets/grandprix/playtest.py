"""A track playtest for admins (issue 13 item 7): many races with the default driver, and
per corner the track-exit rate, retirements by reason, rounds per race, pole-to-win rate and
pit stops per car."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.motor import CarEntry
from engine.rulesets.grandprix.orders import CarOrders
from engine.rulesets.grandprix.outcome import GrandPrixOutcome
from engine.rulesets.grandprix.race import FINISHED, RETIRED
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.track import Track

#: The playtest field: 6 teams of 2.
PLAYTEST_CARS = tuple(
    CarEntry(f"car{i + 1}", f"Driver {i + 1}", f"Team {i // 2 + 1}") for i in range(12)
)


@dataclass(frozen=True, slots=True)
class PlaytestReport:
    """Figures over ``races`` races of 12 cars (see :func:`render`)."""

    track: str
    races: int
    risk: str
    laps: int
    corner_exits: tuple[tuple[str, str, int, float], ...]  # id, name, exits, per car-lap
    retired_share: float
    retired_median: float
    retired_by_reason: tuple[tuple[str, int], ...]
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    pole_wins: float
    pit_stops_per_car: float
    incidents: tuple[tuple[str, int], ...]
    finished_share: float


def run_playtest(
    track: Track,
    races: int,
    risk: str = "normal",
    seed: int = 1,
    laps: int | None = None,
    settings: GrandPrixSettings | None = None,
    orders: Mapping[str, Any] | None = None,
) -> PlaytestReport:
    """``races`` events with every car on ``risk`` (seeds ``seed``, ``seed + 1``, ...) and
    the default orders, or ``orders``' fields (§7.1 names) where given."""
    from engine.rulesets.grandprix import GrandPrixInputs, simulate

    given = dict(orders or {})
    cars = {c.car_id: CarOrders(c.car_id, **{"risk": risk, **given}) for c in PLAYTEST_CARS}
    inputs = GrandPrixInputs(track, PLAYTEST_CARS, cars, settings or GrandPrixSettings(), laps=laps)
    outcomes: list[GrandPrixOutcome] = [simulate(inputs, seed + n) for n in range(races)]
    return summarise(track, outcomes, risk)


def summarise(track: Track, outcomes: list[GrandPrixOutcome], risk: str) -> PlaytestReport:
    """The figures of :class:`PlaytestReport` from finished events."""
    exits: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    incidents: Counter[str] = Counter()
    car_laps = 0
    retired_each = []
    pole_wins = 0
    pits = 0
    cars = 0
    finished = 0
    for out in outcomes:
        retired = 0
        for r in out.results:
            cars += 1
            car_laps += r.laps + (r.status != FINISHED)
            exits.update(r.track_exits)
            pits += len(r.pit_stops)
            if r.status == RETIRED:
                retired += 1
                reasons[r.reason or "?"] += 1
            finished += r.status == FINISHED
        retired_each.append(retired / len(out.results))
        winner = out.results[0]
        if winner.status == FINISHED and winner.grid == 1:
            pole_wins += 1
        for e in out.events:
            if e.kind == "incident":
                incidents[str(dict(e.detail)["card"])] += 1
    n = max(len(outcomes), 1)
    rounds = [o.rounds for o in outcomes] or [0]
    return PlaytestReport(
        track=track.id,
        races=len(outcomes),
        risk=risk,
        laps=outcomes[0].laps if outcomes else track.laps,
        corner_exits=tuple(
            (c.id, c.name, exits[c.id], exits[c.id] / max(car_laps, 1)) for c in track.corners
        ),
        retired_share=sum(retired_each) / n,
        retired_median=statistics.median(retired_each) if retired_each else 0.0,
        retired_by_reason=tuple(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        rounds_mean=statistics.fmean(rounds),
        rounds_min=min(rounds),
        rounds_max=max(rounds),
        pole_wins=pole_wins / n,
        pit_stops_per_car=pits / max(cars, 1),
        incidents=tuple(sorted(incidents.items())),
        finished_share=finished / max(cars, 1),
    )


def render(report: PlaytestReport) -> str:
    """The text ``python -m engine playtest`` prints."""
    lines = [
        f"playtest {report.track}: {report.races} races x 12 cars, {report.laps} laps, "
        f"risk {report.risk}",
        "",
        "track exits per corner (exits, per car-lap):",
    ]
    for cid, name, count, rate in report.corner_exits:
        lines.append(f"  {cid:<10} {name:<32} {count:>6}  {100 * rate:5.1f} %")
    lines.append(
        f"retired: {100 * report.retired_share:.1f} % of cars (median race "
        f"{100 * report.retired_median:.1f} %), finished {100 * report.finished_share:.1f} %"
    )
    for reason, count in report.retired_by_reason:
        lines.append(f"  {reason:<12} {count:>6}  {count / report.races:5.2f} a race")
    lines.append(
        f"rounds per race: mean {report.rounds_mean:.1f}, min {report.rounds_min}, "
        f"max {report.rounds_max}"
    )
    lines.append(f"pole wins: {100 * report.pole_wins:.1f} % of races")
    lines.append(f"pit stops per car: {report.pit_stops_per_car:.2f}")
    lines.append(
        "incident cards drawn: " + ", ".join(f"{name} {count}" for name, count in report.incidents)
    )
    return "\n".join(lines)
