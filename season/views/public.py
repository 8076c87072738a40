"""Pages everyone can read (unless the organiser made the season private)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from races import charts
from races.models import Classification, DiceLog
from riders.models import RATING_AXES
from season import selectors
from season.models import Round
from season.tables import (
    CalendarTable,
    DiceTable,
    RiderResultTable,
    RosterTable,
    StageResultTable,
    StandingTable,
    table_configure,
)


def _profile_texts() -> dict[str, str]:
    """The stage profile's words in the active language (races.charts.PROFILE_TEXTS)."""
    return {
        "no_course": _("No course"),
        "description": _("Stage profile, {summary}"),
        "description_titled": _("Stage profile: {title}, {summary}"),
        "climbs_one": _("{count} categorised climb: {climbs}"),
        "climbs_other": _("{count} categorised climbs: {climbs}"),
        "no_climbs": _("no categorised climb"),
        "climb_at": _("{climb} at km {km}"),
        "legend_plain": _("Plain"),
        "legend_hill": _("Hill (cat. 4)"),
        "legend_col3": _("Cat. 3"),
        "legend_col2": _("Cat. 2"),
        "legend_col1": _("Cat. 1"),
        "legend_colhc": _("HC"),
        "legend_descent": _("Descent"),
        "category_hill": _("cat. 4"),
        "category_col3": _("cat. 3"),
        "category_col2": _("cat. 2"),
        "category_col1": _("cat. 1"),
        "category_colhc": _("HC"),
    }


def _gc_texts() -> dict[str, str]:
    """The GC chart's words in the active language (races.charts.GC_TEXTS)."""
    return {
        "no_standings": _("No standings yet"),
        "stage_axis": _("Stage"),
        "gap_axis": _("Gap to leader"),
        "description": _("GC gaps, stages {first} to {last}: {riders}"),
        "description_titled": _("GC gaps: {title}, stages {first} to {last}: {riders}"),
        "rider_gap": _("{name} {gap} after stage {stage}"),
        "point": _("{name}, stage {stage}: {gap}"),
        "more": _("+ {count} more"),
    }


def _radar_texts() -> dict[str, str]:
    """The radar's other words in the active language (races.charts.RADAR_TEXTS)."""
    return {
        "description": _("Rider profile: {summary}"),
        "description_titled": _("Rider profile: {title}: {summary}"),
    }


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
        chart = charts.gc_gaps_svg(
            series,
            stage_numbers=numbers,
            title=_("GC gaps of the top 10 after each stage"),
            texts=_gc_texts(),
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
    resolved = round.status in selectors.DONE_STATUSES
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
    return render(
        request,
        "season/public/stage.html",
        {
            "season": season,
            "round": round,
            "stage": stage,
            "profile": charts.stage_profile_svg(
                stage.segments, title=f"{stage.start} – {stage.finish}", texts=_profile_texts()
            ),
            "table": table,
            "events": [(event, [names.get(i, i) for i in event.rider_ids[:5]]) for event in events],
            "is_organiser": request.user.has_perm("season.manage_season", season),
            "job": round.jobs.first(),
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
    labels = {
        "rouleur": _("Rouleur"),
        "sprinter": _("Sprinter"),
        "baroudeur": _("Baroudeur"),
        "finisseur": _("Finisseur"),
        "descender": _("Descender"),
        "time_trialist": _("Time trial"),
        "puncheur": _("Puncheur"),
        "climber": _("Climber"),
    }
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
            "radar": charts.radar_svg(
                {axis: getattr(rider, axis) for axis in RATING_AXES},
                title=rider.name,
                labels=labels,
                texts=_radar_texts(),
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
