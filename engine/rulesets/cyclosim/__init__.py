"""The Cyclo Sim ruleset (``shared/rules/cyclosim.md``): one stage from inputs, dice and seed.

Package layout: ``orders`` (§4.1 orders, validation, §4.6 default AI), ``sheet`` (§2.3 stage
sheet, §3.9 recovery, §4.2 pace caps), ``race`` (the road, the riders, R-M4 paths, dice),
``stage`` (turns: R-T, R-A, R-R, R-F, R-AT, R-W, R-RB, R-RL, R-RC, R-X), ``finish`` (R-FT
ranking, gaps, groups), and time trials (§3.12) here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from engine.cycling.codec import OUTCOME_CODEC, RiderCodec, inputs_codec
from engine.cycling.course import Course, build_board
from engine.cycling.events import RawEvent
from engine.cycling.hooks import CyclingHooks
from engine.cycling.inputs import StageInputs
from engine.cycling.outcome import Outcome
from engine.dice import DiceSource
from engine.outcome import DiceRow, JsonValue
from engine.ruleset import CYCLING, Ruleset
from engine.rulesets.cyclosim.finish import outcome
from engine.rulesets.cyclosim.orders import AttackWindow, FinalOrders, RiderOrders
from engine.rulesets.cyclosim.player_orders import ORDERS_SPEC, orders_errors, rider_orders
from engine.rulesets.cyclosim.race import Race, Road
from engine.rulesets.cyclosim.settings import (
    DEFAULT_RIDER,
    SETTINGS_CODEC,
    SETTINGS_SPEC,
    CyclosimRider,
    CyclosimSettings,
)
from engine.rulesets.cyclosim.stage import run, start_grid

NAME = "cyclosim"
#: Bumped whenever the same inputs and seed give another outcome (rules, [D] values, default
#: AI), so a replay of an older stage can say why it differs. 2: the gruppetto. 3: gaps and
#: groups at the line, followers who let a descent wheel go, the sprint final (issue 16).
#: 4: groups from the road on a flat finish (issue 16). 5: 16 lanes, the break of the day, the
#: easy bunch and the chase by stage type, GC leaders in the wheels, free-role climbers (issue 16).
VERSION = 5
DESCRIPTION = "Cyclo Sim: energy (PE/PI), contract auctions, drafting files, attacks, relays"

CyclosimInputs = StageInputs[CyclosimSettings, CyclosimRider]


def settings_of(inputs: CyclosimInputs) -> CyclosimSettings:
    return inputs.settings if inputs.settings is not None else CyclosimSettings()


def new_race(inputs: CyclosimInputs, dice: DiceSource, *, keep: bool = True) -> Race:
    """A mass-start stage before the start grid (R-T3); ``keep=False``: the lean path."""
    return Race(
        build_board(inputs.course),
        inputs.entrants,
        settings=settings_of(inputs),
        extras=inputs.extras_in_order(DEFAULT_RIDER),
        dice=dice,
        distance_km=inputs.course.distance_km,
        stage_type=inputs.course.stage_type,
        keep=keep,
    )


def simulate(inputs: CyclosimInputs, dice: DiceSource, seed: int) -> Outcome:
    """Resolve one stage: mass start (§3.2 - §3.11) or time trial (§3.12)."""
    return _simulate(inputs, dice, seed, keep=True)


def simulate_lean(inputs: CyclosimInputs, dice: DiceSource, seed: int) -> Outcome:
    """:func:`simulate` keeping no dice log and no events but the summit and intermediate
    sprint lines (the odds' runs): the same results, turns and rider-moves."""
    return _simulate(inputs, dice, seed, keep=False)


def _simulate(inputs: CyclosimInputs, dice: DiceSource, seed: int, *, keep: bool) -> Outcome:
    stage_type = inputs.course.stage_type
    if stage_type == "ITT":
        return _itt(inputs, dice, seed, keep=keep)
    if stage_type == "TTT":
        return _ttt(inputs, dice, seed, keep=keep)
    race = new_race(inputs, dice, keep=keep)
    start_grid(race)
    run(race)
    return outcome(
        [race], ruleset=NAME, seed=seed, log=race.log, events=race.events, turns=race.turn
    )


def _itt(inputs: CyclosimInputs, dice: DiceSource, seed: int, *, keep: bool) -> Outcome:
    """§3.12 ITT: each rider alone on an empty road, in start order (reverse GC), with the
    ``time_trialist`` rating on the flat."""
    board = build_board(inputs.course)
    settings = settings_of(inputs)
    log: list[DiceRow] = []
    events: list[RawEvent] = []
    races = []
    extras = inputs.extras_in_order(DEFAULT_RIDER)
    road = Road(board, settings, 1, distance_km=inputs.course.distance_km, time_trial=True)
    for entrant, own in reversed(list(zip(inputs.entrants, extras, strict=True))):
        race = Race(
            board,
            (entrant,),
            settings=settings,
            extras=(own,),
            dice=dice,
            distance_km=inputs.course.distance_km,
            time_trial=True,
            log=log,
            events=events,
            road=road,
            keep=keep,
        )
        race.place(0, race.off, 0)
        run(race)
        races.append(race)
    return outcome(
        races, ruleset=NAME, seed=seed, log=log, events=events, turns=max(r.turn for r in races)
    )


def _ttt(inputs: CyclosimInputs, dice: DiceSource, seed: int, *, keep: bool) -> Outcome:
    """§3.12 TTT: each team as one file on its own road (relays allowed), team time = time
    of its ``ttt_counting_rider``-th rider for him and those ahead; riders behind keep theirs."""
    board = build_board(inputs.course)
    settings = settings_of(inputs)
    log: list[DiceRow] = []
    events: list[RawEvent] = []
    extras = inputs.extras_in_order(DEFAULT_RIDER)
    teams: dict[int, list[int]] = {}
    for i, e in enumerate(inputs.entrants):
        teams.setdefault(e.team_id, []).append(i)
    races = []
    roads: dict[int, Road] = {}  # by team size
    for team in reversed(list(teams)):
        members = tuple(inputs.entrants[i] for i in teams[team])
        size = len(members)
        if size not in roads:
            roads[size] = Road(
                board, settings, size, distance_km=inputs.course.distance_km, time_trial=True
            )
        race = Race(
            board,
            members,
            settings=settings,
            extras=[extras[i] for i in teams[team]],
            dice=dice,
            distance_km=inputs.course.distance_km,
            time_trial=True,
            log=log,
            events=events,
            road=roads[size],
            keep=keep,
        )
        for k in range(race.n):
            race.place(k, race.off - k, 0)
            if k:
                race.pred[k], race.fol[k - 1] = k - 1, k
        run(race)
        done = sorted(
            (r for r in range(race.n) if race.status[r] == 2),
            key=lambda r: (race.finish_time[r], race.finish_seq[r]),
        )
        counting = settings.ttt_counting_rider
        if done:
            team_time = race.finish_time[done[min(counting, len(done)) - 1]]
            for r in done[:counting]:
                race.finish_time[r] = team_time
        races.append(race)
    return outcome(
        races, ruleset=NAME, seed=seed, log=log, events=events, turns=max(r.turn for r in races)
    )


def _rider_to_data(rider: CyclosimRider) -> dict[str, JsonValue]:
    orders: JsonValue = None
    if rider.orders is not None:
        orders = _json(asdict(rider.orders))
    return {"orders": orders, "pe_consumed": rider.pe_consumed}


def _json(value: Any) -> JsonValue:
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"not a JSON value: {value!r}")


def _orders_from_data(data: Mapping[str, Any]) -> RiderOrders:
    """The inverse of ``asdict`` on :class:`RiderOrders` (stored inputs)."""
    return RiderOrders(
        **{
            **data,
            "wheel": tuple(data["wheel"]),
            "attacks": tuple(AttackWindow(**a) for a in data["attacks"]),
            "final": FinalOrders(**data["final"]),
        }
    )


def _rider_from_data(data: Mapping[str, Any]) -> CyclosimRider:
    orders = data.get("orders")
    pe_consumed = data.get("pe_consumed", DEFAULT_RIDER.pe_consumed)
    if type(pe_consumed) is not int:
        raise ValueError(f"pe_consumed must be a whole number, got {pe_consumed!r}")
    return CyclosimRider(
        orders=_orders_from_data(orders) if orders else None, pe_consumed=pe_consumed
    )


def _rider_of(
    orders: Mapping[str, Any], carried: Mapping[str, Any], course: Course
) -> CyclosimRider:
    """A rider's part from his orders of :data:`ORDERS_SPEC` (none given: the default AI,
    §4.6) and the energy he consumed up to the previous finish (§2.3)."""
    return CyclosimRider(
        orders=rider_orders(orders, course) if orders else None,
        pe_consumed=int(carried.get("pe_consumed", DEFAULT_RIDER.pe_consumed)),
    )


RIDER_CODEC = RiderCodec(("orders", "pe_consumed"), DEFAULT_RIDER, _rider_to_data, _rider_from_data)

RULESET: Ruleset[CyclosimInputs, Outcome, CyclosimSettings] = Ruleset(
    name=NAME,
    description=DESCRIPTION,
    version=VERSION,
    discipline=CYCLING,
    simulate=simulate,
    simulate_lean=simulate_lean,
    settings_type=CyclosimSettings,
    settings_spec=SETTINGS_SPEC,
    settings=SETTINGS_CODEC,
    orders_spec=ORDERS_SPEC,
    inputs=inputs_codec(
        SETTINGS_CODEC,
        RIDER_CODEC,
        default_settings=CyclosimSettings(),
        legacy_settings_key="cyclosim",
    ),
    outcome=OUTCOME_CODEC,
    cycling=CyclingHooks(RIDER_CODEC, _rider_of, orders_errors),
)
