import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from season import selectors
from season.calendar import season_calendar
from season.models import Season

COLUMNS = ["event", "race", "round", "round_in_race", "name", "deadline", "status"]


class Command(BaseCommand):
    help = (
        "Print a season's calendar, one row per round: its event's number and race, the round's "
        "number in the season and in its race, its name, its deadline (ISO, in the season's "
        "time zone) and its status."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["text", "csv"], default="text")

    def handle(self, *args: object, **options: Any) -> None:
        season = Season.objects.filter(slug=options["slug"]).first()
        if season is None:
            raise CommandError(f"No season {options['slug']!r}.")
        rows = calendar_rows(season)
        if options["format"] == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(COLUMNS)
            writer.writerows(rows)
            return
        widths = [max(len(str(row[i])) for row in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
        for row in [COLUMNS, *rows]:
            self.stdout.write("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)))


def calendar_rows(season: Season) -> list[list[Any]]:
    """One row per round of the season, in order (COLUMNS)."""
    rows = []
    for event in season_calendar(season, selectors.season_rounds(season=season)):
        for row in event.rounds:
            deadline = row.round.orders_deadline
            rows.append(
                [
                    event.number,
                    event.name,
                    row.round.number,
                    row.within,
                    row.name,
                    timezone.localtime(deadline, season.tz).isoformat() if deadline else "",
                    row.round.status,
                ]
            )
    return rows
