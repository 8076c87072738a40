"""The pages of a motor season (a championship of Grands Prix): a team's two cars (draft or
budget). Every season's organiser dashboard and orders page are the season's own views
(season.views.organiser, season.views.player.orders); the public pages of every season are
season/views/public.py and season/views/event_pages.py.

The cycling views hand a motor season to these; each checks the same permissions as its
cycling sibling: season.manage_team (403).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from motor.models import Championship, Entry
from plugins import motor_adapter
from season import formation
from season.formation import FormationError
from season.forms import CarPickForm
from season.models import (
    CARS_PER_TEAM,
    DONE_STATUSES,
    Round,
    Season,
    SeasonTeam,
)
from season.selectors import team_cars
from season.services import draft_clock

# --- shared pieces ------------------------------------------------------------------------


def _championship(season: Season) -> Championship:
    """The league's championship of a motor season (a stage race's season: 404)."""
    if season.championship is None:
        raise Http404(_("This season runs a stage race, not a championship."))
    return season.championship


def _rounds(season: Season) -> list[Round]:
    return list(season.rounds.select_related("grand_prix__track").order_by("number"))


def _team_rows(season: Season) -> list[dict[str, Any]]:
    """Every team with its cars (driver, constructor, number), in name order: two queries."""
    teams = list(season.teams.select_related("owner").order_by("name"))
    cars: dict[int, list[Any]] = {}
    for car in season.seats.select_related("entry__driver", "entry__constructor").order_by("slot"):
        cars.setdefault(car.team_id, []).append(car)
    return [{"team": team, "cars": cars.get(team.pk, [])} for team in teams]


# --- a player's team: two cars --------------------------------------------------------------


def team_page(request: HttpRequest, team: SeasonTeam) -> HttpResponse:
    """My team: its two cars, and while teams form the championship's cars to pick from
    (player.team_page checked manage_team)."""
    season = team.season
    cars = team_cars(team=team)
    started = season.rounds.exclude(status=Round.Status.SCHEDULED).exists()
    free = (
        formation.free_pickables(season=season) if not started and len(cars) < CARS_PER_TEAM else []
    )
    prices = {e.pk: formation.candidate_of(e, season=season).price for e in free}
    spent = sum(formation.candidate_of(car.entry, season=season).price for car in cars)
    draft = (
        formation.draft_status(season=season)
        if season.formation_mode == Season.FormationMode.DRAFT
        else None
    )
    my_turn = draft is not None and draft.on_turn is not None and draft.on_turn.pk == team.pk
    budget = season.formation_mode == Season.FormationMode.BUDGET
    pool: list[dict[str, Any]] = [
        {
            "entry": entry,
            "price": prices[entry.pk],
            "affordable": not budget or spent + prices[entry.pk] <= season.budget,
        }
        for entry in free
    ]
    pool.sort(key=lambda row: (-row["price"], row["entry"].constructor.name, row["entry"].number))
    next_round = (
        season.rounds.exclude(status__in=DONE_STATUSES)
        .select_related("grand_prix")
        .order_by("number")
        .first()
    )
    return render(
        request,
        "season/motor/team.html",
        {
            "season": season,
            "team": team,
            "cars": [
                {"car": car, "price": formation.candidate_of(car.entry, season=season).price}
                for car in cars
            ],
            "cars_per_team": CARS_PER_TEAM,
            "pool": pool,
            "budget": budget,
            "spent": spent,
            "left": season.budget - spent,
            "draft": draft,
            "my_turn": my_turn,
            "can_pick": not started and len(cars) < CARS_PER_TEAM and (budget or my_turn),
            "started": started,
            "next_round": next_round,
            "grid": motor_adapter(season.ruleset).max_cars,
            **(draft_clock.clock_shown(season=season, status=draft) if draft else {}),
        },
    )


def pick(request: HttpRequest, team: SeasonTeam) -> HttpResponse:
    """A car for my team (player.draft_pick checked manage_team; car_pick checks the turn, the
    budget, the two cars and that the car is free)."""
    season = team.season
    form = CarPickForm(request.POST)
    entry = None
    if form.is_valid():
        entry = (
            Entry.objects.filter(pk=form.cleaned_data["entry"], championship=_championship(season))
            .select_related("driver")
            .first()
        )
    if entry is None:
        messages.error(request, _("Choose a car of this championship."))
        return redirect("player-team", slug=season.slug, team_id=team.pk)
    try:
        if season.formation_mode == Season.FormationMode.DRAFT:
            formation.draft_pick(season=season, team=team, pickable=entry, user=request.user)
            car = team.seats.get(entry=entry)
        else:
            car = formation.budget_pick(team=team, pickable=entry)
    except FormationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(driver)s joins your team in car %(number)s.")
            % {"driver": entry.driver.name, "number": car.number},
        )
    return redirect("player-team", slug=season.slug, team_id=team.pk)


# --- views of the season's own URLs ---------------------------------------------------------


@login_required
@require_POST
def car_pick_view(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    from season.views.player import own_team  # player hands its motor seasons to this module

    return pick(request, own_team(request, slug, team_id))
