from django.core.management.base import BaseCommand, CommandError, CommandParser

from motor.demo import DemoChampionshipError
from season.demo import DEMO_LOGINS, DemoDataError, demo_load, motor_demo_load, season_demo_load
from season.models import Season


class Command(BaseCommand):
    help = (
        "Load the demo seasons: a replica of the Tour de France 2023 (slug 'demo'), a season "
        "of three stage races on the 2023 riders (slug 'demo-season') and a championship of "
        "Grands Prix on the 1981 calendar (slug 'demo-f1')."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the database already holds a season.",
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["if_empty"] and Season.objects.exists():
            self.stdout.write("The database already holds a season: demo not loaded.")
            return
        try:
            season = demo_load()
            calendar = season_demo_load()
            motor = motor_demo_load()
        except (DemoDataError, DemoChampionshipError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {season.name}: {season.rounds.count()} stages, "
                f"{season.teams.count()} teams."
            )
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {calendar.name}: {len(calendar.calendar())} races, "
                f"{calendar.rounds.count()} stages, "
                f"{calendar.teams.filter(owner__isnull=False).count()} players' teams."
            )
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {motor.name}: {motor.rounds.count()} Grands Prix, "
                f"{motor.teams.count()} teams of two cars."
            )
        )
        for login in DEMO_LOGINS:
            self.stdout.write(f"  {login.role:9} {login.username} / {login.password}")
