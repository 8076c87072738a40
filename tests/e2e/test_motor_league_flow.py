"""A Grand Prix week in Chromium, on the motor demo season (demo-f1): the organiser looks at the
creation page and his dashboard, two players give orders for both their cars, the organiser
resolves the round, everyone reads the results, the Grand Prix on its track and both standings;
the next round's orders are refused once its deadline has passed. Screenshots at 1366 and
390 px."""

from datetime import timedelta

import pytest
from django.utils import timezone

from season.demo import MOTOR_DEMO_SLUG, motor_demo_load
from season.models import Orders, Round
from tests.e2e.helpers import log_in, logged_in_pages

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def _no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_grand_prix_week_from_orders_to_standings(live_server, browser, screenshot):
    season = motor_demo_load()
    base = live_server.url
    root = f"{base}/seasons/{MOTOR_DEMO_SLUG}"
    errors = []
    pages = logged_in_pages(browser, base, ("olivia", "alice", "bob"), errors)
    olivia, alice, bob = pages["olivia"], pages["alice"], pages["bob"]
    for page in pages.values():
        page.set_viewport_size(DESKTOP)

    # The organiser: the one creation page offers both kinds of season; his dashboard.
    olivia.goto(base + "/my/new-season/")
    assert "Championships (Grands Prix)" in olivia.content()
    assert olivia.locator("#id_event option[value^='championship-']").count() >= 1
    screenshot(olivia, "motor-season-create")
    olivia.goto(root + "/organise/")
    assert "Alice Racing" in olivia.content()
    screenshot(olivia, "motor-organiser-dashboard")

    # Each player gives orders for both his cars.
    for who, risks in (("alice", ("aggressive", "safe")), ("bob", ("safe", "normal"))):
        page = pages[who]
        team = season.teams.get(owner__username=who)
        page.goto(f"{root}/teams/{team.pk}/manage/")  # My team: two cars
        assert page.locator("#roster tbody tr").count() == 2
        page.goto(f"{root}/teams/{team.pk}/orders/")
        assert "Orders close in" in page.content()
        numbers = sorted(team.seats.values_list("number", flat=True))
        for number, risk in zip(numbers, risks, strict=True):
            page.select_option(f"#id_{number}-risk", risk)
            page.select_option(f"#id_{number}-pit_strategy", "lap2_insurance")
        page.click("text=Save my orders")
        page.wait_for_load_state()
        assert "Orders saved for round 1" in page.content()
        stored = Orders.objects.get(team=team, round__season=season, round__number=1).data
        assert [stored[str(n)]["risk"] for n in numbers] == list(risks)
    alice_team = season.teams.get(owner__username="alice")
    alice.goto(f"{root}/teams/{alice_team.pk}/manage/")
    screenshot(alice, "motor-player-team")
    alice.goto(f"{root}/teams/{alice_team.pk}/orders/")
    screenshot(alice, "motor-player-orders")

    # The organiser sees who has given orders, and resolves the round now.
    olivia.goto(root + "/stages/1/")
    assert olivia.locator("#orders-status .orders-given").count() == 2
    assert olivia.locator("#orders-status .orders-missing").count() == 1
    screenshot(olivia, "motor-round-orders-status")
    olivia.click("text=Resolve now")
    olivia.click("button:has-text('Resolve')")  # the confirmation
    olivia.wait_for_load_state()
    olivia.wait_for_selector("#podium", timeout=60000)
    assert Round.objects.get(season=season, number=1).status == Round.Status.RESOLVED

    # The players read the podium, the Grand Prix on its track and both standings.
    alice.goto(root + "/stages/1/")
    assert alice.locator("#podium li").count() == 3
    screenshot(alice, "motor-round-results")
    alice.click("#grand-prix-link")
    alice.wait_for_load_state()
    assert alice.locator("#track-map svg").count() == 1
    assert alice.locator("#replay").count() == 1
    assert alice.locator("table.data").first.locator("tbody tr").count() == 12
    screenshot(alice, "motor-grand-prix")
    bob.goto(root + "/championship/standings/drivers/")
    assert bob.locator("table.data tbody tr").count() == 12
    screenshot(bob, "motor-drivers-standings")
    bob.goto(root + "/championship/standings/constructors/")
    assert bob.locator("table.data tbody tr").count() == 6
    screenshot(bob, "motor-constructors-standings")

    # On a phone: the same pages, without sideways scrolling.
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.on("pageerror", lambda error: errors.append(("phone", str(error))))
    log_in(phone, base, "alice", "alice-demo")
    for path, name in (
        (f"/teams/{alice_team.pk}/orders/", "motor-player-orders-phone"),
        ("/stages/1/", "motor-round-results-phone"),
        ("/grands-prix/1/", "motor-grand-prix-phone"),
        ("/championship/standings/drivers/", "motor-drivers-standings-phone"),
        ("/", "motor-season-phone"),
    ):
        phone.goto(root + path)
        assert _no_sideways_scroll(phone), path
        screenshot(phone, name)

    # Round 2 opened by itself; after its deadline the orders form says why it is shut.
    assert Round.objects.get(season=season, number=2).status == Round.Status.OPEN
    Round.objects.filter(season=season, number=2).update(
        orders_deadline=timezone.now() - timedelta(minutes=1)
    )
    alice.goto(f"{root}/teams/{alice_team.pk}/orders/")
    assert alice.locator("#closed").count() == 1
    assert "closed at the deadline" in alice.content()
    screenshot(alice, "motor-player-orders-closed")

    assert errors == []
