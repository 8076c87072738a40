"""The demo seasons: a replica of the Tour de France 2023 run as a league (slug "demo"), a
season of three stage races on the same riders ("demo-season") and a championship of Grands
Prix ("demo-f1").

Facts come from fixtures/demo/ (teams.csv, riders.csv, stages.json), copied into the project.
"""

import csv
import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from races.course_validation import course_errors
from races.models import Race, RaceEntry, Stage
from races.services import race_copy_for_league
from riders.models import RATING_AXES, Rating, Rider, Team
from riders.names import team_key
from season.models import Membership, Round, Season, SeasonEvent, SeasonTeam, Seat
from season.services.lifecycle import round_open

if TYPE_CHECKING:
    from motor.models import Championship
    from season.leagues import SeasonSettings

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures" / "demo"
DEMO_SLUG = "demo"
TEMPLATE_SLUG = "tour-de-france-2023"
DEADLINE_TIME = time(20, 0)


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str
    team: str | None = None


DEMO_LOGINS = (
    DemoLogin("admin", "admin", "admin"),
    DemoLogin("olivia", "olivia-demo", "organiser"),
    DemoLogin("alice", "alice-demo", "player", "Jumbo-Visma"),
    DemoLogin("bob", "bob-demo", "player", "UAE Emirates"),
    DemoLogin("charlie", "charlie-demo", "player", "Alpecin-Deceuninck"),
)


@dataclass(frozen=True)
class DemoRider:
    """A rider of the demo start list, with his bib and default role."""

    rider: Rider
    bib: int
    role: str


class DemoDataError(Exception):
    pass


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _user(login: DemoLogin) -> User:
    user_model = get_user_model()
    user, _created = user_model.objects.get_or_create(
        username=login.username, defaults={"email": f"{login.username}@example.com"}
    )
    user.set_password(login.password)
    if login.role == "admin":
        user.is_staff = user.is_superuser = True
    user.save()
    return user


def _demo_users() -> dict[str, User]:
    """The demo logins as users: the existing ones as they are (demo_load set their
    passwords; hashing five again costs a second and a half), the missing ones created."""
    found = {u.username: u for u in get_user_model().objects.filter(username__in=_USERNAMES)}
    return {login.username: found.get(login.username) or _user(login) for login in DEMO_LOGINS}


_USERNAMES = [login.username for login in DEMO_LOGINS]


def _load_template(fixtures_dir: Path) -> tuple[Race, dict[str, Team], list[DemoRider]]:
    teams = {}
    for row in _read_csv(fixtures_dir / "teams.csv"):
        aliases = [alias for alias in row.get("aliases", "").split("|") if alias]
        team, _ = Team.objects.update_or_create(
            name=row["name"],
            year=int(row["year"]),
            defaults={"code": row["code"], "nationality": row["nationality"], "aliases": aliases},
        )
        teams[team.name] = team

    riders = []
    for line, row in enumerate(_read_csv(fixtures_dir / "riders.csv"), start=2):
        if row["team"] not in teams:
            raise DemoDataError(f"riders.csv line {line}: unknown team {row['team']!r}")
        ratings = {axis: Rating.parse(row[axis]).value for axis in RATING_AXES}
        rider, _ = Rider.objects.update_or_create(
            pcs_slug=row["pcs_slug"],
            defaults={
                "name": row["name"],
                "team": teams[row["team"]],
                "nationality": row["nationality"],
                "birth_date": date.fromisoformat(row["birth_date"]) if row["birth_date"] else None,
                **ratings,
                # The demo's ratings are its author's: reviewed, not suggestions.
                "ratings_reviewed_at": timezone.now(),
            },
        )
        riders.append(DemoRider(rider=rider, bib=int(row["id"]), role=row["role"]))

    race, _ = Race.objects.update_or_create(
        slug=TEMPLATE_SLUG,
        defaults={"name": "Tour de France 2023", "year": 2023, "kind": Race.Kind.REAL},
    )
    stages = json.loads((fixtures_dir / "stages.json").read_text(encoding="utf-8"))
    for item in stages:
        errors = course_errors(item["segments"], item["distance_km"])
        if errors:
            raise DemoDataError(f"stages.json stage {item['number']}: {' '.join(errors)}")
        Stage.objects.update_or_create(
            race=race,
            number=item["number"],
            defaults={
                "date": date.fromisoformat(item["date"]),
                "start": item["start"],
                "finish": item["finish"],
                "distance_km": Decimal(str(item["distance_km"])),
                "stage_type": item["stage_type"],
                "segments": item["segments"],
                "intermediate_sprints_km": item.get("intermediate_sprints_km", []),
            },
        )
    # The riders.csv is the race's start list, with its bibs: a league on it races them all.
    RaceEntry.objects.filter(race=race).exclude(rider__in=[r.rider for r in riders]).delete()
    for entry in riders:
        RaceEntry.objects.update_or_create(
            race=race,
            rider=entry.rider,
            defaults={"team": entry.rider.team, "bib": entry.bib},
        )
    return race, teams, riders


@transaction.atomic
def demo_load(*, fixtures_dir: Path = FIXTURES_DIR, today: date | None = None) -> Season:
    """Create (or re-create) the demo season with its teams, riders, stages and logins."""
    template, teams, riders = _load_template(fixtures_dir)
    users = {login.username: _user(login) for login in DEMO_LOGINS}

    old = Season.objects.filter(slug=DEMO_SLUG).first()
    if old is not None:
        season_delete(old)

    race = race_copy_for_league(
        template=template, name="Demo Tour 2023", slug=f"{DEMO_SLUG}-{TEMPLATE_SLUG}"
    )
    season = Season(
        name="Demo Tour 2023",
        slug=DEMO_SLUG,
        organiser=users["olivia"],
        is_public=True,
        # The demo shows each stage's results as soon as it is resolved (simulate_season).
        auto_publish=True,
    )
    season.full_clean()
    season.save()
    item = SeasonEvent.objects.create(season=season, number=1, race=race)

    # One stage a day from tomorrow, orders due at 20:00 local time.
    first_day = (today or timezone.localdate()) + timedelta(days=1)
    tz = timezone.get_current_timezone()
    Round.objects.bulk_create(
        Round(
            season=season,
            season_event=item,
            stage=stage,
            number=stage.number,
            orders_deadline=datetime.combine(
                first_day + timedelta(days=stage.number - 1), DEADLINE_TIME, tzinfo=tz
            ),
            status=Round.Status.SCHEDULED,
        )
        for stage in race.stages.order_by("number")
    )

    Membership.objects.create(season=season, user=users["olivia"], role=Membership.Role.ORGANISER)
    team_names_by_key = {team_key(name): name for name in teams}
    owners = {}
    for login in DEMO_LOGINS:
        if login.team is None:
            continue
        if team_key(login.team) not in team_names_by_key:
            raise DemoDataError(f"demo player team {login.team!r} is not in teams.csv")
        owners[team_names_by_key[team_key(login.team)]] = users[login.username]
        Membership.objects.create(
            season=season, user=users[login.username], role=Membership.Role.PLAYER
        )

    season_teams = {
        name: SeasonTeam.objects.create(season=season, name=name, owner=owners.get(name))
        for name in teams
    }
    Seat.objects.bulk_create(
        Seat(
            season=season,
            team=season_teams[entry.rider.team.name],  # type: ignore[union-attr]
            rider=entry.rider,
            role=entry.role,
            number=entry.bib,
        )
        for entry in riders
    )
    # Stage 1 opens through the lifecycle, which draws and commits its seed.
    round_open(round=season.rounds.get(number=1))
    return season


def season_delete(season: Season) -> None:
    """Delete a demo season and the league copies its calendar raced (a copy is PROTECTed
    from its event; a motor result keeps its entry, so the copy's results go first)."""
    from motor.models import Result

    copies = [item.event for item in season.calendar()]
    season.delete()
    for copy in copies:
        if isinstance(copy, Race):
            copy.delete()
        else:
            Result.objects.filter(grand_prix__championship=copy).delete()
            copy.delete()


# --- the motor demo: a league season of Grands Prix on the demo 1981 championship ------------

MOTOR_DEMO_SLUG = "demo-f1"
MOTOR_DEMO_NAME = "Demo Grand Prix 1981"
MOTOR_DEMO_RULESET = "grandprix"
MOTOR_DEMO_POINTS = "f1-1961-1990"
#: The players' teams and the constructor whose two cars each drives (the other three
#: constructors' cars go to computer teams).
MOTOR_DEMO_TEAMS = (
    ("alice", "Alice Racing", "williams"),
    ("bob", "Bob Grand Prix", "renault"),
    ("charlie", "Charlie Motorsport", "ferrari"),
)


def motor_demo_load(*, today: date | None = None) -> Season:
    """Create (or re-create) the motor demo season ``demo-f1``: the demo 1981 championship
    (motor.demo, 15 Grands Prix on their circuits' tracks, the 12 cars of six real teams) run
    by olivia with the Grand Prix ruleset and the 1961-1990 points; alice, bob and charlie each
    drive the two cars of one team, computer teams the other six cars; round 1 is open for
    orders (a Grand Prix a day, orders due at 20:00) and can be resolved at once."""
    from motor.demo import demo_championship_load

    with transaction.atomic():
        championship = demo_championship_load().championship
        old = Season.objects.filter(slug=MOTOR_DEMO_SLUG).first()
        if old is not None:
            season_delete(old)
        season = motor_demo_season_create(
            championship=championship,
            slug=MOTOR_DEMO_SLUG,
            name=MOTOR_DEMO_NAME,
            ruleset=MOTOR_DEMO_RULESET,
            points=MOTOR_DEMO_POINTS,
            today=today,
        )
    return season


def motor_demo_season_create(
    *,
    championship: "Championship",
    slug: str,
    name: str,
    ruleset: str,
    points: str,
    today: date | None = None,
) -> Season:
    """The motor demo's league on ``championship``: run by olivia with ``ruleset`` and the
    points system ``points``, results public as soon as a round is resolved; alice, bob and
    charlie each drive the two cars of one team (MOTOR_DEMO_TEAMS), computer teams the others;
    round 1 open for orders (a Grand Prix a day, orders due at 20:00). In the caller's
    transaction."""
    from motor.models import PointsSystem
    from season.computer_teams import computer_teams_fill
    from season.formation import budget_pick
    from season.leagues import SeasonSettings, season_create, season_join
    from season.rule_settings import RuleSettings

    users = _demo_users()
    first_day = (today or timezone.localdate()) + timedelta(days=1)
    first = datetime.combine(first_day, DEADLINE_TIME, tzinfo=timezone.get_current_timezone())
    season = season_create(
        organiser=users["olivia"],
        slug=slug,
        event=championship,
        settings=SeasonSettings(
            name=name,
            ruleset=ruleset,
            is_public=True,
            rule_settings=RuleSettings(),
            roster_size=2,
            formation_mode=Season.FormationMode.BUDGET,
            budget=1000,
            max_per_real_team=None,
            time_zone=timezone.get_current_timezone_name(),
        ),
        first_deadline=first,
        hours_between=24,
        options={"points_system": PointsSystem.objects.get(slug=points)},
    )
    # The demo shows each round's results as soon as it is resolved, as the Tour does.
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    season.refresh_from_db()
    assert season.championship is not None
    entries = list(season.championship.entries.select_related("constructor").order_by("pk"))
    for username, team_name, constructor in MOTOR_DEMO_TEAMS:
        team = season_join(season=season, user=users[username], team_name=team_name)
        for entry in [e for e in entries if e.constructor.slug == constructor]:
            budget_pick(team=team, pickable=entry)
    computer_teams_fill(season=season)
    round_open(round=season.rounds.get(number=1))
    return season


# --- the demo season: a calendar of three stage races on the 2023 riders --------------------

SEASON_DEMO_SLUG = "demo-season"
SEASON_DEMO_NAME = "Demo Season 2023"
SEASON_DEMO_RULESET = "moreno"
SEASON_DEMO_ROSTER = 10
#: How many of his squad each player starts in each race: the critérium, the week, the Tour.
SEASON_DEMO_STARTERS = (6, 7, 8)
#: How many riders of one real team a player's squad may hold: the draft spreads the stars.
SEASON_DEMO_MAX_PER_TEAM = 2
#: Days between the last stage of a race and the first of the next.
SEASON_DEMO_GAP_DAYS = 3
#: The draft order is drawn with this seed: the demo's squads are the same at every load.
SEASON_DEMO_DRAFT_SEED = 2023


@dataclass(frozen=True)
class DemoRoute:
    """A short stage race of the demo, its route made of stages of the Tour de France 2023."""

    slug: str
    name: str
    #: The Tour's stage numbers, in the order this race rides them.
    tour_stages: tuple[int, ...]
    first_day: date


#: The demo season's first two races (the third is the Tour itself): a critérium of a flat, a
#: hilly, a mountain stage and the time trial, then a week-long race of seven stages.
DEMO_ROUTES = (
    DemoRoute("demo-criterium-2023", "Demo Critérium 2023", (4, 12, 14, 16), date(2023, 6, 4)),
    DemoRoute("demo-week-2023", "Demo Week 2023", (1, 3, 5, 7, 9, 16, 20), date(2023, 6, 11)),
)


def demo_route_load(route: DemoRoute, *, tour: Race) -> Race:
    """The real race ``route`` (what an admin would import): the Tour's stages it rides,
    renumbered 1.., a day apart, and the Tour's start list with its bibs."""
    race, _ = Race.objects.update_or_create(
        slug=route.slug, defaults={"name": route.name, "year": 2023, "kind": Race.Kind.REAL}
    )
    stages = {stage.number: stage for stage in tour.stages.all()}
    race.stages.exclude(number__lte=len(route.tour_stages)).delete()
    for number, tour_number in enumerate(route.tour_stages, start=1):
        stage = stages[tour_number]
        Stage.objects.update_or_create(
            race=race,
            number=number,
            defaults={
                "date": route.first_day + timedelta(days=number - 1),
                "start": stage.start,
                "finish": stage.finish,
                "distance_km": stage.distance_km,
                "stage_type": stage.stage_type,
                "segments": stage.segments,
                "intermediate_sprints_km": stage.intermediate_sprints_km,
            },
        )
    start_list = set(tour.entries.values_list("rider_id", "team_id", "bib"))
    if set(race.entries.values_list("rider_id", "team_id", "bib")) != start_list:
        race.entries.all().delete()
        RaceEntry.objects.bulk_create(
            RaceEntry(race=race, rider_id=rider, team_id=team, bib=bib)
            for rider, team, bib in sorted(start_list)
        )
    return race


def _season_demo_settings() -> "SeasonSettings":
    """What olivia chose for the demo season: a Moréno league drafted in squads of eight."""
    from season.leagues import SeasonSettings
    from season.rule_settings import RuleSettings

    return SeasonSettings(
        name=SEASON_DEMO_NAME,
        ruleset=SEASON_DEMO_RULESET,
        is_public=True,
        rule_settings=RuleSettings(),
        roster_size=SEASON_DEMO_ROSTER,
        formation_mode=Season.FormationMode.DRAFT,
        budget=Season._meta.get_field("budget").get_default(),
        max_per_real_team=SEASON_DEMO_MAX_PER_TEAM,
        time_zone=timezone.get_current_timezone_name(),
        # The demo shows each stage's results as soon as it is resolved, as the Tour does.
        auto_publish=True,
        draft_pick_minutes=0,
    )


def _season_demo_draft(season: Season, *, organiser: User) -> None:
    """The players' squads, drafted in turns (order drawn with SEASON_DEMO_DRAFT_SEED), each
    pick the automatic one (season.formation.auto_choice); the last pick opens round 1 and
    seats the rest of the start list in computer teams."""
    import random

    from season.formation import draft_autopick, draft_start, draft_status

    draft_start(season=season, rng=random.Random(SEASON_DEMO_DRAFT_SEED))
    while draft_status(season=season).on_turn is not None:
        draft_autopick(season=season, user=organiser)


def season_demo_load(*, today: date | None = None) -> Season:
    """Create (or re-create) the demo season ``demo-season``: a calendar of three stage races
    on the 2023 riders — the Demo Critérium (4 stages), the Demo Week (7 stages) and the Tour
    de France 2023 (21) — run by olivia with the Moréno ruleset, built as an organiser builds
    one (season_create, calendar_event_add, season_join, the draft). alice, bob and charlie
    draft squads of ten and start six, seven and eight of them (SEASON_DEMO_STARTERS);
    computer teams ride the rest of the start list. A stage a day from tomorrow, orders due
    at 20:00, SEASON_DEMO_GAP_DAYS between two races; round 1 is open."""
    from season.computer_teams import computer_teams_fill
    from season.leagues import (
        calendar_event_add,
        calendar_event_starters,
        season_create,
        season_join,
    )

    with transaction.atomic():
        tour = Race.objects.filter(slug=TEMPLATE_SLUG).first()
        if tour is None or not tour.stages.exists():
            tour = _load_template(FIXTURES_DIR)[0]
        routes = [demo_route_load(route, tour=tour) for route in DEMO_ROUTES]
        users = _demo_users()
        old = Season.objects.filter(slug=SEASON_DEMO_SLUG).first()
        if old is not None:
            season_delete(old)
        first_day = (today or timezone.localdate()) + timedelta(days=1)
        tz = timezone.get_current_timezone()
        season = season_create(
            organiser=users["olivia"],
            slug=SEASON_DEMO_SLUG,
            event=routes[0],
            settings=_season_demo_settings(),
            first_deadline=datetime.combine(first_day, DEADLINE_TIME, tzinfo=tz),
            hours_between=24,
        )
        calendar_event_starters(season=season, number=1, starters=SEASON_DEMO_STARTERS[0])
        for race, starters in zip([*routes[1:], tour], SEASON_DEMO_STARTERS[1:], strict=True):
            last = season.rounds.order_by("-number").values_list("orders_deadline", flat=True)[0]
            assert last is not None, "season_create gives every round a deadline"
            calendar_event_add(
                season=season,
                event=race,
                first_deadline=last + timedelta(days=SEASON_DEMO_GAP_DAYS),
                hours_between=24,
                starters=starters,
            )
        for login in DEMO_LOGINS:
            if login.role == "player":
                season_join(
                    season=season,
                    user=users[login.username],
                    team_name=f"{login.username.capitalize()}'s Squad",
                )
        _season_demo_draft(season, organiser=users["olivia"])
        computer_teams_fill(season=season)  # idempotent: round 1's opening seated them
    season.refresh_from_db()
    season.calendar_forget()
    return season
