"""Workers on several hosts (issue 33): two worker hosts, each a network namespace of this machine
reaching PostgreSQL and Redis over its own veth pair (tests/integration/hosts.py), each running
the workers the README deploys on a host (the league's queue, and one of the odds' and webhooks'
queues), beat once in the root namespace. A burst of rounds of 16 leagues (cycling and motor)
falls due at once; host A is lost in the middle of it (its link down, then every process of its
namespace SIGKILLed, one of its resolutions half-written), and every round is resolved exactly
once all the same, host B finishing what A had.

What brings A's resolution back: its task was never acknowledged (acks_late), so Redis hands it
to B once the visibility timeout has passed (and the restore lock a lost host may hold has
expired, CELERY_UNACKED_MUTEX_EXPIRE); A's database session, left open in the middle of
its write transaction by a host that vanished without a word, is ended by the server after
DB_IDLE_IN_TRANSACTION_SECONDS, which frees the round's row lock for B. The test shortens both
(production: 120 s and 60 s) and the deadline check (60 s -> 1 s).
"""

import os
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from config.worker_command import worker_command
from motor.models import Result
from races.models import StageResult, Standing
from season import formation
from season.models import DiceLog, Job, Round, SeasonStanding
from season.services import lifecycle
from tests.integration.hosts import hosts
from tests.integration.processes import Processes, database_url, log_trouble, wait_for
from tests.season import builders, motor_builders

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.worker,
    pytest.mark.netns,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
# How the workers of this test recover a lost host quickly (README, "Workers on other hosts").
RECOVERY = {
    "CELERY_VISIBILITY_TIMEOUT": "20",
    "CELERY_UNACKED_RESTORE_INTERVAL": "1",
    "CELERY_UNACKED_RESTORE_THROTTLE": "1",
    "DB_IDLE_IN_TRANSACTION_SECONDS": "10",
    "STAGE_DEADLINE_CHECK_SECONDS": "1",
}
# Each host pauses before committing a round's results (the fault injection of the worker-kill
# test), host A longer: it is caught in the middle of a write transaction after it has resolved
# a round or two, while B still has rounds to do.
WRITE_PAUSE = {"a": "2", "b": "1"}
CYCLING = ("moreno",) * 6 + ("cyclosim",) * 5
MOTOR = ("grandprix",) * 5


def burst(organiser, player) -> list[Round]:  # type: ignore[no-untyped-def]
    """Round 1 of 16 leagues (11 cycling, 5 motor), teams formed, open, due in a moment."""
    rounds = []
    for index, ruleset in enumerate(CYCLING):
        template = builders.template_race(stages=2, real_teams=4, riders_per_team=4)
        season = builders.league(
            organiser=organiser, template=template, slug=f"burst-{index}", ruleset=ruleset
        )
        builders.joined(season, organiser, player)
        formation.draft_start(season=season)
        while formation.draft_status(season=season).on_turn is not None:
            formation.draft_autopick(season=season, user=organiser)
        rounds.append(season.rounds.get(number=1))
    championship = motor_builders.real_championship()
    for index, ruleset in enumerate(MOTOR):
        season = motor_builders.motor_league(
            organiser=organiser, championship=championship, slug=f"burst-f{index}", ruleset=ruleset
        )
        motor_builders.two_cars_each(season, *motor_builders.joined(season, organiser, player))
        first = season.rounds.get(number=1)
        if first.status == Round.Status.SCHEDULED:
            lifecycle.round_open(round=first)
        rounds.append(first)
    return rounds


def broker_forget(queue: str) -> None:
    """Remove from Redis every trace of this run's queues: their lists and bindings, and the
    messages the lost host never acknowledged that no worker is left to restore."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in client.scan_iter(f"*{queue}*"):
        client.delete(key)
    for tag, raw in client.hgetall("unacked").items():
        if queue in raw.decode(errors="replace"):
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


def checks_done(log: Path) -> int:
    """Deadline checks a worker has finished, by its log."""
    return sum(
        "season.stages_lock_due[" in line and "succeeded" in line
        for line in log.read_text().splitlines()
    )


def statuses(rounds: list[Round]) -> dict[int, str]:
    return dict(Round.objects.filter(pk__in=[r.pk for r in rounds]).values_list("pk", "status"))


def test_a_host_lost_in_the_middle_of_a_burst_leaves_every_round_resolved_once(
    tmp_path, alice, bob
):
    rounds = burst(alice, bob)
    ids = [r.pk for r in rounds]
    assert set(statuses(rounds).values()) == {"open"}
    assert {r.season.ruleset for r in rounds} == {"moreno", "cyclosim", "grandprix"}

    run = uuid.uuid4().hex[:8]
    queue = f"multihost-{run}"
    db_url, redis_url = database_url(connection), os.environ["REDIS_URL"]
    deployment = Processes(
        {**os.environ, "DATABASE_URL": db_url, "CELERY_QUEUE": queue, **RECOVERY}, tmp_path
    )
    odds_queue, hooks_queue = deployment.queues()[1], deployment.hooks_queue()
    names = {label: f"host-{label}-{run}" for label in ("a", "b")}
    logs: list[Path] = []
    try:
        with hosts("a", "b") as machines:
            for label, host in machines.items():
                on_host = {
                    "DATABASE_URL": host.url(db_url),
                    "REDIS_URL": host.url(redis_url),
                    "STAGE_RESOLVE_PAUSE_BEFORE_COMMIT": WRITE_PAUSE[label],
                }
                for worker, queues, concurrency in (
                    ("league", queue, 2),
                    ("side", f"{odds_queue},{hooks_queue}", 1),
                ):
                    _, log = deployment.start(
                        f"{label}-{worker}",
                        *host.command(
                            *worker_command(
                                sys.executable,
                                queues=queues,
                                hostname=f"{names[label]}-{worker}@%h",
                                concurrency=concurrency,
                            )
                        ),
                        **on_host,
                    )
                    logs.append(log)
            for log in logs:
                wait_for(lambda log=log: "ready." in log.read_text(), 60, f"{log.name}", *logs)

            # The burst falls due, and beat (root namespace, 127.0.0.1) starts the deadline checks.
            Round.objects.filter(pk__in=ids).update(orders_deadline=timezone.now())
            _, beat = deployment.celery("beat", "beat")
            logs.append(beat)

            on_a = Job.objects.filter(round_id__in=ids, worker__startswith=names["a"])
            wait_for(
                lambda: (
                    on_a.filter(status="done").exists()
                    and on_a.filter(status="running", progress=60).exists()
                ),
                120,
                "host A to resolve a round and be writing another",
                *logs,
            )
            lost_at = time.monotonic()
            machines["a"].unplug()  # the host vanishes: no goodbye reaches PostgreSQL or Redis
            # What A had: from now on it can commit nothing.
            caught = set(on_a.filter(status="running").values_list("round_id", flat=True))
            assert caught
            killed = machines["a"].kill()
            # The worst case, every run: A died holding the lock under which a worker looks for
            # unacknowledged tasks (it did in some runs, its look cut by the unplug), which
            # holds up every restore until the lock expires (CELERY_UNACKED_MUTEX_EXPIRE).
            expire = settings.CELERY_BROKER_TRANSPORT_OPTIONS["unacked_mutex_expire"]
            redis.Redis.from_url(redis_url).set("unacked_mutex", names["a"], nx=True, ex=expire)
            assert len(killed) >= 4  # two workers, the league worker's two children
            resolved_before = list(statuses(rounds).values()).count("resolved")
            assert set(Round.objects.filter(pk__in=caught).values_list("status", flat=True)) == {
                "resolving"
            }

            wait_for(
                lambda: set(statuses(rounds).values()) == {"resolved"},
                240,
                "host B to resolve every round",
                *logs,
            )
            recovered_in = time.monotonic() - lost_at
            # Two more deadline checks, run by B, must change nothing.
            checks = checks_done(tmp_path / "b-league.log")
            wait_for(
                lambda: checks_done(tmp_path / "b-league.log") >= checks + 2,
                60,
                "two more deadline checks",
                *logs,
            )
    finally:
        deployment.stop()
        broker_forget(queue)

    # Exactly once: one job each, done; one set of results, one dice log, one standings' write.
    jobs = {job.round_id: job for job in Job.objects.filter(round_id__in=ids)}
    assert sorted(jobs) == sorted(ids)
    assert {(job.status, job.progress) for job in jobs.values()} == {("done", 100)}
    assert (
        DiceLog.objects.filter(round_id__in=ids)
        .values("round_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
        == 0
    )
    assert DiceLog.objects.filter(round_id__in=ids).count() == len(ids)
    for round_ in Round.objects.filter(pk__in=ids).select_related("season", "stage", "grand_prix"):
        season = round_.season
        if round_.stage_id is not None:
            results = StageResult.objects.filter(stage=round_.stage)
            raced = len(round_.engine_inputs["entrants"])
            assert results.count() == results.values("rider_id").distinct().count() == raced
            standings = Standing.objects.filter(stage=round_.stage)
            assert (
                standings.count()
                == standings.values("classification", "rider_id").distinct().count()
            )
        else:
            results = Result.objects.filter(grand_prix=round_.grand_prix)
            assert results.count() == results.values("entry_id").distinct().count() > 0
        players = SeasonStanding.objects.filter(season=season, round=1, table="players")
        assert sorted(players.values_list("team__owner__username", flat=True)) == ["alice", "bob"]
        assert season.rounds.get(number=2).status in ("open", "scheduled")

    # Who resolved what: A some rounds before it was lost, B the rest and what A had.
    by = {round_id: job.worker.split("-")[1] for round_id, job in jobs.items()}
    assert {by[round_id] for round_id in caught} == {"b"}
    assert "a" in by.values()
    assert (
        Round.objects.filter(pk__in=caught).values_list("attempts", flat=True).distinct().get() == 2
    )
    print(
        f"\n{len(ids)} rounds: {list(by.values()).count('a')} by host A, "
        f"{list(by.values()).count('b')} by host B; {resolved_before} resolved when A was lost "
        f"in the middle of {len(caught)}; every round resolved {recovered_in:.1f} s later "
        f"(load {os.getloadavg()[0]:.2f})"
    )
    assert log_trouble(*(log for log in logs if not log.name.startswith("a-"))) == []
