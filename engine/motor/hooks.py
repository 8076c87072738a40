"""What a motor ruleset gives the registry and the command line (one :class:`MotorHooks`).

The command line (``simulate --track``, ``check-track``, ``playtest``) and later the league's
adapter call only these; a new motor game registers one ``Ruleset(..., discipline="motor",
motor=MotorHooks(...))`` and needs no edit of the command line. Track, orders and outcome
objects are the ruleset's own types (``Any`` here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.motor.entries import CarEntry
from engine.motor.trackfile import DataDocument

#: ``{car_id: (orders object, line)}`` as :func:`engine.motor.read_orders` returns it.
RawOrders = Mapping[str, tuple[Any, int | None]]


@dataclass(frozen=True, slots=True)
class LeagueHooks:
    """A league round as the league stores it (``round.json``'s ``inputs``: the track's
    content, the cars, their stored orders, the laps and the settings), with no database: the
    league's adapter and ``python -m engine replay`` both run a round through these, so that
    the downloaded round replays to the league's dice log.

    - ``run(inputs, seed) -> outcome``: the ruleset's own outcome object;
    - ``outcome_json(outcome) -> dict``: the outcome as the league stores it;
    - ``dice_rows(outcome_json) -> rows``: its dice log, one row a roll, as the league hashes
      it (``engine.commitment.dice_log_sha256``);
    - ``odds(inputs) -> run``, optional: the inputs read once, then ``run(seed)`` gives
      ``outcome_json(run(inputs, seed))["results"]`` from a run that keeps no events, dice log
      nor trace (the odds read the classification alone; the same draws and results).
    """

    run: Callable[[Mapping[str, Any], int], Any]
    outcome_json: Callable[[Any], dict[str, Any]]
    dice_rows: Callable[[Mapping[str, Any]], list[list[Any]]]
    odds: Callable[[Mapping[str, Any]], Callable[[int], list[dict[str, Any]]]] | None = None


@dataclass(frozen=True, slots=True)
class MotorHooks:
    """A motor ruleset's entry points.

    - ``game``: the ``game`` field of its track files (``check-track`` dispatches on it);
    - ``max_cars``, ``team_size``: what the cars CSV must hold;
    - ``risks``: the ``--risk`` choices of ``playtest``;
    - ``load_track(doc) -> track``: validate a parsed file, :class:`~engine.motor.TrackError`
      with every fault;
    - ``track_summary(track) -> str``: the one line ``check-track`` prints;
    - ``parse_orders(raw, file_name, cars) -> orders``: the orders file's objects validated,
      :class:`~engine.motor.EntryError` naming file, line, car and field;
    - ``simulate(track, cars, orders, seed, laps) -> outcome`` (``orders`` None: defaults;
      :class:`~engine.motor.EntryError` for inputs the game refuses, e.g. laps, as
      ``playtest`` may);
    - ``outcome_json(outcome) -> dict`` and ``outcome_table(outcome) -> str``;
    - ``playtest(track, races, risk, seed, laps) -> str``: the admins' report;
    - ``league``: a league round's :class:`LeagueHooks` (None: the game has no league rounds).
    """

    game: str
    max_cars: int
    team_size: int
    risks: tuple[str, ...]
    load_track: Callable[[DataDocument], Any]
    track_summary: Callable[[Any], str]
    parse_orders: Callable[[RawOrders, str, tuple[CarEntry, ...]], Any]
    simulate: Callable[[Any, tuple[CarEntry, ...], Any, int, int | None], Any]
    outcome_json: Callable[[Any], dict[str, Any]]
    outcome_table: Callable[[Any], str]
    playtest: Callable[[Any, int, str, int, int | None], str]
    league: LeagueHooks | None = None
