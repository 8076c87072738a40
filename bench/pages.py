"""SQL queries and server time of each main page with the demo season, after 1 and 21 stages.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench .venv/bin/python bench/pages.py

The database named by DATABASE_URL is migrated and its demo season replaced. Server time is
the median of --runs requests through Django's test client (no network), after one warm-up,
each on a cache miss: the page cache (season/cache.py) is emptied before every request.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from races.models import StageResult
    from season.demo import demo_load
    from season.services.lifecycle import rounds_force_lock
    from season.services.resolution import round_resolve

    call_command("migrate", verbosity=0)
    season = demo_load()
    rounds_force_lock(season=season, numbers=list(range(1, 22)))
    ids = list(season.rounds.order_by("number").values_list("pk", flat=True))
    client = Client(HTTP_HOST="localhost")
    print(f"database: {connection.vendor}; median of {args.runs} requests per page")
    worst_queries, worst_ms = 0, 0.0
    for after, todo in ((1, ids[:1]), (21, ids[1:])):
        for pk in todo:
            round_resolve(round_id=pk)
        rider_id = StageResult.objects.filter(stage__race=season.race).values_list(
            "rider_id", flat=True
        )[0]
        team_id = season.teams.values_list("pk", flat=True)[0]
        pages = {
            "home": "/",
            "season": "/seasons/demo/",
            "stage": f"/seasons/demo/stages/{after}/",
            "dice log": f"/seasons/demo/stages/{after}/dice/",
            "general": f"/seasons/demo/standings/general/?after={after}",
            "points": f"/seasons/demo/standings/points/?after={after}",
            "mountains": f"/seasons/demo/standings/mountains/?after={after}",
            "youth": f"/seasons/demo/standings/youth/?after={after}",
            "teams": f"/seasons/demo/standings/teams/?after={after}",
            "rider": f"/seasons/demo/riders/{rider_id}/",
            "team": f"/seasons/demo/teams/{team_id}/",
        }
        print(f"\nafter stage {after}:")
        for name, url in pages.items():
            client.get(url)
            timings = []
            for _ in range(args.runs):
                cache.clear()
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.get(url)
                    timings.append(time.perf_counter() - started)
                assert response.status_code == 200, (url, response.status_code)
            ms = statistics.median(timings) * 1000
            count = len(queries.captured_queries)
            worst_queries, worst_ms = max(worst_queries, count), max(worst_ms, ms)
            print(f"  {name:<10} {count:>3} queries {ms:>7.1f} ms   {url}")
    print(f"\nworst: {worst_queries} queries, {worst_ms:.1f} ms (goals: 15 queries, 100 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
