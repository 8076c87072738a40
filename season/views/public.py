"""Pages everyone can read (unless the organiser made the season private)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from races.charts.gc import gc_gaps_svg, gc_texts
from races.charts.profile import profile_texts, stage_profile_svg
from races.models import Classification, DiceLog, StageResult
from riders.charts import radar_labels, radar_svg, radar_texts
from riders.models import RATING_AXES
from season import selectors
from season.models import DONE_STATUSES, Round
from season.services import lifecycle
from season.tables import (
    CalendarTable,
    DiceTable,
    RiderResultTable,
    RosterTable,
    StageResultTable,
    StandingTable,
    table_configure,
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "season/home.html", {"seasons": selectors.season_list_public()})


def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    last = selectors.last_resolved_number(season=season)
    calendar = CalendarTable(selectors.season_calendar(season=season), season=season)
    export = table_configure(request, calendar, f"{season.slug}-calendar")
    if export:
        return export
    return render(
        request,
        "season/season_detail.html",
        {
            "season": season,
            "calendar": calendar,
            "last": last,
            "jerseys": selectors.jersey_holders(season=season, number=last) if last else [],
            "is_organiser": request.user.has_perm("season.manage_season", season),
            "teams": season.teams.select_related("owner").order_by("name"),
            "my_team": selectors.team_of_user(season=season, user=request.user),
        },
    )


def standings(request: HttpRequest, slug: str, classification: str) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    if classification not in Classification.values:
        raise Http404(_("No such classification."))
    last = selectors.last_resolved_number(season=season) or 0
    try:
        number = int(request.GET.get("after", last))
    except ValueError:
        raise Http404(_("No such stage.")) from None
    if not 0 <= number <= last:
        raise Http404(_("That stage is not resolved yet."))
    team_names = selectors.season_team_names(season=season)
    table = StandingTable(
        selectors.standings_queryset(season=season, number=number, classification=classification),
        classification=classification,
        season=season,
        team_names=team_names,
    )
    export = table_configure(request, table, f"{season.slug}-{classification}-after-{number}")
    if export:
        return export
    chart = ""
    if classification == Classification.GENERAL and number:
        series, numbers = selectors.gc_evolution(season=season, number=number)
        chart = gc_gaps_svg(
            series,
            stage_numbers=numbers,
            title=_("GC gaps of the top 10 after each stage"),
            texts=gc_texts(),
        )
    return render(
        request,
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
    season, round = _round(request, slug, number)
    stage = round.stage
    resolved = round.status in DONE_STATUSES
    table = None
    if resolved:
        results = selectors.stage_results(round=round)
        gaps_by_rank = {
            rank: gap
            for rank, gap in results.values_list("rank", "gap_seconds")
            if rank is not None and gap is not None
        }
        table = StageResultTable(
            results,
            season=season,
            team_names=selectors.season_team_names(season=season),
            gaps_by_rank=gaps_by_rank,
        )
        export = table_configure(request, table, f"{season.slug}-stage-{number}")
        if export:
            return export
    events = selectors.stage_events(round=round) if resolved else []
    names = selectors.rider_names(season=season) if events else {}
    is_organiser = request.user.has_perm("season.manage_season", season)
    job = round.jobs.first()
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
    return render(
        request,
        "season/public/stage.html",
        {
            "season": season,
            "round": round,
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
            "my_team": selectors.team_of_user(season=season, user=request.user),
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if season.rounds.filter(number=number + 1).exists() else None,
        },
    )


def stage_dice(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    season, round = _round(request, slug, number)
    log = DiceLog.objects.filter(stage_id=round.stage_id).first()
    if log is None:
        raise Http404(_("This stage has not been resolved."))
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
    table = DiceTable(rows)
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
    results = selectors.rider_results(season=season, rider=rider)
    crashes = [(r.stage.number, crash) for r in results for crash in r.crashes]
    table = RiderResultTable(results, season=season)
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
    general = selectors.latest_general(season=season)
    rows = []
    for member in team.members.all():
        standing = general.get(member.rider_id)
        rows.append(
            {
                "bib": member.bib,
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
