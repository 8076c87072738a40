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
from engine.course import STAGE_TYPES, TERRAINS, Course, Segment
from engine.outcome import PROFILE_AXES, ROLES, Entrant, Outcome, Profile, StageInputs
from engine.registry import CYCLING, RULESETS, UnknownRuleset, get_ruleset, simulate

RATING_AXES = PROFILE_AXES
RIDER_COLUMNS: tuple[str, ...] = ("id", "name", "team", "role", *RATING_AXES)
#: Segments may add up to the stage distance give or take this much.
DISTANCE_TOLERANCE_KM = 0.5
EXIT_BAD_INPUT = 2


class InputError(Exception):
    """A bad input file; the message names the file, the line and the field."""


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


# -- course ------------------------------------------------------------------------------


def _line_of(text: str, token: str) -> int | None:
    """Line of the only occurrence of ``token`` in ``text``, if it occurs exactly once."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if token in line]
    return hits[0] if len(hits) == 1 else None


def _course_error(name: str, text: str, field: str, message: str, token: str | None) -> InputError:
    line = _line_of(text, token) if token else None
    where = f"{name} line {line}, field {field}" if line else f"{name}, field {field}"
    return InputError(f"{where}: {message}")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def course_from_data(data: Any, *, name: str = "course.json", text: str = "") -> Course:
    """Validate and build a :class:`Course` from parsed JSON."""

    def fail(field: str, message: str, token: Any = None) -> InputError:
        tok = json.dumps(token, ensure_ascii=False) if token is not None else None
        return _course_error(name, text, field, message, tok)

    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a JSON object with name, stage_type, segments")
    for key in ("name", "stage_type", "distance_km", "segments"):
        if key not in data:
            raise InputError(f"{name}, field {key}: missing")
    stage_type = data["stage_type"]
    if stage_type not in STAGE_TYPES:
        raise fail(
            "stage_type",
            f"{stage_type!r} is not a stage type ({', '.join(STAGE_TYPES)})",
            stage_type,
        )
    distance = _number(data["distance_km"])
    if distance is None or distance <= 0:
        raise fail("distance_km", f"{data['distance_km']!r} is not a positive number")
    raw_segments = data["segments"]
    if not isinstance(raw_segments, list) or not raw_segments:
        raise InputError(f"{name}, field segments: expected a non-empty list")
    segments = []
    for i, seg in enumerate(raw_segments):
        where = f"segments[{i}]"
        if not isinstance(seg, dict):
            raise InputError(f"{name}, field {where}: expected an object")
        terrain = seg.get("terrain")
        if terrain not in TERRAINS:
            raise fail(
                f"{where}.terrain",
                f"{terrain!r} is not a terrain ({', '.join(TERRAINS)})",
                terrain,
            )
        km = _number(seg.get("km"))
        if km is None or km < 0:
            raise fail(f"{where}.km", f"{seg.get('km')!r} is not a number of km >= 0")
        label = seg.get("name", "")
        if not isinstance(label, str):
            raise fail(f"{where}.name", f"{label!r} is not a text")
        segments.append(Segment(terrain, km, label))
    total = sum(s.km for s in segments)
    if abs(total - distance) > DISTANCE_TOLERANCE_KM:
        raise InputError(
            f"{name}, field segments: segment km add up to {total:g}, not distance_km "
            f"{distance:g} (±{DISTANCE_TOLERANCE_KM:g} km allowed)"
        )
    sprints = data.get("intermediate_sprints_km", [])
    if not isinstance(sprints, list) or any(_number(k) is None for k in sprints):
        raise InputError(f"{name}, field intermediate_sprints_km: expected a list of km")
    for km in sprints:
        if not 0 < float(km) <= distance:
            raise fail("intermediate_sprints_km", f"{km!r} is not within the stage", km)
    course_name = data["name"]
    if not isinstance(course_name, str):
        raise fail("name", f"{course_name!r} is not a text")
    return Course(
        course_name, stage_type, distance, tuple(segments), tuple(float(k) for k in sprints)
    )


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
    """The JSON document printed by ``--format json``."""
    by_id = {row.rider_id: row for row in rows}
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
                "rider": r.rider_id,
                "name": by_id[r.rider_id].name,
                "team": by_id[r.rider_id].team,
                "rank": r.rank,
                "gap_seconds": r.gap_seconds,
                "status": r.status,
                "crashes": [
                    {"turn": c.turn, "case": c.case, "severity": c.severity} for c in r.crashes
                ],
                "final_case": r.final_case,
                "final_group": r.final_group,
                "abandon_reason": r.abandon_reason,
            }
            for r in outcome.results
        ],
        "events": [
            {
                "turn": e.turn,
                "kind": e.kind,
                "riders": list(e.rider_ids),
                "case": e.case,
                "detail": e.detail,
            }
            for e in outcome.events
        ],
        "dice": [
            {
                "turn": d.turn,
                "unit": d.unit,
                "rider": d.rider_id,
                "rule": d.rule_id,
                "die": d.die,
                "face": d.face,
            }
            for d in outcome.dice
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
    sim.add_argument("--laps", type=int, help="laps (motor; default: the track's)")
    sim.add_argument("--seed", required=True, type=int, help="seed of the dice")
    sim.add_argument("--format", choices=("json", "table"), default="json")
    cli_motor.add_parsers(sub)
    return parser


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
        inputs = StageInputs(course, entrants_from_rows(rows))
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
