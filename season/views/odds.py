"""The odds of an open stage: a member asks for them, watches the chunks come back (htmx polls
the progress), then reads the table; a player asks them for a draft of his orders from the
orders form, without saving it, and sees his riders' chances move."""

from typing import Any

import django_tables2 as tables
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from plugins import adapter_for
from season import selectors
from season.formatting import gap
from season.forms import SeatOrdersForm
from season.models import Round, Season, SeasonTeam
from season.round_names import round_name, round_name_start
from season.services import odds
from season.services.lifecycle import RoundError
from season.services.orders import OrdersInvalid
from season.views.player import own_team

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class OddsTable(tables.Table):
    place = tables.Column(verbose_name="#", attrs=NUM, orderable=False, empty_values=())
    name = tables.Column(verbose_name=gettext_lazy("Rider"))
    team = tables.Column(verbose_name=gettext_lazy("Team"))
    win = tables.Column(verbose_name=gettext_lazy("Win"), attrs=NUM)
    podium = tables.Column(verbose_name=gettext_lazy("Podium"), attrs=NUM)
    top10 = tables.Column(verbose_name=gettext_lazy("Top 10"), attrs=NUM)
    lead = tables.Column(verbose_name=gettext_lazy("Leads after the stage"), attrs=NUM)
    out = tables.Column(verbose_name=gettext_lazy("Abandons"), attrs=NUM)
    expected_gap = tables.Column(verbose_name=gettext_lazy("Expected gap"), attrs=NUM)
    expected_place = tables.Column(verbose_name=gettext_lazy("Expected place"), attrs=NUM)
    before = tables.Column(
        verbose_name=gettext_lazy("Win with saved orders"), attrs=NUM, empty_values=()
    )

    class Meta:
        sequence = ("place", "name", "team", "win", "before", "...")
        attrs = {"class": "data", "id": "odds-table"}
        row_attrs = {"class": lambda record: "mine" if record.get("mine") else ""}
        empty_text = gettext_lazy("No odds yet.")

    def render_place(self, record: dict[str, Any]) -> int:
        return int(record["place"])

    def render_name(self, value: str, record: dict[str, Any]) -> str:
        """The reader's own riders in bold."""
        return format_html("<strong>{}</strong>", value) if record.get("mine") else value

    @staticmethod
    def _percent(value: float) -> str:
        return f"{value:.1f} %"

    @classmethod
    def _chance(cls, value: float, record: dict[str, Any], name: str) -> str:
        """A chance with the half-width of its 95 % interval ("12.3 % ± 0.6"), the interval
        spelled out for a pointer (title) and for a screen reader (visually hidden); on a phone
        the ± goes under the chance (site.css)."""
        interval = record.get("intervals", {}).get(name)
        if interval is None:
            return cls._percent(value)
        low, high = interval
        spelled = _("95 %% interval: %(low)s to %(high)s") % {
            "low": cls._percent(low),
            "high": cls._percent(high),
        }
        return format_html(
            '<span class="chance" title="{}">{}<span class="pm" aria-hidden="true">'
            ' ± {}</span><span class="visually-hidden"> ({})</span></span>',
            spelled,
            cls._percent(value),
            f"{(high - low) / 2:.1f}",
            spelled,
        )

    def render_win(self, value: float, record: dict[str, Any]) -> str:
        return self._chance(value, record, "win")

    def render_podium(self, value: float, record: dict[str, Any]) -> str:
        return self._chance(value, record, "podium")

    def render_top10(self, value: float, record: dict[str, Any]) -> str:
        return self._chance(value, record, "top10")

    def render_lead(self, value: float, record: dict[str, Any]) -> str:
        return self._chance(value, record, "lead")

    def render_out(self, value: float, record: dict[str, Any]) -> str:
        return self._chance(value, record, "out")

    def render_expected_gap(self, value: float | None) -> str:
        return (gap(int(value + 0.5)) or _("s.t.")) if value is not None else "–"

    def render_expected_place(self, value: float | None) -> str:
        return f"{value:.1f}" if value is not None else "–"

    def render_before(self, value: float | None, record: dict[str, Any]) -> str:
        if value is None:
            return ""
        return self._chance(value, {"intervals": record.get("before_intervals", {})}, "win")


def _round(request: HttpRequest, slug: str, number: int) -> Round:
    """The stage, for a member (or the organiser) of its season only."""
    season = selectors.season_visible_get(slug=slug, user=request.user)
    user = request.user
    if not (
        user.has_perm("season.manage_season", season)  # type: ignore[union-attr]
        or season.memberships.filter(user_id=getattr(user, "pk", 0)).exists()
    ):
        raise PermissionDenied(_("Only the members of this season see its odds."))
    return get_object_or_404(
        Round.objects.select_related("season", "stage", "grand_prix"), season=season, number=number
    )


def _own_team(request: HttpRequest, season: Season) -> SeasonTeam | None:
    return season.teams.filter(owner_id=getattr(request.user, "pk", None)).first()


def _state_for(request: HttpRequest, round: Round, key: str) -> odds.OddsState | None:
    state = odds.odds_state(key=key)
    if state is None or state.round_id != round.pk:
        return None
    # A team's odds count its own orders (saved, or a draft): only its owner reads them.
    owner_team = state.team_id if state.team_id is not None else state.draft_team_id
    if owner_team is not None:
        team = _own_team(request, round.season)
        if team is None or team.pk != owner_team:
            raise Http404(_("No such odds."))
    return state


def _table(
    request: HttpRequest, round: Round, state: odds.OddsState, compare: odds.OddsState | None
) -> OddsTable:
    team = _own_team(request, round.season)
    before = (
        {line.entrant: line for line in odds.odds_lines(round=round, state=compare)}
        if compare is not None and compare.done
        else {}
    )
    rows = []
    for place, line in enumerate(odds.odds_lines(round=round, state=state), start=1):
        mine = team is not None and line.team_id == team.pk
        rows.append(
            {
                "place": place,
                "name": line.name,
                "team": line.team,
                "win": line.win,
                "podium": line.podium,
                "top10": line.top10,
                "lead": line.lead,
                "out": line.out,
                "expected_gap": line.expected_gap,
                "expected_place": line.expected_place,
                "intervals": line.intervals,
                "mine": mine,
                "before": before[line.entrant].win if mine and line.entrant in before else None,
                "before_intervals": (
                    before[line.entrant].intervals if mine and line.entrant in before else {}
                ),
            }
        )
    table = OddsTable(rows)
    # The game's own words for its columns (a stage's "Abandons", a Grand Prix's "Retires"),
    # and its expectation: a gap in time for a stage, a place for a Grand Prix.
    adapter = adapter_for(round.season.ruleset)
    labels, expected = adapter.odds_labels, adapter.odds_expected
    for name in ("name", "top10", "lead", "out"):
        table.columns[name].column.verbose_name = labels[name]
    table.columns[expected].column.verbose_name = labels["expected"]
    excluded = [other for other in ("expected_gap", "expected_place") if other != expected]
    if not before:
        excluded.append("before")
    table.exclude = tuple(excluded)
    RequestConfig(request, paginate=False).configure(table)
    return table


def _context(
    request: HttpRequest, round: Round, state: odds.OddsState | None, compare_key: str = ""
) -> dict[str, Any]:
    compare = _state_for(request, round, compare_key) if compare_key else None
    return {
        "round": round,
        "season": round.season,
        "state": state,
        "compare": compare,
        "compare_key": compare_key,
        "table": _table(request, round, state, compare) if state and state.done else None,
        "runs": odds.runs_of(round.season),
        "is_open": round.status == Round.Status.OPEN,
        "round_label": round_name(round.season, round.number),
        "round_label_start": round_name_start(round.season, round.number),
        "odds_text": adapter_for(round.season.ruleset).odds_labels,
    }


@login_required
def round_odds(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: the odds with the orders as they stand (counted already, on their way, or a button
    to ask); ``?run=KEY`` one request's odds (a draft's, for its player). POST: ask."""
    round = _round(request, slug, number)
    here = reverse("season-round-odds", args=[slug, number])
    # The reader's own orders and everyone else's defaults (odds.odds_plan).
    team = _own_team(request, round.season)
    if request.method == "POST":
        try:
            asked = odds.odds_request(
                round=round, runs=odds.runs_of(round.season), team=team, user=request.user
            )
        except RoundError as error:
            messages.error(request, str(error))
            return redirect(here)
        return redirect(f"{here}?run={asked.key}")
    key = request.GET.get("run", "")
    state = _state_for(request, round, key) if key else None
    if state is None and round.status == Round.Status.OPEN:
        try:
            plan = odds.odds_plan(round=round, runs=odds.runs_of(round.season), team=team)
        except RoundError as error:
            messages.error(request, str(error))
        else:
            state = odds.odds_state(key=plan.key)
    response = render(
        request,
        "season/odds.html",
        _context(request, round, state, compare_key=request.GET.get("compare", "")),
    )
    patch_cache_control(response, private=True, no_cache=True)
    return response


@login_required
def round_odds_progress(request: HttpRequest, slug: str, number: int, key: str) -> HttpResponse:
    """The progress of one request (polled by htmx), then its table."""
    round = _round(request, slug, number)
    state = _state_for(request, round, key)
    response = render(
        request,
        "season/_odds.html",
        _context(request, round, state, compare_key=request.GET.get("compare", "")),
    )
    patch_cache_control(response, private=True, no_cache=True)
    return response


@login_required
@require_POST
def orders_odds(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The orders form's "Odds with these orders": the draft checked as orders are, counted in
    place of the team's saved orders, nothing saved; the saved orders' odds asked too, so that
    the page shows each of the player's riders' chances with both."""
    team = own_team(request, slug, team_id)
    season = team.season
    orders_url = reverse("player-orders", kwargs={"slug": season.slug, "team_id": team.pk})
    number = request.POST.get("stage", "")
    round = (
        Round.objects.select_related("season", "stage", "grand_prix")
        .filter(season=season, status=Round.Status.OPEN, number=int(number))
        .first()
        # ASCII digits only, and few ("²" is a digit to isdigit, not to int).
        if number.isascii() and number.isdigit() and len(number) <= 3
        else None
    )
    if round is None:
        messages.error(request, _("These orders are closed: no odds for a draft."))
        return redirect(orders_url)
    existing = team.orders.filter(round=round).first()
    form = SeatOrdersForm(
        request.POST,
        adapter=adapter_for(season.ruleset),
        seats=selectors.team_starters(team=team, round=round),
        current=existing.data if existing else {},
        round=round,
    )
    if not form.is_valid():
        for line in form.error_lines():
            messages.error(request, line)
        return redirect(orders_url)
    runs = odds.runs_of(season)
    try:
        draft = odds.draft_orders_check(team=team, round=round, orders=form.orders())
        drafted = odds.odds_request(
            round=round, runs=runs, team=team, draft=draft, user=request.user
        )
        saved = odds.odds_request(round=round, runs=runs, team=team, user=request.user)
    except OrdersInvalid as error:
        for line in error.errors:
            messages.error(request, line)
        return redirect(orders_url)
    except RoundError as error:
        messages.error(request, str(error))
        return redirect(orders_url)
    here = reverse("season-round-odds", args=[season.slug, round.number])
    return redirect(f"{here}?run={drafted.key}&compare={saved.key}")
