"""Issue 33, "a busy evening": the logged-in pages a player loads around a deadline read the
database a fixed number of times, however many seasons he plays (bench/burst.py measures them
under wrk; docs/busy-evening.md)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory
from tests.season.builders import joined, league
from tests.season.motor_builders import motor_league, real_championship

pytestmark = pytest.mark.django_db

#: What the pages read now (issue 33): a change that adds a query to them fails here; one that
#: removes some lowers these numbers.
MY_SEASONS_QUERIES = 11
ORDERS_QUERIES = 14


def queries_of(client, url: str) -> int:
    client.get(url)  # the session and the per-process caches warmed, as under load
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries.captured_queries)


def seasons_played(player, count: int, championship) -> None:
    """The player in ``count`` leagues, cycling and motor in turn."""
    organiser = UserFactory()
    for index in range(count):
        slug = f"{player.username}-{index}"
        if index % 2:
            season = motor_league(organiser=organiser, slug=slug, championship=championship)
        else:
            season = league(organiser=organiser, slug=slug)
        joined(season, player)


def test_my_seasons_reads_the_same_whatever_the_number_of_seasons(client):
    one, four = UserFactory(), UserFactory()
    championship = real_championship()
    seasons_played(one, 1, championship)
    seasons_played(four, 4, championship)
    client.force_login(one)
    with_one = queries_of(client, "/my/")
    client.force_login(four)
    with_four = queries_of(client, "/my/")
    assert (with_one, with_four) == (MY_SEASONS_QUERIES, MY_SEASONS_QUERIES)


def orders_page_of(player, *, riders: int, slug: str) -> str:
    """The orders page of the player's team of ``riders`` riders, round 1 open."""
    from season import formation
    from season.models import Season
    from season.services.lifecycle import round_open
    from tests.season.builders import free_riders, stage, template_race

    season = league(
        organiser=UserFactory(),
        slug=slug,
        template=template_race(real_teams=4, riders_per_team=4, start_list=True),
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=riders,
        budget=10_000,
        max_per_real_team=None,
    )
    (team,) = joined(season, player)
    formation.team_select(team=team, pickable_ids=[r.pk for r in free_riders(season)[:riders]])
    round_open(round=stage(season, 1))
    return f"/seasons/{slug}/teams/{team.pk}/orders/"


def test_the_orders_page_reads_the_same_whatever_the_number_of_riders(client):
    two, eight = UserFactory(), UserFactory()
    small = orders_page_of(two, riders=2, slug="two-riders")
    large = orders_page_of(eight, riders=8, slug="eight-riders")
    client.force_login(two)
    with_two = queries_of(client, small)
    client.force_login(eight)
    with_eight = queries_of(client, large)
    assert (with_two, with_eight) == (ORDERS_QUERIES, ORDERS_QUERIES)


def test_the_deadline_check_locks_each_due_round_with_two_writes(client):
    """Hundreds of rounds due in the same minute: the check reads them all at once (with their
    seasons, and whether an earlier round of theirs is pending) and then costs each round its
    conditional update and its season's change mark only."""
    from datetime import timedelta

    from django.utils import timezone

    from season.models import Round
    from season.services.lifecycle import rounds_lock_due

    def check_with(leagues: int, prefix: str) -> tuple[int, int]:
        for index in range(leagues):
            orders_page_of(UserFactory(), riders=2, slug=f"{prefix}-{index}")
        now = timezone.now()
        Round.objects.filter(season__slug__startswith=prefix, number=1).update(
            orders_deadline=now - timedelta(seconds=1)
        )
        with CaptureQueriesContext(connection) as queries:
            ready = rounds_lock_due(now=now)
        return len(ready), len(queries.captured_queries)

    # One due round: the read of the due rounds, its two writes, the read of the locked ones.
    assert check_with(1, "one") == (1, 4)
    # Three more: two writes each; the first league's round, locked, is ready still.
    assert check_with(3, "three") == (4, 8)
