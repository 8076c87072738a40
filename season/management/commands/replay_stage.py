from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from plugins import adapter_for
from season.models import Round
from season.replay import stage_replay


class Command(BaseCommand):
    help = (
        "Re-simulate a resolved round (stage or Grand Prix) from its stored seed and inputs; "
        "exit 1 on any difference."
    )

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
        # "Stage 3" or "Grand Prix 3": the game's own word for a round.
        noun = adapter_for(stage.season.ruleset).round_noun
        named = f"{noun[:1].upper()}{noun[1:]} {stage.number}"
        if differences:
            for line in differences:
                self.stderr.write(line)
            raise CommandError(f"{named} of {stage.season.slug}: {len(differences)} difference(s).")
        self.stdout.write(
            self.style.SUCCESS(
                f"{named} of {stage.season.slug} replays identically (seed {stage.seed})."
            )
        )
