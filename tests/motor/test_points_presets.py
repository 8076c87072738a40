"""The shipped points systems come back where their rows were removed, and an admin's edits of
the others are kept (the demo and the F1 import need them)."""

import pytest

from motor.models import PointsSystem
from motor.points_presets import PRESETS, presets_ensure

pytestmark = pytest.mark.django_db


def test_missing_presets_are_created_again_and_edited_ones_kept():
    PointsSystem.objects.filter(slug="f1-1961-1990").delete()
    PointsSystem.objects.filter(slug="f1-2010").update(name="Edited by an admin")
    presets_ensure()
    assert PointsSystem.objects.get(slug="f1-1961-1990").table[:3] == [9, 6, 4]
    assert PointsSystem.objects.get(slug="f1-2010").name == "Edited by an admin"
    assert PointsSystem.objects.count() >= len(PRESETS)


def test_the_demo_championship_loads_after_every_points_system_was_removed():
    from motor.demo import demo_championship_load

    PointsSystem.objects.all().delete()
    report = demo_championship_load()
    assert report.championship.points_system.slug == "f1-1961-1990"
