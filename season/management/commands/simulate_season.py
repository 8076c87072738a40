import time

from celery import chain
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from plugins import adapter_for
from season.models import DONE_STATUSES, Round, Season
from season.services.lifecycle import RoundError, rounds_force_lock
from season.services.resolution import round_resolve
from season.tasks import round_resolve_task


def parse_stage_numbers(text: str) -> list[int]:
    """'1-21', '3', '1,4-6' -> sorted stage numbers."""
    numbers: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise CommandError(
                f"--stages {text!r}: use numbers and ranges like 1-21 or 1,4-6"
            ) from None
        if first < 1 or last < first:
            raise CommandError(f"--stages {text!r}: {part.strip()!r} is not a valid range")
        numbers.update(range(first, last + 1))
    return sorted(numbers)


class Command(BaseCommand):
    help = (
        "Resolve the rounds (stages or Grands Prix) of a season in order, through the Celery "
        "workers when REDIS_URL is set (in-process otherwise), and print the GC (or the "
        "drivers' standings) top 20."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_slug")
        parser.add_argument("--stages", default=None, help="e.g. 1-21 (default: all stages)")
        parser.add_argument("--in-process", action="store_true", help="do not use the workers")
        parser.add_argument("--timeout", type=float, default=600, help="seconds to wait")

    def handle(self, *args: object, **options: object) -> None:
        try:
            season = Season.objects.get(slug=options["season_slug"])
        except Season.DoesNotExist:
            raise CommandError(f"No season {options['season_slug']!r}.") from None
        numbers = (
            parse_stage_numbers(str(options["stages"]))
            if options["stages"]
            else list(season.rounds.values_list("number", flat=True))
        )
        try:
            stages = [s for s in rounds_force_lock(season=season, numbers=numbers)]
        except RoundError as error:
            raise CommandError(str(error)) from error
        todo = [s for s in stages if s.status not in DONE_STATUSES]
        adapter = adapter_for(season.ruleset)
        use_workers = bool(settings.REDIS_URL) and not options["in_process"]
        started = time.monotonic()
        done = len(stages) - len(todo)
        with tqdm(total=len(stages), initial=done, unit=adapter.round_noun) as bar:
            if use_workers:
                self._through_workers(todo, bar, float(options["timeout"]))  # type: ignore[arg-type]
            else:
                for stage in todo:
                    try:
                        round_resolve(round_id=stage.pk)
                    except RoundError as error:
                        raise CommandError(str(error)) from error
                    bar.update(1)
        elapsed = time.monotonic() - started
        self.stdout.write(
            f"Resolved {len(todo)} {adapter.round_noun if len(todo) == 1 else adapter.rounds_noun}"
            f" of {season.slug} in {elapsed:.1f} s "
            f"({'workers' if use_workers else 'in-process'})."
        )
        self._print_gc(season, max(numbers))

    def _through_workers(self, todo: list[Round], bar: tqdm, timeout: float) -> None:
        if not todo:
            return
        chain(*(round_resolve_task.si(stage.pk) for stage in todo)).apply_async()
        deadline = time.monotonic() + timeout
        ids = [stage.pk for stage in todo]
        done = 0
        reported: set[tuple[int, str]] = set()
        while done < len(ids):
            if time.monotonic() > deadline:
                raise CommandError(
                    f"Timed out after {timeout:.0f} s with {done} of {len(ids)} rounds resolved."
                )
            rows = Round.objects.filter(pk__in=ids).values_list("status", "number", "last_error")
            now_done = sum(1 for status, _, _ in rows if status in DONE_STATUSES)
            failed = [(n, e) for status, n, e in rows if e and status == Round.Status.LOCKED]
            bar.update(now_done - done)
            done = now_done
            for failure in set(failed) - reported:
                self.stderr.write(f"Round {failure[0]} failed: {failure[1]} (retrying)")
                reported.add(failure)
            time.sleep(0.2)

    def _print_gc(self, season: Season, number: int) -> None:
        """The game's main table after the round: the GC, or the drivers' standings."""
        lines = adapter_for(season.ruleset).league_standings_lines(season.event, number=number)
        self.stdout.write("\n" + "\n".join(lines))
