from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from races.models import Classification
from season import selectors
from season.tables import StandingTable


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "season/home.html", {"seasons": selectors.season_list_public()})


def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    return render(
        request,
        "season/season_detail.html",
        {"season": season, "calendar": selectors.season_calendar(season=season)},
    )


def standings(request: HttpRequest, slug: str, classification: str) -> HttpResponse:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    if classification not in Classification.values:
        raise Http404("No such classification.")
    last = selectors.last_resolved_number(season=season)
    try:
        number = int(request.GET.get("after", last or 0))
    except ValueError:
        raise Http404("No such stage.") from None
    table = StandingTable(
        selectors.standings_queryset(season=season, number=number, classification=classification),
        classification=classification,
        team_names=selectors.season_team_names(season=season),
    )
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    export_format = request.GET.get("_export")
    if TableExport.is_valid_format(export_format):
        exporter = TableExport(export_format, table)
        return exporter.response(f"{season.slug}-{classification}-after-{number}.{export_format}")
    return render(
        request,
        "season/standings.html",
        {
            "season": season,
            "table": table,
            "classification": classification,
            "classifications": Classification.choices,
            "number": number,
            "numbers": range(1, (last or 0) + 1),
        },
    )
