"""The odds of a round end to end: K simulations of the demo's stage 1 (176 riders, Moréno),
or with --motor of the motor demo's round 1 (a Grand Prix, 12 cars), fanned out over worker
processes on PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/odds.py [--runs 1000] [--workers 2]
        [--motor] [--baseline]

End to end: from the request (inputs built, stored in the cache, the chord sent) to the merged
table in the cache, the workers already started and idle. Prints the time and runs per second,
the chunks each worker counted, the CPU seconds the workers and this process spent (read from
/proc: on a shared machine, runs per CPU-second move less with the load than runs per second),
and, with --baseline, the same runs counted in this one process
(the engine's speed alone on this machine; the goal is 1,000 runs in <= 10 s with two workers,
beyond it 10,000 in <= 30 s). The database named by DATABASE_URL is migrated and its demo season
replaced.
"""

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline", action="store_true", help="also count in this process")
    parser.add_argument(
        "--motor", action="store_true", help="the motor demo's round 1 (a Grand Prix) instead"
    )
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        print("bench/odds.py needs REDIS_URL (and DATABASE_URL for PostgreSQL)")
        return 2

    # This process and the workers: a queue and an odds cache of this run's own.
    queue = f"bench-odds-{uuid.uuid4().hex[:8]}"
    os.environ["CELERY_QUEUE"] = queue
    os.environ["CACHE_KEY_PREFIX"] = f"bench-{queue}"

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from config.celery import app as celery_app
    from config.celery import odds_queue
    from season.demo import demo_load, motor_demo_load
    from season.services import odds

    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; figures are for", connection.vendor)
    call_command("migrate", verbosity=0)
    season = motor_demo_load() if args.motor else demo_load()
    target = season.rounds.select_related("season", "stage", "grand_prix").get(number=1)
    what = (
        f"round 1 of {season.slug} ({target.grand_prix.name}, {season.cars.count()} cars"
        if target.grand_prix is not None
        else "stage 1 of the demo (176 riders"
    )

    env = dict(os.environ)
    queues = (queue, odds_queue(queue))
    logs = [ROOT / "var" / f"bench-odds-worker-{n}.log" for n in range(args.workers)]
    logs[0].parent.mkdir(exist_ok=True)
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                ",".join(queues),
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                f"--hostname=bench{n}-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        for n, log in enumerate(logs)
    ]
    try:
        deadline = time.monotonic() + 60
        while not all(log.exists() and " ready." in log.read_text() for log in logs):
            if time.monotonic() > deadline:
                print("the workers did not start; see", *logs)
                return 1
            time.sleep(0.2)

        cpu_before = [_cpu_seconds(worker.pid) for worker in workers]
        here_before = time.process_time()
        started = time.perf_counter()
        state = odds.odds_request(round=target, runs=args.runs)
        while not state.done:
            if state.failed:
                print("a chunk failed:", state.failed)
                return 1
            time.sleep(0.2)  # as round_odds polls; the page polls every second
            state = odds.odds_state(key=state.key) or state
        elapsed = time.perf_counter() - started
        here_cpu = time.process_time() - here_before
        cpu = [_cpu_seconds(w.pid) - b for w, b in zip(workers, cpu_before, strict=True)]
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
            broker.default_channel.queue_delete(odds_queue(queue))

    per_worker = {
        log.name: log.read_text().count("season.odds_chunk[") // 2 for log in logs
    }  # each chunk logs "received" and "succeeded"
    print(
        f"odds of {what}, {season.ruleset}): {args.runs} runs, "
        f"{state.chunks_total} chunks of {odds.chunk_runs_for(args.runs)}, {args.workers} workers"
    )
    print(f"end to end: {elapsed:.2f} s, {args.runs / elapsed:.1f} runs/s")
    print("chunks per worker:", ", ".join(f"{n}: {c}" for n, c in per_worker.items()))
    print(
        f"CPU: workers {' + '.join(f'{c:.1f}' for c in cpu)} = {sum(cpu):.1f} s "
        f"({args.runs / sum(cpu):.1f} runs per worker CPU-second), this process {here_cpu:.2f} s"
    )
    if args.baseline:
        plan = odds.odds_plan(round=target, runs=args.runs)
        cpu_started = time.process_time()
        started = time.perf_counter()
        counts = odds.plan_state(plan).counts
        alone = time.perf_counter() - started
        alone_cpu = time.process_time() - cpu_started
        same = counts is not None and state.counts is not None
        same = same and counts.to_data() == state.counts.to_data()  # type: ignore[union-attr]
        print(
            f"one process: {alone:.2f} s, {args.runs / alone:.1f} runs/s, "
            f"{args.runs / alone_cpu:.1f} runs per CPU-second (same counts as the workers: {same})"
        )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average now: {load} ({os.cpu_count()} cores)")
    return 0


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a live process so far (/proc/PID/stat, Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    sys.exit(main())
