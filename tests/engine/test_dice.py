"""Dice faces, the seeded source, and scripted dice (moreno.md §2.4, §2.8)."""

from __future__ import annotations

import random

import pytest

from engine.cycling.course import board_from_cases
from engine.cycling.inputs import Entrant
from engine.cycling.profile import Profile
from engine.dice import (
    D6,
    D20,
    DDESC,
    DESC6,
    DESC8,
    DICE,
    DPOKER,
    DT,
    RandomDice,
    ScriptedDice,
    ScriptExhausted,
    ScriptMismatch,
    fast_index,
)
from engine.rulesets.moreno.state import Race


def test_dice_faces_are_in_the_canonical_order_of_the_spec() -> None:
    assert D6.faces == (1, 2, 3, 4, 5, 6)
    assert DT.faces == ("T", 2, 3, 4, 5, 6)
    assert DDESC.faces == ("T", "G", 3, 4, 5, 6)
    assert DPOKER.faces == ("K", "Q", "J", "A", 9, 10)
    assert D20.faces == tuple(range(1, 21))
    assert DESC6.faces == (2, 4, 8, 16, 32, 64)
    assert DESC8.faces == (10, 20, 30, 40, 50, 60, 70, 80)
    assert set(DICE) == {"d6", "dT", "dDesc", "dPoker", "d20", "dEsc6", "dEsc8"}


def test_random_dice_pin_seed_20240601_gives_the_specs_ten_d6() -> None:
    dice = RandomDice(20240601)
    faces = [dice.roll(D6, turn=1, unit=0, rider_id=None, rule_id="pin") for _ in range(10)]
    assert faces == [1, 4, 4, 4, 3, 5, 2, 4, 3, 2]


def test_the_engines_fast_draw_is_exactly_randrange_over_the_faces() -> None:
    entrant = Entrant(rider_id=1, team_id=1, bib=1, profile=Profile())
    race = Race(board_from_cases([("plain", 20)]), [entrant], dice=RandomDice(99))
    reference = random.Random(99)
    dies = [D6, DT, DDESC, DPOKER, D20, DESC6, DESC8]
    picker = random.Random(5)
    for _ in range(5000):
        die = picker.choice(dies)
        assert race.roll(die, 0, "t") == reference.randrange(len(die.faces))


def test_scripted_dice_replay_faces_and_accept_digits_as_text() -> None:
    dice = ScriptedDice(["K", "9", 10])
    roll = dice.roll
    assert roll(DPOKER, turn=1, unit=0, rider_id=3, rule_id="R-S1") == "K"
    assert roll(DPOKER, turn=1, unit=0, rider_id=3, rule_id="R-S1") == 9
    assert roll(DPOKER, turn=1, unit=0, rider_id=3, rule_id="R-S1") == 10
    assert dice.remaining == 0


def test_scripted_dice_fail_loudly_when_the_script_runs_out() -> None:
    dice = ScriptedDice([1])
    dice.roll(D6, turn=1, unit=0, rider_id=None, rule_id="x")
    with pytest.raises(ScriptExhausted, match="ran out after 1 faces"):
        dice.roll(D6, turn=2, unit=0, rider_id=None, rule_id="R-SP1")


def test_scripted_dice_fail_loudly_on_a_face_the_die_does_not_have() -> None:
    dice = ScriptedDice(["G"])
    with pytest.raises(ScriptMismatch, match="not a face of dT"):
        dice.roll(DT, turn=1, unit=0, rider_id=7, rule_id="R-C1")


def test_fast_index_is_the_one_fast_path_and_only_for_plain_random_dice() -> None:
    index = fast_index(RandomDice(7))
    assert index is not None
    reference = random.Random(7)
    picker = random.Random(11)
    for _ in range(5000):
        die = picker.choice(list(DICE.values()))
        assert index(die) == reference.randrange(len(die.faces))

    class Loaded(RandomDice):
        pass

    assert fast_index(Loaded(7)) is None
    assert fast_index(ScriptedDice([])) is None


def test_cyclo_sim_pairs_of_d6_are_the_seeded_faces() -> None:
    from engine.rulesets.cyclosim.race import Race as CyclosimRace
    from engine.rulesets.cyclosim.settings import CyclosimSettings

    entrant = Entrant(rider_id=1, team_id=1, bib=1, profile=Profile())
    race = CyclosimRace(
        board_from_cases([("plain", 20)]),
        [entrant],
        settings=CyclosimSettings(),
        dice=RandomDice(99),
        distance_km=10,
    )
    reference = random.Random(99)
    for _ in range(500):
        want = reference.randrange(6) + 1 + reference.randrange(6) + 1
        assert race.roll2d6(0, "t") == want
