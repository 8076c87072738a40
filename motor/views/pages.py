"""The motor pages of one championship, reusable: each takes the request, the championship and a
``links`` object (``motor.views.links``) and answers the page or its CSV export. The motor
app's URLs serve them for real championships; a league season calls them with its own links
and ``extra`` context (its name in the crumbs, say) after its own access checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest
from django.shortcuts import render
from django.utils.translation import gettext as _

from motor.charts.lap_chart import LapLine, lap_chart_svg, laps_from_trace
from motor.charts.points_chart import points_chart_svg
from motor.charts.track_map import CarDot, Incident, replay_svg, team_colours, track_map_for
from motor.models import Championship, Constructor, Driver, GrandPrixEvent, Result
from motor.place_names import content_in_words, corner_name
from motor.tables import (
    CalendarTable,
    ConstructorResultTable,
    DriverResultTable,
    GridTable,
    PitStopTable,
    ResultTable,
    RetirementTable,
    StandingTable,
    WhatIfTable,
    table_configure,
)
from motor.views import data
from motor.views.texts import lap_texts, map_texts, points_texts
from motor.words import engine_label, event_text


def _nav(links) -> dict[str, Any]:
    """The links every page shows (a template cannot call ``links`` with arguments)."""
    home_url, home_label = links.home()
    return {
        "home_url": home_url,
        "home_label": home_label,
        "calendar": links.calendar(),
        "drivers": links.standings("drivers"),
        "constructors": links.standings("constructors"),
        "what_if_drivers": links.what_if("drivers"),
        "what_if_constructors": links.what_if("constructors"),
    }


#: Makes the page from its template and context instead of rendering it here: a league season
#: passes one that returns its cacheable page (``season.cache.Page``).
Renderer = Callable[[str, dict[str, Any]], Any]


def _render(
    request,
    template: str,
    context: dict[str, Any],
    extra: dict[str, Any] | None,
    renderer: Renderer | None = None,
):
    context = {**context, "nav": _nav(context["links"]), **(extra or {})}
    if renderer is not None:
        return renderer(template, context)
    return render(request, template, context)


def calendar_page(
    request: HttpRequest,
    *,
    championship: Championship,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    table = CalendarTable(data.calendar_rows(championship), links=links)
    export = table_configure(request, table, f"{championship.slug}-calendar")
    if export:
        return export
    rounds = data.standings_rounds(championship)
    leaders = data.standing_rows(championship, "drivers", rounds[-1])[:3] if rounds else []
    for row in leaders:
        row["url"] = links.driver(row["slug"])
    return _render(
        request,
        "motor/calendar.html",
        {
            "championship": championship,
            "table": table,
            "links": links,
            "leaders": leaders,
            "last": rounds[-1] if rounds else None,
        },
        extra,
        renderer,
    )


def _incident_text(event: GrandPrixEvent, label: str) -> str:
    details = event.data if isinstance(event.data, dict) else {}
    text = f"{label}: {event_text(event.kind, details)}"
    if isinstance(details.get("lap"), int):
        text += " · " + _("lap %(lap)s") % {"lap": details["lap"]}
    return text


def _traced(trace: list) -> set[str]:
    """The ids of the cars in a position trace (the league's cars; a real round has none)."""
    return {str(car) for row in trace if isinstance(row, dict) for car in row.get("cars") or {}}


def _lap_chart(grand_prix, results: list[Result], ids: dict[int, str]) -> str:
    trace = grand_prix.trace if isinstance(grand_prix.trace, list) else None
    title = _("Lap chart")
    texts = lap_texts()
    if trace:
        traced = _traced(trace)
        grid = {ids[r.pk]: r.grid for r in results if r.grid and ids[r.pk] in traced}
        positions = laps_from_trace(trace, grid=grid, laps=grand_prix.laps)
        by_id = {ids[r.pk]: r for r in results}
        cars = []
        for r in results:
            car = ids[r.pk]
            if car not in positions:
                continue
            cars.append(
                LapLine(
                    label=car,
                    name=f"{car} {r.entry.driver.name}",
                    positions=tuple(positions[car]),
                    out=r.position is None or r.status == "DNF",
                )
            )
        del by_id
        columns = [texts["grid"], *[str(k) for k in range(1, grand_prix.laps + 1)]]
        return lap_chart_svg(cars, columns=columns, title=title, texts=texts)
    # No lap data (real imported results): from the grid to the finish.
    started = [r for r in results if r.grid]
    cars = []
    for place, r in enumerate(started, start=1):
        label = r.entry.driver.abbreviation or (str(r.number) if r.number else "")
        cars.append(
            LapLine(
                label=label or r.entry.driver.name[:3],
                name=r.entry.driver.name,
                positions=(r.grid, place),
                out=r.position is None,
            )
        )
    title = _("From the grid to the finish")
    return lap_chart_svg(
        cars, columns=[texts["grid"], texts["finish"]], title=title, texts=texts, width=480
    )


def round_page(
    request: HttpRequest,
    *,
    championship: Championship,
    number: int,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    grand_prix = data.grand_prix_get(championship, number)
    results = data.round_results(grand_prix)
    events = data.round_events(grand_prix)
    pit_laps = data.pit_stop_laps(events)
    tables = {
        "results": ResultTable(
            data.result_rows(results, pit_laps=pit_laps), links=links, prefix="results-"
        ),
        "grid": GridTable(
            data.grid_rows(results, data.qualifying_notes(events)), links=links, prefix="grid-"
        ),
        "retirements": RetirementTable(
            data.retirement_rows(results), links=links, prefix="retirements-"
        ),
        "pit_stops": PitStopTable(
            data.pit_stop_rows(results, pit_laps), links=links, prefix="pit-"
        ),
    }
    for name, table in tables.items():
        export = table_configure(request, table, f"{championship.slug}-{number}-{name}")
        if export:
            return export
    ids = {r.pk: data.car_id(r) for r in results}
    by_entry = {r.entry_id: r for r in results}
    track = grand_prix.track
    drawn = track_map_for(content_in_words(track.content) if track else None, texts=map_texts())
    replay = None
    trace = grand_prix.trace if isinstance(grand_prix.trace, list) else None
    incidents = []
    for event in events:
        if event.phase != "race" or event.kind not in data.INCIDENT_KINDS:
            continue
        result = by_entry.get(event.entry_id) if event.entry_id else None
        if result is None:
            continue
        label = f"{ids[result.pk]} {result.entry.driver.name}"
        incidents.append(Incident(event.round, ids[result.pk], _incident_text(event, label)))
    # The map is drawn once: with the replay's cars when the race has a trace, bare otherwise.
    track_map = drawn.svg() if drawn is not None and not trace else ""
    if drawn is not None and trace:
        traced = _traced(trace)
        raced = [r for r in results if ids[r.pk] in traced]
        # Each constructor its colour, in the order of their names: the same on every round.
        constructors = sorted({r.entry.constructor for r in raced}, key=lambda c: (c.name, c.pk))
        colours = team_colours(constructors)
        cars = [
            CarDot(
                ids[r.pk],
                ids[r.pk],
                f"{ids[r.pk]} {r.entry.driver.name} ({r.entry.constructor.name})",
                colours[r.entry.constructor],
            )
            for r in raced
        ]
        track_map, frames = replay_svg(drawn, trace, cars=cars, incidents=incidents)
        replay = {
            "frames": frames,
            "incidents": [{"round": i.round, "car": i.car, "text": i.text} for i in incidents],
            "last": len(frames) - 1,
            "teams": [{"name": c.name, "colour": colours[c]} for c in constructors],
        }
    numbers = data.round_numbers(championship)
    index = numbers.index(number)
    corners = []
    if track and track.game == "grandprix":
        corners = [
            {
                "id": c.get("id"),
                "name": corner_name(c.get("name") or ""),
                "max_gear": c.get("max_gear"),
            }
            for c in track.content.get("corners") or []
        ]
    return _render(
        request,
        "motor/round.html",
        {
            "championship": championship,
            "grand_prix": grand_prix,
            "links": links,
            "tables": tables,
            "track": track,
            "track_map": track_map,
            "corners": corners,
            "replay": replay,
            "incidents": incidents,
            "lap_chart": _lap_chart(grand_prix, results, ids) if results else "",
            "has_results": bool(results),
            "previous_url": links.round(numbers[index - 1]) if index > 0 else None,
            "next_url": links.round(numbers[index + 1]) if index + 1 < len(numbers) else None,
            "standings_after": links.standings("drivers", after=number),
        },
        extra,
        renderer,
    )


def _table_name(table: str) -> str:
    if table not in data.TABLES:
        raise Http404(_("No such table."))
    return table


def standings_page(
    request: HttpRequest,
    *,
    championship: Championship,
    table: str,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    table = _table_name(table)
    rounds = data.standings_rounds(championship)
    last = rounds[-1] if rounds else 0
    try:
        after = int(request.GET.get("after", last))
    except ValueError:
        raise Http404(_("No such round.")) from None
    if rounds and after not in rounds:
        raise Http404(_("No standings after that round."))
    rows = data.standing_rows(championship, table, after) if rounds else []
    standings = StandingTable(rows, table=table, links=links)
    export = table_configure(request, standings, f"{championship.slug}-{table}-after-{after}")
    if export:
        return export
    shown = [n for n in rounds if n <= after]
    chart = ""
    if rows:
        chart = points_chart_svg(
            data.points_series(championship, table, rows, shown),
            rounds=shown,
            title=_("Points after each round: the top 10"),
            texts=points_texts(),
        )
    return _render(
        request,
        "motor/standings.html",
        {
            "championship": championship,
            "links": links,
            "table_kind": table,
            "table": standings,
            "rounds": rounds,
            "after": after,
            "chart": chart,
        },
        extra,
        renderer,
    )


def what_if_page(
    request: HttpRequest,
    *,
    championship: Championship,
    table: str,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    table = _table_name(table)
    systems, rows = data.what_if(championship, table)
    what_if = WhatIfTable(rows, systems=systems, table=table, links=links)
    export = table_configure(request, what_if, f"{championship.slug}-{table}-what-if")
    if export:
        return export
    names = {s.slug: s for s in type(championship.points_system).objects.all()}
    return _render(
        request,
        "motor/what_if.html",
        {
            "championship": championship,
            "links": links,
            "table_kind": table,
            "table": what_if,
            "systems": [(label, _(names[slug].name)) for slug, label in systems if slug in names],
        },
        extra,
        renderer,
    )


def driver_page(
    request: HttpRequest,
    *,
    championship: Championship,
    slug: str,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    driver = Driver.objects.filter(slug=slug, entries__championship=championship).first()
    if driver is None:
        raise Http404(_("No such driver in this championship."))
    rows = data.driver_page_rows(championship, driver)
    table = DriverResultTable(rows, links=links)
    export = table_configure(request, table, f"{championship.slug}-{driver.slug}")
    if export:
        return export
    rounds = [row["round"] for row in rows if row["total"] is not None]
    chart = ""
    if rounds:
        chart = points_chart_svg(
            [(driver.name, [float(row["total"]) for row in rows if row["total"] is not None])],
            rounds=rounds,
            title=_("Points after each round"),
            texts=points_texts(),
            height=260,
        )
    last = next((row for row in reversed(rows) if row["standing"] is not None), None)
    return _render(
        request,
        "motor/driver.html",
        {
            "championship": championship,
            "links": links,
            "driver": driver,
            "table": table,
            "chart": chart,
            "last": last,
            "wins": sum(1 for row in rows if row["result"] == "1"),
        },
        extra,
        renderer,
    )


def constructor_page(
    request: HttpRequest,
    *,
    championship: Championship,
    slug: str,
    links,
    extra: dict | None = None,
    renderer: Renderer | None = None,
) -> Any:
    constructor = Constructor.objects.filter(slug=slug, entries__championship=championship).first()
    if constructor is None:
        raise Http404(_("No such constructor in this championship."))
    rows, engines = data.constructor_page_rows(championship, constructor)
    table = ConstructorResultTable(rows, links=links)
    export = table_configure(request, table, f"{championship.slug}-{constructor.slug}")
    if export:
        return export
    return _render(
        request,
        "motor/constructor.html",
        {
            "championship": championship,
            "links": links,
            "constructor": constructor,
            "engines": [engine_label(e) for e in engines if e],
            "table": table,
            "last": rows[-1] if rows else None,
        },
        extra,
        renderer,
    )
