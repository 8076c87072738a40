import csv

from django.core.management.base import BaseCommand, CommandError, CommandParser

from motor.models import Championship, PointsSystem
from motor.standings import table_rows


class Command(BaseCommand):
    help = (
        "Print a championship's standings after its last round, computed from the results; "
        "--points-system re-scores the same results under another system."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the championship, e.g. formula-1-1981")
        parser.add_argument("--table", choices=["drivers", "constructors"], default="drivers")
        parser.add_argument("--points-system", default="", help="a points system's name")
        parser.add_argument("--format", choices=["table", "csv"], default="table")

    def handle(self, *args: object, **options: object) -> None:
        championship = Championship.objects.filter(slug=options["slug"]).first()
        if championship is None:
            known = ", ".join(Championship.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"No championship {options['slug']!r} (known: {known}).")
        system = None
        if options["points_system"]:
            system = PointsSystem.objects.filter(slug=options["points_system"]).first()
            if system is None:
                known = ", ".join(PointsSystem.objects.values_list("slug", flat=True))
                raise CommandError(
                    f"No points system {options['points_system']!r} (known: {known})."
                )
        rows = table_rows(championship, str(options["table"]), system)
        if options["format"] == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(["position", "name", "points"])
            writer.writerows(rows)
            return
        width = max((len(name) for _, name, _ in rows), default=4)
        for position, name, points in rows:
            self.stdout.write(f"{position:>3}  {name:<{width}}  {points:>6}")
