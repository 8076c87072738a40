import pytest
from django.core.management import call_command

from races.models import Race
from riders.models import Rider, Team
from season.models import Round, Season, SeasonTeam, Seat


@pytest.mark.django_db
def test_load_demo_builds_the_tour_de_france_2023_as_a_league():
    call_command("load_demo", verbosity=0)
    season = Season.objects.get(slug="demo")
    assert season.is_public
    assert season.event.kind == Race.Kind.LEAGUE
    assert season.event.template.slug == "tour-de-france-2023"
    assert season.event.stages.count() == 21
    assert Team.objects.count() == 22
    assert Rider.objects.count() == 176
    assert SeasonTeam.objects.filter(season=season).count() == 22
    assert Seat.objects.filter(season=season).count() == 176
    assert list(season.rounds.values_list("status", flat=True)[:2]) == [
        Round.Status.OPEN,
        Round.Status.SCHEDULED,
    ]
    owners = dict(
        SeasonTeam.objects.filter(owner__isnull=False).values_list("owner__username", "name")
    )
    assert owners == {
        "alice": "Jumbo-Visma",
        "bob": "UAE Emirates",
        "charlie": "Alpecin – Deceuninck",
    }


@pytest.mark.django_db
def test_the_demo_profiles_are_plausible():
    call_command("load_demo", verbosity=0)
    assert Rider.objects.get(name="Jonas Vingegaard").climber == 4
    assert Rider.objects.get(name="Tadej Pogačar").climber == 4
    assert Rider.objects.get(name="Jasper Philipsen").sprinter == 4


@pytest.mark.django_db
def test_loading_the_demo_twice_replaces_the_season_without_duplicating_riders():
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)
    assert Season.objects.filter(slug="demo").count() == 1
    assert Rider.objects.count() == 176
    assert Race.objects.count() == 2


@pytest.mark.django_db
def test_load_demo_if_empty_leaves_an_existing_season_alone():
    call_command("load_demo", verbosity=0)
    season = Season.objects.get(slug="demo")
    call_command("load_demo", "--if-empty", verbosity=0)
    assert Season.objects.get(slug="demo").pk == season.pk
