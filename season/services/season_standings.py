"""The standings across the season (docs/league.md "Standings across the season"): after every
round, the riders' and the players' teams' tables of the whole calendar so far, computed by the
game's adapter from the stored results (GameAdapter.season_tables) and kept as a snapshot
(SeasonStanding), written in the round's own transaction (season.services.resolution)."""

from functools import partial

from django.db import transaction

from plugins import SeasonTables, StandingLine, adapter_for
from season.models import DONE_STATUSES, Season, SeasonStanding
from season.selectors import seats_by_team


def season_players(season: Season) -> dict[int, tuple[str, str]]:
    """The players' teams: id -> (team name, player's username)."""
    return {
        pk: (name, username)
        for pk, name, username in season.teams.filter(owner__isnull=False).values_list(
            "pk", "name", "owner__username"
        )
    }


def events_upto(*, season: Season, number: int) -> list[tuple[int, object, object]]:
    """Every event of the calendar raced up to round ``number``: (its number, its league
    copy, the event of its last round counted: a stage, a Grand Prix)."""
    events: dict[int, tuple[int, object, object]] = {}
    for round in (
        season.rounds.filter(number__lte=number)
        .select_related("season_event__race", "season_event__championship", "stage", "grand_prix")
        .order_by("number")
    ):
        item = round.season_event
        events[item.number] = (item.number, item.event, round.event)
    return [events[key] for key in sorted(events)]


def season_tables_compute(*, season: Season, number: int) -> SeasonTables:
    """The season's tables after round ``number``, recomputed from the stored results."""
    return adapter_for(season.ruleset).season_tables(
        events=events_upto(season=season, number=number),
        players=season_players(season),
        seats=partial(seats_by_team, season=season),
        system=season.season_points,
    )


def _rows(
    season: Season, number: int, table: str, lines: list[StandingLine]
) -> list[SeasonStanding]:
    players = table == SeasonStanding.Table.PLAYERS
    return [
        SeasonStanding(
            season=season,
            round=number,
            table=table,
            rank=line.rank,
            team_id=line.key if players else None,
            competitor_id=None if players else line.key,
            name=line.name[:120],
            points=line.points,
            wins=line.wins,
            detail=dict(line.detail),
        )
        for line in lines
    ]


def season_standings_write(*, season: Season, number: int) -> int:
    """Write the season's tables after round ``number`` (replacing any snapshot of it); the
    number of lines written."""
    tables = season_tables_compute(season=season, number=number)
    with transaction.atomic():
        SeasonStanding.objects.filter(season=season, round=number).delete()
        rows = _rows(season, number, SeasonStanding.Table.RIDERS, list(tables.riders))
        rows += _rows(season, number, SeasonStanding.Table.PLAYERS, list(tables.players))
        SeasonStanding.objects.bulk_create(rows)
    return len(rows)


def season_standings_rebuild(*, season: Season) -> list[int]:
    """Write the season's tables after every round done (a season resolved before the
    standings across the season existed); the round numbers written."""
    numbers = list(
        season.rounds.filter(status__in=DONE_STATUSES)
        .order_by("number")
        .values_list("number", flat=True)
    )
    with transaction.atomic():
        SeasonStanding.objects.filter(season=season).exclude(round__in=numbers).delete()
        for number in numbers:
            season_standings_write(season=season, number=number)
    return numbers


def standings_round(*, season: Season, after: int | None = None) -> int | None:
    """The latest round with stored season standings, at most ``after`` (None: any)."""
    rows = SeasonStanding.objects.filter(season=season)
    if after is not None:
        rows = rows.filter(round__lte=after)
    return rows.order_by("-round").values_list("round", flat=True).first()


def standings_lines(*, season: Season, number: int, table: str) -> list[SeasonStanding]:
    """The stored lines of ``table`` after round ``number``, in order."""
    return list(
        SeasonStanding.objects.filter(season=season, round=number, table=table).order_by(
            "rank", "name"
        )
    )


def players_points_by_round(
    *, season: Season, upto: int
) -> tuple[list[int], list[tuple[str, list[float | None]]]]:
    """The rounds with standings up to ``upto`` and each players' team's points after each
    (in the order of the table after the last of them), for the chart."""
    rows = list(
        SeasonStanding.objects.filter(
            season=season, table=SeasonStanding.Table.PLAYERS, round__lte=upto
        ).values_list("round", "team_id", "name", "points", "rank")
    )
    rounds = sorted({row[0] for row in rows})
    if not rounds:
        return [], []
    index = {number: i for i, number in enumerate(rounds)}
    series: dict[int, list[float | None]] = {}
    names: dict[int, str] = {}
    last_rank: dict[int, int] = {}
    for number, team_id, name, points, rank in rows:
        values = series.setdefault(team_id, [None] * len(rounds))
        values[index[number]] = float(points)
        names[team_id] = name
        if number == rounds[-1]:
            last_rank[team_id] = rank
    order = sorted(series, key=lambda team: (last_rank.get(team, 10**6), names[team]))
    return rounds, [(names[team], series[team]) for team in order]
