"""Standings rows from results: the selectors and the writer around ``motor.championship``."""

from decimal import Decimal

from django.db import transaction

from motor.championship import (
    Line,
    RaceLine,
    Scoring,
    constructors_table,
    drivers_table,
    standings_by_round,
)
from motor.models import (
    Championship,
    Constructor,
    Driver,
    GrandPrix,
    PointsSystem,
    Result,
    Standing,
)


def _team(line: Line) -> tuple[str, str]:
    assert isinstance(line.key, tuple)  # a constructors' line: (constructor, engine)
    return line.key


def race_lines(championship: Championship) -> list[RaceLine]:
    """Every result of the championship as plain data (one query)."""
    results = Result.objects.filter(grand_prix__championship=championship).values_list(
        "grand_prix__round",
        "entry__driver__slug",
        "entry__constructor__slug",
        "entry__engine",
        "position",
        "status",
        "grid",
        "fastest_lap",
    )
    return [
        RaceLine(
            round=round_number,
            drivers=(driver,),
            team=(constructor, engine),
            position=position,
            pole=grid == 1,
            fastest_lap=fastest_lap,
        )
        for round_number, driver, constructor, engine, position, _s, grid, fastest_lap in results
    ]


def final_table(
    championship: Championship, table: str, scoring: Scoring | None = None
) -> list[Line]:
    """The drivers' or constructors' table after the last round, computed from the results
    (under ``scoring``, by default the championship's own system)."""
    scoring = scoring or championship.points_system.scoring()
    lines = race_lines(championship)
    return (
        drivers_table(lines, scoring) if table == "drivers" else constructors_table(lines, scoring)
    )


def _comparable(row: tuple) -> tuple:
    grand_prix, table, position, driver, constructor, engine, points, wins, countback = row
    return (
        grand_prix,
        table,
        -1 if position is None else position,
        driver or 0,
        constructor or 0,
        engine,
        Decimal(str(points)),
        wins,
        tuple(countback),
    )


def championship_standings_write(championship: Championship) -> bool:
    """Store the tables after every round; True when they changed (re-import: unchanged)."""
    scoring = championship.points_system.scoring()
    by_round = standings_by_round(race_lines(championship), scoring)
    grands_prix = {gp.round: gp for gp in GrandPrix.objects.filter(championship=championship)}
    drivers = dict(Driver.objects.values_list("slug", "pk"))
    constructors = dict(Constructor.objects.values_list("slug", "pk"))
    wanted: list[tuple] = []
    for round_number, (driver_lines, constructor_lines) in by_round.items():
        gp = grands_prix[round_number]
        for line in driver_lines:
            wanted.append(
                (
                    gp.pk,
                    "drivers",
                    line.position,
                    drivers[str(line.key)],
                    None,
                    "",
                    line.points,
                    line.wins,
                    line.countback,
                )
            )
        for line in constructor_lines:
            slug, engine = _team(line)
            wanted.append(
                (
                    gp.pk,
                    "constructors",
                    line.position,
                    None,
                    constructors[slug],
                    engine,
                    line.points,
                    line.wins,
                    line.countback,
                )
            )
    existing = Standing.objects.filter(grand_prix__championship=championship)
    have = sorted(
        existing.values_list(
            "grand_prix_id",
            "table",
            "position",
            "driver_id",
            "constructor_id",
            "engine",
            "points",
            "wins",
            "countback",
        ),
    )
    # Compared as sets of whole lines: tied drivers share a position, and the database returns
    # them in no particular order (PostgreSQL), so a sort on the position alone is not enough.
    if sorted(map(_comparable, have)) == sorted(map(_comparable, wanted)):
        return False
    with transaction.atomic():
        existing.delete()
        Standing.objects.bulk_create(
            Standing(
                grand_prix_id=g,
                table=t,
                position=p,
                driver_id=d,
                constructor_id=c,
                engine=e,
                points=pts,
                wins=w,
                countback=cb,
            )
            for g, t, p, d, c, e, pts, w, cb in wanted
        )
    return True


def points_text(points: Decimal) -> str:
    """9 for 9.00, 4.5 for 4.50."""
    return f"{points.normalize():f}"


def table_rows(
    championship: Championship, table: str, system: PointsSystem | None = None
) -> list[tuple[int, str, str]]:
    """(position, name as stored, points) after the last round; a constructor racing two
    engines in the season is named ``name (engine)`` on each of its lines."""
    scoring = (system or championship.points_system).scoring()
    lines = final_table(championship, table, scoring)
    if table == "drivers":
        names = dict(Driver.objects.values_list("slug", "name"))
        return [(line.position, names[str(line.key)], points_text(line.points)) for line in lines]
    names = dict(Constructor.objects.values_list("slug", "name"))
    engines: dict[str, int] = {}
    for line in lines:
        engines[_team(line)[0]] = engines.get(_team(line)[0], 0) + 1
    rows = []
    for line in lines:
        slug, engine = _team(line)
        name = names[slug] if engines[slug] == 1 else f"{names[slug]} ({engine})"
        rows.append((line.position, name, points_text(line.points)))
    return rows
