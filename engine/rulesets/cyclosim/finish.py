"""Ranking, gaps, groups and the outcome of a Cyclo Sim stage (cyclosim.md R-FT2, R-FT3, §5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cycling.events import RawEvent
from engine.cycling.outcome import ABANDONED, CRASHED_OUT, FINISHED, Crash, Outcome, RiderResult
from engine.outcome import DiceLog, DiceRow, Event
from engine.rulesets.cyclosim.race import Race
from engine.rulesets.cyclosim.sheet import CLIMB, ELIMINATED
from engine.rulesets.cyclosim.sheet import FINISHED as DONE


def order_of(races: Sequence[Race]) -> list[tuple[Race, int]]:
    """R-FT3: finishers by time, ties by resolution order; then eliminated and capped riders
    by how far they got."""
    done = [(rc, r) for rc in races for r in range(rc.n) if rc.status[r] == DONE]
    done.sort(key=lambda x: (x[0].finish_time[x[1]], x[0].finish_seq[x[1]]))
    rest = [(rc, r) for rc in races for r in range(rc.n) if rc.status[r] != DONE]
    rest.sort(key=lambda x: (x[0].status[x[1]] == ELIMINATED, -x[0].pos[x[1]], x[0].lane[x[1]]))
    return done + rest


def outcome(
    races: Sequence[Race],
    *,
    ruleset: str,
    seed: int,
    log: list[DiceRow],
    events: list[RawEvent],
    turns: int,
) -> Outcome:
    """Freeze the stage: gaps to the winner, ``final_group`` chained every ``group_chain_rows``
    rows' time (§5), eliminated riders (R-X4) ``crashed_out`` and riders still on the road at
    the turn cap ``abandoned``, both behind the last finisher with his gap."""
    order = order_of(races)
    first = races[0]
    n_rows = first.N
    winner_time = (
        order[0][0].finish_time[order[0][1]] if order[0][0].status[order[0][1]] == DONE else 0
    )
    settings = first.settings
    # §5 [D]: a bunch reaches a flat (or descent) finish together; up a climb riders come in
    # one by one, so only riders a row apart share a time there.
    climb_finish = first.terr[first.off + n_rows - 1] == CLIMB
    rows = settings.group_chain_rows_climb if climb_finish else settings.group_chain_rows
    chain_s = first.turn_s * rows // settings.rows_per_turn
    compress = first.settings.bunch_gaps and len(races) == 1 and not first.time_trial
    results: list[RiderResult] = []
    gap = 0
    group = 0
    prev: int | None = None
    last_gap = 0
    # §5 [D] road groups: (final group, gap) given to the first finisher of each road group.
    road_group = first.road_group if compress and first.track_road_groups else None
    seen: dict[int, tuple[int, int]] = {}
    for rank, (rc, r) in enumerate(order, start=1):
        done = rc.status[r] == DONE
        rg = road_group[r] if road_group is not None else -1
        if done and rg >= 0 and rg in seen:
            # A rider of a road group already timed: that group's time, however far the final
            # spread it (a bunch sprint is one group).
            t = rc.cross_time[r]
            prev = t if prev is None or t > prev else prev
            own_group, own_gap = seen[rg]
            results.append(
                RiderResult(
                    rider_id=rc.ids[r],
                    rank=rank,
                    final_case=n_rows,
                    squares_behind=0,
                    gap_seconds=own_gap,
                    status=FINISHED,
                    crashes=tuple(Crash(t_, c, k) for t_, c, k in rc.crashes[r]),
                    final_group=own_group,
                    abandon_reason=None,
                    carried={"pe_consumed": rc.consumed[r]},
                )
            )
            continue
        if done:
            if compress:
                # §5 [D] bunch gaps: a new group starts where the riders crossing the line (R-FT1
                # times, before R-FT2) leave a hole of more than ``group_chain_rows`` rows'
                # time; its gap is the one ahead plus the part of that hole beyond the chain
                # (the spacing of riders inside a group costs nothing, so gaps start at 1 s,
                # not at the chain's length), however long the bunch.
                t = rc.cross_time[r]
                if prev is not None and t - prev > chain_s:
                    group += 1
                    gap += t - prev - chain_s
                prev = t if prev is None or t > prev else prev
                if rg >= 0:
                    seen[rg] = (group, gap)
            else:
                t = rc.finish_time[r]
                if prev is not None and t - prev > chain_s:
                    group += 1
                prev = t
                gap = t - winner_time
            last_gap = gap
            status, reason = FINISHED, None
            final_case = n_rows
        else:
            if prev is not None or group > 0 or rank > 1:
                group += 1 if rank > 1 and (prev is not None) else 0
                prev = None
            gap = last_gap
            eliminated = rc.status[r] == ELIMINATED
            status = CRASHED_OUT if eliminated else ABANDONED
            reason = "crash" if eliminated else "stage not finished"
            final_case = min(rc.pos[r] - rc.off, n_rows)
        results.append(
            RiderResult(
                rider_id=rc.ids[r],
                rank=rank,
                final_case=final_case,
                squares_behind=n_rows - final_case,
                gap_seconds=gap,
                status=status,
                crashes=tuple(Crash(t_, c, k) for t_, c, k in rc.crashes[r]),
                final_group=group,
                abandon_reason=reason,
                carried={"pe_consumed": rc.consumed[r]},
            )
        )
    final_rank = [rc.ids[r] for rc, r in order]
    return Outcome(
        ruleset=ruleset,
        seed=seed,
        results=tuple(results),
        events=_events(races, events, final_rank),
        dice=DiceLog(log),
        turns=turns,
        n_cases=n_rows,
        rider_moves=sum(rc.moves for rc in races),
    )


def _events(
    races: Sequence[Race], events: list[RawEvent], final_rank: list[int]
) -> tuple[Event, ...]:
    """The events in turn order; one summit / intermediate_sprint event per line with every
    rider in crossing order, then the others in final order (as Moréno)."""
    out = [(ev.turn, i, ev.freeze()) for i, ev in enumerate(events)]
    first = races[0]
    for k in range(len(first.line_rows)):
        crossers = [rc.ids[x] for rc in races for x in rc.line_crossers[k]]
        if not crossers:
            continue
        turn = min(rc.line_turn[k] for rc in races if rc.line_crossers[k])
        seen = set(crossers)
        riders = tuple(crossers) + tuple(r for r in final_rank if r not in seen)
        ev = Event(turn, first.line_kinds[k], riders, first.line_data[k])
        out.append((turn, -len(first.line_rows) + k, ev))
    out.sort(key=lambda x: (x[0], x[1]))
    return tuple(e for _, _, e in out)
