"""``python -m engine`` with a Ludicitude track: simulate, check-track and playtest through
the motor command line (no Ludicitude-specific branch there)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.engine.ludicitude.kit import RING_FILE, TRACKS


def _cars(tmp_path: Path, n: int = 12) -> Path:
    path = tmp_path / "cars.csv"
    rows = ["id,driver,team"] + [f"lud-{i},Driver {i},Team {(i + 1) // 2}" for i in range(1, n + 1)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_simulate_prints_the_grand_prix_json_shape(tmp_path: Path) -> None:
    orders = tmp_path / "orders.json"
    orders.write_text(
        json.dumps([{"car": "lud-1", "risk": "aggressive"}, {"car": "lud-2", "max_speed": 3}]),
        encoding="utf-8",
    )
    args = ["simulate", "--ruleset", "ludicitude", "--track", str(RING_FILE)]
    args += ["--cars", str(_cars(tmp_path)), "--seed", "7", "--orders", str(orders)]
    code, text = _run(*args)
    assert code == 0
    doc = json.loads(text)
    assert (doc["ruleset"], doc["seed"], doc["laps"], doc["track"]["id"]) == (
        "ludicitude",
        7,
        2,
        "anneau-exemple",
    )
    assert doc["track"]["hash"].startswith("sha256:")
    results = doc["results"]
    assert [r["rank"] for r in results] == list(range(1, 13))
    assert sorted(r["car"] for r in results) == sorted(f"lud-{i}" for i in range(1, 13))
    first = results[0]
    assert {"car", "driver", "team", "rank", "status", "reason", "rounds", "brake"} <= set(first)
    assert first["driver"] == f"Driver {first['car'][4:]}"
    assert {r["status"] for r in results} <= {"finished", "eliminated", "not_classified"}
    assert max(next(r for r in results if r["car"] == "lud-2")["speeds"]) <= 3
    assert {e["kind"] for e in doc["events"]} >= {"finish", "brake_lost", "recovery"}
    assert doc["dice"][0]["round"] == 1
    assert len(doc["dice"][0]["faces"]) == 1
    # Same inputs, same seed: the same document; the file's game picks the ruleset.
    again = _run(*[a for a in args if a not in ("--ruleset", "ludicitude")])
    assert again == (0, text)


def test_simulate_as_a_table(tmp_path: Path) -> None:
    code, text = _run(
        "simulate", "--track", str(TRACKS / "route-des-cretes.yaml"),
        "--cars", str(_cars(tmp_path, 4)), "--seed", "3", "--format", "table",
    )  # fmt: skip
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("Route des Crêtes: 1 lap(s), F = 24,")
    assert lines[2].split()[:4] == ["rank", "car", "driver", "team"]
    assert len(lines) == 3 + 4


def test_laps_on_an_open_circuit_is_refused_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _run(
        "simulate", "--track", str(TRACKS / "route-des-cretes.yaml"),
        "--cars", str(_cars(tmp_path, 2)), "--seed", "3", "--laps", "2",
    )  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err == (
        "error: --laps 2: route-des-cretes is an open circuit, raced once (T-3)\n"
    )


def test_laps_moves_the_finish_on_a_closed_circuit(tmp_path: Path) -> None:
    code, text = _run(
        "simulate", "--track", str(RING_FILE), "--cars", str(_cars(tmp_path, 2)),
        "--seed", "3", "--laps", "3",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(text)
    assert doc["laps"] == 3
    assert all(r["position"] in (72,) for r in doc["results"] if r["status"] == "finished")


def test_bad_orders_name_file_line_car_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders.json"
    orders.write_text('[\n  {"car": "lud-1"},\n  {"car": "lud-2", "risk": "wild"}\n]\n')
    code, _ = _run(
        "simulate", "--track", str(RING_FILE), "--cars", str(_cars(tmp_path, 2)),
        "--seed", "1", "--orders", str(orders),
    )  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err == (
        f"error: {orders} line 3, car lud-2, field risk: 'wild' is not one of safe, normal, "
        "aggressive\n"
    )


def test_check_track_prints_a_summary(tmp_path: Path) -> None:
    code, text = _run("check-track", str(RING_FILE))
    assert code == 0
    assert text.startswith(
        "ok (ludicitude): anneau-exemple: Anneau d'exemple, closed circuit, 2 laps (F = 48), "
        "4 recovery cards (gaps 6/6/6/6), sha256:"
    )


def test_check_track_lists_v4_warnings_under_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "uneven.yaml"
    text = RING_FILE.read_text(encoding="utf-8").replace("  - BRAKE+3    # 11", "  - PLAIN # 11")
    path.write_text(text, encoding="utf-8")
    code, out = _run("check-track", str(path))
    assert code == 0
    lines = out.splitlines()
    assert "3 recovery cards (gaps 12/6/6)" in lines[0]
    assert lines[1:] == [
        "warning: line 27: V-4 card 17, field cards[17]: 12 cards from recovery card 5 to "
        "recovery card 17; with 3 recovery cards an even spread is 8 ± 2 (a warning)"
    ]


def test_check_track_gives_every_fault_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    text = RING_FILE.read_text(encoding="utf-8")
    text = text.replace("  - PLAIN      # 7", "  - MIN3 MAX2 # 7").replace("laps: 2", "laps: 0")
    path.write_text(text, encoding="utf-8")
    code, _ = _run("check-track", str(path))
    assert code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {path} line 8: SCHEMA, field laps: 0 is below 1",
        f"error: {path} line 17: V-3 card 7, field cards[7]: MIN3 MAX2: min 3 is above max 2",
    ]


def test_playtest_reports_per_card(tmp_path: Path) -> None:
    code, text = _run("playtest", "--track", str(RING_FILE), "--races", "20", "--risk", "mixed")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == (
        "Anneau d'exemple (anneau-exemple): closed, 2 lap(s), 20 races x 12 cars, risk mixed"
    )
    assert any(line.startswith("risk aggressive: 80 cars") for line in lines)
    assert lines[-24].split()[:2] == ["0", "START"]
    assert lines[-1].split()[:2] == ["23", "BRAKE+3"]
