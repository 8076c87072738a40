"""A Cyclo Sim stage turn by turn (cyclosim.md §3.2 - §3.11, §4.3 - §4.5)."""

from __future__ import annotations

from bisect import bisect_right
from heapq import heapify, heappop, heappush

from engine.cycling.events import ATTACK, CRASH, attack_data, crash_data, eliminated_data
from engine.cycling.events import ELIMINATED as ELIMINATED_EVENT
from engine.rulesets.cyclosim import orders as ai
from engine.rulesets.cyclosim.orders import AttackWindow, RiderOrders
from engine.rulesets.cyclosim.race import Cell, Race
from engine.rulesets.cyclosim.sheet import (
    ACTIVE,
    BONUS,
    CLIMB,
    DESCENT,
    ELIMINATED,
    FINISHED,
    FLAT,
    FREE_FOLLOW,
    MAX_OUT_TURNS,
    MIN_PULL,
    OUT,
    RECOVERY,
    SIT_A,
    SIT_B,
    SIT_C,
    pace_cap,
)

#: A bid: (target row index, rider, path, follow announced, attack window index or -1).
Bid = tuple[int, int, list[Cell], bool, int]
#: A bid before its path is built (the auction builds only the winner's path): (target row
#: index, rider, follow announced, attack window index or -1, start row index, start lane,
#: target lane or -1, reach masks, lateral lane or -1).
Plan = tuple[int, int, bool, int, int, int, int, list[int], int]


def start_grid(race: Race) -> None:
    """R-T3: the last entrant (last on GC, or last bib on stage 1) at ``(0, 0)``, then
    ``(0, 1) .. (0, W-1)``, ``(-1, 0)``...; nobody follows anybody."""
    W = race.W
    for k, r in enumerate(reversed(range(race.n))):
        race.place(r, race.off - k // W, k % W)


# -- policy (§4.2 - §4.4) -----------------------------------------------------------------


def _rows_cost(race: Race, ri: int, pace: str) -> int:
    n = int(pace[5:])
    return race.cum[min(ri + 1 + n, race.size)] - race.cum[ri + 1]


def _window(race: Race, r: int, o: RiderOrders, modes: tuple[str, ...]) -> int:
    """Index of the active attack window for ``r`` (mode in ``modes``), or -1."""
    row_i = race.pos[r]
    row = row_i - race.off
    pe_pct = 100 * (race.pe_max[r] - race.consumed[r])  # race.pe(r)
    used = race.attacks_used[r]
    for k, a in enumerate(o.attacks):
        if (
            a.from_row <= row < a.to_row
            and a.mode in modes
            and used[k] < a.max
            and pe_pct >= a.min_pe_pct * race.pe_max[r]
            and (a.near_front is None or race.row_front.get(row_i, 0) - row_i <= a.near_front)
        ):
            return k
    return -1


def _spent_window(race: Race, r: int, o: RiderOrders) -> AttackWindow | None:
    row = race.pos[r] - race.off
    for k, a in enumerate(o.attacks):
        if a.then is not None and a.from_row <= row < a.to_row and race.attacks_used[r][k] >= a.max:
            return a
    return None


def in_final(race: Race, r: int) -> bool:
    """Whether ``r`` rides his final (``final.rows > 0`` and ``line - pos <= final.rows``)."""
    return race.pos[r] >= race.final_from[r]


def cap_for(race: Race, r: int, pace: str, ri_first: int, b: int, *, final: bool) -> int:
    """§4.2 with the energy guard and R-A2: the largest ``cd`` rider ``r`` bids."""
    terrain = race.terr[ri_first]
    pe_max = race.pe_max[r]
    # race.pe(r) and race.pi(r, ri_first) inlined, and no min/max below: a Python call or
    # builtin costs more than the rest of this path, taken once a leader and a turn.
    pe = pe_max - race.consumed[r]
    pi = race.pit[r][pe]
    if pi:
        pi += race.mods[r][race.modk[ri_first]]
        pi = 1 if pi < 1 else (8 if pi > 8 else pi)
    if not final:
        floor = (race.orders[r].floor_pct * pe_max + 99) // 100
        if pe - floor < pi:
            pace = "free"
    rows = _rows_cost(race, race.pos[r], pace) if pace.startswith("rows:") else 0
    cap = pace_cap(pace, terrain, pi, b, rows)
    if terrain != DESCENT:
        guard = pe if pe > 2 else 2  # cap = min(cap, max(pe, 2))
        if cap > guard:
            cap = guard
    return cap


def leader_cap(race: Race, r: int) -> tuple[int, int]:
    """§4.3 step 1: ``(cap, attack window index or -1)`` of an unmoved leader. It depends on
    his own row, PE and orders only, so it stays the same while he waits in an auction."""
    o = race.orders[r]
    first = race.pos[r] + 1
    final = in_final(race, r)
    win = -1
    if final:
        pace = o.final.pace
    else:
        win = _window(race, r, o, ("leader", "any")) if o.attacks else -1
        if win >= 0:
            pace = o.attacks[win].pace
        else:
            t = race.terr[first]
            spent = _spent_window(race, r, o) if o.attacks else None
            if spent is not None and spent.then is not None:
                pace = spent.then
            elif race.sit_up[r]:
                pace = ai.GRUPPETTO_PACE
            elif race.chase[r] and t != DESCENT:
                pace = ai.CHASE_PACE
            elif race.easy[r] and t != DESCENT:
                pace = ai.EASY_PACE if t == FLAT else ai.EASY_PACE_CLIMB
            else:
                pace = o.pace_flat if t == 0 else (o.pace_climb if t == 1 else o.pace_descent)
    return cap_for(race, r, pace, first, 0, final=final), win


def bid_bound(race: Race, r: int, cap: int) -> int:
    """The furthest row index a bid of ``r`` with ``cap`` can reach on an empty road: no bid of
    his on any board goes further (used to skip re-bids that cannot win, R-A3)."""
    ri = race.pos[r]
    k = bisect_right(race.cum, race.cum[ri + 1] + cap) - 2
    last = race.size - 1
    if k > last:
        k = last
    return k if k > ri else ri


def leader_bid(race: Race, r: int, capped: tuple[int, int] | None = None) -> Bid:
    """§4.3: the bid of an unmoved leader on the current board (``capped``: his
    :func:`leader_cap`, when known)."""
    return bid_of(race, leader_plan(race, r, capped))


def bid_of(race: Race, plan: Plan) -> Bid:
    """The bid of a :data:`Plan`, its R-M4 path built on the board the plan was made on."""
    target, r, follow, win, ri, lane, tlane, masks, lat = plan
    return (target, r, race.build_path(ri, lane, target, tlane, masks, lat), follow, win)


def leader_plan(race: Race, r: int, capped: tuple[int, int] | None = None) -> Plan:
    """:func:`leader_bid` without the path.

    §4.3 step 2, the wheel cell ``r`` bids for (inlined: a plan is made about three times a
    unit): among the reachable cells on rows ``far - 2 .. far`` whose cell ahead holds a rider
    who moved this turn and has no follower yet, the first class of ``wheel`` (team mate or
    any), then the furthest row, then the lowest lane."""
    o = race.orders[r]
    ri = race.pos[r]
    cap, win = capped if capped is not None else leader_cap(race, r)
    lane = race.lane[r]
    lateral = o.lateral_drop and race.fol[r] >= 0
    if lateral:
        far, masks, lat = _lateral_reach(race, r, cap)
    else:
        far, masks, lat = race.reach(ri, lane, cap)
    wheel = o.wheel
    if not wheel or win >= 0 or far <= ri or lateral or race.sit_up[r]:
        return (far, r, bool(wheel), win, ri, lane, -1, masks, lat)
    free = race.free
    # Rows of the riders ahead of the wheel cells: far - 1 .. far + 1 (not beyond the line,
    # not closer than ri + 2); masks[zr - k] is the wheel cells' row, zr - 1. Rows are taken
    # from the furthest and lanes from the lowest, so the first rider of a class is the best
    # of it.
    lo = far - 1 if far - 1 > ri + 2 else ri + 2
    hi = far + 1
    if hi >= race.line:
        hi = race.line - 1
    k = ri + 2
    if hi >= lo:
        W = race.W
        occ, teams, moved, fol, low_lane = race.occ, race.team, race.moved, race.fol, race.low_lane
        turn = race.turn
        team = teams[r]
        mate = race.wheel_mate[r]
        other = race.wheel_other[r]
        best_cls = len(wheel)
        best_row = best_lane = -1
        for zr in range(hi, lo - 1, -1):
            m = masks[zr - k] & ~free[zr]
            base = zr * W
            while m:
                zl = low_lane[m]
                m &= m - 1
                z = occ[base + zl]
                if z < 0 or moved[z] != turn or fol[z] >= 0:
                    continue
                cls = mate if teams[z] == team else other
                if 0 <= cls < best_cls:
                    if cls == 0:
                        return (zr - 1, r, True, -1, ri, lane, zl, masks, lat)
                    best_cls, best_row, best_lane = cls, zr - 1, zl
        if best_row >= 0:
            return (best_row, r, True, -1, ri, lane, best_lane, masks, lat)
    return (far, r, True, -1, ri, lane, -1, masks, lat)


def _lateral_reach(race: Race, r: int, cap: int) -> tuple[int, list[int], int]:
    """``lateral_drop`` (§4.1): start with a lateral cell, when one is free."""
    ri, lane = race.pos[r], race.lane[r]
    for cand in (lane - 1, lane + 1):
        if 0 <= cand < race.W and race.free[ri] >> cand & 1:
            race.lift(r)
            race.place(r, ri, cand)
            try:
                far, masks, _ = race.reach(ri, cand, cap - race.cost[ri])
            finally:
                race.lift(r)
                race.place(r, ri, lane)
            return far, masks, cand
    return race.reach(ri, lane, cap)


def follower_attacks(race: Race, f: int) -> int:
    """§4.4: -2 no attack; else the attack window index (-1: final or attack right)."""
    if race.dropped_turn[f] >= race.turn - 1:
        return -2  # R-F7
    o = race.orders[f]
    if in_final(race, f):
        return -1
    return _window(race, f, o, ("follower", "any")) if o.attacks else -1


def _chases(race: Race, f: int) -> bool:
    """§4.6 [D]: a chasing follower attacks (at ``CHASE_PACE``) to lead the chase."""
    return race.chase[f] and ai.CHASE_ATTACK and race.terr[race.pos[f] + 1] != DESCENT


# -- resolution (R-R, R-F, R-AT) ----------------------------------------------------------


def move(race: Race, r: int, path: list[Cell], sit: int) -> None:
    """Move ``r`` along ``path`` (R-T1), register the lines and the finish (R-FT1)."""
    pos, lanes = race.pos, race.lane
    ri0 = pos[r]
    l0 = lanes[r]
    line = race.line
    W = race.W
    if ri0 < line:  # lift (inlined: every move passes here)
        race.occ[ri0 * W + l0] = -1
        race.free[ri0] |= 1 << l0
    race.start[r] = (ri0, l0)
    race.path[r] = path
    if path:
        ri, lane = path[-1]
        race.lateral[r] = path[0][0] == ri0
    else:
        ri, lane = ri0, l0
        race.lateral[r] = False
    race.moved[r] = race.turn
    seq = race.move_seq = race.move_seq + 1
    race.seq[r] = seq
    race.situation[r] = sit
    race.recent.append(r)
    pos[r] = ri
    lanes[r] = lane
    if ri >= line:
        x = line - ri0
        rows = ri - ri0
        cap = race.capacity[r]
        if cap > 0:
            # R-FT1 [D] in a time trial: the fraction of the turn is the cost to the line over
            # what his roll could pay (rslt, or rslt + PI when he spent): a better roll crosses
            # earlier, so riders are not tied by whole rows (docs/rules-choices.md).
            x = race.cum[line + 1] - race.cum[ri0 + 1]
            rows = cap
        # R-FT1: t = (k - 1 + x / rows) · turn_s, half up.
        num = ((race.turn - 1) * rows + x) * race.turn_s
        race.finish_time[r] = race.cross_time[r] = (2 * num + rows) // (2 * rows)
        race.status[r] = FINISHED
        race.finished += 1
        race.finish_seq[r] = seq
    else:  # place (inlined)
        race.occ[ri * W + lane] = r
        race.free[ri] &= ~(1 << lane)
    if ri >= race.next_line_row[r]:
        _cross_lines(race, r, ri)


def _cross_lines(race: Race, r: int, ri: int) -> None:
    k = race.next_line[r]
    rows = race.line_rows
    while k < len(rows) and ri >= rows[k]:
        if not race.line_crossers[k]:
            race.line_turn[k] = race.turn
        race.line_crossers[k].append(r)
        k += 1
    race.next_line[r] = k
    race.next_line_row[r] = rows[k] if k < len(rows) else race.size * 2


def contract(race: Race, r: int, path: list[Cell], b: int, purpose: str, sit: int) -> int:
    """R-R1 .. R-R6: resolve a contract on ``path`` with bonus ``b``; move the rider.

    Returns 0 full path, 1 partial (R-R3), 2 crash (R-R6).
    """
    if not path:
        move(race, r, path, sit)
        return 0
    # A path (R-M1, R-M4) covers consecutive rows, each once (a lateral first cell stays on
    # the rider's row): its cost and its prefixes come from the cum table.
    first = path[0][0]
    cum = race.cum
    base = cum[first]
    cd = cum[path[-1][0] + 1] - base
    consumed, pe_max = race.consumed, race.pe_max
    pi = race.pit[r][pe_max[r] - consumed[r]]  # race.pi(r, first) inlined
    if pi:
        pi += race.mods[r][race.modk[first]]
        pi = 1 if pi < 1 else (8 if pi > 8 else pi)
    d = race.roll2d6(r, purpose) + b
    descent = race.terr[first] == DESCENT
    rslt = (d + pi if d >= pi else 2 * pi) if descent else d if d >= pi else pi
    tt = race.time_trial and first > race.pos[r]
    if rslt >= cd:
        if tt:
            race.capacity[r] = rslt
        move(race, r, path, sit)
        race.capacity[r] = 0
        return 0
    if rslt + pi >= cd:
        c = consumed[r] + cd - rslt  # race.spend(r, cd - rslt)
        consumed[r] = c if c < pe_max[r] else pe_max[r]
        if tt:
            race.capacity[r] = rslt + pi
        move(race, r, path, sit)
        race.capacity[r] = 0
        return 0
    c = consumed[r] + pi  # race.spend(r, pi)
    consumed[r] = c if c < pe_max[r] else pe_max[r]
    limit = rslt + pi
    k = bisect_right(cum, base + limit) - 1 - first
    if k > len(path):
        k = len(path)
    if tt:
        race.capacity[r] = limit
    move(race, r, path[:k], SIT_A)
    race.capacity[r] = 0
    if not descent:
        return 1
    crash(race, r, cd - limit)
    return 2


def crash(race: Race, r: int, k: int) -> None:
    """R-R6, R-X2 - R-X4: out for ``k`` turns, eliminated beyond 6."""
    ri = race.pos[r]
    if race.status[r] == FINISHED:
        return
    race.lift(r)
    race.crashed_turn[r] = race.turn
    race.crashes[r].append((race.turn, ri - race.off, k))
    f = race.fol[r]
    if f >= 0:
        # R-X2, R-F1: his follower is dropped ("P crashed this turn"), so R-F7 applies.
        race.orphans.append(f)
        race.dropped_turn[f] = race.turn
    _unlink(race, r)
    if k > MAX_OUT_TURNS:
        race.status[r] = ELIMINATED
        race.event(ELIMINATED_EVENT, (r,), eliminated_data(ri - race.off, "R-R6", k))
    else:
        race.status[r] = OUT
        race.return_turn[r] = race.turn + k + 1
        race.event(CRASH, (r,), crash_data(ri - race.off, "R-R6", k))


def _unlink(race: Race, r: int) -> None:
    p, f = race.pred[r], race.fol[r]
    if p >= 0:
        race.fol[p] = -1
    if f >= 0:
        race.pred[f] = -1
    race.pred[r] = race.fol[r] = -1


def _drop(race: Race, f: int) -> None:
    """R-F6: ``f`` leaves his pred's wheel and leads the riders behind him."""
    p = race.pred[f]
    if p >= 0:
        race.fol[p] = -1
    race.pred[f] = -1
    race.dropped_turn[f] = race.turn


def attack(race: Race, r: int, win: int) -> int:
    """R-AT1, R-AT2: a contract from his own cell with +2, no overbid."""
    o = race.orders[r]
    ri, lane = race.pos[r], race.lane[r]
    if win >= 0:
        pace = o.attacks[win].pace
        race.attacks_used[r][win] += 1
    elif in_final(race, r):
        pace = o.final.pace
    elif race.sit_up[r]:
        pace = ai.GRUPPETTO_PACE
    elif race.chase[r]:
        pace = ai.CHASE_PACE
    else:
        pace = "expected"
    p = race.pred[r]
    if p >= 0:
        race.fol[p] = -1
        race.pred[r] = -1
    cap = cap_for(race, r, pace, ri + 1, BONUS, final=in_final(race, r))
    far, masks, lat = race.reach(ri, lane, cap)
    path = race.build_path(ri, lane, far, -1, masks, lat)
    if not race.sit_up[r]:  # sitting up is no attack
        race.event(ATTACK, (r,), attack_data(ri - race.off, "R-AT1", pace))
    return contract(race, r, path, BONUS, "attack", SIT_A)


def resolve_file(race: Race, leader: int, leaders: set[int]) -> list[int]:
    """R-F: the file behind ``leader`` (who has just moved), in file order; returns the riders
    dropped before moving (they join the next auction cycle, R-F6)."""
    back: list[int] = []
    p = leader
    rank = 1
    unit_time = race.finish_time[leader] if race.status[leader] == FINISHED else -1
    fol = race.fol
    f = fol[p]
    turn = race.turn
    paths, moved, lateral, crashed_turn = race.path, race.moved, race.lateral, race.crashed_turn
    plain, sit_up, start, cum, terr = race.plain, race.sit_up, race.start, race.cum, race.terr
    pe_max, consumed, status = race.pe_max, race.consumed, race.status
    chase_attack, chase, pos = ai.CHASE_ATTACK, race.chase, race.pos
    while f >= 0:
        path_p = paths[p]
        if moved[p] != turn or len(path_p) < MIN_PULL or lateral[p] or crashed_turn[p] == turn:
            _drop(race, f)
            back.append(f)
            return back
        if plain[f]:  # no attack window, no final: only a chase or sitting up
            win = -1
            # _chases(race, f) inlined.
            attacks = (
                sit_up[f] or (chase_attack and chase[f] and terr[pos[f] + 1] != DESCENT)
            ) and race.dropped_turn[f] < turn - 1
        else:
            win = follower_attacks(race, f)
            attacks = win != -2 and (
                win >= 0 or in_final(race, f) or (chase_attack and _chases(race, f)) or sit_up[f]
            )
        if attacks:
            result = attack(race, f, win)
            rank = 1
            unit_time = race.finish_time[f] if status[f] == FINISHED else -1
            if result == 2:
                return back
            p = f
            f = fol[p]
            continue
        sp = start[p]
        path = [sp, *path_p[:-1]]
        # Path rows are consecutive (P's path has no lateral cell here): cd from the cum table.
        first = sp[0]
        cd = cum[path_p[-2][0] + 1] - cum[first]
        descent = terr[first] == DESCENT
        pe = pe_max[f] - consumed[f]
        if not descent and cd > (pe if pe > 2 else 2):
            _drop(race, f)
            back.append(f)
            return back
        sit = SIT_B if rank == 1 else SIT_C
        if cd <= FREE_FOLLOW or (descent and cd <= FREE_FOLLOW + race.pi(f, first)):
            move(race, f, path, sit)
            result = 0
        elif descent and cd > pace_cap(
            race.orders[f].pace_descent, DESCENT, race.pi(f, first), BONUS
        ):
            # R-F5 [D]: downhill, a follower lets the wheel go rather than take a risk his
            # descent pace would not take (docs/rules-choices.md, "Followers may decline").
            _drop(race, f)
            back.append(f)
            return back
        else:
            result = contract(race, f, path, BONUS, "follow", sit)
        if result == 0:
            if status[f] == FINISHED:
                if unit_time >= 0 and race.settings.same_unit_time:
                    race.finish_time[f] = unit_time  # R-FT2
                else:
                    unit_time = race.finish_time[f]
            rank += 1
            p = f
            f = fol[p]
            continue
        if result == 1:
            nxt = fol[f]
            _drop(race, f)
            p = f
            f = nxt
            rank = 1
            unit_time = -1
            continue
        return back
    return back


# -- the turn (R-T2) ----------------------------------------------------------------------


def returns(race: Race) -> None:
    """R-X3: crashed riders back on their crash row, lowest free lane, else further back."""
    status = race.status
    if OUT not in status:  # nobody down: most turns
        return
    t = race.turn
    for r in race.riding:
        if status[r] == OUT and race.return_turn[r] == t:
            ri = race.crashes[r][-1][1] + race.off
            while True:
                fm = race.free[ri]
                if fm:
                    lane = (fm & -fm).bit_length() - 1
                    break
                ri -= 1
            race.status[r] = ACTIVE
            race.place(r, ri, lane)


def _consents(race: Race, c: int, a: int, b: int) -> bool:
    mode = race.orders[c].relay
    if mode == "all":
        return True
    if mode == "none":
        return False
    team = race.team[c]
    return race.team[a] == team and race.team[b] == team


def relays(race: Race, leaders: list[int]) -> None:
    """R-RL, §4.5: for each file from the front, the leader swaps with the first consenting
    follower within range who has 8 more PE; links follow the cells."""
    t = race.turn
    margin = race.settings.relay_pe_margin
    terr = race.terr
    pe_max, consumed = race.pe_max, race.consumed
    # The lists themselves (a swap changes them in place).
    fol, relayed, pos = race.fol, race.relayed, race.pos
    for lead in leaders:
        f = fol[lead]
        if f < 0 or relayed[lead] == t:
            continue
        lpe = pe_max[lead] - consumed[lead]  # race.pe(lead)
        chain: list[int] = []
        lri = pos[lead]
        while f >= 0:
            pf = pos[f]
            dist = lri - pf
            climb = terr[lri] == 1 or terr[pf] == 1
            if dist > (1 if climb else 3):
                break
            if (
                relayed[f] != t
                and pe_max[f] - consumed[f] >= lpe + margin
                and all(_consents(race, c, lead, f) for c in (lead, *chain, f))
            ):
                _swap(race, lead, f)
                break
            chain.append(f)
            f = fol[f]


def _swap(race: Race, a: int, b: int) -> None:
    """Swap cells and file places of ``a`` (ahead) and ``b`` (behind)."""
    ca, cb = (race.pos[a], race.lane[a]), (race.pos[b], race.lane[b])
    race.lift(a)
    race.lift(b)
    race.place(a, *cb)
    race.place(b, *ca)
    pred, fol = race.pred, race.fol
    pa, fa, pb, fb = pred[a], fol[a], pred[b], fol[b]
    if fa == b:  # adjacent
        pred[b], fol[b] = pa, a
        pred[a], fol[a] = b, fb
        if fb >= 0:
            pred[fb] = a
    else:
        pred[b], fol[b] = pa, fa
        pred[a], fol[a] = pb, fb
        if fa >= 0:
            pred[fa] = b
        if pb >= 0:
            fol[pb] = a
        if fb >= 0:
            pred[fb] = a
    if pa >= 0:
        fol[pa] = b
    race.relayed[a] = race.relayed[b] = race.turn


def auction(race: Race) -> None:
    """R-A1 .. R-A5: cycles of bids by the unmoved leaders; the furthest row wins (ties: road
    order); the winner's unit resolves, then the others re-bid on the new board.

    Re-bids are lazy, and give what an eager re-bid of every leader after every unit gives:

    * a kept plan read the board on rows ``pos .. far + 1`` only (its reach, its wheel cells),
      so it is recomputed only when a unit changed a cell on those rows (the unit's riders
      left and took cells between the lowest start row and the highest end row);
    * a leader to re-bid is recomputed only when the furthest row he could reach on an empty
      road (:func:`bid_bound`) could still beat the best bid known; otherwise he is
      recomputed later, on the then current board.

    Bids and bounds are one integer key per rider (bid order: target row, then road order);
    the leaders to bid wait in a heap by bound, entries left behind by a change skipped."""
    t = race.turn
    status, pred, moved = race.status, race.pred, race.moved
    pos, lane = race.pos, race.lane
    size, W = race.size, race.W
    W1 = W - 1
    leaders: set[int] = set()
    holders: dict[int, list[int]] = {}
    attack_right = race.attack_right
    for r in race.riding:
        if status[r] == ACTIVE:
            if pred[r] < 0 and moved[r] != t:
                leaders.add(r)
            x = attack_right[r]
            if x >= 0:
                holders.setdefault(x, []).append(r)
    # Kept plans, their keys and the last row each read; the leaders to (re-)bid, their
    # leader_cap and bound keys (fixed while they wait: they depend on their own state only).
    bids: dict[int, Plan] = {}
    keys: dict[int, int] = {}
    reads: dict[int, int] = {}
    dirty: set[int] = set(leaders)
    caps: dict[int, tuple[int, int]] = {}
    bound: dict[int, int] = {}
    # A max-heap of the dirty leaders as (-bound key, rider).
    todo: list[tuple[int, int]] = []
    for r in dirty:
        c = caps[r] = leader_cap(race, r)
        k = bound[r] = (bid_bound(race, r, c[0]) * size + pos[r]) * W + W1 - lane[r]
        todo.append((-k, r))
    heapify(todo)
    recent = race.recent
    orphans = race.orphans
    start = race.start
    while True:
        if keys:
            w = max(keys, key=keys.__getitem__)
            best = keys[w]
        else:
            best, w = -1, -1
        while todo and -todo[0][0] >= best:
            nk, r = heappop(todo)
            if r not in dirty or bound[r] != -nk:
                continue
            b = leader_plan(race, r, caps[r])
            dirty.discard(r)
            bids[r] = b
            reads[r] = b[4] + len(b[7]) + 1
            key = keys[r] = (b[0] * size + pos[r]) * W + W1 - lane[r]
            if key > best:
                best, w = key, r
        if w < 0:
            break
        del keys[w]
        plan = bids.pop(w)
        leaders.discard(w)
        race.unit += 1
        recent.clear()
        # A kept plan was made on a board that has not changed on the rows it read: its path
        # (bid_of, inlined) is built on the current board.
        target, _, _, win, ri, ln, tlane, masks, lat = plan
        path = race.build_path(ri, ln, target, tlane, masks, lat)
        if path:
            contract(race, w, path, 0, "contract", SIT_A)
            if win >= 0:
                race.attacks_used[w][win] += 1
        else:
            move(race, w, [], SIT_A)
        new = resolve_file(race, w, leaders)
        for y in holders.get(w, ()):
            # R-RB3: the refused rider attacks right after X's unit, if still free to.
            if y in leaders and status[y] == ACTIVE and race.dropped_turn[y] < t - 1:
                bids.pop(y, None)
                keys.pop(y, None)
                dirty.discard(y)
                leaders.discard(y)
                race.unit += 1
                if attack(race, y, -1) != 2:
                    new += resolve_file(race, y, leaders)
        new += orphans
        orphans.clear()
        # The rows the unit changed: from the lowest start to the highest end of its movers.
        # Its leaders (w, and y after a refused rabat) are out of the bids already; the
        # others who moved were followers (a leader has no pred, so nobody's move takes him
        # along, and only his own move crashes or finishes him).
        lo = hi = pos[w]
        for r in recent:
            p = pos[r]
            if p > hi:
                hi = p
            p = start[r][0]
            if p < lo:
                lo = p
        for f in new:
            if status[f] == ACTIVE and pred[f] < 0 and moved[f] != t:
                leaders.add(f)
                bids.pop(f, None)
                keys.pop(f, None)
                dirty.add(f)
                c = caps[f] = leader_cap(race, f)
                k = bound[f] = (bid_bound(race, f, c[0]) * size + pos[f]) * W + W1 - lane[f]
                heappush(todo, (-k, f))
        hi += 1
        for r in [r for r in bids if pos[r] <= hi and reads[r] >= lo]:
            del bids[r]
            del keys[r]
            dirty.add(r)
            heappush(todo, (-bound[r], r))


def end_of_turn(race: Race) -> None:
    """R-W, R-RB, R-RC, R-FT: wheel links, rabats, recovery, per-turn flags."""
    t = race.turn
    status, pred, fol = race.status, race.pred, race.fol
    pos, lane, W = race.pos, race.lane, race.W
    riding = race.riding = [r for r in race.riding if status[r] <= OUT]  # ACTIVE or OUT
    on_road = [r for r in riding if status[r] == ACTIVE]
    terr, climbs = race.terr, race.climbs
    moved, crashed_turn, paths = race.moved, race.crashed_turn, race.path
    situation, consumed = race.situation, race.consumed
    table = RECOVERY
    for r in on_road:
        # R-W2: a link survives only while the follower is in his pred's wheel.
        p = pred[r]
        if p >= 0 and (status[p] != ACTIVE or pos[p] != pos[r] + 1 or lane[p] != lane[r]):
            fol[p] = -1
            pred[r] = -1
        # R-RC recovery (sheet.recovery and Race.recover inlined), for riders on the road:
        # out, eliminated and finished riders (this turn too) recover nothing; nor does a
        # rider who has consumed nothing.
        if not consumed[r] or crashed_turn[r] == t:
            continue
        if moved[r] == t:
            path = paths[r]
            d = len(path)
            if d:
                if climbs[path[-1][0] + 1] - climbs[path[0][0]] > 0:
                    continue
            elif terr[pos[r]] == CLIMB:
                continue
            line = table[situation[r]]
        else:
            if terr[pos[r]] == CLIMB:
                continue
            d = 0
            line = table[SIT_A]
        if d < len(line):
            c = consumed[r] - line[d]
            consumed[r] = c if c > 0 else 0
    attack_right = race.attack_right
    attack_right[:] = [-1] * race.n
    # Road order (row desc, lane asc) as one int key.
    on_road.sort(key=lambda r: lane[r] - pos[r] * W)
    if race.finished == 0 and race.track_road_groups:
        road_groups(race, on_road)
    occ, seq, team = race.occ, race.seq, race.team
    wheel_mate, wheel_other = race.wheel_mate, race.wheel_other
    for x in on_road:
        if fol[x] >= 0 or pos[x] <= 0:
            continue
        y = occ[(pos[x] - 1) * W + lane[x]]
        if y < 0 or pred[y] >= 0 or status[y] != ACTIVE:
            continue
        mate = team[x] == team[y]
        if seq[y] > seq[x]:
            if (wheel_mate[y] if mate else wheel_other[y]) >= 0:  # R-W1
                fol[x], pred[y] = y, x
        elif seq[x] > seq[y]:
            grant = race.orders[x].grant_wheel
            if grant == "all" or (grant == "team" and mate):
                if (wheel_mate[y] if mate else wheel_other[y]) >= 0:  # R-RB1
                    fol[x], pred[y] = y, x
            else:
                attack_right[y] = x  # R-RB2


def road_groups(race: Race, on_road: list[int]) -> None:
    """§5 [D] road groups (flat finish, nobody across the line yet): number the groups on the
    road, riders chained while each is at most ``group_chain_rows`` rows behind the one ahead;
    riders off the road (out) have none. The last numbering before the first crossing stays."""
    group = race.road_group
    group[:] = [-1] * race.n
    pos = race.pos
    chain = race.settings.group_chain_rows
    g = -1
    prev = None
    for r in on_road:
        p = pos[r]
        if prev is None or prev - p > chain:
            g += 1
        group[r] = g
        prev = p


def chase_flags(race: Race) -> None:
    """§4.6 [D] "chase" and "easy", and the front row of each occupied row's group
    (``row_front``): with a breakaway up the road (the head of the race more than
    ``BREAK_GAP`` rows ahead of the front of a protected rider's group), the default-AI
    domestiques of that rider's group chase for his team (sprinter on a flat stage, else GC
    leader) while the breakaway's lead is beyond what the team allows with the rows left
    (``CHASE_RATIO`` % of them by stage type, at least ``CHASE_GAP``, at most
    ``CHASE_MAX_GAP``); every other default-AI rider of a group behind the breakaway that
    nobody chases in rides easy: the bunch lets the break go. Fixed for the whole turn, so
    bids stay cacheable."""
    if race.time_trial:
        return
    status, pos, team = race.status, race.pos, race.team
    rows = sorted({pos[r] for r in race.riding if status[r] == ACTIVE}, reverse=True)
    if not rows:
        return
    front = rows[0]
    # The front row of the group each occupied row belongs to (consecutive rows chain).
    group_front = race.row_front = {}
    head = prev = front
    for p in rows:
        if prev - p > 1:
            head = p
        group_front[p] = head
        prev = p
    # Flags are set below only where they hold; with the field in one group, none does.
    chase, easy = race.chase, race.easy
    if any(chase):
        chase[:] = [False] * race.n
    if any(easy):
        easy[:] = [False] * race.n
    if head == front:
        return
    best: dict[int, int] = {}
    for r in race.protected:
        if status[r] == ACTIVE:
            p = pos[r]
            if p > best.get(team[r], -1):
                best[team[r]] = p
    to_go = race.line - front
    ratio = race.chase_ratio
    allowed = min(race.chase_max, max(ai.CHASE_GAP, ratio * to_go // 100))
    min_pe = ai.CHASE_MIN_PE
    consumed, pe_max = race.consumed, race.pe_max
    chasing: dict[int, int] = {}  # team -> front row of its protected rider's group
    for t, p in best.items():
        g = group_front[p]
        if front - g > max(ai.BREAK_GAP, allowed):
            chasing[t] = g
    if chasing:
        for t, riders in race.chasers_by_team:
            g = chasing.get(t, -1)
            if g < 0:
                continue
            for r in riders:
                if (
                    status[r] == ACTIVE
                    and group_front[pos[r]] == g
                    and 100 * (pe_max[r] - consumed[r]) >= min_pe * pe_max[r]
                ):
                    chase[r] = True
    # A group that chases rides its pace; the others let the break go.
    chased = set(chasing.values())
    gap = ai.BREAK_GAP
    for r in race.easy_riders:
        if status[r] == ACTIVE:
            g = group_front[pos[r]]
            if front - g > gap and g not in chased:
                easy[r] = True


def sit_up_flags(race: Race) -> None:
    """§4.6 [D] "gruppetto": a gruppetto rider sits up when his next row is on a col of a
    mountain stage and every GC leader still on the road is ahead of him. Fixed for the whole
    turn, like the chase flags."""
    if not race.gruppetto:
        return
    status, pos, sit_up, rows = race.status, race.pos, race.sit_up, race.sit_up_row
    last_gc = min((pos[g] for g in race.gc_leaders if status[g] == ACTIVE), default=race.size)
    for r in race.gruppetto:
        p = pos[r]
        sit_up[r] = status[r] == ACTIVE and rows[p + 1] and p < last_gc


def play_turn(race: Race) -> None:
    """R-T2: returns, relays, auction, end of turn."""
    race.turn += 1
    race.unit = 0
    returns(race)
    status, pred = race.status, race.pred
    pos, lane, W = race.pos, race.lane, race.W
    leaders = [r for r in race.riding if status[r] == ACTIVE and pred[r] < 0]
    leaders.sort(key=lambda r: lane[r] - pos[r] * W)  # road order (Race.road_key)
    relays(race, leaders)
    chase_flags(race)
    sit_up_flags(race)
    auction(race)
    end_of_turn(race)


def run(race: Race) -> None:
    """Play turns until everybody has finished or is eliminated (R-FT3, cap ``max_turns``)."""
    cap = race.settings.max_turns
    while race.turn < cap:
        status = race.status
        if ACTIVE not in status and OUT not in status:
            break
        play_turn(race)
