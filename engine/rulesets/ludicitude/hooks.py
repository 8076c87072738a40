"""The Ludicitude ruleset's :class:`~engine.motor.MotorHooks` (registry and command line).

The command line's "track" is a :class:`LoadedTrack` (the track, its V-4 warnings and its
content hash); its outcome a :class:`RaceReport` (the race with the drivers and teams of the
cars file), printed in the Grand Prix's JSON shape (``results: [{car, driver, team, rank,
status, reason, ...}]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.motor import CarEntry, DataDocument, EntryError, MotorHooks, RawOrders
from engine.rulesets.ludicitude import NAME, VERSION, simulate
from engine.rulesets.ludicitude.league import LEAGUE
from engine.rulesets.ludicitude.orders import (
    DEFAULT_ORDERS,
    CarOrders,
    LudicitudeSettings,
    OrdersError,
    orders_from_data,
)
from engine.rulesets.ludicitude.outcome import CarEntry as RaceCar
from engine.rulesets.ludicitude.outcome import RaceInputs, RaceOutcome
from engine.rulesets.ludicitude.playtest import PLAYTEST_RISKS, playtest
from engine.rulesets.ludicitude.track import GAME, LoadedTrack, recovery_gaps, track_from_document

#: The cars file of the command line is the Grand Prix's (S-4: teams of two cars, a grid of
#: at most 12; see docs/ludicitude.md).
MAX_CARS = 12
TEAM_SIZE = 2


@dataclass(frozen=True, slots=True)
class RaceReport:
    """A race run from the command line: the outcome, the track file, and who drives."""

    outcome: RaceOutcome
    track: LoadedTrack
    cars: tuple[CarEntry, ...]

    def names(self) -> Mapping[str, CarEntry]:
        return {c.car_id: c for c in self.cars}


def load_track(doc: DataDocument) -> LoadedTrack:
    """§3.1 schema and V-1 .. V-3; :class:`~engine.motor.TrackError` with every error."""
    return track_from_document(doc)


def track_summary(loaded: LoadedTrack) -> str:
    """The ``check-track`` line, then one line per V-4 warning."""
    track = loaded.track
    gaps = "/".join(str(g) for _, _, g in recovery_gaps(track.cards, track.circuit)) or "none"
    laps = f"{track.laps} laps" if track.closed else "one pass"
    line = (
        f"{track.id}: {track.name}, {track.circuit} circuit, {laps} (F = {track.finish()}), "
        f"{sum(1 for c in track.cards if c.gain)} recovery cards (gaps {gaps}), "
        f"{loaded.content_hash[:19]}"
    )
    return "\n".join([line, *(f"warning: {w}" for w in loaded.warnings)])


def parse_orders(raw: RawOrders, name: str, cars: tuple[CarEntry, ...]) -> dict[str, CarOrders]:
    """§7.1 objects of an orders file; :class:`EntryError` names file, line, car and field."""
    out = {}
    for car, (data, line) in raw.items():
        try:
            _, orders = orders_from_data(data)
        except OrdersError as exc:
            where = f"{name} line {line}" if line else name
            raise EntryError(f"{where}, car {car}, field {exc.field}: {exc.message}") from None
        out[car] = orders
    return out


def settings_for(loaded: LoadedTrack, laps: int | None) -> LudicitudeSettings:
    """The settings of a command-line race; :class:`EntryError` for laps the track refuses."""
    if laps is not None and (laps < 1 or (not loaded.track.closed and laps != 1)):
        raise EntryError(
            f"--laps {laps}: {loaded.track.id} is an open circuit, raced once (T-3)"
            if laps >= 1
            else f"--laps {laps}: a race has at least 1 lap"
        )
    return LudicitudeSettings(laps=laps)


def run(
    loaded: LoadedTrack,
    cars: tuple[CarEntry, ...],
    orders: Mapping[str, CarOrders] | None,
    seed: int,
    laps: int | None,
) -> RaceReport:
    """One race from the command line's inputs; cars without orders drive with the defaults."""
    given = orders or {}
    entries = tuple(RaceCar(c.car_id, given.get(c.car_id, DEFAULT_ORDERS)) for c in cars)
    inputs = RaceInputs(loaded.track, entries, settings_for(loaded, laps))
    return RaceReport(simulate(inputs, None, seed), loaded, cars)


def outcome_json(report: RaceReport) -> dict[str, Any]:
    """The JSON document of ``simulate --format json``, in the Grand Prix's shape."""
    out = report.outcome
    names = report.names()
    return {
        "ruleset": out.ruleset,
        "version": VERSION,
        "seed": out.seed,
        "track": {
            "id": report.track.track.id,
            "name": report.track.track.name,
            "hash": report.track.content_hash,
        },
        "laps": out.laps,
        "rounds": out.rounds,
        "start_order": list(out.start_order),
        "results": [
            {
                "car": r.car,
                "driver": names[r.car].driver,
                "team": names[r.car].team,
                "rank": r.rank,
                "status": r.status,
                "reason": r.reason,
                "rounds": r.rounds,
                "position": r.position,
                "card": r.card,
                "brake": r.brake,
                "speeds": list(r.speeds),
            }
            for r in out.results
        ],
        "events": [e._asdict() for e in out.events],
        "dice": [{"round": rnd, "car": car, "faces": list(f)} for rnd, car, f in out.dice],
        "trace": out.trace.to_data(),
    }


def outcome_table(report: RaceReport) -> str:
    """A readable classification."""
    out = report.outcome
    names = report.names()
    dw = max([len("driver"), *(len(c.driver) for c in report.cars)])
    tw = max([len("team"), *(len(c.team) for c in report.cars)])
    lines = [
        f"{report.track.track.name}: {out.laps} lap(s), F = {out.finish}, {out.rounds} rounds "
        f"(ruleset {out.ruleset}, seed {out.seed})",
        "",
        f"{'rank':>4}  {'car':<8}  {'driver':<{dw}}  {'team':<{tw}}  {'rounds':>6}  "
        f"{'pos':>3}  {'brake':>5}  status",
    ]
    for r in out.results:
        status = r.status if r.reason is None else f"{r.status} ({r.reason})"
        c = names[r.car]
        lines.append(
            f"{r.rank:>4}  {r.car:<8}  {c.driver:<{dw}}  {c.team:<{tw}}  {r.rounds:>6}  "
            f"{r.position:>3}  {r.brake:>5}  {status}"
        )
    return "\n".join(lines)


def playtest_text(loaded: LoadedTrack, races: int, risk: str, seed: int, laps: int | None) -> str:
    """The playtest report's text (risk ``mixed``: safe, normal, aggressive in turn)."""
    report = playtest(
        loaded.track, races=races, risk=risk, seed=seed, settings=settings_for(loaded, laps)
    )
    return "\n".join(report.lines())


HOOKS = MotorHooks(
    game=GAME,
    max_cars=MAX_CARS,
    team_size=TEAM_SIZE,
    risks=PLAYTEST_RISKS,
    load_track=load_track,
    track_summary=track_summary,
    parse_orders=parse_orders,
    simulate=run,
    outcome_json=outcome_json,
    outcome_table=outcome_table,
    playtest=playtest_text,
    league=LEAGUE,
)

__all__ = ["HOOKS", "NAME", "RaceReport"]
