"""The Cyclo Sim ruleset (``shared/rules/cyclosim.md``): one stage from inputs, dice and seed.

Package layout: ``orders`` (§4.1 orders, validation, §4.6 default AI), ``sheet`` (§2.3 stage
sheet, §3.9 recovery, §4.2 pace caps), ``race`` (the road, the riders, R-M4 paths, dice),
``stage`` (turns: R-T, R-A, R-R, R-F, R-AT, R-W, R-RB, R-RL, R-RC, R-X), ``finish`` (R-FT
ranking, gaps, groups), and time trials (§3.12) here.
"""

from __future__ import annotations

from engine.course import build_board
from engine.dice import DiceSource
from engine.outcome import CyclosimSettings, DiceRow, Outcome, StageInputs
from engine.rulesets.cyclosim.finish import outcome
from engine.rulesets.cyclosim.race import Race, RawEvent
from engine.rulesets.cyclosim.stage import run, start_grid

NAME = "cyclosim"
#: Bumped whenever the same inputs and seed give another outcome (rules, [D] values, default
#: AI), so a replay of an older stage can say why it differs. 2: the gruppetto.
VERSION = 2
DESCRIPTION = "Cyclo Sim: energy (PE/PI), contract auctions, drafting files, attacks, relays"


def settings_of(inputs: StageInputs) -> CyclosimSettings:
    return inputs.cyclosim if inputs.cyclosim is not None else CyclosimSettings()


def new_race(inputs: StageInputs, dice: DiceSource) -> Race:
    """A mass-start stage before the start grid (R-T3)."""
    return Race(
        build_board(inputs.course),
        inputs.entrants,
        settings=settings_of(inputs),
        dice=dice,
        distance_km=inputs.course.distance_km,
    )


def simulate(inputs: StageInputs, dice: DiceSource, seed: int) -> Outcome:
    """Resolve one stage: mass start (§3.2 - §3.11) or time trial (§3.12)."""
    stage_type = inputs.course.stage_type
    if stage_type == "ITT":
        return _itt(inputs, dice, seed)
    if stage_type == "TTT":
        return _ttt(inputs, dice, seed)
    race = new_race(inputs, dice)
    start_grid(race)
    run(race)
    return outcome(
        [race], ruleset=NAME, seed=seed, log=race.log, events=race.events, turns=race.turn
    )


def _itt(inputs: StageInputs, dice: DiceSource, seed: int) -> Outcome:
    """§3.12 ITT: each rider alone on an empty road, in start order (reverse GC), with the
    ``time_trialist`` rating on the flat."""
    board = build_board(inputs.course)
    settings = settings_of(inputs)
    log: list[DiceRow] = []
    events: list[RawEvent] = []
    races = []
    for entrant in reversed(inputs.entrants):
        race = Race(
            board,
            (entrant,),
            settings=settings,
            dice=dice,
            distance_km=inputs.course.distance_km,
            time_trial=True,
            log=log,
            events=events,
        )
        race.place(0, race.off, 0)
        run(race)
        races.append(race)
    return outcome(
        races, ruleset=NAME, seed=seed, log=log, events=events, turns=max(r.turn for r in races)
    )


def _ttt(inputs: StageInputs, dice: DiceSource, seed: int) -> Outcome:
    """§3.12 TTT: each team as one file on its own road (relays allowed), team time = time
    of its ``ttt_counting_rider``-th rider for him and those ahead; riders behind keep theirs."""
    board = build_board(inputs.course)
    settings = settings_of(inputs)
    log: list[DiceRow] = []
    events: list[RawEvent] = []
    teams: dict[int, list[int]] = {}
    for i, e in enumerate(inputs.entrants):
        teams.setdefault(e.team_id, []).append(i)
    races = []
    for team in reversed(list(teams)):
        members = tuple(inputs.entrants[i] for i in teams[team])
        race = Race(
            board,
            members,
            settings=settings,
            dice=dice,
            distance_km=inputs.course.distance_km,
            time_trial=True,
            log=log,
            events=events,
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
