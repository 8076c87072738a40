"""The odds of a stage counted by real worker processes: two of them on Redis and PostgreSQL
share the chunks, and the embedded default (filesystem broker, files for the results and the
odds' cache) counts them with its one local worker."""

import os
import uuid
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app as celery_app
from config.celery import odds_queue
from season.demo import demo_load
from season.services import odds
from tests.integration.processes import Embedded, Processes, database_url, log_trouble, wait_for

RUNS = 40  # 8 chunks of 5 runs


def _ready(log: Path) -> bool:
    return log.exists() and " ready." in log.read_text(errors="replace")


@pytest.fixture
def redis_workers(settings, tmp_path):
    """Two worker processes on a queue and a cache prefix of this test's own, and the test
    process's odds cache on the same Redis."""
    queue = f"odds-{uuid.uuid4().hex[:8]}"
    prefix = f"test-{queue}"
    settings.CACHES = {
        **settings.CACHES,
        "odds": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"{prefix}-odds",
        },
    }
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager = False
    conf.task_default_queue = queue
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")} | {
        "DATABASE_URL": database_url(connection),
        "CELERY_QUEUE": queue,
        "CACHE_KEY_PREFIX": prefix,
    }
    processes = Processes(env, tmp_path)
    yield processes
    processes.stop()
    conf.task_always_eager, conf.task_default_queue = saved
    with celery_app.connection_for_write() as broker:
        broker.default_channel.queue_delete(queue)
        broker.default_channel.queue_delete(odds_queue(queue))


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_workers_share_the_chunks_and_merge_what_one_process_counts(redis_workers):
    season = demo_load()
    round = season.rounds.select_related("season", "stage").get(number=1)
    logs = [redis_workers.worker(name)[1] for name in ("odds-a", "odds-b")]
    wait_for(lambda: all(_ready(log) for log in logs), 60, "both workers ready", *logs)

    state = odds.odds_request(round=round, runs=RUNS)
    assert state.chunks_total == 8
    wait_for(lambda: (odds.odds_state(key=state.key) or state).done, 240, "the merged odds", *logs)
    done = odds.odds_state(key=state.key)
    assert done is not None
    assert len(done.workers) == 2, f"chunks taken by {done.workers} only"
    assert {name.split("-")[1] for name in done.workers} == {"a", "b"}
    # The same runs with the same seeds, counted in this one process.
    plan = odds.odds_plan(round=round, runs=RUNS)
    assert plan.key == state.key
    assert done.counts.to_data() == odds.plan_count(plan).to_data()
    assert log_trouble(*logs) == []


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_workers_stop_at_the_settled_prefix_and_the_chord_still_merges(redis_workers, settings):
    """A bound that the first three chunks meet (and no shorter prefix): the table is theirs
    whichever worker finished first, the same as one process counting in index order; the
    chunks after them are skipped, and the chord's merge still runs."""
    from plugins.odds import merge_all, widest_half_width

    season = demo_load()
    round = season.rounds.select_related("season", "stage").get(number=1)
    plan = odds.odds_plan(round=round, runs=RUNS)
    parts = [odds.plan_count(plan, start=a, stop=b) for a, b in plan.chunks]
    widths = [widest_half_width(merge_all(parts[:n])) for n in range(1, 9)]
    assert min(widths[:2]) > widths[2], widths
    settings.ODDS_SETTLED_POINTS = 100 * (widths[2] + (min(widths[:2]) - widths[2]) / 2)
    logs = [redis_workers.worker(name)[1] for name in ("odds-a", "odds-b")]
    wait_for(lambda: all(_ready(log) for log in logs), 60, "both workers ready", *logs)

    state = odds.odds_request(round=round, runs=RUNS)
    wait_for(lambda: (odds.odds_state(key=state.key) or state).done, 240, "the settled odds", *logs)
    done = odds.odds_state(key=state.key)
    assert done is not None
    assert done.settled
    assert done.settled_early
    assert done.runs_counted == 15
    assert done.counts.to_data() == merge_all(parts[:3]).to_data()
    here = odds.plan_state(odds.odds_plan(round=round, runs=RUNS))
    assert here.counts.to_data() == done.counts.to_data()

    def merged() -> bool:
        return any(
            "season.odds_merge[" in line and "succeeded" in line
            for log in logs
            for line in log.read_text().splitlines()
        )

    wait_for(merged, 120, "the chord's merge", *logs)
    assert odds.odds_state(key=state.key).counts.to_data() == done.counts.to_data()
    assert 15 <= odds.runs_made(key=state.key) <= RUNS
    assert log_trouble(*logs) == []


def test_the_embedded_default_counts_the_odds_with_its_local_worker(tmp_path):
    embedded = Embedded(tmp_path)
    try:
        embedded.set_up_demo()
        _worker, log = embedded.worker("embedded")
        wait_for(lambda: _ready(log), 60, "the local worker", log)
        output = embedded.manage("round_odds", "demo", "1", "--runs", "10", "--top", "3")
        assert "Odds of round 1 of demo: 10 runs" in output
        assert "10 runs by 1 worker(s)" in output
        assert len([line for line in output.splitlines() if "% ±" in line]) == 3
        sent = log.read_text().count("season.odds_chunk[")
        assert sent > 0
        # Asked again with the same orders: read back from the files, no chunk sent.
        again = embedded.manage("round_odds", "demo", "1", "--runs", "10", "--top", "3")
        assert again.splitlines()[:5] == output.splitlines()[:5]
        assert log.read_text().count("season.odds_chunk[") == sent
        assert log_trouble(log) == []
    finally:
        embedded.stop()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_resolution_never_waits_behind_queued_odds(redis_workers):
    """The league's worker (the resolutions' queue only, as `make run` and the README start it)
    resolves a stage while a request's 40 chunks wait on the odds' queue; the odds' worker
    then counts them."""
    from season.models import Job
    from season.services.jobs import round_resolve_request

    season = demo_load()
    round = season.rounds.select_related("season", "stage").get(number=1)
    queue, odds_queue_name = redis_workers.queues()
    _league, league_log = redis_workers.worker("league", queues=(queue,))
    wait_for(lambda: _ready(league_log), 60, "the league's worker", league_log)

    state = odds.odds_request(round=round, runs=200)  # 40 chunks of 5 runs
    assert state.chunks_total == 40
    job = round_resolve_request(round=round)
    wait_for(
        lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
        240,
        "the resolution",
        league_log,
    )
    # Not one chunk was taken by the league's worker: they wait on their own queue.
    assert odds.odds_state(key=state.key).chunks_done == 0
    assert "season.odds_chunk[" not in league_log.read_text()

    _odds, odds_log = redis_workers.worker("odds", queues=(odds_queue_name,))
    wait_for(
        lambda: (odds.odds_state(key=state.key) or state).done,
        600,
        "the odds counted by the odds' worker",
        odds_log,
    )
    assert log_trouble(league_log, odds_log) == []


def test_the_odds_tasks_are_routed_to_a_queue_beside_the_resolutions():
    router = celery_app.amqp.router
    default = celery_app.conf.task_default_queue
    assert router.route({}, "season.stage_resolve")["queue"].name == default
    for name in ("season.odds_chunk", "season.odds_merge"):
        assert router.route({}, name)["queue"].name == odds_queue(default)
