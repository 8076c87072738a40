"""Issue 29's "Done when": a league of friends from scratch, in each discipline, in Chromium.

The organiser (olivia) creates the league on the create page (a Moréno league of two riders a
team on the real Tour's route, the players' riders only; a Grand Prix league on the demo 1981
championship) and invites alice by her username from his page: alice reads the invitation in
the app (the bell, the notifications page, "Your invitations" on /my/) and accepts it from
there; bob types the invitation code on the "Join a season" page. Both pick their team within
the budget, the organiser opens round 1. Alice gives orders (one field changed from its
default), bob none; the deadline passes, the organiser resolves round 1 ("Resolve now", asked
first) and publishes it where the season does not publish by itself. Bob is told in the app
that his team raced without his orders and what it did instead. In round 2 alice's orders page
starts from her round-1 orders, said to be carried over. The organiser resolves round 2 in the
browser, the rest of the season is resolved by `simulate_season --in-process`, and the season's
page crowns the winner with the players' podium. At 1366 and 390 px: no sideways scroll, no
console error, no axe-core violation (the conftest's gate); screenshots under
test-artifacts/screenshots/friends-<game>-*.png."""

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from season import results
from season.demo import demo_load, motor_demo_load
from season.models import DONE_STATUSES, Orders, Round, Season
from season.notifications import notifications_send
from season.services import lifecycle
from tests.e2e.helpers import cheap_riders, check_widths, demo_event_key, log_in, new_page

ROSTER = 2


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    #: The league's name (unique among the seasons the demo users see on /my/).
    league: str
    #: What a sentence calls round 1 ("stage 1", "round 1").
    round_one: str
    #: The word of the pickables in the missed-deadline notice ("riders", "cars").
    pickables: str
    #: What the round's page shows once its results are public.
    results: str
    #: Whether the organiser ticks "auto-publish results" (else he publishes each round).
    auto_publish: bool
    #: The heading of the season page's end (a race ends, a championship does).
    end_title: str

    def event_key(self) -> str:
        return demo_event_key(self.name)

    def round_name(self, number: int) -> str:
        return self.round_one.replace("1", str(number))


CYCLING = Game(
    "cycling",
    "moreno",
    "Friends Tour",
    "stage 1",
    "riders",
    "table.data tbody tr",
    auto_publish=False,
    end_title="The end of the race",
)
MOTOR = Game(
    "motor",
    "grandprix",
    "Friends Grand Prix",
    "round 1",
    "cars",
    "#podium li",
    auto_publish=True,
    end_title="The end of the championship",
)


def league_create(page, base, game: Game, *, slug: str) -> Season:
    """The one create page, teams picked within a budget, two riders or cars a team."""
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", game.league)
    page.fill("#id_slug", slug)
    page.select_option("#id_event", game.event_key())
    page.select_option("#id_ruleset", game.ruleset)
    page.select_option("#id_formation_mode", "budget")
    page.fill("#id_roster_size", str(ROSTER))
    if game is CYCLING:
        page.select_option("#id_peloton", "players")  # the players' riders race alone
    page.set_checked("#id_auto_publish", game.auto_publish)
    first = timezone.localtime(timezone.now() + timedelta(days=30))
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + f"/seasons/{slug}/organise/")
    return Season.objects.get(slug=slug)


def team_name_and_pick(page, base, game: Game, *, name: str, exclude=()):
    """On the invitation page: the team's name, then the budget pick on the team page; the
    pks picked."""
    page.fill("#id_team_name", name)
    with page.expect_navigation():
        page.click("form[action^='/join/'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/teams/\d+/manage/$"))
    if game is CYCLING:
        picks = [rider.pk for rider in cheap_riders(ROSTER, exclude=exclude)]
    else:
        boxes = page.locator("#budget-pool input[name=picks]:not([disabled])").all()
        values = [box.get_attribute("value") for box in boxes]
        picks = [int(v) for v in values if int(v) not in exclude][:ROSTER]
    for pk in picks:
        box = page.locator(f"#budget-pool input[name=picks][value='{pk}']")
        if not box.is_visible():  # a long start list is folded by real team
            page.locator(f"details:has(input[name=picks][value='{pk}']) > summary").click()
        box.check()
    with page.expect_navigation():
        page.click("#budget button[type=submit]")
    assert "Your team is ready." in page.inner_text("body"), name
    return picks


def resolve_now(page, base, slug: str, game: Game, number: int) -> None:
    """The organiser's "Resolve now", confirmed; the results show on the round's page."""
    url = base + f"/seasons/{slug}/stages/{number}/"
    page.goto(url)
    with page.expect_navigation():
        page.click("a:has-text('Resolve now')")
    assert page.locator("h1").inner_text().startswith(f"Resolve {game.round_name(number)} now")
    with page.expect_navigation():
        page.click(".confirm form.actions button[type=submit]")
    page.wait_for_url(url)
    page.wait_for_selector(game.results, timeout=60000)
    if not game.auto_publish:
        with page.expect_navigation():
            page.click("a:has-text('Publish results')")
        with page.expect_navigation():
            page.click(".confirm form.actions button[type=submit]")
        assert f"The results of {game.round_name(number)} are published." in page.content()
    assert Round.objects.get(season__slug=slug, number=number).status in (
        Round.Status.RESOLVED,
        Round.Status.PUBLISHED,
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", [CYCLING, MOTOR], ids=lambda g: g.name)
def test_a_league_of_friends_from_scratch(live_server, browser, screenshot, game):
    if game is CYCLING:
        demo_load()
    else:
        motor_demo_load()
    base = live_server.url
    errors: list[str] = []
    slug = f"friends-{game.name}"
    shot = f"friends-{game.name}"

    def check(page, name):
        check_widths(page, f"{shot}-{name}", screenshot, errors)

    pages = {}
    for who in ("olivia", "alice", "bob"):
        pages[who] = new_page(browser, errors)
        log_in(pages[who], base, who, f"{who}-demo")
    olivia, alice, bob = pages["olivia"], pages["alice"], pages["bob"]

    # 1. The organiser creates the league and invites alice by her username.
    season = league_create(olivia, base, game, slug=slug)
    olivia.fill("#id_invite_to", "alice")
    with olivia.expect_navigation():
        olivia.click("#invite-send button[type=submit]")
    assert "If alice has an account with an e-mail address" in olivia.content()
    check(olivia, "organiser-invited")

    # Alice: the bell says so, the notifications page tells whose invitation it is, /my/ has
    # it among "Your invitations", from where she accepts it.
    alice.goto(base + "/my/")
    assert alice.locator(".bell .bell-count").inner_text() == "1"
    with alice.expect_navigation():
        alice.click("a.bell")
    invitation = f"olivia invites you to {game.league}: follow the link to join."
    assert invitation in alice.inner_text(".notice-list")
    check(alice, "notifications-invitation")
    alice.goto(base + "/my/")
    block = alice.locator("section[aria-labelledby=invitations-title]")
    assert f"olivia invites you to {game.league}." in block.inner_text()
    check(alice, "my-invitations")
    with alice.expect_navigation():
        block.locator(f"a:has-text('Accept and join {game.league}')").click()
    assert "invites you to play this season" in alice.content()
    alice_picks = team_name_and_pick(alice, base, game, name="Alice's Friends")

    # Bob types the code on the "Join a season" page.
    bob.goto(base + "/join/")
    bob.fill("#id_code", season.invite_code)
    with bob.expect_navigation():
        bob.click("form[action='/join/'] button[type=submit]")
    assert bob.url.endswith(f"/join/{season.invite_code}/")
    team_name_and_pick(bob, base, game, name="Bob's Mates", exclude=alice_picks)
    check(bob, "team-ready")
    teams = {team.owner.username: team for team in season.teams.filter(owner__isnull=False)}
    assert set(teams) == {"alice", "bob"}
    assert all(team.seats.count() == ROSTER for team in teams.values())

    # 2. The organiser opens round 1.
    round_url = base + f"/seasons/{slug}/stages/1/"
    olivia.goto(round_url)
    with olivia.expect_navigation():
        olivia.click("button:has-text('Open orders')")
    assert Round.objects.get(season=season, number=1).status == Round.Status.OPEN

    # 3. Alice gives orders, one field changed from its default; bob gives none.
    orders_url = base + f"/seasons/{slug}/teams/{teams['alice'].pk}/orders/"
    alice.goto(orders_url)
    assert "Orders close in" in alice.content()
    assert alice.locator("#carried").count() == 0
    if game is CYCLING:
        field = f"#id_{alice_picks[0]}-role"
        value = "domestique" if alice.input_value(field) != "domestique" else "sprinter"
    else:
        number = min(teams["alice"].seats.values_list("number", flat=True))
        field, value = f"#id_{number}-risk", "aggressive"
    assert alice.input_value(field) != value
    alice.select_option(field, value)
    with alice.expect_navigation():
        alice.click("text=Save my orders")
    assert f"Orders saved for {game.round_one}" in alice.content(), alice.inner_text("main")
    assert Orders.objects.filter(team=teams["alice"], round__number=1).exists()
    check(alice, "orders-round-1")

    # The deadline passes (beat's lock has not run yet); the organiser resolves round 1.
    olivia.goto(base + f"/seasons/{slug}/organise/")
    assert olivia.locator("#orders-status .orders-given").count() == 1
    assert olivia.locator("#orders-status .orders-missing").count() == 1
    Round.objects.filter(season=season, number=1).update(
        orders_deadline=timezone.now() - timedelta(minutes=1)
    )
    resolve_now(olivia, base, slug, game, 1)
    alice.goto(round_url)
    assert "not published yet" not in alice.content()
    assert alice.locator(game.results).count() > 0
    check(alice, "results-round-1")

    # 4. Beat's notices: bob is told his team raced without his orders, and how.
    notifications_send()
    bob.goto(base + "/my/")
    with bob.expect_navigation():
        bob.click("a.bell")  # the notifications page (/my/notifications/)
    missed = (
        f"{game.league}: the deadline of {game.round_one} passed without your orders: your "
        f"{game.pickables} raced with the default orders."
    )
    assert missed in bob.inner_text(".notice-list")
    check(bob, "notifications-missed")
    alice.goto(base + "/my/notifications/")
    assert "passed without your orders" not in alice.inner_text("main")

    # 5. Round 2: alice's orders start from hers of round 1, said to be carried over.
    assert Round.objects.get(season=season, number=2).status == Round.Status.OPEN
    alice.goto(orders_url)
    alice.wait_for_selector("#carried")
    assert f"carried over from {game.round_one}" in alice.inner_text("#carried")
    assert alice.input_value(field) == value
    check(alice, "orders-carried")
    with alice.expect_navigation():
        alice.click("text=Save my orders")
    assert f"Orders saved for {game.round_name(2)}" in alice.content()

    # 6. Round 2 in the browser, the rest by the management command, then the end page.
    resolve_now(olivia, base, slug, game, 2)
    call_command("simulate_season", slug, "--in-process")
    last = season.rounds.count()
    if not game.auto_publish:
        for done in season.rounds.filter(status=Round.Status.RESOLVED):
            lifecycle.round_publish(round=done)
    assert not season.rounds.exclude(status__in=DONE_STATUSES).exists()
    if not game.auto_publish:
        assert not season.rounds.exclude(status=Round.Status.PUBLISHED).exists()
    ranking = results.players_ranking(season=season, number=last)
    assert {line.team for line in ranking} == {"Alice's Friends", "Bob's Mates"}
    bob.goto(base + f"/seasons/{slug}/")
    assert bob.inner_text("#finale-title") == game.end_title
    winner = bob.locator(".league-winner")
    assert f"{ranking[0].team} wins the league" in winner.inner_text()
    podium = bob.locator(".players-podium li")
    assert podium.count() == 2
    assert ranking[0].team in podium.first.inner_text()
    bob.locator("#finale").scroll_into_view_if_needed()
    check(bob, "the-end")
    assert errors == []
