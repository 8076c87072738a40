"""A league week in Chromium as issue 17's "Done when" tells it, at 1366 px and 390 px: an
organiser creates a season drafted with a pick clock; a newcomer reads the invitation while
logged out, signs up and joins; a player joins; the draft runs in turns, one pick made by the
clock; the newcomer gives orders with the rules page open beside them and comments on the
stage; the organiser sees who has given orders, confirms "resolve" and publishes; an anonymous
visitor sees nothing of the results before publication and everything after. Every page: no
sideways scroll, no console error, no axe-core violation (the conftest's gate); screenshots
under test-artifacts/screenshots/week-*.png."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from races.models import Race, StageResult
from season import formation
from season.demo import demo_load
from season.models import DraftPick, PickSource, Season, SeasonTeam
from season.services.draft_clock import draft_clock_pick
from tests.e2e.helpers import check_widths, log_in, new_page

ROSTER = 3
PICK_MINUTES = 10


def check(page, name, screenshot, errors):
    check_widths(page, f"week-{name}", screenshot, errors)


def season_create(page, base, *, slug):
    """The organiser's form: the real Tour, a draft in turns with a pick clock, results kept
    until published."""
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", "Week League")
    page.fill("#id_slug", slug)
    race = Race.objects.get(slug="tour-de-france-2023")
    page.select_option("#id_event", f"race-{race.pk}")
    page.select_option("#id_ruleset", "moreno")
    page.select_option("#id_formation_mode", "draft")
    page.select_option("#id_peloton", "players")  # a week of the players' riders only
    page.fill("#id_roster_size", str(ROSTER))
    page.fill("#id_draft_pick_minutes", str(PICK_MINUTES))
    page.set_checked("#id_auto_publish", False)
    first = timezone.localtime(timezone.now() + timedelta(days=30))
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + f"/seasons/{slug}/organise/")
    return Season.objects.get(slug=slug)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_league_week_in_the_browser(live_server, browser, screenshot):
    demo_load()
    base = live_server.url
    errors: list[str] = []
    slug = "week"

    olivia = new_page(browser, errors)
    log_in(olivia, base, "olivia", "olivia-demo")
    season = season_create(olivia, base, slug=slug)
    invite = f"/join/{season.invite_code}/"

    # A newcomer opens the invitation logged out: the season is explained before any login.
    dora = new_page(browser, errors)
    dora.goto(base + invite)
    assert "invites you to play this season" in dora.content()
    assert "Week League" in dora.content()
    check(dora, "invitation-logged-out", screenshot, errors)
    dora.click("a:has-text('Sign up to join')")
    dora.wait_for_url(re.compile(r".*/accounts/signup/.*"))
    dora.fill("#id_username", "dora")
    dora.fill("#id_email", "dora@example.org")
    dora.fill("#id_password1", "a long pass phrase 42")
    dora.fill("#id_password2", "a long pass phrase 42")
    check(dora, "signup", screenshot, errors)
    dora.click("form[action='/accounts/signup/'] button[type=submit]")
    dora.wait_for_url(base + invite)  # back to the invitation, logged in
    dora.fill("#id_team_name", "Dora Pédale")
    dora.click(f"form[action='{invite}'] button[type=submit]")
    dora.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
    check(dora, "joined-waiting-for-draft", screenshot, errors)

    alice = new_page(browser, errors)
    log_in(alice, base, "alice", "alice-demo")
    alice.goto(base + invite)
    alice.fill("#id_team_name", "Alice Racing")
    alice.click(f"form[action='{invite}'] button[type=submit]")
    alice.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
    teams = {t.owner.username: t for t in season.teams.select_related("owner")}
    assert set(teams) == {"dora", "alice"}
    players = {"dora": dora, "alice": alice}

    # The organiser starts the draft, asked first.
    olivia.goto(base + f"/seasons/{slug}/organise/")
    with olivia.expect_navigation():
        olivia.click("a:has-text('Start the draft')")
    check(olivia, "confirm-draft", screenshot, errors)
    olivia.click(".confirm form.actions button[type=submit]")
    olivia.wait_for_url(base + f"/seasons/{slug}/organise/")
    assert "The draft has started" in olivia.content()

    # The draft in turns, with the clock: the team on turn sees its time left and picks; the
    # third pick is the clock's (its time ran out, as beat's check finds it).
    for pick in range(1, 2 * ROSTER + 1):
        on_turn = formation.draft_status(season=Season.objects.get(pk=season.pk)).on_turn
        who = on_turn.owner.username
        page = players[who]
        page.goto(base + f"/seasons/{slug}/teams/{on_turn.pk}/manage/")
        assert page.locator("[data-pick-clock]").count() == 1, pick
        assert "It is your turn: pick a rider." in page.content()
        if pick == 1:
            check(page, "draft-on-turn", screenshot, errors)
        if pick == 3:
            # The team's time runs out: its turn began PICK_MINUTES and a bit ago (the picks
            # before it moved back as much), and beat's check makes the pick.
            DraftPick.objects.filter(season=season).update(
                picked_at=F("picked_at") - timedelta(minutes=PICK_MINUTES, seconds=5)
            )
            assert draft_clock_pick(season=Season.objects.get(pk=season.pk))
            continue
        with page.expect_navigation():
            page.locator("#board button[name=pick]:not([disabled])").first.click()
        assert DraftPick.objects.filter(season=season).count() == pick
    assert DraftPick.objects.filter(season=season).count() == 2 * ROSTER
    assert DraftPick.objects.filter(season=season, source=PickSource.CLOCK).count() == 1
    dora.goto(base + f"/seasons/{slug}/teams/{teams['dora'].pk}/manage/")
    assert "The draft is over." in dora.content()
    assert dora.locator("#picks .badge.auto").count() == 1  # the clock's pick, marked
    check(dora, "draft-over", screenshot, errors)

    # Stage 1 opened with the last pick. Dora gives her orders with the rules open beside them.
    orders_url = base + f"/seasons/{slug}/teams/{teams['dora'].pk}/orders/"
    dora.goto(orders_url)
    assert "Orders close in" in dora.content()
    rules = dora.context.new_page()
    rules.goto(base + dora.locator("#rules-link").get_attribute("href"))
    assert "What the dice decide" in rules.content()
    check(rules, "rules-beside-the-orders", screenshot, errors)
    members = list(SeasonTeam.objects.get(pk=teams["dora"].pk).seats.order_by("number", "pk"))
    assert len(members) == ROSTER
    dora.bring_to_front()
    dora.select_option(f"#id_{members[0].rider_id}-role", "gc_leader")
    for member in members[1:]:
        dora.select_option(f"#id_{member.rider_id}-role", "domestique")
    assert dora.locator("#unsaved").is_visible()
    check(dora, "orders-not-saved", screenshot, errors)
    with dora.expect_navigation():
        dora.click("text=Save my orders")
    assert "Last saved" in dora.content()
    rules.close()

    # She comments on the stage; Alice reads it.
    stage_url = base + f"/seasons/{slug}/stages/1/"
    dora.goto(stage_url)
    dora.fill("#comments textarea[name=text]", "Allez Dora ! <b>not bold</b>")
    dora.click("#comments button:has-text('Post the comment')")
    dora.wait_for_selector("#comments .comment-text")
    check(dora, "stage-commented", screenshot, errors)
    alice.goto(stage_url)
    assert alice.locator("#comments .comment-text").inner_text() == "Allez Dora ! <b>not bold</b>"
    assert alice.locator("#comments .comment-text b").count() == 0  # escaped

    # The organiser sees who has given orders, is asked before resolving, and resolves.
    olivia.goto(base + f"/seasons/{slug}/organise/")
    assert olivia.locator("#orders-status .orders-given").count() == 1
    assert olivia.locator("#orders-status .orders-missing").count() == 1
    check(olivia, "organiser-orders-status", screenshot, errors)
    olivia.goto(stage_url)
    with olivia.expect_navigation():
        olivia.click("text=Resolve now")
    assert re.match(
        r"Resolve stage 1 now, .+ before its deadline\?", olivia.locator("h1").inner_text()
    )
    assert "1 of 2 teams have given orders." in olivia.content()
    check(olivia, "confirm-resolve", screenshot, errors)
    olivia.click("button:has-text('Resolve stage 1 now')")
    olivia.wait_for_url(stage_url)
    olivia.wait_for_selector("#after-the-stage", timeout=60000)  # the results, once resolved
    check(olivia, "stage-resolved-unpublished", screenshot, errors)

    # An anonymous visitor sees nothing of the results before they are published.
    visitor = new_page(browser, errors)
    public = {
        "stage": stage_url,
        "general": base + f"/seasons/{slug}/standings/general/",
        "players": base + f"/seasons/{slug}/players/",
        "rider": base + f"/seasons/{slug}/riders/{members[0].rider_id}/",
    }
    visitor.goto(public["stage"])
    assert "The results of this stage are not published yet." in visitor.content()
    assert visitor.locator("table.data").count() == 0
    assert visitor.locator("#comments .comment-text").count() == 1  # comments are not results
    check(visitor, "visitor-stage-before", screenshot, errors)
    visitor.goto(public["general"])
    assert visitor.locator("table.data tbody tr td.num").count() == 0
    check(visitor, "visitor-general-before", screenshot, errors)
    visitor.goto(public["players"])
    assert "No results yet" in visitor.content()
    visitor.goto(public["rider"])
    assert visitor.locator("table.data tbody a[href$='/stages/1/']").count() == 0

    # The organiser publishes, asked first; then the visitor sees everything.
    olivia.goto(stage_url)
    with olivia.expect_navigation():
        olivia.click("a:has-text('Publish results')")
    check(olivia, "confirm-publish", screenshot, errors)
    with olivia.expect_navigation():
        olivia.click(".confirm form.actions button[type=submit]")

    finished = StageResult.objects.filter(stage__race=season.event, status="finished").count()
    visitor.goto(public["stage"])
    assert visitor.locator("table.data").first.locator("tbody tr").count() >= finished
    assert visitor.locator("#after-the-stage").count() == 1
    check(visitor, "visitor-stage-after", screenshot, errors)
    visitor.goto(public["general"])
    assert visitor.locator("table.data tbody tr").count() == finished
    check(visitor, "visitor-general-after", screenshot, errors)
    visitor.goto(public["players"])
    rows = visitor.locator("table.data tbody tr")
    assert rows.count() == 2
    assert rows.first.locator("td").first.inner_text() == "1"
    assert "Dora Pédale" in visitor.content()
    check(visitor, "visitor-players-after", screenshot, errors)
    visitor.goto(public["rider"])
    assert visitor.locator("table.data tbody a[href$='/stages/1/']").count() == 1
    assert not errors
