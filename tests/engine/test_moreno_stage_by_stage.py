"""Moréno choices of issue 16 ("stage by stage"), with scripted dice: a crash chain stays on
the faller's case (R-X2, ``crash_chain_cases``), the abandon table scales to a smaller field
(R-A2, ``abandon_field``; docs/rules-choices.md)."""

from __future__ import annotations

import pytest

from engine.cycling.course import board_from_cases
from engine.rulesets.moreno.finish import abandon_count
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


def _field(main: int, behind: int, settings: MorenoSettings | None = None) -> Kit:
    """``main`` riders packed 4 a case from 250, ``behind`` stragglers behind them 5 cases
    apart."""
    riders = [rider(f"P{i}", 250 - i // 4) for i in range(main)]
    last = 250 - (main - 1) // 4
    riders += [rider(f"S{i}", last - 5 * (i + 1)) for i in range(behind)]
    return Kit(riders, [], settings=settings)


def test_a_small_field_reads_the_abandon_table_scaled_to_176_riders() -> None:
    # 40 riders, k = 20 behind the main peloton: the table gives A(20) = 3, half the field's
    # stragglers. Scaled: k = 20 · 176 / 40 = 88 -> A = 6, times 40 / 176 = 1.36 -> 1.
    kit = _field(20, 20)
    assert abandon_count(kit.race, kit.race.race_order()) == 1
    kit = _field(20, 20, MorenoSettings(abandon_field=0))
    assert abandon_count(kit.race, kit.race.race_order()) == 3


def test_a_field_of_the_tables_size_reads_it_as_it_stands() -> None:
    # 176 riders, k = 23: A(23) = 3 with or without scaling.
    kit = _field(153, 23)
    assert abandon_count(kit.race, kit.race.race_order()) == 3
