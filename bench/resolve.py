"""Stage resolution end to end on PostgreSQL, through a real worker, and the GC page's queries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/resolve.py [--runs 5]

Prints: one stage end to end (load, simulate, write 176 results and the standings), median of
--runs; the 21 stages of the demo Tour through a real Celery worker; SQL queries and server time
to render the GC page after 1 and after 21 stages. The database named by DATABASE_URL is
migrated and its demo season replaced.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.worker_command import worker_command  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from config.celery import app as celery_app
    from season.demo import demo_load
    from season.models import Round
    from season.services.lifecycle import rounds_force_lock
    from season.services.resolution import round_resolve

    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; figures are for", connection.vendor)
    call_command("migrate", verbosity=0)

    one_stage = []
    for _ in range(args.runs):
        season = demo_load()
        target = season.rounds.get(number=1)
        started = time.perf_counter()
        round_resolve(round_id=target.pk)
        one_stage.append(time.perf_counter() - started)
    print(
        f"one stage end to end: {statistics.median(one_stage) * 1000:.0f} ms median of "
        f"{args.runs} (min {min(one_stage) * 1000:.0f} ms, max {max(one_stage) * 1000:.0f} ms)"
    )

    client = Client(HTTP_HOST="localhost")

    def gc_page(number: int) -> tuple[int, float]:
        url = f"/seasons/demo/standings/general/?after={number}"
        client.get(url)  # warm up
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.status_code
        return len(queries.captured_queries), elapsed

    queries_1, time_1 = gc_page(1)

    if settings.REDIS_URL:
        season = demo_load()
        rounds_force_lock(season=season, numbers=list(range(1, 22)))
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "CELERY_QUEUE": queue}
        worker = subprocess.Popen(
            worker_command(
                sys.executable,
                queues=queue,
                hostname=f"{queue}@%h",
                pool="solo",
                loglevel="WARNING",
            ),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            celery_app.conf.task_default_queue = queue
            time.sleep(3)  # the worker's start-up is not part of the figure
            from celery import chain

            from season.tasks import round_resolve_task

            ids = list(season.rounds.order_by("number").values_list("pk", flat=True))
            started = time.perf_counter()
            chain(*(round_resolve_task.si(pk) for pk in ids)).apply_async()
            while Round.objects.filter(pk__in=ids, status="resolved").count() < len(ids):
                if time.perf_counter() - started > 300:
                    raise SystemExit("timed out after 300 s")
                time.sleep(0.05)
            tour = time.perf_counter() - started
        finally:
            worker.terminate()
            worker.wait(20)
        print(f"21-stage demo Tour through a real worker: {tour:.1f} s")
    else:
        season = demo_load()
        rounds_force_lock(season=season, numbers=list(range(1, 22)))
        started = time.perf_counter()
        for pk in season.rounds.order_by("number").values_list("pk", flat=True):
            round_resolve(round_id=pk)
        print(
            f"21-stage demo Tour in-process (no REDIS_URL): {time.perf_counter() - started:.1f} s"
        )
    queries_21, time_21 = gc_page(21)
    print(f"GC page after stage 1: {queries_1} SQL queries, {time_1 * 1000:.0f} ms")
    print(f"GC page after stage 21: {queries_21} SQL queries, {time_21 * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
