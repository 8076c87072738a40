"""The end of a championship in a league (docs/league.md "The players' ranking"): each player's
team scored as a constructor of its two cars, the points of its drivers in the drivers'
standings after the round added up, ties broken by wins, then by the most second places, third
places... (countback, as the constructors' table); the podium of the drivers' standings. Each
reads the championship's own rows, with the season's players and cars given as plain values
(MotorAdapter.league_ranking, league_end)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from motor.models import GrandPrix, Result, Standing, StandingTable
from motor.standings import points_text
from plugins.protocol import StandingLine


def _cars(seats: Mapping[int, Sequence[Any]]) -> list[tuple[int, str, int]]:
    """(team id, team name, driver id) of every car of the season's seats."""
    return [
        (seat.team_id, seat.team.name, seat.entry.driver_id)
        for cars in seats.values()
        for seat in cars
        if getattr(seat, "entry_id", None)
    ]


def ranking(
    grand_prix: GrandPrix | None,
    *,
    players: Mapping[int, Sequence[str]],
    seats: Mapping[int, Sequence[Any]],
) -> list[tuple[int | None, int, str, str]]:
    """The players' teams after ``grand_prix``: (place, team id, points, wins), every player's
    team ranked; a tie on points, wins and countback shares the place, as the real tables do."""
    drivers = {
        driver_id: (points, wins, countback)
        for driver_id, points, wins, countback in Standing.objects.filter(
            grand_prix=grand_prix, table=StandingTable.DRIVERS
        ).values_list("driver_id", "points", "wins", "countback")
    }
    totals: dict[int, tuple[Decimal, int, list[int]]] = {
        team_id: (Decimal(0), 0, []) for team_id in players
    }
    for team_id, _name, driver_id in _cars(seats):
        if team_id not in players:
            continue
        points, wins, countback = drivers.get(driver_id, (Decimal(0), 0, []))
        total, total_wins, total_back = totals[team_id]
        totals[team_id] = (total + points, total_wins + wins, _added(total_back, countback))

    def key(team_id: int) -> tuple:
        points, wins, countback = totals[team_id]
        return (-points, -wins, [-n for n in countback], players[team_id][0])

    lines: list[tuple[int | None, int, str, str]] = []
    previous: tuple | None = None
    for place, team_id in enumerate(sorted(totals, key=key), start=1):
        points, wins, countback = totals[team_id]
        tie = (points, wins, countback)
        rank = lines[-1][0] if previous == tie and lines else place
        previous = tie
        lines.append((rank, team_id, points_text(points), str(wins)))
    return lines


def season_drivers(grand_prix: GrandPrix | None) -> list[StandingLine]:
    """The drivers' standings after ``grand_prix`` as the season's riders' table."""
    return [
        StandingLine(
            rank=position,
            key=driver_id,
            name=name or "",
            points=points,
            wins=wins,
            detail={"countback": list(countback or [])},
        )
        for position, driver_id, name, points, wins, countback in Standing.objects.filter(
            grand_prix=grand_prix, table=StandingTable.DRIVERS
        )
        .order_by("position", "driver__name")
        .values_list("position", "driver_id", "driver__name", "points", "wins", "countback")
    ]


def season_players(
    grand_prix: GrandPrix | None,
    *,
    players: Mapping[int, Sequence[str]],
    seats: Mapping[int, Sequence[Any]],
) -> list[StandingLine]:
    """The players' ranking after ``grand_prix`` (``ranking``) as the season's players' table."""
    return [
        StandingLine(
            rank=place or index,
            key=team_id,
            name=str(players[team_id][0]),
            points=Decimal(points),
            wins=int(wins),
        )
        for index, (place, team_id, points, wins) in enumerate(
            ranking(grand_prix, players=players, seats=seats), start=1
        )
    ]


def _added(a: Iterable[int], b: Iterable[int]) -> list[int]:
    a, b = list(a), list(b)
    size = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(size)]


def moments(
    grand_prix: GrandPrix | None,
    *,
    players: Mapping[int, Sequence[str]],
    seats: Mapping[int, Sequence[Any]],
) -> dict[int, list[str]]:
    """Each player's team's best finish of the championship up to ``grand_prix`` (its best
    classified place, the first Grand Prix where its cars got it), for the end of the race
    (one query)."""
    if grand_prix is None:
        return {}
    team_of = {
        seat.entry_id: team_id
        for team_id, cars in seats.items()
        if team_id in players
        for seat in cars
        if getattr(seat, "entry_id", None)
    }
    best: dict[int, tuple[int, int, str, str]] = {}
    for entry_id, position, round_number, gp_name, driver in (
        Result.objects.filter(
            grand_prix__championship_id=grand_prix.championship_id,
            grand_prix__round__lte=grand_prix.round,
            entry_id__in=list(team_of),
            position__isnull=False,
        )
        .order_by("position", "grand_prix__round")
        .values_list(
            "entry_id", "position", "grand_prix__round", "grand_prix__name", "entry__driver__name"
        )
    ):
        team_id = team_of[entry_id]
        if position is not None and team_id not in best:
            best[team_id] = (position, round_number, gp_name, driver)
    told: dict[int, list[str]] = {}
    for team_id, (position, _round, gp_name, driver) in best.items():
        values = {"driver": driver, "position": position, "grand_prix": gp_name}
        told[team_id] = [
            _("Best result: %(driver)s won the %(grand_prix)s") % values
            if position == 1
            else _("Best result: %(driver)s, place %(position)s at the %(grand_prix)s") % values
        ]
    return told


def end(
    grand_prix: GrandPrix | None,
    *,
    seats: Mapping[int, Sequence[Any]],
    players: Mapping[int, Sequence[str]],
) -> dict[str, Any]:
    """The drivers' standings' podium after the last Grand Prix (rank, no rider, the driver,
    his league team, his points), the players' ranking and each player's team's best result;
    a championship has no jerseys."""
    teams = {driver_id: name for _team, name, driver_id in _cars(seats)}
    lines = (
        Standing.objects.filter(grand_prix=grand_prix, table=StandingTable.DRIVERS, position__lte=3)
        .select_related("driver")
        .order_by("position")
    )
    return {
        "title": gettext_lazy("The end of the championship"),
        "podium_title": gettext_lazy("Drivers' championship"),
        "podium": [
            (
                line.position,
                None,
                line.driver.name if line.driver else "",
                teams.get(line.driver_id or 0, ""),
                _("%(points)s points") % {"points": points_text(line.points)},
            )
            for line in lines
        ],
        "jerseys": [],
        "ranking": ranking(grand_prix, players=players, seats=seats),
        "score_unit": _("points"),
        "moments": moments(grand_prix, players=players, seats=seats),
    }
