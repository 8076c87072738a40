"""The pages of its own event a game serves under a league season (the adapter's
league_event_pages): a championship's whole Grand Prix, its standings and what-if table, a
driver's and a constructor's season. The season checks who may see what, and keeps the pages
in its cache; the game's adapter makes them.

Each checks the permissions of its sibling pages: season.view_season (404 for a private season
one may not see) and the results a visitor may see (season.permissions.status_visible,
visible_upto): a round's page once its results are visible, the standings after the latest
visible round at most, the pages that sum every round once nothing resolved is hidden."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from plugins import GameAdapter, adapter_for
from season import cache as page_cache
from season import selectors
from season.models import DONE_STATUSES, Round, Season
from season.permissions import results_view, status_visible


def _served(season: Season, page: str) -> GameAdapter:
    """The season's adapter, if its game serves ``page`` (404 otherwise)."""
    adapter = adapter_for(season.ruleset)
    if page not in adapter.league_event_pages:
        raise Http404(_("This season runs a stage race, not a championship."))
    return adapter


def _renderer(season: Season) -> Any:
    """The game's page as the cache keeps it, in the season's time zone."""

    def page(template: str, context: dict[str, Any]) -> page_cache.Page:
        return page_cache.Page(template, context, tz=season.tz)

    return page


def round_event(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's whole event (a Grand Prix: track map, replay, qualifying and grid, results,
    retirements, pit stops, lap chart) once this visitor may see its results; before that the
    round's page says where it stands."""
    access = page_cache.season_access(request, slug)
    status = access.state.status_of(number)
    if status is None:
        raise Http404(_("No such Grand Prix."))
    if not status_visible(status, auto_publish=access.state.auto_publish, view=access.view):
        return redirect("season-stage", slug=slug, number=number)

    def build() -> Any:
        season = selectors.season_visible_get(slug=slug, user=request.user)
        adapter = _served(season, "round")
        round = get_object_or_404(
            Round.objects.select_related("stage", "grand_prix"), season=season, number=number
        )
        return adapter.league_event_page(
            "round",
            request,
            season=season,
            event=round.event,
            key=number,
            upto=access.state.visible_upto(access.view),
            renderer=_renderer(season),
        )

    return page_cache.cached_page(request, access, "event-round", build)


def event_standings(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    """The event's own standings (a championship's drivers' or constructors', with the points
    chart), after the latest round this visitor may see at most."""
    access = page_cache.season_access(request, slug)
    upto = access.state.visible_upto(access.view)
    raw = request.GET.get("after")
    try:
        after = int(raw) if raw is not None else upto
    except ValueError:
        raise Http404(_("No such round.")) from None
    if after > upto:
        raise Http404(_("That round is not resolved yet."))

    def build() -> Any:
        season = selectors.season_visible_get(slug=slug, user=request.user)
        adapter = _served(season, "standings")
        if upto:
            query = request.GET.copy()
            query["after"] = str(after)
            request.GET = query  # type: ignore[assignment]
        return adapter.league_event_page(
            "standings",
            request,
            season=season,
            event=season.event,
            key=table,
            upto=upto,
            renderer=_renderer(season),
        )

    return page_cache.cached_page(request, access, f"event-standings-{table}", build)


def _all_visible(request: HttpRequest, season: Season) -> None:
    """The pages that sum every resolved round (what-if, a driver's or constructor's season)
    are shown once nothing resolved is hidden from this visitor."""
    view = results_view(season, request.user)
    for status in season.rounds.values_list("status", flat=True):
        if status in DONE_STATUSES and not status_visible(
            status, auto_publish=season.auto_publish, view=view
        ):
            raise Http404(_("The latest results of this season are not published yet."))


def _whole_season_page(request: HttpRequest, slug: str, page: str, key: str) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    adapter = _served(season, page)
    _all_visible(request, season)
    return adapter.league_event_page(
        page, request, season=season, event=season.event, key=key, upto=0, renderer=None
    )


def what_if(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    return _whole_season_page(request, slug, "what-if", table)


def driver_detail(request: HttpRequest, slug: str, driver: str) -> HttpResponse:
    return _whole_season_page(request, slug, "driver", driver)


def constructor_detail(request: HttpRequest, slug: str, constructor: str) -> HttpResponse:
    return _whole_season_page(request, slug, "constructor", constructor)
