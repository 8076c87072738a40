"""A whole week of a league in Chromium: an organiser sets up a season, two players join, pick
their riders and give orders; the organiser resolves the stage; the players read the results."""

import re

import pytest

from races.models import Race, StageResult
from riders.models import Rider
from season.demo import demo_load
from season.formation import rider_price
from season.models import Season, SeasonTeam

ROSTER = 4


def log_in(page, base, username, password):
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form[action='/accounts/login/'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/$"))


def cheap_riders(count, *, exclude=()):
    """`count` riders of distinct real teams, cheap enough for any budget."""
    chosen, teams = [], set()
    for rider in sorted(Rider.objects.exclude(pk__in=exclude), key=rider_price):
        if rider.team_id not in teams:
            chosen.append(rider)
            teams.add(rider.team_id)
        if len(chosen) == count:
            return chosen
    raise AssertionError("not enough riders")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_league_week_from_creation_to_results(live_server, browser, screenshot):
    demo_load()
    base = live_server.url
    contexts = {}
    pages = {}
    errors = []
    for who in ("olivia", "alice", "bob"):
        contexts[who] = browser.new_context(viewport={"width": 1280, "height": 900})
        pages[who] = contexts[who].new_page()
        pages[who].on(
            "console",
            lambda msg, who=who: errors.append((who, msg.text)) if msg.type == "error" else None,
        )
        pages[who].on("pageerror", lambda error, who=who: errors.append((who, str(error))))
        log_in(pages[who], base, who, f"{who}-demo")
    olivia, alice, bob = pages["olivia"], pages["alice"], pages["bob"]

    # The organiser creates a season from the real Tour, teams picked within a budget.
    olivia.goto(base + "/my/new-season/")
    olivia.fill("#id_name", "Browser League")
    olivia.fill("#id_slug", "browser-league")
    template = Race.objects.get(slug="tour-de-france-2023")
    olivia.select_option("#id_template", str(template.pk))
    olivia.select_option("#id_formation_mode", "budget")
    olivia.fill("#id_roster_size", str(ROSTER))
    olivia.fill("#id_first_deadline", "2099-07-01T20:00")
    screenshot(olivia, "organiser-create-season")
    olivia.click("form[action='/my/new-season/'] button[type=submit]")
    olivia.wait_for_url(base + "/seasons/browser-league/organise/")
    season = Season.objects.get(slug="browser-league")
    invite = f"/join/{season.invite_code}/"
    assert invite in olivia.content()
    screenshot(olivia, "organiser-dashboard")

    # Two players follow the invitation and pick their riders.
    taken = []
    for name, page in (("Alice Racing", alice), ("Bob Wheelers", bob)):
        page.goto(base + invite)
        page.fill("#id_team_name", name)
        page.click(f"form[action='{invite}'] button[type=submit]")
        page.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
        riders = cheap_riders(ROSTER, exclude=taken)
        taken += [r.pk for r in riders]
        for rider in riders:
            page.check(f"#rider-{rider.pk}")
        page.click("#budget button[type=submit]")
        page.wait_for_load_state()
        assert page.locator("#roster tbody tr").count() == ROSTER, name
    screenshot(alice, "player-team")

    # The organiser opens the first stage's orders.
    olivia.goto(base + "/seasons/browser-league/stages/1/")
    olivia.click("text=Open orders")
    olivia.wait_for_load_state()
    assert "Open for orders" in olivia.content()

    # Each player gives orders: the cheapest rider leads, the others ride for him.
    for name, page in (("Alice Racing", alice), ("Bob Wheelers", bob)):
        team = SeasonTeam.objects.get(season=season, name=name)
        page.goto(base + f"/seasons/browser-league/teams/{team.pk}/orders/")
        assert "Orders close in" in page.content()
        members = list(team.members.order_by("bib", "pk"))
        for index, member in enumerate(members):
            role = "gc_leader" if index == 0 else "domestique"
            page.select_option(f"#id_{member.rider_id}-role", role)
        page.click("text=Save my orders")
        page.wait_for_load_state()
        assert "Last saved" in page.content(), name
    screenshot(bob, "player-orders")

    # The organiser resolves the stage now; the job finishes.
    olivia.goto(base + "/seasons/browser-league/stages/1/")
    olivia.click("text=Resolve now")
    olivia.wait_for_load_state()
    olivia.wait_for_selector("table.data tbody tr", timeout=30000)
    assert "Resolved" in olivia.content()

    # The players see the results and the general classification.
    alice.goto(base + "/seasons/browser-league/stages/1/")
    results = alice.locator("table.data tbody tr")
    assert results.count() == 2 * ROSTER
    assert "Alice Racing" in alice.content()
    screenshot(alice, "stage-results")
    bob.goto(base + "/seasons/browser-league/standings/general/")
    # Riders drawn by the abandon roll or cut for time leave the GC: the seed is drawn fresh.
    still_racing = StageResult.objects.filter(stage__race=season.race, status="finished").count()
    assert bob.locator("table.data tbody tr").count() == still_racing
    assert "Bob Wheelers" in bob.content()
    screenshot(bob, "general-classification")

    # Stage 2 opened by itself; once the organiser locks it, the orders form says why it is shut.
    team = SeasonTeam.objects.get(season=season, name="Alice Racing")
    orders_url = base + f"/seasons/browser-league/teams/{team.pk}/orders/"
    alice.goto(orders_url)
    assert "Orders close in" in alice.content()
    olivia.goto(base + "/seasons/browser-league/stages/2/")
    olivia.click("text=Lock orders")
    olivia.wait_for_load_state()
    alice.goto(orders_url)
    assert alice.locator("#closed").count() == 1
    screenshot(alice, "player-orders-closed")

    for context in contexts.values():
        context.close()
    assert errors == []
