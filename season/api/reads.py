"""What each answer of the API holds, as plain data: read through the season's selectors and
the game's adapter, a fixed number of queries whatever the page asked (the page is cut from
the whole list)."""

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound

from plugins import adapter_for
from season import selectors
from season.api.answers import ApiAccess
from season.models import DiceLog, Round, Season, SeasonStanding
from season.permissions import status_visible
from season.rated import rated_game
from season.round_names import event_name, round_name_start
from season.services import season_standings


def seasons_readable(user: Any) -> QuerySet[Season]:
    """The public seasons and, for a member, his own (as organiser or member)."""
    seasons = Season.objects.select_related("organiser")
    if user.is_authenticated:
        mine = Q(organiser_id=user.pk) | Q(memberships__user_id=user.pk)
        return seasons.filter(Q(is_public=True) | mine).distinct().order_by("-created_at", "pk")
    return seasons.filter(is_public=True).order_by("-created_at", "pk")


def season_data(season: Season) -> dict[str, Any]:
    game = adapter_for(season.ruleset)
    return {
        "slug": season.slug,
        "name": season.name,
        "game": str(game.label),
        "ruleset": season.ruleset,
        "discipline": game.discipline,
        "round_noun": str(game.round_noun),
        "is_public": season.is_public,
        "auto_publish": season.auto_publish,
        "time_zone": season.time_zone,
        "organiser": season.organiser.username,
        "created_at": season.created_at,
    }


def season_get(access: ApiAccess) -> Season:
    return Season.objects.select_related("organiser").get(pk=access.state.pk)


def _visible(access: ApiAccess, status: str) -> bool:
    return status_visible(status, auto_publish=access.state.auto_publish, view=access.view)


def _round_data(access: ApiAccess, season: Season, round: Round) -> dict[str, Any]:
    visible = _visible(access, round.status)
    return {
        "number": round.number,
        "name": round_name_start(season, round.number),
        "event": round.season_event.number,
        "status": round.status,
        "orders_deadline": round.orders_deadline,
        "resolved_at": round.resolved_at if visible else None,
        "results_visible": visible,
        "commitment": round.commitment,
        # The seed decides the dice: shown only with the results, never before.
        "seed": round.seed if visible else None,
    }


def calendar(access: ApiAccess) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The season, and its events in calendar order, each with its rounds."""
    season = season_get(access)
    rounds = selectors.season_rounds(season=season)
    by_event: dict[int, list[dict[str, Any]]] = {}
    for round in rounds:
        by_event.setdefault(round.season_event_id, []).append(_round_data(access, season, round))
    events = [
        {
            "number": item.number,
            "name": event_name(season, item),
            "starters": item.starters,
            "rounds": by_event.get(item.pk, []),
        }
        for item in season.calendar()
    ]
    return season_data(season), events


def round_get(access: ApiAccess, number: int) -> tuple[Season, Round]:
    season = season_get(access)
    round = (
        season.rounds.select_related("stage", "grand_prix", "season_event")
        .filter(number=number)
        .first()
    )
    if round is None:
        raise NotFound(_("No round %(number)d in this season.") % {"number": number})
    return season, round


def round_detail(access: ApiAccess, number: int) -> dict[str, Any]:
    season, round = round_get(access, number)
    data = _round_data(access, season, round)
    game = adapter_for(season.ruleset)
    data["tables"] = (
        [{"key": k, "label": label, "unit": unit} for k, label, unit in game.api_tables()]
        if _standings_visible(access, number)
        else []
    )
    return data


def _results_round(access: ApiAccess, number: int) -> tuple[Season, Round]:
    season, round = round_get(access, number)
    if not _visible(access, round.status):
        raise NotFound(_("The results of round %(number)d are not published.") % {"number": number})
    return season, round


def _standings_visible(access: ApiAccess, number: int) -> bool:
    # The standings after a round add up every round before it: all must be visible.
    return number <= access.state.visible_upto(access.view)


def _teams(season: Season) -> tuple[dict[int, str], dict[int, int]]:
    """The league teams' names, and each seat's competitor's team (two queries)."""
    game = adapter_for(season.ruleset)
    team_of = dict(season.seats.values_list(f"{game.seat_field}_id", "team_id"))
    return selectors.season_team_names(season=season), team_of


def round_results(access: ApiAccess, number: int) -> list[dict[str, Any]]:
    season, round = _results_round(access, number)
    team_names, team_of = _teams(season)
    return adapter_for(season.ruleset).api_results(
        round.event, team_names=team_names, team_of=team_of
    )


def round_standing(access: ApiAccess, number: int, table: str) -> list[dict[str, Any]]:
    season, round = round_get(access, number)
    if not _standings_visible(access, number):
        raise NotFound(
            _("The standings after round %(number)d are not published.") % {"number": number}
        )
    team_names, team_of = _teams(season)
    lines = adapter_for(season.ruleset).api_standing(
        round.event, table, team_names=team_names, team_of=team_of
    )
    if lines is None:
        raise NotFound(_("No table %(table)s after a round of this season.") % {"table": table})
    return lines


def round_events(access: ApiAccess, number: int) -> list[dict[str, Any]]:
    season, round = _results_round(access, number)
    return adapter_for(season.ruleset).api_events(round.event)


def round_dice(access: ApiAccess, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The dice log of a round whose results are visible: its seed, count and digest, and its
    rolls (each the ruleset's row)."""
    _season, round = _results_round(access, number)
    log = DiceLog.objects.filter(round=round).first()
    if log is None:
        raise NotFound(_("Round %(number)d keeps no dice log.") % {"number": number})
    about = {"ruleset": log.ruleset, "seed": log.seed, "rolls": log.count, "sha256": log.sha256}
    return about, [{"index": i, "row": list(row)} for i, row in enumerate(log.rolls)]


def season_table(access: ApiAccess, table: str, after: int | None) -> tuple[int, list[Any]]:
    """The season's table ``table`` (players' teams, riders or drivers) after round ``after``
    (None: the latest the public may see): the round it stands after (0: none yet), its lines."""
    if table not in SeasonStanding.Table.values:
        raise NotFound(_("No season table %(table)s.") % {"table": table})
    season = season_get(access)
    last = access.state.visible_upto(access.view)
    shown = season_standings.standings_round(season=season, after=after or last) if last else None
    if shown is None:
        return 0, []
    lines = season_standings.standings_lines(season=season, number=shown, table=table)
    return shown, [
        {
            "rank": line.rank,
            "key": line.team_id if table == SeasonStanding.Table.PLAYERS else line.competitor_id,
            "name": line.name,
            "points": float(line.points),
            "wins": line.wins,
            "detail": line.detail or {},
        }
        for line in lines
    ]


def competitors(access: ApiAccess) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The season's riders (or cars and their drivers), team by team, with the values its
    pages show of each (a rider's ratings as the season keeps them; a car's number and
    engine), and those values' names."""
    season = season_get(access)
    game = rated_game(season)
    columns = [
        {"key": c.key, "label": str(c.label), "rating": c.rating} for c in game.pick_columns()
    ]
    lines = []
    for team_seats in selectors.seats_by_team(season=season).values():
        for seat in team_seats:
            pickable = getattr(seat, game.seat_field)
            lines.append(
                {
                    "id": pickable.pk,
                    "name": seat.name,
                    "number": seat.number,
                    "role": seat.role if game.seat_roles else "",
                    "team_id": seat.team_id,
                    "team": seat.team.name,
                    "values": game.pick_values(pickable),
                }
            )
    return columns, lines
