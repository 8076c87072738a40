"""Requests per second of the busiest pages under a crowd, before and after a resolution.

    .venv/bin/python bench/load.py [--duration 20] [--connections 10,50] [--page /seasons/...]

Starts gunicorn as the README runs it in production (``gunicorn config.wsgi``, DEBUG=0, two
sync workers, whitenoise) on PostgreSQL and Redis, with the demo season after 9 stages
(auto-publish: the results are public), runs ``wrk`` on each page at each number of
connections, resolves stage 10 while the server runs, measures again, prints requests/s, p50,
p99 and errors per page, and stops everything it started.

On a machine shared with other work, requests/s says more about the others than about the
pages: each figure comes with the CPU time gunicorn and wrk spent per request and the load
average, and the run starts and ends with the ceiling of the stack on the machine as it is
(a 40 KB view through the whole middleware stack, 3,655 requests/s on this machine idle).

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/gt_cache_bench, made afresh each
run; another database is created if missing, migrated and its demo season replaced) and
REDIS_URL (default redis://127.0.0.1:6379/6) name the servers. It installs nothing: wrk is
Debian's package (``apt-get install -y wrk``).
Goal (issue 18): >= 1,000 requests/s at 50 connections with p99 <= 100 ms and no error.
"""

import argparse
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/gt_cache_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/6"
STAGES_BEFORE = 9
#: The motor demo season (demo-f1, the 1981 calendar) after this many Grands Prix.
GRANDS_PRIX_BEFORE = 5

#: The pages measured: the cycling demo's GC and a stage, the motor demo's Grand Prix page
#: (track map, replay, tables, lap chart) and its drivers' standings.
PAGES = {
    "GC": "/seasons/demo/standings/general/",
    f"stage {STAGES_BEFORE}": f"/seasons/demo/stages/{STAGES_BEFORE}/",
    f"GP {GRANDS_PRIX_BEFORE}": f"/seasons/demo-f1/grands-prix/{GRANDS_PRIX_BEFORE}/",
    "drivers": "/seasons/demo-f1/championship/standings/drivers/",
}


#: The ceiling of the stack on this machine now (issue 18 measured 3,655 requests/s on an idle
#: one): a 40 KB response of a view through the project's whole middleware stack, served by
#: the same gunicorn from a settings module of the bench's own (an extra URL, nothing else).
CEILING_PATH = "/bench-ceiling/"
CEILING_SETTINGS = """from config.settings import *  # noqa: F403
ROOT_URLCONF = "gt_bench_ceiling_urls"
"""
CEILING_URLS = """from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as project

BODY = b"<!doctype html><title>ceiling</title>" + b"x" * (40 * 1024)
urlpatterns = [path("bench-ceiling/", lambda request: HttpResponse(BODY)), *project]
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_create(url: str, *, fresh: bool | None = None) -> None:
    """Create the database if missing; made afresh if ``fresh`` (by default: the bench's own
    default database)."""
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if url == DEFAULT_DB if fresh is None else fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def production_env(
    *, db_url: str, redis_url: str, static_root: str, port: int, queue: str
) -> dict[str, str]:
    """The environment of the processes as production runs them (DEBUG=0), for a bench on
    loopback: plain HTTP, a cache key prefix and a queue of the run's own."""
    return {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",  # wrk speaks plain HTTP on loopback
        "STATIC_ROOT": static_root,
        "CELERY_QUEUE": queue,
        "CACHE_KEY_PREFIX": f"gt-bench-{port}",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) used so far by the processes of a process group (Linux)."""
    ticks = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # pgrp; utime and stime follow at 11 and 12
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wrk(
    url: str, connections: int, duration: int, server: int, *, script: str | None = None
) -> dict[str, str]:
    """One wrk run on ``url`` (or on the requests a lua ``script`` makes: its path given)."""
    threads = min(2, connections)
    server_before, wrk_before = group_cpu_seconds(server), children_cpu_seconds()
    lua = ["-s", script] if script else []
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", *lua, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    server_cpu = group_cpu_seconds(server) - server_before
    wrk_cpu = children_cpu_seconds() - wrk_before
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    total = re.search(r"(\d+) requests in", out)
    errors = int(non2xx.group(1)) if non2xx else 0
    kinds = [f"non-2xx/3xx {errors}"] if errors else []
    if socket_errors:
        # e.g. "connect 0, read 0, write 0, timeout 10" (wrk gives up on a request after 2 s)
        for kind, n in re.findall(r"(\w+) (\d+)", socket_errors.group(1)):
            if int(n):
                errors += int(n)
                kinds.append(f"{kind} {n}")
    done = int(total.group(1)) if total else 0
    return {
        # CPU milliseconds per request of gunicorn (master and workers) and of wrk itself
        "server_ms": f"{1000 * server_cpu / done:.2f}" if done else "?",
        "wrk_ms": f"{1000 * wrk_cpu / done:.2f}" if done else "?",
        "kinds": ", ".join(kinds),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "rps": rps.group(1) if rps else "?",
        "p50": p50.group(1) if p50 else "?",
        "p99": p99.group(1) if p99 else "?",
        "errors": str(errors),
        "requests": total.group(1) if total else "?",
    }


def wait_for(url: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer {url} within {seconds:.0f} s")


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def measure(
    base: str, pages: dict[str, str], connections: list[int], duration: int, server: int
) -> list:
    rows = []
    for name, path in pages.items():
        for count in connections:
            figures = wrk(base + path, count, duration, server)
            rows.append((name, path, count, figures))
            print(
                f"  {name:<10} {count:>3} conn  {figures['rps']:>9} req/s  p50 {figures['p50']:>8}"
                f"  p99 {figures['p99']:>8}  errors {figures['errors']}"
                + (f" ({figures['kinds']})" if figures["kinds"] else "")
                + f"  [{figures['requests']} requests; CPU per request: gunicorn"
                f" {figures['server_ms']} ms, wrk {figures['wrk_ms']} ms;"
                f" load average {figures['load']}]",
                flush=True,
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds per wrk run")
    parser.add_argument("--connections", default="10,50", help="comma-separated")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--page", action="append", default=[], help="another page to measure (a path)"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: `apt-get install -y wrk` (Debian's package), then run again.")
        return 2
    connections = [int(c) for c in args.connections.split(",")]
    pages = dict(PAGES)
    for path in args.page:
        pages[path] = path

    db_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("REDIS_URL", DEFAULT_REDIS)
    static_root = tempfile.mkdtemp(prefix="gt-bench-static-")
    port = free_port()
    env = production_env(
        db_url=db_url,
        redis_url=redis_url,
        static_root=static_root,
        port=port,
        queue="gt-bench-load",
    )
    Path(static_root, "gt_bench_ceiling_settings.py").write_text(CEILING_SETTINGS)
    Path(static_root, "gt_bench_ceiling_urls.py").write_text(CEILING_URLS)
    database_create(db_url)
    print(
        f"database {urlparse(db_url).path.lstrip('/')}: migrate, demo, {STAGES_BEFORE} stages,"
        f" {GRANDS_PRIX_BEFORE} Grands Prix"
    )
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "load_demo", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    resolve = ["simulate_season", "demo", "--in-process", "-v", "0"]
    resolve_motor = ["simulate_season", "demo-f1", "--in-process", "-v", "0"]
    for command, upto in ((resolve, STAGES_BEFORE), (resolve_motor, GRANDS_PRIX_BEFORE)):
        subprocess.run(
            [PYTHON, "manage.py", *command, "--stages", f"1-{upto}"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "config.wsgi",
        "--workers",
        str(args.workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--pythonpath",
        static_root,
        # No control socket (gunicorn 25+): another gunicorn of this user may hold its path.
        "--no-control-socket",
    ]
    print(" ".join(["gunicorn", *command[1:]]) + f"  (DEBUG=0, REDIS_URL={redis_url})")
    log_path = Path(static_root) / "gunicorn.log"
    log = log_path.open("wb")
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "gt_bench_ceiling_settings"},
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for path in pages.values():
            wait_for(base + path)
        print(
            "\nthe ceiling now: a 40 KB view through the whole middleware stack"
            " (3,655 req/s, p99 21 ms at 50 connections on this machine idle):"
        )
        ceiling = measure(
            base, {"ceiling": CEILING_PATH}, [max(connections)], args.duration, server.pid
        )
        print(f"\nbefore the resolution (after stage {STAGES_BEFORE}), {args.duration} s a run:")
        before = measure(base, pages, connections, args.duration, server.pid)
        number = STAGES_BEFORE + 1
        started = time.perf_counter()
        subprocess.run(
            [PYTHON, "manage.py", *resolve, "--stages", str(number)],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        took = time.perf_counter() - started
        fresh = f"after stage {number}" in fetch(base + PAGES["GC"])
        print(
            f"\nstage {number} resolved ({took:.1f} s); the GC page says 'after stage {number}': "
            f"{'yes' if fresh else 'NO (stale)'}"
        )
        gp = GRANDS_PRIX_BEFORE + 1
        subprocess.run(
            [PYTHON, "manage.py", *resolve_motor, "--stages", str(gp)],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        fresh = f"after round {gp}" in fetch(base + PAGES["drivers"])
        print(
            f"Grand Prix {gp} resolved; the drivers' standings say 'after round {gp}': "
            f"{'yes' if fresh else 'NO (stale)'}"
        )
        print(f"after the resolution, {args.duration} s a run:")
        after = measure(base, pages, connections, args.duration, server.pid)
        print("\nthe ceiling again:")
        ceiling += measure(
            base, {"ceiling": CEILING_PATH}, [max(connections)], args.duration, server.pid
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
        trouble = log_path.read_text(errors="replace").strip()
        if trouble:
            print("\ngunicorn's log (warnings and errors):\n" + trouble[-6000:])
        shutil.rmtree(static_root, ignore_errors=True)
    print(
        f"\n{os.cpu_count()} cores; load average after each run (1, 5, 15 min); CPU ms per"
        " request of gunicorn and of wrk"
    )
    print("| page | connections | requests/s | p50 | p99 | errors | CPU/req | load average |")
    print("|---|---|---|---|---|---|---|---|")
    for when, rows in (("ceiling", ceiling), ("before", before), ("after", after)):
        for _name, path, count, f in rows:
            print(
                f"| `{path}` ({when}) | {count} | {f['rps']} | {f['p50']} | {f['p99']} |"
                f" {f['errors']} | {f['server_ms']} + {f['wrk_ms']} | {f['load']} |"
            )
    return 0 if fresh else 1


if __name__ == "__main__":
    raise SystemExit(main())
