"""``python -m engine simulate``, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "docs" / "examples" / "course.json"
RIDERS = ROOT / "docs" / "examples" / "riders.csv"


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "simulate", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def simulate_args(course: Path = COURSE, riders: Path = RIDERS, *extra: str) -> list[str | Path]:
    return ["--ruleset", "moreno", "--course", course, "--riders", riders, "--seed", "42", *extra]


def test_the_documented_example_gives_json_results_events_and_dice() -> None:
    run = cli(*simulate_args())
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["ruleset"] == "moreno"
    assert doc["seed"] == 42
    assert doc["course"]["stage_type"] == "hilly"
    assert [r["rank"] for r in doc["results"]] == list(range(1, 21))
    first = doc["results"][0]
    assert set(first) >= {"rider", "name", "team", "rank", "gap_seconds", "status", "crashes"}
    assert first["gap_seconds"] == 0
    kinds = {e["kind"] for e in doc["events"]}
    assert {"summit", "intermediate_sprint"} <= kinds
    assert doc["dice"][0]["rule"] == "R-P20"


def test_the_same_seed_prints_the_same_stage() -> None:
    assert cli(*simulate_args()).stdout == cli(*simulate_args()).stdout


def test_table_format_prints_rank_name_team_gap_status_and_crashes() -> None:
    run = cli(*simulate_args(COURSE, RIDERS, "--format", "table"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "rank" in lines[2]
    assert "crashes" in lines[2]
    assert lines[3].split()[0] == "1"
    assert "+0:00" in lines[3]
    assert len(lines) == 3 + 20


def bad_riders(tmp_path: Path, line: int, column: str, value: str) -> Path:
    rows = RIDERS.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    cells = rows[line - 1].split(",")
    cells[header.index(column)] = value
    rows[line - 1] = ",".join(cells)
    path = tmp_path / "riders.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def assert_one_clear_error(run: subprocess.CompletedProcess[str], message: str) -> None:
    assert run.returncode == 2
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [f"error: {message}"]


def test_a_bad_rating_names_the_file_the_line_and_the_field(tmp_path: Path) -> None:
    riders = bad_riders(tmp_path, 7, "climber", "X")
    assert_one_clear_error(
        cli(*simulate_args(COURSE, riders)),
        f"{riders} line 7, field climber: 'X' is not a rating (H, 0-4)",
    )


def test_a_bad_role_is_refused(tmp_path: Path) -> None:
    riders = bad_riders(tmp_path, 3, "role", "captain")
    run = cli(*simulate_args(COURSE, riders))
    assert_one_clear_error(
        run,
        f"{riders} line 3, field role: 'captain' is not a role "
        "(gc_leader, sprinter, breakaway, domestique)",
    )


def test_a_missing_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "riders.csv"
    path.write_text("id,name,team,role\n1,A,T,domestique\n", encoding="utf-8")
    assert_one_clear_error(
        cli(*simulate_args(COURSE, path)), f"{path} line 1, field rouleur: missing column"
    )


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_one_clear_error(cli(*simulate_args(missing)), f"{missing}: no such file")


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "course.json"
    path.write_text('{\n  "name": "x",\n  "stage_type": "flat"\n  "distance_km": 3\n}\n')
    assert_one_clear_error(
        cli(*simulate_args(path)),
        f"{path} line 4, column 3: invalid JSON (Expecting ',' delimiter)",
    )


def write_course(tmp_path: Path, **changes: object) -> Path:
    data = json.loads(COURSE.read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "course.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_an_unknown_terrain_is_refused_with_its_line(tmp_path: Path) -> None:
    data = json.loads(COURSE.read_text(encoding="utf-8"))
    segments = data["segments"]
    segments[3]["terrain"] = "volcano"
    path = write_course(tmp_path, segments=segments)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "volcano" in text)
    run = cli(*simulate_args(path))
    assert_one_clear_error(
        run,
        f"{path} line {line}, field segments[3].terrain: 'volcano' is not a terrain "
        "(plain, hill, col3, col2, col1, colhc, descent)",
    )


def test_segments_must_add_up_to_the_distance(tmp_path: Path) -> None:
    path = write_course(tmp_path, distance_km=160)
    assert_one_clear_error(
        cli(*simulate_args(path)),
        f"{path}, field segments: segment km add up to 150, not distance_km 160 (±0.5 km allowed)",
    )


def test_half_a_km_of_rounding_is_allowed(tmp_path: Path) -> None:
    path = write_course(tmp_path, distance_km=150.4)
    assert cli(*simulate_args(path)).returncode == 0


def test_an_unknown_ruleset_lists_the_known_ones() -> None:
    run = cli("--ruleset", "chess", "--course", COURSE, "--riders", RIDERS, "--seed", "1")
    assert_one_clear_error(run, "unknown ruleset 'chess'; known rulesets: cyclosim, moreno")


@pytest.mark.parametrize("value", ["h", "H", "0", "4"])
def test_ratings_accept_h_and_0_to_4(tmp_path: Path, value: str) -> None:
    assert cli(*simulate_args(COURSE, bad_riders(tmp_path, 2, "sprinter", value))).returncode == 0
