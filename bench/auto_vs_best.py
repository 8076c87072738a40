"""The default driver (``auto`` orders, every computer car) against the best fixed orders a
small search finds (issue 32): pure engine, no database.

    .venv/bin/python bench/auto_vs_best.py --game grandprix [--races 300] [--seed S]
    .venv/bin/python bench/auto_vs_best.py --game ludicitude [--races 2000] [--seed S]

Each candidate orders are given to one team of two cars (team 1) in a field of 12 whose other
ten cars drive on the default orders; every candidate races the same N events (seeds ``S``,
``S + 1``, ...: common random numbers, so the gaps are paired), on the shipped tracks in turn
(the Grand Prix demo's 15 circuits at their file's laps; Ludicitude's 4 tracks). Points are
the games' default preset (25-18-15-12-10-8-6-4-2-1, finishers only). Figures are per car:
win rate, mean points, mean finishing place, each with a 95 % interval (normal, over races);
then ``auto`` (the orders a car without orders gets) and its gap in points to the best fixed
orders, paired per race. The best of 36 is picked on the same races, so its mean is a little
flattering (the winner's curse): a gap inside the interval is no gap.

Card use: the Grand Prix's share of speed cards drawn and never played, and held at the end;
Ludicitude's brake points left at the finish. Fresh seeds unless ``--seed``; seeds printed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The games' default points (motor/points_presets.py "grandprix" and "ludicitude").
POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
TEAM = ("car1", "car2")


@dataclass
class Tally:
    """Per race, the team's mean per car of points, win and place; card or brake figures."""

    label: str
    points: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    places: list[float] = field(default_factory=list)
    drawn: int = 0
    played: int = 0
    held: int = 0
    brake_left: list[int] = field(default_factory=list)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def score(ranks: dict[str, tuple[int, bool]], tally: Tally) -> None:
    """The team's figures of one race from ``{car: (rank, finished)}``."""
    pts = [POINTS[r - 1] if ok and r <= len(POINTS) else 0 for r, ok in (ranks[c] for c in TEAM)]
    tally.points.append(statistics.fmean(pts))
    tally.wins.append(statistics.fmean(float(ranks[c] == (1, True)) for c in TEAM))
    tally.places.append(statistics.fmean(ranks[c][0] for c in TEAM))


# -- the Grand Prix ------------------------------------------------------------------------


def grandprix_candidates() -> list[tuple[str, dict[str, Any]]]:
    """card_min_gear 2..4 x pit strategy x max_gear 3..4 x risk: 36 fixed orders."""
    from engine.rulesets.grandprix.orders import PIT_STRATEGIES, RISKS

    out = []
    for risk, gear, cards, pit in product(RISKS, (3, 4), (2, 3, 4), PIT_STRATEGIES):
        label = f"{risk:<10} max_gear {gear} cards from {cards} {pit}"
        out.append(
            (label, {"risk": risk, "max_gear": gear, "card_min_gear": cards, "pit_strategy": pit})
        )
    return out


def grandprix_runner() -> tuple[Callable[[dict[str, Any] | None, int, Tally], None], int]:
    from engine.motor import CarEntry, load_document
    from engine.rulesets.grandprix import GrandPrixInputs, new_race
    from engine.rulesets.grandprix.orders import CarOrders
    from engine.rulesets.grandprix.race import FINISHED
    from engine.rulesets.grandprix.source import RandomSource
    from engine.rulesets.grandprix.track import load_track

    paths = sorted((ROOT / "motor" / "tracks" / "grandprix").glob("*.yaml"))
    tracks = [load_track(load_document(p)) for p in paths]
    cars = tuple(
        CarEntry(f"car{i + 1}", f"Driver {i + 1}", f"Team {i // 2 + 1}") for i in range(12)
    )

    def run(orders: dict[str, Any] | None, seed: int, tally: Tally) -> None:
        given = {c: CarOrders(c, **orders) for c in TEAM} if orders is not None else {}
        inputs = GrandPrixInputs(tracks[seed % len(tracks)], cars, given)
        race = new_race(inputs, RandomSource(seed))
        race.shuffle_piles()
        race.run_qualifying()
        race.start_grid()
        race.run_race()
        # The finishing order as the outcome ranks it (finishers, running, retired).
        last = race.trace[-1][1]
        ranks = {race.names[i]: (last[i], race.status[i] == FINISHED) for i in range(race.k)}
        score(ranks, tally)
        team = {race.names.index(c) for c in TEAM}
        for _, _, car, kind, _, card in race.log:
            if car in team and kind == "draw" and card == "SPEED":
                tally.drawn += 1
            elif car in team and kind == "card":
                tally.played += 1
        tally.held += sum(len(race.cards[i]) for i in team)

    return run, len(tracks)


# -- Ludicitude ----------------------------------------------------------------------------


def ludicitude_candidates() -> list[tuple[str, dict[str, Any]]]:
    """risk x max_speed 3..6: 12 fixed orders."""
    from engine.rulesets.ludicitude.orders import RISKS
    from engine.rulesets.ludicitude.track import SPEED_MAX

    return [
        (f"{risk:<10} max_speed {speed}", {"risk": risk, "max_speed": speed})
        for risk, speed in product(RISKS, range(3, SPEED_MAX + 1))
    ]


def ludicitude_runner() -> tuple[Callable[[dict[str, Any] | None, int, Tally], None], int]:
    from engine.rulesets.ludicitude import CarEntry, RaceInputs, simulate
    from engine.rulesets.ludicitude.orders import CarOrders
    from engine.rulesets.ludicitude.outcome import FINISHED
    from engine.rulesets.ludicitude.track import load_track

    paths = sorted((ROOT / "motor" / "tracks" / "ludicitude").glob("*.yaml"))
    tracks = [load_track(p).track for p in paths]
    ids = [f"car{i + 1}" for i in range(12)]

    def run(orders: dict[str, Any] | None, seed: int, tally: Tally) -> None:
        mine = CarOrders(**orders) if orders is not None else CarOrders()
        cars = tuple(CarEntry(c, mine) if c in TEAM else CarEntry(c) for c in ids)
        out = simulate(RaceInputs(tracks[seed % len(tracks)], cars), None, seed)
        ranks = {r.car: (r.rank, r.status == FINISHED) for r in out.results}
        score(ranks, tally)
        tally.brake_left += [r.brake for r in out.results if r.car in TEAM and r.status == FINISHED]

    return run, len(tracks)


# -- the table -----------------------------------------------------------------------------


def line(t: Tally) -> str:
    p, pw = interval(t.points)
    w, ww = interval(t.wins)
    pl, plw = interval(t.places)
    extra = ""
    if t.drawn:
        extra = (
            f"  cards unused {100 * (t.drawn - t.played) / t.drawn:4.1f} %"
            f" held at end {100 * t.held / t.drawn:4.1f} %"
        )
    elif t.brake_left:
        extra = f"  brake left at finish {statistics.fmean(t.brake_left):4.2f}"
    return (
        f"{t.label:<48} points {p:5.2f} ±{pw:4.2f}  wins {100 * w:4.1f} ±{100 * ww:3.1f} %"
        f"  place {pl:5.2f} ±{plw:4.2f}{extra}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("grandprix", "ludicitude"), required=True)
    parser.add_argument("--races", type=int, help="races per candidate (300; ludicitude 2000)")
    parser.add_argument("--seed", type=int, help="the first race's seed (default: fresh)")
    args = parser.parse_args(argv)
    if args.game == "grandprix":
        candidates, (run, tracks) = grandprix_candidates(), grandprix_runner()
        races = args.races or 300
    else:
        candidates, (run, tracks) = ludicitude_candidates(), ludicitude_runner()
        races = args.races or 2000
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    print(
        f"{args.game}: {len(candidates)} fixed orders and auto, each on team 1 (2 cars) against "
        f"10 cars on the default orders, {races} races over {tracks} tracks, "
        f"seeds {seed}..{seed + races - 1} (--seed {seed} reproduces)"
    )
    tallies = []
    for label, orders in [*candidates, ("auto (the default orders)", None)]:
        tally = Tally(label)
        for n in range(races):
            run(orders, seed + n, tally)
        tallies.append((tally, orders))
    auto = tallies[-1][0]
    fixed = sorted(tallies[:-1], key=lambda t: -statistics.fmean(t[0].points))
    for tally, _ in [*fixed, (auto, None)]:
        print(line(tally))
    best = fixed[0][0]
    gap, width = interval([a - b for a, b in zip(auto.points, best.points, strict=True)])
    print(f"best fixed orders: {' '.join(best.label.split())}")
    print(
        f"auto's gap to the best fixed orders: {gap:+.2f} ±{width:.2f} points per car a race "
        f"(paired over the same {races} races)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
