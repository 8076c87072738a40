"""Points systems and cars by their names (issue 29): a page never says a system's slug nor a
constructor's engine when it is the constructor's own."""

import pytest

from motor.models import PointsSystem
from motor.words import car_engine_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("slug", "title"),
    [("f1-1950s", "Formula 1, 1950s"), ("grandprix", "Grand Prix"), ("ludicitude", "Ludicitude")],
)
def test_a_points_system_is_called_by_its_name(slug, title):
    system = PointsSystem.objects.get(slug=slug)
    assert system.title == title
    assert str(system) == title
    assert "grandprix.md" not in system.title + system.details


def test_a_car_names_its_engine_only_when_it_is_another_makers():
    assert car_engine_text("ferrari", "ferrari") == ""
    assert car_engine_text("ford-cosworth", "lotus") == "Ford Cosworth"
    assert car_engine_text("", "lotus") == ""


def test_a_shipped_systems_name_is_said_in_french():
    from django.utils import translation

    system = PointsSystem.objects.get(slug="f1-1950s")
    with translation.override("fr"):
        assert system.title == "Formule 1, années 1950"
        assert system.details == "8-6-4-3-2 et 1 pour le meilleur tour"
