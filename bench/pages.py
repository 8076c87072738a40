"""SQL queries and server time of each main page with the demo seasons: the Tour after 1 and 21
stages, the Grand Prix season after 1 and 15 rounds.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench [REDIS_URL=redis://...] \
        .venv/bin/python bench/pages.py

The database named by DATABASE_URL is migrated and its demo season replaced. Server time is
the median of --runs requests through Django's test client (no network), after one warm-up,
each on a cache miss: the page cache (season/cache.py) is emptied before every request.

Then the hits, on one connection in this process (Django's WSGI handler called directly, no
HTTP): the median time and the queries of a page answered from the page cache to an
anonymous visitor (the whole response kept) and to a logged-in player (the cached blocks in
his own shell), with Redis when REDIS_URL is set, this process's memory otherwise.
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
    parser.add_argument("--hits", type=int, default=200, help="requests per page on a hit")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from races.models import StageResult
    from season.cache import forget_here
    from season.demo import demo_load, motor_demo_load
    from season.services.lifecycle import rounds_force_lock
    from season.services.resolution import round_resolve

    call_command("migrate", verbosity=0)
    season = demo_load()
    rounds_force_lock(season=season, numbers=list(range(1, 22)))
    ids = list(season.rounds.order_by("number").values_list("pk", flat=True))
    client = Client(HTTP_HOST="localhost")
    print(f"database: {connection.vendor}; median of {args.runs} requests per page")
    worst_queries, worst_ms = 0, 0.0

    def measure(pages: dict[str, str], worst_queries: int, worst_ms: float) -> tuple[int, float]:
        """Each page's queries and median time on a cache miss; the worst figures so far."""
        for name, url in pages.items():
            client.get(url)
            timings, cpu = [], []
            for _ in range(args.runs):
                cache.clear()
                forget_here()  # and this process's copies of the kept anonymous pages
                with CaptureQueriesContext(connection) as queries:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    response = client.get(url)
                    timings.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)
                assert response.status_code == 200, (url, response.status_code)
            ms = statistics.median(timings) * 1000
            # This process's CPU time (Django's, without the database server's): the figure
            # that says least about the other work on a shared machine.
            cpu_ms = statistics.median(cpu) * 1000
            count = len(queries.captured_queries)
            worst_queries, worst_ms = max(worst_queries, count), max(worst_ms, ms)
            print(f"  {name:<12} {count:>3} queries {ms:>7.1f} ms (CPU {cpu_ms:>6.1f} ms)   {url}")
        return worst_queries, worst_ms

    for after, todo in ((1, ids[:1]), (21, ids[1:])):
        for pk in todo:
            round_resolve(round_id=pk)
        rider_id = StageResult.objects.filter(stage__race=season.event).values_list(
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
        worst_queries, worst_ms = measure(pages, worst_queries, worst_ms)
    # The motor demo season (demo-f1): its Grand Prix, standings, what-if, driver and
    # constructor pages after 1 and after every round (the count must not grow with them).
    from motor.models import Result

    motor = motor_demo_load()
    motor_ids = list(motor.rounds.order_by("number").values_list("pk", flat=True))
    rounds_force_lock(season=motor, numbers=list(range(1, len(motor_ids) + 1)))
    for after, todo in ((1, motor_ids[:1]), (len(motor_ids), motor_ids[1:])):
        for pk in todo:
            round_resolve(round_id=pk)
        result = (
            Result.objects.filter(grand_prix__championship=motor.championship)
            .select_related("entry__driver", "entry__constructor")
            .first()
        )
        assert result is not None
        base = "/seasons/demo-f1"
        motor_pages = {
            "motor season": f"{base}/",
            "round": f"{base}/stages/{after}/",
            "grand prix": f"{base}/grands-prix/{after}/",
            "drivers": f"{base}/championship/standings/drivers/?after={after}",
            "constructors": f"{base}/championship/standings/constructors/?after={after}",
            "what-if": f"{base}/championship/what-if/drivers/",
            "driver": f"{base}/championship/drivers/{result.entry.driver.slug}/",
            "constructor": f"{base}/championship/constructors/{result.entry.constructor.slug}/",
        }
        print(f"\nmotor season, after round {after}:")
        worst_queries, worst_ms = measure(motor_pages, worst_queries, worst_ms)
    print(
        f"\nworst: {worst_queries} queries, {worst_ms:.1f} ms (goals: 15 queries, 100 ms);"
        f" load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )

    from django.conf import settings

    client.login(username="alice", password="alice-demo")
    player = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"\ncache hits ({backend}), one connection in-process, median of {args.hits} requests:")
    for name in ("season", "stage", "general", "points"):
        url = pages[name]
        for who, cookie in (("anonymous", ""), ("player", player)):
            for _ in range(3):
                wsgi_get(url, cookie)
            timings = []
            for _ in range(args.hits):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    status = wsgi_get(url, cookie)
                    timings.append(time.perf_counter() - started)
                assert status.startswith("200"), (url, status)
            ms = statistics.median(timings) * 1000
            count = len(queries.captured_queries)
            print(f"  {name:<10} {who:<10} {count:>3} queries {ms:>7.2f} ms   {url}")
    return 0


def wsgi_get(url: str, cookie: str = "") -> str:
    """GET through Django's WSGI handler, as gunicorn calls it (no test client, no socket)."""
    import io

    from django.core.handlers.wsgi import WSGIHandler

    global _APP
    if _APP is None:
        _APP = WSGIHandler()
    path, _, query = url.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "HTTP_HOST": "localhost",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
    }
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    statuses: list[str] = []
    body = _APP(environ, lambda status, headers: statuses.append(status))
    b"".join(body)
    body.close()  # type: ignore[attr-defined]
    return statuses[0]


_APP = None


if __name__ == "__main__":
    raise SystemExit(main())
