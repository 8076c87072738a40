"""The odds of a round end to end: K simulations of round 1 of a demo season of each ruleset,
fanned out over worker processes on PostgreSQL and Redis:

- moreno: the demo's stage 1 (176 riders, season.demo.demo_load);
- cyclosim: the same demo season under the Cyclo Sim rules (as tests/season/test_cyclosim_season);
- grandprix: the motor demo's round 1 (a Grand Prix, 12 cars, season.demo.motor_demo_load);
- ludicitude: the motor demo's 12 cars and players on a championship of the shipped Ludicitude
  tracks (a season cannot race the demo's real circuits under Ludicitude: no track of the game),
  built as tests/season/motor_builders.py builds a Ludicitude league.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/odds.py [--runs 1000] [--workers 2]
        [--ruleset moreno|cyclosim|grandprix|ludicitude] [--settle POINTS] [--baseline]

End to end: from the request (inputs built, stored in the cache, the chord sent) to the table in
the cache (stored by the chunk that settles it, or by the merge), the workers already started
and idle. Prints the time, the runs made and counted, where the odds settled (every shown
chance's 95 % interval within --settle points, settings.ODDS_SETTLED_POINTS by default) or not,
the largest half-width, runs per second, the chunks each worker counted, the CPU seconds the
workers and this process spent (read from /proc: on a shared machine, runs per CPU-second move
less with the load than runs per second), the load average before and after, and, with
--baseline, the same plan counted in this one process (the engine's speed alone on this
machine). The goal (issue 33): 10,000 runs in <= 30 s on two workers, or settled earlier. The
database named by DATABASE_URL is migrated and its demo seasons replaced.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.worker_command import worker_command  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline", action="store_true", help="also count in this process")
    parser.add_argument(
        "--ruleset", choices=RULESETS, default="moreno", help="whose demo round 1 (moreno)"
    )
    parser.add_argument(
        "--motor", action="store_true", help="the same as --ruleset grandprix (kept for old notes)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=None,
        help="stop once every chance is within ± this many points (default: the setting; 0: never)",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=1200,
        help="seconds to wait for the table; then the runs counted so far are reported (1200)",
    )
    args = parser.parse_args()
    # A timeout's SIGTERM stops the workers too (the finally below), instead of orphaning them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.motor:
        args.ruleset = "grandprix"
    if not os.environ.get("REDIS_URL"):
        print("bench/odds.py needs REDIS_URL (and DATABASE_URL for PostgreSQL)")
        return 2

    # This process and the workers: a queue and an odds cache of this run's own.
    queue = f"bench-odds-{uuid.uuid4().hex[:8]}"
    os.environ["CELERY_QUEUE"] = queue
    os.environ["CACHE_KEY_PREFIX"] = f"bench-{queue}"

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from config.celery import app as celery_app
    from config.celery import odds_queue
    from plugins.odds import widest_half_width
    from season.services import odds

    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; figures are for", connection.vendor)
    if args.settle is not None:
        settings.ODDS_SETTLED_POINTS = args.settle  # the plan carries it to the workers
    call_command("migrate", verbosity=0)
    season = LOADERS[args.ruleset]()
    target = season.rounds.select_related("season", "stage", "grand_prix").get(number=1)
    what = (
        f"round 1 of {season.slug} ({target.grand_prix.name}, {season.seats.count()} cars"
        if target.grand_prix is not None
        else f"stage 1 of {season.slug} ({season.seats.count()} riders"
    )
    load_before = os.getloadavg()

    env = dict(os.environ)
    queues = (queue, odds_queue(queue))
    logs = [ROOT / "var" / f"bench-odds-worker-{n}.log" for n in range(args.workers)]
    logs[0].parent.mkdir(exist_ok=True)
    workers = [
        subprocess.Popen(
            worker_command(
                sys.executable,
                queues=",".join(queues),
                hostname=f"bench{n}-{os.getpid()}@%h",
                pool="solo",
            ),
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
        give_up = time.monotonic() + args.wait
        while not state.done:
            if state.failed:
                print("a chunk failed:", state.failed)
                return 1
            if time.monotonic() > give_up:
                waited = time.perf_counter() - started
                print(
                    f"odds of {what}, {season.ruleset}): {args.runs} runs asked, no table after "
                    f"{waited:.0f} s: {state.runs_done} runs counted in {state.chunks_done} of "
                    f"{state.chunks_total} chunks, {odds.runs_made(key=state.key)} made "
                    f"({state.runs_done / waited:.1f} runs/s counted); load average "
                    f"{', '.join(f'{x:.1f}' for x in load_before)} before, "
                    f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} now"
                )
                return 1
            time.sleep(0.2)  # as round_odds polls; the page polls every second
            state = odds.odds_state(key=state.key) or state
        elapsed = time.perf_counter() - started
        here_cpu = time.process_time() - here_before
        cpu = [_cpu_seconds(w.pid) - b for w, b in zip(workers, cpu_before, strict=True)]
        # The chunks still on their way when the table was stored (skipped, or stopped within
        # odds.CHECK_EVERY runs) finish before the workers stop, so that the logs count them.
        _chord_drained(logs, state.chunks_total, deadline=time.monotonic() + 120)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a chunk still counting: no warm shutdown
                worker.kill()
                worker.wait(timeout=30)
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
            broker.default_channel.queue_delete(odds_queue(queue))

    per_worker = {
        log.name: log.read_text().count("season.odds_chunk[") // 2 for log in logs
    }  # each chunk logs "received" and "succeeded"
    counted = state.runs_counted
    made = odds.runs_made(key=state.key)
    widest = 100 * widest_half_width(state.counts) if state.counts is not None else float("nan")
    bound = odds.settle_bound() * 100
    print(
        f"odds of {what}, {season.ruleset}): {args.runs} runs asked, "
        f"{state.chunks_total} chunks of {odds.chunk_runs_for(args.runs)}, {args.workers} workers, "
        f"settle within ± {bound:g} points"
    )
    settled = f"settled at {counted} runs" if state.settled else "not settled"
    print(
        f"end to end: {elapsed:.2f} s; {made} runs made, {counted} counted, {settled}; "
        f"widest half-width ± {widest:.2f} points; {counted / elapsed:.1f} runs/s counted"
    )
    print("chunks per worker:", ", ".join(f"{n}: {c}" for n, c in per_worker.items()))
    print(
        f"CPU until the table: workers {' + '.join(f'{c:.1f}' for c in cpu)} = {sum(cpu):.1f} s "
        f"({counted / sum(cpu):.1f} runs counted per worker CPU-second), "
        f"this process {here_cpu:.2f} s"
    )
    if args.baseline:
        plan = odds.odds_plan(round=target, runs=args.runs)
        cpu_started = time.process_time()
        started = time.perf_counter()
        counts = odds.plan_state(plan).counts  # up to the same settled prefix
        alone = time.perf_counter() - started
        alone_cpu = time.process_time() - cpu_started
        same = counts is not None and state.counts is not None
        same = same and counts.to_data() == state.counts.to_data()  # type: ignore[union-attr]
        print(
            f"one process: {alone:.2f} s, {counted / alone:.1f} runs/s, "
            f"{counted / alone_cpu:.1f} runs per CPU-second (same counts as the workers: {same})"
        )
    before = ", ".join(f"{x:.1f}" for x in load_before)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average before: {before}; now: {load} ({os.cpu_count()} cores)")
    return 0


def _chord_drained(logs: list[Path], chunks: int, *, deadline: float) -> None:
    """Wait (until ``deadline``) for every chunk task to have succeeded in the workers' logs."""
    while time.monotonic() < deadline:
        done = sum(
            "season.odds_chunk[" in line and "succeeded in" in line
            for log in logs
            for line in log.read_text().splitlines()
        )
        if done >= chunks:
            return
        time.sleep(0.2)


# --- the seasons -------------------------------------------------------------------------


def moreno_load():  # type: ignore[no-untyped-def]
    from season.demo import demo_load

    return demo_load()


def cyclosim_load():  # type: ignore[no-untyped-def]
    from season.demo import demo_load
    from season.models import Season

    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="cyclosim")
    season.refresh_from_db()
    return season


def grandprix_load():  # type: ignore[no-untyped-def]
    from season.demo import motor_demo_load

    return motor_demo_load()


LUDICITUDE_SLUG = "bench-ludicitude"
LUDICITUDE_TRACKS = ("anneau-exemple", "anneau-rapide", "lacets", "route-des-cretes")


def ludicitude_load():  # type: ignore[no-untyped-def]
    """The motor demo's 12 cars and its players' teams (season.demo.MOTOR_DEMO_TEAMS) in a
    Ludicitude season on a championship of the shipped Ludicitude tracks, round 1 open."""
    from django.db import transaction

    from motor.demo import demo_championship_load
    from motor.models import Championship, GrandPrix, Track
    from motor.points_presets import presets_ensure
    from motor.track_files import shipped_tracks_load
    from season.demo import motor_demo_season_create, season_delete
    from season.models import Season

    with transaction.atomic():
        real = demo_championship_load().championship
        shipped_tracks_load()
        presets_ensure()
        old = Season.objects.filter(slug=LUDICITUDE_SLUG).first()
        if old is not None:
            season_delete(old)
        Championship.objects.filter(slug=f"{LUDICITUDE_SLUG}-1981").delete()
        championship = Championship.objects.create(
            slug=f"{LUDICITUDE_SLUG}-1981",
            name="Demo 1981 on the Ludicitude tracks",
            year=1981,
            points_system=real.points_system,
        )
        for entry in real.entries.order_by("pk"):
            entry.pk = None
            entry.championship = championship
            entry.save()
        for number, slug in enumerate(LUDICITUDE_TRACKS, start=1):
            track = Track.objects.filter(slug=slug, game="ludicitude").order_by("-version")
            GrandPrix.objects.create(
                championship=championship,
                round=number,
                name=f"{slug.replace('-', ' ').title()} Grand Prix",
                circuit=slug.replace("-", " ").title(),
                circuit_slug=slug,
                track=track.first(),
                laps=2,
            )
        season = motor_demo_season_create(
            championship=championship,
            slug=LUDICITUDE_SLUG,
            name="Bench Ludicitude 1981",
            ruleset="ludicitude",
            points="ludicitude",
        )
    return season


LOADERS = {
    "moreno": moreno_load,
    "cyclosim": cyclosim_load,
    "grandprix": grandprix_load,
    "ludicitude": ludicitude_load,
}
RULESETS = tuple(LOADERS)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a live process so far (/proc/PID/stat, Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    sys.exit(main())
