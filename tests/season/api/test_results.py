"""What the API shows of the rounds (docs/api.md "Who sees what"): the results, events, dice and
standings of published rounds only, to everyone alike (an organiser reads his unpublished
results on the pages); an open round's seed never; an answer tagged by the season's state (a
304 until it changes); a fixed number of queries whatever the page."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from season.models import Round
from season.services import lifecycle
from tests.commits import committed
from tests.season.api.conftest import CYCLING, MOTOR, bearer, token_of

pytestmark = pytest.mark.django_db

RESULTS = f"/api/seasons/{CYCLING}/rounds/%d/results/"


def test_a_published_rounds_results_events_dice_and_standings_are_given(api, leagues):
    for path in ("results/", "events/", "dice/", "standings/general/", "standings/teams/"):
        response = api.get(f"/api/seasons/{CYCLING}/rounds/2/{path}")
        assert response.status_code == 200, path
        assert response.json()["count"] > 0, path
    for path in ("results/", "events/", "dice/", "standings/drivers/", "standings/constructors/"):
        assert api.get(f"/api/seasons/{MOTOR}/rounds/2/{path}").status_code == 200, path
    table = api.get(f"/api/seasons/{CYCLING}/tables/players/").json()
    assert table["after"] == 2
    assert table["count"] == 3


def test_an_unpublished_rounds_results_are_given_to_nobody(api, leagues):
    """Round 3 is resolved, not published: not for the public, a player or the organiser."""
    for who in ("anonymous", "alice", "olivia"):
        _nothing_of_round_3(api, bearer(token_of(who)) if who != "anonymous" else {})


def _nothing_of_round_3(api, headers):
    for slug in (CYCLING, MOTOR):
        for path in ("results/", "events/", "dice/"):
            response = api.get(f"/api/seasons/{slug}/rounds/3/{path}", **headers)
            assert response.status_code == 404
            assert response.json() == {"detail": "The results of round 3 are not published."}
        table = "general" if slug == CYCLING else "drivers"
        refused = api.get(f"/api/seasons/{slug}/rounds/3/standings/{table}/", **headers)
        assert refused.json() == {"detail": "The standings after round 3 are not published."}
        round_3 = api.get(f"/api/seasons/{slug}/rounds/3/", **headers).json()
        assert round_3["status"] == "resolved"
        assert not round_3["results_visible"]
        assert round_3["seed"] is None
        assert round_3["resolved_at"] is None
        assert round_3["tables"] == []
        assert api.get(f"/api/seasons/{slug}/tables/riders/?after=3", **headers).status_code == 404


def test_an_open_round_gives_its_commitment_never_its_seed(api, leagues):
    round_4 = Round.objects.get(season=leagues["cycling"], number=4)
    assert round_4.status == Round.Status.OPEN
    calendar = api.get(f"/api/seasons/{CYCLING}/calendar/").content.decode()
    detail = api.get(f"/api/seasons/{CYCLING}/rounds/4/").json()
    assert detail["commitment"] == round_4.commitment
    assert detail["seed"] is None
    if round_4.seed is not None:
        assert str(round_4.seed) not in calendar
    assert api.get(f"/api/seasons/{CYCLING}/rounds/4/dice/").status_code == 404


def test_an_answer_is_not_modified_until_the_season_changes(api, leagues):
    first = api.get(RESULTS % 2)
    tag = first["ETag"]
    again = api.get(RESULTS % 2, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again["ETag"] == tag
    assert not again.content
    assert api.get(RESULTS % 3).status_code == 404
    with committed():
        lifecycle.round_publish(round=Round.objects.get(season=leagues["cycling"], number=3))
    changed = api.get(RESULTS % 2, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    assert api.get(RESULTS % 3).status_code == 200  # published now


def test_an_anonymous_answer_is_kept_until_the_season_changes(api, leagues):
    api.get(RESULTS % 1)
    with CaptureQueriesContext(connection) as queries:
        assert api.get(RESULTS % 1).status_code == 200
    assert len(queries) == 0


PATHS = [
    "rounds/1/results/",
    "rounds/1/standings/%s/",
    "rounds/1/events/",
    "rounds/1/dice/",
    "competitors/",
    "calendar/",
    "tables/riders/",
]


def test_a_page_costs_the_same_queries_whatever_its_size(api, leagues):
    # A member's answers are never kept: each request reads the database.
    headers = bearer(token_of("alice"))
    for slug, table in ((CYCLING, "general"), (MOTOR, "drivers")):
        api.get(f"/api/seasons/{slug}/", **headers)  # the season's state, read once and kept
        for path in (p.replace("%s", table) for p in PATHS):
            counts = []
            for query in ("limit=1", "limit=200", "limit=5&offset=100"):
                with CaptureQueriesContext(connection) as queries:
                    response = api.get(f"/api/seasons/{slug}/{path}?{query}", **headers)
                assert response.status_code == 200
                counts.append(len(queries))
            assert counts[0] == counts[1] == counts[2] <= 8, (slug, path, counts)
