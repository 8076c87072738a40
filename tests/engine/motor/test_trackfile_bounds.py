"""A track file is read within bounds: size, aliases, depth, tags and keys are refused by name,
at once, before anything is built from the file (an admin upload and the command line read it
through the same parse_document)."""

import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.motor import TrackError, parse_document
from engine.motor.trackfile import MAX_BYTES, MAX_DEPTH, MAX_NUMBER_CHARS
from engine.registry import ruleset_for_game


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


# -- every number and list of a track is bounded, the fault naming the field and the bound -----

ROOT = Path(__file__).resolve().parents[3]
MONZA = ROOT / "motor" / "tracks" / "grandprix" / "monza.yaml"
RING = ROOT / "motor" / "tracks" / "ludicitude" / "anneau-exemple.yaml"


def _with(path: Path, changes: dict[tuple, object]) -> str:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for where, value in changes.items():
        node = data
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value
    return yaml.dump(data, Dumper=_NoAliases, sort_keys=False)


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True


def _faults(text: str) -> list[str]:
    doc = parse_document(text, "hostile.yaml")
    hooks = ruleset_for_game(doc.data["game"]).motor
    with pytest.raises(TrackError) as refused:
        hooks.load_track(doc)
    return str(refused.value).splitlines()


_CORNER = {"id": "T", "name": "T", "max_gear": 2, "marked": 5, "zone": [4, 6], "rejoin": 7}
_LINE = {"id": "RL", "corner": "T3", "bonus": 1, "squares": ["B31", "B32", "A33", "A34"]}

GRAND_PRIX_BOUNDS = [
    ({("length",): 100_000_000}, "length: 100000000 is more than the maximum 1500"),
    ({("grid", "slots"): 100_000_000}, "grid.slots: 100000000 is more than the maximum 12"),
    ({("laps",): 100_000}, "laps: 100000 is more than the maximum 20"),
    ({("lap_length_m",): 10**12}, "lap_length_m: 1000000000000 is more than the maximum 100000"),
    ({("reference_lap_seconds",): 1e300}, "reference_lap_seconds: 1e+300 is more than the maximum"),
    ({("reference_lap_seconds",): float("inf")}, "reference_lap_seconds: inf is more than"),
    ({("reference_lap_seconds",): float("nan")}, "reference_lap_seconds: nan is not a number"),
    ({("start_lanes", "length"): 10**9}, "start_lanes.length: 1000000000 is more than the max"),
    ({("start_lanes", "open_rounds"): 10**9}, "start_lanes.open_rounds: 1000000000 is more than"),
    ({("corners",): [_CORNER] * 91}, "corners: 91 items, more than the maximum 90"),
    ({("racing_lines",): [_LINE] * 91}, "racing_lines: 91 items, more than the maximum 90"),
    (
        {("racing_lines", 0, "squares"): ["B31"] * 41},
        "racing_lines[0].squares: 41 items, more than the maximum 40",
    ),
    (
        {("green",): {"rule": "list", "A": list(range(0, 132, 2)) * 3, "B": []}},
        "green.A: 198 items, more than the maximum 132",
    ),
    ({("id",): "x" * 81}, "id: 81 characters, at most 80"),
    ({("name",): "x" * 10_000}, "name: 10000 characters, at most 120"),
]

LUDICITUDE_BOUNDS = [
    ({("laps",): 100_000_000}, "laps: 100000000 is more than the maximum 20"),
    ({("cards",): ["START"] * 50_000}, "cards: a track has exactly 24 cards, got 50000"),
    ({("cards", 3): "MIN" + "9" * 5000}, "cards[3]: MIN999"),
    ({("cards", 3): "BRAKE+" + "9" * 5000}, "cards[3]: BRAKE+999"),
    ({("name",): "x" * 10_000}, "name: 10000 characters, at most 120"),
]


@pytest.mark.parametrize(
    ("path", "changes", "message"),
    [(MONZA, c, m) for c, m in GRAND_PRIX_BOUNDS] + [(RING, c, m) for c, m in LUDICITUDE_BOUNDS],
)
def test_every_number_of_a_track_is_bounded_by_name(path, changes, message):
    faults = _faults(_with(path, changes))
    assert any(f"field {message}" in fault for fault in faults), faults
    assert len(faults) <= 3, faults  # one fault, not one per item


def test_the_shipped_tracks_are_within_the_bounds():
    for path in sorted((ROOT / "motor" / "tracks").glob("*/*.yaml")):
        doc = parse_document(path.read_text(encoding="utf-8"), str(path))
        ruleset_for_game(doc.data["game"]).motor.load_track(doc)


@pytest.mark.parametrize("json_format", [False, True])
def test_a_number_too_long_to_read_is_refused(json_format):
    text = '{"length": ' + "1" * 5000 + "}"
    assert f"a number of more than {MAX_NUMBER_CHARS} characters" in refusal(
        text, json_format=json_format
    )


def _limited() -> None:  # pragma: no cover - runs in the child
    # The old loader took 23 GB on this file: a child that cannot, fails rather than swaps.
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({("length",): 100_000_000}, "length: 100000000 is more than the maximum 1500"),
        ({("grid", "slots"): 100_000_000}, "grid.slots: 100000000 is more than the maximum 12"),
    ],
)
def test_playtest_on_a_hostile_track_gives_the_fault_not_a_traceback(tmp_path, changes, message):
    track = tmp_path / "hostile.yaml"
    track.write_text(_with(MONZA, changes), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "playtest", "--track", str(track), "--races", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        preexec_fn=_limited,
    )  # fmt: skip
    assert "Traceback" not in run.stderr
    assert run.returncode == 2, run.stderr
    assert f"field {message}" in run.stderr
