"""The shared motor track-file mechanism: lines, faults, hashes, cars and orders files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.motor import (
    EntryError,
    Faults,
    TrackError,
    check_game,
    content_hash,
    load_document,
    parse_document,
    read_cars,
    read_orders,
)

YAML = """game: somegame
length: 30
corners:
  - {id: T1, marked: 8, zone: [6, 9]}
  - id: T2
    marked: x
"""


def test_values_know_their_line_and_missing_paths_fall_back_to_the_parent() -> None:
    doc = parse_document(YAML, "t.yaml")
    assert doc.line("length") == 2
    assert doc.line("corners", 0, "zone", 1) == 4
    assert doc.line("corners", 1, "marked") == 6
    assert doc.line("corners", 1, "rejoin") == 5


def test_every_fault_is_reported_at_once_with_file_line_rule_place_and_field() -> None:
    faults = Faults(parse_document(YAML, "t.yaml"))
    assert check_game(faults, "somegame")
    faults.integer(("length",), minimum=40)
    faults.integer(("corners", 1, "marked"), place="corner T2")
    faults.add("V2", "corner T1", "corners[0].zone", "overlaps", path=("corners", 0, "zone"))
    with pytest.raises(TrackError) as caught:
        faults.check()
    assert str(caught.value).splitlines() == [
        "t.yaml line 2: SCHEMA, field length: 30 is below 40",
        "t.yaml line 6: SCHEMA corner T2, field corners[1].marked: 'x' is not a whole number",
        "t.yaml line 4: V2 corner T1, field corners[0].zone: overlaps",
    ]
    assert [f.rule for f in caught.value.faults] == ["SCHEMA", "SCHEMA", "V2"]


def test_a_document_of_another_game_is_refused() -> None:
    faults = Faults(parse_document(YAML, "t.yaml"))
    assert not check_game(faults, "grandprix")
    assert str(faults.faults[0]) == "line 1: SCHEMA, field game: 'somegame' is not 'grandprix'"


def test_syntax_errors_and_duplicate_keys_name_the_line() -> None:
    with pytest.raises(TrackError, match=r"^d.yaml line 2: FILE: key 'a' appears twice"):
        parse_document("a: 1\na: 2\n", "d.yaml")
    with pytest.raises(TrackError, match=r"^d.yaml line 2: FILE: invalid YAML"):
        parse_document("a: [1, 2\nb: 3\n", "d.yaml")
    with pytest.raises(TrackError, match=r"^d.json line 1: FILE: invalid JSON"):
        parse_document('{"a": 1,}', "d.json", json_format=True)


def test_yaml_does_not_construct_python_objects() -> None:
    with pytest.raises(TrackError, match="FILE"):
        parse_document("a: !!python/object/apply:os.system ['true']\n", "evil.yaml")


def test_the_content_hash_ignores_layout_comments_and_format(tmp_path: Path) -> None:
    yaml_doc = parse_document(YAML + "# a comment\n", "t.yaml")
    as_json = (
        '{"length": 30, "game": "somegame", "corners": [{"id": "T1", "marked": 8, '
        '"zone": [6, 9]}, {"id": "T2", "marked": "x"}]}'
    )
    path = tmp_path / "t.json"
    path.write_text(as_json, encoding="utf-8")
    json_doc = load_document(path)
    assert yaml_doc.content_hash == json_doc.content_hash == content_hash(json_doc.data)
    assert json_doc.line("corners", 1) == 1
    changed = parse_document(YAML.replace("30", "31"), "t.yaml")
    assert changed.content_hash != yaml_doc.content_hash


def test_a_missing_file_is_one_fault(tmp_path: Path) -> None:
    with pytest.raises(TrackError, match=r"nope.yaml FILE: no such file"):
        load_document(tmp_path / "nope.yaml")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cars_are_read_in_entry_order_with_teams_of_two(tmp_path: Path) -> None:
    path = write(tmp_path, "cars.csv", "id,driver,team\nr1,A,Red\nr2,B,Red\nb1,C,Blue\nb2,D,Blue\n")
    cars = read_cars(path)
    assert [c.car_id for c in cars] == ["r1", "r2", "b1", "b2"]
    assert cars[2].team == "Blue"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,driver\nr1,A\n", "line 1, field team: missing column"),
        ("id,driver,team\nr1,A,Red\nr1,B,Red\n", "line 3, field id: 'r1' already used on line 2"),
        ("id,driver,team\nr1,,Red\nr2,B,Red\n", "line 2, field driver: empty"),
        ("id,driver,team\nr1,A,Red\nr2,B,Red\nb1,C,Blue\n", "line 4, field team: team 'Blue'"),
    ],
)
def test_bad_cars_files_name_line_and_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        read_cars(write(tmp_path, "cars.csv", text))


def test_more_than_twelve_cars_are_refused(tmp_path: Path) -> None:
    rows = "".join(f"c{i},D{i},T{i // 2}\n" for i in range(14))
    with pytest.raises(EntryError, match="line 14, field id: more than 12 cars"):
        read_cars(write(tmp_path, "cars.csv", "id,driver,team\n" + rows))


def test_orders_are_keyed_by_car_and_unknown_cars_are_named(tmp_path: Path) -> None:
    cars = read_cars(write(tmp_path, "cars.csv", "id,driver,team\nr1,A,Red\nr2,B,Red\n"))
    orders = read_orders(write(tmp_path, "o.json", '[\n{"car": "r2", "risk": "safe"}\n]'), cars)
    assert orders == {"r2": ({"car": "r2", "risk": "safe"}, 2)}
    with pytest.raises(EntryError, match=r"o.json line 3, field \[1\].car: 'x9' is not a car"):
        read_orders(write(tmp_path, "o.json", '[\n{"car": "r1"},\n{"car": "x9"}\n]'), cars)
    with pytest.raises(EntryError, match=r"second orders for car 'r1'"):
        read_orders(write(tmp_path, "o.json", '[{"car": "r1"}, {"car": "r1"}]'), cars)
