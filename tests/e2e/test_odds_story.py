"""Issue 19's whole story in Chromium, with a real worker on PostgreSQL and Redis, for a stage
of the demo and a Grand Prix of the motor demo: a player opens an open round, asks for its
odds, watches the bar fill while the worker sends the chunks back, and reads the table; he
gives his orders; after the deadline the worker resolves the round, the page reveals the seed
and the nonces, Verify turns green in the browser, and the round's JSON downloaded from the
page replays to the same SHA-256 on the command line (``python -m engine replay``, no
database)."""

import json
import re
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from season.demo import demo_load, motor_demo_load
from season.models import DiceLog, Orders, Round, Season
from season.tasks import rounds_lock_due_task
from tests.e2e.helpers import logged_in_pages
from tests.integration.processes import ROOT, log_trouble, wait_for
from tests.integration.test_odds_workers import _ready, redis_workers  # noqa: F401 (fixture)

WIDTHS = (1366, 390)
#: Per game: the demo season, its runs (chunks of 5: a bar with steps), the link to the odds, the
#: table's rows and the player's own, its columns.
GAMES = {
    "stage": {
        "load": demo_load,
        "runs": 40,
        "link": "Odds of this stage",
        "rows": 176,
        "mine": 8,
        "columns": ("Win", "Podium", "Top 10", "Leads after the stage", "Abandons"),
    },
    "grand-prix": {
        "load": motor_demo_load,
        "runs": 10,
        "link": "Odds of this round",
        "rows": 12,
        "mine": 2,
        "columns": (
            "Win",
            "Podium",
            "Points finish",
            "Leads the championship",
            "Retires",
            "Expected place",
        ),
    },
}


def _seen_progress(page, table_timeout: float) -> list[int]:
    """The values the progress bar showed until the table replaced it."""
    seen = []
    deadline = time.monotonic() + table_timeout
    # One read in the page: htmx may swap the bar for the table between two separate reads.
    read = """() => document.querySelector('#odds-table') ? 'table'
        : document.querySelector('#odds-progress')?.getAttribute('value') ?? null"""
    while time.monotonic() < deadline:
        value = page.evaluate(read)
        if value == "table":
            return seen
        if value is not None and (not seen or int(value) != seen[-1]):
            seen.append(int(value))
        page.wait_for_timeout(200)
    pytest.fail(f"no odds table after {table_timeout:.0f} s (bar values seen: {seen})")


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_player_reads_the_odds_then_verifies_the_dice_of_the_resolved_round(
    game,
    live_server,
    browser,
    screenshot,
    redis_workers,  # noqa: F811 (the fixture imported above)
    tmp_path,
):
    story = GAMES[game]
    runs = story["runs"]
    season = story["load"]()
    Season.objects.filter(pk=season.pk).update(
        rule_settings=season.rules.to_data() | {"odds_runs": runs}, auto_publish=True
    )
    _worker, log = redis_workers.worker("story")
    wait_for(lambda: _ready(log), 90, "the worker", log)
    base = live_server.url
    errors = []
    alice = logged_in_pages(browser, base, ("alice",), errors)["alice"]
    stage_url = f"{base}/seasons/{season.slug}/stages/1/"

    # An open stage: its commitment is shown before any orders; the player asks for the odds.
    alice.goto(stage_url)
    commitment = alice.locator("#dice-commitment code").inner_text()
    assert len(commitment) == 64
    alice.click(f"text={story['link']}")
    alice.click("#odds-ask button")
    alice.wait_for_selector("#odds-progress, #odds-table")
    seen = _seen_progress(alice, table_timeout=600)
    assert seen, "the bar was never shown"
    assert seen[0] < 100
    assert seen == sorted(seen), f"the bar went back: {seen}"
    summary = alice.locator("#odds-summary").inner_text()
    assert f"Over {runs} runs." in summary
    rows = alice.locator("#odds-table tbody tr")
    assert rows.count() == story["rows"]
    # The player's own riders or cars are marked in the table.
    assert alice.locator("#odds-table tbody tr.mine").count() == story["mine"]
    header = alice.locator("#odds-table thead").inner_text()
    for column in story["columns"]:
        assert column in header
    # Each chance with the half-width of its 95 % interval, the interval spelled out.
    cells = alice.locator("#odds-table tbody tr td:nth-child(4)").all_inner_texts()
    chance = re.compile(r"^([\d.]+) %\s*± ([\d.]+)")
    assert all(chance.match(text.strip()) for text in cells), cells[:3]
    wins = sum(float(chance.match(text.strip()).group(1)) for text in cells)
    assert wins == pytest.approx(100.0, abs=0.5)
    title = alice.locator("#odds-table tbody tr td:nth-child(4) .chance").first.get_attribute(
        "title"
    )
    assert re.fullmatch(r"95 % interval: [\d.]+ % to [\d.]+ %", title or ""), title
    assert "The widest 95 % interval is ±" in summary
    for width in WIDTHS:
        alice.set_viewport_size({"width": width, "height": 900})
        screenshot(alice, f"odds-story-{game}-table-{width}")
        assert alice.evaluate("document.documentElement.scrollWidth") <= width

    # The player gives his orders (a nonce of his own), then the deadline passes and the beat's
    # task locks the stage; the worker resolves it.
    alice.set_viewport_size({"width": 1366, "height": 900})
    team = season.teams.get(owner__username="alice")
    alice.goto(f"{base}/seasons/{season.slug}/teams/{team.pk}/orders/")
    alice.click("text=Save my orders")
    alice.wait_for_load_state()
    assert Orders.objects.filter(team=team, round__number=1).exclude(nonce="").exists()
    Round.objects.filter(season=season, number=1).update(
        orders_deadline=timezone.now() - timedelta(seconds=1)
    )
    rounds_lock_due_task.delay()
    wait_for(
        lambda: DiceLog.objects.filter(round__season=season, round__number=1).exists(),
        300,
        "the stage resolved by the worker",
        log,
    )

    # The page reveals the seed and the nonces; Verify turns green.
    alice.goto(stage_url)
    panel = alice.locator("#dice-reveal")
    panel.locator("summary").click()
    assert panel.get_attribute("data-commitment") == commitment
    assert team.name in panel.inner_text()
    alice.click("#verify-button")
    alice.wait_for_selector("#verify-result.verified")
    assert panel.get_attribute("data-verified") == "yes"
    assert "check out" in alice.locator("#verify-result").inner_text()
    page_sha = alice.locator("#dice-sha256").inner_text()
    for width in WIDTHS:
        alice.set_viewport_size({"width": width, "height": 900})
        screenshot(alice, f"odds-story-{game}-verified-{width}")
        assert alice.evaluate("document.documentElement.scrollWidth") <= width

    # The round's JSON, downloaded from the page, replays to the same hash with no database.
    with alice.expect_download() as download:
        alice.click("#dice-reveal a[download]")
    path = Path(tmp_path) / download.value.suggested_filename
    download.value.save_as(path)
    assert json.loads(path.read_text())["commitment"] == commitment
    replay = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert page_sha in replay.stdout
    assert errors == []
    assert log_trouble(log) == []
