"""``python -m engine simulate --track``, ``check-track`` and ``playtest`` as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.engine.grandprix.kit import GV_PATH, ROOT

CARS = (
    "id,driver,team\nr1,Alan Jones,Williams\nr2,Carlos Reutemann,Williams\n"
    "b1,Nelson Piquet,Brabham\nb2,Hector Rebaque,Brabham\n"
)


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *map(str, args)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_simulate_prints_the_json_of_the_issue(tmp_path: Path) -> None:
    cars = tmp_path / "cars.csv"
    cars.write_text(CARS, encoding="utf-8")
    args = ["simulate", "--ruleset", "grandprix", "--track", GV_PATH, "--cars", cars, "--seed", "7"]
    run = cli(*args)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert {"ruleset", "seed", "track", "laps", "results", "events", "dice"} <= set(doc)
    assert [r["rank"] for r in doc["results"]] == [1, 2, 3, 4]
    assert set(doc["results"][0]) >= {
        "car", "driver", "team", "grid", "rank", "status", "reason", "laps", "pit_stops",
        "track_exits", "gap_seconds", "laps_behind",
    }  # fmt: skip
    assert cli(*args).stdout == run.stdout


def test_check_track_gives_one_line_or_every_fault(tmp_path: Path) -> None:
    ok = cli("check-track", GV_PATH)
    assert ok.returncode == 0
    assert len(ok.stdout.splitlines()) == 1
    bad = tmp_path / "bad.yaml"
    text = GV_PATH.read_text(encoding="utf-8")
    bad.write_text(
        text.replace("boxes: [4, 23]", "boxes: [4, 22]").replace("slots: 12", "slots: 13")
    )
    run = cli("check-track", bad)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [
        f"error: {bad} line 13: V6, field grid.slots: 13 is more than the maximum 12",
        f"error: {bad} line 25: V5 pit, field pit.boxes: boxes must be exactly [4, 23], "
        "not [4, 22]",
    ]


def test_a_bad_cars_file_names_file_line_and_field(tmp_path: Path) -> None:
    cars = tmp_path / "cars.csv"
    cars.write_text(CARS + "x1,Solo,Alone\n", encoding="utf-8")
    run = cli("simulate", "--track", GV_PATH, "--cars", cars, "--seed", "1")
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {cars} line 6, field team: team 'Alone' has 1 car, not 2"


def test_bad_orders_name_the_car_and_the_field(tmp_path: Path) -> None:
    cars = tmp_path / "cars.csv"
    cars.write_text(CARS, encoding="utf-8")
    orders = tmp_path / "orders.json"
    orders.write_text('[\n{"car": "r1", "risk": "wild"}\n]', encoding="utf-8")
    run = cli("simulate", "--track", GV_PATH, "--cars", cars, "--orders", orders, "--seed", "1")
    assert run.returncode == 2
    assert run.stderr.startswith(f"error: {orders} line 2, car r1, field risk: 'wild'")


def test_playtest_prints_the_admins_figures() -> None:
    run = cli("playtest", "--track", GV_PATH, "--races", "3", "--risk", "safe")
    assert run.returncode == 0, run.stderr
    for needle in (
        "track exits per corner",
        "retired:",
        "rounds per race",
        "pole wins",
        "pit stops per car",
    ):
        assert needle in run.stdout


def test_the_command_lines_numbers_are_bounded_by_name() -> None:
    cases = [
        (("playtest", "--track", GV_PATH, "--races", "3", "--laps", "100000000"),
         "argument --laps: 100000000 is more than the maximum 20"),
        (("playtest", "--track", GV_PATH, "--races", "100000000"),
         "argument --races: 100000000 is more than the maximum 10000"),
        (("playtest", "--track", GV_PATH, "--races", "0"),
         "argument --races: 0 is less than the minimum 1"),
        (("playtest", "--track", GV_PATH, "--races", "--5"),
         "argument --races: expected one argument"),
        (("playtest", "--track", GV_PATH, "--races", "٣"),
         "argument --races: '٣' is not a whole number"),
        (("simulate", "--ruleset", "grandprix", "--track", GV_PATH, "--cars", "x.csv",
          "--seed", "1", "--laps", "9" * 30),
         "argument --laps: 99999999999999999999… is too long to be a number"),
    ]  # fmt: skip
    for args, message in cases:
        run = cli(*args)
        assert run.returncode == 2, args
        assert "Traceback" not in run.stderr
        assert message in run.stderr, run.stderr
