"""The motor admin: results and standings are read there, never edited (a correction goes
through the import or the resolution, which recompute the standings)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from motor.models import Result, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    return client


@pytest.mark.parametrize("model", [Result, Standing])
def test_results_and_standings_are_read_only_for_staff(staff_client, model):
    from season.demo import motor_demo_load
    from season.services.resolution import round_resolve

    round_resolve(round_id=motor_demo_load().rounds.get(number=1).pk)
    row = model.objects.first()
    assert row is not None
    name = f"admin:motor_{model._meta.model_name}"
    assert staff_client.get(reverse(f"{name}_changelist")).status_code == 200
    assert staff_client.get(reverse(f"{name}_add")).status_code == 403
    page = staff_client.get(reverse(f"{name}_change", args=[row.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    before = {f.name: getattr(row, f.attname) for f in model._meta.concrete_fields}
    staff_client.post(reverse(f"{name}_change", args=[row.pk]), {"points": "99"})
    row.refresh_from_db()
    assert {f.name: getattr(row, f.attname) for f in model._meta.concrete_fields} == before
    assert staff_client.post(reverse(f"{name}_delete", args=[row.pk])).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()
