"""Who reads what through the API (docs/api.md "Who sees what"): public seasons for everyone,
a private one only with the token of one of its members, 404 for anyone else, the same as for a
season that does not exist; a refused token is a 401. Light leagues: no round resolved."""

import pytest
from django.contrib.auth.models import User

from accounts.api_tokens import api_token_renew, api_token_revoke
from tests.season.api.conftest import bearer
from tests.season.builders import joined, league

pytestmark = pytest.mark.django_db


@pytest.fixture
def private(alice, bob, charlie):
    season = league(organiser=charlie, slug="secret", is_public=False)
    joined(season, alice)
    return season


def test_a_private_season_is_not_found_without_a_token(api, private):
    response = api.get("/api/seasons/secret/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No season secret."}
    assert api.get("/api/seasons/secret/calendar/").status_code == 404
    slugs = [s["slug"] for s in api.get("/api/seasons/").json()["results"]]
    assert "secret" not in slugs


def test_a_member_reads_his_private_season_with_his_token(api, private, alice):
    key = api_token_renew(user=alice)
    for header in (f"Bearer {key}", f"Token {key}"):
        response = api.get("/api/seasons/secret/", HTTP_AUTHORIZATION=header)
        assert response.status_code == 200
        assert response.json()["is_public"] is False
        # A member's answer is his: never kept by a shared cache.
        assert response["Cache-Control"] == "private, no-cache"
    listed = api.get("/api/seasons/", **bearer(key)).json()["results"]
    assert "secret" in [s["slug"] for s in listed]


def test_the_organiser_reads_it_with_his_token(api, private, charlie):
    response = api.get("/api/seasons/secret/calendar/", **bearer(api_token_renew(user=charlie)))
    assert response.status_code == 200


def test_a_non_members_token_finds_no_private_season(api, private, bob):
    response = api.get("/api/seasons/secret/", **bearer(api_token_renew(user=bob)))
    assert response.status_code == 404


def test_a_renewed_or_revoked_token_stops_working(api, private, alice):
    old = api_token_renew(user=alice)
    new = api_token_renew(user=alice)
    assert api.get("/api/seasons/secret/", **bearer(new)).status_code == 200
    refused = api.get("/api/seasons/secret/", **bearer(old))
    assert refused.status_code == 401
    assert refused.json() == {"detail": "Unknown or revoked API token."}
    assert refused["WWW-Authenticate"].startswith("Bearer")
    api_token_revoke(user=alice)
    assert api.get("/api/seasons/secret/", **bearer(new)).status_code == 401


def test_the_token_is_kept_only_as_its_digest(alice):
    key = api_token_renew(user=alice)
    token = User.objects.get(pk=alice.pk).api_token
    assert key not in (token.digest, token.prefix)
    assert len(token.digest) == 64
    assert key.startswith(token.prefix)


def test_an_authorization_header_of_another_kind_is_refused(api, private):
    response = api.get("/api/seasons/", HTTP_AUTHORIZATION="Basic YWxpY2U6eA==")
    assert response.status_code == 401


def test_a_public_season_needs_no_token(api, alice):
    league(organiser=alice, slug="open-tour")
    response = api.get("/api/seasons/open-tour/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=0, must-revalidate"
    assert "Authorization" in response["Vary"]


def test_an_unknown_address_is_a_json_404_naming_it(api, db):
    response = api.get("/api/seasonz/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No API address /api/seasonz/."}


# --- the member's page of his token -------------------------------------------------------


def test_the_member_makes_renews_and_revokes_his_token_on_his_page(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/api/").content.decode()
    assert "You have no API token." in page
    made = client.post("/accounts/api/", {"action": "renew"}).content.decode()
    key = made.split('id="api-token-key">', 1)[1].split("<", 1)[0]
    assert key.startswith("gt_")
    again = client.get("/accounts/api/").content.decode()
    assert key not in again
    assert key[:8] in again  # shown once, then only its start
    assert client.post("/accounts/api/", {"action": "revoke"}).status_code == 302
    assert "You have no API token." in client.get("/accounts/api/").content.decode()


def test_the_token_page_needs_a_login_and_a_csrf_token(alice):
    from django.test import Client

    anonymous = Client()
    assert anonymous.get("/accounts/api/").status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/accounts/api/", {"action": "renew"}).status_code == 403


def test_the_account_pages_link_to_the_token_page(client, alice):
    client.force_login(alice)
    assert 'href="/accounts/api/"' in client.get("/accounts/notifications/").content.decode()
