from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from season.models import Round
from season.replay import stage_replay


class Command(BaseCommand):
    help = "Re-simulate a resolved stage from its stored seed and inputs; exit 1 on any difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_slug")
        parser.add_argument("stage_number", type=int)

    def handle(self, *args: object, **options: Any) -> None:
        try:
            stage = Round.objects.select_related("season", "stage").get(
                season__slug=options["season_slug"], number=options["stage_number"]
            )
        except Round.DoesNotExist:
            raise CommandError(
                f"No stage {options['stage_number']} in season {options['season_slug']!r}."
            ) from None
        differences = stage_replay(round=stage)
        if differences:
            for line in differences:
                self.stderr.write(line)
            raise CommandError(
                f"Stage {stage.number} of {stage.season.slug}: {len(differences)} difference(s)."
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Stage {stage.number} of {stage.season.slug} replays identically "
                f"(seed {stage.seed})."
            )
        )
