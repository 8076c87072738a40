"""Small leagues for the organiser and player tests: a real race with a route and a start list
of riders from a few real teams, and a season created on it the way the organiser does."""

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from races.models import Race, RaceEntry
from riders.models import Rider
from season.leagues import SeasonSettings, season_create, season_join
from season.models import Round, Season, SeasonTeam
from season.rule_settings import RuleSettings
from tests.factories import RaceFactory, RiderFactory, StageFactory, TeamFactory


def template_race(
    *, stages: int = 3, real_teams: int = 4, riders_per_team: int = 4, start_list: bool = False
) -> Race:
    """A real race with ``stages`` stages and riders of ``real_teams`` real teams, with its
    start list (with bibs) if ``start_list``; without one, as an admin may import a race, the
    teams are picked from the riders of the year's real teams."""
    race = RaceFactory(kind=Race.Kind.REAL, year=2023)
    for number in range(1, stages + 1):
        StageFactory(race=race, number=number)
    bib = 0
    for _index in range(real_teams):
        team = TeamFactory(year=race.year)
        for rider in RiderFactory.create_batch(riders_per_team, team=team):
            bib += 1
            if start_list:
                RaceEntry.objects.create(race=race, rider=rider, team=team, bib=bib)
    return race


def league(
    *,
    organiser: Any,
    template: Race | None = None,
    slug: str = "friends",
    first_deadline: datetime | None = None,
    hours_between: int = 24,
    options: dict[str, Any] | None = None,
    **settings: Any,
) -> Season:
    event = template or template_race()
    values: dict[str, Any] = {
        "name": "Friends' Tour",
        "ruleset": "moreno",
        "is_public": True,
        "rule_settings": RuleSettings(),
        "roster_size": 2,
        "formation_mode": Season.FormationMode.DRAFT,
        "budget": 180,
        "max_per_real_team": 3,
        "time_zone": "Europe/Paris",
        # What the race allows: the whole start list where it has one (the create form's rule).
        "peloton": Season.Peloton.START_LIST
        if isinstance(event, Race) and RaceEntry.objects.filter(race=event).exists()
        else Season.Peloton.PLAYERS,
    } | settings
    return season_create(
        organiser=organiser,
        slug=slug,
        event=event,
        settings=SeasonSettings(**values),
        first_deadline=first_deadline or timezone.now() + timedelta(days=2),
        hours_between=hours_between,
        options=options,
    )


def joined(season: Season, *users: Any) -> list[SeasonTeam]:
    return [
        season_join(season=season, user=user, team_name=f"{user.username.title()} Racing")
        for user in users
    ]


def stage(season: Season, number: int) -> Round:
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def free_riders(season: Season) -> list[Rider]:
    from season.formation import free_pickables

    return free_pickables(season=season)


def only_results_due(season: Season, *, at: datetime) -> None:
    """Mark every notice of the season's rounds but the results' as told at ``at``: orders
    open, the deadline missed, and every reminder of every player (season.notifications)."""
    from accounts.models import REMINDER_HOURS
    from season.models import Reminder

    rounds = list(season.rounds.all())
    Round.objects.filter(season=season).update(orders_opened_notified_at=at, missed_notified_at=at)
    owners = list(season.teams.filter(owner__isnull=False).values_list("owner_id", flat=True))
    Reminder.objects.bulk_create(
        [
            Reminder(round=round, user_id=owner, hours=hours, sent_at=at)
            for round in rounds
            for owner in owners
            for hours in REMINDER_HOURS
        ],
        ignore_conflicts=True,
    )


def squad_riders(year: int = 2023) -> dict[str, Rider]:
    """Four riders of one real team at distinct prices: a climber (the GC leader), a sprinter,
    a rouleur and a domestique (the cheapest)."""
    team = TeamFactory(year=year)
    return {
        "leader": RiderFactory(team=team, climber=4, time_trialist=3),
        "sprinter": RiderFactory(team=team, sprinter=3),
        "rouleur": RiderFactory(team=team, rouleur=2),
        "domestique": RiderFactory(team=team),
    }


def two_race_league(*, organiser: Any, players: tuple[Any, Any], ruleset: str = "moreno") -> tuple:
    """A budget season of two 2-stage races, two players with squads of four (squad_riders),
    race 2 starting two riders a team: (season, race 2's event, team 1, team 2, team 1's
    riders, team 2's riders)."""
    from season import formation
    from season.leagues import calendar_event_add

    first = template_race(stages=2, real_teams=0)
    riders_1, riders_2 = squad_riders(), squad_riders()
    season = league(
        organiser=organiser,
        template=first,
        ruleset=ruleset,
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=4,
        budget=1000,
        max_per_real_team=None,
        first_deadline=timezone.now() + timedelta(days=2),
    )
    team_1, team_2 = joined(season, *players)
    formation.team_select(team=team_1, pickable_ids=[r.pk for r in riders_1.values()])
    formation.team_select(team=team_2, pickable_ids=[r.pk for r in riders_2.values()])
    item = calendar_event_add(
        season=season,
        event=template_race(stages=2, real_teams=0),
        first_deadline=timezone.now() + timedelta(days=5),
        hours_between=24,
        starters=2,
    )
    season = Season.objects.get(pk=season.pk)
    return season, item, team_1, team_2, riders_1, riders_2


def distinct_team_picks(season: Season, count: int, *, taken: Any = ()) -> list[int]:
    """`count` riders of the season's pool no team holds, each of another real team, the
    cheapest first (any budget and a one-rider-per-team rule take them)."""
    from races.team_rules import rider_price
    from season import formation

    picks, teams = [], set()
    for rider in sorted(formation.pool(season=season), key=lambda r: (rider_price(r), r.pk)):
        if rider.pk not in taken and rider.team_id not in teams:
            picks.append(rider.pk)
            teams.add(rider.team_id)
        if len(picks) == count:
            return picks
    raise AssertionError(f"the pool has no {count} riders of distinct teams left")
