"""A small real championship (three Grands Prix on the shipped tracks, eight constructors of
two drivers each) and a motor season created on it the way the organiser does."""

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from motor.models import Championship, Constructor, Driver, Entry, GrandPrix, PointsSystem, Track
from motor.points_presets import presets_ensure
from motor.track_files import shipped_tracks_load
from season.leagues import SeasonSettings, season_join
from season.models import Season, SeasonTeam
from season.motor_league import season_create_from_championship
from season.rule_settings import RuleSettings

CONSTRUCTORS = ("Williams", "Brabham", "Renault", "Ligier", "Ferrari", "McLaren", "Lotus", "Alfa")
GRANDPRIX_CIRCUITS = ("monza", "monaco", "gilles-villeneuve")
LUDICITUDE_CIRCUITS = ("anneau-exemple", "anneau-rapide", "lacets")


def real_championship(*, constructors: int = 8, circuits: tuple[str, ...] = GRANDPRIX_CIRCUITS):
    shipped_tracks_load()
    presets_ensure()  # a transactional test's flush removed the migration's rows
    system = PointsSystem.objects.get(slug="f1-1981")
    championship = Championship.objects.create(
        slug="formula-1-1981", name="Formula 1 1981", year=1981, points_system=system
    )
    number = 1
    for name in CONSTRUCTORS[:constructors]:
        constructor = Constructor.objects.create(slug=name.lower(), name=name)
        for seat in (1, 2):
            driver = Driver.objects.create(
                slug=f"{name.lower()}-driver-{seat}", name=f"{name} Driver {seat}"
            )
            Entry.objects.create(
                championship=championship,
                driver=driver,
                constructor=constructor,
                engine="Ford",
                number=number,
            )
            number += 1
    for index, circuit in enumerate(circuits, start=1):
        GrandPrix.objects.create(
            championship=championship,
            round=index,
            name=f"{circuit.title()} Grand Prix",
            circuit=circuit.title(),
            circuit_slug=circuit,
            track=Track.objects.filter(slug__startswith=circuit).order_by("-version").first(),
            laps=60,
        )
    return championship


def motor_league(
    *,
    organiser: Any,
    championship: Championship | None = None,
    ruleset: str = "grandprix",
    slug: str = "f1-friends",
    first_deadline: datetime | None = None,
    formation_mode: str = Season.FormationMode.BUDGET,
    budget: int = 180,
    points_system: str = "grandprix",
    **settings: Any,
) -> Season:
    values: dict[str, Any] = {
        "name": "Friends' Championship",
        "ruleset": ruleset,
        "is_public": True,
        "rule_settings": RuleSettings(),
        "roster_size": 2,
        "formation_mode": formation_mode,
        "budget": budget,
        "max_per_real_team": None,
        "time_zone": "Europe/Paris",
    } | settings
    if championship is None:
        circuits = LUDICITUDE_CIRCUITS if ruleset == "ludicitude" else GRANDPRIX_CIRCUITS
        championship = real_championship(circuits=circuits)
    return season_create_from_championship(
        organiser=organiser,
        slug=slug,
        championship=championship,
        settings=SeasonSettings(**values),
        points_system=PointsSystem.objects.get(slug=points_system),
        first_deadline=first_deadline or timezone.now() + timedelta(days=2),
        hours_between=24,
    )


def joined(season: Season, *users: Any) -> list[SeasonTeam]:
    return [
        season_join(season=season, user=user, team_name=f"{user.username.title()} Racing")
        for user in users
    ]


def free_entries(*, season: Season) -> list[Any]:
    """The championship's cars no team drives yet, in entry order."""
    from season.formation import free_pickables

    return free_pickables(season=season)


def car_pick(*, season: Season, team: SeasonTeam, entry: Any, user: Any = None) -> Any:
    """The team takes a car as its player would: on turn in a draft, within the budget
    otherwise (season.formation); the car's seat."""
    from season import formation

    if season.formation_mode == Season.FormationMode.DRAFT:
        formation.draft_pick(season=season, team=team, pickable=entry, user=user)
        return team.seats.get(entry=entry)
    return formation.budget_pick(team=team, pickable=entry)


def two_cars_each(season: Season, *teams: SeasonTeam) -> None:
    """Each team takes the first two free cars of the pool."""
    for team in teams:
        for _ in range(2):
            car_pick(season=season, team=team, entry=free_entries(season=season)[0])


def round_resolved(season: Season, number: int = 1) -> Any:
    """Open round ``number`` if it is scheduled, pass its deadline and resolve it in-process."""
    from season.models import Round
    from season.services.lifecycle import round_open
    from season.services.resolution import round_resolve

    round_ = season.rounds.get(number=number)
    if round_.status == Round.Status.SCHEDULED:
        round_open(round=round_)
    Round.objects.filter(pk=round_.pk).update(orders_deadline=timezone.now())
    return round_resolve(round_id=round_.pk)
