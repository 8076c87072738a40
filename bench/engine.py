"""How fast is the rules engine? The 21 stages of the demo Tour with its 176 riders.

    .venv/bin/python bench/engine.py [--ruleset moreno] [--runs 5] [--lean]
    .venv/bin/python bench/engine.py --ruleset grandprix [--runs 5] [--races 100]
    .venv/bin/python bench/engine.py --ruleset ludicitude [--runs 5] [--races 2000]

Grand Prix: full events (qualifying and 3 laps, 12 cars) on every shipped track, in turn.

    .venv/bin/python bench/engine.py --ruleset grandprix --peer DIR [--runs 3] [--races 100]
    .venv/bin/python bench/engine.py --ruleset grandprix --outcomes FILE [--engine-from DIR]

``--peer DIR``: the Python Flamme Rouge engine (a checkout of MarkusShepherd/flamme-rouge,
``git clone https://github.com/MarkusShepherd/flamme-rouge DIR``; never copied here) races
beside ours, race by race, and the ratio is printed. The comparison (bench/grandprix_peer.py):
our full events, as above, and "race only" (the start grid, the race and the outcome, without
the piles' shuffle and the qualifying), against its own game loop with 6 teams of its
``Heuristic`` strategy (12 riders) on ``STAGE_7_5_6`` (the one track whose start takes 12),
its global ``random`` seeded per race, to the first rider across the line. The peer runs in
a process of its own, one race between two of our events, so that neither the two engines'
work nor their heaps (the garbage collector walks every object) overlap; the ratio is the
peer's seconds over ours for as many races, wall clock and CPU time, median of the runs.
``--outcomes FILE`` writes the JSON of every event the benchmark times, one a line, and times
nothing: with ``--engine-from`` an older engine, the two files must be identical.
Ludicitude: 12 cars with the default driver on the example ring (anneau-exemple), 2 laps.

The first line says where the engine comes from. ``--engine-from DIR`` takes the ``engine``
package from DIR (another tree's, to compare two versions in one sitting). The engines run as
pure Python, the one build there is (issue 33 removed the optional compiled build:
docs/engine.md, "Compiled build: removed").
``--lean`` times the cycling engines' lean path (``simulate(..., lean=True)``, the odds' runs:
no dice log, no events but the lines'); its dice are counted on the full path, untimed.

Prints the median over the runs of: stages per second, rider-moves per second, dice rolls per
second, the cost of the same dice drawn alone with ``RandomDice`` (no rules) and the engine's
ratio to it on this machine, and the peak memory of one stage (tracemalloc).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "--engine-from" in sys.argv:  # before the engine's first import
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--engine-from") + 1]).resolve()))

import engine  # noqa: E402
from engine import simulate  # noqa: E402
from engine.cli import course_from_data, entrants_from_rows, load_riders  # noqa: E402
from engine.cycling.inputs import StageInputs  # noqa: E402
from engine.cycling.outcome import Outcome  # noqa: E402
from engine.dice import DICE, RandomDice  # noqa: E402

STAGES = ROOT / "fixtures" / "demo" / "stages.json"
RIDERS = ROOT / "fixtures" / "demo" / "riders.csv"


def load_tour(stages_path: Path, riders_path: Path) -> list[StageInputs]:
    """The demo Tour's stages, every one with all the riders in bib order."""
    entrants = entrants_from_rows(load_riders(riders_path))
    data = json.loads(stages_path.read_text(encoding="utf-8"))
    tour = []
    for stage in data:
        course = course_from_data(
            {
                "name": f"Stage {stage['number']}: {stage['start']} - {stage['finish']}",
                "stage_type": stage["stage_type"],
                "distance_km": stage["distance_km"],
                "segments": stage["segments"],
                "intermediate_sprints_km": stage.get("intermediate_sprints_km", []),
            },
            name=f"{stages_path.name} stage {stage['number']}",
        )
        tour.append(StageInputs(course, entrants))
    return tour


def run_tour(
    ruleset: str, tour: list[StageInputs], seed: int, *, lean: bool = False
) -> tuple[float, float, list[Outcome]]:
    """Wall-clock seconds, CPU seconds of this process, the outcomes (``lean``: the engine's
    lean path, the odds' runs: no dice log, no events but the lines')."""
    extra = {"lean": True} if lean else {}  # an older engine (--engine-from) has no lean path
    start, cpu = time.perf_counter(), time.process_time()
    outcomes = [simulate(ruleset, inputs, seed + i, **extra) for i, inputs in enumerate(tour)]
    return time.perf_counter() - start, time.process_time() - cpu, outcomes


def dice_alone(outcomes: list[Outcome], seed: int) -> float:
    """Seconds to draw the same dice, in the same order, with RandomDice and no rules."""
    dies = [DICE[d.die] for o in outcomes for d in o.dice]
    dice = RandomDice(seed)
    roll = dice.roll
    start = time.perf_counter()
    for die in dies:
        roll(die, turn=0, unit=0, rider_id=None, rule_id="")
    return time.perf_counter() - start


def peak_memory(ruleset: str, inputs: StageInputs, seed: int) -> int:
    tracemalloc.start()
    try:
        simulate(ruleset, inputs, seed)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _timed_event(gp: Any, inputs: Any, seed: int) -> tuple[float, float, float, float, Any]:
    """One event through :func:`engine.rulesets.grandprix.simulate`'s steps, timed apart:
    wall-clock and CPU seconds of the event, then of its race alone (the start grid, the race
    and the outcome, without the piles' shuffle and the qualifying), and the outcome."""
    t0, c0 = time.perf_counter(), time.process_time()
    race = gp.new_race(inputs, gp.RandomSource(seed))
    race.shuffle_piles()
    race.run_qualifying()
    t1, c1 = time.perf_counter(), time.process_time()
    race.start_grid()
    race.run_race()
    out = gp.build_outcome(
        race, gp.entry_order(inputs.cars), ruleset=gp.NAME, version=gp.VERSION, seed=seed
    )
    t2, c2 = time.perf_counter(), time.process_time()
    return t2 - t0, c2 - c0, t2 - t1, c2 - c1, out


def bench_grandprix(
    runs: int, races: int, seed: int, peer_dir: Path | None = None, outcomes: Path | None = None
) -> int:
    """Races/s (wall clock and CPU time), car-turns/s, the ratio to the same dice alone, the
    first race on a cold board (no cached runs, searches or rooms), peak memory of one race;
    with a peer (``--peer DIR``, module docstring) the peer's races interleaved with ours and
    the ratio of the two."""
    from engine.motor import CarEntry, load_document
    from engine.rulesets import grandprix as gp
    from engine.rulesets.grandprix import GrandPrixInputs
    from engine.rulesets.grandprix import board as gp_board
    from engine.rulesets.grandprix.outcome import outcome_to_json
    from engine.rulesets.grandprix.source import RandomSource
    from engine.rulesets.grandprix.track import load_track

    paths = sorted((ROOT / "motor" / "tracks" / "grandprix").glob("*.yaml"))
    cars = tuple(
        CarEntry(f"car{i + 1}", f"Driver {i + 1}", f"Team {i // 2 + 1}") for i in range(12)
    )
    inputs = [GrandPrixInputs(load_track(load_document(p)), cars) for p in paths]
    if outcomes is not None:
        return write_outcomes(inputs, runs, races, seed, outcomes, gp.simulate, outcome_to_json)
    peer = None
    if peer_dir is not None:
        from bench.grandprix_peer import PeerMissing, PeerProcess

        try:
            peer = PeerProcess(peer_dir)
        except PeerMissing as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(f"peer: {peer.description} (a process of its own)", flush=True)
        for n in range(20):  # warm-up
            peer.race(seed + n)
    gp_board.clear_boards()
    start = time.perf_counter()
    gp.simulate(inputs[0], seed)
    cold = time.perf_counter() - start
    for n in range(3 * len(inputs)):  # warm-up: boards and their caches built
        gp.simulate(inputs[n % len(inputs)], seed + n)
    rates, cpu_rates, turn_rates, ratios = [], [], [], []
    race_rates, peer_rates, peer_cpu_rates, vs, vs_race, vs_cpu = [], [], [], [], [], []
    loads = []
    for run in range(runs):
        base = seed + 100_000 * (run + 1)
        elapsed = cpu = race_elapsed = peer_elapsed = peer_cpu = 0.0
        turns = throws = peer_turns = 0
        for n in range(races):  # outcomes are not kept: the collector would time their heap
            wall, cpu_s, race_wall, _, out = _timed_event(gp, inputs[n % len(inputs)], base + n)
            elapsed += wall
            cpu += cpu_s
            race_elapsed += race_wall
            turns += out.car_turns
            throws += sum(1 for d in out.log if d.kind in ("throw", "pit", "tie"))
            del out
            if peer is not None:  # interleaved: one of ours, one of the peer's
                peer_wall, peer_cpu_s, peer_race_turns = peer.race(base + n)
                peer_turns += peer_race_turns
                peer_elapsed += peer_wall
                peer_cpu += peer_cpu_s
        source = RandomSource(base)
        t0 = time.perf_counter()
        for _ in range(throws):
            source.throw("")
        alone = time.perf_counter() - t0
        load = os.getloadavg()[0]
        loads.append(load)
        rates.append(races / elapsed)
        cpu_rates.append(races / cpu)
        race_rates.append(races / race_elapsed)
        turn_rates.append(turns / elapsed)
        ratios.append(elapsed / alone)
        line = (
            f"run {run + 1}: {elapsed:.3f} s, {races / elapsed:.1f} events/s "
            f"(race only {races / race_elapsed:.1f}/s), {turns / races:.0f} car-turns an event"
        )
        if peer is not None:
            peer_rates.append(races / peer_elapsed)
            peer_cpu_rates.append(races / peer_cpu)
            vs.append(peer_elapsed / elapsed)
            vs_race.append(peer_elapsed / race_elapsed)
            vs_cpu.append(peer_cpu / cpu)
            line += (
                f" | Flamme Rouge {races / peer_elapsed:.1f} races/s, "
                f"{peer_turns / races:.0f} rider-turns a race | ratio {vs[-1]:.2f}x "
                f"(race only {vs_race[-1]:.2f}x)"
            )
        print(f"{line}, load {load:.2f}", flush=True)
    if peer is not None:
        peer.close()
    tracemalloc.start()
    try:
        gp.simulate(inputs[0], seed)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    load = f"load average {statistics.median(loads):.2f}"
    print(
        f"ruleset grandprix: {races} events (qualifying + race, 12 cars) over "
        f"{len(paths)} tracks, median of {runs} runs"
    )
    print(f"first race, cold board ({inputs[0].track.id}): {1000 * cold:.1f} ms")
    print(f"car-turns: {statistics.median(turn_rates):,.0f} car-turns/s")
    print(f"engine cost / dice-alone cost: {statistics.median(ratios):.1f}x ({load})")
    print(f"peak memory of one race (tracemalloc): {peak / 2**20:.2f} MB")
    print(f"CPU time (this process alone): {statistics.median(cpu_rates):.1f} races/s")
    print(f"race only (no qualifying): {statistics.median(race_rates):.1f} races/s ({load})")
    print(f"speed: {statistics.median(rates):.1f} races/s ({load})")
    if peer is not None:
        print(f"Flamme Rouge: {statistics.median(peer_rates):.1f} races/s ({load})")
        print(
            f"against Flamme Rouge: event {statistics.median(vs):.2f}x, race only "
            f"{statistics.median(vs_race):.2f}x, CPU time {statistics.median(vs_cpu):.2f}x "
            f"(median of {runs} interleaved runs, {load})"
        )
    return 0


def write_outcomes(
    inputs: list[Any],
    runs: int,
    races: int,
    seed: int,
    path: Path,
    simulate_gp: Callable[[Any, int], Any],
    to_json: Callable[[Any], dict[str, Any]],
) -> int:
    """The JSON of every event the benchmark times (same tracks and seeds), one a line."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for run in range(runs):
            base = seed + 100_000 * (run + 1)
            for n in range(races):
                event = to_json(simulate_gp(inputs[n % len(inputs)], base + n))
                out.write(json.dumps(event, sort_keys=True) + "\n")
                count += 1
    print(f"{count} events written to {path}")
    return 0


def bench_ludicitude(runs: int, races: int, seed: int) -> int:
    """Races/s (wall clock and CPU time), car-turns/s and dice/s, the ratio to the same throws
    drawn alone, the first race with a cold driver cache, peak memory of one race."""
    import random

    from engine.rulesets.ludicitude import CarEntry, RaceInputs
    from engine.rulesets.ludicitude import simulate as lu_simulate
    from engine.rulesets.ludicitude.dice import SeededSpeedDice
    from engine.rulesets.ludicitude.track import load_track

    track = load_track(ROOT / "motor" / "tracks" / "ludicitude" / "anneau-exemple.yaml").track
    inputs = RaceInputs(track, tuple(CarEntry(f"lud-{i + 1}") for i in range(12)))
    start = time.perf_counter()
    lu_simulate(inputs, None, seed)
    cold = time.perf_counter() - start
    for n in range(200):  # warm-up: the default driver's choices are computed once and kept
        lu_simulate(inputs, None, seed + n)
    rates, cpu_rates, turn_rates, dice_rates, ratios = [], [], [], [], []
    for run in range(runs):
        base = seed + 1_000_000 * (run + 1)
        turns = 0
        start, cpu = time.perf_counter(), time.process_time()
        for n in range(races):  # outcomes not kept: the collector would time their heap
            turns += len(lu_simulate(inputs, None, base + n).dice)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        outs = [lu_simulate(inputs, None, base + n) for n in range(races)]  # not timed
        sizes = [len(faces) for o in outs for _, _, faces in o.dice]
        assert len(sizes) == turns
        draw = SeededSpeedDice(random.Random(base))
        t0 = time.perf_counter()
        for size in sizes:
            draw.throw(size, round_no=0, unit=0)
        alone = time.perf_counter() - t0
        rates.append(races / elapsed)
        cpu_rates.append(races / cpu)
        turn_rates.append(len(sizes) / elapsed)
        dice_rates.append(sum(sizes) / elapsed)
        ratios.append(elapsed / alone)
        print(f"run {run + 1}: {elapsed:.3f} s, {races / elapsed:,.0f} races/s, {len(sizes)} turns")
    tracemalloc.start()
    try:
        lu_simulate(inputs, None, seed)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(
        f"ruleset ludicitude: {races} races (12 cars, anneau-exemple, 2 laps, default driver), "
        f"median of {runs} runs"
    )
    print(f"first race, cold driver cache: {1000 * cold:.1f} ms")
    print(f"car-turns: {statistics.median(turn_rates):,.0f} car-turns/s")
    print(f"dice: {statistics.median(dice_rates):,.0f} dice/s")
    print(f"engine cost / throws-alone cost: {statistics.median(ratios):.1f}x")
    print(f"peak memory of one race (tracemalloc): {peak / 2**10:.0f} KB")
    print(f"CPU time (this process alone): {statistics.median(cpu_rates):,.0f} races/s")
    print(f"speed: {statistics.median(rates):,.0f} races/s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="moreno")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stages", type=Path, default=STAGES)
    parser.add_argument("--riders", type=Path, default=RIDERS)
    parser.add_argument(
        "--races", type=int, help="motor: races a run (grandprix 100, ludicitude 2000)"
    )
    parser.add_argument("--engine-from", type=Path, help="take the engine package from here")
    parser.add_argument(
        "--lean", action="store_true", help="cycling: time the lean path (the odds' runs)"
    )
    parser.add_argument(
        "--peer", type=Path, help="grandprix: a Flamme Rouge checkout, raced beside ours"
    )
    parser.add_argument(
        "--outcomes", type=Path, help="grandprix: write the timed events' JSON here, no timing"
    )
    args = parser.parse_args(argv)
    print(f"engine: pure Python, from {Path(engine.__file__).parent}", flush=True)
    if args.ruleset == "grandprix":
        return bench_grandprix(args.runs, args.races or 100, args.seed, args.peer, args.outcomes)
    if args.ruleset == "ludicitude":
        return bench_ludicitude(args.runs, args.races or 2000, args.seed)
    for path in (args.stages, args.riders):
        if not path.exists():
            print(f"error: {path} is missing (the demo Tour data)", file=sys.stderr)
            return 2
    tour = load_tour(args.stages, args.riders)
    n_riders = len(tour[0].entrants)
    run_tour(args.ruleset, tour[:2], args.seed)  # warm-up

    times, cpu_times, alone, moves_per_s, dice_per_s = [], [], [], [], []
    outcomes: list[Outcome] = []
    for run in range(args.runs):
        seed = args.seed + 1000 * run
        elapsed, cpu, outcomes = run_tour(args.ruleset, tour, seed, lean=args.lean)
        if args.lean:  # the same stages' dice, counted on the full path (not timed)
            outcomes = run_tour(args.ruleset, tour, seed)[2]
        cpu_times.append(cpu)
        moves = sum(o.rider_moves for o in outcomes)
        rolls = sum(len(o.dice) for o in outcomes)
        times.append(elapsed)
        alone.append(dice_alone(outcomes, seed) / rolls)
        moves_per_s.append(moves / elapsed)
        dice_per_s.append(rolls / elapsed)
        print(
            f"run {run + 1}: {elapsed:.3f} s, {len(tour) / elapsed:.1f} stages/s, "
            f"{moves} rider-moves, {rolls} dice",
            flush=True,
        )
    t = statistics.median(times)
    rolls_per_s = statistics.median(dice_per_s)
    alone_per_s = 1 / statistics.median(alone)
    longest = max(range(len(tour)), key=lambda i: len(outcomes[i].dice))
    peak = peak_memory(args.ruleset, tour[longest], args.seed + longest)
    stages = len(tour)
    path = ", lean path" if args.lean else ""
    print(
        f"ruleset {args.ruleset}{path}: {stages} stages x {n_riders} riders, median of "
        f"{args.runs} runs"
    )
    print(f"per stage: {1000 * t / stages:.1f} ms")
    print(f"rider-moves: {statistics.median(moves_per_s):,.0f} rider-moves/s")
    print(f"dice: {rolls_per_s:,.0f} dice/s")
    print(f"dice alone (RandomDice, no rules): {alone_per_s:,.0f} dice/s")
    print(f"engine cost / dice-alone cost: {alone_per_s / rolls_per_s:.1f}x")
    print(f"peak memory of one stage (stage {longest + 1}, tracemalloc): {peak / 2**20:.1f} MB")
    print(f"CPU time (this process alone): {stages / statistics.median(cpu_times):.1f} stages/s")
    print(f"speed: {stages / t:.1f} stages/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
