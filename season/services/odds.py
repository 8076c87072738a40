"""The odds of an open round: its inputs simulated K times over the workers, the counts merged.

A request builds the round's inputs once, as the asker may know them (his own orders, or his
draft in their place, and the default orders for every other team; the defaults for everyone
without a team), and keys them by a hash of those inputs:
the same orders give the same key, so a table already counted is read back, and a change of
orders gives a new key and new counts. The inputs go to the odds cache (Redis, or files in the
embedded default: every worker reads them), then a chord of chunk tasks each counts its runs
(engine.odds, a seed per run from the round's odds seed base) and the chord's callback merges the
partial counts and stores the table. Progress is the number of chunks whose mark is in the cache.

The chunks go to a queue of their own (config.celery.task_route), a request's runs come out of
an hourly budget of its member and its season (odds_budget_take), and a newer request of the
same asker cancels his running one (odds_supersede): docs/odds.md, issue 28.

Nothing here writes to the database: odds change no round, no orders and no standings.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.rate_limits import Limit, rate_take
from engine.odds import OddsCounts, OddsRow, RunLine, chunks, count_runs, merge_all, odds_rows
from plugins import adapter_for, cycling_adapter
from races.adapters.base import EntrantSpec
from season.models import DONE_STATUSES, Round, Season, SeasonTeam, Seat
from season.orders import orders_errors
from season.permissions import PUBLIC_VIEW, status_visible
from season.round_names import round_name
from season.rule_settings import ODDS_RUNS_DEFAULT, ODDS_RUNS_MAX, ODDS_RUNS_MIN
from season.selectors import team_starters
from season.services.lifecycle import RoundError
from season.services.motor_rounds import car_orders_errors, is_motor, motor_round_inputs
from season.services.orders import OrdersInvalid
from season.services.resolution import round_entrants

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
    if is_motor(team.season):
        cars, problems = car_orders_errors(
            adapter=adapter_for(team.season.ruleset), team=team, round=round, orders=dict(orders)
        )
        if problems:
            raise OrdersInvalid(problems)
        return cars
    starters = {m.rider_pk for m in team_starters(team=team, round=round)}
    errors = orders_errors(orders=dict(orders), rider_ids=starters)
    adapter = adapter_for(team.season.ruleset)
    data = {
        str(rider_id): adapter.orders_stored(order) for rider_id, order in sorted(orders.items())
    }
    if not errors:
        errors = adapter.orders_errors(orders={int(k): v for k, v in data.items()}, round=round)
    if errors:
        raise OrdersInvalid(errors)
    return data


def _round_check(round: Round) -> None:
    if round.status != Round.Status.OPEN:
        raise OddsError(
            _("Odds are given while orders are open; round %(number)s is %(status)s.")
            % {"number": round.number, "status": round.get_status_display()}
        )
    if round.stage_id is None and round.grand_prix_id is None:
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
    if is_motor(season):
        data = motor_round_inputs(
            round=round,
            adapter=adapter_for(season.ruleset),
            draft_team_id=team.pk if team is not None and drafted else None,
            draft=draft,
            rivals_default=True,
            own_team_id=team.pk if team is not None else None,
        )
    else:
        data = _stage_inputs(round=round, team=team, draft=draft)
    base = seed_base_of(round)
    identity = json.dumps(
        {
            "round": round.pk,
            "ruleset": season.ruleset,
            "rules": season.rule_settings,
            "inputs": data,
            "runs": runs,
            "base": base,
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
    )


def _stage_inputs(
    *, round: Round, team: SeasonTeam | None, draft: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, Any]:
    """A stage's inputs as stored, with ``team``'s orders (its ``draft`` in place of its saved
    orders when given) and the default orders for every other team (for everyone without
    ``team``): an order left out rides as round_entrants gives a rider without orders."""
    season = round.season
    adapter = cycling_adapter(season.ruleset)
    entrants, yellow, green = round_entrants(round=round)
    roles = dict(Seat.objects.filter(season=season).values_list("rider_id", "role"))

    def known(spec: EntrantSpec) -> EntrantSpec:
        if team is not None and spec.team_id == team.pk:
            if draft is None:
                return spec
            order = dict(draft.get(str(spec.rider_id), {}))
        else:
            order = {}
        return replace(spec, orders=order, role=order.get("role", roles[spec.rider_id]))

    entrants = [known(spec) for spec in entrants]
    inputs = adapter.inputs_build(
        stage=round.stage,
        entrants=entrants,
        rules=season.rules,
        yellow_jersey=yellow,
        green_jersey=green,
    )
    data: dict[str, Any] = adapter.inputs_to_data(inputs)
    return data


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
    """Every run of a plan counted in this process, chunk by chunk (``done()`` after each),
    without the workers or the cache."""
    counts = OddsCounts()
    for start, stop in plan.chunks:
        counts = counts.merge(plan_count(plan, start=start, stop=stop))
        done()
    return OddsState(
        key=plan.key,
        round_id=plan.round_id,
        runs=plan.runs,
        chunks_total=len(plan.chunks),
        chunks_done=len(plan.chunks),
        counts=counts,
        draft_team_id=plan.draft_team_id,
    )


def plan_count(plan: OddsPlan, *, start: int = 0, stop: int | None = None) -> OddsCounts:
    """Count runs ``start .. stop - 1`` of a plan in this process (a chunk, or every run)."""
    round = Round.objects.select_related(
        "season", "stage", "grand_prix__championship__points_system"
    ).get(pk=plan.round_id)
    run = runner_for(round, plan.inputs)
    return count_runs(run, base=plan.base, start=start, stop=plan.runs if stop is None else stop)


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

    @property
    def done(self) -> bool:
        return self.counts is not None

    @property
    def percent(self) -> int:
        if self.done:
            return 100
        return int(100 * self.chunks_done / self.chunks_total) if self.chunks_total else 0

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
    marks = cache.get_many([_done_key(key, index) for index in range(total)])
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
    )


def _plan_meta(plan: OddsPlan) -> dict[str, Any]:
    return {
        "round_id": plan.round_id,
        "runs": plan.runs,
        "chunks": len(plan.chunks),
        "draft_team_id": plan.draft_team_id,
        "team_id": plan.team_id,
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
    odds_budget_take(season=round.season, user=user, runs=plan.runs)
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
            [_failed_key(plan.key), _cancelled_key(plan.key)]
            + [_done_key(plan.key, index) for index in range(len(plan.chunks))]
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


def odds_budget_take(*, season: Season, user: Any, runs: int) -> None:
    """Count ``runs`` more runs in the hour's budget of ``user`` (when given) and of the season
    (settings.ODDS_MEMBER_RUNS_PER_HOUR, ODDS_SEASON_RUNS_PER_HOUR; accounts.rate_limits, in
    the default cache); beyond either, OddsError saying in how many minutes to try again.
    A request refused has spent what it was refused on, as any rate limit."""
    now = timezone.now()
    hour = 3600
    user_id = getattr(user, "pk", None)
    if user_id is not None:
        per_hour = settings.ODDS_MEMBER_RUNS_PER_HOUR
        again = rate_take(
            f"odds-member:{season.pk}:{user_id}", Limit(per_hour, hour), now=now, amount=runs
        )
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
                % {"runs": per_hour, "minutes": minutes}
            )
    per_hour = settings.ODDS_SEASON_RUNS_PER_HOUR
    again = rate_take(f"odds-season:{season.pk}", Limit(per_hour, hour), now=now, amount=runs)
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
            % {"runs": per_hour, "minutes": minutes}
        )


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
    worker's name, and the chunk's mark for the progress bar."""
    cache = odds_cache()
    if cache.get(_cancelled_key(key)):
        # Superseded: nothing counted, no mark; the merge stores no table.
        return {"index": index, "worker": worker, "counts": None, "cancelled": True}
    data = cache.get(_plan_key(key))
    if data is None:
        raise OddsError(f"odds {key}: the inputs are no longer in the cache")
    plan = OddsPlan.from_data(data)
    start, stop = plan.chunks[index]
    try:
        counts = plan_count(plan, start=start, stop=stop)
    except Exception as error:
        cache.set(_failed_key(key), f"{type(error).__name__}: {error}"[:500], PLAN_SECONDS)
        raise
    cache.set(_done_key(key, index), 1, PLAN_SECONDS)
    return {"index": index, "worker": worker, "counts": counts.to_data()}


def odds_merge(*, key: str, parts: Iterable[Mapping[str, Any]]) -> OddsCounts | None:
    """The chord's callback: every chunk's counts merged, stored as the request's table; a
    request cancelled (a chunk skipped) stores nothing."""
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
    counts = merge_all(OddsCounts.from_data(part["counts"]) for part in parts)
    cache.set(
        _table_key(key),
        {
            "round_id": plan.round_id,
            "runs": plan.runs,
            "chunks": len(plan.chunks),
            "counts": counts.to_data(),
            "workers": sorted({part["worker"] for part in parts}),
            "finished_at": timezone.now().isoformat(),
            "draft_team_id": plan.draft_team_id,
            "team_id": plan.team_id,
        },
        TABLE_SECONDS,
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


def _entrant_names(round: Round) -> dict[str, tuple[str, str, int | None]]:
    """{entrant id: (name, league team, team id)}: riders by rider id, cars by car number (the
    driver's name)."""
    if round.grand_prix_id is not None:
        return {
            str(car.number): (f"#{car.number} {car.entry.driver.name}", car.team.name, car.team_id)
            for car in Seat.objects.filter(season_id=round.season_id).select_related(
                "entry__driver", "team"
            )
        }
    return {
        str(m.rider_id): (m.rider.name, m.team.name, m.team_id)
        for m in Seat.objects.filter(season_id=round.season_id).select_related("rider", "team")
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
            )
        )
    return lines
