"""The organiser's season pages: create a season, its settings and calendar, invitations,
team formation and members. Stage actions (open, lock, resolve...) live on the stage pages.

Every page checks season.manage_season: 404 for a private season one cannot see, 403 for a
season one does not organise.
"""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from plugins import adapter_for
from season import formation, leagues, selectors
from season.calendar import season_calendar
from season.forms import (
    CalendarForm,
    GameSettingsForm,
    RaceAddForm,
    SeasonCreateForm,
    SeasonSettingsForm,
)
from season.models import ChatHook, Membership, Round, Season
from season.round_names import (
    picks_text,
    round_name,
    round_name_start,
    round_title,
    team_size_text,
)
from season.services import deadlines, draft_clock, game_settings, invitations, lifecycle
from season.services.orders_status import orders_count, orders_status
from season.tables import MembersTable, table_configure


def managed_season(request: HttpRequest, slug: str) -> Season:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    if not request.user.has_perm("season.manage_season", season):
        raise PermissionDenied(_("Only the organiser of this season can do that."))
    return season


@login_required
def season_create(request: HttpRequest) -> HttpResponse:
    """A new season of any game: the event, the ruleset, the calendar and the settings."""
    form = SeasonCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = leagues.season_create(
                organiser=request.user,
                slug=form.cleaned_data["slug"],
                event=form.cleaned_data["event"],
                settings=form.season_settings(),
                first_deadline=form.cleaned_data["first_deadline"],
                hours_between=form.cleaned_data["hours_between"],
                options=form.options(),
            )
        except leagues.LeagueError as error:
            for message in getattr(error, "errors", None) or [str(error)]:
                form.add_error(None, message)
        else:
            messages.success(
                request, _("%(season)s is created: invite your players.") % {"season": season.name}
            )
            return redirect("organiser-season", slug=season.slug)
    return render(request, "season/organiser/create.html", {"form": form})


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's page of a season, whatever its game: the invitation, the team formation,
    the orders of the round open now, the members and the calendar. What the game says of its
    event and its teams comes from its adapter (league_source, league_capacity_text,
    league_formation_notes, league_calendar)."""
    season = managed_season(request, slug)
    game = adapter_for(season.ruleset)
    members = list(
        Membership.objects.filter(season=season).select_related("user").order_by("joined_at")
    )
    progress = formation.teams_progress(season=season)
    teams_by_owner = {p.team.owner_id: p for p in progress if p.team.owner_id}
    members_table = MembersTable(
        [
            {
                "user": m.user,
                "role": m.get_role_display(),
                "team_name": teams_by_owner[m.user_id].team.name
                if m.user_id in teams_by_owner
                else "",
                "seats": f"{teams_by_owner[m.user_id].seat_count}/{season.roster_size}"
                if m.user_id in teams_by_owner
                else "",
                "joined_at": m.joined_at,
            }
            for m in members
        ],
        seats_label=capfirst(game.pickables_noun),
        prefix="members-",
    )
    with timezone.override(season.tz):
        calendar_table = game.league_calendar(
            season.event, season=season, rounds=season.rounds.order_by("number")
        )
        for table, name in ((members_table, "members"), (calendar_table, "calendar")):
            export = table_configure(request, table, f"{season.slug}-{name}")
            if export:
                return export
        # The round that takes (or took) orders now: who has given them.
        orders_round = (
            season.rounds.filter(status__in=(Round.Status.OPEN, Round.Status.LOCKED))
            .order_by("number")
            .first()
        )
        status = orders_status(round=orders_round) if orders_round is not None else []
        draft = (
            formation.draft_status(season=season)
            if season.formation_mode == Season.FormationMode.DRAFT
            else None
        )
        round_one = season.rounds.filter(number=1).first()
        players = len(progress)
        return render(
            request,
            "season/organiser/dashboard.html",
            {
                "season": season,
                "source": game.league_source(season.event),
                "ruleset_label": game.label,
                "invite_url": request.build_absolute_uri(
                    reverse("season-join", kwargs={"code": season.invite_code})
                ),
                "members_table": members_table,
                "progress": progress,
                "teams_formed": bool(progress) and all(p.complete for p in progress),
                "draft": draft,
                "draft_refusal": formation.draft_start_refusal(season)
                if draft is not None and not draft.started
                else None,
                # The pick clock of the team on turn (None without a clock).
                "pick_deadline": draft_clock.pick_deadline(season=season, status=draft)
                if draft is not None
                else None,
                "join_closed": leagues.join_closed_reason(season),
                "capacity_text": game.league_capacity_text(
                    season.event, roster_size=season.roster_size
                ),
                "formation_notes": game.league_formation_notes(season=season, players=players),
                "seats_text": team_size_text(season),
                "pickables": game.pickables_noun,
                "pickable": game.pickable_noun,
                "round_one": round_name_start(season, 1),
                "round_one_in_sentence": round_name(season, 1),
                # A stage race of the players' riders only has no computer team.
                "computer_teams": season.peloton != Season.Peloton.PLAYERS,
                "round_one_to_open": round_one is not None and lifecycle.can_open(round_one),
                "calendar_table": calendar_table,
                "orders_round": orders_round,
                "orders_round_title": round_title(game, season, orders_round)
                if orders_round is not None
                else "",
                "orders_status": status,
                "orders_count": orders_count(status),
                # A chat channel the workers stopped posting to (too many failures in a row).
                "chat_hooks_failing": ChatHook.objects.filter(
                    season=season, enabled=False, failures__gt=0
                ).exists(),
            },
        )


@login_required
def settings_edit(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    form = SeasonSettingsForm(
        request.POST or None,
        initial=SeasonSettingsForm.initial_for(season),
        base_rules=season.rules,
        event=season.event,
        game=adapter_for(season.ruleset),
    )
    if formation.formation_started(season):
        form.freeze(
            [name for name in SeasonSettingsForm.FORMATION_FIELDS if name in form.fields],
            _("Fixed: teams are being formed."),
        )
    if formation.race_started(season):
        form.freeze(
            [name for name in SeasonSettingsForm.START_FIELDS if name in form.fields],
            _("Fixed: the season has started."),
        )
    if leagues.rules_frozen(season):
        form.freeze(
            [name for name in SeasonSettingsForm.RULE_FIELDS if name in form.fields],
            _("Fixed: a stage has been resolved with it."),
        )
    if request.method == "POST" and form.is_valid():
        try:
            leagues.season_settings_update(season=season, settings=form.season_settings())
        except leagues.LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Settings saved."))
            return redirect("organiser-season", slug=season.slug)
    return render(request, "season/organiser/settings.html", {"season": season, "form": form})


@login_required
def calendar_edit(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    with timezone.override(season.tz):
        stages = list(season.rounds.select_related("stage", "grand_prix").order_by("number"))
        form = CalendarForm(request.POST or None, stages=stages)
        if request.method == "POST" and form.is_valid():
            try:
                leagues.calendar_update(season=season, deadlines=form.deadlines())
            except leagues.CalendarInvalid as error:
                for message in error.errors:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Calendar saved."))
                return redirect("organiser-season", slug=season.slug)
        return render(request, "season/organiser/calendar.html", {"season": season, "form": form})


@login_required
def races_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The calendar's races in order, each with its rounds and the gap since the previous
    race; a form that adds a race at the end (where the game's calendar grows), a button that
    removes a race not started yet."""
    season = managed_season(request, slug)
    game = adapter_for(season.ruleset)
    grows = game.league_calendar_grows
    form = RaceAddForm(request.POST or None, game=game, season=season) if grows else None
    with timezone.override(season.tz):
        if request.method == "POST":
            if form is None:
                raise PermissionDenied(_("This game's calendar is its championship's."))
            if form.is_valid():
                try:
                    leagues.calendar_event_add(
                        season=season,
                        event=form.cleaned_data["event"],
                        first_deadline=form.cleaned_data["first_deadline"],
                        hours_between=form.cleaned_data["hours_between"],
                        starters=form.cleaned_data["starters"],
                        options=form.options(),
                    )
                except leagues.LeagueError as error:
                    for message in getattr(error, "errors", None) or [str(error)]:
                        form.add_error(None, message)
                else:
                    messages.success(
                        request,
                        _("%(race)s is added to the calendar.")
                        % {"race": game.league_source(form.cleaned_data["event"])},
                    )
                    return redirect("organiser-races", slug=season.slug)
        events = season_calendar(season)
        return render(
            request,
            "season/organiser/races.html",
            {
                "season": season,
                "events": events,
                "form": form,
                "removable": len(events) > 1,
            },
        )


@login_required
@require_GET
def race_remove_confirm(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    season = managed_season(request, slug)
    events = {event.number: event for event in season_calendar(season)}
    event = events.get(number)
    if event is None:
        raise Http404(_("The calendar has no such race."))
    back = reverse("organiser-races", kwargs={"slug": season.slug})
    return render(
        request,
        "season/organiser/confirm.html",
        {
            "season": season,
            "back_url": back,
            "back_label": _("Races of the calendar"),
            "title": _("Remove a race"),
            "question": _("Remove %(race)s from the calendar?") % {"race": event.name},
            "details": [
                ngettext(
                    "Its %(count)d round goes with it.",
                    "Its %(count)d rounds go with it.",
                    len(event.rounds),
                )
                % {"count": len(event.rounds)},
                _("The races after it move up one place, their rounds renumbered."),
            ],
            "action_url": reverse(
                "organiser-race-remove", kwargs={"slug": season.slug, "number": number}
            ),
            "confirm_label": _("Remove the race"),
        },
    )


@login_required
@require_POST
def race_starters(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """How many of its squad each team starts in a race not begun (empty: the whole squad)."""
    season = managed_season(request, slug)
    raw = request.POST.get("starters", "").strip()
    try:
        starters = int(raw) if raw else None
        leagues.calendar_event_starters(season=season, number=number, starters=starters)
    except ValueError:
        messages.error(request, _("Starters per team: a whole number, or empty for the squad."))
    except leagues.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Who starts the race is saved."))
    return redirect("organiser-races", slug=season.slug)


@login_required
@require_POST
def race_remove(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    season = managed_season(request, slug)
    try:
        leagues.calendar_event_remove(season=season, number=number)
    except leagues.LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The race is removed from the calendar."))
    return redirect("organiser-races", slug=season.slug)


def _confirm(request: HttpRequest, season: Season, **context: object) -> HttpResponse:
    back = reverse("organiser-season", kwargs={"slug": season.slug})
    return render(
        request,
        "season/organiser/confirm.html",
        {"season": season, "back_url": back, "back_label": season.name, **context},
    )


@login_required
@require_GET
def invite_regenerate_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    players = season.teams.filter(owner__isnull=False).count()
    return _confirm(
        request,
        season,
        title=_("New invitation code"),
        question=_("Make a new invitation code for %(season)s?") % {"season": season.name},
        details=[
            _("The current link and code (%(code)s) stop working at once.")
            % {"code": season.invite_code},
            ngettext(
                "The %(count)d player who has joined keeps his team.",
                "The %(count)d players who have joined keep their teams.",
                players,
            )
            % {"count": players},
        ],
        action_url=reverse("organiser-invite-regenerate", kwargs={"slug": season.slug}),
        confirm_label=_("Make a new code"),
    )


@login_required
@require_GET
def draft_start_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    teams = season.teams.filter(owner__isnull=False).count()
    if season.formation_mode != Season.FormationMode.DRAFT or season.draft_started_at:
        messages.info(request, _("There is no draft to start."))
        return redirect("organiser-season", slug=season.slug)
    refusal = formation.draft_start_refusal(season)
    if refusal is not None:
        messages.error(request, refusal)
        return redirect("organiser-season", slug=season.slug)
    return _confirm(
        request,
        season,
        title=_("Start the draft"),
        question=ngettext(
            "Start the draft with %(count)d team?",
            "Start the draft with %(count)d teams?",
            teams,
        )
        % {"count": teams},
        details=[
            _("The pick order is drawn at random."),
            _("Joining closes: nobody else can join the season."),
            picks_text(season, teams),
        ],
        action_url=reverse("organiser-draft-start", kwargs={"slug": season.slug}),
        confirm_label=_("Start the draft"),
    )


@login_required
@require_POST
def invite_regenerate(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    leagues.invite_code_regenerate(season=season)
    messages.success(request, _("New invitation code: the old link no longer works."))
    return redirect("organiser-season", slug=season.slug)


@login_required
@require_POST
def draft_start(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    try:
        teams = formation.draft_start(season=season)
    except formation.FormationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("The draft has started: %(team)s picks first.") % {"team": teams[0].name}
        )
    return redirect("organiser-season", slug=season.slug)


@login_required
@require_POST
def draft_autopick(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    try:
        pick = formation.draft_autopick(season=season, user=request.user)
    except formation.FormationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Pick %(number)d: %(rider)s for %(team)s.")
            % {"number": pick.number, "rider": pick.picked_name, "team": pick.team.name},
        )
    return redirect("organiser-season", slug=season.slug)


@login_required
def game_settings_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The settings of the season's game, one field per setting of its ruleset's spec."""
    season = managed_season(request, slug)
    adapter = adapter_for(season.ruleset)
    form = GameSettingsForm(
        request.POST or None,
        adapter=adapter,
        values=game_settings.game_settings_values(season),
        odds_runs=season.rules.odds_runs,
    )
    if leagues.rules_frozen(season):
        form.freeze(_("Fixed: a round has been resolved with it."))
    if request.method == "POST" and form.is_valid():
        try:
            game_settings.game_settings_update(season=season, values=form.cleaned_data)
        except leagues.LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Game settings saved."))
            return redirect("organiser-season", slug=season.slug)
    return render(
        request,
        "season/organiser/game_settings.html",
        {"season": season, "form": form, "adapter": adapter},
    )


# --- organiser tools: invite by name or e-mail, shift every deadline --------------------------


class InviteForm(forms.Form):
    to = forms.CharField(
        label=gettext_lazy("Username or e-mail address"), max_length=254, strip=True
    )


class DeadlineShiftForm(forms.Form):
    days = forms.IntegerField(label=gettext_lazy("Days"), initial=0, min_value=-60, max_value=60)
    hours = forms.IntegerField(label=gettext_lazy("Hours"), initial=0, min_value=-23, max_value=23)

    def delta(self) -> timedelta:
        return timedelta(days=self.cleaned_data["days"], hours=self.cleaned_data["hours"])


@login_required
@require_POST
def invite_send(request: HttpRequest, slug: str) -> HttpResponse:
    season = managed_season(request, slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a username or an e-mail address."))
    else:
        try:
            sent = invitations.invitation_send(
                season=season, to=form.cleaned_data["to"], sender=request.user
            )
        except invitations.InvitationRefused as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _(
                    "If %(who)s has an account with an e-mail address, or is one, the "
                    "invitation is on its way."
                )
                % {"who": sent.to},
            )
    return redirect(reverse("organiser-season", kwargs={"slug": season.slug}) + "#invitation")


@login_required
def deadlines_shift_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Move every deadline still to come at once (a league that takes a week off)."""
    season = managed_season(request, slug)
    form = DeadlineShiftForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            moved = deadlines.deadlines_shift(season=season, delta=form.delta())
        except leagues.CalendarInvalid as error:
            for message in error.errors:
                form.add_error(None, message)
        else:
            messages.success(
                request,
                ngettext("%(count)d deadline moved.", "%(count)d deadlines moved.", len(moved))
                % {"count": len(moved)},
            )
            return redirect("organiser-season", slug=season.slug)
    with timezone.override(season.tz):
        return render(
            request,
            "season/organiser/shift.html",
            {
                "season": season,
                "form": form,
                "stages": season.rounds.filter(
                    status__in=leagues.EDITABLE_DEADLINE, orders_deadline__isnull=False
                ).order_by("number"),
            },
        )
