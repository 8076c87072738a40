"""The odds of an open round: its inputs simulated K times over the workers, the counts merged.

A request builds the round's inputs once, as the asker may know them (his own orders, or his
draft in their place, and the default orders for every other team; the defaults for everyone
without a team), and keys them by a hash of those inputs:
the same orders give the same key, so a table already counted is read back, and a change of
orders gives a new key and new counts. The inputs go to the odds cache (Redis, or files in the
embedded default: every worker reads them), then a chord of chunk tasks each counts its runs
(plugins.odds, a seed per run from the round's odds seed base) and the chord's callback merges the
partial counts and stores the table. Progress is the number of chunks whose mark is in the cache.

A request stops early once its odds have **settled** (plugins.odds.settled: every shown chance's
95 % interval within settings.ODDS_SETTLED_POINTS): its table is the merge of the shortest
settled prefix of chunks 0..k-1 in index order, found by the chunk that completes it, and the
chunks after it are skipped (odds_chunk checks the plan's "settled" mark before and while it
counts) and refund their runs to the budget; the chord still completes, and its merge finds the
same prefix. The same orders give the same table whichever worker finished first.

The chunks go to a queue of their own (config.celery.task_route), a request's runs come out of
an hourly budget of its member and its season (odds_budget_take), and a newer request of the
same asker cancels his running one (odds_supersede): docs/odds.md, issue 28.

Nothing here writes to the database: odds change no round, no orders and no standings.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.rate_limits import Limit, rate_give_back, rate_take
from plugins import Starter, adapter_for
from plugins.odds import (
    OddsCounts,
    OddsRow,
    RunLine,
    chunk_sizes,
    chunks,
    count_runs,
    odds_rows,
    settled,
    settled_prefix,
    widest_half_width,
)
from season.models import DONE_STATUSES, Round, Season, SeasonTeam
from season.permissions import PUBLIC_VIEW, status_visible
from season.round_names import round_name
from season.rule_settings import ODDS_RUNS_DEFAULT, ODDS_RUNS_MAX, ODDS_RUNS_MIN
from season.selectors import season_seats
from season.services.lifecycle import RoundError
from season.services.orders import team_orders_check
from season.services.resolution import round_event, round_starters

logger = logging.getLogger(__name__)

#: Runs of a request when the organiser chose none, and the bounds of his choice.
RUNS_DEFAULT = ODDS_RUNS_DEFAULT
RUNS_MIN = ODDS_RUNS_MIN
RUNS_MAX = ODDS_RUNS_MAX
#: About this many chunks a request (the progress bar's steps), each of at least MIN runs.
CHUNKS_TARGET = 40
CHUNK_RUNS_MIN = 5
#: How long the inputs, the progress marks and a counted table stay in the cache.
PLAN_SECONDS = 3600
TABLE_SECONDS = 24 * 3600
#: A chunk that is counting asks every this many runs whether its request has settled or been
#: cancelled meanwhile (one cache read), and stops there if so.
CHECK_EVERY = 10


def settle_bound() -> float:
    """The half-width (in 0..1) within which every shown chance's 95 % interval must be for a
    request to stop early: settings.ODDS_SETTLED_POINTS percentage points (0: never early)."""
    return max(0.0, float(settings.ODDS_SETTLED_POINTS)) / 100


class OddsError(RoundError):
    """Odds cannot be asked for this round now (said why)."""


def odds_cache() -> BaseCache:
    """The cache that the web process and every worker share (settings.CACHES["odds"]); the
    default cache where no such alias is configured (the tests' single process)."""
    return caches["odds" if "odds" in settings.CACHES else "default"]


def chunk_runs_for(runs: int) -> int:
    return max(CHUNK_RUNS_MIN, math.ceil(runs / CHUNKS_TARGET))


def runs_bounded(runs: int | None) -> int:
    """The organiser's number of runs (RUNS_DEFAULT when not given), refused out of bounds."""
    if runs is None:
        return RUNS_DEFAULT
    if not RUNS_MIN <= runs <= RUNS_MAX:
        raise OddsError(
            _("The odds take %(low)s to %(high)s runs, not %(runs)s.")
            % {"low": RUNS_MIN, "high": RUNS_MAX, "runs": runs}
        )
    return runs


def runs_of(season: Season) -> int:
    """The number of runs the season's organiser chose for its odds (RUNS_DEFAULT if none)."""
    return season.rules.odds_runs


def seed_base_of(round: Round) -> int:
    """The odds' seed base of a round: from the round alone, never from its own seed (the odds
    must not tell the dice of the resolution). The same base for every set of orders, so that
    two sets are compared on the same dice streams."""
    digest = hashlib.sha256(f"grandtour-odds:{round.pk}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 2


# --- the plan: inputs built once, keyed by their hash ------------------------------------


@dataclass(frozen=True)
class OddsPlan:
    key: str
    round_id: int
    runs: int
    chunk_runs: int
    base: int
    inputs: dict[str, Any]
    #: The team whose draft orders stand in for its saved ones (None: the orders as saved).
    draft_team_id: int | None = None
    #: The team whose own orders (saved, or its draft) are counted, every other team riding
    #: with its default orders (None: the defaults for everyone); only its owner reads these.
    team_id: int | None = None
    #: The half-width (0..1) within which every shown chance must be to stop early (0: never).
    settle: float = 0.0
    #: Whose budget paid for the runs ({"season", "user", "at": the take's timestamp}), so that
    #: the runs never counted are given back (odds_budget_give_back); None: nobody's.
    budget: dict[str, Any] | None = None

    @property
    def chunks(self) -> list[tuple[int, int]]:
        return chunks(self.runs, self.chunk_runs)

    def to_data(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "round_id": self.round_id,
            "runs": self.runs,
            "chunk_runs": self.chunk_runs,
            "base": self.base,
            "inputs": self.inputs,
            "draft_team_id": self.draft_team_id,
            "team_id": self.team_id,
            "settle": self.settle,
            "budget": self.budget,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> OddsPlan:
        return cls(**data)


def draft_orders_check(
    *, team: SeasonTeam, round: Round, orders: Mapping[Any, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """A team's draft orders as they would be stored ({rider id or car number: fields}),
    checked as orders_submit checks them (OrdersInvalid naming each problem); nothing is
    saved."""
    return team_orders_check(team=team, round=round, orders=orders)


def _round_check(round: Round) -> None:
    if round.status != Round.Status.OPEN:
        raise OddsError(
            _("Odds are given while orders are open; round %(number)s is %(status)s.")
            % {"number": round.number, "status": round.get_status_display()}
        )
    if adapter_for(round.season.ruleset).round_event(round) is None:
        raise OddsError(
            _("Round %(number)s has no stage nor Grand Prix.") % {"number": round.number}
        )
    hidden = hidden_round_before(round)
    if hidden is not None:
        raise OddsError(
            _("The odds open when the results of %(round)s are published.")
            % {"round": round_name(round.season, hidden)}
        )


def hidden_round_before(round: Round) -> int | None:
    """The first earlier round whose results are resolved but not yet shown to the players
    (season.permissions.status_visible in the public view), or None. The odds start from the
    standings and carried state after the previous round: while any earlier round is hidden,
    they would tell its results (the leader after it), so they are refused for everyone, the
    organiser too (a table is read by its key, whoever asked for it)."""
    season = round.season
    earlier = Round.objects.filter(season_id=round.season_id, number__lt=round.number)
    for number, status in earlier.order_by("number").values_list("number", "status"):
        if status in DONE_STATUSES and not status_visible(
            status, auto_publish=season.auto_publish, view=PUBLIC_VIEW
        ):
            return int(number)
    return None


def odds_plan(
    *,
    round: Round,
    runs: int | None = None,
    team: SeasonTeam | None = None,
    draft: Mapping[str, Mapping[str, Any]] | None = None,
) -> OddsPlan:
    """The round's inputs as ``team``'s owner may know them, and the key of their odds: his
    own orders (his ``draft``, checked, in place of his saved orders when given), every other
    team with its default orders, never its saved ones (they would tell what a rival ordered);
    without ``team`` (the organiser, a visitor, a command) the defaults for everyone. Refused
    while an earlier round's results are hidden (hidden_round_before)."""
    _round_check(round)
    runs = runs_bounded(runs)
    season = round.season
    drafted = team is not None and draft is not None
    data = _known_inputs(round=round, team=team, draft=draft)
    base = seed_base_of(round)
    settle = settle_bound()
    identity = json.dumps(
        {
            "round": round.pk,
            "ruleset": season.ruleset,
            "rules": season.rule_settings,
            "inputs": data,
            "runs": runs,
            "base": base,
            # Where the request stops early decides its table.
            "settle": settle,
            # A draft's odds are its team's own, even where the draft equals saved orders; a
            # team's odds (its own orders) are its own, even where they equal the defaults.
            "draft_team": team.pk if team is not None and drafted else None,
            "team": team.pk if team is not None else None,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    key = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]
    return OddsPlan(
        key=key,
        round_id=round.pk,
        runs=runs,
        chunk_runs=chunk_runs_for(runs),
        base=base,
        inputs=data,
        draft_team_id=team.pk if team is not None and drafted else None,
        team_id=team.pk if team is not None else None,
        settle=settle,
    )


def _known_inputs(
    *, round: Round, team: SeasonTeam | None, draft: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, Any]:
    """The round's inputs as stored, with ``team``'s orders (its ``draft`` in place of its
    saved orders when given) and the default orders for every other team (for everyone without
    ``team``): a seat left out races as the resolution races a seat without orders."""
    season = round.season
    adapter = adapter_for(season.ruleset)

    def known(seat: Starter) -> Starter:
        if team is not None and seat.team_id == team.pk:
            if draft is None:
                return seat
            return replace(seat, orders=dict(draft.get(seat.key, {})))
        return replace(seat, orders={})

    starters = [known(seat) for seat in round_starters(round=round)]
    inputs = adapter.round_inputs(
        event=round_event(round, adapter), starters=starters, rules=season.rules
    )
    return adapter.inputs_stored(inputs)


# --- running the runs --------------------------------------------------------------------


def runner_for(round: Round, inputs_data: Mapping[str, Any]) -> Callable[[int], list[RunLine]]:
    """One run of the round's stored inputs with a given seed, as the odds count it: the
    game's adapter reads the outcome (places, outs, gaps, the standing after the round)."""
    adapter = adapter_for(round.season.ruleset)
    runner: Callable[[int], list[RunLine]] = adapter.odds_runner(
        inputs_data, rules=round.season.rules, round=round
    )
    return runner


def plan_state(plan: OddsPlan, *, done: Callable[[], object] = lambda: None) -> OddsState:
    """A plan counted in this process, chunk by chunk in index order (``done()`` after each),
    without the workers or the cache, up to the first settled prefix as the workers stop: the
    same table as theirs."""
    counts = OddsCounts()
    counted = 0
    for start, stop in plan.chunks:
        counts = counts.merge(plan_count(plan, start=start, stop=stop))
        counted += 1
        done()
        if settled(counts, plan.settle):
            break
    return OddsState(
        key=plan.key,
        round_id=plan.round_id,
        runs=plan.runs,
        chunks_total=len(plan.chunks),
        chunks_done=counted,
        counts=counts,
        draft_team_id=plan.draft_team_id,
        team_id=plan.team_id,
        runs_done=counts.runs,
        settled=settled(counts, plan.settle),
        settle=plan.settle,
    )


def plan_count(
    plan: OddsPlan,
    *,
    start: int = 0,
    stop: int | None = None,
    keep_going: Callable[[], bool] | None = None,
) -> OddsCounts:
    """Count runs ``start .. stop - 1`` of a plan in this process (a chunk, or every run);
    ``keep_going`` asked every CHECK_EVERY runs (False: stop there, fewer runs counted)."""
    round = Round.objects.select_related(
        "season", "stage", "grand_prix__championship__points_system"
    ).get(pk=plan.round_id)
    run = runner_for(round, plan.inputs)
    return count_runs(
        run,
        base=plan.base,
        start=start,
        stop=plan.runs if stop is None else stop,
        keep_going=keep_going,
        check_every=CHECK_EVERY,
    )


# --- the cache: the plan, the chunks' marks, the table -----------------------------------


def _plan_key(key: str) -> str:
    return f"odds:{key}:plan"


def _meta_key(key: str) -> str:
    return f"odds:{key}:meta"


def _done_key(key: str, index: int) -> str:
    return f"odds:{key}:done:{index}"


def _table_key(key: str) -> str:
    return f"odds:{key}:table"


def _failed_key(key: str) -> str:
    return f"odds:{key}:failed"


def _cancelled_key(key: str) -> str:
    return f"odds:{key}:cancelled"


def _counts_key(key: str, index: int) -> str:
    """A chunk's counts and its worker, for the chunk that completes a settled prefix."""
    return f"odds:{key}:counts:{index}"


def _settled_key(key: str) -> str:
    """Set once a prefix of the chunks is settled: the chunks after it are skipped."""
    return f"odds:{key}:settled"


def _checked_key(key: str) -> str:
    """How many first prefixes are known not to be settled (each needs no second look)."""
    return f"odds:{key}:checked"


def _given_back_key(key: str, index: int) -> str:
    return f"odds:{key}:given-back:{index}"


def _made_key(key: str) -> str:
    return f"odds:{key}:made"


def runs_made(*, key: str) -> int:
    """The runs the workers simulated for a request, counted or not (a chunk stopped midway
    once the request settled made some runs that do not count)."""
    return int(odds_cache().get(_made_key(key)) or 0)


def _latest_key(round_id: int, asker: str) -> str:
    return f"odds:latest:{round_id}:{asker}"


@dataclass(frozen=True)
class OddsState:
    """Where a request stands: chunks back out of all, the counts once merged, or why not."""

    key: str
    round_id: int
    runs: int
    chunks_total: int
    chunks_done: int
    counts: OddsCounts | None = None
    workers: tuple[str, ...] = ()
    failed: str = ""
    finished_at: str = ""
    #: The team whose draft orders were counted (only its owner sees these odds).
    draft_team_id: int | None = None
    #: The team whose own orders were counted (only its owner sees these odds).
    team_id: int | None = None
    #: Superseded by a newer request of the same asker: its chunks count nothing.
    cancelled: bool = False
    #: Runs counted so far (the chunks back), then the runs of the table.
    runs_done: int = 0
    #: The table's every shown chance is within ``settle`` (its half-width, 0..1).
    settled: bool = False
    settle: float = 0.0

    @property
    def done(self) -> bool:
        return self.counts is not None

    @property
    def runs_counted(self) -> int:
        """The runs the table counts (fewer than ``runs`` when it settled early)."""
        return self.counts.runs if self.counts is not None else self.runs_done

    @property
    def settled_early(self) -> bool:
        return self.settled and self.runs_counted < self.runs

    @property
    def settle_points(self) -> float:
        return 100 * self.settle

    @property
    def widest_points(self) -> float | None:
        """The largest half-width of the table's 95 % intervals, in percentage points."""
        return 100 * widest_half_width(self.counts) if self.counts is not None else None

    @property
    def percent(self) -> int:
        if self.done:
            return 100
        return int(100 * self.runs_done / self.runs) if self.runs else 0

    def rows(self) -> list[OddsRow]:
        return odds_rows(self.counts) if self.counts is not None else []


def odds_state(*, key: str) -> OddsState | None:
    """The state of the request with this key (None: unknown, or forgotten by the cache)."""
    cache = odds_cache()
    table = cache.get(_table_key(key))
    if table is not None:
        return OddsState(
            key=key,
            round_id=table["round_id"],
            runs=table["runs"],
            chunks_total=table["chunks"],
            chunks_done=table["chunks"],
            counts=OddsCounts.from_data(table["counts"]),
            workers=tuple(table["workers"]),
            finished_at=table["finished_at"],
            draft_team_id=table.get("draft_team_id"),
            team_id=table.get("team_id"),
            runs_done=int(table["counts"]["runs"]),
            settled=bool(table.get("settled")),
            settle=float(table.get("settle", 0.0)),
        )
    # The plan's few numbers, kept apart from its inputs: a page or a command polls the progress
    # every second or less, and the inputs of a 176-rider stage are tens of kilobytes to decode.
    meta = cache.get(_meta_key(key))
    if meta is None:
        data = cache.get(_plan_key(key))
        if data is None:
            return None
        meta = _plan_meta(OddsPlan.from_data(data))
    total = meta["chunks"]
    done_keys = [_done_key(key, index) for index in range(total)]
    marks = cache.get_many(done_keys)
    sizes = chunk_sizes(meta["runs"], meta.get("chunk_runs") or chunk_runs_for(meta["runs"]))
    return OddsState(
        key=key,
        round_id=meta["round_id"],
        runs=meta["runs"],
        chunks_total=total,
        chunks_done=len(marks),
        failed=cache.get(_failed_key(key)) or "",
        draft_team_id=meta["draft_team_id"],
        team_id=meta.get("team_id"),
        cancelled=bool(cache.get(_cancelled_key(key))),
        runs_done=sum(size for index, size in enumerate(sizes) if done_keys[index] in marks),
        settle=float(meta.get("settle", 0.0)),
    )


def _plan_meta(plan: OddsPlan) -> dict[str, Any]:
    return {
        "round_id": plan.round_id,
        "runs": plan.runs,
        "chunks": len(plan.chunks),
        "chunk_runs": plan.chunk_runs,
        "draft_team_id": plan.draft_team_id,
        "team_id": plan.team_id,
        "settle": plan.settle,
        "budget": plan.budget,
    }


def odds_request(
    *,
    round: Round,
    runs: int | None = None,
    team: SeasonTeam | None = None,
    draft: Mapping[str, Mapping[str, Any]] | None = None,
    user: Any = None,
) -> OddsState:
    """Ask for the odds of an open round as ``team``'s owner may know them (odds_plan: his
    orders, or his ``draft``, and the defaults for every other team): a table already counted
    for the same inputs is given back at once and a request on its way is joined, neither
    spending the budget; otherwise the runs are taken from the budget (``user``'s and the
    season's, odds_budget_take: OddsError saying when to try again) and the chunks are sent.
    The asker's earlier request of the same kind on this round, still running, is cancelled
    (odds_supersede)."""
    plan = odds_plan(round=round, runs=runs, team=team, draft=draft)
    state = odds_state(key=plan.key)
    if state is not None and not state.failed and not state.cancelled:
        return state
    now = timezone.now()
    odds_budget_take(season=round.season, user=user, runs=plan.runs, now=now)
    plan = replace(
        plan,
        budget={
            "season": round.season.pk,
            "user": getattr(user, "pk", None),
            "at": now.timestamp(),
        },
    )
    cache = odds_cache()
    if state is None:
        # Two requests at once for the same inputs: the first to add the plan sends the chunks,
        # the other one joins it.
        if not cache.add(_plan_key(plan.key), plan.to_data(), PLAN_SECONDS):
            joined = odds_state(key=plan.key)
            if joined is not None:
                return joined
            return odds_request(round=round, runs=runs, team=team, draft=draft, user=user)
    else:
        cache.delete_many(
            [
                _failed_key(plan.key),
                _cancelled_key(plan.key),
                _settled_key(plan.key),
                _checked_key(plan.key),
                _made_key(plan.key),
            ]
            + [
                chunk_key(plan.key, index)
                for index in range(len(plan.chunks))
                for chunk_key in (_done_key, _counts_key, _given_back_key)
            ]
        )
        cache.set(_plan_key(plan.key), plan.to_data(), PLAN_SECONDS)
    cache.set(_meta_key(plan.key), _plan_meta(plan), PLAN_SECONDS)
    odds_supersede(plan, asker=_asker(team=team, user=user, drafted=draft is not None))
    odds_send(plan)
    return odds_state(key=plan.key) or OddsState(
        key=plan.key,
        round_id=plan.round_id,
        runs=plan.runs,
        chunks_total=len(plan.chunks),
        chunks_done=0,
        draft_team_id=plan.draft_team_id,
        team_id=plan.team_id,
    )


# --- the budget and the superseded requests ----------------------------------------------


def _member_budget(season_id: int, user_id: Any) -> tuple[str, Limit]:
    """The rate limit of one member's odds runs in a season, and its key."""
    return f"odds-member:{season_id}:{user_id}", Limit(settings.ODDS_MEMBER_RUNS_PER_HOUR, 3600)


def _season_budget(season_id: int) -> tuple[str, Limit]:
    """The rate limit of a whole season's odds runs, and its key."""
    return f"odds-season:{season_id}", Limit(settings.ODDS_SEASON_RUNS_PER_HOUR, 3600)


def odds_budget_take(*, season: Season, user: Any, runs: int, now: datetime | None = None) -> None:
    """Count ``runs`` more runs in the hour's budget of ``user`` (when given) and of the season
    (settings.ODDS_MEMBER_RUNS_PER_HOUR, ODDS_SEASON_RUNS_PER_HOUR; accounts.rate_limits, in
    the default cache); beyond either, OddsError saying in how many minutes to try again.
    A request refused has spent what it was refused on, as any rate limit."""
    now = now or timezone.now()
    user_id = getattr(user, "pk", None)
    if user_id is not None:
        name, limit = _member_budget(season.pk, user_id)
        again = rate_take(name, limit, now=now, amount=runs)
        if again is not None:
            minutes = _minutes_until(again, now=now)
            raise OddsError(
                ngettext(
                    "Odds are counted for at most %(runs)s runs an hour for each member: try "
                    "again in %(minutes)s minute.",
                    "Odds are counted for at most %(runs)s runs an hour for each member: try "
                    "again in %(minutes)s minutes.",
                    minutes,
                )
                % {"runs": limit.count, "minutes": minutes}
            )
    name, limit = _season_budget(season.pk)
    again = rate_take(name, limit, now=now, amount=runs)
    if again is not None:
        minutes = _minutes_until(again, now=now)
        raise OddsError(
            ngettext(
                "Odds are counted for at most %(runs)s runs an hour for the whole season: try "
                "again in %(minutes)s minute.",
                "Odds are counted for at most %(runs)s runs an hour for the whole season: try "
                "again in %(minutes)s minutes.",
                minutes,
            )
            % {"runs": limit.count, "minutes": minutes}
        )


def odds_budget_give_back(budget: Mapping[str, Any] | None, *, runs: int) -> None:
    """Give ``runs`` never counted (chunks skipped once settled or cancelled, or stopped
    midway) back to the budgets that paid for them, in the hour they were taken."""
    if not budget or runs <= 0:
        return
    at = datetime.fromtimestamp(float(budget["at"]), tz=UTC)
    if budget.get("user") is not None:
        rate_give_back(*_member_budget(budget["season"], budget["user"]), at=at, amount=runs)
    rate_give_back(*_season_budget(budget["season"]), at=at, amount=runs)


def _minutes_until(when: datetime, *, now: datetime) -> int:
    return max(1, math.ceil((when - now).total_seconds() / 60))


def _asker(*, team: SeasonTeam | None, user: Any, drafted: bool) -> str | None:
    """Who asks, for the superseding: the team (or the user without a team) and whether for a
    draft or for the saved orders, which the orders form asks together; None: nobody known."""
    kind = "draft" if drafted else "saved"
    if team is not None:
        return f"team-{team.pk}:{kind}"
    user_id = getattr(user, "pk", None)
    return f"user-{user_id}:{kind}" if user_id is not None else None


def odds_supersede(plan: OddsPlan, *, asker: str | None) -> None:
    """Mark ``plan`` as the asker's latest request on its round; his previous one, if another
    and not counted yet, is cancelled: its chunks still queued return without counting."""
    if asker is None:
        return
    cache = odds_cache()
    latest = _latest_key(plan.round_id, asker)
    previous = cache.get(latest)
    cache.set(latest, plan.key, PLAN_SECONDS)
    if previous and previous != plan.key and cache.get(_table_key(previous)) is None:
        cache.set(_cancelled_key(previous), 1, PLAN_SECONDS)


def odds_send(plan: OddsPlan) -> None:
    """The chord: a chunk task per run range, the merge as its callback."""
    from celery import chord

    from season.tasks import odds_chunk_task, odds_merge_task

    header = [odds_chunk_task.s(plan.key, index) for index in range(len(plan.chunks))]
    chord(header)(odds_merge_task.s(plan.key))


def odds_chunk(*, key: str, index: int, worker: str = "") -> dict[str, Any]:
    """Count one chunk of a request's runs (a worker's task): its counts as JSON, with the
    worker's name, and the chunk's mark for the progress bar. A chunk of a request already
    settled or cancelled is skipped (before it starts, or within CHECK_EVERY runs) and gives
    its runs not counted back to the budget; one that completes a settled prefix stores the
    table at once (odds_settle_check)."""
    cache = odds_cache()
    if cache.get(_cancelled_key(key)):
        # Superseded: nothing counted, no mark; the merge stores no table.
        _give_back(cache, key, index, runs=None)
        return {"index": index, "worker": worker, "counts": None, "cancelled": True}
    if cache.get(_settled_key(key)) is not None:
        _give_back(cache, key, index, runs=None)
        return {"index": index, "worker": worker, "counts": None, "skipped": True}
    data = cache.get(_plan_key(key))
    if data is None:
        raise OddsError(f"odds {key}: the inputs are no longer in the cache")
    plan = OddsPlan.from_data(data)
    start, stop = plan.chunks[index]

    def keep_going() -> bool:
        return not cache.get_many([_settled_key(key), _cancelled_key(key)])

    try:
        counts = plan_count(plan, start=start, stop=stop, keep_going=keep_going)
    except Exception as error:
        cache.set(_failed_key(key), f"{type(error).__name__}: {error}"[:500], PLAN_SECONDS)
        raise
    cache.add(_made_key(key), 0, PLAN_SECONDS)
    with contextlib.suppress(ValueError):  # expired between add and incr: a bench's figure
        cache.incr(_made_key(key), counts.runs)
    if counts.runs < stop - start:
        # Stopped midway: settled or cancelled meanwhile; the runs made do not count.
        _give_back(cache, key, index, runs=stop - start - counts.runs)
        if cache.get(_cancelled_key(key)):
            return {"index": index, "worker": worker, "counts": None, "cancelled": True}
        return {"index": index, "worker": worker, "counts": None, "skipped": True}
    cache.set(_counts_key(key, index), {"worker": worker, "counts": counts.to_data()}, PLAN_SECONDS)
    cache.set(_done_key(key, index), 1, PLAN_SECONDS)
    odds_settle_check(key=key, plan=plan)
    return {"index": index, "worker": worker, "counts": counts.to_data()}


def _give_back(cache: BaseCache, key: str, index: int, *, runs: int | None) -> None:
    """A chunk's runs never counted (all of them: ``runs`` None) back to the budget, once."""
    meta = cache.get(_meta_key(key))
    if meta is None or not meta.get("budget"):
        return
    if runs is None:
        sizes = chunk_sizes(meta["runs"], meta.get("chunk_runs") or chunk_runs_for(meta["runs"]))
        runs = sizes[index]
    if cache.add(_given_back_key(key, index), runs, PLAN_SECONDS):
        odds_budget_give_back(meta["budget"], runs=runs)


def odds_settle_check(*, key: str, plan: OddsPlan) -> int | None:
    """After a chunk stored its counts: the first prefix of chunks 0..k-1 (all stored) whose
    merged counts are settled, or, once every chunk is stored, all of them; its table stored
    (the same table whichever chunk completes it) and, when settled, the request's "settled"
    mark set, so that the later chunks are skipped. Returns k, or None while no such prefix is
    complete. Nothing is merged again while the complete prefix is one already found unsettled."""
    cache = odds_cache()
    if cache.get(_table_key(key)) is not None:
        return None
    total = len(plan.chunks)
    marks = cache.get_many([_done_key(key, index) for index in range(total)])
    complete = 0
    while complete < total and _done_key(key, complete) in marks:
        complete += 1
    checked = int(cache.get(_checked_key(key)) or 0)
    if complete <= checked and complete < total:
        return None
    stored = cache.get_many([_counts_key(key, index) for index in range(complete)])
    if len(stored) < complete:  # a part forgotten by the cache: the chord's merge decides
        return None
    parts = [stored[_counts_key(key, index)] for index in range(complete)]
    counts, counted, is_settled = settled_prefix(
        [OddsCounts.from_data(part["counts"]) for part in parts], plan.settle
    )
    if not is_settled and complete < total:
        cache.set(_checked_key(key), complete, PLAN_SECONDS)
        return None
    if is_settled:
        cache.set(_settled_key(key), {"chunks": counted, "runs": counts.runs}, PLAN_SECONDS)
    workers = {part["worker"] for part in parts[:counted]}
    _table_store(plan, counts, chunks_counted=counted, workers=workers, settled=is_settled)
    return counted


def _table_store(
    plan: OddsPlan,
    counts: OddsCounts,
    *,
    chunks_counted: int,
    workers: Iterable[str],
    settled: bool,
) -> None:
    """The request's table, unless one is stored already (the same counts: the first stays)."""
    odds_cache().add(
        _table_key(plan.key),
        {
            "round_id": plan.round_id,
            "runs": plan.runs,
            "chunks": len(plan.chunks),
            "chunks_counted": chunks_counted,
            "counts": counts.to_data(),
            "settled": settled,
            "settle": plan.settle,
            "workers": sorted(set(workers)),
            "finished_at": timezone.now().isoformat(),
            "draft_team_id": plan.draft_team_id,
            "team_id": plan.team_id,
        },
        TABLE_SECONDS,
    )


def odds_merge(*, key: str, parts: Iterable[Mapping[str, Any]]) -> OddsCounts | None:
    """The chord's callback: the chunks' counts merged in index order up to the first settled
    prefix (plugins.odds.settled_prefix; every chunk when none is), stored as the request's
    table unless the chunk that completed it stored it already (the same counts); a request
    cancelled (a chunk skipped) stores nothing."""
    parts = sorted(parts, key=lambda part: part["index"])
    cache = odds_cache()
    if any(part.get("cancelled") for part in parts):
        return None
    data = cache.get(_plan_key(key))
    if data is None:
        raise OddsError(f"odds {key}: the inputs are no longer in the cache")
    plan = OddsPlan.from_data(data)
    if [part["index"] for part in parts] != list(range(len(plan.chunks))):
        raise OddsError(f"odds {key}: chunks {[p['index'] for p in parts]} came back")
    try:
        counts, counted, is_settled = settled_prefix(
            [
                OddsCounts.from_data(part["counts"]) if part.get("counts") is not None else None
                for part in parts
            ],
            plan.settle,
        )
    except ValueError as error:
        raise OddsError(f"odds {key}: {error}") from None
    _table_store(
        plan,
        counts,
        chunks_counted=counted,
        workers=[part["worker"] for part in parts[:counted]],
        settled=is_settled,
    )
    return counts


# --- the table's labels ------------------------------------------------------------------


@dataclass(frozen=True)
class OddsLine:
    """A row of the odds table: who, and his chances in per cent."""

    entrant: str
    name: str
    team: str
    team_id: int | None
    win: float
    podium: float
    top10: float
    lead: float
    out: float
    expected_gap: float | None
    expected_place: float | None = None
    #: Each chance's 95 % interval in per cent (low, high), by the names above.
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=dict)


def _entrant_names(round: Round) -> dict[str, tuple[str, str, int | None]]:
    """{entrant id: (name, league team, team id)}: riders by rider id, cars by car number,
    each named as the game's tables name a seat."""
    adapter = adapter_for(round.season.ruleset)
    return {
        seat.key: (adapter.seat_label(seat), seat.team, seat.team_id)
        for seat in season_seats(season=round.season)
    }


def odds_lines(*, round: Round, state: OddsState) -> list[OddsLine]:
    """The table's rows, the likeliest winner first, each rider or car named with its league
    team."""
    names = _entrant_names(round)
    lines = []
    for row in state.rows():
        name, team, team_id = names.get(row.entrant, (row.entrant, "", None))
        lines.append(
            OddsLine(
                entrant=row.entrant,
                name=name,
                team=team,
                team_id=team_id,
                win=100 * row.win,
                podium=100 * row.podium,
                top10=100 * row.top10,
                lead=100 * row.lead,
                out=100 * row.out,
                expected_gap=row.expected_gap,
                expected_place=row.expected_place,
                intervals={
                    name: (100 * low, 100 * high) for name, (low, high) in row.intervals.items()
                },
            )
        )
    return lines
