"""A busy evening (issue 33): N leagues with a round due in the same minute, resolved by beat and
the workers as deployed, while logged-in players and anonymous visitors load pages.

    .venv/bin/python bench/burst.py [--leagues 200] [--workers 2] [--duration 15]
        [--connections 20] [--check-seconds 60]

Builds the N leagues with the product's services on PostgreSQL (its own database, made afresh):
half Moréno on a short stage race (the demo's Critérium, 4 stages, the Tour's start list), four
players drafting eight riders each and computer teams riding the rest; half Grand Prix on the
demo 1981 championship, four players with two cars each and computer teams driving the rest
(the players of each cycling league play the motor league after it too: My seasons lists two).
Every league's round 1 is open with its deadline at the same instant. Then it starts gunicorn
as production runs it (bench/load.py), ``--workers`` league workers (the README's command line
and queue) and one beat (django_celery_beat's DatabaseScheduler, the deadline check every
``--check-seconds``), and runs wrk on three pages before the deadline and again during the
burst: the orders form and /my/ of logged-in players (a lua script rotates their session
cookies) and the round's page, anonymous (its results once resolved). It prints the deadline
to the first and the last round resolved (the rounds' ``resolved_at``), beat's lag (the deadline
to each round's job, ``Job.created_at``), the rounds resolved exactly once, each page's
requests/s, p50, p99 and errors before and during, and the load average beside each figure.
Everything it started is stopped at the end, on Ctrl-C and on failure.

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/gt_burst_bench, made afresh; another
database is created if missing, never emptied) and REDIS_URL (default redis://127.0.0.1:6379/9)
name the servers. Goals (issue 33): 200 rounds resolved within 60 s of their deadline by two
workers; logged-in pages at >= 500 requests/s with p99 < 100 ms, during the burst as before it.
"""

import argparse
import contextlib
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import database_create, free_port, production_env, wait_for, wrk  # noqa: E402
from config.worker_command import worker_command  # noqa: E402

PYTHON = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/gt_burst_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"
PLAYERS = 4
CYCLING_ROSTER = 8
#: The demo's short stage race (season.demo.DEMO_ROUTES): 4 stages, the Tour's start list.
CYCLING_RACE = "demo-criterium-2023"
#: How many players' session cookies the logged-in pages rotate through.
SESSIONS_MAX = 200
#: After the deadline, how long to wait for the last round before giving up.
BURST_TIMEOUT = 600


@dataclass
class Built:
    """What the run measures: the leagues' round 1, and the pages to load."""

    round_ids: list[int]
    #: (path, session cookie) of each player measured on the orders form, then on /my/.
    orders: list[tuple[str, str]] = field(default_factory=list)
    my: list[tuple[str, str]] = field(default_factory=list)
    #: The round's page of each league, anonymous.
    results: list[str] = field(default_factory=list)


def lua_rotation(requests: list[tuple[str, str]]) -> str:
    """A wrk script that sends the given (path, cookie) requests in turn, each thread starting
    at another place in the list; an empty cookie sends none (an anonymous visitor)."""

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    rows = ",\n".join(f"  {{{quoted(path)}, {quoted(cookie)}}}" for path, cookie in requests)
    return (
        "local pages = {\n" + rows + "\n}\n"
        "local counter = 0\n"
        "local step = 0\n"
        "function setup(thread)\n"
        "  step = step + 1\n"
        '  thread:set("start", step * 7919)\n'
        "end\n"
        "function init(args)\n"
        "  counter = start or 0\n"
        "end\n"
        "function request()\n"
        "  counter = counter + 1\n"
        "  local page = pages[(counter % #pages) + 1]\n"
        "  local headers = {}\n"
        '  if page[2] ~= "" then headers["Cookie"] = "sessionid=" .. page[2] end\n'
        '  return wrk.format("GET", page[1], headers)\n'
        "end\n"
    )


def lag_summary(seconds: list[float]) -> str:
    """min / median / max of a list of lags in seconds, or 'none'."""
    if not seconds:
        return "none"
    return (
        f"min {min(seconds):.1f} s, median {statistics.median(seconds):.1f} s,"
        f" max {max(seconds):.1f} s"
    )


def load_text() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def build(leagues: int) -> Built:
    """The N leagues, built with the product's services; round 1 of each is open."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from motor.demo import demo_championship_load
    from motor.models import PointsSystem
    from races.models import Race
    from season.computer_teams import computer_teams_fill
    from season.formation import (
        budget_pick,
        draft_autopick,
        draft_start,
        draft_status,
        free_pickables,
    )
    from season.leagues import SeasonSettings, season_create, season_join
    from season.models import Season
    from season.rule_settings import RuleSettings
    from season.services.lifecycle import round_open

    user_model = get_user_model()
    race = Race.objects.get(slug=CYCLING_RACE)
    championship = demo_championship_load().championship
    points = PointsSystem.objects.get(slug="f1-1961-1990")
    first = timezone.now() + timedelta(days=1)
    client = Client()
    built = Built(round_ids=[])
    cookies: dict[int, str] = {}
    players: list[Any] = []
    started = time.perf_counter()
    for index in range(leagues):
        motor = index % 2 == 1
        slug = f"burst-{index:03d}"
        with transaction.atomic():
            organiser = user_model.objects.create(username=f"{slug}-organiser")
            settings = SeasonSettings(
                name=f"Busy evening {index}",
                ruleset="grandprix" if motor else "moreno",
                is_public=True,
                rule_settings=RuleSettings(),
                roster_size=2 if motor else CYCLING_ROSTER,
                formation_mode=(
                    Season.FormationMode.BUDGET if motor else Season.FormationMode.DRAFT
                ),
                budget=1000 if motor else Season._meta.get_field("budget").get_default(),
                max_per_real_team=None if motor else 2,
                time_zone="Europe/Paris",
                auto_publish=True,
                draft_pick_minutes=0,
            )
            season = season_create(
                organiser=organiser,
                slug=slug,
                event=championship if motor else race,
                settings=settings,
                first_deadline=first,
                hours_between=24,
                options={"points_system": points} if motor else None,
            )
            if not motor:  # the players of a cycling league play the motor one after it too
                players = [
                    user_model.objects.create(username=f"{slug}-player-{n}") for n in range(PLAYERS)
                ]
            teams = [
                season_join(season=season, user=user, team_name=f"{user.username} team")
                for user in players
            ]
            if motor:
                entries = free_pickables(season=season)
                for n, team in enumerate(teams):
                    for entry in entries[2 * n : 2 * n + 2]:
                        budget_pick(team=team, pickable=entry)
            else:
                draft_start(season=season, rng=random.Random(index))
                while draft_status(season=season).on_turn is not None:
                    draft_autopick(season=season, user=organiser)
            computer_teams_fill(season=season)
            round_1 = season.rounds.get(number=1)
            if round_1.status == round_1.Status.SCHEDULED:
                round_open(round=round_1)
        built.round_ids.append(round_1.pk)
        kind = "grands-prix" if motor else "stages"
        built.results.append(f"/seasons/{slug}/{kind}/1/")
        for user, team in zip(players, teams, strict=True):
            if len(built.orders) >= SESSIONS_MAX:
                break
            if user.pk not in cookies:
                client.force_login(user)
                cookies[user.pk] = client.cookies["sessionid"].value
                client.cookies.clear()
                built.my.append(("/my/", cookies[user.pk]))
            built.orders.append((f"/seasons/{slug}/teams/{team.pk}/orders/", cookies[user.pk]))
        if (index + 1) % 20 == 0 or index + 1 == leagues:
            print(
                f"  {index + 1} leagues built ({time.perf_counter() - started:.0f} s;"
                f" load average {load_text()})",
                flush=True,
            )
    return built


def deadline_set(round_ids: list[int], at: datetime) -> None:
    """Every league's round 1 due at the same instant (the bench's own shortcut: the calendar
    edit refuses a deadline this close)."""
    from season.models import Round

    Round.objects.filter(pk__in=round_ids).update(orders_deadline=at)


def resolved_count(round_ids: list[int]) -> int:
    from season.models import Round

    return Round.objects.filter(pk__in=round_ids, resolved_at__isnull=False).count()


def burst_figures(round_ids: list[int], deadline: datetime) -> dict[str, Any]:
    """Read from the database: the deadline to each round's resolution and to its first job."""
    from django.db.models import Count, Min

    from season.models import Round

    rows = list(
        Round.objects.filter(pk__in=round_ids)
        .annotate(jobs_count=Count("jobs"), first_job=Min("jobs__created_at"))
        .values("status", "resolved_at", "attempts", "jobs_count", "first_job")
    )
    resolved = [(r["resolved_at"] - deadline).total_seconds() for r in rows if r["resolved_at"]]
    lags = [(r["first_job"] - deadline).total_seconds() for r in rows if r["first_job"]]
    once = sum(
        1
        for r in rows
        if r["status"] == Round.Status.RESOLVED and r["attempts"] == 1 and r["jobs_count"] == 1
    )
    return {
        "rounds": len(rows),
        "resolved": len(resolved),
        "first": min(resolved) if resolved else None,
        "last": max(resolved) if resolved else None,
        "lag": lag_summary(lags),
        "once": once,
        "statuses": sorted({r["status"] for r in rows}),
    }


class Processes:
    """The processes this run started, each in a process group of its own, stopped together."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = (self.logs / f"{name}.log").open("wb")
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        self.started[name] = process
        return process

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def alive_check(self) -> None:
        for name, process in self.started.items():
            if process.poll() is not None:
                raise SystemExit(
                    f"{name} stopped (exit {process.returncode}):\n{self.log(name)[-3000:]}"
                )

    def stop(self) -> None:
        for process in self.started.values():
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        end = time.monotonic() + 30
        for process in self.started.values():
            try:
                process.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def latencies_kept(figures: dict[str, str]) -> dict[str, str]:
    """wrk's figures, its p50 and p99 replaced by "-" when no request was answered in time
    (wrk then prints 0.00us: the latencies of the timed-out requests are not counted)."""
    if figures["requests"] != "?" and figures["errors"] == figures["requests"]:
        return {**figures, "p50": "-", "p99": "-"}
    return figures


def page_line(name: str, when: str, f: dict[str, str], resolved: str) -> str:
    return (
        f"  {name:<8} {when:<6} {f['rps']:>9} req/s  p50 {f['p50']:>8}  p99 {f['p99']:>8}"
        f"  errors {f['errors']}"
        + (f" ({f['kinds']})" if f["kinds"] else "")
        + f"  [{f['requests']}"
        f" requests; gunicorn {f['server_ms']} ms CPU/request; rounds resolved {resolved};"
        f" load average {f['load']}]"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leagues", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="league workers (Celery)")
    parser.add_argument("--duration", type=int, default=15, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=20, help="wrk connections")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--check-seconds",
        type=int,
        default=None,
        help="beat's deadline check interval (default: STAGE_DEADLINE_CHECK_SECONDS's)",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: `apt-get install -y wrk` (Debian's package), then run again.")
        return 2

    db_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("REDIS_URL", DEFAULT_REDIS)
    work = Path(tempfile.mkdtemp(prefix="gt-bench-burst-"))
    port = free_port()
    queue = f"gt-bench-burst-{port}"
    env = production_env(
        db_url=db_url,
        redis_url=redis_url,
        static_root=str(work / "static"),
        port=port,
        queue=queue,
    )
    if args.check_seconds is not None:
        env["STAGE_DEADLINE_CHECK_SECONDS"] = str(args.check_seconds)
    os.environ.update(env)
    processes = Processes(work)

    def interrupted(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    # Ctrl-C and a kill alike stop the run (a shell's background job inherits SIGINT ignored).
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    try:
        return run(args, env, processes, work, port, queue)
    except KeyboardInterrupt as stop:
        print(f"\ninterrupted ({stop}): stopping everything this run started", flush=True)
        return 130
    finally:
        processes.stop()
        broker_queue_delete(queue)
        shutil.rmtree(work, ignore_errors=True)


def broker_queue_delete(queue: str) -> None:
    try:
        from config.celery import app as celery_app

        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
    except Exception as error:  # cleaning up: the run's figures stand
        print(f"(the broker's queue {queue} was not deleted: {error})")


def run(
    args: argparse.Namespace,
    env: dict[str, str],
    processes: Processes,
    work: Path,
    port: int,
    queue: str,
) -> int:
    db_url = env["DATABASE_URL"]
    database_create(db_url, fresh=db_url == DEFAULT_DB)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    check_seconds = settings.STAGE_DEADLINE_CHECK_SECONDS
    print(
        f"database {urlparse(db_url).path.lstrip('/')}: migrate, demo data,"
        f" {args.leagues} leagues (load average {load_text()})",
        flush=True,
    )
    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_demo", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    built = build(args.leagues)

    gunicorn = [
        str(Path(PYTHON).parent / "gunicorn"),
        "config.wsgi",
        "--workers",
        str(args.web_workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--no-control-socket",
    ]
    server = processes.start("gunicorn", gunicorn, env)
    # The README's production workers: the league queue, no worker-to-worker chatter; one
    # process each (--concurrency=1), so that "two workers" resolve two rounds at a time.
    for n in range(args.workers):
        processes.start(
            f"worker{n}",
            worker_command(PYTHON, queues=queue, hostname=f"burst{n}-{port}@%h", concurrency=1),
            env,
        )
    processes.start(
        "beat",
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=INFO",
            f"--schedule={work / 'beat-schedule'}",
        ],
        env,
    )
    base = f"http://127.0.0.1:{port}"
    wait_for(base + built.results[0], 60)
    end = time.monotonic() + 60
    while not all(" ready." in processes.log(f"worker{n}") for n in range(args.workers)):
        processes.alive_check()
        if time.monotonic() > end:
            raise SystemExit("the workers did not start within 60 s")
        time.sleep(0.2)
    print(
        f"gunicorn ({args.web_workers} workers), {args.workers} league workers and beat"
        f" (deadline check every {check_seconds} s) started; queue {queue}",
        flush=True,
    )

    scripts = {}
    for name, requests in (
        ("orders", built.orders),
        ("/my/", built.my),
        ("results", [(path, "") for path in built.results]),
    ):
        script = work / f"{name.strip('/')}.lua"
        script.write_text(lua_rotation(requests))
        scripts[name] = str(script)
    # Each page once under wrk first (the workers' imports, templates, connections): the
    # figures before are then of warm processes, as those during are.
    for script in scripts.values():
        wrk(base + "/", args.connections, 2, server.pid, script=script)
    # The deadline after the measures before it (3 runs, a margin for each), on a whole second.
    before_seconds = len(scripts) * (args.duration + 3) + 5
    deadline = (timezone.now() + timedelta(seconds=before_seconds)).replace(microsecond=0)
    deadline_set(built.round_ids, deadline)
    print(
        f"\nround 1 of the {args.leagues} leagues due at {deadline:%H:%M:%S} UTC;"
        f" before the deadline ({args.connections} connections, {args.duration} s a run):",
        flush=True,
    )
    rows: list[tuple[str, str, dict[str, str], str]] = []

    def measure(when: str) -> None:
        for name, script in scripts.items():
            resolved_before = resolved_count(built.round_ids)
            figures = latencies_kept(
                wrk(base + "/", args.connections, args.duration, server.pid, script=script)
            )
            resolved = f"{resolved_before}->{resolved_count(built.round_ids)}"
            rows.append((name, when, figures, resolved))
            print(page_line(name, when, figures, resolved), flush=True)
            processes.alive_check()

    measure("before")
    if timezone.now() >= deadline:
        print("(the measures before ran past the deadline: 'before' overlaps the burst)")
    while timezone.now() < deadline:
        time.sleep(0.1)
    print(f"\nthe deadline passed (load average {load_text()}); during the burst:", flush=True)
    measure("during")
    end = time.monotonic() + BURST_TIMEOUT
    while resolved_count(built.round_ids) < len(built.round_ids):
        processes.alive_check()
        if time.monotonic() > end:
            print(f"not every round resolved within {BURST_TIMEOUT} s of the deadline")
            break
        time.sleep(0.5)
    figures = burst_figures(built.round_ids, deadline)
    print(f"\nload average now {load_text()}; {os.cpu_count()} cores")
    print(f"| {args.leagues} leagues, {args.workers} workers, check every {check_seconds} s | |")
    print("|---|---|")
    first = "-" if figures["first"] is None else f"{figures['first']:.1f} s"
    last = "-" if figures["last"] is None else f"{figures['last']:.1f} s"
    print(f"| rounds resolved | {figures['resolved']} of {figures['rounds']} |")
    print(f"| deadline -> first round resolved | {first} |")
    print(f"| deadline -> last round resolved | {last} |")
    print(f"| beat's lag (deadline -> the round's job) | {figures['lag']} |")
    print(f"| rounds resolved exactly once (1 job, 1 attempt) | {figures['once']} |")
    print("\n| page | when | requests/s | p50 | p99 | errors | rounds resolved | load average |")
    print("|---|---|---|---|---|---|---|---|")
    for name, when, f, resolved in rows:
        print(
            f"| {name} | {when} | {f['rps']} | {f['p50']} | {f['p99']} | {f['errors']} |"
            f" {resolved} | {f['load']} |"
        )
    trouble = processes.log("gunicorn").strip()
    if trouble:
        print("\ngunicorn's log (warnings and errors):\n" + trouble[-3000:])
    for n in range(args.workers):
        errors = [
            line
            for line in processes.log(f"worker{n}").splitlines()
            if "ERROR" in line or "Traceback" in line
        ]
        if errors:
            print(f"\nworker{n}'s errors:\n" + "\n".join(errors[-20:]))
    ok = figures["once"] == figures["rounds"]
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
