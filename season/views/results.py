"""The results a fan reads at the end (issue 17): the players' ranking and the abandons, both
kept in the page cache like the standings (season.cache), both showing only what this visitor
may see (season.permissions.visible_upto, status_visible)."""

from functools import partial

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from plugins import adapter_for
from season import cache as page_cache
from season import results
from season.models import Season
from season.permissions import status_visible
from season.result_tables import AbandonTable, PlayersRankingTable
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
            "numbers": range(1, last + 1),
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
