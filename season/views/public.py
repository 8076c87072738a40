"""Pages everyone can read (unless the organiser made the season private): one set for every
game. Each view checks access, builds the page's shell (the round's state and actions, the
orders given, comments, the end of the race, the cache) and asks the season's adapter for the
game's part of it (``league_season``, ``league_round``, ``league_team``, ``league_dice``) and
the template that shows it (``league_templates``, each extending templates/season/league/).
A game's own pages under the season (a championship's Grand Prix, its standings) are
season/views/event_pages.py's."""

from functools import partial
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from plugins import adapter_for, adapter_names
from races.charts.gc import gc_gaps_svg, gc_texts
from races.models import Classification, Standing
from riders.charts import radar_labels, radar_svg, radar_texts
from season import cache as page_cache
from season import results, selectors
from season.calendar import next_deadline, season_calendar
from season.models import DONE_STATUSES, DiceLog, Round, Season, SeasonTeam
from season.permissions import results_view, round_results_visible, status_visible, visible_upto
from season.rated import rated_game
from season.round_names import round_choices, round_name
from season.services import lifecycle
from season.services.calendar_feed import season_feed_links
from season.services.orders_status import orders_count, orders_status
from season.services.ratings import history_rows
from season.tables import (
    RiderResultTable,
    StandingTable,
    table_configure,
)
from season.templatetags.rulebook import rule_link_html
from season.views import community
from season.views.badges import round_badge
from season.views.rules import rules_url


def games_rules() -> list[tuple[str, str]]:
    """Every game the site runs, by its name, with the address of its rules page."""
    return [(str(adapter_for(name).label), rules_url(name)) for name in adapter_names()]


def home(request: HttpRequest) -> HttpResponse:
    """What the site is, how to start, where the rules are; the public seasons, each with
    what it races in its game's words."""
    rows = []
    for season in selectors.season_list_public():
        game = adapter_for(season.ruleset)
        rows.append(
            {
                "season": season,
                "source": game.league_source(season.event),
                "rounds_text": game.rounds_count_text(season.stage_count),  # type: ignore[attr-defined]
                "label": game.label,
            }
        )
    return render(request, "season/home.html", {"rows": rows, "games": games_rules()})


def _season(access: page_cache.Access) -> Season:
    """The season row of a page built on a cache miss (access was checked by season_access)."""
    return Season.objects.select_related("organiser").get(pk=access.state.pk)


def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    # The latest stage whose standings this visitor may see (permissions.visible_upto).
    last = access.state.visible_upto(access.view) or None

    def build() -> page_cache.Page | HttpResponse:
        built = season_page(_season(access))
        if isinstance(built, page_cache.Page):
            # The end of the race, once the last round's results are visible (season.results).
            statuses = access.state.statuses
            built.context["finale"] = results.finale(
                season=built.context["season"],
                visible_upto=last or 0,
                last=statuses[-1][0] if statuses else 0,
                team_names=built.context.get("team_names"),
                rounds=built.context.get("calendar_rounds"),
                seats=built.context.get("seats"),
            )
        return built

    def season_page(season: Season) -> page_cache.Page | HttpResponse:
        adapter = adapter_for(season.ruleset)
        # Read once for the leaders and the end of the race.
        teams = list(season.teams.select_related("owner").order_by("name"))
        team_names = {team.pk: team.name for team in teams} if last else {}
        # Read once for the calendar, the teams and the end of the race.
        rounds, seats = selectors.season_rounds(season=season), results.seats_once(season)
        # The page's part is the current event's (its rounds, its leaders); the calendar of
        # the whole year lists the others.
        item = season.current_event()
        own = [r for r in rounds if r.season_event_id == item.pk]
        part = adapter.league_season(
            item.event,
            season=season,
            rounds=own,
            teams=teams,
            last=selectors.event_last(item, rounds=own, last=last),
            team_names=team_names,
            seats=seats,
        )
        export = _table_configured(request, part, f"{season.slug}-calendar")
        if export:
            return export
        return page_cache.Page(
            adapter.league_templates["season"],
            {
                "season": season,
                **_year(season, rounds),
                "last": last,
                "team_names": team_names,
                "teams": teams,
                "calendar_rounds": rounds,
                "seats": seats,
                # What changed outside the rounds (an admin's ratings applied to the season).
                "history": history_rows(season=season),
                "member_links": mark_safe(page_cache.live_mark("member_links")),
                "calendar_link": mark_safe(page_cache.live_mark("calendar_link")),
                # The season's comments (season/views/community.py), rendered per request.
                "comments": mark_safe(page_cache.live_mark("comments")),
                **part,
            },
            tz=season.tz,
        )

    def member_links() -> dict[str, str]:
        comments = community.comments_html(request, access, None)
        # A private season's feed carries the member's own key (season_access let him in).
        calendar = render_to_string(
            "season/_calendar_subscribe.html",
            {
                "links": season_feed_links(season=access.state, user=request.user),
                "is_public": access.state.is_public,
            },
        )
        # The visitor's own links: nothing to render (and no query) for an anonymous visitor.
        if not request.user.is_authenticated:
            return {"member_links": "", "comments": comments, "calendar_link": calendar}
        my_team = SeasonTeam.objects.filter(season_id=access.state.pk, owner=request.user).first()
        html = render_to_string(
            "season/_member_links.html",
            {"season": access.state, "is_organiser": access.is_organiser, "my_team": my_team},
        )
        return {"member_links": html, "comments": comments, "calendar_link": calendar}

    return page_cache.cached_page(request, access, "season", build, live=member_links)


def _year(season: Season, rounds: list[Round]) -> dict[str, Any]:
    """The season page's "Calendar" block: every event of a calendar of several, and the
    season's next deadline (nothing for a calendar of one: the page is its event's)."""
    if season.single_event:
        return {"calendar_events": [], "next_deadline": None}
    events = season_calendar(season, rounds)
    return {"calendar_events": events, "next_deadline": next_deadline(events)}


def season_event(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One event of the season's calendar: the game's part of the season page for that event
    alone (its rounds, what this visitor may see of its results), reached from the calendar."""
    access = page_cache.season_access(request, slug)
    # The latest round whose results this visitor may see (permissions.visible_upto).
    visible = access.state.visible_upto(access.view)

    def build() -> page_cache.Page | HttpResponse:
        season = _season(access)
        calendar = season_calendar(season, selectors.season_rounds(season=season))
        events = {event.number: event for event in calendar}
        event = events.get(number)
        if event is None:
            raise Http404(_("The calendar has no such race."))
        rounds = [row.round for row in event.rounds]
        # The event's latest round whose results this visitor may see (None: none yet).
        last = max((r.number for r in rounds if r.number <= visible), default=None)
        adapter = adapter_for(season.ruleset)
        teams = list(season.teams.select_related("owner").order_by("name"))
        team_names = {team.pk: team.name for team in teams} if last else {}
        seats = results.seats_once(season)
        part = adapter.league_season(
            event.item.event,
            season=season,
            rounds=rounds,
            teams=teams,
            last=last,
            team_names=team_names,
            seats=seats,
        )
        export = _table_configured(request, part, f"{season.slug}-race-{number}")
        if export:
            return export
        return page_cache.Page(
            adapter.league_templates["season"],
            {
                "season": season,
                "event_page": event,
                "calendar_events": calendar,
                "next_deadline": next_deadline(calendar),
                "last": last,
                "team_names": team_names,
                "teams": teams,
                "calendar_rounds": rounds,
                "seats": seats,
                "member_links": "",
                "comments": "",
                **part,
            },
            tz=season.tz,
        )

    return page_cache.cached_page(request, access, "event", build)


def standings(request: HttpRequest, slug: str, classification: str) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    if classification not in Classification.values:
        raise Http404(_("No such classification."))
    # The latest standings this visitor may see (permissions.visible_upto).
    last = access.state.visible_upto(access.view)
    try:
        number = int(request.GET.get("after", last))
    except ValueError:
        raise Http404(_("No such stage.")) from None
    if not 0 <= number <= last:
        raise Http404(_("That stage is not resolved yet."))
    build = partial(_standings_page, request, access, classification, number, last)
    return page_cache.cached_page(request, access, "standings", build)


def _standings_page(
    request: HttpRequest, access: page_cache.Access, classification: str, number: int, last: int
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    adapter = adapter_for(season.ruleset)
    if "standings" in adapter.league_event_pages:
        # A game that serves its own standings (a championship's drivers and constructors).
        return redirect(adapter.league_standings_url(season.slug))
    team_names = selectors.season_team_names(season=season)
    # Before the first stage of a race forked after stage N: the real state after stage N.
    given = 0 if number else selectors.stage_of(season=season, number=0)[1]
    table = StandingTable(
        selectors.standings_queryset(season=season, number=number, classification=classification),
        classification=classification,
        season=season,
        team_names=team_names,
        places_before=selectors.standings_places_before(
            season=season, number=number, classification=classification
        ),
    )
    export = table_configure(request, table, f"{season.slug}-{classification}-after-{number}")
    if export:
        return export
    chart = ""
    if classification == Classification.GENERAL and number:
        series, numbers = selectors.gc_evolution(season=season, number=number)
        title, texts = _("GC gaps of the top 10 after each stage"), gc_texts()
        # Drawn twice: beside its legend for a desktop, above it for a phone (site.css shows one).
        chart = gc_gaps_svg(series, stage_numbers=numbers, title=title, texts=texts) + gc_gaps_svg(
            series,
            stage_numbers=numbers,
            width=340,
            height=260,
            legend_below=True,
            title=title,
            texts=texts,
        )
    return page_cache.Page(
        "season/standings.html",
        {
            "season": season,
            "table": table,
            "classification": classification,
            "classifications": Classification.choices,
            "number": number,
            "numbers": round_choices(season, last),
            "round_label": round_name(season, number)
            if number
            else _("stage %(number)d of the real race") % {"number": given}
            if given
            else "",
            "jerseys": selectors.jersey_holders(season=season, number=number, team_names=team_names)
            if number or given
            else [],
            "chart": chart,
        },
    )


def _round(request: HttpRequest, slug: str, number: int):
    season = selectors.season_visible_get(slug=slug, user=request.user)
    round = get_object_or_404(Round.objects.select_related("stage"), season=season, number=number)
    round.season = season
    return season, round


def stage_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    access = page_cache.season_access(request, slug)
    status = access.state.status_of(number)
    if status is None:
        raise Http404(_("No such stage."))
    # A round with results reads the same for every visitor of one visibility class: its page
    # is cached. The organiser's page (the actions) and a round being played (orders coming
    # in, a resolution on its way) are rendered for each request.
    shared = not access.is_organiser and status in DONE_STATUSES
    build = partial(_stage_page, request, access, number, shared=shared)
    if not shared or "_export" in request.GET:
        built = build()
        if isinstance(built, HttpResponse):
            return built
        built.context["comments"] = community.comments_html(request, access, number)
        return built.render(request)
    return page_cache.cached_page(
        request,
        access,
        "stage",
        lambda: _with_comments_mark(build()),
        live=lambda: {"comments": community.comments_html(request, access, number)},
    )


def _with_comments_mark(built: page_cache.Page | HttpResponse) -> page_cache.Page | HttpResponse:
    """A cached page holds a marker where the comments go (rendered per request)."""
    if isinstance(built, page_cache.Page):
        built.context["comments"] = mark_safe(page_cache.live_mark("comments"))
    return built


def _table_configured(request: HttpRequest, part: dict, name: str) -> HttpResponse | None:
    """Sorts and paginates the table of a game's part of a page (its "table", if any); the
    CSV export asked for, if it is (the response to return)."""
    table = part.get("table")
    return table_configure(request, table, name) if table is not None else None


def _stage_page(
    request: HttpRequest, access: page_cache.Access, number: int, *, shared: bool
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    adapter = adapter_for(season.ruleset)
    round = get_object_or_404(
        Round.objects.select_related("stage", "grand_prix__track"), season=season, number=number
    )
    round.season = season
    visible = round_results_visible(season, round, request.user)
    # Resolved, but not published yet: the page says so and shows nothing of the results.
    hidden = round.status in DONE_STATUSES and not visible
    # The teams' names, read once for the results and what comes after them.
    team_names = selectors.season_team_names(season=season) if visible else {}
    is_organiser = request.user.has_perm("season.manage_season", season)
    job = None if hidden else round.jobs.first()
    actions = lifecycle.round_actions(round, job=job) if is_organiser else None
    part = adapter.league_round(
        round.event,
        season=season,
        round=round,
        visible=visible,
        team_names=team_names,
        seats=partial(selectors.seats_by_team, season=season),
        # The riders the organiser may keep in the race: outside the time limit, while allowed.
        reinstate=actions is not None and actions.reinstate,
    )
    export = _table_configured(request, part, f"{season.slug}-stage-{number}")
    if export:
        return export
    status = (
        orders_status(round=round)
        if round.status in (Round.Status.OPEN, Round.Status.LOCKED, Round.Status.RESOLVING)
        else []
    )
    context = {
        "season": season,
        "round": round,
        "event": round.event,
        "badge": round_badge(round, job=job),
        "orders_status": status,
        "orders_count": orders_count(status),
        "is_organiser": is_organiser,
        "actions": actions,
        "orders_open": lifecycle.can_give_orders(round),
        "job": job,
        "results_visible": visible,
        "results_hidden": hidden,
        # A cached page holds nothing of its first visitor's (no "Give my orders" either).
        "my_team": None if shared else selectors.team_of_user(season=season, user=request.user),
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if access.state.status_of(number + 1) is not None else None,
        **part,
    }
    return page_cache.Page(adapter.league_templates["round"], context, tz=season.tz)


def stage_dice(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    season, round = _round(request, slug, number)
    log = DiceLog.objects.filter(round=round).first()
    if log is None or not round_results_visible(season, round, request.user):
        raise Http404(_("This stage has not been resolved."))
    adapter = adapter_for(season.ruleset)
    part = adapter.league_dice(
        log.rolls,
        season=season,
        seats=[seat for team in selectors.seats_by_team(season=season).values() for seat in team],
        rule_link=lambda code: rule_link_html(code, season.ruleset),
    )
    export = _table_configured(request, part, f"{season.slug}-stage-{number}-dice")
    if export:
        return export
    return render(
        request,
        adapter.league_templates["dice"],
        {"season": season, "round": round, "log": log, **part},
    )


def rider_detail(request: HttpRequest, slug: str, rider_id: int) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    member = selectors.season_rider_get(season=season, rider_id=rider_id)
    rider = member.rider
    # Only the rounds whose results this visitor may see (permissions.round_results_visible).
    view = results_view(season, request.user)
    visible = {
        number
        for number, status in season.rounds.values_list("number", "status")
        if status_visible(status, auto_publish=season.auto_publish, view=view)
    }
    results = [
        r
        for r in selectors.rider_results(season=season, rider=rider)
        if r.stage.round.number in visible
    ]
    crashes = [(r.stage.round.number, crash) for r in results for crash in r.crashes]
    # His place in the GC after each stage he raced (issue 17, "Results a fan reads").
    gc_places = dict(
        Standing.objects.filter(
            stage__round__season=season,
            classification=Classification.GENERAL,
            rider=rider,
            stage__round__number__in=visible,
        ).values_list("stage__round__number", "rank")
    )
    table = RiderResultTable(results, season=season, gc_places=gc_places)
    export = table_configure(request, table, f"{season.slug}-{rider.pk}")
    if export:
        return export
    return render(
        request,
        "season/public/rider.html",
        {
            "season": season,
            "member": member,
            "rider": rider,
            "radar": radar_svg(
                # As the season rates him (its snapshot since its formation started).
                rated_game(season).pick_values(rider),
                title=rider.name,
                labels=radar_labels(),
                texts=radar_texts(),
            ),
            "table": table,
            "crashes": crashes,
        },
    )


def team_detail(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    team = selectors.season_team_get(season=season, team_id=team_id)
    adapter = adapter_for(season.ruleset)
    # The latest standings this visitor may see (permissions.visible_upto).
    upto = visible_upto(
        list(season.rounds.order_by("number").values_list("number", "status")),
        auto_publish=season.auto_publish,
        view=results_view(season, request.user),
    )
    latest = (
        season.rounds.select_related("stage", "grand_prix").filter(number=upto).first()
        if upto
        else None
    )
    # The places in the race of the latest round this visitor may see (its number within it).
    item, upto_within = season.event_of_round(upto) if upto else (None, 0)
    part = adapter.league_team(
        item.event if item is not None else season.event,
        season=season,
        team=team,
        seats=selectors.team_seats(team=team),
        upto=upto_within if item is not None else 0,
        upto_event=latest.event if latest is not None else None,
    )
    export = _table_configured(request, part, f"{season.slug}-team-{team.pk}")
    if export:
        return export
    return render(
        request,
        adapter.league_templates["team"],
        {
            "season": season,
            "team": team,
            "upto": upto,
            "can_manage": request.user.has_perm("season.manage_team", team),
            **part,
        },
    )


#: The leagues a missing page offers its reader (his latest).
NOT_FOUND_SEASONS = 5


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 404 (config.urls handler404): the way home, and a logged-in reader's latest
    leagues, one query."""
    seasons = (
        list(
            Season.objects.filter(memberships__user=request.user)
            .order_by("-created_at")
            .distinct()[:NOT_FOUND_SEASONS]
        )
        if request.user.is_authenticated
        else []
    )
    # As Django's own handler: the exception's message when it is a sentence (Http404("...")),
    # else its class's name, which the template does not show.
    message = type(exception).__name__ if exception is not None else ""
    if exception is not None and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return render(
        request,
        "404.html",
        {"exception": message, "my_seasons": seasons},
        status=404,
    )
