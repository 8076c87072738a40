"""Pages everyone can read (unless the organiser made the season private)."""

from functools import partial

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from races.charts.gc import gc_gaps_svg, gc_texts
from races.charts.profile import profile_texts, stage_profile_svg
from races.models import Classification, StageResult, Standing
from riders.charts import radar_labels, radar_svg, radar_texts
from riders.models import RATING_AXES
from season import cache as page_cache
from season import results, selectors
from season.formatting import clock, gap
from season.models import DONE_STATUSES, DiceLog, Round, Season, SeasonTeam
from season.permissions import results_view, round_results_visible, status_visible, visible_upto
from season.services import lifecycle
from season.services.orders_status import orders_count, orders_status
from season.tables import (
    CalendarTable,
    DiceTable,
    RiderResultTable,
    RosterTable,
    StageResultTable,
    StandingTable,
    table_configure,
)
from season.views import community, motor
from season.views.badges import round_badge


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "season/home.html", {"seasons": selectors.season_list_public()})


def _season(access: page_cache.Access) -> Season:
    """The season row of a page built on a cache miss (access was checked by season_access)."""
    return Season.objects.select_related(
        "race", "organiser", "championship__copied_from", "championship__points_system"
    ).get(pk=access.state.pk)


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
            )
        return built

    def season_page(season: Season) -> page_cache.Page | HttpResponse:
        if season.race_id is None:
            page = motor.season_page(request, season, last=last)
            page.context["comments"] = mark_safe(page_cache.live_mark("comments"))
            return page
        calendar = CalendarTable(selectors.season_calendar(season=season), season=season)
        # Read once for the jerseys and the end of the race.
        team_names = selectors.season_team_names(season=season) if last else {}
        export = table_configure(request, calendar, f"{season.slug}-calendar")
        if export:
            return export
        return page_cache.Page(
            "season/season_detail.html",
            {
                "season": season,
                "calendar": calendar,
                "last": last,
                "jerseys": selectors.jersey_holders(
                    season=season, number=last, team_names=team_names
                )
                if last
                else [],
                "team_names": team_names,
                "teams": season.teams.select_related("owner").order_by("name"),
                "member_links": mark_safe(page_cache.live_mark("member_links")),
                # The season's comments (season/views/community.py), rendered per request.
                "comments": mark_safe(page_cache.live_mark("comments")),
            },
        )

    def member_links() -> dict[str, str]:
        comments = community.comments_html(request, access, None)
        # The visitor's own links: nothing to render (and no query) for an anonymous visitor.
        if not request.user.is_authenticated:
            return {"member_links": "", "comments": comments}
        my_team = SeasonTeam.objects.filter(season_id=access.state.pk, owner=request.user).first()
        html = render_to_string(
            "season/_member_links.html",
            {"season": access.state, "is_organiser": access.is_organiser, "my_team": my_team},
        )
        return {"member_links": html, "comments": comments}

    return page_cache.cached_page(request, access, "season", build, live=member_links)


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
    if season.race_id is None:
        return redirect("season-motor-standings", slug=season.slug, table="drivers")
    team_names = selectors.season_team_names(season=season)
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
            "numbers": range(1, last + 1),
            "jerseys": selectors.jersey_holders(season=season, number=number, team_names=team_names)
            if number
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


def _stage_page(
    request: HttpRequest, access: page_cache.Access, number: int, *, shared: bool
) -> page_cache.Page | HttpResponse:
    season = _season(access)
    if season.race_id is None:
        return motor.round_page(request, access, season, number, shared=shared)
    round = get_object_or_404(Round.objects.select_related("stage"), season=season, number=number)
    round.season = season
    stage = round.stage
    resolved = round_results_visible(season, round, request.user)
    # Resolved, but not published yet: the page says so and shows nothing of the results.
    hidden = round.status in DONE_STATUSES and not resolved
    table = None
    # The teams' names, read once for the results and the GC top 10 after the stage.
    team_names = selectors.season_team_names(season=season) if resolved else {}
    if resolved:
        # One read of the 176 rows: the gaps of every rank ("s.t.") and the table's pages
        # (a list: no COUNT query for the paginator).
        results = list(selectors.stage_results(round=round))
        gaps_by_rank = {
            result.rank: result.gap_seconds
            for result in results
            if result.rank is not None and result.gap_seconds is not None
        }
        table = StageResultTable(
            results,
            season=season,
            team_names=team_names,
            gaps_by_rank=gaps_by_rank,
        )
        export = table_configure(request, table, f"{season.slug}-stage-{number}")
        if export:
            return export
    events = selectors.stage_events(round=round) if resolved else []
    names = selectors.rider_names(season=season) if events else {}
    is_organiser = request.user.has_perm("season.manage_season", season)
    job = None if hidden else round.jobs.first()
    actions = lifecycle.round_actions(round, job=job) if is_organiser else None
    # The riders the organiser may keep in the race: outside the time limit, while allowed.
    reinstatable = (
        list(
            selectors.stage_results(round=round).filter(
                status=StageResult.Status.OUTSIDE_TIME_LIMIT
            )
        )
        if actions is not None and actions.reinstate
        else []
    )
    status = (
        orders_status(round=round)
        if round.status in (Round.Status.OPEN, Round.Status.LOCKED, Round.Status.RESOLVING)
        else []
    )
    context = {
        "season": season,
        "round": round,
        "badge": round_badge(round, job=job),
        "orders_status": status,
        "orders_count": orders_count(status),
        "stage": stage,
        "profile": stage_profile_svg(
            stage.segments, title=f"{stage.start} – {stage.finish}", texts=profile_texts()
        ),
        "table": table,
        "events": [(event, [names.get(i, i) for i in event.rider_ids[:5]]) for event in events],
        "is_organiser": is_organiser,
        "actions": actions,
        "reinstatable": reinstatable,
        "orders_open": lifecycle.can_give_orders(round),
        "job": job,
        "results_hidden": hidden,
        # What a fan reads after the results: the GC's top 10 and the jerseys after the stage.
        **(_after_the_stage(season, number, team_names) if resolved else {}),
        # A cached page holds nothing of its first visitor's (no "Give my orders" either).
        "my_team": None if shared else selectors.team_of_user(season=season, user=request.user),
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if access.state.status_of(number + 1) is not None else None,
    }
    return page_cache.Page("season/public/stage.html", context, tz=season.tz)


def _after_the_stage(season: Season, number: int, team_names: dict[int, str]) -> dict:
    lines = selectors.standings_table(
        season=season, number=number, classification=Classification.GENERAL, limit=10
    )
    return {
        "gc_top": [
            {
                "rank": line.rank,
                "rider": line.rider,
                "team": team_names.get(line.entry_team_id or 0, ""),
                "team_id": line.entry_team_id if line.entry_team_id in team_names else None,
                "time": clock(line.value) if line.rank == 1 else gap(line.gap),
            }
            for line in lines
        ],
        "jerseys": selectors.jersey_holders(season=season, number=number, team_names=team_names),
    }


def stage_dice(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    season, round = _round(request, slug, number)
    log = DiceLog.objects.filter(round=round).first()
    if log is None or not round_results_visible(season, round, request.user):
        raise Http404(_("This stage has not been resolved."))
    if season.race_id is None:
        return motor.dice(request, season, round)
    names = selectors.rider_names(season=season)
    rows = [
        {
            "turn": t,
            "unit": u,
            "rider": names.get(r, "") if r else "",
            "rule": rule,
            "die": d,
            "face": f,
        }
        for t, u, r, rule, d, f in log.rolls
    ]
    table = DiceTable(rows, ruleset=season.ruleset)
    export = table_configure(request, table, f"{season.slug}-stage-{number}-dice")
    if export:
        return export
    return render(
        request,
        "season/public/dice.html",
        {"season": season, "round": round, "log": log, "table": table},
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
        r for r in selectors.rider_results(season=season, rider=rider) if r.stage.number in visible
    ]
    crashes = [(r.stage.number, crash) for r in results for crash in r.crashes]
    # His place in the GC after each stage he raced (issue 17, "Results a fan reads").
    gc_places = dict(
        Standing.objects.filter(
            stage__race_id=season.race_pk,
            classification=Classification.GENERAL,
            rider=rider,
            stage__number__in=visible,
        ).values_list("stage__number", "rank")
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
                {axis: getattr(rider, axis) for axis in RATING_AXES},
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
    if season.race_id is None:
        return motor.team_detail(request, season, team)
    # The latest GC this visitor may see (permissions.visible_upto).
    upto = visible_upto(
        list(season.rounds.order_by("number").values_list("number", "status")),
        auto_publish=season.auto_publish,
        view=results_view(season, request.user),
    )
    general = {
        s.rider_id: s
        for s in selectors.standings_queryset(
            season=season, number=upto, classification=Classification.GENERAL
        )
        if upto and s.rider_id is not None
    }
    rows = []
    for member in team.seats.all():
        standing = general.get(member.rider_pk)
        rows.append(
            {
                "bib": member.number,
                "rider_id": member.rider_id,
                "rider": member.rider,
                "role": member.get_role_display(),
                "gc_rank": standing.rank if standing else None,
                "gc_gap": standing.gap if standing else None,
            }
        )
    table = RosterTable(rows, season=season)
    export = table_configure(request, table, f"{season.slug}-team-{team.pk}")
    if export:
        return export
    return render(
        request,
        "season/public/team.html",
        {
            "season": season,
            "team": team,
            "table": table,
            "can_manage": request.user.has_perm("season.manage_team", team),
        },
    )
