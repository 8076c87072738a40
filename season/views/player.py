"""The player's pages: my seasons, joining, forming a team and giving orders.

Every page that changes a team checks season.manage_team on it: a player acts on his own team
only (403 otherwise), and a private season is a 404 to anybody who is not a member.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import Table

from plugins import GameAdapter, adapter_for
from plugins.formation import PickColumn
from season import formation, leagues, selectors
from season.forms import (
    BudgetTeamForm,
    InviteCodeForm,
    JoinForm,
    SeatOrdersForm,
    orders_summary,
)
from season.models import (
    DONE_STATUSES,
    Membership,
    Orders,
    RiderRole,
    Round,
    Season,
    SeasonEvent,
    SeasonTeam,
    Seat,
)
from season.orders import ROLE_LIMITS, role_count_text
from season.round_names import event_name, round_name, round_title, team_size_text
from season.services import draft_clock
from season.services.calendar_feed import member_feed_links
from season.services.carry import orders_carried, orders_source
from season.services.invitations import invitations_pending
from season.services.orders import OrdersClosed, OrdersInvalid, orders_submit
from season.services.selections import (
    SelectionRefused,
    default_selection,
    first_round,
    selection_count,
    selection_open,
    selection_save,
    selection_stored,
    selections_due,
    squad_of,
)
from season.tables import DraftBoardTable, DraftHistoryTable, TeamRosterTable, table_configure
from season.views.rules import adapter_or_404, rules_url

RATING_LABELS = {-1: "H", 0: "0", 1: "1", 2: "2", 3: "3", 4: "4"}


def time_left(delta: timedelta) -> str:
    """ "2 days 4 hours", "3 hours 12 minutes", "5 minutes": precise enough to act on."""
    seconds = int(delta.total_seconds())
    if seconds < 60:
        return _("less than a minute") if seconds > 0 else _("no time")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if not days and minutes:
        parts.append(ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes})
    return " ".join(parts)


def own_team(request: HttpRequest, slug: str, team_id: int) -> SeasonTeam:
    """The team, if the user may manage it: 404 for a season he cannot see, 403 for a team
    that is not his."""
    season = selectors.season_visible_get(slug=slug, user=request.user)
    team = get_object_or_404(
        SeasonTeam.objects.select_related("season", "owner"), season=season, pk=team_id
    )
    if not request.user.has_perm("season.manage_team", team):
        raise PermissionDenied(_("This is not your team."))
    return team


# --- my seasons and joining ---------------------------------------------------------------


@dataclass(frozen=True)
class NextStep:
    """What a member of a season has to do now, in a sentence, and where (no URL: wait)."""

    text: str
    url: str = ""
    urgent: bool = False


def _drafts_running(seasons: list[Season]) -> set[int]:
    """The seasons whose draft has started and is not over (one query, or none). The draft is
    over when round 1 opens, which it does by itself at the last pick (riders and cars alike),
    or by the organiser's hand."""
    ids = [
        s.pk
        for s in seasons
        if s.formation_mode == Season.FormationMode.DRAFT and s.draft_started_at is not None
    ]
    if not ids:
        return set()
    return set(
        Round.objects.filter(
            season_id__in=ids, number=1, status=Round.Status.SCHEDULED
        ).values_list("season_id", flat=True)
    )


def _next_step(
    item: leagues.MySeason, *, drafting: bool, seats: int, orders_given: bool
) -> NextStep | None:
    """The one thing the member should do now in this season: pick in the draft, choose a
    team, give orders; None when there is nothing to do but wait for the results."""
    season, team, round = item.season, item.team, item.next_stage
    game = adapter_for(season.ruleset)
    team_url = reverse("player-team", args=[season.slug, team.pk]) if team else ""
    organiser = item.role == Membership.Role.ORGANISER
    if drafting:
        status = formation.draft_status(season=season)
        if team is not None and status.on_turn is not None and status.on_turn.pk == team.pk:
            return NextStep(_("It is your turn to pick: go to the draft"), team_url, True)
        if team is not None:
            return NextStep(_("The draft is on: go to the draft"), team_url)
        return NextStep(
            _("The draft is on: follow it"),
            reverse("organiser-season", args=[season.slug]) + "#formation",
        )
    forming = round is not None and round.number == 1 and round.status == Round.Status.SCHEDULED
    if forming and team is not None and seats < season.roster_size:
        if season.formation_mode == Season.FormationMode.REAL_TEAMS and not seats:
            return NextStep(_("Take over a real team"), team_url, True)
        if season.formation_mode == Season.FormationMode.BUDGET:
            return NextStep(
                _("Choose your %(nouns)s") % {"nouns": game.pickables_noun}, team_url, True
            )
        if not organiser:
            return NextStep(_("Waiting for the organiser to start the draft."))
    if forming and organiser and season.formation_mode == Season.FormationMode.DRAFT:
        return NextStep(
            _("Start the draft when every player is in"),
            reverse("organiser-season", args=[season.slug]) + "#formation",
        )
    if team is not None and round is not None and round.status == Round.Status.OPEN:
        orders_url = reverse("player-orders", args=[season.slug, team.pk])
        name = round_name(season, round.number)
        if orders_given:
            return NextStep(
                _("Your orders for %(round)s are in: you may change them until the deadline.")
                % {"round": name},
                orders_url,
            )
        return NextStep(_("Give your orders for %(round)s") % {"round": name}, orders_url, True)
    return None


@login_required
def my_seasons(request: HttpRequest) -> HttpResponse:
    """The member's seasons, each with what to do now (NextStep) and the round to come."""
    now = timezone.now()
    items = leagues.my_seasons(user=request.user)
    drafting = _drafts_running([item.season for item in items])
    teams = [item.team.pk for item in items if item.team is not None]
    seats = dict(
        Seat.objects.filter(team_id__in=teams)
        .values_list("team_id")
        .annotate(n=Count("pk"))
        .values_list("team_id", "n")
    )
    given = set(
        Orders.objects.filter(
            team_id__in=teams,
            round_id__in=[item.next_stage.pk for item in items if item.next_stage],
        ).values_list("team_id", "round_id")
    )
    rows = []
    for item in items:
        game = adapter_for(item.season.ruleset)
        round = item.next_stage
        rows.append(
            {
                "item": item,
                "source": game.league_source(item.season.event),
                "round_title": round_title(game, item.season, round) if round else "",
                "over_text": game.over_text,
                "next_step": _next_step(
                    item,
                    drafting=item.season.pk in drafting,
                    seats=seats.get(item.team.pk, 0) if item.team else 0,
                    orders_given=bool(item.team and round and (item.team.pk, round.pk) in given),
                ),
                "time_left": time_left(round.orders_deadline - now)
                if round and round.orders_deadline
                else "",
            }
        )
    return render(
        request,
        "season/player/my_seasons.html",
        {
            "rows": rows,
            "invitations": invitations_pending(user=request.user),
            "code_form": InviteCodeForm(),
            "calendar": member_feed_links(user=request.user),
        },
    )


def join_code(request: HttpRequest) -> HttpResponse:
    """Typing the code instead of following the link."""
    form = InviteCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = leagues.season_by_invite_code(form.cleaned_data["code"])
        if season is not None:
            return redirect("season-join", code=season.invite_code)
        form.add_error("code", _("No season has this invitation code."))
    return render(request, "season/player/join_code.html", {"form": form})


def join(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation link. A visitor first reads what the season is, then logs in or signs up
    and comes back here to name his team."""
    season = leagues.season_by_invite_code(code)
    if season is None:
        raise Http404(_("No season has this invitation code."))
    game = adapter_or_404(season.ruleset)
    # What the season is, told alike to a visitor and to a logged-in invitee.
    about = {
        "season": season,
        "code": code,
        "teams": season.teams.filter(owner__isnull=False).count(),
        "rounds_text": game.rounds_count_text(season.rounds.count()),
        "team_size_text": team_size_text(season),
        "pickables": game.pickables_noun,
        "first_deadline": season.rounds.order_by("number").first(),
        "ruleset_label": game.label,
        "source": game.league_source(season.event),
        "rules_url": rules_url(season.ruleset),
    }
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(
            request,
            "season/player/join.html",
            about | {"closed": leagues.join_closed_reason(season), "visitor": True},
        )
    mine = leagues.team_of(season=season, user=request.user)
    if mine is not None:
        messages.info(
            request, _("You already play in this season with %(team)s.") % {"team": mine.name}
        )
        return redirect("player-team", slug=season.slug, team_id=mine.pk)
    closed = leagues.join_closed_reason(season)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and not closed and form.is_valid():
        try:
            team = leagues.season_join(
                season=season, user=request.user, team_name=form.cleaned_data["team_name"]
            )
        except leagues.JoinRefused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Welcome to %(season)s!") % {"season": season.name})
            return redirect("player-team", slug=season.slug, team_id=team.pk)
    return render(request, "season/player/join.html", about | {"form": form, "closed": closed})


# --- forming the team ---------------------------------------------------------------------
# One page for every game: what differs (the columns of what a team picks from, the board's
# filters, the page's words) is the game's adapter's (plugins.formation.TeamFormation).


def _cells(columns: list[PickColumn], values: dict[str, Any]) -> list[dict[str, object]]:
    """A pickable's own columns as the budget table shows them (a rating as H..4)."""
    return [
        {
            "value": RATING_LABELS.get(values[c.key], values[c.key])
            if c.rating
            else values[c.key] or "",
            "numeric": c.rating or c.numeric,
            "rating": c.rating,
        }
        for c in columns
    ]


def _roster(season: Season, game: GameAdapter, seats: list[Seat]) -> dict[str, object]:
    """The team's seats as its roster table. A game whose seats have roles: until the team is
    complete they hold none yet (the stored default), so the table shows the roles they will
    get (the game's team_seated), marked so."""
    pickables = [getattr(seat, game.seat_field) for seat in seats]
    candidates = [game.candidate(p) for p in pickables]
    provisional = game.seat_roles and len(seats) < season.roster_size
    roles: list[object] = [seat.get_role_display() for seat in seats]
    if provisional and seats:
        planned = game.team_seated(pickables, team_index=0, roster_size=season.roster_size)
        roles = [RiderRole(values["role"]).label for values in planned]
    roster = TeamRosterTable(
        [
            {
                "number": seat.number,
                "name": candidate.name,
                "role": role,
                "price": candidate.price,
                "real_team": candidate.real_team_name,
            }
            for seat, candidate, role in zip(seats, candidates, roles, strict=True)
        ],
        words=game.team_words,
        roles=game.seat_roles,
        prefix="roster-",
    )
    return {
        "members": seats,
        "roster": roster,
        "roster_heading": game.team_words["roster"]
        % {"count": len(seats), "size": season.roster_size},
        "roles_provisional": provisional,
    }


def _orders_link(season: Season, game: GameAdapter) -> str:
    """The words of the button to the orders of the next round (once the team is complete)."""
    next_round = (
        season.rounds.exclude(status__in=DONE_STATUSES)
        .select_related("stage", "grand_prix")
        .order_by("number")
        .first()
    )
    if next_round is None:
        return ""
    event = game.event_label(game.round_event(next_round))
    # As the season names it: a forked race's round 1 is "stage 11".
    label = round_name(season, next_round.number)
    if event:
        return _("Orders for %(round)s: %(event)s") % {"round": label, "event": event}
    return _("Orders for %(round)s") % {"round": label}


@login_required
def team_page(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The player's team: its roster, and the draft or the budget pick while teams form, for
    riders and cars alike."""
    team = own_team(request, slug, team_id)
    season = team.season
    game = formation.game_of(season)
    words = game.team_words
    seats = formation.team_seats(team=team)
    context: dict[str, object] = {
        "season": season,
        "team": team,
        "words": words,
        "pick_columns": game.pick_columns(),
        "ratings_shown": any(column.rating for column in game.pick_columns()),
        "team_note": game.team_note(season.event),
        "race_started": formation.race_started(season),
        **_roster(season, game, seats),
    }
    seat_count = len(seats)
    if seat_count >= season.roster_size:
        context["orders_link"] = _orders_link(season, game)
        context["selections_due"] = _selection_links(team)
    if season.max_per_real_team:
        context["per_real_team"] = words["per_real_team"] % {"limit": season.max_per_real_team}
    if season.formation_mode == Season.FormationMode.DRAFT:
        context.update(_draft_context(request, season, team, game, seat_count))
    tables = [context["roster"], context.get("board"), context.get("history")]
    for table, name in zip(tables, ("roster", "free", "picks"), strict=True):
        if isinstance(table, Table):
            export = table_configure(request, table, f"{season.slug}-{team.pk}-{name}")
            if export:
                return export
    if season.formation_mode == Season.FormationMode.DRAFT:
        with timezone.override(season.tz):
            return render(request, "season/player/team.html", context)
    if season.formation_mode == Season.FormationMode.REAL_TEAMS:
        return _real_teams_page(request, season, team, context)
    return _budget_page(request, season, team, game, seats, context)


def _real_teams_page(
    request: HttpRequest, season: Season, team: SeasonTeam, context: dict[str, object]
) -> HttpResponse:
    """Take over a real team (formation.real_team_take): the real teams still free, each
    with the riders the squad would get, one button each."""
    errors: list[str] = []
    if request.method == "POST":
        try:
            formation.real_team_take(team=team, real_team=request.POST.get("real_team", ""))
        except formation.FormationError as error:
            errors = error.errors
        else:
            messages.success(request, _("Your team is ready."))
            return redirect("player-team", slug=season.slug, team_id=team.pk)
    game = formation.game_of(season)
    offered = formation.real_teams_free(season=season, exclude_team=team)
    context["real_teams"] = [
        (name, [game.candidate(p).name for p in pickables[: season.roster_size]])
        for name, pickables in offered.items()
    ]
    context["real_team_errors"] = errors
    return render(request, "season/player/team.html", context)


#: Past this many, the unfiltered budget pick folds what is free by real team (a 176-rider
#: start list is 7,000 px on a phone); a grid of cars stays one table.
BUDGET_FLAT_MAX = 40


def _pick_filter(request: HttpRequest, game: GameAdapter) -> tuple[str, str]:
    """The budget pick's filter: a name or real team (``q``) and a speciality, from the form's
    Filter button (a POST, which keeps the ticks not saved yet) or from a link's query."""
    data = request.POST if request.method == "POST" and "filter" in request.POST else request.GET
    query = data.get("q", "").strip()[:100]
    speciality = data.get("speciality", "")
    if speciality not in {key for key, _label in game.pick_specialities()}:
        speciality = ""
    return query, speciality


def _budget_page(
    request: HttpRequest,
    season: Season,
    team: SeasonTeam,
    game: GameAdapter,
    seats: list[Seat],
    context: dict[str, object],
) -> HttpResponse:
    """A budget pick: the free riders or cars as checkboxes (``picks``), saved at once through
    formation.team_select; an htmx ``preview`` gives the summary of the ticks only. Without
    JavaScript, the Filter button posts the ticks back and the page lists what matches, the
    ticked ones always among them, so that saving keeps them."""
    chosen_now = {getattr(seat, f"{game.seat_field}_id") for seat in seats}
    free = formation.free_pickables(season=season, exclude_team=team)
    candidates = {p.pk: game.candidate(p) for p in free}
    filtering = request.method == "POST" and "filter" in request.POST
    form = BudgetTeamForm(
        None if filtering else request.POST or None,
        candidates=list(candidates.values()),
        initial={"picks": sorted(chosen_now)},
    )
    if filtering:
        chosen_now = {
            int(v) for v in request.POST.getlist("picks") if v.isdigit() and int(v) in candidates
        }
    elif request.method == "POST":
        if form.is_valid():
            chosen = set(form.chosen())
            if request.htmx and request.POST.get("preview"):  # type: ignore[attr-defined]
                return render(
                    request,
                    "season/player/_budget_summary.html",
                    _budget_summary(season, game, [candidates[i] for i in chosen]),
                )
            try:
                formation.team_select(team=team, pickable_ids=chosen)
            except formation.FormationError as error:
                for message in error.errors:
                    form.add_error(None, message)
                chosen_now = chosen
            else:
                messages.success(request, _("Your team is ready."))
                return redirect("player-team", slug=season.slug, team_id=team.pk)
        else:
            chosen_now = {int(v) for v in request.POST.getlist("picks") if v.isdigit()}
    query, speciality = _pick_filter(request, game)
    free.sort(
        key=lambda p: (p.pk not in chosen_now, -candidates[p.pk].price, candidates[p.pk].name)
    )
    total = len(free)
    if query:
        needle = query.casefold()
        free = [
            p
            for p in free
            if p.pk in chosen_now
            or needle in candidates[p.pk].name.casefold()
            or needle in candidates[p.pk].real_team_name.casefold()
        ]
    if speciality:
        free = [p for p in free if p.pk in chosen_now or game.pick_speciality(p, speciality)]
    columns = game.pick_columns()
    words = game.team_words
    rows: list[dict[str, Any]] = [
        {
            "candidate": candidates[p.pk],
            "cells": _cells(columns, game.pick_values(p)),
            "chosen": p.pk in chosen_now,
        }
        for p in free
    ]
    groups: list[dict[str, object]] = []
    if not (query or speciality) and len(rows) > BUDGET_FLAT_MAX:
        by_team: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_team.setdefault(row["candidate"].real_team_name, []).append(row)
        groups = [
            {
                "name": name,
                "rows": by_team[name],
                "chosen": sum(1 for row in by_team[name] if row["chosen"]),
            }
            for name in sorted(by_team, key=str.casefold)
        ]
    context.update(
        {
            "budget_form": form,
            "tick_text": words["tick"] % {"size": season.roster_size, "budget": season.budget},
            "candidate_rows": rows,
            "candidate_groups": groups,
            "pick_query": query,
            "pick_speciality": speciality,
            "pick_specialities": game.pick_specialities(),
            "pick_shown": sum(1 for row in rows if not row["chosen"]),
            "pick_total": total - len(chosen_now & set(candidates)),
            **_budget_summary(season, game, [candidates[p] for p in chosen_now if p in candidates]),
        }
    )
    return render(request, "season/player/team.html", context)


def _budget_summary(
    season: Season, game: GameAdapter, candidates: list[formation.Candidate]
) -> dict[str, object]:
    spent = sum(c.price for c in candidates)
    return {
        "season": season,
        "summary_text": game.team_words["summary"]
        % {"count": len(candidates), "size": season.roster_size},
        "spent": spent,
        "left": season.budget - spent,
        "summary_errors": formation.roster_errors(
            roster=candidates,
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
            budget=season.budget,
            complete=True,
            nouns=formation.nouns_of(game),
        )
        if candidates
        else [],
    }


def _board_rows(
    request: HttpRequest, season: Season, team: SeasonTeam, game: GameAdapter, wished: set[int]
) -> tuple[list[dict[str, object]], dict[str, str]]:
    """What is still free as the draft board shows it, filtered by the request's name or real
    team (`q`) and the game's speciality; each with the reason the team may not pick it, if
    any."""
    query = request.GET.get("q", "").strip()
    speciality = request.GET.get("speciality", "")
    if speciality not in {key for key, _label in game.pick_specialities()}:
        speciality = ""
    free = [(p, game.candidate(p)) for p in formation.free_pickables(season=season)]
    if query:
        needle = query.casefold()
        free = [
            (p, c)
            for p, c in free
            if needle in c.name.casefold() or needle in c.real_team_name.casefold()
        ]
    if speciality:
        free = [(p, c) for p, c in free if game.pick_speciality(p, speciality)]
    roster = formation.team_candidates(team=team)
    wish_url = reverse("player-wishlist", kwargs={"slug": season.slug, "team_id": team.pk})
    nouns = formation.nouns_of(game)
    rows = [
        {
            "id": pickable.pk,
            "name": candidate.name,
            "price": candidate.price,
            "real_team": candidate.real_team_name,
            "refusal": formation.pick_refusal(
                roster=roster,
                candidate=candidate,
                roster_size=season.roster_size,
                max_per_real_team=season.max_per_real_team,
                nouns=nouns,
            ),
            "wished": pickable.pk in wished,
            "wish_url": wish_url,
            **game.pick_values(pickable),
        }
        for pickable, candidate in free
    ]
    return rows, {"q": query, "speciality": speciality}


def _history_rows(
    season: Season, game: GameAdapter, status: formation.DraftStatus
) -> list[dict[str, object]]:
    teams = max(len(status.order), 1)
    picks = season.draft_picks.select_related(
        "team__owner", "rider__team", "entry__driver", "entry__constructor", "entry__championship"
    ).order_by("number")
    rows = []
    for pick in picks:
        pickable = getattr(pick, game.seat_field)
        rows.append(
            {
                "number": pick.number,
                "round": (pick.number - 1) // teams + 1,
                "team": pick.team.name,
                "player": pick.team.owner.username if pick.team.owner else "",
                "name": pick.picked_name,
                "real_team": game.candidate(pickable).real_team_name if pickable else "",
                "picked_at": pick.picked_at,
                "source": pick.source,
                "source_label": pick.get_source_display(),
            }
        )
    return rows


def _wish_rows(game: GameAdapter, wishes: list[Any]) -> list[dict[str, object]]:
    rows = []
    for wish in wishes:
        candidate = game.candidate(getattr(wish, game.seat_field))
        rows.append(
            {"id": candidate.id, "name": candidate.name, "real_team": candidate.real_team_name}
        )
    return rows


def _draft_context(
    request: HttpRequest, season: Season, team: SeasonTeam, game: GameAdapter, seat_count: int
) -> dict[str, object]:
    status = formation.draft_status(season=season)
    my_turn = status.on_turn is not None and status.on_turn.pk == team.pk
    wish_open = not formation.wish_list_refusal(team=team, status=status, rider_count=seat_count)
    wishes = formation.wish_list(team=team) if wish_open else []
    board = None
    filters = {"q": "", "speciality": ""}
    if wish_open:
        wished = {getattr(w, f"{game.seat_field}_id") for w in wishes}
        rows, filters = _board_rows(request, season, team, game, wished)
        board = DraftBoardTable(
            rows,
            columns=game.pick_columns(),
            words=game.team_words,
            my_turn=my_turn,
            wish_open=True,
            prefix="board-",
        )
        if filters["speciality"] and not request.GET.get("board-sort"):
            board.order_by = ("-" + filters["speciality"], "-price")
    history = (
        DraftHistoryTable(
            _history_rows(season, game, status), words=game.team_words, prefix="picks-"
        )
        if status.started
        else None
    )
    words = game.team_words
    return draft_clock.clock_shown(season=season, status=status) | {
        "draft": status,
        "my_turn": my_turn,
        "board": board,
        "history": history,
        "wishes": _wish_rows(game, wishes),
        "wish_open": wish_open,
        "query": filters["q"],
        "speciality": filters["speciality"],
        "specialities": game.pick_specialities(),
        "clock_help": words["clock"] % {"minutes": season.draft_pick_minutes}
        if season.draft_pick_minutes
        else "",
        "draft_limit": words["draft_limit"] % {"limit": season.max_per_real_team}
        if season.max_per_real_team
        else "",
    }


def _pickable(season: Season, value: str) -> Any:
    """The game's rider or car of the posted id (in the season's pool or not: the services say
    why one is refused), or None."""
    if not value.isdigit() or len(value) >= 10:
        return None
    return formation.pickable_lookup(season=season, pickable_id=int(value))


@login_required
@require_POST
def draft_pick(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The team on turn takes a rider or a car (``pick``: its id); draft_pick checks the turn
    and the roster rules."""
    team = own_team(request, slug, team_id)
    season = team.season
    game = formation.game_of(season)
    pickable = _pickable(season, request.POST.get("pick", ""))
    if pickable is None:
        messages.error(request, str(game.team_words["pick_choose"]))
        return _back_to_board(request, team, "#draft")
    try:
        formation.draft_pick(season=season, team=team, pickable=pickable, user=request.user)
    except formation.FormationError as error:
        messages.error(request, str(error))
    else:
        name = game.candidate(pickable).name
        messages.success(request, _("%(rider)s joins your team.") % {"rider": name})
    return _back_to_board(request, team, "#draft")


def _back_to_board(request: HttpRequest, team: SeasonTeam, anchor: str) -> HttpResponse:
    """Back to the draft page as it was (its filter, sort and page), never to another site."""
    here = reverse("player-team", kwargs={"slug": team.season.slug, "team_id": team.pk})
    back = request.POST.get("next", "")
    if not back.startswith(here) or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = here
    return redirect(back + anchor)


WISH_ACTIONS = ("add", "remove", "up", "down")


@login_required
@require_POST
def wishlist_change(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """Add a rider or a car to the team's wish list, take one off, or move one up or down. Only
    the team's player (own_team: 403 for anybody else)."""
    team = own_team(request, slug, team_id)
    game = formation.game_of(team.season)
    action = next((a for a in WISH_ACTIONS if a in request.POST), None)
    pickable = _pickable(team.season, request.POST.get(action, "")) if action else None
    if action is None or pickable is None:
        messages.error(request, str(game.team_words["wish_choose"]))
        return _back_to_board(request, team, "#wishlist")
    try:
        if action == "add":
            formation.wish_add(team=team, pickable=pickable)
            done = _("%(rider)s is on your wish list.")
        elif action == "remove":
            formation.wish_remove(team=team, pickable=pickable)
            done = _("%(rider)s has left your wish list.")
        else:
            formation.wish_move(team=team, pickable=pickable, offset=-1 if action == "up" else 1)
            done = _("%(rider)s has moved on your wish list.")
    except formation.FormationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done % {"rider": game.candidate(pickable).name})
    return _back_to_board(request, team, "#wishlist")


# --- orders ---------------------------------------------------------------------------------


@login_required
def orders(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """Orders for the next round that takes them, a row of the ruleset's fields per starter
    seat, saved through orders_submit, which checks the deadline, the starters, the role
    limits and the ruleset's rules again. What the page shows beside the form is the game's
    (its adapter's orders_template and orders_context)."""
    team = own_team(request, slug, team_id)
    season = team.season
    with timezone.override(season.tz):
        return _orders(request, season, team, timezone.now())


def _orders(request: HttpRequest, season: Season, team: SeasonTeam, now: datetime) -> HttpResponse:
    here = reverse("player-orders", kwargs={"slug": season.slug, "team_id": team.pk})
    adapter = adapter_for(season.ruleset)
    window = leagues.orders_window(season=season, now=now)
    round = window.stage
    starters = selectors.team_starters(team=team, round=round) if round else []
    existing = Orders.objects.filter(team=team, round=round).first() if round else None
    form = None
    # No orders for this round yet: the form starts from the team's latest ones (and the
    # closed page says whether they stand for it).
    carry = (
        orders_carried(team=team, round=round)
        if existing is None and starters and round is not None
        else None
    )
    if window.is_open and starters and round is not None:
        form = SeatOrdersForm(
            request.POST or None,
            adapter=adapter,
            seats=starters,
            current=existing.data if existing else (carry.data if carry else {}),
            round=round,
            standing=existing.standing if existing else bool(carry and carry.standing),
        )
        if request.method == "POST" and form.is_valid():
            if form.cleaned_data["stage"] != round.number:
                messages.error(
                    request,
                    _("Orders for %(round)s are closed.")
                    % {"round": round_name(season, form.cleaned_data["stage"])},
                )
                return redirect(here)
            try:
                orders_submit(
                    team=team,
                    round=round,
                    orders=form.orders(),
                    user=request.user,
                    standing=form.cleaned_data["standing"],
                    source=orders_source(carry=carry, orders=form.orders(), adapter=adapter),
                )
            except OrdersClosed as error:
                messages.error(request, str(error))
                return redirect(here)
            except OrdersInvalid as error:
                for message in error.errors:
                    form.add_error(None, message)
            else:
                messages.success(
                    request,
                    _("Orders saved for %(round)s.") % {"round": adapter.orders_title(round)},
                )
                return redirect(here)
    elif request.method == "POST":
        messages.error(request, window.reason or str(adapter.orders_no_seats))
        return redirect(here)
    # Orders that can no longer change, worded in the fields of the season's ruleset.
    submitted = (
        orders_summary(adapter=adapter, seats=starters, stored=existing.data, round=round)
        if existing is not None and form is None and round is not None
        else []
    )
    deadline = round.orders_deadline if round else None
    return render(
        request,
        "season/player/orders.html",
        {
            "season": season,
            "team": team,
            "selections_due": _selection_links(team),
            "window": window,
            "round": round,
            "round_title": adapter.orders_title(round) if round is not None else "",
            "form": form,
            "starters": starters,
            "existing": existing,
            "carry": carry,
            "carry_round": round_name(season, carry.number) if carry else "",
            "submitted": submitted,
            "deadline": deadline,
            "time_left": time_left(deadline - now) if deadline and window.is_open else "",
            "legend": adapter.orders_legend,
            # A game whose seats have roles: the team's limits per role (season.orders).
            "role_limits": [role_count_text(role, limit) for role, limit in ROLE_LIMITS.items()]
            if adapter.seat_roles
            else [],
            "rules_url": rules_url(season.ruleset),
            "game_template": adapter.orders_template,
            **(adapter.orders_context(round, starters=starters, form=form) if round else {}),
        },
    )


# --- selections -----------------------------------------------------------------------------


def _selection_links(team: SeasonTeam) -> list[dict[str, object]]:
    """The events whose selection the team can still give, each with its page's address and
    whether the team gave one (linked from the team and orders pages)."""
    return [
        {
            "label": _("Riders who start %(race)s") % {"race": event_name(team.season, item)},
            "url": reverse(
                "player-selection",
                kwargs={"slug": team.season.slug, "team_id": team.pk, "number": item.number},
            ),
            "given": item.given,  # type: ignore[attr-defined]
        }
        for item in selections_due(team=team)
    ]


def _selection_rows(
    game: GameAdapter, squad: list[Seat], ticked: set[int], default: set[int]
) -> list[dict[str, object]]:
    columns = game.pick_columns()
    rows = []
    for seat in squad:
        pickable = getattr(seat, game.seat_field)
        rows.append(
            {
                "seat": seat,
                "name": game.candidate(pickable).name,
                "price": game.candidate(pickable).price,
                "role": seat.get_role_display() if game.seat_roles else "",
                "ratings": [
                    {"label": column.label, **cell}
                    for column, cell in zip(
                        columns, _cells(columns, game.pick_values(pickable)), strict=True
                    )
                ],
                "ticked": seat.pk in ticked,
                "default": seat.pk in default,
            }
        )
    return rows


@login_required
def selection(request: HttpRequest, slug: str, team_id: int, number: int) -> HttpResponse:
    """The riders of the squad who start event ``number`` of the calendar: a box per rider,
    the count the event starts, its first deadline and the default selection that applies
    if the player chooses none; saved through selection_save, which checks it all again."""
    team = own_team(request, slug, team_id)
    season = team.season
    item = get_object_or_404(SeasonEvent, season=season, number=number)
    here = reverse(
        "player-selection", kwargs={"slug": season.slug, "team_id": team.pk, "number": number}
    )
    game = adapter_for(season.ruleset).rated_for(item.event)
    squad = squad_of(team)
    default = {seat.pk for seat in default_selection(team=team, item=item)}
    stored = {row.seat_id for row in selection_stored(team=team, item=item)}
    errors: list[str] = []
    ticked = stored or default
    if request.method == "POST":
        given = [value for value in request.POST.getlist("seat") if value.isdigit()]
        try:
            selection_save(
                team=team, item=item, seat_ids=[int(v) for v in given], user=request.user
            )
        except SelectionRefused as error:
            errors.append(str(error))
            ticked = {int(v) for v in given}
        else:
            messages.success(
                request,
                _("Your riders for %(race)s are saved.") % {"race": event_name(season, item)},
            )
            return redirect(here)
    opening = first_round(item)
    deadline = opening.orders_deadline if opening else None
    with timezone.override(season.tz):
        return render(
            request,
            "season/player/selection.html",
            {
                "season": season,
                "team": team,
                "item": item,
                "race_name": event_name(season, item),
                "rows": _selection_rows(game, squad, ticked, default),
                "count": selection_count(item, squad),
                "needed": item.starters is not None and len(squad) > item.starters,
                "is_open": selection_open(item),
                "stored": bool(stored),
                "deadline": deadline,
                "time_left": time_left(deadline - timezone.now())
                if deadline and deadline > timezone.now()
                else "",
                "errors": errors,
                "default_names": [seat.name for seat in squad if seat.pk in default],
                "default_rule": game.selection_rule,
            },
        )
