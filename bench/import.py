"""Import 10,000 generated result rows and print rows per second: first import, then re-import.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench .venv/bin/python bench/import.py

Goals (PostgreSQL): >= 2,000 rows/s on a first import, >= 5,000 rows/s on a re-import. The
database is migrated first; the bench's own races, riders and teams (slug or id "bench-...")
are deleted before each run, so it can be run again and again.
"""

import csv
import io
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from races.importing import ImportFile, results_import  # noqa: E402
from races.models import Race, RaceEntry, StageResult, Standing  # noqa: E402
from riders.models import Rider, RiderMatch, Team  # noqa: E402

EDITIONS = range(2001, 2006)  # 5 editions x 20 stages x 100 riders = 10,000 result rows
STAGES = 20
FIELD = 100
POOL = 160  # riders in all; each edition starts 100 of them
TEAMS = 10
GIVEN = ["Jonas", "Tadej", "Wout", "Jasper", "Remco", "Primoz", "Mads", "Tom", "Egan", "Enric"]
SYLLABLES = ["van", "der", "ber", "gaard", "ski", "mon", "tal", "ric", "os", "ez", "lin", "dor"]


def _csv(rows: list[list[object]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue().encode()


def generate(seed: int = 2024) -> tuple[ImportFile, ImportFile]:
    rng = random.Random(seed)
    surnames: set[str] = set()
    while len(surnames) < POOL:
        surnames.add("".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize())
    pool = [
        (f"{surname.upper()} {GIVEN[i % len(GIVEN)]}", f"bench-{surname.lower()}")
        for i, surname in enumerate(sorted(surnames))
    ]
    stages = [["race", "year", "stage", "date", "start", "finish", "distance_km", "type"]]
    header = ["race", "year", "stage", "rank", "rider", "rider_url", "team", "nationality"]
    results = [[*header, "time_seconds", "gap_seconds", "status"]]
    types = ["flat", "hilly", "mountain", "ITT"]
    for year in EDITIONS:
        starters = rng.sample(pool, FIELD)
        for number in range(1, STAGES + 1):
            stage_type = types[number % len(types)]
            stages.append(
                ["bench-tour", year, number, f"{year}-07-{number:02d}", "A", "B", 150, stage_type]
            )
            order = rng.sample(range(FIELD), FIELD)
            winner_time = rng.randint(14_000, 20_000)
            gap = 0
            for place, index in enumerate(order, start=1):
                name, slug = starters[index]
                team = f"Bench Team {index % TEAMS}"
                if place > FIELD - 2:
                    row = [
                        "",
                        name,
                        f"rider/{slug}",
                        team,
                        "FRA",
                        "",
                        "",
                        rng.choice(["DNF", "DNS"]),
                    ]
                else:
                    same_time = place > 1 and rng.random() < 0.5
                    gap += 0 if same_time else rng.randint(1, 40)
                    times = ["", ""] if same_time else [winner_time + gap, gap]
                    row = [place, name, f"rider/{slug}", team, "FRA", *times, "FIN"]
                results.append(["bench-tour", year, number, *row])
    return (
        ImportFile(name="stages.csv", content=_csv(stages)),  # type: ignore[arg-type]
        ImportFile(name="results.csv", content=_csv(results)),  # type: ignore[arg-type]
    )


def clean() -> None:
    races = Race.objects.filter(slug__startswith="bench-tour-")
    StageResult.objects.filter(stage__race__in=races).delete()
    Standing.objects.filter(stage__race__in=races).delete()
    RaceEntry.objects.filter(race__in=races).delete()
    races.delete()
    RiderMatch.objects.filter(candidate__pcs_slug__startswith="bench-").delete()
    Rider.objects.filter(pcs_slug__startswith="bench-").delete()
    Team.objects.filter(name__startswith="Bench Team").delete()


def timed(label: str, files: list[ImportFile], rows: int) -> float:
    start = time.perf_counter()
    report = results_import(files=files)
    seconds = time.perf_counter() - start
    if report.errors:
        raise SystemExit("\n".join(report.lines()[-20:]))
    rate = rows / seconds
    print(f"{label:<13} {rows} rows in {seconds:6.2f} s = {rate:8.0f} rows/s  ({report.outcome()})")
    return rate


def main() -> None:
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    if connection.vendor != "postgresql":
        print("note: the goals are set for PostgreSQL (set DATABASE_URL=postgres://...)")
    clean()
    stages, results = generate()
    rows = results.content.count(b"\n") - 1
    results_import(files=[stages])
    first = timed("first import", [results], rows)
    again = timed("re-import", [results], rows)
    goals = first >= 2000 and again >= 5000
    print(f"goals (2,000 and 5,000 rows/s): {'met' if goals else 'NOT met'}")
    clean()


if __name__ == "__main__":
    main()
