from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from season.models import Round
from season.services.commitment import round_reveal, round_verify


class Command(BaseCommand):
    help = (
        "Check a resolved round's dice: its commitment is SHA-256 of its revealed seed, and a "
        "fresh run from the seed and the orders' nonces gives the stored results (exit 1 if not)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_slug")
        parser.add_argument("round_number", type=int)

    def handle(self, *args: object, **options: Any) -> None:
        try:
            round = Round.objects.select_related("season", "stage", "grand_prix").get(
                season__slug=options["season_slug"], number=options["round_number"]
            )
        except Round.DoesNotExist:
            raise CommandError(
                f"No round {options['round_number']} in season {options['season_slug']!r}."
            ) from None
        problems = round_verify(round=round)
        if problems:
            for line in problems:
                self.stderr.write(line)
            raise CommandError(f"Round {round.number} of {round.season.slug} does not verify.")
        reveal = round_reveal(round=round)
        assert reveal is not None
        self.stdout.write(f"commitment {reveal.commitment} = SHA-256({reveal.seed})")
        for _team_id, name, nonce in reveal.nonces:
            self.stdout.write(f"  nonce of {name}: {nonce}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Round {round.number} of {round.season.slug} verifies: dice seed "
                f"{reveal.dice_seed}, the results replay identically."
            )
        )
