"""The pages of a motor season (a championship of Grands Prix): the orders per car (a team's
page is season.views.player.team_page, the organiser's dashboard season.views.organiser's, one
for every game). The public pages of every season are season/views/public.py and
season/views/event_pages.py.

The cycling views hand a motor season to these; each checks the same permissions as its
cycling sibling: season.manage_season (403) and season.manage_team (403).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from motor.charts.track_map import track_map_for
from motor.models import Championship
from motor.views.texts import map_texts
from plugins import adapter_for
from season import leagues
from season.forms import CarOrdersForm
from season.models import (
    Orders,
    Round,
    Season,
    SeasonTeam,
)
from season.selectors import team_cars
from season.services.orders import OrdersClosed, OrdersInvalid, orders_submit
from season.views.rules import rules_url

# --- shared pieces ------------------------------------------------------------------------


def _championship(season: Season) -> Championship:
    """The league's championship of a motor season (a stage race's season: 404)."""
    if season.championship is None:
        raise Http404(_("This season runs a stage race, not a championship."))
    return season.championship


def _gp_name(round: Round) -> str:
    return round.grand_prix.name if round.grand_prix else str(round.number)


def _rounds(season: Season) -> list[Round]:
    return list(season.rounds.select_related("grand_prix__track").order_by("number"))


def _team_rows(season: Season) -> list[dict[str, Any]]:
    """Every team with its cars (driver, constructor, number), in name order: two queries."""
    teams = list(season.teams.select_related("owner").order_by("name"))
    cars: dict[int, list[Any]] = {}
    for car in season.seats.select_related("entry__driver", "entry__constructor").order_by("slot"):
        cars.setdefault(car.team_id, []).append(car)
    return [{"team": team, "cars": cars.get(team.pk, [])} for team in teams]


def _track_svg(round: Round) -> str:
    track = round.grand_prix.track if round.grand_prix else None
    drawn = track_map_for(track.content if track else None, texts=map_texts())
    return drawn.svg() if drawn is not None else ""


# --- orders per car -------------------------------------------------------------------------


def orders(request: HttpRequest, team: SeasonTeam) -> HttpResponse:
    """Orders for the next Grand Prix that takes them, per car, from the ruleset's orders spec;
    orders_submit checks the deadline (to the second) and the spec again."""
    season = team.season
    with timezone.override(season.tz):
        return _orders(request, season, team, timezone.now())


def _orders(request: HttpRequest, season: Season, team: SeasonTeam, now: datetime) -> HttpResponse:
    here = reverse("player-orders", kwargs={"slug": season.slug, "team_id": team.pk})
    adapter = adapter_for(season.ruleset)
    window = leagues.orders_window(season=season, now=now)
    round = window.stage
    if round is not None:
        round = Round.objects.select_related("grand_prix__track").get(pk=round.pk)
    cars = team_cars(team=team)
    existing = Orders.objects.filter(team=team, round=round).first() if round else None
    form = None
    if window.is_open and cars and round is not None:
        form = CarOrdersForm(
            request.POST or None,
            adapter=adapter,
            cars=cars,
            current=existing.data if existing else {},
            round_number=round.number,
        )
        if request.method == "POST" and form.is_valid():
            if form.cleaned_data["stage"] != round.number:
                messages.error(
                    request,
                    _("Orders for round %(number)d are closed.")
                    % {"number": form.cleaned_data["stage"]},
                )
                return redirect(here)
            try:
                orders_submit(team=team, round=round, orders=form.orders(), user=request.user)
            except OrdersClosed as error:
                messages.error(request, str(error))
                return redirect(here)
            except OrdersInvalid as error:
                for message in error.errors:
                    form.add_error(None, message)
            else:
                messages.success(
                    request,
                    _("Orders saved for round %(number)d, %(name)s.")
                    % {"number": round.number, "name": _gp_name(round)},
                )
                return redirect(here)
    elif request.method == "POST":
        messages.error(request, window.reason or _("Your team has no cars to give orders to."))
        return redirect(here)
    submitted = []
    if existing is not None and form is None and cars and round is not None:
        shown = CarOrdersForm(
            adapter=adapter, cars=cars, current=existing.data, round_number=round.number
        )
        submitted = [
            (car, pairs) for car, pairs in shown.summary() if str(car.number) in existing.data
        ]
    deadline = round.orders_deadline if round else None
    return render(
        request,
        "season/motor/orders.html",
        {
            "season": season,
            "team": team,
            "window": window,
            "round": round,
            "grand_prix": round.grand_prix if round else None,
            "form": form,
            "cars": cars,
            "existing": existing,
            "submitted": submitted,
            "deadline": deadline,
            "time_left": _time_left(deadline - now) if deadline and window.is_open else "",
            "track_map": mark_safe(_track_svg(round)) if round is not None and form else "",
            "rules_url": rules_url(season.ruleset),
            "legend": adapter.orders_legend,
        },
    )


def _time_left(delta: Any) -> str:
    from season.views.player import time_left  # player hands its motor seasons to this module

    return time_left(delta)
