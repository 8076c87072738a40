"""Comments and notifications in Chromium (issue 17): a player posts on a stage with htmx (the
section is swapped in place, the text escaped, line breaks kept) and without JavaScript (the
form posts and the page comes back); the organiser hides a comment; the menu's bell counts the
player's notices and the notifications page opens one. axe-core checks every page (the
conftest's gate); screenshots at 1366 and 390 px."""

from datetime import timedelta

import pytest
from django.urls import reverse

from season.demo import demo_load
from season.models import Comment
from season.notifications import REMINDER_BEFORE, notifications_send
from tests.e2e.helpers import log_in

WIDTHS = (1366, 390)


def shots(page, screenshot, name):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{name} at {width} px scrolls sideways: {scroll} > {inner}"
        screenshot(page, f"community-{name}-{width}")
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_comments_and_the_bell_in_the_browser(live_server, browser, screenshot):
    season = demo_load()
    # The notices of a time before any reminder is due (stage 1's deadline less the earliest
    # lead a player may choose, less an hour): the demo's deadline is tomorrow evening, so from
    # that hour of the evening on a plain send also reminds her, and the bell said 2.
    deadline = season.rounds.get(number=1).orders_deadline
    notifications_send(now=deadline - REMINDER_BEFORE - timedelta(hours=1))
    base = live_server.url
    stage_1 = base + reverse("season-stage", args=[season.slug, 1])
    errors: list[str] = []

    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}) for _ in range(4)]
    alice = contexts[0].new_page()
    alice.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(alice, base, "alice", "alice-demo")
    # The bell counts her notice (orders open for stage 1).
    assert alice.locator(".bell .bell-count").inner_text() == "1"
    alice.goto(stage_1)
    alice.fill("#comments textarea", "<b>Attack</b> on the climb\nsecond line")
    alice.click(".comment-form button[type=submit]")
    alice.wait_for_selector(".comment-text")
    text = alice.locator(".comment-text").inner_html()
    assert "&lt;b&gt;Attack&lt;/b&gt; on the climb<br>second line" in text
    assert alice.url == stage_1  # swapped in place by htmx, no new page
    assert alice.locator("#comments textarea").input_value() == ""
    # A refused comment keeps the text and says why, in place.
    alice.fill("#comments textarea", "x" * 1999 + "\u202e")
    alice.click(".comment-form button[type=submit]")
    alice.wait_for_selector("#comments .error")
    assert "U+202E" in alice.locator("#comments .error").inner_text()
    shots(alice, screenshot, "stage-player")

    # Without htmx (no JavaScript): the form posts itself (form.submit() passes no submit event
    # to htmx) and the page comes back with the comment. (A context with JavaScript disabled
    # cannot run the axe-core gate.)
    bob = contexts[3].new_page()
    log_in(bob, base, "bob", "bob-demo")
    bob.goto(stage_1)
    bob.fill("#comments textarea", "Rude words")
    bob.locator(".comment-form").evaluate("form => form.submit()")
    bob.wait_for_url(stage_1 + "#comments")
    assert "Rude words" in bob.locator("#comments").inner_text()

    # The organiser hides it; a visitor sees that it was hidden.
    olivia = contexts[1].new_page()
    log_in(olivia, base, "olivia", "olivia-demo")
    olivia.goto(stage_1)
    rude = Comment.objects.get(text="Rude words")
    olivia.click(f"#comment-{rude.pk} button")
    olivia.wait_for_selector(f"#comment-{rude.pk} em")
    shots(olivia, screenshot, "stage-organiser")
    visitor = contexts[2].new_page()
    visitor.goto(stage_1)
    comments = visitor.locator("#comments").inner_text()
    assert "comment hidden by the organiser" in comments
    assert "Rude words" not in comments
    shots(visitor, screenshot, "stage-visitor")

    # The notifications page opens the notice: her orders form, and the bell is quiet.
    alice.click(".bell")
    shots(alice, screenshot, "notifications")
    alice.click(".notice button[type=submit] >> nth=0")
    alice.wait_for_url("**/orders/")
    assert alice.locator(".bell .bell-count").count() == 0
    for context in contexts:
        context.close()
    assert not errors, errors
    assert browser.axe_log.checked
