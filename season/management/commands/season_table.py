import csv

from django.core.management.base import BaseCommand, CommandError, CommandParser

from season.models import Season, SeasonStanding
from season.services.season_standings import (
    season_standings_rebuild,
    standings_lines,
    standings_round,
)


class Command(BaseCommand):
    help = (
        "Print a season's standings across its calendar (the players' teams or the riders) "
        "after its latest resolved round, or after --after N, as stored with the results."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the season's address, e.g. demo")
        parser.add_argument(
            "--table", choices=[c.value for c in SeasonStanding.Table], default="players"
        )
        parser.add_argument("--after", type=int, default=None, help="a round's number")
        parser.add_argument("--format", choices=["table", "csv"], default="table")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="first recompute the stored standings after every round done",
        )

    def handle(self, *args: object, **options: object) -> None:
        season = Season.objects.filter(slug=options["slug"]).first()
        if season is None:
            raise CommandError(f"No season {options['slug']!r}.")
        if options["rebuild"]:
            season_standings_rebuild(season=season)
        after = options["after"]
        number = standings_round(season=season, after=after if isinstance(after, int) else None)
        if number is None:
            raise CommandError(f"Season {season.slug!r} has no standings yet (no round resolved).")
        rows = [
            (line.rank, line.name, f"{line.points.normalize():f}", line.wins)
            for line in standings_lines(season=season, number=number, table=str(options["table"]))
        ]
        if options["format"] == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(["position", "name", "points", "wins"])
            writer.writerows(rows)
            return
        self.stdout.write(f"After round {number}")
        width = max((len(name) for _, name, _, _ in rows), default=4)
        for position, name, points, wins in rows:
            self.stdout.write(f"{position:>3}  {name:<{width}}  {points:>6}  {wins:>3}")
