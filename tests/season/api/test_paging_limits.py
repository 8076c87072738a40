"""The API's lists come in bounded pages, its clients are limited per window (429 with
Retry-After), and its bad parameters are named (400)."""

import pytest
from django.core.cache import cache

from accounts.api_tokens import api_token_renew
from tests.season.api.conftest import bearer
from tests.season.builders import league

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_seasons(alice):
    return [league(organiser=alice, slug=f"tour-{n}") for n in range(3)]


def test_a_list_comes_in_pages_with_links_to_the_next_and_previous(api, three_seasons):
    first = api.get("/api/seasons/?limit=2").json()
    assert (first["count"], first["limit"], first["offset"]) == (3, 2, 0)
    assert len(first["results"]) == 2
    assert first["previous"] is None
    assert first["next"].endswith("/api/seasons/?limit=2&offset=2")
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 1
    assert second["next"] is None
    assert second["previous"].endswith("/api/seasons/?limit=2&offset=0")
    assert api.get("/api/seasons/").json()["limit"] == 50


@pytest.mark.parametrize(
    ("query", "name"),
    [("limit=201", "limit"), ("limit=0", "limit"), ("limit=ten", "limit"), ("offset=-1", "offset")],
)
def test_a_page_beyond_the_bounds_is_refused_naming_the_parameter(api, three_seasons, query, name):
    response = api.get(f"/api/seasons/?{query}")
    assert response.status_code == 400
    assert response.json()["detail"] == f"Bad parameter: {name}."
    assert name in response.json()["errors"]


def test_the_largest_page_is_200_lines(api, three_seasons):
    assert api.get("/api/seasons/?limit=200").status_code == 200


def test_an_anonymous_client_is_limited_per_address(api, settings, three_seasons):
    cache.clear()
    settings.API_RATE_ANONYMOUS = 3
    for _ in range(3):
        assert api.get("/api/seasons/").status_code == 200
    refused = api.get("/api/seasons/tour-1/")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= settings.API_RATE_SECONDS
    assert "throttled" in refused.json()["detail"]
    # Another address has its own count.
    assert api.get("/api/seasons/", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_a_token_is_limited_on_its_own_count(api, settings, three_seasons, alice, bob):
    cache.clear()
    settings.API_RATE_ANONYMOUS = 1
    settings.API_RATE_TOKEN = 2
    alices, bobs = bearer(api_token_renew(user=alice)), bearer(api_token_renew(user=bob))
    assert api.get("/api/seasons/").status_code == 200
    assert api.get("/api/seasons/").status_code == 429  # the address's one request is used
    assert api.get("/api/seasons/", **alices).status_code == 200
    assert api.get("/api/seasons/", **alices).status_code == 200
    assert api.get("/api/seasons/", **alices).status_code == 429
    assert api.get("/api/seasons/", **bobs).status_code == 200
