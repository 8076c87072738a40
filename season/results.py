"""Reads for the results a fan reads at the end (issue 17): the abandons of the season, the
players' ranking (which player wins the league) and the end of the race (podium, final jerseys,
the league's winner). Each function is a fixed, small number of queries; what a visitor may see
is decided by the caller (season.permissions) and passed in as round numbers.

The players' ranking (docs/league.md "The players' ranking"), the podium, the final jerseys
and who left the race are the game's (its adapter's league_ranking, league_end and
league_abandons: a stage race ranks the players' teams as its organiser chose, by fantasy points,
the Teams classification among them or their best rider on the GC, a championship scores each
as a constructor of its two cars); this module asks for them with the season's players, team
names, seats and choice (Season.player_ranking), and gives every page the same lines.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.utils.translation import gettext as _

from plugins import adapter_for
from season.models import Season, SeasonStanding
from season.selectors import Jersey, season_team_names, seats_by_team
from season.services.season_standings import standings_lines


@dataclass(frozen=True)
class PlayerLine:
    """One player's team in the players' ranking (every player's team has a place)."""

    rank: int | None
    team_id: int
    team: str
    player: str
    #: The team's points, time or best rider (the season's ranking), as the page shows it.
    score: str
    #: The gap to the first team, the best rider's GC place, or the wins (championship).
    behind: str


def _players(season: Season) -> dict[int, tuple[str, str]]:
    """The players' teams: id -> (team name, player's username)."""
    return {
        pk: (name, username)
        for pk, name, username in season.teams.filter(owner__isnull=False).values_list(
            "pk", "name", "owner__username"
        )
    }


def _round_event(season: Season, number: int) -> Any:
    """What round ``number`` plays (its stage or its Grand Prix; None: no such round)."""
    round = season.rounds.select_related("stage", "grand_prix").filter(number=number).first()
    return round.event if round is not None else None


def players_ranking(*, season: Season, number: int) -> list[PlayerLine]:
    """The players' teams ranked after round ``number`` (see the module's docstring); empty
    before the first round."""
    if number < 1:
        return []
    return _ranking(season, _round_event(season, number), _players(season))


def _ranking(
    season: Season, event: Any, players: dict[int, tuple[str, str]], seats: Any = None
) -> list[PlayerLine]:
    """The game's ranking of the players' teams (see _lines)."""
    lines = adapter_for(season.ruleset).league_ranking(
        event,
        players=players,
        seats=seats or partial(seats_by_team, season=season),
        scoring=season.player_ranking,
    )
    return _lines(lines, players)


def _lines(lines: Iterable[Any], players: dict[int, tuple[str, str]]) -> list[PlayerLine]:
    """The game's lines as PlayerLines, then any player's team it left out (not ranked), by
    name."""
    ranking = [
        PlayerLine(rank, team_id, *players[team_id], score=score, behind=behind)
        for rank, team_id, score, behind in lines
    ]
    seen = {line.team_id for line in ranking}
    ranking.extend(
        PlayerLine(None, team_id, name, player, score="", behind="")
        for team_id, (name, player) in sorted(players.items(), key=lambda item: item[1][0])
        if team_id not in seen
    )
    return ranking


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


def abandons(*, season: Season, numbers: Iterable[int]) -> list[Abandon] | None:
    """Every rider out of the race in the stages ``numbers`` (those the visitor may see), in
    stage order, with the result's status and reason (one query, one for the team names); None
    for a game that lists them on each round's page instead (a championship)."""
    wanted = sorted(set(numbers))
    adapter = adapter_for(season.ruleset)
    names = season_team_names(season=season) if wanted else {}
    found: list[Abandon] = []
    for item, within in _numbers_by_event(season, wanted):
        lines = adapter.league_abandons(item.event, numbers=within, team_names=names)
        if lines is None:
            return None
        # A line's stage is its race's; the season's pages name rounds by their number.
        offset = (item.first_round or 1) - 1
        found += [Abandon(**(line | {"stage": line["stage"] + offset})) for line in lines]
    return found


def _numbers_by_event(season: Season, numbers: list[int]) -> list[tuple[Any, list[int]]]:
    """The calendar's events, each with the numbers within it of the season's rounds
    ``numbers`` that it holds (every event, even with none)."""
    within: dict[int, list[int]] = {item.pk: [] for item in season.calendar()}
    for number in numbers:
        item, number_within = season.event_of_round(number)
        if item is not None:
            within[item.pk].append(number_within)
    return [(item, within[item.pk]) for item in season.calendar()]


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
class Moments:
    """A player's team's best moments of the season, for the end of the race."""

    line: PlayerLine
    moments: list[str]


@dataclass(frozen=True)
class Finale:
    """What the season page shows once its last round's results are visible: the league's
    winner, the players' podium and best moments, then the game's own podium and jerseys."""

    podium: list[Podium]
    jerseys: list[Jersey]
    ranking: list[PlayerLine]
    #: The heading of the game's podium (the final podium, the drivers' championship).
    podium_title: str = ""
    #: Each player's team's best moments, in the ranking's order.
    moments: list[Moments] = field(default_factory=list)
    #: What the players' scores count, after each on the players' podium ("points"; empty
    #: for a time or a rider).
    score_unit: str = ""
    #: The section's heading (a stage race's race ends, a championship does).
    title: str = ""
    #: What the figure after each score on the players' podium is (the players' ranking's
    #: column heading: "Gap (points)", "GC place", "Wins").
    behind_label: str = ""
    #: A calendar of several events: the players' teams' table of the whole season after its
    #: last round (season.services.season_standings), whose first wins the year.
    season_table: list[Any] = field(default_factory=list)
    #: A calendar of several events: the last race's name, whose own winner the players'
    #: ranking names ("" for a calendar of one, where the race's winner wins the league).
    race_name: str = ""

    @property
    def season_winner(self) -> Any:
        """The season's first players' team (the trophy of the year); None for a calendar of
        one event, or a tie on everything."""
        table = self.season_table
        if not table or (len(table) > 1 and table[1].rank == 1):
            return None
        return table[0]

    @property
    def players_podium(self) -> list[PlayerLine]:
        """The players' teams on the first three places."""
        return [line for line in self.ranking if line.rank is not None and line.rank <= 3]

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
    rounds: list[Any] | None = None,
    seats: Any = None,
) -> Finale | None:
    """The end of the race, when the last round's results (and every earlier round's) are
    visible (``visible_upto``: permissions.visible_upto); None before. A page that knows the
    last round's number, the teams' names, the rounds (with their events) or the seats (a
    function that reads them once: seats_once) already passes them (no query for them)."""
    if last is None:
        last = last_round_number(season=season)
    if not last or visible_upto < last:
        return None
    # The last round's event and the seats, read once for the podium and the ranking.
    known = {round.number: round for round in rounds or []}
    event = known[last].event if last in known else _round_event(season, last)
    seats = seats or seats_once(season)
    names = season_team_names(season=season) if team_names is None else team_names
    players = _players(season)
    adapter = adapter_for(season.ruleset)
    end = adapter.league_end(
        event, team_names=names, seats=seats, players=players, scoring=season.player_ranking
    )
    columns = adapter.league_ranking_columns(season.player_ranking)
    ranking = _lines(end["ranking"], players)
    moments = end["moments"]
    return Finale(
        podium=[Podium(*line) for line in end["podium"]],
        jerseys=end["jerseys"],
        ranking=ranking,
        podium_title=str(end.get("podium_title", "")),
        score_unit=str(end.get("score_unit", "")),
        title=str(
            end.get("title")
            or (_("The end of the race") if season.single_event else _("The end of the season"))
        ),
        behind_label=str(columns.get("behind", "")),
        moments=[Moments(line, list(moments.get(line.team_id, ()))) for line in ranking],
        season_table=_season_table(season, last),
        race_name=""
        if season.single_event
        else adapter.league_source(season.current_event().event),
    )


def _season_table(season: Season, last: int) -> list[Any]:
    """The players' teams' season table after round ``last``; empty for a calendar of one."""
    if season.single_event:
        return []
    return standings_lines(season=season, number=last, table=SeasonStanding.Table.PLAYERS)


def seats_once(season: Season) -> Any:
    """A function that reads the season's seats (selectors.seats_by_team) when first asked, and
    gives the same ones after: a page's parts and its end of the race (a championship's
    podium and ranking both name the cars) read them once."""
    kept: list[Any] = []

    def once() -> Any:
        if not kept:
            kept.append(seats_by_team(season=season))
        return kept[0]

    return once
