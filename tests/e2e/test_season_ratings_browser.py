"""An admin applies an edit of a rider's ratings to the running demo season, in Chromium: the
rider's page saves the edit (the season keeps its price), the action "Apply to running
seasons…" names the season and the rider's price old → new, and a player reads the entry in
the season's history. Screenshots at 1366 and 390 px."""

import re

import pytest

from riders.models import Rider
from season.models import HistoryEntry, Season
from season.rated import rated_game
from tests.e2e.helpers import log_in
from tests.factories import UserFactory

WIDTHS = {"desktop": 1366, "phone": 390}


def _shots(page, screenshot, name):
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(page, f"season-ratings-{name}-{label}")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


def _price(rider):
    season = Season.objects.get(slug="demo")
    return rated_game(season).candidate(Rider.objects.get(pk=rider.pk)).price


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_admin_applies_a_rating_edit_to_the_running_season(live_server, page, screenshot):
    from season.demo import demo_load

    demo_load()
    base = live_server.url
    pogacar = Rider.objects.get(name="Tadej Pogačar")
    admin = UserFactory(username="ada", is_staff=True, is_superuser=True)
    admin.set_password("ada-secret")
    admin.save()

    page.goto(base + "/admin/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "ada-secret")
    page.click("input[type=submit]")
    page.wait_for_url(base + "/admin/")

    # The rider's page: descending 3 -> 4 (91 for the seasons whose formation starts later).
    page.goto(base + f"/admin/riders/rider/{pogacar.pk}/change/")
    page.select_option("#id_descender", "4")
    page.click("input[name=_save]")
    page.wait_for_url(re.compile(r".*/admin/riders/rider/$"))
    assert Rider.objects.get(pk=pogacar.pk).descender == 4
    assert "keep Tadej Pogačar's former ratings: Demo Tour 2023" in page.inner_text(
        "ul.messagelist"
    )
    assert _price(pogacar) == 87

    page.goto(base + "/admin/riders/rider/?q=Poga")
    page.check(f"input[name=_selected_action][value='{pogacar.pk}']")
    page.select_option("select[name=action]", "apply_to_running_seasons")
    page.click("button[name=index]")
    page.wait_for_selector("text=Apply the riders' ratings to running seasons")
    season = Season.objects.get(slug="demo")
    block = page.locator(f"#season-{season.pk}")
    assert season.name in block.inner_text()
    assert "from round 1" in block.inner_text()
    assert "Tadej Pogačar" in block.inner_text()
    assert "87 → 91" in block.inner_text()
    _shots(page, screenshot, "confirm")

    page.click("input[name=apply]")
    page.wait_for_url(re.compile(r".*/admin/riders/rider/.*"))
    assert "Applied the riders' ratings to" in page.inner_text("ul.messagelist")
    assert _price(pogacar) == 91
    assert HistoryEntry.objects.filter(season=season).count() == 1

    # A player reads it on the season's page.
    player = page.context.browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    log_in(player, base, "alice", "alice-demo")
    player.goto(base + "/seasons/demo/")
    history = player.locator("#history")
    assert "Tadej Pogačar: price 87 → 91 (Descender 3 → 4)" in history.inner_text()
    _shots(player, screenshot, "history")
