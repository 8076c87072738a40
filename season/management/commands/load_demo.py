from django.core.management.base import BaseCommand, CommandError, CommandParser

from season.demo import DEMO_LOGINS, DemoDataError, demo_load
from season.models import Season


class Command(BaseCommand):
    help = "Load the demo season (a replica of the Tour de France 2023, slug 'demo')."

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
        except DemoDataError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {season.name}: {season.rounds.count()} stages, "
                f"{season.teams.count()} teams."
            )
        )
        for login in DEMO_LOGINS:
            self.stdout.write(f"  {login.role:9} {login.username} / {login.password}")
