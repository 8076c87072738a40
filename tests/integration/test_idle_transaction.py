"""A worker that vanishes in the middle of a transaction (its host lost: power, network) never
tells PostgreSQL; its session would keep the rows it locked until TCP gives up, hours later. The
app's sessions ask the server to end them once idle in a transaction for
DB_IDLE_IN_TRANSACTION_SECONDS (config/settings.py), so another worker can lock those rows.

Here the vanished worker is a process of the app's settings that locks a row and is frozen with
SIGSTOP (alive, silent, its connection open); tests/integration/test_multihost.py loses a whole
host in the middle of a resolution."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import OperationalError, connection, transaction

from season.models import Round
from tests.integration.processes import PATIENCE, database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
LOCK_AND_FREEZE = """
import os, signal, django
django.setup()
from django.db import transaction
from season.models import Round
with transaction.atomic():
    Round.objects.select_for_update().get(pk={pk})
    print("locked", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def vanished_worker(pk: int, idle_seconds: str) -> subprocess.Popen[str]:
    """A process of the app's settings that locks round ``pk`` and freezes inside the
    transaction; returned once the lock is taken."""
    process = subprocess.Popen(
        [sys.executable, "-c", LOCK_AND_FREEZE.format(pk=pk)],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(connection),
            "DB_IDLE_IN_TRANSACTION_SECONDS": idle_seconds,
        },
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "locked"
    return process


def lock_within(pk: int, seconds: float) -> float | None:
    """Seconds until this process locks round ``pk`` (never waiting on the lock: NOWAIT,
    tried again), or None if it could not within ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            with transaction.atomic():
                Round.objects.select_for_update(nowait=True).get(pk=pk)
            return time.monotonic() - start
        except OperationalError:  # "could not obtain lock on row"
            time.sleep(0.2)
    return None


@pytest.fixture
def round_pk():
    from season.demo import demo_load

    return demo_load().rounds.get(number=1).pk


@pytest.mark.parametrize(("idle_seconds", "freed"), [("2", True), ("0", False)])
def test_a_worker_frozen_inside_a_transaction_loses_its_locks_after_the_idle_limit(
    round_pk, idle_seconds, freed
):
    frozen = vanished_worker(round_pk, idle_seconds)
    try:
        assert lock_within(round_pk, 0.5) is None  # held: the frozen worker has it
        waited = lock_within(round_pk, 30 * PATIENCE if freed else 6)
        if freed:
            assert waited is not None, "the server did not end the idle session"
            assert frozen.poll() is None  # still frozen: the server ended its session
        else:
            assert waited is None  # 0 turns the limit off: the lock stays with the session
    finally:
        frozen.send_signal(signal.SIGKILL)
        frozen.wait(timeout=10)
