"""The championship's parts of a league season's public pages: what the season page, a
round's page, a team's page and a round's dice log show of the Grands Prix
(MotorAdapter.league_*).

Each part is built from the championship's own rows (the championship, the Grand Prix) and
plain values the season gives (its rounds and teams, their seats), and names the template that
extends the season's shell of that page. motor imports no season: a season, a round, a team or
a seat is only read here through its attributes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe

from motor.charts.track_map import track_map_for
from motor.league.links import SeasonLinks
from motor.models import Championship, GrandPrix, Result, Standing, StandingTable
from motor.place_names import content_in_words
from motor.views import pages as views
from motor.views.texts import map_texts
from motor.words import card_label

TEMPLATES = {
    "season": "motor/league/season.html",
    "round": "motor/league/round.html",
    "team": "motor/league/team.html",
    "dice": "motor/league/dice.html",
    "route": "motor/league/_route.html",
    "players": "motor/league/players.html",
}


def _drivers_after(grand_prix: GrandPrix | None) -> Any:
    return Standing.objects.filter(grand_prix=grand_prix, table=StandingTable.DRIVERS)


def season_part(
    championship: Championship,
    *,
    rounds: Sequence[Any],
    teams: Sequence[Any],
    last: int | None,
    seats: Callable[[], Mapping[int, Sequence[Any]]],
) -> dict[str, Any]:
    """The calendar of Grands Prix, the three leaders of the drivers' standings after the
    latest round this visitor may see, and every team with its cars."""
    leaders: list[Standing] = []
    if last:
        grand_prix = next((r.grand_prix for r in rounds if r.number == last), None)
        leaders = list(_drivers_after(grand_prix).select_related("driver").order_by("position")[:3])
    cars = seats()
    return {
        "source": championship.copied_from,
        "rounds": rounds,
        "leaders": leaders,
        "teams": [{"team": team, "cars": cars.get(team.pk, [])} for team in teams],
    }


def track_svg(grand_prix: GrandPrix | None) -> str:
    """The track map of a Grand Prix ("" when its track is not drawn)."""
    track = grand_prix.track if grand_prix else None
    return content_svg(track.content if track else None)


def content_svg(content: Mapping[str, Any] | None) -> str:
    """The map of a track's content in the active language ("" when it is not drawn): the
    league pages and the admin's track editor draw the same map."""
    drawn = track_map_for(content_in_words(content), texts=map_texts())
    return drawn.svg() if drawn is not None else ""


def round_part(
    grand_prix: GrandPrix,
    *,
    season: Any,
    round: Any,
    visible: bool,
    seats: Callable[[], Mapping[int, Sequence[Any]]],
) -> dict[str, Any]:
    """A Grand Prix: its track map; once its results are visible, the podium (with each car's
    league team) and the link to the whole Grand Prix's page."""
    podium: list[tuple[Result, Any]] = []
    if visible:
        teams = {seat.entry_id: seat.team for cars in seats().values() for seat in cars}
        podium = [
            (result, teams.get(result.entry_id))
            for result in Result.objects.filter(grand_prix=grand_prix, position__isnull=False)
            .select_related("entry__driver", "entry__constructor")
            .order_by("position")[:3]
        ]
    return {
        "grand_prix": grand_prix,
        "track_map": mark_safe(track_svg(grand_prix)),
        "podium": podium,
        "grand_prix_url": reverse("season-grand-prix", args=[season.slug, round.number]),
    }


def team_part(*, seats: Sequence[Any], upto_event: GrandPrix | None) -> dict[str, Any]:
    """A team's cars, each driver's place and points in the drivers' standings after the
    latest Grand Prix this visitor may see (``upto_event``; None: none yet)."""
    standings = (
        {
            s.driver_id: s
            for s in _drivers_after(upto_event).filter(
                driver_id__in=[car.entry.driver_id for car in seats]
            )
        }
        if upto_event is not None
        else {}
    )
    return {"rows": [{"car": car, "standing": standings.get(car.entry.driver_id)} for car in seats]}


def dice_part(rolls: Sequence[Any], *, seats: Sequence[Any]) -> dict[str, Any]:
    """The dice and card log: one row per draw, the car named by its number and driver."""
    cars = {str(seat.number): seat.entry.driver.name for seat in seats}
    return {
        "rows": [
            {
                "phase": phase,
                "round": number,
                "car": f"#{car} {cars.get(str(car), '')}" if car else "",
                "kind": kind,
                "values": " ".join(str(v) for v in values),
                "card": card_label(card),
            }
            for phase, number, car, kind, values, card in rolls
        ]
    }


#: The championship's own pages served under a league season (season/views/event_pages.py).
EVENT_PAGES = ("round", "standings", "what-if", "driver", "constructor")


def event_page(
    page: str,
    request: Any,
    *,
    season: Any,
    event: Any,
    key: Any,
    upto: int,
    renderer: Callable[[str, dict[str, Any]], Any] | None,
) -> Any:
    """One of the championship's pages (motor.views.pages) with the season's links: a round's
    whole Grand Prix (``event``: its Grand Prix; ``key``: the round's number), the standings,
    the what-if (``key``: the table), a driver's or a constructor's season (``key``: the slug).
    The standings before any visible round (``upto`` 0) say so."""
    links, extra = SeasonLinks(season), {"season": season}
    championship = season.championship
    if page == "round":
        number = event.round if event is not None else key
        return views.round_page(
            request,
            championship=championship,
            number=number,
            links=links,
            extra=extra,
            renderer=renderer,
        )
    if page == "standings":
        if not upto:
            context = {"season": season, "table": key, "links": links}
            template = "motor/league/no_standings.html"
            return renderer(template, context) if renderer else render(request, template, context)
        return views.standings_page(
            request,
            championship=championship,
            table=key,
            links=links,
            extra=extra,
            renderer=renderer,
        )
    if page == "what-if":
        return views.what_if_page(
            request, championship=championship, table=key, links=links, extra=extra
        )
    if page == "driver":
        return views.driver_page(
            request, championship=championship, slug=key, links=links, extra=extra
        )
    if page == "constructor":
        return views.constructor_page(
            request, championship=championship, slug=key, links=links, extra=extra
        )
    raise ValueError(f"no championship page {page!r}")
