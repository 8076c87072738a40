"""The rulesets by name, and the one entry point the rest of the project calls.

A ruleset has a ``discipline``: ``cycling`` rulesets resolve a stage (``simulate(inputs,
dice, seed) -> Outcome`` over :class:`~engine.outcome.StageInputs`); ``motor`` rulesets
(Grand Prix, Ludicitude) race cars on a track file and provide a
:class:`~engine.motor.MotorHooks` instead (``motor=``): its track schema (``load_track``,
``track_summary``, the ``game`` of its files), its cars and orders (``max_cars``,
``team_size``, ``parse_orders``), ``simulate(track, cars, orders, seed, laps)``, the outcome
as JSON and as a table, and ``playtest``. The command line dispatches through these, so a
motor game registers with one entry here and needs no other edit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.dice import DiceSource, RandomDice
from engine.motor import MotorHooks
from engine.outcome import Outcome, StageInputs
from engine.rulesets import cyclosim, grandprix, ludicitude, moreno
from engine.rulesets.grandprix.hooks import HOOKS as GRANDPRIX_HOOKS
from engine.rulesets.ludicitude.hooks import HOOKS as LUDICITUDE_HOOKS

SimulateFn = Callable[[StageInputs, DiceSource, int], Outcome]
CYCLING, MOTOR = "cycling", "motor"


class UnknownRuleset(ValueError):
    """A ruleset name that is not registered."""


class WrongDiscipline(ValueError):
    """A ruleset asked for what its discipline does not do (a stage from a motor ruleset)."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A registered ruleset: its name, a line about it, its stage ``simulate`` (cycling; None
    for motor), and the version of its outcomes (the same inputs and seed give the same
    outcome within one version); ``discipline`` and, for motor rulesets, ``motor``."""

    name: str
    description: str
    simulate: SimulateFn | None
    version: int
    discipline: str = CYCLING
    motor: MotorHooks | None = None


RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        moreno.NAME: Ruleset(moreno.NAME, moreno.DESCRIPTION, moreno.simulate, moreno.VERSION),
        cyclosim.NAME: Ruleset(
            cyclosim.NAME, cyclosim.DESCRIPTION, cyclosim.simulate, cyclosim.VERSION
        ),
        grandprix.NAME: Ruleset(
            grandprix.NAME,
            grandprix.DESCRIPTION,
            None,
            grandprix.VERSION,
            discipline=MOTOR,
            motor=GRANDPRIX_HOOKS,
        ),
        ludicitude.NAME: Ruleset(
            ludicitude.NAME,
            ludicitude.DESCRIPTION,
            None,
            ludicitude.VERSION,
            discipline=MOTOR,
            motor=LUDICITUDE_HOOKS,
        ),
    }
)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; :class:`UnknownRuleset` lists the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}") from None


def motor_ruleset(name: str) -> tuple[Ruleset, MotorHooks]:
    """The motor ruleset ``name`` and its hooks; :class:`WrongDiscipline` for a cycling one."""
    ruleset = get_ruleset(name)
    if ruleset.motor is None:
        raise WrongDiscipline(f"ruleset {name!r} is a {ruleset.discipline} ruleset, not motor")
    return ruleset, ruleset.motor


def ruleset_for_game(game: object) -> Ruleset | None:
    """The motor ruleset whose track files say ``game: <game>``."""
    for ruleset in RULESETS.values():
        if ruleset.motor is not None and ruleset.motor.game == game:
            return ruleset
    return None


def simulate(
    ruleset_name: str, inputs: StageInputs, seed: int, *, dice: DiceSource | None = None
) -> Outcome:
    """Resolve one stage with the named ruleset; dice default to ``RandomDice(seed)``."""
    ruleset = get_ruleset(ruleset_name)
    if ruleset.simulate is None:
        raise WrongDiscipline(
            f"ruleset {ruleset_name!r} is a {ruleset.discipline} ruleset: it races on a track "
            "(see engine.motor.MotorHooks), not a stage"
        )
    return ruleset.simulate(inputs, dice if dice is not None else RandomDice(seed), seed)
