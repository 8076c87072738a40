"""The motor commands of ``python -m engine``, dispatched through each ruleset's
:class:`~engine.motor.MotorHooks` (no game is named here):

    simulate --ruleset grandprix --track TRACK.yaml --cars CARS.csv --seed N [--laps L]
             [--orders ORDERS.json] [--format json|table]
    check-track TRACK.yaml [--ruleset NAME]
    playtest --track TRACK.yaml --races N [--risk safe|normal|aggressive] [--seed S] [--laps L]

The ruleset defaults to the one whose track files carry the file's ``game``. A bad file gives
its faults (file, line, rule, place, field) on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, TextIO

from engine.motor import (
    DataDocument,
    EntryError,
    MotorHooks,
    TrackError,
    load_document,
    read_cars,
    read_orders,
)
from engine.registry import (
    RULESETS,
    UnknownRuleset,
    WrongDiscipline,
    motor_ruleset,
    ruleset_for_game,
)


class MotorInputError(Exception):
    """A bad motor input; the message is printed as it is, one fault a line."""


#: The most laps a race and races a playtest take from the command line: a track file says at
#: most MAX_LAPS (engine/rulesets/*/track.py), and a playtest of MAX_RACES takes minutes.
MAX_LAPS = 20
MAX_RACES = 10_000
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or an error naming the
    bound ("argument --laps: 21 is more than the maximum 20")."""

    def parse(text: str) -> int:
        if len(text) > 20:
            raise argparse.ArgumentTypeError(f"{text[:20]}… is too long to be a number")
        if not WHOLE_NUMBER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than the minimum {low}")
        if value > high:
            raise argparse.ArgumentTypeError(f"{value} is more than the maximum {high}")
        return value

    return parse


def _hooks_for(name: str | None, doc: DataDocument) -> tuple[str, MotorHooks]:
    if name is not None:
        try:
            ruleset, hooks = motor_ruleset(name)
        except (UnknownRuleset, WrongDiscipline) as exc:
            known = ", ".join(sorted(n for n, r in RULESETS.items() if r.motor is not None))
            raise MotorInputError(f"{exc} (motor rulesets: {known})") from None
        return ruleset.name, hooks
    game = doc.data.get("game") if isinstance(doc.data, dict) else None
    found = ruleset_for_game(game)
    if found is None or found.motor is None:
        games = ", ".join(sorted(r.motor.game for r in RULESETS.values() if r.motor is not None))
        line = doc.line("game")
        where = f"{doc.name} line {line}" if line else doc.name
        raise MotorInputError(
            f"{where}: SCHEMA, field game: {game!r} is not a motor game ({games})"
        )
    return found.name, found.motor


def load_track_file(path: str, ruleset: str | None) -> tuple[str, MotorHooks, Any]:
    """Parse and validate a track file; :class:`MotorInputError` with every fault."""
    try:
        doc = load_document(path)
        name, hooks = _hooks_for(ruleset, doc)
        return name, hooks, hooks.load_track(doc)
    except TrackError as exc:
        raise MotorInputError(str(exc)) from None


def simulate(args: argparse.Namespace, out: TextIO, render_json: Any) -> None:
    """``simulate --track``: one event printed as JSON or a table."""
    if not args.cars:
        raise MotorInputError("simulate --track needs --cars CARS.csv")
    _, hooks, track = load_track_file(args.track, args.ruleset)
    try:
        cars = read_cars(args.cars, max_cars=hooks.max_cars, team_size=hooks.team_size)
        orders = None
        if args.orders:
            orders = hooks.parse_orders(read_orders(args.orders, cars), args.orders, cars)
        outcome = hooks.simulate(track, cars, orders, args.seed, args.laps)
    except EntryError as exc:
        raise MotorInputError(str(exc)) from None
    if args.format == "table":
        print(hooks.outcome_table(outcome), file=out)
    else:
        print(render_json(hooks.outcome_json(outcome)), file=out)


def check_track(args: argparse.Namespace, out: TextIO) -> None:
    """``check-track``: one summary line, or every fault."""
    name, hooks, track = load_track_file(args.track, args.ruleset)
    print(f"ok ({name}): {hooks.track_summary(track)}", file=out)


def playtest(args: argparse.Namespace, out: TextIO) -> None:
    """``playtest``: many races with the default driver, the admins' figures."""
    _, hooks, track = load_track_file(args.track, args.ruleset)
    if args.risk not in hooks.risks:
        raise MotorInputError(f"--risk {args.risk!r} is not one of {', '.join(hooks.risks)}")
    if args.races < 1:
        raise MotorInputError("--races must be at least 1")
    try:
        report = hooks.playtest(track, args.races, args.risk, args.seed, args.laps)
    except EntryError as exc:
        raise MotorInputError(str(exc)) from None
    print(report, file=out)


def add_parsers(sub: Any) -> None:
    """The ``check-track`` and ``playtest`` sub-commands."""
    check = sub.add_parser("check-track", help="validate a motor track file")
    check.add_argument("track", help="track file (YAML, or JSON with the same structure)")
    check.add_argument("--ruleset", help="motor ruleset (default: the file's game)")
    play = sub.add_parser("playtest", help="many races on a track with the default driver")
    play.add_argument("--track", required=True, help="track file")
    play.add_argument(
        "--races", required=True, type=bounded_int(1, MAX_RACES), help="number of races"
    )
    play.add_argument("--risk", default="normal", help="risk of every car (default: normal)")
    play.add_argument("--seed", type=int, default=1, help="seed of the first race (default 1)")
    play.add_argument("--laps", type=bounded_int(1, MAX_LAPS), help="laps (default: the track's)")
    play.add_argument("--ruleset", help="motor ruleset (default: the file's game)")
