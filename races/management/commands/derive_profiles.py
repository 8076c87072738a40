from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from races.models import Race
from races.profile_derivation import profiles_derive


class Command(BaseCommand):
    help = (
        "Suggest riders' 8-axis profiles from the imported results of real races "
        "(docs/profiles.md). The suggestions are kept beside the ratings for the admin to "
        "approve; --apply makes them the ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--race", help='a race name or slug, e.g. "Tour de France"')
        parser.add_argument("--year", type=int, help="the edition, with --race")
        parser.add_argument(
            "--apply", action="store_true", help="apply every suggestion to the ratings"
        )

    def handle(self, *args: object, **options: object) -> None:
        races = Race.objects.filter(kind=Race.Kind.REAL)
        name = options["race"]
        if name:
            races = races.filter(Q(name__iexact=name) | Q(slug__istartswith=name))
        if options["year"]:
            races = races.filter(year=int(options["year"]))  # type: ignore[call-overload]
        if not races.exists():
            raise CommandError("No real race matches: import its results first (import_results).")
        report = profiles_derive(races=races, apply=bool(options["apply"]))
        self.stdout.write(f"Races: {', '.join(report.races)}")
        self.stdout.write(
            f"{report.riders} rider(s): {report.suggested} suggested, "
            f"{report.flagged} flagged with too little data (ratings kept)."
        )
        if options["apply"]:
            self.stdout.write(self.style.SUCCESS(f"Applied: {report.applied} rating(s) changed."))
        else:
            self.stdout.write("Review them in the admin (Riders), or run again with --apply.")
