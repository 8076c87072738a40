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
from races.models import Race, Stage
from races.services import race_copy_for_league
from riders.models import RATING_AXES, Rating, Rider, Team
from riders.names import team_key
from season.models import Membership, Round, Season, SeasonTeam, SeasonTeamRider

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
    return race, teams, riders


@transaction.atomic
def demo_load(*, fixtures_dir: Path = FIXTURES_DIR, today: date | None = None) -> Season:
    """Create (or re-create) the demo season with its teams, riders, stages and logins."""
    template, teams, riders = _load_template(fixtures_dir)
    users = {login.username: _user(login) for login in DEMO_LOGINS}

    old = Season.objects.filter(slug=DEMO_SLUG).select_related("race").first()
    if old is not None:
        old_race = old.race
        old.delete()
        old_race.delete()

    race = race_copy_for_league(
        template=template, name="Demo Tour 2023", slug=f"{DEMO_SLUG}-{TEMPLATE_SLUG}"
    )
    season = Season(
        name="Demo Tour 2023",
        slug=DEMO_SLUG,
        organiser=users["olivia"],
        race=race,
        is_public=True,
        # The demo shows each stage's results as soon as it is resolved (simulate_season).
        auto_publish=True,
    )
    season.full_clean()
    season.save()

    # One stage a day from tomorrow, orders due at 20:00 local time.
    first_day = (today or timezone.localdate()) + timedelta(days=1)
    tz = timezone.get_current_timezone()
    Round.objects.bulk_create(
        Round(
            season=season,
            stage=stage,
            number=stage.number,
            orders_deadline=datetime.combine(
                first_day + timedelta(days=stage.number - 1), DEADLINE_TIME, tzinfo=tz
            ),
            status=Round.Status.OPEN if stage.number == 1 else Round.Status.SCHEDULED,
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
    SeasonTeamRider.objects.bulk_create(
        SeasonTeamRider(
            season=season,
            team=season_teams[entry.rider.team.name],  # type: ignore[union-attr]
            rider=entry.rider,
            role=entry.role,
            bib=entry.bib,
        )
        for entry in riders
    )
    return season
