"""The draft's tables and the calendar sort by every sortable column (issue 17: "the draft
board, the player's roster and the calendar as sortable tables, like every other table")."""

import random

import pytest
from django.urls import reverse

from plugins.formation import PickColumn
from races.adapters.formation import CyclingFormation
from races.ratings import ratings_apply
from races.team_rules import rider_price
from riders.models import Rider
from season import formation
from season.tables import CalendarTable, DraftBoardTable, DraftHistoryTable, TeamRosterTable
from tests.season.builders import free_riders, joined, league

pytestmark = pytest.mark.django_db


def team_url(team):
    return reverse("player-team", kwargs={"slug": team.season.slug, "team_id": team.pk})


@pytest.fixture
def drafted(alice, bob, charlie):
    season = league(organiser=charlie, roster_size=2, max_per_real_team=2)
    teams = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    for _pick in range(3):  # the second team (snake: picks 2 and 3) is complete
        formation.draft_autopick(season=season, user=charlie)
    on_turn = formation.draft_status(season=season).on_turn
    return season, on_turn, teams


def _sortable(table_class, **kwargs):
    table = table_class([], **kwargs)
    return [c.name for c in table.columns if c.orderable]


@pytest.mark.parametrize("descending", [False, True])
def test_every_column_of_the_draft_page_sorts(client, drafted, descending):
    _season, team, _teams = drafted
    client.force_login(team.owner)
    words = CyclingFormation.team_words
    boards = _sortable(
        DraftBoardTable,
        columns=[PickColumn(key="climber", label="Climber", rating=True)],
        words=words,
        my_turn=True,
        wish_open=True,
    )
    assert {"name", "price", "real_team", "climber"} <= set(boards)
    roster = _sortable(TeamRosterTable, words=words, roles=True)
    assert {"number", "name", "role", "price", "real_team"} <= set(roster)
    sign = "-" if descending else ""
    for prefix, names in (
        ("board-", boards),
        ("picks-", _sortable(DraftHistoryTable, words=words)),
        ("roster-", roster),
    ):
        for name in names:
            response = client.get(team_url(team), {f"{prefix}sort": sign + name})
            assert response.status_code == 200, (prefix, name)


def test_the_board_sorts_by_price_both_ways(client, drafted):
    season, team, _teams = drafted
    client.force_login(team.owner)
    Rider.objects.filter(pk=free_riders(season)[-1].pk).update(climber=4)
    # The season keeps its ratings (docs/league.md): the edit applied to it.
    ratings_apply(race_ids=[season.event.pk], riders=Rider.objects.all())
    prices = sorted({rider_price(r) for r in free_riders(season)})
    assert len(prices) == 2
    cheap = client.get(team_url(team), {"board-sort": "price"}).content.decode()
    dear = client.get(team_url(team), {"board-sort": "-price"}).content.decode()
    board = cheap[cheap.index('id="board"') :]
    assert board.index(f">{prices[0]}<") < board.index(f">{prices[-1]}<")
    board = dear[dear.index('id="board"') :]
    assert board.index(f">{prices[-1]}<") < board.index(f">{prices[0]}<")


def test_the_roster_sorts_by_price(client, drafted):
    _season, _on_turn, teams = drafted
    team = next(t for t in teams if t.seats.count() == 2)
    client.force_login(team.owner)
    cheap, dear = (m.rider for m in team.seats.order_by("rider__name"))
    Rider.objects.filter(pk=dear.pk).update(climber=4)
    ratings_apply(race_ids=[_season.event.pk], riders=Rider.objects.all())
    for sort, first, last in (("-price", dear, cheap), ("price", cheap, dear)):
        page = client.get(team_url(team), {"roster-sort": sort}).content.decode()
        roster = page[page.index('id="roster"') : page.index('id="draft"')]
        assert roster.index(first.name) < roster.index(last.name), sort


def test_every_column_of_the_calendar_sorts(client, drafted):
    season, _team, _teams = drafted
    url = reverse("season-detail", args=[season.slug])
    for name in _sortable(CalendarTable, season=season):
        for sign in ("", "-"):
            assert client.get(url, {"sort": sign + name}).status_code == 200, name


def _draft_page_queries(client, *, real_teams, alice, bob, charlie, slug):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.season.builders import template_race

    season = league(
        organiser=charlie,
        slug=slug,
        template=template_race(real_teams=real_teams, riders_per_team=8),
        roster_size=8,
    )
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    for _pick in range(3):
        formation.draft_autopick(season=season, user=charlie)
    team = formation.draft_status(season=season).on_turn
    formation.wish_add(team=team, pickable=free_riders(season)[0])
    client.force_login(team.owner)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(team_url(team)).status_code == 200
    return len(queries)


def test_the_draft_page_costs_the_same_whatever_the_start_list(client, alice, bob, charlie):
    small = _draft_page_queries(
        client, real_teams=2, alice=alice, bob=bob, charlie=charlie, slug="small"
    )
    big = _draft_page_queries(
        client, real_teams=22, alice=alice, bob=bob, charlie=charlie, slug="big"
    )
    assert big == small
    assert big <= 20


def test_the_board_exports_plain_csv(client, drafted):
    season, team, _teams = drafted
    client.force_login(team.owner)
    response = client.get(team_url(team), {"_export": "csv", "_table": "board-"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("Rider,Price,Real team,Rouleur,Sprinter,")
    assert "<" not in response.content.decode()
    assert len(lines) == 1 + len(free_riders(season))
