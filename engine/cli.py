"""Command line: simulate one stage from a course JSON and a riders CSV, no database.

    python -m engine simulate --ruleset moreno --course COURSE.json \\
        --riders RIDERS.csv --seed 42 [--format json|table]

Motor rulesets (``simulate --track``, ``check-track``, ``playtest``): see
:mod:`engine.cli_motor`.

A bad input file gives one message naming the file, the line and the field, and exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from engine import cli_motor
from engine.commitment import replay_round
from engine.cycling.codec import InputError, course_from_data, outcome_to_data
from engine.cycling.course import Course
from engine.cycling.inputs import ROLES, Entrant, StageInputs
from engine.cycling.outcome import Outcome
from engine.cycling.profile import PROFILE_AXES, Profile
from engine.registry import CYCLING, RULESETS, UnknownRuleset, get_ruleset, simulate

__all__ = ["InputError", "course_from_data", "load_course", "load_riders", "main"]

RATING_AXES = PROFILE_AXES
RIDER_COLUMNS: tuple[str, ...] = ("id", "name", "team", "role", *RATING_AXES)
EXIT_BAD_INPUT = 2


@dataclass(frozen=True, slots=True)
class RiderRow:
    """One line of a riders CSV."""

    rider_id: int
    name: str
    team: str
    role: str
    profile: Profile


# -- ratings -----------------------------------------------------------------------------


def parse_rating(text: str) -> int:
    """``"H"`` -> -1, ``"0"`` .. ``"4"`` -> int; ValueError otherwise."""
    value = text.strip().upper()
    if value == "H":
        return -1
    if value in {"0", "1", "2", "3", "4"}:
        return int(value)
    raise ValueError(f"{text!r} is not a rating (H, 0-4)")


# -- riders ------------------------------------------------------------------------------


def read_riders(handle: TextIO, name: str = "riders.csv") -> list[RiderRow]:
    """Parse a riders CSV (``id, name, team, role`` and the eight ratings; extra columns are
    ignored); :class:`InputError` names the line and field at fault."""
    reader = csv.DictReader(handle)
    header = reader.fieldnames or []
    columns = {c.strip() for c in header if c is not None}
    for col in RIDER_COLUMNS:
        if col not in columns:
            raise InputError(f"{name} line 1, field {col}: missing column")
    rows: list[RiderRow] = []
    seen: dict[int, int] = {}
    for raw in reader:
        line = reader.line_num
        row = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        try:
            rider_id = int(row["id"])
        except ValueError:
            raise InputError(
                f"{name} line {line}, field id: {row['id']!r} is not a number"
            ) from None
        if rider_id in seen:
            raise InputError(
                f"{name} line {line}, field id: {rider_id} already used on line {seen[rider_id]}"
            )
        seen[rider_id] = line
        for col in ("name", "team"):
            if not row[col]:
                raise InputError(f"{name} line {line}, field {col}: empty")
        if row["role"] not in ROLES:
            raise InputError(
                f"{name} line {line}, field role: {row['role']!r} is not a role "
                f"({', '.join(ROLES)})"
            )
        ratings = {}
        for axis in RATING_AXES:
            try:
                ratings[axis] = parse_rating(row[axis])
            except ValueError as exc:
                raise InputError(f"{name} line {line}, field {axis}: {exc}") from None
        rows.append(RiderRow(rider_id, row["name"], row["team"], row["role"], Profile(**ratings)))
    if not rows:
        raise InputError(f"{name}: no riders")
    return rows


def load_course(path: str | Path) -> Course:
    """Read a course JSON file; :class:`InputError` on any problem."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{name}: cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name} line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})"
        ) from None
    return course_from_data(data, name=name, text=text)


def load_riders(path: str | Path) -> list[RiderRow]:
    """Read a riders CSV file; :class:`InputError` on any problem."""
    name = str(path)
    try:
        with Path(path).open(encoding="utf-8-sig", newline="") as handle:
            return read_riders(handle, name)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"{name}: cannot be read ({exc})") from None


def entrants_from_rows(rows: Sequence[RiderRow]) -> tuple[Entrant, ...]:
    """Entrants in file order (bib = line order); teams numbered by first appearance."""
    teams: dict[str, int] = {}
    return tuple(
        Entrant(
            rider_id=row.rider_id,
            team_id=teams.setdefault(row.team, len(teams) + 1),
            bib=i + 1,
            profile=row.profile,
            role=row.role,
        )
        for i, row in enumerate(rows)
    )


# -- output ------------------------------------------------------------------------------


def format_gap(seconds: int) -> str:
    """``+m:ss``, or ``+h:mm:ss`` from an hour."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"+{h}:{m:02d}:{s:02d}" if h else f"+{m}:{s:02d}"


def outcome_json(outcome: Outcome, course: Course, rows: Sequence[RiderRow]) -> dict[str, Any]:
    """The JSON document printed by ``--format json``: the outcome's one JSON form
    (engine.cycling.codec) with the riders' names and teams, each roll as an object."""
    by_id = {row.rider_id: row for row in rows}
    data = outcome_to_data(outcome)
    results: list[dict[str, Any]] = data["results"]  # type: ignore[assignment]
    events: list[dict[str, Any]] = data["events"]  # type: ignore[assignment]
    dice: list[list[Any]] = data["dice"]  # type: ignore[assignment]
    return {
        "ruleset": outcome.ruleset,
        "seed": outcome.seed,
        "course": {
            "name": course.name,
            "stage_type": course.stage_type,
            "distance_km": course.distance_km,
            "n_cases": outcome.n_cases,
            "turns": outcome.turns,
        },
        "results": [
            {
                "rider": r["rider"],
                "name": by_id[r["rider"]].name,
                "team": by_id[r["rider"]].team,
                "rank": r["rank"],
                "gap_seconds": r["gap"],
                "status": r["status"],
                "crashes": [
                    {"turn": turn, "case": case, "severity": severity}
                    for turn, case, severity in r["crashes"]
                ],
                "final_case": r["case"],
                "final_group": r["group"],
                "abandon_reason": r["reason"],
            }
            for r in results
        ],
        "events": events,
        "dice": [
            dict(zip(("turn", "unit", "rider", "rule", "die", "face"), roll, strict=True))
            for roll in dice
        ],
    }


def render_json(doc: dict[str, Any]) -> str:
    """JSON with one top-level key per line and one list item (result, event, roll) per line."""
    parts = []
    for key, value in doc.items():
        if isinstance(value, list):
            items = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(
                f"{json.dumps(key)}: [\n  {items}\n ]" if value else f"{json.dumps(key)}: []"
            )
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n " + ",\n ".join(parts) + "\n}"


def outcome_table(outcome: Outcome, course: Course, rows: Sequence[RiderRow]) -> str:
    """A readable result: rank, name, team, gap, status, crashes."""
    by_id = {row.rider_id: row for row in rows}
    name_w = max([len("rider"), *(len(r.name) for r in rows)])
    team_w = max([len("team"), *(len(r.team) for r in rows)])
    lines = [
        f"{course.name}: {course.stage_type}, {course.distance_km:g} km, {outcome.n_cases} cases,"
        f" {outcome.turns} turns (ruleset {outcome.ruleset}, seed {outcome.seed})",
        "",
        f"{'rank':>4}  {'rider':<{name_w}}  {'team':<{team_w}}  {'gap':>9}  "
        f"{'status':<11}  crashes",
    ]
    for r in outcome.results:
        row = by_id[r.rider_id]
        gap = format_gap(r.gap_seconds)
        status = r.status if r.abandon_reason is None else f"{r.status} ({r.abandon_reason})"
        lines.append(
            f"{r.rank:>4}  {row.name:<{name_w}}  {row.team:<{team_w}}  {gap:>9}  "
            f"{status:<11}  {len(r.crashes)}"
        )
    return "\n".join(lines)


# -- main --------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="simulate one stage, or one motor race (--track)")
    sim.add_argument("--ruleset", help="ruleset name (default: moreno; with --track the file's)")
    sim.add_argument("--course", help="course JSON file (cycling)")
    sim.add_argument("--riders", help="riders CSV file (cycling)")
    sim.add_argument("--track", help="track file (motor)")
    sim.add_argument("--cars", help="cars CSV file: id, driver, team (motor)")
    sim.add_argument("--orders", help="orders JSON file, one object per car (motor)")
    sim.add_argument(
        "--laps",
        type=cli_motor.bounded_int(1, cli_motor.MAX_LAPS),
        help="laps (motor; default: the track's)",
    )
    sim.add_argument("--seed", required=True, type=int, help="seed of the dice")
    sim.add_argument("--format", choices=("json", "table"), default="json")
    cli_motor.add_parsers(sub)
    replay = sub.add_parser(
        "replay", help="re-run a league round from its JSON (the round page's download)"
    )
    replay.add_argument("round_file", help="ROUND.json: ruleset, inputs, seed, nonces")
    return parser


def _replay(path: str, stdout: TextIO) -> int:
    """``replay ROUND.json``: the commitment checked, the dice seed derived from the seed and
    the nonces, the stage re-run, the dice log's SHA-256 printed (the round's page shows it)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        result = replay_round(data)
    except (OSError, ValueError, KeyError, UnknownRuleset) as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    commitment = "ok" if result.commitment_ok else "WRONG"
    print(f"ruleset {result.ruleset}: commitment {commitment}", file=stdout)
    print(f"dice seed {result.dice_seed} {'ok' if result.dice_seed_ok else 'WRONG'}", file=stdout)
    print(f"dice log: {result.rolls} rolls, sha256 {result.dice_sha256}", file=stdout)
    if result.expected_sha256:
        same = result.expected_sha256 == result.dice_sha256
        print(f"the league's dice log: {'identical' if same else 'DIFFERENT'}", file=stdout)
    return 0 if result.ok else 1


def _cycling_ruleset(name: str) -> None:
    """An unknown or non-cycling name, listing the cycling rulesets (a stage needs one)."""
    ruleset = RULESETS.get(name)
    if ruleset is None or ruleset.discipline != CYCLING:
        known = ", ".join(sorted(n for n, r in RULESETS.items() if r.discipline == CYCLING))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}")
    get_ruleset(name)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status."""
    args = _parser().parse_args(argv)
    stdout = out or sys.stdout
    if args.command == "replay":
        return _replay(args.round_file, stdout)
    motor = args.command != "simulate" or args.track is not None
    if args.command == "simulate" and args.track is None and args.ruleset is not None:
        known = RULESETS.get(args.ruleset)
        motor = known is not None and known.motor is not None
    if motor:
        try:
            if args.command == "simulate":
                if args.track is None:
                    raise cli_motor.MotorInputError(
                        f"ruleset {args.ruleset} races on a track: give --track and --cars"
                    )
                cli_motor.simulate(args, stdout, render_json)
            elif args.command == "check-track":
                cli_motor.check_track(args, stdout)
            else:
                cli_motor.playtest(args, stdout)
        except cli_motor.MotorInputError as exc:
            for line in str(exc).splitlines():
                print(f"error: {line}", file=sys.stderr)
            return EXIT_BAD_INPUT
        return 0
    try:
        _cycling_ruleset(args.ruleset or "moreno")
        for option, value in (("--course", args.course), ("--riders", args.riders)):
            if value is None:
                raise InputError(f"simulate needs {option} (or --track for a motor ruleset)")
        course = load_course(args.course)
        rows = load_riders(args.riders)
    except (InputError, UnknownRuleset) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        inputs: StageInputs[Any, Any] = StageInputs(course, entrants_from_rows(rows))
    except ValueError as exc:
        print(f"error: {args.riders}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    ruleset = args.ruleset or "moreno"
    outcome = simulate(ruleset, inputs, args.seed)
    if args.format == "table":
        print(outcome_table(outcome, course, rows), file=stdout)
    else:
        print(render_json(outcome_json(outcome, course, rows)), file=stdout)
    return 0
