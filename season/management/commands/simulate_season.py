import time

from celery import chain
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from plugins import adapter_for
from season.models import DONE_STATUSES, Round, Season, SeasonEvent, SeasonStanding
from season.results import players_ranking
from season.services.lifecycle import RoundError, rounds_force_lock
from season.services.resolution import round_resolve
from season.services.season_standings import standings_lines, standings_round
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
        "workers when REDIS_URL is set (in-process otherwise), every round of every event of "
        "its calendar in order; print each race's GC (or the drivers' standings) top 20 after "
        "its last round, then the season's winner."
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
        season = Season.objects.get(pk=season.pk)  # the calendar as the rounds left it
        self._print_gcs(season, numbers)
        self._print_winner(season)

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

    def _print_gcs(self, season: Season, numbers: list[int]) -> None:
        """Each event's main table (the GC, or the drivers' standings) after the last of
        ``numbers`` it holds: a race's GC after its last stage when the whole race ran."""
        adapter = adapter_for(season.ruleset)
        for item, within in last_rounds_by_event(season, numbers):
            if not season.single_event:
                self.stdout.write(f"\n{adapter.league_source(item.event)}")
            lines = adapter.league_standings_lines(item.event, number=within)
            self.stdout.write("\n" + "\n".join(lines))

    def _print_winner(self, season: Season) -> None:
        """Who wins the season once its every round is done, else who leads it."""
        ranking = season_ranking(season)
        if not ranking or ranking[0][0] is None:
            return
        over = not season.rounds.exclude(status__in=DONE_STATUSES).exists()
        _rank, team, player = ranking[0]
        verb = "wins" if over else "leads"
        self.stdout.write(f"\n{team} ({player}) {verb} {season.name}.")


def last_rounds_by_event(season: Season, numbers: list[int]) -> list[tuple[SeasonEvent, int]]:
    """For each event of the calendar holding one of the season's round ``numbers``: the event
    and the number, within it, of the last of them (in calendar order)."""
    last: dict[int, tuple[SeasonEvent, int]] = {}
    for number in sorted(numbers):
        item, within = season.event_of_round(number)
        if item is not None:
            last[item.number] = (item, within)
    return [last[key] for key in sorted(last)]


def season_ranking(season: Season) -> list[tuple[int | None, str, str]]:
    """The players' ranking of the season after its last round done, as (place, team,
    player): the season standings across the calendar's races (a calendar of several), else
    the players' ranking of its one race or championship."""
    done = season.rounds.filter(status__in=DONE_STATUSES).order_by("-number").first()
    if done is None:
        return []
    if season.single_event:
        return [
            (line.rank, line.team, line.player)
            for line in players_ranking(season=season, number=done.number)
        ]
    number = standings_round(season=season, after=done.number)
    if number is None:
        return []
    owners = dict(season.teams.values_list("pk", "owner__username"))
    return [
        (line.rank, line.name, owners.get(line.team_id or 0) or "")
        for line in standings_lines(
            season=season, number=number, table=SeasonStanding.Table.PLAYERS
        )
    ]
