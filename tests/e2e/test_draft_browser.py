"""The draft page in Chromium (issue 17), at 1366 and 390 px: the pick clock counting down, the
Pick buttons the per-real-team limit forbids (disabled, the reason in words), the wish list
built from the board, a pick, the history; no sideways scroll, axe-core clean (the conftest's
gate). Screenshots: test-artifacts/screenshots/draft-*.png."""

import random
from datetime import timedelta

import pytest
from django.urls import reverse

from races.models import Race
from season import formation
from season.demo import demo_load
from season.models import DraftPick, Season
from tests.e2e.axe import axe_flush
from tests.e2e.helpers import log_in
from tests.season.builders import free_riders, joined, league

JUMBO = "Jumbo-Visma"


def _drafting_with_two_jumbo_riders():
    """A 176-rider draft (two riders a real team at most, two minutes a pick) where Alice is on
    turn with two riders of Jumbo-Visma already."""
    demo = demo_load()
    users = {m.user.username: m.user for m in demo.memberships.select_related("user")}
    season = league(
        organiser=users["olivia"],
        template=Race.objects.get(slug="tour-de-france-2023"),
        slug="drafting",
        roster_size=8,
        max_per_real_team=2,
    )
    Season.objects.filter(pk=season.pk).update(draft_pick_minutes=2)
    alice, _bob = joined(season, users["alice"], users["bob"])
    formation.draft_start(season=season, rng=random.Random(3))
    while True:
        status = formation.draft_status(season=season)
        jumbo_count = alice.seats.filter(rider__team__name=JUMBO).count()
        if status.on_turn == alice and jumbo_count == 2:
            return season, alice
        pool = free_riders(season)
        if status.on_turn == alice:
            rider = next(r for r in pool if r.team and r.team.name == JUMBO)
        else:
            rider = next(r for r in reversed(pool) if not r.team or r.team.name != JUMBO)
        formation.draft_pick(season=season, team=status.on_turn, pickable=rider, user=None)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_drafts_on_the_clock_with_a_wish_list_on_a_desktop_and_a_phone(
    live_server, browser, screenshot
):
    season, team = _drafting_with_two_jumbo_riders()
    base = live_server.url
    url = base + reverse("player-team", args=[season.slug, team.pk])
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(page, base, "alice", "alice-demo")
    page.goto(url)
    assert "It is your turn" in page.inner_text("#draft")

    # The clock counts down in the browser from the server's seconds.
    clock = page.locator(".draft-clock .clock-left")
    first = clock.inner_text()
    page.wait_for_timeout(2200)
    assert clock.inner_text() != first
    assert clock.inner_text().startswith(("1:", "0:"))

    # Riders of Jumbo-Visma: the Pick button disabled, the reason beside it.
    page.fill("input[name=q]", "jumbo")
    page.click(".board-filter button[type=submit]")
    page.wait_for_load_state("networkidle")
    board = page.locator("#board")
    reason = "2 riders of Jumbo-Visma already: limit 2"
    assert board.get_by_text(reason).count() == 6  # 8 riders, 2 in Alice's team
    assert board.locator("button[disabled]").count() == 6
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"the filtered board scrolls sideways at {width} px"
        axe_flush(page)
        screenshot(page, f"draft-forbidden-{width}")

    # The whole board, sorted by climbing; a wish, then a pick.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(url + "?speciality=climber")
    rows = page.locator("#board tbody tr")
    wished = rows.first.locator("td").first.inner_text()
    rows.first.get_by_role("button", name=f"Wish {wished}").click()
    page.wait_for_load_state("networkidle")
    assert wished in page.inner_text("#wishlist")
    assert f"{wished} is on your wish list." in page.inner_text("body")
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"the draft page scrolls sideways at {width} px"
        axe_flush(page)
        screenshot(page, f"draft-board-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.locator("#board tbody tr").first.get_by_role("button", name=f"Pick {wished}").click()
    page.wait_for_load_state("networkidle")
    assert f"{wished} joins your team." in page.inner_text("body")
    assert wished not in page.inner_text("#wishlist")  # a picked rider leaves the list
    history = page.inner_text("#picks")
    assert wished in history
    assert "alice" in history
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"the draft page after a pick scrolls sideways at {width} px"
        axe_flush(page)
        screenshot(page, f"draft-after-pick-{width}")
    # The clock at zero says so (the server, here without beat, makes the pick).
    last = season.draft_picks.order_by("-number").first()
    DraftPick.objects.filter(pk=last.pk).update(picked_at=last.picked_at - timedelta(seconds=117))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(url)
    page.wait_for_function(
        "document.querySelector('.draft-clock .clock-left').textContent.startsWith('Time is up')",
        timeout=10000,
    )
    assert errors == []
    context.close()
    assert browser.axe_log.checked
