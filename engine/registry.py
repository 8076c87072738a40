"""The rulesets by name, and the one entry point the rest of the project calls."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.dice import DiceSource, RandomDice
from engine.outcome import Outcome, StageInputs
from engine.rulesets import cyclosim, moreno

SimulateFn = Callable[[StageInputs, DiceSource, int], Outcome]


class UnknownRuleset(ValueError):
    """A ruleset name that is not registered."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A registered ruleset: its name, a line about it, its ``simulate``, and the version of
    its outcomes (the same inputs and seed give the same outcome within one version)."""

    name: str
    description: str
    simulate: SimulateFn
    version: int


RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        moreno.NAME: Ruleset(moreno.NAME, moreno.DESCRIPTION, moreno.simulate, moreno.VERSION),
        cyclosim.NAME: Ruleset(
            cyclosim.NAME, cyclosim.DESCRIPTION, cyclosim.simulate, cyclosim.VERSION
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


def simulate(
    ruleset_name: str, inputs: StageInputs, seed: int, *, dice: DiceSource | None = None
) -> Outcome:
    """Resolve one stage with the named ruleset; dice default to ``RandomDice(seed)``."""
    ruleset = get_ruleset(ruleset_name)
    return ruleset.simulate(inputs, dice if dice is not None else RandomDice(seed), seed)
