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


@pytest.mark.django_db
def test_home_says_what_the_site_is_and_links_every_games_rules(client):
    from plugins import adapter_names

    page = client.get("/").content.decode()
    assert "Grand Tour runs board-game racing leagues" in page
    for name in adapter_names():
        assert f'href="/rules/{name}/"' in page
    assert 'href="/accounts/signup/"' in page


@pytest.mark.django_db
def test_home_names_each_seasons_rounds_in_its_games_words(client):
    from season.demo import demo_load, motor_demo_load

    demo_load()
    motor_demo_load()
    page = client.get("/").content.decode()
    assert "21 stages" in page
    assert "15 Grands Prix" in page
    assert "15 stages" not in page
