"""What the motor pages read: a few queries a page whatever the number of rounds, rows as
plain dicts for the tables and the charts (the selectors of the pages)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from motor.championship import constructors_table, drivers_table
from motor.models import (
    Championship,
    Constructor,
    Driver,
    GrandPrix,
    GrandPrixEvent,
    PointsSystem,
    Result,
    ResultStatus,
    Standing,
    StandingTable,
)
from motor.standings import race_lines
from motor.tables import points_text, race_time
from motor.words import engine_label, reason_label

TABLES = (StandingTable.DRIVERS.value, StandingTable.CONSTRUCTORS.value)
INCIDENT_KINDS = ("track_exit", "incident", "oil_received", "skid", "retired")


def championship_get(slug: str) -> Championship:
    """A championship by slug (404 if unknown), with its points system."""
    try:
        return Championship.objects.select_related("points_system").get(slug=slug)
    except Championship.DoesNotExist:
        raise Http404(_("No such championship.")) from None


def team_name(name: str, engine: str, engines: int) -> str:
    """A constructor's line: ``Lotus (Ford)`` when it raced with several engines."""
    return f"{name} ({engine_label(engine)})" if engines > 1 and engine else name


def _engines_by_constructor(championship: Championship) -> dict[int, int]:
    counts: dict[int, set[str]] = defaultdict(set)
    for constructor_id, engine in championship.entries.values_list("constructor_id", "engine"):
        counts[constructor_id].add(engine)
    return {key: len(value) for key, value in counts.items()}


def round_numbers(championship: Championship) -> list[int]:
    return list(championship.grands_prix.order_by("round").values_list("round", flat=True))


def calendar_rows(championship: Championship) -> list[dict[str, Any]]:
    """The rounds with their winner (two queries)."""
    winners = {
        r.grand_prix_id: r
        for r in Result.objects.filter(grand_prix__championship=championship, position=1)
        .select_related("entry__driver", "entry__constructor")
        .only(
            "grand_prix_id",
            "entry__driver__slug",
            "entry__driver__name",
            "entry__constructor__slug",
            "entry__constructor__name",
        )
    }
    rows = []
    for gp in championship.grands_prix.order_by("round").only(
        "id", "championship", "round", "name", "date", "circuit", "laps"
    ):
        winner = winners.get(gp.pk)
        rows.append(
            {
                "round": gp.round,
                "date": gp.date,
                "grand_prix": gp.name,
                "circuit": gp.circuit,
                "laps": gp.laps,
                "winner": winner.entry.driver.name if winner else None,
                "winner_slug": winner.entry.driver.slug if winner else "",
                "winner_constructor": winner.entry.constructor.name if winner else None,
                "winner_constructor_slug": winner.entry.constructor.slug if winner else "",
            }
        )
    return rows


def grand_prix_get(championship: Championship, number: int) -> GrandPrix:
    try:
        return GrandPrix.objects.select_related("track").get(
            championship=championship, round=number
        )
    except GrandPrix.DoesNotExist:
        raise Http404(_("No such round.")) from None


def round_results(grand_prix: GrandPrix) -> list[Result]:
    """Every car of the round in classification order: the classified by place, then the
    others by laps covered (most first), then grid."""
    results = list(
        grand_prix.results.select_related("entry__driver", "entry__constructor").order_by(
            "position", "-laps", "grid", "number"
        )
    )
    return sorted(
        results,
        key=lambda r: (r.position is None, r.position or 0, -(r.laps or -1), r.grid or 999),
    )


def round_events(grand_prix: GrandPrix) -> list[GrandPrixEvent]:
    return list(grand_prix.events.select_related("entry").order_by("seq"))


def car_id(result: Result) -> str:
    """The id of a car in a stored trace: its number (the league adapter's car ids)."""
    number = result.number if result.number is not None else result.entry.number
    return str(number) if number is not None else str(result.entry_id)


def status_text(result: Result) -> str:
    """What happened to a car: '' for a finisher, else the status with reason and lap."""
    if result.status == ResultStatus.FINISHED and not result.reason:
        return ""
    label = str(result.get_status_display())
    if result.status == ResultStatus.DNF or result.reason:
        lap = retirement_lap(result)
        bits = [
            b
            for b in (reason_label(result.reason), _("lap %(lap)s") % {"lap": lap} if lap else "")
            if b
        ]
        return f"{label} ({', '.join(bits)})" if bits else label
    return label


def retirement_lap(result: Result) -> int | None:
    """The lap a retired car stopped on: stored, or the one after its last completed lap."""
    if result.retired_lap:
        return result.retired_lap
    if result.laps is not None:
        return result.laps + 1
    return None


def result_rows(results: Iterable[Result], *, pit_laps: dict[int, list[int]]) -> list[dict]:
    rows = []
    winner_time = None
    for r in results:
        if r.position == 1:
            winner_time = r.time_ms
    for r in results:
        driver, constructor = r.entry.driver, r.entry.constructor
        if r.position == 1:
            shown = race_time(r.time_ms)
        elif r.gap:
            shown = r.gap
        elif r.time_ms and winner_time:
            shown = "+" + race_time(r.time_ms - winner_time)
        else:
            shown = ""
        stops = r.pit_stops if r.pit_stops is not None else len(pit_laps.get(r.entry_id, []))
        rows.append(
            {
                "position": r.position,
                "number": r.number,
                "driver": driver.name,
                "driver_slug": driver.slug,
                "constructor": constructor.name,
                "constructor_slug": constructor.slug,
                "laps": r.laps,
                "time": shown,
                "status": status_text(r),
                "grid": r.grid,
                "pit_stops": stops if (stops or r.pit_stops is not None) else "",
                "points": r.points,
            }
        )
    return rows


def grid_rows(results: Iterable[Result], qualifying: dict[int, str]) -> list[dict]:
    """The grid in slot order, then the cars that did not start with their status."""
    started = sorted((r for r in results if r.grid), key=lambda r: r.grid or 0)
    others = [r for r in results if not r.grid]
    rows = []
    for r in [*started, *others]:
        rows.append(
            {
                "grid": r.grid,
                "number": r.number,
                "driver": r.entry.driver.name,
                "driver_slug": r.entry.driver.slug,
                "constructor": r.entry.constructor.name,
                "constructor_slug": r.entry.constructor.slug,
                "qualifying": qualifying.get(r.entry_id)
                or ("" if r.grid else str(r.get_status_display())),
            }
        )
    return rows


def retirement_rows(results: Iterable[Result]) -> list[dict]:
    rows = []
    for r in results:
        if r.status != ResultStatus.DNF:
            continue
        rows.append(
            {
                "number": r.number,
                "driver": r.entry.driver.name,
                "driver_slug": r.entry.driver.slug,
                "constructor": r.entry.constructor.name,
                "constructor_slug": r.entry.constructor.slug,
                "lap": retirement_lap(r),
                "reason": reason_label(r.reason),
                "classified": r.position or "",
            }
        )
    return sorted(rows, key=lambda row: -(row["lap"] or 0))


def pit_stop_laps(events: Iterable[GrandPrixEvent]) -> dict[int, list[int]]:
    """Entry id -> the laps of its pit stops, from the race's events."""
    out: dict[int, list[int]] = defaultdict(list)
    for event in events:
        if event.kind == "pit_stop" and event.entry_id is not None:
            lap = event.data.get("lap") if isinstance(event.data, dict) else None
            out[event.entry_id].append(lap if isinstance(lap, int) else 0)
    return out


def pit_stop_rows(results: Iterable[Result], pit_laps: dict[int, list[int]]) -> list[dict]:
    rows = []
    for r in results:
        laps = pit_laps.get(r.entry_id, [])
        stops = len(laps) if laps else (r.pit_stops or 0)
        if not stops:
            continue
        rows.append(
            {
                "number": r.number,
                "driver": r.entry.driver.name,
                "driver_slug": r.entry.driver.slug,
                "constructor": r.entry.constructor.name,
                "constructor_slug": r.entry.constructor.slug,
                "stops": stops,
                "laps": ", ".join(str(lap) for lap in laps if lap),
            }
        )
    return rows


def qualifying_notes(events: Iterable[GrandPrixEvent]) -> dict[int, str]:
    """Entry id -> its qualifying run (throws and overshoot, or why it set no time)."""
    out = {}
    for event in events:
        if event.kind != "qualifying" or event.entry_id is None:
            continue
        data = event.data if isinstance(event.data, dict) else {}
        if data.get("no_time"):
            out[event.entry_id] = _("no time: %(reason)s") % {
                "reason": reason_label(data["no_time"])
            }
        elif "throws" in data:
            out[event.entry_id] = _("%(throws)s throws, %(over)s over") % {
                "throws": data.get("throws"),
                "over": data.get("overshoot", 0),
            }
    return out


# --- Standings ---------------------------------------------------------------------------------


def _standing_key(row: Standing, table: str) -> str:
    return str(row.driver_id) if table == "drivers" else f"{row.constructor_id}:{row.engine}"


def standing_rows(championship: Championship, table: str, after: int) -> list[dict]:
    """The table after round ``after`` (one query, two with the engines count)."""
    lines = list(
        Standing.objects.filter(
            grand_prix__championship=championship, grand_prix__round=after, table=table
        )
        .select_related("driver", "constructor")
        .order_by("position", "-points", "driver__last_name", "constructor__name")
    )
    engines = _engines_by_constructor(championship) if table == "constructors" else {}
    leader = lines[0].points if lines else Decimal(0)
    rows = []
    for line in lines:
        if table == "drivers":
            assert line.driver is not None
            name, slug = line.driver.name, line.driver.slug
        else:
            assert line.constructor is not None
            name = team_name(
                line.constructor.name, line.engine, engines.get(line.constructor.pk, 1)
            )
            slug = line.constructor.slug
        rows.append(
            {
                "position": line.position,
                "name": name,
                "slug": slug,
                "key": _standing_key(line, table),
                "points": line.points,
                "wins": line.wins,
                "gap": leader - line.points,
            }
        )
    return rows


def standings_rounds(championship: Championship) -> list[int]:
    """The rounds that have standings stored (one query)."""
    return sorted(
        set(
            Standing.objects.filter(grand_prix__championship=championship).values_list(
                "grand_prix__round", flat=True
            )
        )
    )


def points_series(
    championship: Championship, table: str, rows: list[dict], rounds: list[int], top: int = 10
) -> list[tuple[str, list[float | None]]]:
    """Cumulative points after each of ``rounds`` for the first ``top`` lines (one query)."""
    chosen = rows[:top]
    keys = {row["key"] for row in chosen}
    by_key: dict[str, dict[int, float]] = defaultdict(dict)
    lines = Standing.objects.filter(
        grand_prix__championship=championship, table=table, grand_prix__round__lte=rounds[-1]
    ).values_list("grand_prix__round", "driver_id", "constructor_id", "engine", "points")
    if table == "drivers":
        lines = lines.filter(driver_id__in=[int(k) for k in keys])
    for number, driver_id, constructor_id, engine, points in lines:
        key = str(driver_id) if table == "drivers" else f"{constructor_id}:{engine}"
        if key in keys:
            by_key[key][number] = float(points)
    return [(row["name"], [by_key[row["key"]].get(n) for n in rounds]) for row in chosen]


# --- What if -----------------------------------------------------------------------------------


def what_if(championship: Championship, table: str) -> tuple[list[tuple[str, str]], list[dict]]:
    """The final table under every points system (the championship's own first): the systems
    as (slug, short label) and one row per driver or constructor line, ordered by the own
    system, with ``pos_<slug>`` and ``pts_<slug>`` per system (four queries)."""
    own = championship.points_system
    systems = [own, *PointsSystem.objects.exclude(pk=own.pk).order_by("slug")]
    lines = race_lines(championship)
    scored = {}
    for system in systems:
        scoring = system.scoring()
        scored[system.slug] = (
            drivers_table(lines, scoring)
            if table == "drivers"
            else constructors_table(lines, scoring)
        )
    if table == "drivers":
        names = dict(
            Driver.objects.filter(entries__championship=championship).values_list("slug", "name")
        )
    else:
        names = dict(
            Constructor.objects.filter(entries__championship=championship).values_list(
                "slug", "name"
            )
        )
    engines: dict[str, int] = defaultdict(int)
    if table == "constructors":
        for line in scored[own.slug]:
            engines[str(line.key[0])] += 1
    rows: dict[object, dict[str, Any]] = {}
    for line in scored[own.slug]:
        if table == "drivers":
            slug = str(line.key)
            name = names.get(slug, slug)
        else:
            assert isinstance(line.key, tuple)
            slug, engine = line.key
            name = team_name(names.get(slug, slug), engine, engines[slug])
        rows[line.key] = {"name": name, "slug": slug}
    for system in systems:
        for line in scored[system.slug]:
            row = rows.get(line.key)
            if row is not None:
                row[f"pos_{system.slug}"] = line.position
                row[f"pts_{system.slug}"] = points_text(line.points)
    return [(s.slug, s.title) for s in systems], list(rows.values())


# --- Driver and constructor pages ---------------------------------------------------------------


def result_cell(result: Result) -> str:
    if result.position is not None:
        return str(result.position)
    return str(result.status)


def driver_result_text(result: Result) -> str:
    """``3``, ``12 · retired (Engine, lap 71)`` or ``retired (Accident, lap 14)``."""
    status = status_text(result)
    if result.position is not None:
        return f"{result.position} · {status}" if status else str(result.position)
    return status or result_cell(result)


def driver_page_rows(championship: Championship, driver: Driver) -> list[dict]:
    """The driver's rounds with his result and his standing after each (two queries)."""
    results = list(
        Result.objects.filter(grand_prix__championship=championship, entry__driver=driver)
        .select_related("grand_prix", "entry__constructor")
        .order_by("grand_prix__round")
    )
    standings = {
        number: (position, points)
        for number, position, points in Standing.objects.filter(
            grand_prix__championship=championship, table="drivers", driver=driver
        ).values_list("grand_prix__round", "position", "points")
    }
    rows = []
    for r in results:
        number = r.grand_prix.round
        position, total = standings.get(number, (None, None))
        rows.append(
            {
                "round": number,
                "grand_prix": r.grand_prix.name,
                "constructor": r.entry.constructor.name,
                "constructor_slug": r.entry.constructor.slug,
                "grid": r.grid,
                "result": driver_result_text(r),
                "points": r.points,
                "standing": position,
                "total": total,
            }
        )
    return rows


def constructor_page_rows(
    championship: Championship, constructor: Constructor
) -> tuple[list[dict], list[str]]:
    """Per round: both (or all) cars with their results, the points scored, the standing of
    each engine line after the round (three queries). Also the engines it raced with."""
    results = list(
        Result.objects.filter(grand_prix__championship=championship, entry__constructor=constructor)
        .select_related("grand_prix", "entry__driver")
        .order_by("grand_prix__round", "position", "number")
    )
    standings: dict[int, list[tuple[str, int, Decimal]]] = defaultdict(list)
    for number, engine, position, points in Standing.objects.filter(
        grand_prix__championship=championship, table="constructors", constructor=constructor
    ).values_list("grand_prix__round", "engine", "position", "points"):
        standings[number].append((engine, position, points))
    engines = sorted({r.entry.engine for r in results})
    by_round: dict[int, list[Result]] = defaultdict(list)
    names: dict[int, str] = {}
    for r in results:
        by_round[r.grand_prix.round].append(r)
        names[r.grand_prix.round] = r.grand_prix.name
    rows = []
    for number in sorted(by_round):
        cars = by_round[number]
        lines = sorted(standings.get(number, []))
        rows.append(
            {
                "round": number,
                "grand_prix": names[number],
                "cars": [(r.entry.driver.slug, r.entry.driver.name, result_cell(r)) for r in cars],
                "points": sum((r.points for r in cars), Decimal(0)),
                "standing": "; ".join(
                    (f"{engine_label(e)}: " if len(engines) > 1 else "")
                    + f"{p} ({points_text(pts)})"
                    for e, p, pts in lines
                ),
            }
        )
    return rows, engines
