"""The registry and the one entry point."""

from __future__ import annotations

import pytest

from engine import RULESETS, UnknownRuleset, get_ruleset, simulate
from engine.cycling.course import Course, Segment
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.profile import Profile
from engine.dice import ScriptedDice


def test_moreno_is_registered() -> None:
    assert "moreno" in RULESETS
    assert get_ruleset("moreno").name == "moreno"


def test_an_unknown_ruleset_is_a_value_error_listing_the_known_ones() -> None:
    known = ", ".join(sorted(RULESETS))
    assert {"cyclosim", "grandprix", "moreno"} <= set(RULESETS)
    with pytest.raises(UnknownRuleset, match=rf"unknown ruleset 'chess'; known rulesets: {known}$"):
        get_ruleset("chess")
    assert issubclass(UnknownRuleset, ValueError)


def test_simulate_accepts_injected_dice() -> None:
    course = Course("c", "flat", 6, (Segment("plain", 6),))
    inputs = StageInputs(
        course, (Entrant(rider_id=7, team_id=1, bib=1, profile=Profile(rouleur=1)),)
    )
    out = simulate("moreno", inputs, 0, dice=ScriptedDice([6, 10]))
    assert out.results[0].rider_id == 7
    assert [d.face for d in out.dice] == [6, 10]
    assert out.turns == 1
