"""The Ludicitude ruleset (``shared/rules/ludicitude.md``): one card-track car race from
inputs, dice and seed.

Package layout: ``track`` (§3 the track model, the file's structure, V-1..V-4), ``orders``
(§7.1 orders and the [CFG] settings), ``rules`` (LU-3 .. LU-10, one car's turn), ``policy``
(§7.2 the default driver, P-1..P-3 in fractions), ``dice`` (speed dice and the round-1 draw),
``race`` (LU-1, LU-2, LU-11, LU-12: the rounds and the classification), ``outcome`` (inputs,
results, events, dice log).
"""

from __future__ import annotations

from engine.dice import DiceSource
from engine.rulesets.ludicitude.dice import speed_dice
from engine.rulesets.ludicitude.outcome import CarEntry, RaceInputs, RaceOutcome
from engine.rulesets.ludicitude.race import run_race
from engine.rulesets.ludicitude.track import GAME

NAME = GAME
#: Bumped whenever the same inputs and seed give another outcome (rules, defaults, driver).
VERSION = 2  # 2: the default driver spends its brake by the finish (policy.BRAKE_HORIZON)
DESCRIPTION = "Ludicitude: 24-card tracks, speed dice, speed limits and brake points"

__all__ = ["DESCRIPTION", "NAME", "VERSION", "CarEntry", "RaceInputs", "RaceOutcome", "simulate"]


def simulate(
    inputs: RaceInputs, dice: DiceSource | None, seed: int, *, record: bool = True
) -> RaceOutcome:
    """Resolve one race (LU-1 .. LU-12); ``dice`` None or ``RandomDice`` means seeded dice.
    ``record`` False keeps no events, dice log nor trace (:func:`run_race`)."""
    return run_race(inputs, speed_dice(dice, seed), ruleset=NAME, seed=seed, record=record)
