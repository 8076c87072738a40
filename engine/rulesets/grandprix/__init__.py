"""The Grand Prix ruleset (``shared/rules/grandprix.md``): an F1 dice game on a track file.

Package layout: ``track`` (the §3.5 file, V1-V6), ``board`` (the geometry of §3.1-3.4 as
arrays), ``search`` (move paths, P-1 room, P-5 choice), ``cards`` (§2, GP-1.3), ``source``
(dice and shuffles, seeded or scripted), ``settings`` ([CFG]), ``orders`` (§7.1), ``policy``
(P-2, GP-5.3), ``race`` (§4: qualifying, rounds, turns, incidents, pits, finish),
``outcome`` (results, events, log, JSON), ``playtest`` (the admins' report), ``motor``
(the hooks the registry and the command line use).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.motor import CarEntry
from engine.rulesets.grandprix.board import board_for
from engine.rulesets.grandprix.orders import CarOrders
from engine.rulesets.grandprix.outcome import GrandPrixOutcome, build_outcome
from engine.rulesets.grandprix.race import GrandPrixRace
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.source import RaceSource, RandomSource
from engine.rulesets.grandprix.track import Track

NAME = "grandprix"
#: Bumped whenever the same inputs and seed give another outcome (rules, [D] values).
VERSION = 4  # 2: the risk levels weigh green end squares (policy.GREEN_BIAS); 3: each
# fuel-saving card held saves one out-of-fuel (a second one overwrote the first), races of 4+ laps;
# 4: the default orders (auto, computer cars) play speed cards from 2nd gear and take the lap-2
# insurance stop (orders.CarOrders, issue 32)
DESCRIPTION = "Grand Prix: F1 dice game on a track file, qualifying, gears, corners, incidents"


@dataclass(frozen=True, slots=True)
class GrandPrixInputs:
    """One event: the track, the cars in entry order, their orders (cars without orders drive
    with the defaults), the settings and the laps (None: the settings', else the track's)."""

    track: Track
    cars: tuple[CarEntry, ...]
    orders: Mapping[str, CarOrders] = field(default_factory=dict)
    settings: GrandPrixSettings = field(default_factory=GrandPrixSettings)
    laps: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.cars) <= 12:
            raise ValueError(f"a Grand Prix has 1 to 12 cars, not {len(self.cars)}")
        ids = [c.car_id for c in self.cars]
        if len(set(ids)) != len(ids):
            raise ValueError("car ids must be unique")
        for car in self.orders:
            if car not in ids:
                raise ValueError(f"orders for unknown car {car!r}")


def entry_order(cars: Sequence[CarEntry]) -> tuple[CarEntry, ...]:
    """GP-2.6: team order (by first appearance), then the team's car 1, then car 2."""
    teams: dict[str, int] = {}
    for car in cars:
        teams.setdefault(car.team, len(teams))
    return tuple(sorted(cars, key=lambda c: teams[c.team]))


def new_race(inputs: GrandPrixInputs, source: RaceSource, *, record: bool = True) -> GrandPrixRace:
    """The event's state before anything is drawn (cars in entry order)."""
    cars = entry_order(inputs.cars)
    orders = [inputs.orders.get(c.car_id) or CarOrders(c.car_id) for c in cars]
    laps = inputs.laps or inputs.settings.laps
    return GrandPrixRace(
        board_for(inputs.track), orders, source, inputs.settings, laps=laps, record=record
    )


def simulate(
    inputs: GrandPrixInputs,
    seed: int,
    *,
    source: RaceSource | None = None,
    record: bool = True,
) -> GrandPrixOutcome:
    """One event (GP-1.1): the piles shuffled (GP-1.3), qualifying (§4.2), the race (§4.3-4.12).
    The source defaults to :class:`RandomSource(seed)`. ``record`` False keeps no events, dice
    log nor trace (the outcome's are empty): the same draws and results, for a caller that
    reads the classification alone (the odds)."""
    race = new_race(inputs, source if source is not None else RandomSource(seed), record=record)
    race.shuffle_piles()
    race.run_qualifying()
    race.start_grid()
    race.run_race()
    return build_outcome(race, entry_order(inputs.cars), ruleset=NAME, version=VERSION, seed=seed)
