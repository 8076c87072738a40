"""Issue 27's "Done when": a cycling league and a motor league played in Chromium through the
same pages. Each is created on the one create page, its players join by the invitation link,
the draft runs with its clock (one pick made by the clock, as beat's check finds it), round 1
opens by itself at the last pick, both players give orders, the deadline passes (beat's task
locks and resolves the round), the results are published by themselves, and /my/ tells each
member what to do at every step. At 1366 and 390 px: no sideways scroll, no console error, no
axe-core violation (the conftest's gate); screenshots under
test-artifacts/screenshots/one-<game>-*.png."""

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from season import formation
from season.demo import demo_load, motor_demo_load
from season.models import DraftPick, Orders, PickSource, Round, Season
from season.services.draft_clock import draft_clocks_expire
from season.tasks import rounds_lock_due_task
from tests.e2e.helpers import check_widths, demo_event_key, log_in, new_page

ROSTER = 2
PICK_MINUTES = 10


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    #: What /my/ and the flash messages call round 1 ("stage 1", "round 1").
    round_one: str
    #: The word of a pickable on the team page ("rider", "car").
    noun: str
    #: What the round's page shows once its results are public (the results, the podium).
    results: str

    def event_key(self) -> str:
        return demo_event_key(self.name)


CYCLING = Game("cycling", "moreno", "stage 1", "rider", "table.data tbody tr")
MOTOR = Game("motor", "grandprix", "round 1", "car", "#podium li")


def logged_in(browser, errors, base, who):
    page = new_page(browser, errors)
    log_in(page, base, who, f"{who}-demo")
    return page


def my_card(page, base, season: Season) -> str:
    """What /my/ says of ``season`` (the demo seasons the same users play are beside it)."""
    page.goto(base + "/my/")
    return page.locator("li.card", has_text=season.name).inner_text()


def season_create(page, base, game: Game, *, slug: str) -> Season:
    """The one create page: the game's event and ruleset, a draft with a pick clock, results
    published as soon as a round is resolved."""
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", f"Friends {game.name}")
    page.fill("#id_slug", slug)
    page.select_option("#id_event", game.event_key())
    page.select_option("#id_ruleset", game.ruleset)
    page.select_option("#id_formation_mode", "draft")
    page.fill("#id_roster_size", str(ROSTER))
    page.fill("#id_draft_pick_minutes", str(PICK_MINUTES))
    page.set_checked("#id_auto_publish", True)
    first = timezone.localtime(timezone.now() + timedelta(days=30))
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + f"/seasons/{slug}/organise/")
    return Season.objects.get(slug=slug)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", [CYCLING, MOTOR], ids=lambda g: g.name)
def test_one_league_flow_from_creation_to_results(live_server, browser, screenshot, game):
    demo_load()
    motor_demo_load()
    base = live_server.url
    errors: list[str] = []
    slug = f"friends-{game.name}"
    shot = f"one-{game.name}"
    olivia = logged_in(browser, errors, base, "olivia")
    season = season_create(olivia, base, game, slug=slug)
    check_widths(olivia, f"{shot}-organiser-new", screenshot, errors)

    # Two players follow the invitation link and name their teams.
    invite = f"/join/{season.invite_code}/"
    players = {}
    for who, team_name in (("alice", "Alice Racing"), ("bob", "Bob Wheelers")):
        page = logged_in(browser, errors, base, who)
        page.goto(base + invite)
        page.fill("#id_team_name", team_name)
        page.click(f"form[action='{invite}'] button[type=submit]")
        page.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
        assert "Waiting for the organiser to start the draft." in my_card(page, base, season)
        players[who] = page
    assert "Start the draft when every player is in" in my_card(olivia, base, season)

    # The organiser starts the draft, asked first.
    olivia.goto(base + f"/seasons/{slug}/organise/")
    with olivia.expect_navigation():
        olivia.click("a:has-text('Start the draft')")
    olivia.click(".confirm form.actions button[type=submit]")
    olivia.wait_for_url(base + f"/seasons/{slug}/organise/")
    assert "The draft has started" in olivia.content()

    # The draft in turns on the one team page; the second pick is the clock's.
    for pick in range(1, 2 * ROSTER + 1):
        on_turn = formation.draft_status(season=Season.objects.get(pk=season.pk)).on_turn
        page = players[on_turn.owner.username]
        assert "It is your turn to pick" in my_card(page, base, season)
        page.goto(base + f"/seasons/{slug}/teams/{on_turn.pk}/manage/")
        assert page.locator("[data-pick-clock]").count() == 1, pick
        assert f"It is your turn: pick a {game.noun}." in page.content()
        assert page.locator("#wishlist").count() == 1  # riders and cars alike
        if pick == 1:
            check_widths(page, f"{shot}-draft-on-turn", screenshot, errors)
        if pick == 2:
            # The team's time runs out (its turn began PICK_MINUTES and a bit ago) and beat's
            # check makes the pick.
            DraftPick.objects.filter(season=season).update(
                picked_at=F("picked_at") - timedelta(minutes=PICK_MINUTES, seconds=5)
            )
            assert draft_clocks_expire()
            continue
        with page.expect_navigation():
            page.locator("#board button[name=pick]:not([disabled])").first.click()
        assert DraftPick.objects.filter(season=season).count() == pick
    assert DraftPick.objects.filter(season=season, source=PickSource.CLOCK).count() == 1

    # Round 1 opened by itself at the last pick; /my/ says so, with the game's noun.
    round_one = Round.objects.get(season=season, number=1)
    assert round_one.status == Round.Status.OPEN
    for who, page in players.items():
        text = my_card(page, base, season)
        assert f"Give your orders for {game.round_one}" in text, who
        assert "The draft is on" not in text
        if game is MOTOR:
            assert "stage" not in text.lower()
    check_widths(players["alice"], f"{shot}-my-seasons", screenshot, errors)

    # Both players give their orders on the one orders page (the defaults are orders too).
    for who, page in players.items():
        team = season.teams.get(owner__username=who)
        page.goto(base + f"/seasons/{slug}/teams/{team.pk}/orders/")
        assert "Orders close in" in page.content()
        if who == "alice":
            check_widths(page, f"{shot}-orders", screenshot, errors)
        with page.expect_navigation():
            page.click("text=Save my orders")
        assert f"Orders saved for {game.round_one}" in page.content(), who
        assert Orders.objects.filter(team=team, round=round_one).exists()
        assert f"Your orders for {game.round_one} are in" in my_card(page, base, season)

    olivia.goto(base + f"/seasons/{slug}/organise/")
    assert olivia.locator("#orders-status .orders-given").count() == 2
    check_widths(olivia, f"{shot}-organiser", screenshot, errors)

    # The deadline passes: beat's task locks the round and resolves it; its results are
    # public at once (the season auto-publishes).
    Round.objects.filter(pk=round_one.pk).update(
        orders_deadline=timezone.now() - timedelta(minutes=1)
    )
    rounds_lock_due_task()
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.RESOLVED
    assert Season.objects.get(pk=season.pk).auto_publish  # resolved is public
    alice = players["alice"]
    alice.goto(base + f"/seasons/{slug}/stages/1/")
    assert "not published yet" not in alice.content()
    assert alice.locator(game.results).count() > 0
    check_widths(alice, f"{shot}-results", screenshot, errors)

    # Round 2 is open for orders: /my/ says so.
    assert Round.objects.get(season=season, number=2).status == Round.Status.OPEN
    next_round = game.round_one.replace("1", "2")
    assert f"Give your orders for {next_round}" in my_card(alice, base, season)
    assert errors == []
