"""Frozen inputs and outputs."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine.cycling.inputs import Entrant
from engine.cycling.profile import Profile
from engine.outcome import DiceLog, DiceRoll
from engine.rulesets.moreno import bunch, rules, stage, timetrial
from engine.rulesets.moreno.settings import MorenoSettings


def test_profiles_refuse_ratings_outside_h_to_4() -> None:
    with pytest.raises(ValueError, match="climber must be an int rating"):
        Profile(climber=5)
    assert Profile(climber=-1).climber == -1


def test_entrants_refuse_an_unknown_role() -> None:
    with pytest.raises(ValueError, match="unknown role 'captain'"):
        Entrant(rider_id=1, team_id=1, bib=1, profile=Profile(), role="captain")


def test_inputs_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Profile().climber = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="sprint_selection"):
        MorenoSettings(sprint_selection="fastest")


def test_the_dice_log_is_an_immutable_sequence_of_dice_rolls() -> None:
    log = DiceLog([(1, 0, None, "R-P20", "d20", 3), (1, 0, 7, "R-P20.3", "dPoker", "K")])
    assert len(log) == 2
    assert log[1] == DiceRoll(1, 0, 7, "R-P20.3", "dPoker", "K")
    assert next(iter(log)).die == "d20"
    assert log[1:].rows == ((1, 0, 7, "R-P20.3", "dPoker", "K"),)
    assert log == DiceLog(log.rows)
    assert log == tuple(log)
    assert hash(log) == hash(DiceLog(log.rows))


@pytest.mark.parametrize("module", [rules, bunch, stage, timetrial])
def test_every_rule_function_names_the_rules_it_implements(module: object) -> None:
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if fn.__module__ == module.__name__ and (
            name.startswith("resolve_") or name.startswith("_") is False
        ):  # type: ignore[attr-defined]
            assert "R-" in (fn.__doc__ or "") or "§" in (fn.__doc__ or ""), name
