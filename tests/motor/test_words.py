"""Every code the Grand Prix engine writes (retirements, no-time reasons, incident cards) has
words on the pages: a new code in the engine fails here until it is labelled."""

import ast
from pathlib import Path

import pytest

from engine.rulesets.grandprix import cards
from engine.rulesets.grandprix import race as gp_race
from motor.words import INCIDENT_CARDS, REASONS, card_label, event_text, reason_label


def _engine_reason_codes() -> set[str]:
    """The upper-case string constants of the engine's race module (its reason codes), and
    any upper-case literal passed to ``retire`` or ``QualifyingRun``."""
    tree = ast.parse(Path(gp_race.__file__).read_text(encoding="utf-8"))
    codes = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.AnnAssign | ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.value.value.isupper()
        ):
            codes.add(node.value.value)
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("retire", "QualifyingRun"):
                codes.update(
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
    return codes


def test_every_retirement_and_no_time_code_has_a_label():
    codes = _engine_reason_codes()
    assert {"ENGINE", "OUT_OF_FUEL", "TURNS"} <= codes
    assert codes <= set(REASONS), codes - set(REASONS)


def test_every_incident_card_has_a_label():
    assert set(cards.INCIDENTS.values()) == set(INCIDENT_CARDS)


@pytest.mark.parametrize(
    ("code", "words"),
    [("OUT_OF_FUEL", "out of fuel"), ("ENGINE", "engine failure"), ("Halfshaft", "Halfshaft")],
)
def test_reasons_read_as_words_and_real_ones_stay_as_imported(code, words):
    assert reason_label(code) == words


def test_cards_and_events_read_as_words():
    assert card_label("WRONG_TYRES") == "wrong tyres"
    assert card_label("SPEED1") == "speed card"
    assert event_text("incident", {"card": "WRONG_TYRES"}) == "incident card: wrong tyres"
    assert event_text("retired", {"reason": "OUT_OF_FUEL"}) == "retired: out of fuel"
    assert event_text("skid", {"into": "B46"}) == "skid to square 46, lane B"
    assert event_text("skid", {"into": "wall"}) == "skid into the wall"
    assert event_text("track_exit", {"corner": "3"}) == "track exit at corner 3"


def test_ludicitudes_reasons_with_their_figures_are_said_in_french():
    from django.utils import translation

    from motor.words import reason_label

    with translation.override("fr"):
        assert reason_label("brake ran out on card 7 (S2) in round 12") == (
            "plus de frein sur la carte 7 (S2) au tour de table 12"
        )
        assert reason_label("still racing after 40 rounds") == (
            "encore en course après 40 tours de table"
        )
        assert reason_label("Halfshaft") == "Halfshaft"  # a real result's reason, as stored
