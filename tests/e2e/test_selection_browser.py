"""The selection form in Chromium (issue 30, item 3), at 1366 and 390 px: the squad's riders
with their role, price and ratings, the count the race starts, its first deadline and the
default; a refusal named on the page, a save; no sideways scroll, axe-core clean (the
conftest's browser). Screenshots in /tmp/shots/sel/."""

import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from season.models import Selection
from tests.e2e.helpers import log_in
from tests.season.builders import two_race_league

SHOTS = Path("/tmp/shots/sel")


def _shot(page, screenshot, name):
    path = screenshot(page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def _box(team, rider):
    return f'input[name=seat][value="{team.seats.get(rider=rider).pk}"]'


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1366, 390])
def test_a_player_chooses_who_starts_the_second_race(live_server, browser, screenshot, width):
    users = get_user_model().objects
    organiser = users.create_user("olivia", password="olivia-pass")
    alice = users.create_user("alice", password="alice-pass")
    bob = users.create_user("bob", password="bob-pass")
    season, _item, team, _bob_team, riders, _ = two_race_league(
        organiser=organiser, players=(alice, bob)
    )
    base = live_server.url
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(page, base, "alice", "alice-pass")

    # The team page links the selection due.
    page.goto(base + reverse("player-team", args=[season.slug, team.pk]))
    page.locator("#selections-due a").first.click()
    page.wait_for_selector("#selection-form")
    assert "Choose the 2 riders" in page.inner_text("#selection-count")
    assert page.locator("#selection-deadline").count() == 1
    default = page.inner_text("#selection-default")
    assert default.rstrip().endswith(f"{riders['leader'].name}, {riders['sprinter'].name}.")
    assert page.locator("input[name=seat]").count() == 4
    assert page.locator("input[name=seat]:checked").count() == 2
    _shot(page, screenshot, f"selection-{width}")
    width_now, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width_now <= inner

    # One more box ticked: refused, naming the rule, nothing stored.
    page.locator(_box(team, riders["rouleur"])).check()
    page.get_by_role("button", name="Save my selection").click()
    page.wait_for_selector(".errors")
    assert "Choose exactly 2 riders (3 chosen)" in page.inner_text(".errors")
    assert not Selection.objects.filter(team=team).exists()
    _shot(page, screenshot, f"selection-refused-{width}")

    # The sprinter out, the rouleur in: saved.
    page.locator(_box(team, riders["sprinter"])).uncheck()
    page.get_by_role("button", name="Save my selection").click()
    page.wait_for_selector("text=Your selection is saved.")
    stored = set(Selection.objects.filter(team=team).values_list("seat__rider_id", flat=True))
    assert stored == {riders["leader"].pk, riders["rouleur"].pk}
    _shot(page, screenshot, f"selection-saved-{width}")
    assert errors == []
