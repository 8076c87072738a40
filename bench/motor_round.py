"""One Grand Prix round end to end on PostgreSQL: the motor demo season's round 1 resolved
(load the grid and orders, simulate qualifying and race, write results, events, trace, dice log
and both standings), seconds per round, and the share of the engine run in it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/grandtour_bench_motor \
    .venv/bin/python bench/motor_round.py [--runs 5] [--round 1]

The database named by DATABASE_URL is migrated and its motor demo season (demo-f1) replaced
before each run. Goal (issue 15): at most 0.3 s a round.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--round", type=int, default=1, help="the round to resolve (1 to 15)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from plugins import adapter_for
    from season.demo import motor_demo_load
    from season.models import Round
    from season.services.commitment import dice_seed_of
    from season.services.resolution import round_resolve

    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; figures are for", connection.vendor)
    call_command("migrate", verbosity=0)

    totals, engines, queries = [], [], []
    for _ in range(args.runs):
        season = motor_demo_load()
        rounds = list(season.rounds.order_by("number"))
        for earlier in rounds[: args.round - 1]:
            round_resolve(round_id=earlier.pk)
        target = Round.objects.select_related("season", "grand_prix__track").get(
            pk=rounds[args.round - 1].pk
        )
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            resolved = round_resolve(round_id=target.pk)
        totals.append(time.perf_counter() - started)
        queries.append(len(captured))
        assert resolved.status == Round.Status.RESOLVED
        # The engine's share: the same inputs and seed simulated again, outside the database.
        adapter = adapter_for(season.ruleset)
        started = time.perf_counter()
        adapter.simulate(resolved.engine_inputs, seed=dice_seed_of(resolved))
        engines.append(time.perf_counter() - started)
    median = statistics.median(totals)
    print(
        f"one Grand Prix round end to end (round {args.round}, 12 cars, "
        f"{resolved.grand_prix.laps} laps, qualifying and race): "
        f"{median:.3f} s median of {args.runs} (min {min(totals):.3f} s, max {max(totals):.3f} s); "
        f"goal <= 0.3 s: {'met' if median <= 0.3 else 'NOT met'}"
    )
    print(
        f"  of which the simulation (inputs + engine): {statistics.median(engines):.3f} s median; "
        f"SQL queries: {statistics.median(queries):.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
