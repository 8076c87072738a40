"""The printed sheets (issue 34): a round's communiqué and the season's sheet, as A4 PDFs for
the league's table (sheets.pdf). The season checks who may see what, as the pages they print
do (season_access: 404 for a private season one may not read; a round's results once visible
to this visitor, never an open round's), adds the title, and asks the game for its blocks
(the adapter's round_sheet_blocks, event_sheet_blocks). The bytes are kept in the page cache
under the season's version, language and visibility class (season.cache.cached_bytes)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from plugins import adapter_for
from season import cache as page_cache
from season import results, selectors
from season.models import Round, Season, SeasonStanding
from season.permissions import status_visible
from season.round_names import round_name, round_title
from season.services import season_standings
from sheets import Block, Heading, Sheet, Table, Text
from sheets.pdf import sheet_pdf

#: The lines of a season's table printed (the riders' table of a long season is long).
TABLE_SHOWN = 30
#: The abandons printed at most (a sheet's size is bounded).
ABANDONS_SHOWN = 200


def _pdf(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _sheet_bytes(
    request: HttpRequest, access: page_cache.Access, page: str, build: Callable[[], Sheet]
) -> bytes:
    return page_cache.cached_bytes(request, access, page, lambda: sheet_pdf(build()))


def _footer() -> str:
    return _("Page {page}")


def round_sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's communiqué, once its results are visible to this visitor (404 before, as
    for whoever may not see them)."""
    access = page_cache.season_access(request, slug)
    status = access.state.status_of(number)
    if status is None or not status_visible(
        status, auto_publish=access.state.auto_publish, view=access.view
    ):
        raise Http404(_("The results of this round are not published yet."))

    def build() -> Sheet:
        season = Season.objects.get(pk=access.state.pk)
        round = get_object_or_404(
            Round.objects.select_related("stage", "grand_prix"), season=season, number=number
        )
        round.season = season
        adapter = adapter_for(season.ruleset)
        with timezone.override(season.tz):
            blocks = adapter.round_sheet_blocks(
                round.event,
                season=season,
                round=round,
                team_names=selectors.season_team_names(season=season),
                seats=partial(selectors.seats_by_team, season=season),
            )
        return Sheet(
            title=season.name,
            subtitle=round_title(adapter, season, round),
            blocks=tuple(blocks),
            footer=_footer(),
        )

    data = _sheet_bytes(request, access, "sheet-round", build)
    return _pdf(data, f"{slug}-stage-{number}.pdf")


def season_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's sheet after the latest round this visitor may see: the league's winner
    once the last round's results are out, the players' ranking, the season's tables, each
    event's classifications and the abandons."""
    access = page_cache.season_access(request, slug)
    upto = access.state.visible_upto(access.view)
    if not upto:
        raise Http404(_("No results yet."))
    state = access.state
    visible = [
        number
        for number, status in state.statuses
        if status_visible(status, auto_publish=state.auto_publish, view=access.view)
    ]

    def build() -> Sheet:
        season = Season.objects.get(pk=state.pk)
        with timezone.override(season.tz):
            blocks = _season_blocks(season, upto=upto, visible=visible)
        return Sheet(
            title=season.name,
            subtitle=_("After %(round)s") % {"round": round_name(season, upto)},
            blocks=tuple(blocks),
            footer=_footer(),
        )

    data = _sheet_bytes(request, access, "sheet-season", build)
    return _pdf(data, f"{slug}.pdf")


def _season_blocks(season: Season, *, upto: int, visible: list[int]) -> list[Block]:
    adapter = adapter_for(season.ruleset)
    team_names = selectors.season_team_names(season=season)
    seats = results.seats_once(season)
    blocks: list[Block] = []
    finale = results.finale(season=season, visible_upto=upto, team_names=team_names, seats=seats)
    if finale is not None:
        blocks.append(Heading(finale.title))
        year = finale.season_winner
        if year is not None:
            blocks.append(Text(_("%(team)s wins the season") % {"team": year.name}))
        if finale.shared_win:
            blocks.append(Text(_("The league ends in a tie for first place.")))
        elif finale.winner is not None:
            won = (
                _("%(team)s wins %(race)s") % {"team": finale.winner.team, "race": finale.race_name}
                if finale.race_name
                else _("%(team)s wins the league") % {"team": finale.winner.team}
            )
            blocks.append(Text(f"{won} ({finale.winner.player})"))
        ranking = finale.ranking
    else:
        blocks.append(Text(_("The season is not over yet."), muted=True))
        ranking = results.players_ranking(season=season, number=upto)
    columns = adapter.league_ranking_columns(season.player_ranking)
    blocks += [
        Heading(_("Players' ranking")),
        Table(
            (
                _("#"),
                _("Team"),
                _("Player"),
                str(columns.get("score", _("Time"))),
                str(columns.get("behind", _("Gap"))),
            ),
            tuple(
                (str(line.rank or ""), line.team, line.player, line.score, line.behind)
                for line in ranking
            ),
            numeric=frozenset({0, 3, 4}),
            widths=(0.6, 3.4, 2.4, 1.8, 1.6),
        ),
    ]
    blocks += _season_tables(season, upto)
    blocks += _events_blocks(season, adapter, upto=upto, team_names=team_names)
    blocks += _abandons_blocks(season, visible)
    return blocks


def _season_tables(season: Season, upto: int) -> list[Block]:
    """The season's tables across its calendar (a calendar of several events)."""
    if season.single_event:
        return []
    shown = season_standings.standings_round(season=season, after=upto)
    if shown is None:
        return []
    blocks: list[Block] = []
    titles = {
        SeasonStanding.Table.PLAYERS: _("Season standings: the players' teams"),
        SeasonStanding.Table.RIDERS: _("Season standings: the riders"),
    }
    for table, title in titles.items():
        lines = season_standings.standings_lines(season=season, number=shown, table=table)
        if not lines:
            continue
        blocks.append(Heading(title))
        blocks.append(
            Table(
                (_("#"), _("Name"), _("Points"), _("Race wins")),
                tuple(
                    (str(line.rank), line.name, f"{line.points.normalize():f}", str(line.wins))
                    for line in lines[:TABLE_SHOWN]
                ),
                numeric=frozenset({0, 2, 3}),
                widths=(0.6, 5, 1.4, 1.4),
            )
        )
    return blocks


def _events_blocks(
    season: Season, adapter: Any, *, upto: int, team_names: dict[int, str]
) -> list[Block]:
    """Each event of the calendar raced so far, its classifications after its latest round
    this visitor may see (all its rounds, once it is over)."""
    latest: dict[int, Round] = {}
    for round in season.rounds.select_related("stage", "grand_prix").filter(number__lte=upto):
        item, _within = season.event_of_round(round.number)
        if item is not None and (item.pk not in latest or latest[item.pk].number < round.number):
            latest[item.pk] = round
    blocks: list[Block] = []
    for item in season.calendar():
        last = latest.get(item.pk)
        if last is None:
            continue
        # The game's blocks name the event (a race's GC heading names the race).
        blocks += adapter.event_sheet_blocks(last.event, team_names=team_names)
    return blocks


def _abandons_blocks(season: Season, visible: list[int]) -> list[Block]:
    lines = results.abandons(season=season, numbers=visible)
    if lines is None:  # a game that lists them on each round's sheet (a championship)
        return []
    blocks: list[Block] = [Heading(_("Abandons"))]
    if not lines:
        return [*blocks, Text(_("No rider has left the race."))]
    blocks.append(
        Table(
            (_("Stage"), _("Rider"), _("Team"), _("Status"), _("Reason")),
            tuple(
                (str(line.stage), line.rider, line.team, str(line.status), line.reason)
                for line in lines[:ABANDONS_SHOWN]
            ),
            numeric=frozenset({0}),
            widths=(0.8, 3, 2.4, 1.8, 3.6),
        )
    )
    if len(lines) > ABANDONS_SHOWN:
        blocks.append(
            Text(
                _("The first %(shown)d of %(count)d; the abandons' page lists them all.")
                % {"shown": ABANDONS_SHOWN, "count": len(lines)},
                muted=True,
            )
        )
    return blocks
