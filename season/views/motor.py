"""The pages of a motor season (a championship of Grands Prix): the organiser's dashboard, a
team's two cars (draft or budget), the orders per car, the round's page, and the championship's
pages (Grand Prix with its track map and replay, standings, what-if, drivers
and constructors) served under the season by ``motor.views.pages`` with the season's links.

The cycling views hand a motor season to these (``is_motor``); each checks the same
permissions as its cycling sibling: season.view_season (404 for a private season one may not
see), season.manage_season (403), season.manage_team (403), and the results a visitor may see
(season.permissions.round_results_visible / visible_upto).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from motor.charts.track_map import track_map_for
from motor.models import Championship, Entry, Result, Standing
from motor.views import pages
from motor.views.links import ChampionshipLinks
from motor.views.texts import map_texts
from plugins import adapter_for, motor_adapter
from season import cache as page_cache
from season import formation, leagues, selectors
from season.formation import FormationError
from season.forms import CarOrdersForm, CarPickForm
from season.models import (
    CARS_PER_TEAM,
    DONE_STATUSES,
    Membership,
    Orders,
    Round,
    Season,
    SeasonTeam,
)
from season.permissions import results_view, round_results_visible, status_visible, visible_upto
from season.selectors import team_cars
from season.services import draft_clock, lifecycle
from season.services.orders import OrdersClosed, OrdersInvalid, orders_submit
from season.services.orders_status import orders_count, orders_status
from season.views.badges import round_badge
from season.views.rules import rules_url


class SeasonLinks(ChampionshipLinks):
    """The championship pages of a motor season, under ``/seasons/<slug>/``."""

    def __init__(self, season: Season) -> None:
        super().__init__(_championship(season))
        self.season = season

    def _season_url(self, name: str, *args: object, query: dict[str, int] | None = None) -> str:
        url = reverse(name, args=[self.season.slug, *args])
        return f"{url}?{urlencode(query)}" if query else url

    def home(self) -> tuple[str, str]:
        return self._season_url("season-detail"), self.season.name

    def calendar(self) -> str:
        return self._season_url("season-detail")

    def round(self, number: int) -> str:
        return self._season_url("season-grand-prix", number)

    def standings(self, table: str = "drivers", after: int | None = None) -> str:
        return self._season_url(
            "season-motor-standings", table, query={"after": after} if after else None
        )

    def what_if(self, table: str = "drivers") -> str:
        return self._season_url("season-motor-what-if", table)

    def driver(self, slug: str) -> str:
        return self._season_url("season-motor-driver", slug)

    def constructor(self, slug: str) -> str:
        return self._season_url("season-motor-constructor", slug)


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


# --- the organiser's dashboard -------------------------------------------------------------


def dashboard(request: HttpRequest, season: Season, *, invite_url: str) -> HttpResponse:
    """The organiser's page of a motor season (organiser.dashboard checked manage_season)."""
    members = list(
        Membership.objects.filter(season=season).select_related("user").order_by("joined_at")
    )
    rows = _team_rows(season)
    players = [row for row in rows if row["team"].owner_id is not None]
    adapter = motor_adapter(season.ruleset)
    orders_round = (
        season.rounds.filter(status__in=(Round.Status.OPEN, Round.Status.LOCKED))
        .select_related("grand_prix")
        .order_by("number")
        .first()
    )
    status = orders_status(round=orders_round) if orders_round is not None else []
    first = season.rounds.filter(number=1).first()
    with timezone.override(season.tz):
        return render(
            request,
            "season/motor/dashboard.html",
            {
                "season": season,
                "source": _championship(season).copied_from,
                "invite_url": invite_url,
                "members": members,
                "players": players,
                "teams_formed": bool(players)
                and all(len(row["cars"]) == CARS_PER_TEAM for row in players),
                "draft": formation.draft_status(season=season)
                if season.formation_mode == Season.FormationMode.DRAFT
                else None,
                "join_closed": leagues.join_closed_reason(season),
                "grid": adapter.max_cars,
                "computer_seats": max(0, adapter.max_cars - CARS_PER_TEAM * len(players)),
                "round_one_to_open": first is not None and lifecycle.can_open(first),
                "rounds": _rounds(season),
                "orders_round": orders_round,
                "orders_status": status,
                "orders_count": orders_count(status),
                "ruleset_label": adapter.label,
            },
        )


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


# --- public pages of the season --------------------------------------------------------------


def season_page(request: HttpRequest, season: Season, *, last: int | None) -> page_cache.Page:
    """The season's page (public.season_detail checked view_season): the calendar of Grands
    Prix with each round's state, the leaders after the last visible round, the teams and
    their cars. ``last``: the latest round whose standings this visitor may see."""
    rounds = _rounds(season)
    leaders: list[Standing] = []
    if last:
        gp = next((r.grand_prix_id for r in rounds if r.number == last), None)
        leaders = list(
            Standing.objects.filter(grand_prix_id=gp, table="drivers")
            .select_related("driver")
            .order_by("position")[:3]
        )
    return page_cache.Page(
        "season/motor/season.html",
        {
            "season": season,
            "source": _championship(season).copied_from,
            "rounds": rounds,
            "last": last,
            "leaders": leaders,
            "teams": _team_rows(season),
            "ruleset_label": adapter_for(season.ruleset).label,
            "member_links": mark_safe(page_cache.live_mark("member_links")),
        },
        tz=season.tz,
    )


def round_page(
    request: HttpRequest, access: page_cache.Access, season: Season, number: int, *, shared: bool
) -> page_cache.Page:
    """A Grand Prix of the season (public.stage_detail checked view_season): its state,
    deadline and who has given orders; the organiser's actions; once resolved and visible to
    this visitor, the podium and a link to the Grand Prix page with the track map and replay."""
    round = get_object_or_404(
        Round.objects.select_related("grand_prix__track"), season=season, number=number
    )
    round.season = season
    visible = round_results_visible(season, round, request.user)
    hidden = round.status in DONE_STATUSES and not visible
    is_organiser = request.user.has_perm("season.manage_season", season)
    job = None if hidden else round.jobs.first()
    status = (
        orders_status(round=round)
        if round.status in (Round.Status.OPEN, Round.Status.LOCKED, Round.Status.RESOLVING)
        else []
    )
    podium: list[Result] = []
    if visible:
        podium = list(
            Result.objects.filter(grand_prix=round.grand_prix, position__isnull=False)
            .select_related("entry__driver", "entry__constructor")
            .order_by("position")[:3]
        )
    cars_of = {car.entry_id: car.team for car in season.seats.select_related("team")}
    return page_cache.Page(
        "season/motor/round.html",
        {
            "season": season,
            "round": round,
            "grand_prix": round.grand_prix,
            "badge": round_badge(round, job=job),
            "orders_status": status,
            "orders_count": orders_count(status),
            "track_map": mark_safe(_track_svg(round)),
            "is_organiser": is_organiser,
            "actions": lifecycle.round_actions(round, job=job) if is_organiser else None,
            "orders_open": lifecycle.can_give_orders(round),
            "job": job,
            "results_visible": visible,
            "results_hidden": hidden,
            "podium": [(result, cars_of.get(result.entry_id)) for result in podium],
            "grand_prix_url": reverse("season-grand-prix", args=[season.slug, number]),
            "my_team": None if shared else selectors.team_of_user(season=season, user=request.user),
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if access.state.status_of(number + 1) is not None else None,
        },
        tz=season.tz,
    )


def team_detail(request: HttpRequest, season: Season, team: SeasonTeam) -> HttpResponse:
    """A team's public page: its two cars, each driver's place and points in the drivers'
    standings after the latest round this visitor may see (public.team_detail checked
    view_season)."""
    upto = _visible_upto(request, season)
    cars = team_cars(team=team)
    standings = {}
    if upto:
        gp = season.rounds.filter(number=upto).values_list("grand_prix_id", flat=True).first()
        standings = {
            s.driver_id: s
            for s in Standing.objects.filter(
                grand_prix_id=gp, table="drivers", driver_id__in=[c.entry.driver_id for c in cars]
            )
        }
    return render(
        request,
        "season/motor/team_public.html",
        {
            "season": season,
            "team": team,
            "rows": [{"car": car, "standing": standings.get(car.entry.driver_id)} for car in cars],
            "upto": upto,
            "can_manage": request.user.has_perm("season.manage_team", team),
            "links": SeasonLinks(season),
        },
    )


def _visible_upto(request: HttpRequest, season: Season) -> int:
    return visible_upto(
        list(season.rounds.order_by("number").values_list("number", "status")),
        auto_publish=season.auto_publish,
        view=results_view(season, request.user),
    )


def _motor_season(request: HttpRequest, slug: str) -> Season:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    if season.championship_id is None:
        raise Http404(_("This season runs a stage race, not a championship."))
    return season


def _extra(season: Season) -> dict[str, Any]:
    return {"season": season}


def _page_of(season: Season) -> pages.Renderer:
    """The motor pages' renderer for a league season: the page as the cache keeps it."""

    def page(template: str, context: dict[str, Any]) -> page_cache.Page:
        return page_cache.Page(template, context, tz=season.tz)

    return page


def grand_prix(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The Grand Prix page (motorpages' round page: track map, replay, qualifying and grid,
    results, retirements, pit stops, lap chart) once this visitor may see its results; before
    that the season's round page says where it stands."""
    access = page_cache.season_access(request, slug)
    status = access.state.status_of(number)
    if status is None:
        raise Http404(_("No such Grand Prix."))
    if not status_visible(status, auto_publish=access.state.auto_publish, view=access.view):
        return redirect("season-stage", slug=slug, number=number)

    def build() -> Any:
        season = _motor_season(request, slug)
        round = get_object_or_404(Round, season=season, number=number)
        return pages.round_page(
            request,
            championship=_championship(season),
            number=round.grand_prix.round if round.grand_prix else number,
            links=SeasonLinks(season),
            extra=_extra(season),
            renderer=_page_of(season),
        )

    return page_cache.cached_page(request, access, "grand-prix", build)


def _all_visible(request: HttpRequest, season: Season) -> None:
    """The pages that sum every resolved round (what-if, a driver's or constructor's season)
    are shown once nothing resolved is hidden from this visitor."""
    view = results_view(season, request.user)
    for status in season.rounds.values_list("status", flat=True):
        if status in DONE_STATUSES and not status_visible(
            status, auto_publish=season.auto_publish, view=view
        ):
            raise Http404(_("The latest results of this season are not published yet."))


def standings(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    """Drivers' or constructors' standings (motorpages' standings page with its points chart),
    after the latest round this visitor may see at most."""
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
        season = _motor_season(request, slug)
        if not upto:
            return page_cache.Page(
                "season/motor/no_standings.html",
                {"season": season, "table": table, "links": SeasonLinks(season)},
                tz=season.tz,
            )
        query = request.GET.copy()
        query["after"] = str(after)
        request.GET = query  # type: ignore[assignment]
        return pages.standings_page(
            request,
            championship=_championship(season),
            table=table,
            links=SeasonLinks(season),
            extra=_extra(season),
            renderer=_page_of(season),
        )

    return page_cache.cached_page(request, access, f"motor-standings-{table}", build)


def what_if(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    season = _motor_season(request, slug)
    _all_visible(request, season)
    return pages.what_if_page(
        request,
        championship=_championship(season),
        table=table,
        links=SeasonLinks(season),
        extra=_extra(season),
    )


def driver_detail(request: HttpRequest, slug: str, driver: str) -> HttpResponse:
    season = _motor_season(request, slug)
    _all_visible(request, season)
    return pages.driver_page(
        request,
        championship=_championship(season),
        slug=driver,
        links=SeasonLinks(season),
        extra=_extra(season),
    )


def constructor_detail(request: HttpRequest, slug: str, constructor: str) -> HttpResponse:
    season = _motor_season(request, slug)
    _all_visible(request, season)
    return pages.constructor_page(
        request,
        championship=_championship(season),
        slug=constructor,
        links=SeasonLinks(season),
        extra=_extra(season),
    )


def dice(request: HttpRequest, season: Season, round: Round) -> HttpResponse:
    """A Grand Prix's dice and card log (public.stage_dice checked view_season and that its
    results are visible)."""
    log = round.dice_log
    cars = {
        str(car.number): car.entry.driver.name
        for car in season.seats.select_related("entry__driver")
    }
    rows = [
        {
            "phase": phase,
            "round": number,
            "car": f"#{car} {cars.get(str(car), '')}" if car else "",
            "kind": kind,
            "values": " ".join(str(v) for v in values),
            "card": card,
        }
        for phase, number, car, kind, values, card in log.rolls
    ]
    return render(
        request,
        "season/motor/dice.html",
        {"season": season, "round": round, "log": log, "rows": rows},
    )


# --- views of the season's own URLs ---------------------------------------------------------


@login_required
@require_POST
def car_pick_view(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    from season.views.player import own_team  # player hands its motor seasons to this module

    return pick(request, own_team(request, slug, team_id))
