"""The end of a stage race in a league (docs/league.md "The players' ranking"): the players'
teams ranked as the season chose (fantasy points, races.league.fantasy; the Teams
classification among them; their best rider on the GC), every one of them after every stage,
the podium of the GC and the final jerseys, the riders out of the race. Each reads the race's
own rows, with the season's players and team names given as plain values
(CyclingAdapter.league_ranking, league_end, league_abandons)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from races.formatting import clock, gap
from races.league import fantasy
from races.league.jerseys import jerseys_of
from races.league.reasons import reason_words
from races.models import Classification, Race, Stage, StageResult, Standing

#: The players' rankings a stage race offers (season.models.PlayerRanking's values).
POINTS, TEAMS, BEST_GC = "points", "teams", "best_gc"

#: The rankings a stage race's organiser chooses from (GameAdapter.league_ranking_choices).
CHOICES: Sequence[tuple[str, Any]] = (
    (
        POINTS,
        gettext_lazy("fantasy points (stage places, daily classifications, jerseys, finals)"),
    ),
    (TEAMS, gettext_lazy("the Teams classification among the players' teams")),
    (BEST_GC, gettext_lazy("each team's best rider on the general classification")),
)

#: Each ranking's column headings (season.result_tables.PlayersRankingTable: score, behind).
COLUMNS: Mapping[str, Mapping[str, Any]] = {
    POINTS: {"score": gettext_lazy("Points"), "behind": gettext_lazy("Gap (points)")},
    TEAMS: {"score": gettext_lazy("Time"), "behind": gettext_lazy("Gap")},
    BEST_GC: {"score": gettext_lazy("Best rider"), "behind": gettext_lazy("GC place")},
}

#: A place after every real one: the sort key of a team without it.
_LAST = 1 << 30

Line = tuple[int | None, int, str, str]

#: The statuses of a rider out of the race: every one but finished.
OUT_OF_RACE = [s for s in StageResult.Status.values if s != StageResult.Status.FINISHED]


def players_ranking(
    stage: Stage, *, players: Mapping[int, Sequence[str]], scoring: str
) -> list[Line]:
    """Every player's team (``players``: id -> (team name, player)) ranked after ``stage`` by
    ``scoring`` (POINTS, TEAMS or BEST_GC), as (place, team id, score, behind)."""
    if scoring == TEAMS:
        return teams_ranking(stage, players=players)
    if scoring == BEST_GC:
        return best_gc_ranking(stage, players=players)
    return points_ranking(stage, players=players)


def points_ranking(stage: Stage, *, players: Mapping[int, Sequence[str]]) -> list[Line]:
    """By fantasy points; ties broken by the more stage wins, then the better best rider on
    the GC (a team with none left after the others), then the team's name. Behind: the points
    the team lacks to the first."""
    return points_lines(fantasy.team_scores(stage, players=players), players=players)


def points_lines(
    scores: Mapping[int, fantasy.TeamScore], *, players: Mapping[int, Sequence[str]]
) -> list[Line]:
    def key(team_id: int) -> tuple[int, int, int, str]:
        score = scores[team_id]
        best = score.best_gc[0] if score.best_gc else _LAST
        return (-score.points, -score.stage_wins, best, players[team_id][0])

    order = sorted(scores, key=key)
    first = scores[order[0]].points if order else 0
    return [
        (place, team_id, str(scores[team_id].points), _behind(first - scores[team_id].points))
        for place, team_id in enumerate(order, start=1)
    ]


def _behind(points: int) -> str:
    return f"−{points}" if points else ""


def best_gc_ranking(stage: Stage, *, players: Mapping[int, Sequence[str]]) -> list[Line]:
    """By each team's best-placed rider on the GC after ``stage`` (his name, his place); the
    teams with no rider left on it come after the others, sharing the place after the last
    rider's team."""
    return _best_gc_lines(fantasy.best_gc(stage, players=players), players=players)


def _best_gc_lines(
    ranked: Sequence[tuple[int, int, str]], *, players: Mapping[int, Sequence[str]]
) -> list[Line]:
    lines: list[Line] = [
        (place, team_id, name, str(rank))
        for place, (team_id, rank, name) in enumerate(ranked, start=1)
    ]
    seen = {team_id for team_id, _rank, _name in ranked}
    left = sorted((t for t in players if t not in seen), key=lambda t: players[t][0])
    lines.extend((len(ranked) + 1, team_id, "", _("none left")) for team_id in left)
    return lines


def teams_ranking(stage: Stage, *, players: Mapping[int, Sequence[str]]) -> list[Line]:
    """The Teams classification among the players' teams, then those it left out (too few
    riders at a finish), ranked after them by their best rider on the GC, then by name."""
    classified = ranking(stage, players=players)
    if len(classified) == len(players):
        return list(classified)
    return _with_unclassified(
        classified, players=players, best=fantasy.best_gc(stage, players=players)
    )


def _with_unclassified(
    classified: Sequence[Line],
    *,
    players: Mapping[int, Sequence[str]],
    best: Sequence[tuple[int, int, str]],
) -> list[Line]:
    lines = list(classified)
    seen = {team_id for _place, team_id, _score, _behind in lines}
    places = {team_id: rank for team_id, rank, _name in best}
    left = sorted(
        (t for t in players if t not in seen), key=lambda t: (places.get(t, _LAST), players[t][0])
    )
    lines.extend(
        (place, team_id, "", _("not classified"))
        for place, team_id in enumerate(left, start=len(lines) + 1)
    )
    return lines


def _best_of(scores: Mapping[int, fantasy.TeamScore]) -> list[tuple[int, int, str]]:
    return sorted(
        ((t, s.best_gc[0], s.best_gc[1]) for t, s in scores.items() if s.best_gc),
        key=lambda line: line[1],
    )


def _scored(
    rows: fantasy.RaceRows,
    scores: Mapping[int, fantasy.TeamScore],
    *,
    players: Mapping[int, Sequence[str]],
    scoring: str,
) -> list[Line]:
    """The ranking by ``scoring`` from what the end of the race read (no query)."""
    best = _best_of(scores)
    if scoring == TEAMS:
        teams = rows.after(Classification.TEAMS)
        classified = _teams_lines(
            (row.team_id, row.rank, row.value) for row in teams if row.team_id in players
        )
        return _with_unclassified(classified, players=players, best=best)
    if scoring == BEST_GC:
        return _best_gc_lines(best, players=players)
    return points_lines(scores, players=players)


def moments(scores: Mapping[int, fantasy.TeamScore], *, scoring: str) -> dict[int, list[str]]:
    """Each player's team's best moments (``scores``: after the last stage): its best stage
    place, its days in a jersey and (fantasy points) its biggest day."""
    told: dict[int, list[str]] = {}
    for team_id, score in scores.items():
        lines = told.setdefault(team_id, [])
        if score.best_stage:
            place, number, rider = score.best_stage
            values = {"place": place, "stage": number, "rider": rider}
            lines.append(
                _("Best stage result: %(rider)s won stage %(stage)s") % values
                if place == 1
                else _("Best stage result: %(rider)s, place %(place)s on stage %(stage)s") % values
            )
        if score.jersey_days:
            lines.append(
                ngettext("%(days)s day in a jersey", "%(days)s days in a jersey", score.jersey_days)
                % {"days": score.jersey_days}
            )
        if scoring == POINTS and score.best_day:
            points, number = score.best_day
            lines.append(
                _("Biggest day: %(points)s points on stage %(stage)s")
                % {"points": points, "stage": number}
            )
    return told


def ranking(stage: Stage, *, players: Mapping[int, Any]) -> list[tuple[int, int, str, str]]:
    """The Teams classification after ``stage`` among the players' teams only (the computer's
    teams take no place in it): (place, team id, the team's time, its gap to the best player's
    team). A team the classification left out is not in it."""
    lines = (
        Standing.objects.filter(
            stage__race_id=stage.race_id,
            stage__number=stage.number,
            classification=Classification.TEAMS,
            entry_team_id__in=list(players),
        )
        .order_by("rank")
        .values_list("entry_team_id", "rank", "value")
    )
    return _teams_lines(lines)


def _teams_lines(
    lines: Iterable[tuple[int | None, int | None, int]],
) -> list[tuple[int, int, str, str]]:
    ranked = [
        (team_id, value)
        for team_id, rank, value in lines
        if rank is not None and team_id is not None
    ]
    best = ranked[0][1] if ranked else 0
    return [
        (place, team_id, clock(value), gap(value - best))
        for place, (team_id, value) in enumerate(ranked, start=1)
    ]


def end(
    stage: Stage,
    *,
    team_names: Mapping[int, str],
    players: Mapping[int, Sequence[str]],
    scoring: str,
) -> dict[str, Any]:
    """The GC's podium after the last stage ``stage`` (rank, rider id, name, team, the winner's
    time or the others' gap), the final jerseys but the yellow one, the players' ranking by
    ``scoring`` and each player's team's best moments (the fantasy points read once for
    both)."""
    rows = fantasy.race_rows(stage, players=players)
    scores = fantasy.scores_of(rows, players=players)
    leaders = {
        row.classification: (row.rider_id, row.name, row.team_id)
        for row in rows.standings
        if row.number == stage.number and row.rank == 1
    }
    return {
        "podium_title": _("Final podium"),
        "podium": [
            (
                row.rank,
                row.rider_id,
                row.name,
                team_names.get(row.team_id or 0, ""),
                clock(row.value) if row.rank == 1 else gap(row.gap),
            )
            for row in rows.after(Classification.GENERAL)
            if row.rank <= 3
        ],
        "jerseys": [
            jersey
            for jersey in jerseys_of(leaders, team_names=lambda: team_names)
            if jersey.classification != Classification.GENERAL
        ],
        "ranking": _scored(rows, scores, players=players, scoring=scoring),
        "score_unit": _("points") if scoring == POINTS else "",
        "moments": moments(scores, scoring=scoring),
    }


def abandons(
    race: Race, *, numbers: Iterable[int], team_names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """Every rider out of the race in the stages ``numbers``, in stage order, with the result's
    status and reason (one query)."""
    results = (
        StageResult.objects.filter(
            stage__race_id=race.pk, stage__number__in=list(numbers), status__in=OUT_OF_RACE
        )
        .select_related("rider", "stage")
        .order_by("stage__number", "rider__name")
    )
    return [
        {
            "stage": result.stage.number,
            "rider_id": result.rider_id,
            "rider": result.rider.name,
            "team_id": result.entry_team_id if result.entry_team_id in team_names else None,
            "team": team_names.get(result.entry_team_id or 0, ""),
            "status": result.get_status_display(),
            "reason": reason_words(status=result.status, reason=result.status_reason),
        }
        for result in results
    ]
