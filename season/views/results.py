"""The results a fan reads at the end (issue 17): the players' ranking and the abandons, both
kept in the page cache like the standings (season.cache), both showing only what this visitor
may see (season.permissions.visible_upto, status_visible)."""

from functools import partial

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from motor.charts.points_chart import points_chart_svg
from plugins import adapter_for
from season import cache as page_cache
from season import results
from season.models import Season, SeasonStanding
from season.permissions import status_visible
from season.result_tables import AbandonTable, PlayersRankingTable, SeasonStandingsTable
from season.round_names import event_name, round_choices
from season.services import season_standings
from tableexport import table_configure


def _season(access: page_cache.Access) -> Season:
    return Season.objects.select_related("organiser").get(pk=access.state.pk)


def players_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    last = access.state.visible_upto(access.view)
    try:
        number = int(request.GET.get("after", last))
    except ValueError:
        raise Http404(_("No such stage.")) from None
    if not 0 <= number <= last:
        raise Http404(_("That stage is not resolved yet."))
    build = partial(_players_page, request, access, number, last)
    return page_cache.cached_page(request, access, "players", build)


def _players_page(
    request: HttpRequest, access: page_cache.Access, number: int, last: int
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    ranking = results.players_ranking(season=season, number=number)
    adapter = adapter_for(season.ruleset)
    table = PlayersRankingTable(
        ranking, season=season, columns=adapter.league_ranking_columns(season.player_ranking)
    )
    export = table_configure(request, table, f"{season.slug}-players-after-{number}")
    if export:
        return export
    final = number and number == results.last_round_number(season=season)
    return page_cache.Page(
        adapter.league_templates["players"],
        {
            "season": season,
            "table": table,
            "number": number,
            "numbers": round_choices(season, last),
            "final": final,
            "scoring": season.player_ranking,
        },
        tz=season.tz,
    )


def abandons(request: HttpRequest, slug: str) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    state = access.state
    visible = [
        number
        for number, status in state.statuses
        if status_visible(status, auto_publish=state.auto_publish, view=access.view)
    ]
    build = partial(_abandons_page, request, access, visible)
    if "_export" in request.GET:
        built = build()
        if isinstance(built, HttpResponse):
            return built
    return page_cache.cached_page(request, access, "abandons", build)


def _abandons_page(
    request: HttpRequest, access: page_cache.Access, visible: list[int]
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    lines = results.abandons(season=season, numbers=visible)
    if lines is None:
        raise Http404(_("A championship lists its retirements on each Grand Prix's page."))
    table = AbandonTable(lines, season=season)
    export = table_configure(request, table, f"{season.slug}-abandons")
    if export:
        return export
    return page_cache.Page(
        "season/public/abandons.html",
        {"season": season, "table": table, "upto": max(visible, default=0)},
        tz=season.tz,
    )


def season_table(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    """The standings across the season (players' teams or riders) after a round, its history
    (``?after=N``), the players' points chart and the CSV export."""
    if table not in SeasonStanding.Table.values:
        raise Http404(_("No such table."))
    access = page_cache.season_access(request, slug)
    last = access.state.visible_upto(access.view)
    try:
        number = int(request.GET.get("after", last))
    except ValueError:
        raise Http404(_("No such round.")) from None
    if not 0 <= number <= last:
        raise Http404(_("That round is not resolved yet."))
    build = partial(_season_table_page, request, access, table, number, last)
    return page_cache.cached_page(request, access, f"season-table-{table}", build)


def _chart_texts() -> dict[str, str]:
    return {
        "no_points": _("No standings yet"),
        "round_axis": _("Round"),
        "points_axis": _("Points"),
        "description": _("Points after rounds {first} to {last}: {lines}"),
        "line": _("{name} {points}"),
        "point": _("{name}, round {round}: {points} points"),
    }


def _season_table_page(
    request: HttpRequest, access: page_cache.Access, table: str, number: int, last: int
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    shown = season_standings.standings_round(season=season, after=number) if number else None
    lines = (
        season_standings.standings_lines(season=season, number=shown, table=table)
        if shown is not None
        else []
    )
    raced = {n for line in lines for n in line.detail.get("races", {})}
    # Each event's column is named after the real race (its league copy's source).
    events = [
        (item.number, event_name(season, item))
        for item in season.calendar()
        if str(item.number) in raced
    ]
    standings = SeasonStandingsTable(lines, season=season, events=events)
    export = table_configure(request, standings, f"{season.slug}-season-{table}-after-{number}")
    if export:
        return export
    rounds, series = season_standings.players_points_by_round(season=season, upto=shown or 0)
    chart = points_chart_svg(
        series[:10],
        rounds=rounds,
        title=_("The players' points after each round"),
        texts=_chart_texts(),
    )
    return page_cache.Page(
        "season/season_table.html",
        {
            "season": season,
            "table": standings,
            "table_kind": table,
            "number": number,
            "numbers": round_choices(season, last),
            "final": bool(number) and number == results.last_round_number(season=season),
            "chart": chart,
        },
        tz=season.tz,
    )
