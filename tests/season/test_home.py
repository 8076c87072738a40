import pytest
from django.urls import reverse

from tests.factories import SeasonFactory


@pytest.mark.django_db
def test_home_lists_public_seasons_only(client):
    SeasonFactory(name="Open League")
    SeasonFactory(name="Secret League", is_public=False)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "Open League" in response.content.decode()
    assert "Secret League" not in response.content.decode()
