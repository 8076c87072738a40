"""Issue 17 in Chromium, at 1366 px and 390 px: an invitation read while logged out, login to My
seasons, the orders page with its rules, profile, ratings and "not saved yet", who has given
orders, "resolve now" confirmed, the rules page with a code's anchor, the organiser's copy
button, and an error page in the site's layout. No page scrolls sideways; no console error."""

import re

import pytest

from season.demo import demo_load
from season.models import Season
from tests.e2e.helpers import log_in
from tests.season.builders import league

WIDTHS = (1366, 390)


def check(page, name, screenshot, errors, *, allow=()):
    """The page at both widths: no sideways scroll, no console error; a screenshot of each."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{name} at {width} px scrolls sideways ({scroll} > {inner})"
        screenshot(page, f"ux-{name}-{width}")
    unexpected = [e for e in errors if not any(a in e for a in allow)]
    assert not unexpected, f"{name}: {unexpected}"
    errors.clear()


def new_page(browser, errors):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_league_as_issue_17_asks_it(live_server, browser, screenshot):
    season = demo_load()
    base = live_server.url
    errors: list[str] = []

    # A visitor opens the invitation: the season is explained before the login.
    visitor_context, visitor = new_page(browser, errors)
    # (The demo's teams are formed: the page also says that joining is closed.)
    visitor.goto(base + f"/join/{season.invite_code}/")
    assert "invites you to play this season" in visitor.content()
    assert visitor.locator("a:has-text('How it works')").count() == 1
    check(visitor, "invitation-logged-out", screenshot, errors)

    # An unknown address: the 404 page in the site's layout, with a way back.
    visitor.goto(base + "/no/such/page/")
    assert visitor.locator(".site-header").count() == 1
    assert "Back to the seasons" in visitor.content()
    check(visitor, "404", screenshot, errors, allow=("404",))
    visitor_context.close()

    # Alice logs in and lands on her seasons; she opens her orders.
    alice_context, alice = new_page(browser, errors)
    log_in(alice, base, "alice", "alice-demo")
    assert alice.url.endswith("/my/")
    check(alice, "my-seasons", screenshot, errors)
    team = season.teams.get(owner__username="alice")
    alice.goto(base + f"/seasons/demo/teams/{team.pk}/orders/")
    assert alice.locator("#orders-profile svg >> visible=true").count() == 1
    assert alice.locator("#ratings table tbody tr").count() == team.seats.count()
    hint = alice.locator("#unsaved")
    assert not hint.is_visible()
    first = team.seats.order_by("number", "pk").first()
    alice.select_option(f"#id_{first.rider_id}-role", "gc_leader")
    assert hint.is_visible()
    check(alice, "orders-not-saved", screenshot, errors)
    alice.click("text=Save my orders")
    alice.wait_for_load_state()
    assert "Last saved" in alice.content()
    assert not alice.locator("#unsaved").is_visible()

    # The rules page, from the orders form.
    alice.click("#rules-link")
    alice.wait_for_load_state()
    assert "What the dice decide" in alice.content()
    check(alice, "rules", screenshot, errors)
    alice_context.close()

    # Olivia sees who has given orders, is asked before resolving, and resolves.
    olivia_context, olivia = new_page(browser, errors)
    olivia_context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(olivia, base, "olivia", "olivia-demo")
    olivia.goto(base + "/seasons/demo/organise/")
    assert olivia.locator("#orders-status .orders-given").count() == 1
    assert olivia.locator("#orders-status .orders-missing").count() == 2
    check(olivia, "organiser-dashboard", screenshot, errors)
    # A season still taking players: its link, the copy button and the invitation by name.
    league(organiser=season.organiser, slug="open-league", template=season.event.template)
    olivia.goto(base + "/seasons/open-league/organise/")
    olivia.click("button[data-copy='invite-link']")
    olivia.wait_for_function("document.querySelector('[data-copy]').textContent === 'Copied'")
    copied = olivia.evaluate("navigator.clipboard.readText()")
    assert copied.endswith("/join/" + Season.objects.get(slug="open-league").invite_code + "/")
    check(olivia, "organiser-invite", screenshot, errors)
    olivia.goto(base + "/seasons/demo/stages/1/")
    assert olivia.locator("#orders-status").count() == 1
    check(olivia, "stage-before", screenshot, errors)
    olivia.click("text=Resolve now")
    olivia.wait_for_load_state()
    question = olivia.locator("h1").inner_text()
    assert re.match(r"Resolve stage 1 now, .+ before its deadline\?", question), question
    assert "1 of 3 teams have given orders." in olivia.content()
    check(olivia, "confirm-resolve", screenshot, errors)
    olivia.click("button:has-text('Resolve stage 1 now')")
    olivia.wait_for_selector("table.data tbody tr", timeout=60000)
    assert olivia.content().count("Stage 1 is resolved: its results are below.") == 1
    check(olivia, "stage-resolved", screenshot, errors)

    # A rule code of the dice log leads to its line on the rules page.
    olivia.goto(base + "/seasons/demo/stages/1/dice/")
    code = olivia.locator("a.rule-code").first
    title = code.locator("abbr").get_attribute("title")
    assert title
    check(olivia, "dice", screenshot, errors)
    code.click()
    olivia.wait_for_load_state()
    anchor = olivia.url.split("#", 1)[1]
    assert olivia.locator(f"[id='{anchor}'] + dd").inner_text() == title
    olivia_context.close()
