"""Real Celery processes for the integration tests: start them, read their logs, stop them.

The embedded default runs in a temporary folder of the test's own (a SQLite file and the
filesystem broker); PostgreSQL + Redis runs against the test database on a queue of its own.
"""

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from config.celery import hooks_queue, odds_queue
from config.worker_command import NO_CHATTER

ROOT = Path(__file__).resolve().parents[2]
# What must not appear in any process's output: a traceback or an error line of Celery's log.
TROUBLE = re.compile(r"Traceback|SchedulingError|\bERROR\b|\bCRITICAL\b|database is locked")
# The tests wait for a condition; a bound only stops a process that hangs. A loaded machine (a
# full run beside other work) is several times slower than an idle one, so every bound is
# multiplied by this factor: generous, since a passing test never waits for it.
PATIENCE = float(os.environ.get("GRANDTOUR_TEST_PATIENCE", "5"))


def log_trouble(*logs: Path) -> list[str]:
    return [
        f"{log.name}: {line}"
        for log in logs
        for line in log.read_text(errors="replace").splitlines()
        if TROUBLE.search(line)
    ]


def wait_for(predicate, timeout: float, what: str, *logs: Path) -> None:  # type: ignore[no-untyped-def]
    timeout *= PATIENCE
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    tails = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in logs)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{tails}")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Processes:
    """Celery (or any) processes started with one environment, each logging to its own file."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONUNBUFFERED": "1"}
        self.folder = folder
        self.started: list[subprocess.Popen[bytes]] = []

    def start(
        self, name: str, *command: str, **extra_env: str
    ) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.folder / f"{name}.log"
        process = subprocess.Popen(
            list(command),
            cwd=ROOT,
            env={**self.env, **extra_env},
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        self.started.append(process)
        return process, log

    def celery(
        self, name: str, *args: str, **extra_env: str
    ) -> tuple[subprocess.Popen[bytes], Path]:
        return self.start(
            name,
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            *args,
            "--loglevel=INFO",
            **extra_env,
        )

    def queues(self, **extra_env: str) -> tuple[str, str]:
        """The deployment's queue and its odds' queue (config.celery.odds_queue)."""
        queue = {**self.env, **extra_env}.get("CELERY_QUEUE") or "grandtour"
        return queue, odds_queue(queue)

    def hooks_queue(self, **extra_env: str) -> str:
        """The deployment's chat webhooks' queue (config.celery.hooks_queue)."""
        return hooks_queue(self.queues(**extra_env)[0])

    def worker(
        self, name: str, *, queues: tuple[str, ...] = (), **extra_env: str
    ) -> tuple[subprocess.Popen[bytes], Path]:
        """A worker of the three queues (the resolutions' first, the odds', the webhooks'), or
        of the ``queues`` given."""
        every = (*self.queues(**extra_env), self.hooks_queue(**extra_env))
        return self.celery(
            name,
            "worker",
            "-Q",
            ",".join(queues or every),
            "--pool=solo",
            *NO_CHATTER,
            f"--hostname={name}-{os.getpid()}@%h",
            **extra_env,
        )

    def manage(self, *args: str, **extra_env: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, **extra_env},
            capture_output=True,
            text=True,
            timeout=180 * PATIENCE,
            check=False,
        )
        assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def stop(self) -> None:
        for process in self.started:
            stop(process)


class Embedded(Processes):
    """The embedded default in a folder of its own: SQLite file, filesystem broker, no server."""

    def __init__(self, folder: Path) -> None:
        self.database = folder / "db.sqlite3"
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"REDIS_URL", "CELERY_QUEUE"} and not key.startswith("PYTEST")
        }
        env.update(
            DATABASE_URL=f"sqlite:///{self.database}",
            CELERY_FILESYSTEM_DIR=str(folder / "celery"),
        )
        super().__init__(env, folder)
        for sub in ("out", "processed", "control"):
            (folder / "celery" / sub).mkdir(parents=True, exist_ok=True)

    def set_up_demo(self) -> None:
        self.manage("migrate", "--noinput")
        self.manage("load_demo", "--if-empty")

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the database as it is now (read-only: the processes own it)."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10) as db:
            return db.execute(sql, params).fetchall()

    def stage(self, number: int) -> tuple[str, int, int]:
        """(status, attempts, results) of a stage of the demo season."""
        [row] = self.query(
            "SELECT ss.status, ss.attempts, "
            "(SELECT COUNT(*) FROM races_stageresult r WHERE r.stage_id = ss.stage_id) "
            "FROM season_round ss JOIN season_season s ON s.id = ss.season_id "
            "WHERE s.slug = 'demo' AND ss.number = ?",
            number,
        )
        return row[0], row[1], row[2]

    def jobs(self, number: int) -> list[tuple[Any, ...]]:
        """(status, progress, requested_by_id) of the jobs of a stage, oldest first."""
        return self.query(
            "SELECT j.status, j.progress, j.requested_by_id FROM season_job j "
            "JOIN season_round ss ON ss.id = j.round_id WHERE ss.number = ? "
            "ORDER BY j.id",
            number,
        )


def database_url(connection: Any) -> str:
    db = connection.settings_dict
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    user = db["USER"] or "postgres"
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"
