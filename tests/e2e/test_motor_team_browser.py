"""The one team page with cars in Chromium (issue 27), at 1366 and 390 px: a draft (the board of
free cars with its Pick and Wish buttons, the wish list, the clock, a pick and its history) and
a budget pick (two cars ticked); no sideways scroll, axe-core clean (the conftest's browser)."""

import random
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from season import formation
from season.models import Season
from tests.e2e.axe import axe_flush
from tests.e2e.helpers import log_in
from tests.season.motor_builders import joined, motor_league

#: Where the lead looks at the team page's screenshots.
SHOTS = Path("/work/shots")


def _page_width(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _shot(page, screenshot, name):
    path = screenshot(page, name)
    if SHOTS.is_dir():
        shutil.copy(path, SHOTS / path.name)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_drafts_his_cars_with_a_wish_list_on_a_desktop_and_a_phone(
    live_server, browser, screenshot
):
    users = get_user_model().objects
    organiser = users.create_user("olivia", password="olivia-pass")
    players = [users.create_user(name, password=f"{name}-pass") for name in ("alice", "bob")]
    season = motor_league(
        organiser=organiser, formation_mode=Season.FormationMode.DRAFT, draft_pick_minutes=5
    )
    joined(season, *players)
    formation.draft_start(season=season, rng=random.Random(1))
    team = formation.draft_status(season=season).on_turn
    base = live_server.url
    url = base + reverse("player-team", args=[season.slug, team.pk])
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(page, base, team.owner.username, f"{team.owner.username}-pass")
    page.goto(url)
    assert "It is your turn: pick a car." in page.inner_text("#draft")
    assert page.locator(".draft-clock").count() == 1

    # A wish from the board, then the pick of that car.
    row = page.locator("#board tbody tr").first
    wished = row.locator("td").first.inner_text()
    row.get_by_role("button", name=f"Wish {wished}").click()
    page.wait_for_load_state("networkidle")
    assert wished in page.inner_text("#wishlist")
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = _page_width(page)
        assert scroll <= inner, f"the team page of a draft of cars scrolls sideways at {width} px"
        axe_flush(page)
        _shot(page, screenshot, f"team-motor-draft-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.locator("#board tbody tr").first.get_by_role("button", name=f"Pick {wished}").click()
    page.wait_for_load_state("networkidle")
    assert f"{wished} joins your team." in page.inner_text("body")
    assert wished in page.inner_text("#roster")
    assert wished in page.inner_text("#picks")
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = _page_width(page)
        assert scroll <= inner, f"the team page after a pick scrolls sideways at {width} px"
        axe_flush(page)
        _shot(page, screenshot, f"team-motor-after-pick-{width}")
    assert errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_ticks_his_two_cars_within_the_budget(live_server, browser, screenshot):
    users = get_user_model().objects
    organiser = users.create_user("olivia", password="olivia-pass")
    player = users.create_user("alice", password="alice-pass")
    season = motor_league(organiser=organiser, budget=12)
    (team,) = joined(season, player)
    base = live_server.url
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    log_in(page, base, "alice", "alice-pass")
    page.goto(base + reverse("player-team", args=[season.slug, team.pk]))
    first, second = page.locator("#budget-pool input[name=picks]").all()[:2]
    first.check()
    second.check()
    page.wait_for_function(
        "document.querySelector('#budget-summary').textContent.includes('2 of 2 cars')"
    )
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = _page_width(page)
        assert scroll <= inner, f"the budget pick of cars scrolls sideways at {width} px"
        axe_flush(page)
        _shot(page, screenshot, f"team-motor-budget-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.click("#budget button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "Your team is ready." in page.inner_text("body")
    assert page.locator("#roster tbody tr").count() == 2
    assert team.seats.count() == 2
