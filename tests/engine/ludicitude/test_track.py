"""Ludicitude track files (§3.1) and their validation V-1..V-4, through the motor track-file
mechanism: every fault names the rule, the card, the field and the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.motor import TrackError, parse_document
from engine.rulesets.ludicitude.track import (
    N_CARDS,
    TrackCard,
    check_cards,
    check_spread,
    load_track,
    parse_card,
    recovery_gaps,
    track_from_data,
    track_from_document,
    track_to_data,
)
from tests.engine.ludicitude.kit import RING_FILE, TRACKS

RING_TEXT = RING_FILE.read_text(encoding="utf-8")


def _with_card(index: int, card: str, text: str = RING_TEXT) -> str:
    """The ring's text with card ``index`` replaced (its ``# n`` comment keeps the line)."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if (line.startswith("  - ") and line.rstrip().endswith(f"# {index}")) or (
            line.startswith("  - ") and f"# {index} " in line
        ):
            lines[k] = f"  - {card}  # {index}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"card {index} not found")


def _faults(text: str) -> list[str]:
    with pytest.raises(TrackError) as err:
        track_from_document(parse_document(text, "t.yaml"))
    return [str(f) for f in err.value.faults]


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_example_ring_is_valid_with_even_recovery_gaps() -> None:
    loaded = load_track(RING_FILE)
    track = loaded.track
    assert (track.id, track.circuit, track.laps, len(track.cards)) == (
        "anneau-exemple",
        "closed",
        2,
        N_CARDS,
    )
    assert track.finish() == 48
    assert loaded.warnings == ()
    assert [g for _, _, g in recovery_gaps(track.cards, "closed")] == [6, 6, 6, 6]
    assert loaded.content_hash.startswith("sha256:")
    assert track.cards[16] == TrackCard(min=2, max=4)
    assert track.cards[5] == TrackCard(gain=3)


def test_the_example_ring_is_the_one_of_the_spec() -> None:
    # ludicitude.md §3.2, card by card.
    spec = (
        "START PLAIN PLAIN MAX4 MAX2 BRAKE+3 MAX3 PLAIN MIN3 MIN4 MIN3 BRAKE+3 MAX4 MAX2 MAX3 "
        "PLAIN MIN2_MAX4 BRAKE+3 PLAIN MAX3 MAX2 PLAIN PLAIN BRAKE+3"
    )
    track = load_track(RING_FILE).track
    assert [c.label for c in track.cards] == [t.replace("_", " ") for t in spec.split()]
    assert (track.name, track.laps) == ("Anneau d'exemple", 2)


@pytest.mark.parametrize("path", sorted(TRACKS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_track_is_valid(path: Path) -> None:
    loaded = load_track(path)
    assert loaded.track.id == path.stem
    assert loaded.warnings == ()


def test_json_with_the_same_structure_gives_the_same_track_and_hash(tmp_path: Path) -> None:
    yaml_loaded = load_track(RING_FILE)
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(track_to_data(yaml_loaded.track), indent=2), encoding="utf-8")
    json_loaded = load_track(path)
    assert json_loaded.track == yaml_loaded.track
    assert (
        json_loaded.content_hash == track_from_data(track_to_data(yaml_loaded.track)).content_hash
    )


def test_v1_card_0_must_be_start_and_only_card_0() -> None:
    text = _with_card(0, "PLAIN")
    text = _with_card(7, "START", text)
    faults = _faults(text)
    assert faults == [
        f"line {_line_of(text, '# 0')}: V-1 card 0, field cards[0]: card 0 must be START, "
        "got PLAIN",
        f"line {_line_of(text, '# 7')}: V-1 card 7, field cards[7]: only card 0 may be START",
    ]


def test_v1_exactly_24_cards() -> None:
    text = RING_TEXT.replace("  - BRAKE+3    # 23\n", "")
    faults = _faults(text)
    assert faults[0].endswith("V-1, field cards: a track has exactly 24 cards, got 23")
    assert faults[0].startswith(f"line {_line_of(text, '# 0')}:")  # where the list starts


def test_v2_max2_next_to_min3_is_refused_naming_both_cards() -> None:
    text = _with_card(7, "MIN3")  # card 6 is MAX3 ... 7 becomes MIN3: they meet at 3, fine
    text = _with_card(5, "MIN3", text)  # card 4 is MAX2: [0,2] and [3,6] do not overlap
    faults = _faults(text)
    assert faults == [
        f"line {_line_of(text, '# 5')}: V-2 card 5, field cards[5]: card 5 (MIN3, speeds 3-6) "
        "is not compatible with card 4 (MAX2, speeds 0-2): their speeds do not overlap"
    ]


def test_v2_on_cards_built_in_code() -> None:
    # The pair 23-0 is checked on a closed circuit too, but card 0 is START ([0,6]), which
    # overlaps every interval: that pair can never fail.
    cards = [TrackCard(start=True), *[TrackCard() for _ in range(21)], TrackCard(max=2)]
    cards.append(TrackCard(min=3))
    for circuit in ("closed", "open"):
        assert [(f.rule, f.place) for f in check_cards(cards, circuit)] == [("V-2", "card 23")]


def test_v3_min_above_max_is_an_error() -> None:
    text = _with_card(16, "MIN4 MAX2")
    faults = _faults(text)
    assert faults[0] == (
        f"line {_line_of(text, '# 16')}: V-3 card 16, field cards[16]: "
        "MIN4 MAX2: min 4 is above max 2"
    )


def test_v4_uneven_recovery_cards_give_a_warning_not_an_error() -> None:
    text = _with_card(11, "PLAIN")  # gaps 6/12/6 with k = 3 -> even 8, 12 is 4 off
    text = _with_card(23, "BRAKE+3", text)
    loaded = track_from_document(parse_document(text, "t.yaml"))
    assert [str(w) for w in loaded.warnings] == [
        f"line {_line_of(text, '# 17')}: V-4 card 17, field cards[17]: 12 cards from recovery "
        "card 5 to recovery card 17; with 3 recovery cards an even spread is 8 ± 2 (a warning)"
    ]


def test_v4_open_circuits_do_not_wrap_around() -> None:
    cards = [TrackCard(start=True), *[TrackCard() for _ in range(23)]]
    cards[3] = TrackCard(gain=2)
    cards[15] = TrackCard(gain=2)
    # k = 2, even 12: the gap 3 -> 15 is 12; the wrap 15 -> 3 (12) only exists when closed.
    assert check_spread(cards, "open") == []
    cards[15] = TrackCard()
    cards[20] = TrackCard(gain=2)
    assert [f.place for f in check_spread(cards, "open")] == ["card 20"]
    assert [f.place for f in check_spread(cards, "closed")] == ["card 20", "card 3"]


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("START", TrackCard(start=True)),
        ("PLAIN", TrackCard()),
        ("MAX2", TrackCard(max=2)),
        ("min3", TrackCard(min=3)),
        ("MIN2 MAX4", TrackCard(min=2, max=4)),
        ("BRAKE+2 MAX4", TrackCard(max=4, gain=2)),
        ("BRAKE+9", TrackCard(gain=9)),
    ],
)
def test_card_tokens(text: str, card: TrackCard) -> None:
    assert parse_card(text, 3) == card
    assert parse_card(card.label, 3) == card


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("MAX7", "MAX7: a speed limit is 1..6"),
        ("BRAKE+10", "BRAKE+10: a recovery gives 1..9 brake points"),
        ("TURBO", "unknown token 'TURBO'"),
        ("PLAIN MAX3", "PLAIN stands alone on a card"),
        ("MAX3 MAX4", "two MAX tokens"),
        (3, "3 is not a card"),
    ],
)
def test_bad_card_tokens_are_schema_faults_of_their_card(text: object, message: str) -> None:
    fault = parse_card(text, 9)
    assert not isinstance(fault, TrackCard)
    assert (fault.rule, fault.place, fault.field) == ("SCHEMA", "card 9", "cards[9]")
    assert message in fault.message


def test_every_fault_of_a_file_is_reported_at_once() -> None:
    text = RING_TEXT.replace("circuit: closed", "circuit: ring").replace(
        "format_version: 1", "format_version: 2"
    )
    text = _with_card(3, "MAX9", text)
    faults = _faults(text)
    assert len(faults) == 3
    assert any("format_version" in f and "2 is more than the maximum 1" in f for f in faults)
    assert any("field circuit" in f and "'ring' is not one of closed, open" in f for f in faults)
    assert any("card 3, field cards[3]" in f and "MAX9" in f for f in faults)


def test_an_open_circuit_is_raced_once() -> None:
    text = RING_TEXT.replace("circuit: closed", "circuit: open")
    faults = _faults(text)
    assert faults == [
        f"line {_line_of(text, 'laps:')}: T-3, field laps: an open circuit is raced once, "
        "got 2 laps"
    ]
    ok = track_from_document(parse_document(text.replace("laps: 2\n", ""), "t.yaml"))
    assert ok.track.laps == 1
    assert ok.track.finish() == 24


def test_another_game_is_refused() -> None:
    faults = _faults(RING_TEXT.replace("game: ludicitude", "game: grandprix"))
    assert "'grandprix' is not 'ludicitude'" in faults[0]
