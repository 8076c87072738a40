"""Reads for the results a fan reads at the end (issue 17): the abandons of the season, the
players' ranking (which player wins the league) and the end of the race (podium, final jerseys,
the league's winner). Each function is a fixed, small number of queries; what a visitor may see
is decided by the caller (season.permissions) and passed in as round numbers.

The players' ranking (docs/league.md "The players' ranking"):

- a stage race: the Teams classification after the stage, among the players' teams only (the
  computer's teams take no place in it), with each team's time and its gap to the best
  player's team;
- a championship: each player's team scored as a constructor of its two cars, the points of
  its drivers in the drivers' standings after the round added up, ties broken by wins, then by
  the most second places, third places... (countback, as the constructors' table).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from motor.models import Standing as MotorStanding
from motor.models import StandingTable
from motor.standings import points_text
from races.models import Classification, StageResult, Standing
from season.formatting import clock, gap
from season.models import Season
from season.selectors import OUT_OF_RACE, Jersey, jersey_holders, season_team_names


@dataclass(frozen=True)
class PlayerLine:
    """One player's team in the players' ranking. ``rank`` None: not ranked (a stage race's
    team with too few riders left for the Teams classification)."""

    rank: int | None
    team_id: int
    team: str
    player: str
    #: The team's time (stage race) or points (championship), as the page shows it.
    score: str
    #: The gap to the first team (stage race), or the wins (championship).
    behind: str


def _players(season: Season) -> dict[int, tuple[str, str]]:
    """The players' teams: id -> (team name, player's username)."""
    return {
        pk: (name, username)
        for pk, name, username in season.teams.filter(owner__isnull=False).values_list(
            "pk", "name", "owner__username"
        )
    }


def players_ranking(*, season: Season, number: int) -> list[PlayerLine]:
    """The players' teams ranked after round ``number`` (see the module's docstring); empty
    before the first round."""
    if number < 1:
        return []
    players = _players(season)
    if season.race_id is None:
        return _championship_ranking(season, number, players)
    lines = (
        Standing.objects.filter(
            stage__race_id=season.race_pk,
            stage__number=number,
            classification=Classification.TEAMS,
            entry_team_id__in=list(players),
        )
        .order_by("rank")
        .values_list("entry_team_id", "rank", "value")
    )
    ranked = [
        (team_id, value)
        for team_id, rank, value in lines
        if rank is not None and team_id is not None
    ]
    best = ranked[0][1] if ranked else 0
    ranking = [
        PlayerLine(
            place,
            team_id,
            *players[team_id],
            score=clock(value),
            behind=gap(value - best),
        )
        for place, (team_id, value) in enumerate(ranked, start=1)
    ]
    seen = {line.team_id for line in ranking}
    ranking.extend(
        PlayerLine(None, team_id, name, player, score="", behind="")
        for team_id, (name, player) in sorted(players.items(), key=lambda item: item[1][0])
        if team_id not in seen
    )
    return ranking


def _grand_prix_of(season: Season, number: int) -> int | None:
    return season.rounds.filter(number=number).values_list("grand_prix_id", flat=True).first()


def _cars(season: Season) -> list[tuple[int, str, int]]:
    """(team id, team name, driver id) of every car of the season: one query."""
    return list(season.seats.values_list("team_id", "team__name", "entry__driver_id"))


def _championship_ranking(
    season: Season,
    number: int,
    players: dict[int, tuple[str, str]],
    *,
    grand_prix: int | None = None,
    cars: list[tuple[int, str, int]] | None = None,
) -> list[PlayerLine]:
    if grand_prix is None:
        grand_prix = _grand_prix_of(season, number)
    drivers = {
        driver_id: (points, wins, countback)
        for driver_id, points, wins, countback in MotorStanding.objects.filter(
            grand_prix_id=grand_prix, table=StandingTable.DRIVERS
        ).values_list("driver_id", "points", "wins", "countback")
    }
    totals: dict[int, tuple[Decimal, int, list[int]]] = {
        team_id: (Decimal(0), 0, []) for team_id in players
    }
    for team_id, _name, driver_id in _cars(season) if cars is None else cars:
        if team_id not in players:
            continue
        points, wins, countback = drivers.get(driver_id, (Decimal(0), 0, []))
        total, total_wins, total_back = totals[team_id]
        totals[team_id] = (total + points, total_wins + wins, _added(total_back, countback))

    def key(team_id: int) -> tuple:
        points, wins, countback = totals[team_id]
        return (-points, -wins, [-n for n in countback], players[team_id][0])

    ranking: list[PlayerLine] = []
    previous: tuple | None = None
    for place, team_id in enumerate(sorted(totals, key=key), start=1):
        points, wins, countback = totals[team_id]
        tie = (points, wins, countback)
        # A tie on points, wins and countback shares the place, as the real tables do.
        rank = ranking[-1].rank if previous == tie and ranking else place
        previous = tie
        ranking.append(
            PlayerLine(
                rank, team_id, *players[team_id], score=points_text(points), behind=str(wins)
            )
        )
    return ranking


def _added(a: Iterable[int], b: Iterable[int]) -> list[int]:
    a, b = list(a), list(b)
    size = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(size)]


# --- abandons ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Abandon:
    stage: int
    rider_id: int
    rider: str
    team_id: int | None
    team: str
    status: str
    reason: str


def abandons(*, season: Season, numbers: Iterable[int]) -> list[Abandon]:
    """Every rider out of the race in the stages ``numbers`` (those the visitor may see), in
    stage order, with the result's status and reason (one query, one for the team names)."""
    wanted = sorted(set(numbers))
    if season.race_id is None or not wanted:
        return []
    results = (
        StageResult.objects.filter(
            stage__race_id=season.race_pk, stage__number__in=wanted, status__in=OUT_OF_RACE
        )
        .select_related("rider", "stage")
        .order_by("stage__number", "rider__name")
    )
    names = season_team_names(season=season)
    return [
        Abandon(
            stage=result.stage.number,
            rider_id=result.rider_id,
            rider=result.rider.name,
            team_id=result.entry_team_id if result.entry_team_id in names else None,
            team=names.get(result.entry_team_id or 0, ""),
            status=result.get_status_display(),
            reason=result.status_reason,
        )
        for result in results
    ]


# --- the end of the race ----------------------------------------------------------------------


@dataclass(frozen=True)
class Podium:
    rank: int
    rider_id: int | None
    name: str
    team: str
    #: The winner's total time, the others' gap to him (a championship: the points).
    figure: str


@dataclass(frozen=True)
class Finale:
    """What the season page shows once its last round's results are visible."""

    podium: list[Podium]
    jerseys: list[Jersey]
    ranking: list[PlayerLine]

    @property
    def winner(self) -> PlayerLine | None:
        first = self.ranking[0] if self.ranking else None
        return first if first is not None and first.rank == 1 else None

    @property
    def shared_win(self) -> bool:
        """Two players' teams tied for the first place (a championship's countback tie)."""
        return len(self.ranking) > 1 and self.ranking[1].rank == 1


def last_round_number(*, season: Season) -> int:
    numbers = season.rounds.values_list("number", flat=True)
    return max(numbers, default=0)


def finale(
    *,
    season: Season,
    visible_upto: int,
    last: int | None = None,
    team_names: dict[int, str] | None = None,
) -> Finale | None:
    """The end of the race, when the last round's results (and every earlier round's) are
    visible (``visible_upto``: permissions.visible_upto); None before. A page that knows the
    last round's number and the teams' names already passes them (no query for them)."""
    if last is None:
        last = last_round_number(season=season)
    if not last or visible_upto < last:
        return None
    if season.race_id is None:
        # The last Grand Prix and the cars, read once for the podium and the ranking.
        grand_prix, cars = _grand_prix_of(season, last), _cars(season)
        ranking = _championship_ranking(
            season, last, _players(season), grand_prix=grand_prix, cars=cars
        )
        return Finale(podium=_drivers_podium(grand_prix, cars), jerseys=[], ranking=ranking)
    ranking = players_ranking(season=season, number=last)
    names = season_team_names(season=season) if team_names is None else team_names
    lines = (
        Standing.objects.filter(
            stage__race_id=season.race_pk,
            stage__number=last,
            classification=Classification.GENERAL,
            rank__lte=3,
        )
        .select_related("rider")
        .order_by("rank")
    )
    podium = [
        Podium(
            rank=line.rank or 0,
            rider_id=line.rider_id,
            name=line.rider.name if line.rider else "",
            team=names.get(line.entry_team_id or 0, ""),
            figure=clock(line.value) if line.rank == 1 else gap(line.gap),
        )
        for line in lines
    ]
    jerseys = [
        jersey
        for jersey in jersey_holders(season=season, number=last, team_names=names)
        if jersey.classification != Classification.GENERAL
    ]
    return Finale(podium=podium, jerseys=jerseys, ranking=ranking)


def _drivers_podium(grand_prix: int | None, cars: list[tuple[int, str, int]]) -> list[Podium]:
    teams = {driver_id: name for _team, name, driver_id in cars}
    lines = (
        MotorStanding.objects.filter(
            grand_prix_id=grand_prix,
            table=StandingTable.DRIVERS,
            position__lte=3,
        )
        .select_related("driver")
        .order_by("position")
    )
    return [
        Podium(
            rank=line.position,
            rider_id=None,
            name=line.driver.name if line.driver else "",
            team=teams.get(line.driver_id or 0, ""),
            figure=points_text(line.points),
        )
        for line in lines
    ]
