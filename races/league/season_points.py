"""League points across a cycling season (docs/league.md "Standings across the season"): the
presets of points systems an organiser chooses from (Season.season_points), what each race of
the calendar gives every rider under one, and the season's two tables, the riders' and the
players' teams', ranked with countback (plugins.countback, as the motor championships are).

A race's points are its riders' (a players' team scores the points its riders won racing for
it in that race). The countback counts each race's places: a race's first is the rider (the
team) with the most points of that race so far, equal points sharing a place; ties on the
season's points go to the most race wins, then seconds, ..., then the better place in the
latest race where the two differ, then the key.

``race_points`` and ``season_tables`` are pure; ``race_facts`` reads one race's stored rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

from django.utils.translation import gettext_lazy as _

from plugins.countback import Line, place_count, ranked
from plugins.protocol import SeasonTables, StandingLine
from races.league.fantasy import StageFacts, race_rows, stage_facts_of, stage_points
from races.models import Classification, Stage
from riders.models import Rider


@dataclass(frozen=True)
class SeasonPoints:
    """A season's points system: what a race pays its riders.

    ``fantasy``: every stage's fantasy points (races.league.fantasy: stage places, daily GC,
    jerseys worn, sprints, summits and, after the last stage, the final classifications);
    ``stage``: each stage's places; ``final``: each final classification's places, paid
    once the race's last stage is done."""

    key: str
    label: object
    fantasy: bool = False
    stage: tuple[int, ...] = ()
    final: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


FANTASY = "fantasy"
UCI = "uci"
GRAND_PRIX = "grand_prix"

#: The presets, in the order the forms offer them (the first is the default).
PRESETS: Mapping[str, SeasonPoints] = MappingProxyType(
    {
        FANTASY: SeasonPoints(
            FANTASY,
            _("Fantasy: stage places, daily GC, jerseys, final classifications"),
            fantasy=True,
        ),
        # The UCI WorldTour scale of a Grand Tour divided by ten: the final GC's first twenty,
        # stage places, the final points and mountains classifications.
        UCI: SeasonPoints(
            UCI,
            _("UCI-like: final GC places, stage places, final jerseys"),
            stage=(21, 15, 11, 8, 6),
            final=MappingProxyType(
                {
                    Classification.GENERAL: (
                        *(130, 104, 88, 72, 60, 48, 40, 32, 26, 20),
                        *(16, 12, 10, 8, 6, 4, 3, 2, 2, 1),
                    ),
                    Classification.POINTS: (21, 15, 11),
                    Classification.MOUNTAINS: (21, 15, 11),
                    Classification.YOUTH: (10, 6, 3),
                }
            ),
        ),
        # Formula One's 25-18-15-12-10-8-6-4-2-1 for the race's final GC top ten.
        GRAND_PRIX: SeasonPoints(
            GRAND_PRIX,
            _("Grand Prix: the final GC's top ten paid 25-18-15-12-10-8-6-4-2-1"),
            final=MappingProxyType({Classification.GENERAL: (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)}),
        ),
    }
)


def preset_choices() -> list[tuple[str, object]]:
    """(key, label) of every preset, the default first."""
    return [(key, preset.label) for key, preset in PRESETS.items()]


@dataclass(frozen=True)
class RaceFacts:
    """One race of the calendar as stored up to a round: its stages done (fantasy.StageFacts,
    ``last`` set on the race's last stage only once it is done) and each rider's league team in
    it."""

    event: int
    stages: Sequence[StageFacts]
    team_of: Mapping[int, int]


def _paid(scale: Sequence[int], place: int) -> int:
    return scale[place - 1] if 1 <= place <= len(scale) else 0


def race_points(facts: RaceFacts, system: SeasonPoints) -> dict[int, int]:
    """Each rider's points of one race under ``system``; a rider who scored nothing is not in
    it."""
    points: dict[int, int] = {}

    def add(rider: int, value: int) -> None:
        if value:
            points[rider] = points.get(rider, 0) + value

    for stage in facts.stages:
        if system.fantasy:
            for rider, kinds in stage_points(stage).items():
                add(rider, sum(kinds.values()))
            continue
        for rider, place in stage.finish.items():
            add(rider, _paid(system.stage, place))
        if stage.last:
            for classification, scale in system.final.items():
                for place, rider in enumerate(stage.standings.get(classification, ()), start=1):
                    add(rider, _paid(scale, place))
    return points


def _places(points: Mapping[int, int]) -> dict[int, int]:
    """Each scorer's place in a race by its points, equal points sharing a place."""
    order = sorted(points.values(), reverse=True)
    return {key: order.index(value) + 1 for key, value in points.items()}


@dataclass
class Tables:
    """The season's riders' and players' teams' tables, ranked; each key's points by race."""

    riders: list[Line]
    players: list[Line]
    rider_races: dict[int, dict[int, int]]
    team_races: dict[int, dict[int, int]]


def _add(
    lines: dict[int, Line],
    per_race: dict[int, dict[int, int]],
    event: int,
    points: Mapping[int, int],
) -> None:
    places = _places(points)
    for key, value in points.items():
        line = lines.setdefault(key, Line(str(key)))
        line.points += Decimal(value)
        per_race.setdefault(key, {})[event] = value
        place_count(line, places[key], event)


def season_tables(
    races: Iterable[RaceFacts], system: SeasonPoints, *, players: Iterable[int]
) -> Tables:
    """The season's tables from its races so far: every rider who scored, and every players'
    team (``players``: their ids; one that scored nothing last)."""
    teams = list(players)
    riders: dict[int, Line] = {}
    squads: dict[int, Line] = {team: Line(str(team)) for team in teams}
    rider_races: dict[int, dict[int, int]] = {}
    team_races: dict[int, dict[int, int]] = {}
    for facts in races:
        points = race_points(facts, system)
        _add(riders, rider_races, facts.event, points)
        by_team: dict[int, int] = {}
        for rider, value in points.items():
            team = facts.team_of.get(rider)
            if team in squads:
                by_team[team] = by_team.get(team, 0) + value
        _add(squads, team_races, facts.event, by_team)
    return Tables(
        riders=ranked(riders.values()),
        players=ranked(squads.values()),
        rider_races=rider_races,
        team_races=team_races,
    )


def race_facts(stage: Stage, *, event: int) -> RaceFacts:
    """What ``stage``'s race stored up to it (``event``: the race's number in the calendar):
    every rider's stage places, the jerseys' classifications' first DEEPEST after each stage,
    the sprints and summits (fantasy.race_rows, for every rider), each rider's league team."""
    rows = race_rows(stage, players=None)
    return RaceFacts(
        event=event,
        stages=stage_facts_of(rows),
        team_of={rider_id: team_id for _n, rider_id, team_id, _rank, _name in rows.results},
    )


def _standing_lines(
    lines: Sequence[Line], names: Mapping[int, str], races: Mapping[int, Mapping[int, int]]
) -> list[StandingLine]:
    return [
        StandingLine(
            rank=line.position,
            key=int(str(line.key)),
            name=names.get(int(str(line.key)), ""),
            points=line.points,
            wins=line.wins,
            detail={
                "races": {str(n): p for n, p in sorted(races.get(int(str(line.key)), {}).items())},
                "countback": list(line.countback),
            },
        )
        for line in lines
    ]


def season_standings(
    events: Sequence[tuple[int, Stage]], *, players: Mapping[int, Sequence[str]], system: str
) -> SeasonTables:
    """The season's tables after a round: ``events`` (the race's number in the calendar, the
    last stage counted) every race raced so far, ``players`` the players' teams (id -> name,
    player), ``system`` a PRESETS key (an unknown one: the first)."""
    preset = PRESETS.get(system) or next(iter(PRESETS.values()))
    tables = season_tables(
        [race_facts(stage, event=number) for number, stage in events], preset, players=players
    )
    keys = [int(str(line.key)) for line in tables.riders]
    riders = dict(Rider.objects.filter(pk__in=keys).values_list("pk", "name"))
    teams = {team: str(names[0]) for team, names in players.items()}
    return SeasonTables(
        riders=_standing_lines(tables.riders, riders, tables.rider_races),
        players=_standing_lines(tables.players, teams, tables.team_races),
    )
