"""The demo season: a replica of the Tour de France 2023 run as a league (slug "demo").

Facts come from fixtures/demo/ (teams.csv, riders.csv, stages.json), copied into the project.
"""

import csv
import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path

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
    from motor.models import PointsSystem
    from season.computer_teams import computer_teams_fill
    from season.formation import budget_pick
    from season.leagues import SeasonSettings, season_create, season_join
    from season.rule_settings import RuleSettings

    with transaction.atomic():
        championship = demo_championship_load().championship
        users = {login.username: _user(login) for login in DEMO_LOGINS}
        old = Season.objects.filter(slug=MOTOR_DEMO_SLUG).first()
        if old is not None:
            season_delete(old)
        first_day = (today or timezone.localdate()) + timedelta(days=1)
        first = datetime.combine(first_day, DEADLINE_TIME, tzinfo=timezone.get_current_timezone())
        season = season_create(
            organiser=users["olivia"],
            slug=MOTOR_DEMO_SLUG,
            event=championship,
            settings=SeasonSettings(
                name=MOTOR_DEMO_NAME,
                ruleset=MOTOR_DEMO_RULESET,
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
            options={"points_system": PointsSystem.objects.get(slug=MOTOR_DEMO_POINTS)},
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
