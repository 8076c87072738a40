"""Moréno choices of issue 16 ("stage by stage"), with scripted dice: a crash chain stays on
the faller's case (R-X2, ``crash_chain_cases``; docs/rules-choices.md)."""

from __future__ import annotations

import pytest

from engine.cycling.course import board_from_cases
from engine.rulesets.moreno.rules import resolve_descender, resolve_pair
from engine.rulesets.moreno.settings import MorenoSettings
from tests.engine.moreno_kit import SPEC_CHAIN, Kit, rider

DESCENT_AT_150 = board_from_cases([("plain", 150), ("descent", 100), ("plain", 50)])


def test_a_crash_chain_takes_riders_of_the_fallers_case_not_the_case_behind() -> None:
    # H descender X shows three greens and falls on 160 (R-D3); Y behind him on 160 rolls Q
    # and falls; Z on 159 is not a candidate by default: no die for him.
    riders = [rider("X", 160, descender=-1), rider("Y", 160), rider("Z", 159)]
    kit = Kit(riders, ["G", "G", "G", "Q"], board=DESCENT_AT_150)
    kit.start_turn()
    resolve_descender(kit.race, kit["X"])
    assert kit.fallen("X")
    assert kit.fallen("Y")
    assert not kit.fallen("Z")
    assert kit.pos("Z") == 159
    assert kit.done()
    assert [r[1] for r in kit.dice.rolls] == ["R-D1"] * 3 + ["R-X2"]


def test_with_the_spec_reading_the_chain_goes_on_to_the_case_behind() -> None:
    riders = [rider("X", 160, descender=-1), rider("Y", 160), rider("Z", 159)]
    kit = Kit(riders, ["G", "G", "G", "Q", "K"], board=DESCENT_AT_150, settings=SPEC_CHAIN)
    kit.start_turn()
    resolve_descender(kit.race, kit["X"])
    assert kit.fallen("Z")
    assert kit.done()


def test_a_pair_partner_on_the_case_behind_rides_on_as_a_solo() -> None:
    # M7's pair: A (120) crashes on 1-A confirmed by 1. B (119) is not on A's case: no chain
    # roll, he rides as a solo (R-S2): d6 4 + dPoker 9 = 13 -> 132.
    kit = Kit([rider("A", 120), rider("B", 119)], [1, "A", 1, 4, 9])
    kit.start_turn()
    resolve_pair(kit.race, kit["A"], kit["B"])
    assert kit.fallen("A")
    assert not kit.fallen("B")
    assert kit.pos("B") == 132
    assert kit.done()


def test_crash_chain_cases_is_one_or_two() -> None:
    assert MorenoSettings().crash_chain_cases == 1
    with pytest.raises(ValueError, match="crash_chain_cases"):
        MorenoSettings(crash_chain_cases=3)
