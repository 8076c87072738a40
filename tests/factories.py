from datetime import date
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from races.models import Race, Stage
from riders.models import Rider, Team
from season.models import Round, Season, SeasonTeam, Seat

PASSWORD = "pass-for-tests"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n}")
    code = factory.Sequence(lambda n: f"T{n % 100:02d}")
    nationality = "FRA"
    year = 2023


class RiderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rider

    name = factory.Sequence(lambda n: f"Rider Number{n}")
    birth_date = date(1996, 5, 17)
    nationality = "FRA"
    team = factory.SubFactory(TeamFactory)
    pcs_slug = factory.Sequence(lambda n: f"rider-number{n}")


class RaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Race

    name = "Tour de Test"
    year = 2023
    slug = factory.Sequence(lambda n: f"tour-de-test-{n}")
    kind = Race.Kind.REAL


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stage

    race = factory.SubFactory(RaceFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = date(2023, 7, 1)
    start = "Bilbao"
    finish = "Bilbao"
    distance_km = Decimal("150.0")
    stage_type = Stage.StageType.FLAT
    segments = factory.LazyFunction(
        lambda: [
            {"terrain": "plain", "km": 100, "name": "Plain"},
            {"terrain": "col2", "km": 10, "name": "Col du Test"},
            {"terrain": "descent", "km": 10, "name": "Descent"},
            {"terrain": "plain", "km": 30, "name": "Run-in"},
        ]
    )


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    organiser = factory.SubFactory(UserFactory)
    race = factory.SubFactory(RaceFactory, kind=Race.Kind.LEAGUE)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    season = factory.SubFactory(SeasonFactory)
    stage = factory.SubFactory(StageFactory, race=factory.SelfAttribute("..season.race"))
    number = factory.SelfAttribute("stage.number")


class SeasonTeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SeasonTeam

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"League team {n}")
    owner = factory.SubFactory(UserFactory)


class SeasonTeamRiderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    team = factory.SubFactory(SeasonTeamFactory)
    season = factory.SelfAttribute("team.season")
    rider = factory.SubFactory(RiderFactory)
