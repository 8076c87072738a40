"""Shared fixtures and the markers for tests that need the real parts.

Tests marked postgres / redis / worker / browser / netns are skipped with a printed
reason where those parts are absent (a newcomer's `make test`). With GRANDTOUR_REQUIRE_REAL=1
(set by .ci/run) a missing part fails the test instead, so CI cannot pass with a real-part test
skipped.
"""

import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

from tests.factories import UserFactory

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent


def stray_extensions(root: Path = ROOT) -> list[Path]:
    """C extensions beside the engine's sources: left by the compiled build that issue 33
    removed (``make accelerate``), they would shadow the sources every test reads."""
    return sorted([*root.joinpath("engine").rglob("*.so"), *root.glob("grandtour_engine__mypyc*")])


def pytest_configure(config: pytest.Config) -> None:
    stray = stray_extensions()
    if stray:
        raise pytest.UsageError(
            f"{len(stray)} compiled extension(s) of the removed compiled build shadow the "
            f"engine's sources, e.g. {stray[0]}: delete them "
            "(find engine -name '*.so' -delete; rm -f grandtour_engine__mypyc*)"
        )


# No property test is timed (speed is measured by bench/, never by a test): on a loaded machine
# Hypothesis's default 200 ms deadline failed tests whose every example was right.
hypothesis_settings.register_profile("grandtour", deadline=None)
hypothesis_settings.load_profile("grandtour")


def _redis_answers(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), 1):
            return True
    except OSError:
        return False


def _missing_parts(item: pytest.Item) -> list[str]:
    markers = {marker.name for marker in item.iter_markers()}
    missing = []
    uses_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    redis_url = os.environ.get("REDIS_URL", "")
    if markers & {"postgres", "worker"} and not uses_postgres:
        missing.append("PostgreSQL (set DATABASE_URL=postgres://...)")
    if markers & {"redis", "worker"} and not (redis_url and _redis_answers(redis_url)):
        missing.append("Redis (set REDIS_URL=redis://127.0.0.1:6379/0)")
    if "browser" in markers and not shutil.which(CHROMIUM):
        missing.append(f"Chromium ({CHROMIUM}: apt-get install chromium)")
    if "netns" in markers:
        from tests.integration.hosts import netns_missing

        if reason := netns_missing():
            missing.append(reason)
    return missing


@pytest.fixture(autouse=True)
def _english_after_each_test():  # type: ignore[no-untyped-def]
    """A French request leaves French active in its thread (LocaleMiddleware activates, nothing
    deactivates): the next test, in the same worker, must start in the default language."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _page_cache_empty() -> None:
    """Each test starts with an empty page cache (this process's memory, config.settings_test):
    a season's state kept by an earlier test must not stand for this test's season of the same
    address (season/cache.py)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()  # never a server's (Redis's clear empties its whole database)


def pytest_runtest_setup(item: pytest.Item) -> None:
    missing = _missing_parts(item)
    if not missing:
        return
    reason = "needs " + ", ".join(missing)
    if os.environ.get("GRANDTOUR_REQUIRE_REAL") == "1":
        pytest.fail(f"{reason}: CI requires every real part", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def alice(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="alice")


@pytest.fixture
def bob(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="bob")


@pytest.fixture
def charlie(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="charlie")
