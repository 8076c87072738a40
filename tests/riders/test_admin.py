import pytest
from django.urls import reverse

from riders.models import Rider
from tests.factories import RiderFactory, UserFactory


@pytest.fixture
def admin_client(client, db):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_rider_list_shows_ratings_as_h_to_4(admin_client):
    RiderFactory(name="Jasper Philipsen", sprinter=4, climber=-1)
    response = admin_client.get(reverse("admin:riders_rider_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    row = html[html.index("Jasper Philipsen") :]
    row = row[: row.index("</tr>")]
    assert '<td class="field-sprinter">4</td>' in row
    assert '<td class="field-climber">H</td>' in row


def test_admin_refuses_a_rating_of_5_with_a_clear_message(admin_client):
    rider = RiderFactory(name="Jonas Vingegaard", climber=4)
    url = reverse("admin:riders_rider_change", args=[rider.pk])
    data = {
        "name": rider.name,
        "team": rider.team_id,
        "nationality": "DEN",
        "birth_date": "1996-12-10",
        "pcs_slug": rider.pcs_slug,
        "rouleur": 2,
        "sprinter": 0,
        "baroudeur": 0,
        "finisseur": 1,
        "descender": 2,
        "time_trialist": 3,
        "puncheur": 2,
        "climber": 5,
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "5 is not a rating: ratings go from H (handicap) to 4 (mythical)." in (
        response.content.decode()
    )
    assert Rider.objects.get(pk=rider.pk).climber == 4
