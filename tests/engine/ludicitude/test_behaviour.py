"""What a player of Ludicitude expects, over many seeded races on the example ring with the
default driver (issue 14's goals; figures in docs/ludicitude.md)."""

from __future__ import annotations

from engine.rulesets.ludicitude.playtest import playtest
from tests.engine.ludicitude.kit import ring

RACES = 500


def test_some_cars_are_eliminated_with_the_default_driver() -> None:
    report = playtest(ring(), races=RACES, risk="normal")
    assert 0.05 <= report.elimination_rate <= 0.40
    assert report.not_classified == 0


def test_aggressive_wins_more_and_safe_is_eliminated_less() -> None:
    report = playtest(ring(), races=RACES, risk="mixed")
    safe, normal, aggressive = (report.by_risk[r] for r in ("safe", "normal", "aggressive"))
    assert aggressive.wins > normal.wins > safe.wins
    assert aggressive.mean_finish_rank < safe.mean_finish_rank
    assert safe.eliminated < normal.eliminated < aggressive.eliminated


def test_the_round_1_slot_does_not_decide_the_race() -> None:
    report = playtest(ring(), races=RACES, risk="normal")
    assert report.first_slot_wins / RACES < 0.2
    assert report.last_slot_wins / RACES < 0.2
