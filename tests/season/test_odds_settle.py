"""Odds that settle (issue 33): a request stops at the shortest prefix of its chunks, in index
order, whose merged counts have every shown chance's 95 % interval within the bound; the chunks
after it are skipped and give their runs back; the same table whichever chunk finishes first.
On the odds cache in Redis, as the workers share it (the chunks are run here, in the orders the
tests choose)."""

import os
import uuid
from datetime import UTC, datetime

import pytest
from django.core.cache import cache as default_cache

from accounts.rate_limits import PREFIX
from plugins.odds import merge_all, widest_half_width
from season.models import Round
from season.services import odds

pytestmark = [pytest.mark.django_db, pytest.mark.redis]

RUNS = 20  # 4 chunks of 5


@pytest.fixture
def redis_odds(settings):
    """The odds cache on Redis, under a prefix of this test's own; ``fresh()`` moves to a new
    prefix (an empty cache without emptying the Redis database)."""

    def fresh() -> None:
        settings.CACHES = {
            **settings.CACHES,
            "odds": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": os.environ["REDIS_URL"],
                "KEY_PREFIX": f"test-settle-{uuid.uuid4().hex[:8]}",
            },
        }

    fresh()
    return fresh


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def stage_1(season):
    return Round.objects.select_related("stage", "season").get(season=season, number=1)


def chunk_counts(round):
    """Every chunk's counts of a RUNS-run request, counted in this process."""
    plan = odds.odds_plan(round=round, runs=RUNS)
    return [odds.plan_count(plan, start=a, stop=b) for a, b in plan.chunks]


def bound_settling_at(parts, k):
    """A bound in percentage points that the merge of the first ``k`` chunks meets and no
    shorter prefix does."""
    widths = [widest_half_width(merge_all(parts[:n])) for n in range(1, len(parts) + 1)]
    assert min(widths[: k - 1]) > widths[k - 1], f"no prefix of {k} settles first: {widths}"
    return 100 * (widths[k - 1] + (min(widths[: k - 1]) - widths[k - 1]) / 2)


def no_chord(monkeypatch):
    monkeypatch.setattr(odds, "odds_send", lambda plan: None)


def test_a_settled_prefix_is_the_table_and_the_chunks_after_it_are_skipped(
    demo, redis_odds, settings, monkeypatch
):
    round = stage_1(demo)
    parts = chunk_counts(round)
    settings.ODDS_SETTLED_POINTS = bound_settling_at(parts, 2)
    no_chord(monkeypatch)
    state = odds.odds_request(round=round, runs=RUNS)
    # Chunk 1 first: no prefix complete, nothing settled.
    first = odds.odds_chunk(key=state.key, index=1, worker="w1")
    assert first["counts"] == parts[1].to_data()
    assert not odds.odds_state(key=state.key).done
    # Chunk 0 completes the prefix 0..1, which settles: the table at once.
    odds.odds_chunk(key=state.key, index=0, worker="w0")
    done = odds.odds_state(key=state.key)
    assert done.done
    assert done.settled
    assert done.settled_early
    assert (done.runs, done.runs_counted) == (RUNS, 10)
    assert done.counts.to_data() == parts[0].merge(parts[1]).to_data()
    assert done.workers == ("w0", "w1")
    # The later chunks are skipped, counting nothing; the chord's merge finds the same table.
    later = [odds.odds_chunk(key=state.key, index=i) for i in (3, 2)]
    assert all(part["skipped"] and part["counts"] is None for part in later)
    counts = odds.odds_merge(key=state.key, parts=[first, *later, {"index": 0, **_part(parts[0])}])
    assert counts.to_data() == done.counts.to_data()
    assert odds.odds_state(key=state.key).counts.to_data() == done.counts.to_data()
    # Counted in one process, the plan stops at the same prefix.
    here = odds.plan_state(odds.odds_plan(round=round, runs=RUNS))
    assert (here.runs_counted, here.settled) == (10, True)
    assert here.counts.to_data() == done.counts.to_data()


def _part(counts):
    return {"worker": "w0", "counts": counts.to_data()}


def test_a_request_that_never_settles_counts_every_chunk(demo, redis_odds, monkeypatch):
    """One point at 95 % needs thousands of runs: 20 never settle, every chunk counts."""
    round = stage_1(demo)
    no_chord(monkeypatch)
    state = odds.odds_request(round=round, runs=RUNS)
    for index in (2, 0, 3):
        odds.odds_chunk(key=state.key, index=index)
        assert not odds.odds_state(key=state.key).done
    odds.odds_chunk(key=state.key, index=1)
    done = odds.odds_state(key=state.key)
    assert done.done
    assert not done.settled
    assert not done.settled_early
    assert done.runs_counted == RUNS
    assert done.widest_points > 1
    assert done.counts.to_data() == merge_all(chunk_counts(round)).to_data()


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1), (1, 3, 0, 2)])
def test_the_same_table_whichever_order_the_chunks_finish(
    demo, redis_odds, settings, monkeypatch, order
):
    round = stage_1(demo)
    parts = chunk_counts(round)
    settings.ODDS_SETTLED_POINTS = bound_settling_at(parts, 2)
    expected = parts[0].merge(parts[1]).to_data()
    no_chord(monkeypatch)
    state = odds.odds_request(round=round, runs=RUNS)
    results = [odds.odds_chunk(key=state.key, index=index) for index in order]
    done = odds.odds_state(key=state.key)
    assert done.counts.to_data() == expected
    assert (done.runs_counted, done.settled) == (10, True)
    # Chunks counted beyond the settled prefix (those that ran before it was complete) do not
    # count; the merge of whatever came back agrees.
    assert odds.odds_merge(key=state.key, parts=results).to_data() == expected


def test_the_chord_completes_with_its_skipped_chunks_and_merges(
    demo, redis_odds, settings, monkeypatch
):
    """Eager Celery runs the chord here, chunk 0 first: chunk 1 settles the request, chunks 2
    and 3 are skipped and still complete, so that the merge runs (and finds the same table)."""
    round = stage_1(demo)
    parts = chunk_counts(round)
    settings.ODDS_SETTLED_POINTS = bound_settling_at(parts, 2)
    merged = []
    real_merge = odds.odds_merge

    def merge(**kwargs):  # the real merge, its parts kept to look at
        parts_back = list(kwargs["parts"])
        merged.append(parts_back)
        return real_merge(key=kwargs["key"], parts=parts_back)

    monkeypatch.setattr(odds, "odds_merge", merge)
    state = odds.odds_request(round=round, runs=RUNS)
    assert state.done
    assert state.settled
    assert state.runs_counted == 10
    assert state.counts.to_data() == parts[0].merge(parts[1]).to_data()
    (back,) = merged
    assert [part.get("skipped", False) for part in back] == [False, False, True, True]


def member_spent(season, user, at: datetime) -> int:
    window = int(at.timestamp()) // 3600
    return int(default_cache.get(f"{PREFIX}odds-member:{season.pk}:{user.pk}:{window}") or 0)


def season_spent(season, at: datetime) -> int:
    window = int(at.timestamp()) // 3600
    return int(default_cache.get(f"{PREFIX}odds-season:{season.pk}:{window}") or 0)


def test_the_skipped_chunks_give_their_runs_back_to_the_budget(
    demo, redis_odds, settings, monkeypatch
):
    round = stage_1(demo)
    parts = chunk_counts(round)
    settings.ODDS_SETTLED_POINTS = bound_settling_at(parts, 2)
    team = demo.teams.filter(owner__isnull=False).order_by("pk").first()
    no_chord(monkeypatch)
    state = odds.odds_request(round=round, runs=RUNS, team=team, user=team.owner)
    taken = odds.odds_cache().get(f"odds:{state.key}:meta")["budget"]["at"]
    at = datetime.fromtimestamp(taken, tz=UTC)
    assert (member_spent(demo, team.owner, at), season_spent(demo, at)) == (RUNS, RUNS)
    parts_back = [odds.odds_chunk(key=state.key, index=index) for index in range(4)]
    assert [bool(part.get("skipped")) for part in parts_back] == [False, False, True, True]
    # Charged for the 10 runs made; a chunk run again (a redelivery) gives nothing back twice.
    assert (member_spent(demo, team.owner, at), season_spent(demo, at)) == (10, 10)
    odds.odds_chunk(key=state.key, index=3)
    assert (member_spent(demo, team.owner, at), season_spent(demo, at)) == (10, 10)
    assert odds.runs_made(key=state.key) == 10


def test_the_settle_bound_is_in_the_key(demo, redis_odds, settings):
    round = stage_1(demo)
    before = odds.odds_plan(round=round, runs=RUNS)
    settings.ODDS_SETTLED_POINTS = 2.5
    after = odds.odds_plan(round=round, runs=RUNS)
    assert (before.settle, after.settle) == (0.01, 0.025)
    assert after.key != before.key
