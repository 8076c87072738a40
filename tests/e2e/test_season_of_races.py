"""Issue 30's first "Done when", as an organiser on the web, in Chromium, with a real Celery
worker and beat on PostgreSQL and Redis: olivia creates a season on the create page from an
imported race (the demo's four-stage Critérium) and adds two more races to its calendar on
the calendar page (the demo's week-long race, where each team starts two of its three riders,
and the Tour); alice, bob and charlie join and pick their squads of three within the budget;
alice chooses who starts race 2 on her selection page; olivia opens stage 1; alice gives
orders; beat resolves every stage of race 1 at its deadline (deadlines moved a few seconds
ahead, as the beat tests do), then, alice's orders given for race 2's first stage, every stage
of race 2, raced by her selection and the others' default selections. A stage of race 2
replays identically (season.replay and `manage.py replay_stage`). The season page at 1366 and
390 px: no sideways scroll, no console error, no axe-core violation; screenshots in
/tmp/shots/demo/ and test-artifacts."""

import os
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from races.models import StageResult
from season.demo import DEMO_ROUTES, demo_load, demo_route_load
from season.models import DONE_STATUSES, Job, Orders, Round, Selection
from season.replay import stage_replay
from tests.e2e.helpers import cheap_riders, check_widths, log_in, new_page, season_create, team_join
from tests.integration.processes import Processes, database_url, log_trouble, wait_for

ROSTER = 3
#: How many of its squad each team starts in race 2 (the week).
WEEK_STARTERS = 2
SHOTS = Path("/tmp/shots/demo")
FAST_CHECKS = {"STAGE_DEADLINE_CHECK_SECONDS": "1"}


def shots(screenshot):
    """The conftest's screenshot, also written to SHOTS."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        return screenshot(page, name)

    return take


def deadlines_soon(season, numbers):
    """The rounds ``numbers`` fall due a second apart from a few seconds from now."""
    start = timezone.now() + timedelta(seconds=4)
    for offset, number in enumerate(numbers):
        Round.objects.filter(season=season, number=number).update(
            orders_deadline=start + timedelta(seconds=offset)
        )


def orders_give(page, base, season, team):
    """The player's orders for the open stage, one role changed from its default, saved."""
    page.goto(base + f"/seasons/{season.slug}/teams/{team.pk}/orders/")
    # The first rider the page lists: the round's starters only (race 2: the selection).
    field = page.locator("select[id$='-role']").first
    field.select_option("domestique" if field.input_value() != "domestique" else "sprinter")
    with page.expect_navigation():
        page.click("text=Save my orders")
    assert "Orders saved for stage" in page.content()


def race_add(page, base, season, race, starters):
    """The organiser adds ``race`` at the end of the calendar on the calendar's page, its first
    deadline three days after the calendar's last one."""
    page.goto(base + f"/seasons/{season.slug}/organise/races/")
    last = season.rounds.order_by("-number").first().orders_deadline
    first = timezone.localtime(last + timedelta(days=3), season.tz)
    page.select_option("#id_event", f"race-{race.pk}")
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    if starters:
        page.fill("#id_starters", str(starters))
    with page.expect_navigation():
        page.click("#race-add button[type=submit]")
    assert "is added to the calendar" in page.content()


def selection_give(page, base, season, team, item):
    """The player's selection for the event ``item`` on its page: the last riders of his squad
    (by bib), not the default's first ones; the riders chosen."""
    page.goto(base + f"/seasons/{season.slug}/teams/{team.pk}/selection/{item.number}/")
    page.wait_for_selector("#selection-form")
    seats = list(team.seats.order_by("number", "pk"))
    wanted = seats[-item.starters :]
    for seat in seats:
        box = page.locator(f'input[name=seat][value="{seat.pk}"]')
        box.check() if seat in wanted else box.uncheck()
    page.get_by_role("button", name="Save my selection").click()
    page.wait_for_selector("text=Your selection is saved.")
    return {seat.rider_id for seat in wanted}


def resolved_by_beat(season, numbers, *logs):
    wait_for(
        lambda: (
            not season.rounds.filter(number__in=numbers).exclude(status__in=DONE_STATUSES).exists()
        ),
        60 + 30 * len(numbers),
        f"beat and the worker to resolve rounds {numbers}",
        *logs,
    )


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_organiser_runs_a_season_of_three_races_on_the_web(
    live_server, browser, screenshot, tmp_path
):
    demo_load()
    criterium, week = (demo_route_load(route, tour=_tour()) for route in DEMO_ROUTES)
    base = live_server.url
    errors: list[str] = []
    take = shots(screenshot)
    slug = "three-races"

    olivia = new_page(browser, errors)
    log_in(olivia, base, "olivia", "olivia-demo")
    season = season_create(
        olivia,
        base,
        name="Three Races",
        slug=slug,
        roster=ROSTER,
        peloton="players",
        event_slug=criterium.slug,
    )
    # Two more races at the end of the calendar, on its page, a few days after the last stage.
    for race, starters in ((week, WEEK_STARTERS), (_tour(), None)):
        race_add(olivia, base, season, race, starters)
    season.calendar_forget()
    calendar = season.calendar()
    assert [item.starters for item in calendar] == [None, WEEK_STARTERS, None]
    assert [item.rounds.count() for item in calendar] == [4, 7, 21]
    race_1 = list(range(1, 5))
    race_2 = list(range(5, 12))

    players, taken = {}, []
    for who in ("alice", "bob", "charlie"):
        page = new_page(browser, errors)
        log_in(page, base, who, f"{who}-demo")
        riders = cheap_riders(ROSTER, exclude=taken)
        taken += [rider.pk for rider in riders]
        team_join(page, base, season, name=f"{who.capitalize()} Racing", riders=riders)
        players[who] = page
    teams = {t.owner.username: t for t in season.teams.filter(owner__isnull=False)}
    assert {name: t.seats.count() for name, t in teams.items()} == dict.fromkeys(players, ROSTER)

    # alice chooses who starts the week: her last two riders (the default would be the first).
    chosen = selection_give(players["alice"], base, season, teams["alice"], calendar[1])

    olivia.goto(base + f"/seasons/{slug}/stages/1/")
    with olivia.expect_navigation():
        olivia.click("button:has-text('Open orders')")
    assert Round.objects.get(season=season, number=1).status == Round.Status.OPEN
    orders_give(players["alice"], base, season, teams["alice"])

    queue = f"season-{uuid.uuid4().hex[:8]}"
    deployment = Processes(
        {**os.environ, "DATABASE_URL": database_url(connection), "CELERY_QUEUE": queue}, tmp_path
    )
    _, worker = deployment.worker("worker")
    _, beat = deployment.celery("beat", "beat", **FAST_CHECKS)
    try:
        deadlines_soon(season, race_1)
        resolved_by_beat(season, race_1, worker, beat)
        # Race 2's first stage opened after race 1's last: alice's orders for it, then beat.
        assert Round.objects.get(season=season, number=5).status == Round.Status.OPEN
        orders_give(players["alice"], base, season, teams["alice"])
        assert Orders.objects.filter(team=teams["alice"], round__number=5).exists()
        deadlines_soon(season, race_2)
        resolved_by_beat(season, race_2, worker, beat)
        # The week was raced by alice's selection, and by the others' default selections.
        raced = set(
            StageResult.objects.filter(
                stage__race=calendar[1].race,
                stage__number=1,
                rider__in=teams["alice"].seats.values("rider"),
            ).values_list("rider_id", flat=True)
        )
        assert raced == chosen
        for who in ("bob", "charlie"):
            sources = set(
                Selection.objects.filter(team=teams[who], season_event=calendar[1]).values_list(
                    "source", flat=True
                )
            )
            assert sources == {"default"}
    finally:
        deployment.stop()
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
    assert log_trouble(worker, beat) == []
    done = season.rounds.filter(number__in=race_1 + race_2)
    assert all(r.resolved_at >= r.orders_deadline for r in done)  # at their deadlines
    # Each queued by beat (no person asked) and resolved by the worker, once.
    jobs = Job.objects.filter(round__in=done)
    assert sorted(jobs.values_list("round__number", flat=True)) == race_1 + race_2
    assert set(jobs.values_list("status", "requested_by")) == {("done", None)}
    assert season.rounds.get(number=12).status == Round.Status.OPEN  # the Tour's stage 1

    # A stage of race 2 replays identically, by the service and by the command.
    stage = season.rounds.get(number=8)
    assert stage.stage.race_id == calendar[1].race_id
    assert stage_replay(round=stage) == []
    call_command("replay_stage", slug, "8")

    olivia.goto(base + f"/seasons/{slug}/")
    check_widths(olivia, "demo-season-page", take, errors)
    assert not errors


def _tour():
    from races.models import Race

    return Race.objects.get(slug="tour-de-france-2023")
