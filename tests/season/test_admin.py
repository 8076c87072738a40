"""The admin cannot move a round's lifecycle by hand: status, seed and stored inputs are read only,
the status changes through actions that call the lifecycle services; results are read only."""

import pytest
from django.urls import reverse

from races.models import StageResult
from season.demo import demo_load
from season.models import Round
from season.services import resolution
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    return demo_load()


@pytest.fixture
def staff(client):
    client.force_login(UserFactory(username="sam", is_staff=True, is_superuser=True))
    return client


def test_a_rounds_status_seed_and_inputs_cannot_be_edited(staff, demo):
    target = Round.objects.get(season=demo, number=2)
    url = reverse("admin:season_round_change", args=[target.pk])
    page = staff.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not {"status", "seed", "engine_inputs"} & set(form.fields)
    staff.post(
        url, {"orders_deadline_0": "", "orders_deadline_1": "", "status": "resolved", "seed": 7}
    )
    target.refresh_from_db()
    assert (target.status, target.seed) == (Round.Status.SCHEDULED, None)


def test_the_admin_actions_go_through_the_lifecycle(staff, demo):
    url = reverse("admin:season_round_changelist")
    two = Round.objects.get(season=demo, number=2)
    staff.post(url, {"action": "open_orders", "_selected_action": [two.pk]})
    two.refresh_from_db()
    assert two.status == Round.Status.OPEN
    # Publishing a round without results is refused with the service's reason.
    response = staff.post(
        url, {"action": "publish_results", "_selected_action": [two.pk]}, follow=True
    )
    assert "Stage 2 is not resolved: nothing to publish." in response.content.decode()
    two.refresh_from_db()
    assert two.status == Round.Status.OPEN


def test_results_are_read_only_in_the_admin(staff, demo):
    resolved = resolution.round_resolve(round_id=Round.objects.get(season=demo, number=1).pk)
    result = StageResult.objects.filter(stage=resolved.stage).first()
    url = reverse("admin:races_stageresult_change", args=[result.pk])
    page = staff.get(url)
    assert page.status_code == 200  # staff read it, with nothing to save
    assert page.context["has_change_permission"] is False
    staff.post(url, {"rank": 999, "status": "finished"})
    result.refresh_from_db()
    assert result.rank != 999
    assert staff.get(reverse("admin:races_stageresult_add")).status_code == 403


def test_an_open_rounds_seed_and_nonces_are_hidden_from_staff(staff, demo):
    from season.models import Orders, SeasonTeam
    from season.services import commitment, lifecycle

    target = Round.objects.get(season=demo, number=2)
    lifecycle.round_open(round=target)
    commitment.round_seed_commit(round=target)
    target.refresh_from_db()
    assert target.seed is not None
    team = SeasonTeam.objects.filter(season=demo).first()
    nonce = "feedc0ffee1234567890abcdefabcdef"
    orders, _ = Orders.objects.get_or_create(team=team, round=target)
    Orders.objects.filter(pk=orders.pk).update(nonce=nonce)
    seed = str(target.seed)
    pages = [
        reverse("admin:season_round_change", args=[target.pk]),
        reverse("admin:season_round_changelist"),
        reverse("admin:season_season_change", args=[demo.pk]),
        reverse("admin:season_orders_change", args=[orders.pk]),
        reverse("admin:season_orders_changelist"),
    ]
    for url in pages:
        html = staff.get(url).content.decode()
        assert seed not in html, url
        assert nonce not in html, url
    assert "hidden until the deadline" in staff.get(pages[0]).content.decode()
    # Searching by the seed's prefix does not tell it either.
    found = staff.get(pages[1], {"q": seed[:6]}).context["cl"].result_count
    assert found == 0
    # Once resolved, the seed is revealed.
    Round.objects.filter(pk=target.pk).update(status=Round.Status.RESOLVED)
    assert seed in staff.get(pages[0]).content.decode()


def test_the_dice_log_is_read_only_for_staff(client):
    from django.contrib.auth import get_user_model

    from season.demo import demo_load
    from season.models import DiceLog, Round
    from season.services.resolution import round_resolve

    round_resolve(round_id=Round.objects.get(season=demo_load(), number=1).pk)
    log = DiceLog.objects.get()
    client.force_login(get_user_model().objects.create_superuser("root2", "r2@example.org", "pw"))
    assert client.get(reverse("admin:season_dicelog_add")).status_code == 403
    page = client.get(reverse("admin:season_dicelog_change", args=[log.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert client.post(reverse("admin:season_dicelog_delete", args=[log.pk])).status_code == 403
