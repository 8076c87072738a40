import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from season.formatting import gap
from season.models import Round
from season.services import odds
from season.services.lifecycle import RoundError


class Command(BaseCommand):
    help = (
        "The odds of an open round with the orders given so far: its runs counted by the "
        "workers (a progress bar while the chunks come back), then the table."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_slug")
        parser.add_argument("round_number", type=int)
        parser.add_argument(
            "--runs",
            type=int,
            default=None,
            help=f"runs to count ({odds.RUNS_MIN} to {odds.RUNS_MAX}; default: the season's)",
        )
        parser.add_argument(
            "--top", type=int, default=20, help="rows of the table to print (0: every rider)"
        )
        parser.add_argument(
            "--wait", type=float, default=600, help="seconds to wait for the workers"
        )
        parser.add_argument(
            "--here",
            action="store_true",
            help="count every run in this process instead of sending them to the workers",
        )

    def handle(self, *args: object, **options: Any) -> None:
        try:
            round = Round.objects.select_related("season", "stage").get(
                season__slug=options["season_slug"], number=options["round_number"]
            )
        except Round.DoesNotExist:
            raise CommandError(
                f"No round {options['round_number']} in season {options['season_slug']!r}."
            ) from None
        runs = options["runs"] if options["runs"] is not None else odds.runs_of(round.season)
        started = time.perf_counter()
        try:
            if options["here"]:
                state = self._here(round, runs)
            else:
                state = self._workers(round, runs, wait=options["wait"])
        except RoundError as error:
            raise CommandError(str(error)) from error
        elapsed = time.perf_counter() - started
        self._table(round, state, top=options["top"])
        workers = f" by {len(state.workers)} worker(s)" if state.workers else ""
        counted = state.runs_counted
        self.stdout.write(
            f"{counted} runs{workers} in {elapsed:.1f} s ({counted / elapsed:.0f} runs/s)"
        )
        widest = state.widest_points or 0.0
        if state.settled_early:
            self.stdout.write(
                f"Settled at {counted} runs of the {state.runs} asked: every chance within "
                f"± {state.settle_points:g} points (95 % interval; the widest ± {widest:.2f})."
            )
        else:
            self.stdout.write(f"The widest 95 % interval: ± {widest:.2f} points.")

    def _workers(self, round: Round, runs: int, *, wait: float) -> odds.OddsState:
        state = odds.odds_request(round=round, runs=runs)
        deadline = time.monotonic() + wait
        with tqdm(total=state.chunks_total, unit="chunk", file=sys.stderr, desc="odds") as progress:
            while True:
                current = odds.odds_state(key=state.key)
                if current is None:
                    raise CommandError("The odds' inputs left the cache before the end.")
                progress.update(current.chunks_done - progress.n)
                if current.failed:
                    raise CommandError(f"A chunk failed: {current.failed}")
                if current.done:
                    return current
                if time.monotonic() > deadline:
                    raise CommandError(
                        f"{current.chunks_done} of {current.chunks_total} chunks back after "
                        f"{wait:.0f} s: is a worker running?"
                    )
                time.sleep(0.2)

    def _here(self, round: Round, runs: int) -> odds.OddsState:
        plan = odds.odds_plan(round=round, runs=runs)
        with tqdm(total=len(plan.chunks), unit="chunk", file=sys.stderr, desc="odds") as bar:
            state = odds.plan_state(plan, done=lambda: bar.update(1))
        return state

    def _table(self, round: Round, state: odds.OddsState, *, top: int) -> None:
        lines = odds.odds_lines(round=round, state=state)
        shown = lines[:top] if top else lines
        name_width = max([len(line.name) for line in shown] + [5])
        team_width = max([len(line.team) for line in shown] + [4])
        self.stdout.write(
            f"Odds of round {round.number} of {round.season.slug}: {state.runs_counted} runs "
            "(each chance ± the half-width of its 95 % interval)"
        )
        header = (
            f"{'#':>3}  {'Rider':<{name_width}}  {'Team':<{team_width}}  "
            f"{'win':>12} {'podium':>12} {'top 10':>12} {'lead':>12} {'out':>12}  {'exp. gap':>9}"
        )
        self.stdout.write(header)
        for place, line in enumerate(shown, start=1):
            expected = (
                gap(int(line.expected_gap + 0.5)) or "s.t."
                if line.expected_gap is not None
                else "-"
            )
            chances = " ".join(
                _chance(getattr(line, name), line.intervals.get(name))
                for name in ("win", "podium", "top10", "lead", "out")
            )
            self.stdout.write(
                f"{place:>3}  {line.name:<{name_width}}  {line.team:<{team_width}}  "
                f"{chances}  {expected:>9}"
            )
        if len(shown) < len(lines):
            self.stdout.write(f"({len(lines) - len(shown)} more riders: --top 0 lists them all)")


def _chance(value: float, interval: tuple[float, float] | None) -> str:
    """A chance and the half-width of its 95 % interval, 12 characters: " 12.3% ±0.6"."""
    if interval is None:
        return f"{value:5.1f}%{'':6}"
    low, high = interval
    return f"{value:5.1f}% ±{(high - low) / 2:<4.1f}"
