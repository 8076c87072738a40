"""The Moréno ruleset (``shared/rules/moreno.md``): one stage from inputs, dice and seed.

Package layout: ``tables`` (§2.4-2.5 values), ``state`` (the board and the riders on it,
place/pack/file, crashes and chains), ``rules`` (climbs, descents, restarts, solo, pair,
sprint, close-up), ``bunch`` (the d20 table), ``stage`` (turns), ``finish`` (ranking, gaps,
abandons), ``timetrial`` (ITT, TTT).
"""

from __future__ import annotations

from engine.course import build_board
from engine.dice import DiceSource
from engine.outcome import Outcome, StageInputs
from engine.rulesets.moreno.finish import (
    abandons,
    chain_groups,
    neutralise,
    outcome,
    stage_gaps,
)
from engine.rulesets.moreno.stage import run, start_grid
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.timetrial import run_itt, run_ttt

NAME = "moreno"
#: Bumped whenever the same inputs and seed give another outcome (rules, [D] values).
VERSION = 1
DESCRIPTION = "Moréno: 8-axis profiles, climbs, descents, the d20 bunch table, crashes, sprint"


def new_race(inputs: StageInputs, dice: DiceSource) -> Race:
    """The stage's state before the start (riders not on the board yet)."""
    return Race(
        build_board(inputs.course),
        inputs.entrants,
        dice=dice,
        settings=inputs.settings,
        yellow_jersey=inputs.yellow_jersey,
        green_jersey=inputs.green_jersey,
    )


def simulate(inputs: StageInputs, dice: DiceSource, seed: int) -> Outcome:
    """Resolve one stage (moreno.md §3): mass start (R-T1 .. R-A5) or time trial (R-TT)."""
    race = new_race(inputs, dice)
    stage_type = inputs.course.stage_type
    if stage_type in ("ITT", "TTT"):
        race.time_trial = True
        tt = run_itt(race) if stage_type == "ITT" else run_ttt(race)
        return outcome(
            race,
            ruleset=NAME,
            seed=seed,
            order=tt.order,
            gaps=tt.gaps,
            groups=tt.groups,
            final_case=tt.final_case,
            quits=(),
            turns=tt.turns,
        )
    start_grid(race)
    order, _ = run(race)
    return finish_mass_start(race, order, seed)


def finish_mass_start(race: Race, order: list[int], seed: int) -> Outcome:
    """R-F1 .. R-F3, §4 neutralisation and groups, R-A abandons."""
    gaps = stage_gaps(race, order)
    neutralise(race, gaps)
    pos = race.pos
    groups = chain_groups([pos[r] for r in order], race.settings.group_free_cases)
    quits = abandons(race, order, gaps)
    return outcome(
        race,
        ruleset=NAME,
        seed=seed,
        order=order,
        gaps=gaps,
        groups=groups,
        final_case=list(pos),
        quits=quits,
        turns=race.turn,
    )
