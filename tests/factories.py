from datetime import date
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from races.models import Race, Stage
from riders.models import Rider, Team
from season.models import Round, Season, SeasonEvent, SeasonTeam, Seat

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
    # A test's rider is rated on purpose: reviewed (an import's riders are not).
    ratings_reviewed_at = factory.LazyFunction(timezone.now)


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
    #: The first event of its calendar (a SeasonEvent written with the season): a league copy
    #: of a stage race, or ``championship=`` a league copy of a championship.
    race = factory.SubFactory(RaceFactory, kind=Race.Kind.LEAGUE)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        race = kwargs.pop("race", None)
        championship = kwargs.pop("championship", None)
        season = super()._create(model_class, *args, **kwargs)
        if championship is not None:
            race = None
        SeasonEvent.objects.create(season=season, number=1, race=race, championship=championship)
        return season


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    season = factory.SubFactory(SeasonFactory)
    season_event = factory.LazyAttribute(lambda o: o.season.events.order_by("number").last())
    stage = factory.SubFactory(StageFactory, race=factory.SelfAttribute("..season_event.race"))
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
