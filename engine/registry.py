"""The rulesets by name (one line each), and the one entry point the rest of the project calls.

Every ruleset is one :class:`~engine.ruleset.Ruleset`. ``cycling`` rulesets resolve a stage
(``simulate(inputs, dice, seed) -> Outcome`` over :class:`~engine.cycling.inputs.StageInputs`
with their own settings and per-rider types); ``motor`` rulesets (Grand Prix, Ludicitude) race
cars on a track file through their :class:`~engine.motor.MotorHooks` (``motor=``): its track
schema, its cars and orders, ``simulate(track, cars, orders, seed, laps)``, the outcome as
JSON and as a table, and ``playtest``. The command line dispatches through these, so a game
registers with one line here and needs no other edit of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from engine.cycling.inputs import StageInputs
from engine.cycling.outcome import Outcome
from engine.dice import DiceSource, RandomDice
from engine.motor import MotorHooks
from engine.ruleset import CYCLING, MOTOR, Ruleset
from engine.rulesets import cyclosim, grandprix, ludicitude, moreno
from engine.rulesets.grandprix.ruleset import RULESET as GRANDPRIX
from engine.rulesets.ludicitude.ruleset import RULESET as LUDICITUDE

__all__ = [
    "CYCLING",
    "MOTOR",
    "RULESETS",
    "CyclingRuleset",
    "Ruleset",
    "UnknownRuleset",
    "WrongDiscipline",
    "cycling_ruleset",
    "get_ruleset",
    "motor_ruleset",
    "ruleset_for_game",
    "simulate",
]

#: A cycling ruleset as its callers see it: stage inputs in, a stage outcome out.
CyclingRuleset = Ruleset[StageInputs[Any, Any], Outcome, Any]


class UnknownRuleset(ValueError):
    """A ruleset name that is not registered."""


class WrongDiscipline(ValueError):
    """A ruleset asked for what its discipline does not do (a stage from a motor ruleset)."""


def _motor(name: str, description: str, version: int, hooks: MotorHooks) -> Ruleset[Any, Any, Any]:
    return Ruleset(name, description, version, MOTOR, motor=hooks)


RULESETS: Mapping[str, Ruleset[Any, Any, Any]] = MappingProxyType(
    {
        moreno.NAME: moreno.RULESET,
        cyclosim.NAME: cyclosim.RULESET,
        grandprix.NAME: GRANDPRIX,
        ludicitude.NAME: LUDICITUDE,
    }
)


def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset called ``name``; :class:`UnknownRuleset` lists the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}") from None


def cycling_ruleset(name: str) -> CyclingRuleset:
    """The cycling ruleset ``name``; :class:`WrongDiscipline` for a motor one."""
    ruleset = get_ruleset(name)
    if ruleset.discipline != CYCLING:
        raise WrongDiscipline(
            f"ruleset {name!r} is a {ruleset.discipline} ruleset: it races on a track "
            "(see engine.motor.MotorHooks), not a stage"
        )
    return cast(CyclingRuleset, ruleset)


def motor_ruleset(name: str) -> tuple[Ruleset[Any, Any, Any], MotorHooks]:
    """The motor ruleset ``name`` and its hooks; :class:`WrongDiscipline` for a cycling one."""
    ruleset = get_ruleset(name)
    if ruleset.motor is None:
        raise WrongDiscipline(f"ruleset {name!r} is a {ruleset.discipline} ruleset, not motor")
    return ruleset, ruleset.motor


def ruleset_for_game(game: object) -> Ruleset[Any, Any, Any] | None:
    """The motor ruleset whose track files say ``game: <game>``."""
    for ruleset in RULESETS.values():
        if ruleset.motor is not None and ruleset.motor.game == game:
            return ruleset
    return None


def simulate(
    ruleset_name: str,
    inputs: StageInputs[Any, Any],
    seed: int,
    *,
    dice: DiceSource | None = None,
    lean: bool = False,
) -> Outcome:
    """Resolve one stage with the named cycling ruleset; dice default to ``RandomDice(seed)``.

    ``lean``: the ruleset's lean path (the odds' runs): the same results, turns and rider-moves
    for the same seed, with an empty dice log and, of the events, only the summit and
    intermediate sprint lines (:data:`engine.cycling.events.LINE_EVENTS`).

    The inputs' settings must be the ruleset's own type (or None, its defaults): a
    ``ValueError`` says so otherwise, as it does for extras of another ruleset's type.
    """
    ruleset = cycling_ruleset(ruleset_name)
    settings_type = ruleset.settings_type
    if inputs.settings is not None and settings_type and type(inputs.settings) is not settings_type:
        raise ValueError(
            f"ruleset {ruleset_name!r} takes {settings_type.__name__}, "
            f"not {type(inputs.settings).__name__}"
        )
    hooks = ruleset.cycling
    if hooks is not None and inputs.extras:
        rider_type = type(hooks.rider.default)
        wrong = [rid for rid, x in inputs.extras.items() if type(x) is not rider_type]
        if wrong:
            raise ValueError(
                f"ruleset {ruleset_name!r} takes {rider_type.__name__} extras; rider "
                f"{wrong[0]} has {type(inputs.extras[wrong[0]]).__name__}"
            )
    run = ruleset.simulate_lean if lean and ruleset.simulate_lean else ruleset.simulate
    assert run is not None
    return run(inputs, dice if dice is not None else RandomDice(seed), seed)
