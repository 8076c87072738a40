"""No stale page across processes (issue 18): two gunicorn servers on the real PostgreSQL and
Redis keep the demo's pages (whole, for anonymous visitors) and answer them from the cache;
a stage resolved and a setting changed in a third process show on both at once."""

import os
import sys
import time
import urllib.request
import uuid

import pytest
import redis
from django.db import connection
from django.urls import reverse

from season.demo import demo_load
from season.leagues import season_settings_of, season_settings_update
from season.models import Round
from season.services import lifecycle
from season.services.resolution import round_resolve
from tests.integration.processes import Processes, database_url, free_port, log_trouble

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

GENERAL = reverse("season-standings", args=["demo", "general"])


def _get(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=20) as response:
        assert response.status == 200
        return response.read().decode()


def _resolve(season, number):
    lifecycle.rounds_force_lock(season=season, numbers=[number])
    round_resolve(round_id=Round.objects.get(season=season, number=number).pk)


def test_two_processes_show_a_change_made_in_a_third_at_once(tmp_path, settings):
    redis_url = os.environ["REDIS_URL"]
    prefix = f"test-page-processes-{uuid.uuid4().hex}"
    # This process (where the stages are resolved) and both servers share one cache.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    season = demo_load()
    _resolve(season, 1)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DATABASE_URL=database_url(connection),
        REDIS_URL=redis_url,
        CACHE_KEY_PREFIX=prefix,
        DEBUG="1",
        LOG_LEVEL="WARNING",
    )
    processes = Processes(env, tmp_path)
    bases, logs = [], []
    try:
        for name in ("a", "b"):
            port = free_port()
            _, log = processes.start(
                name,
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--workers",
                "1",
                "--bind",
                f"127.0.0.1:{port}",
                # Both servers would share (and race to create) ~/.gunicorn/gunicorn.ctl, the
                # control socket of gunicorn 25+, and log an error.
                "--no-control-socket",
            )
            bases.append(f"http://127.0.0.1:{port}")
            logs.append(log)
        for base in bases:
            _wait(base)
        stage_2 = reverse("season-stage", args=["demo", 2])
        for base in bases:
            for _ in range(3):
                assert "after stage 1" in _get(base, GENERAL)
        kept = redis.Redis.from_url(redis_url).keys(f"{prefix}:*gt:response:*")
        assert kept, "no page was kept whole"

        _resolve(season, 2)
        for base in bases:
            assert "after stage 2" in _get(base, GENERAL)
            assert "Results</h2>" in _get(base, stage_2)
            assert "after stage 2" in _get(base, GENERAL)  # kept again, at the new version

        # The organiser stops auto-publishing: the stage's results leave both servers' pages.
        current = season_settings_of(season)
        season_settings_update(
            season=season,
            settings=type(current)(**{**current.__dict__, "auto_publish": False}),
        )
        for base in bases:
            assert "Results</h2>" not in _get(base, stage_2)
            assert "after stage 2" not in _get(base, GENERAL)
        assert log_trouble(*logs) == []
    finally:
        processes.stop()
        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def _wait(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            _get(base, "/")
            return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"{base} did not answer within 60 s")
