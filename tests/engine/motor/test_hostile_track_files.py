"""A track file is read within bounds: size, aliases, depth, tags and keys are refused by name,
at once, before anything is built from the file (an admin upload and the command line read it
through the same parse_document)."""

import pytest

from engine.motor import TrackError, parse_document
from engine.motor.trackfile import MAX_BYTES, MAX_DEPTH


def _alias_bomb() -> str:
    # Nine aliases of the level before on each of eight levels: 9**9 values once expanded.
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for level in range(8):
        before, name = chr(97 + level), chr(98 + level)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{before}"] * 9) + "]")
    return "\n".join(lines)


ALIAS_BOMB = _alias_bomb()


def refusal(text: str, *, json_format: bool = False) -> str:
    with pytest.raises(TrackError) as refused:
        parse_document(text, "hostile.yaml", json_format=json_format)
    return str(refused.value)


def test_an_alias_bomb_is_refused_at_once():
    assert len(ALIAS_BOMB.encode()) < 1000
    assert "aliases" in refusal(ALIAS_BOMB)


@pytest.mark.parametrize("json_format", [False, True])
def test_nesting_fifty_thousand_deep_is_refused_by_its_depth(json_format):
    deep = "[" * 50_000 + "]" * 50_000
    assert f"nested more than {MAX_DEPTH} levels" in refusal(deep, json_format=json_format)


@pytest.mark.parametrize(
    "text",
    [
        "corners: !!set {a, b}",
        "name: !!python/object:os.system ls",
        "laps: !!int 3",
    ],
)
def test_a_tag_is_refused(text):
    assert "tags" in refusal(text)


@pytest.mark.parametrize("text", ["1: x", "true: x", "null: x", "laps: {3: x}", "? [a, b]\n: x"])
def test_a_key_that_is_not_a_name_is_refused(text):
    assert "every key of a mapping must be a name" in refusal(text)


def test_a_quoted_key_is_a_name():
    assert parse_document('"1": x').data == {"1": "x"}


def test_a_file_too_big_is_refused_before_it_is_read():
    text = "name: " + "x" * MAX_BYTES
    assert f"at most {MAX_BYTES}" in refusal(text)
