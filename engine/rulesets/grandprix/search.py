"""Path search for a move (GP-6, GP-7, GP-8, GP-10.1, GP-11.2) and the policy's room (P-1).

A move of ``M`` steps with at most two lane changes ends, on a main lane, on one of three
squares (the end depends only on the number of diag steps), so the search keeps at each depth
one best partial path per (location, racing-line state): fewer lane changes first, then the
smaller ``path_lex`` (P-5). Every candidate ``M`` of a throw is evaluated in the same pass.
Results depend only on the start, the gear, the candidates and the cars within reach, so
they are memoised per board (the qualifying runs and open track hit the memo most of the
time).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.grandprix.board import NO_LIMIT, Board

#: Outcome classes of P-5.
CLASS_PIT, CLASS_CLEAN, CLASS_EXIT = 0, 1, 2
#: How a move ended (GP-6.4).
END_POINTS, END_BLOCKED, END_EXIT, END_PIT, END_FINISH = (
    "points",
    "blocked",
    "exit",
    "pit",
    "finish",
)
FINISH_BONUS = 1_000_000
MAX_ROOM = 24


@dataclass(frozen=True, slots=True)
class Move:
    """The chosen (M, path) of P-5 and what it leads to."""

    m: int
    end_kind: str
    lex: tuple[int, ...]
    path: tuple[int, ...]
    end: int
    line: int
    lane_changes: int
    crossings: int
    advance: int
    corner: int
    cls: int

    @property
    def steps(self) -> int:
        """Steps taken (the pit entry and the run-off placement count as the entering step)."""
        return len(self.lex)


@dataclass(frozen=True, slots=True)
class Context:
    """What else a move depends on (the memo key, with start, gear and candidates)."""

    occupied: int  # bitmask of locations holding another car (within reach)
    pit_flag: bool  # must_pit or pit_intent (GP-11.2)
    to_finish: int  # crossings still to make before the finish (1 = the next one finishes)
    starts_open: bool  # GP-8.4
    yellow: int  # GP-10.1: largest allowed advance, or -1 when no yellow applies
    max_lane_changes: int


def best_move(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    """P-5 over every (M in ``ms``, legal path): minimise (class, -D_end, lane changes, M,
    path_lex); GP-6.2 legality, GP-6.3 must step, GP-6.4 ends, GP-7.3 exits, GP-11.2 gate,
    GP-11.6 pit boxes, GP-12.1 finish. ``ms`` ascending."""
    straight = _straight(board, start, line, gear, ms[-1], ctx)
    if straight is not None:
        return straight
    memo = board.memo
    key = (start, line, gear, ms, ctx)
    found = memo.get(key)
    if found is not None:
        return found
    move = _search(board, start, line, gear, ms, ctx)
    if len(memo) > 400_000:
        memo.clear()
    memo[key] = move
    return move


def _straight(
    board: Board, start: int, line: int, gear: int, top: int, ctx: Context
) -> Move | None:
    """The all-ahead path of ``top`` steps when it is legal and clean: it gains 2 half-squares
    a step, the most any step gains, with no lane change and the smallest path_lex, so P-5
    picks it whenever it exists (no pit to enter, no finish to reach, no exit, no block).
    None sends the move to the full search."""
    if not (board.is_main[start] or board.is_start[start]):
        return None
    ahead = board.ahead_step
    occupied = ctx.occupied
    yellow = ctx.yellow
    gate = board.is_gate
    pit_flag = ctx.pit_flag
    marked = board.marked_corner
    loc, state, adv, cr = start, line, 0, 0
    path = []
    for _ in range(top):
        step = ahead[loc]
        if step is None or (pit_flag and gate[loc]):
            return None
        to, crosses, advance = step
        if occupied >> to & 1:
            return None
        adv += advance
        if yellow >= 0 and adv > yellow:
            return None
        if crosses:
            cr += 1
            if cr >= ctx.to_finish:
                return None
        state = board.line_after(state, to)
        if marked[to] >= 0 and board.limit(to, state) < gear:
            return None
        path.append(to)
        loc = to
    return Move(top, END_POINTS, (0,) * top, tuple(path), loc, state, 0, cr, adv, -1, CLASS_CLEAN)


def _first_at_least(ms: tuple[int, ...], d: int) -> int:
    for m in ms:
        if m >= d:
            return m
    return -1


def _search(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    # Hot loop: plain tuples and ints. ``lex`` is the path as a base-3 number (ahead 0, diag 1,
    # start-lane diag 2), padded to MAX_ROOM digits so that numbers compare as P-5's path_lex.
    fast = board.fast_succ
    is_pit = board.is_pit
    is_gate = board.is_gate
    marked = board.marked_corner
    line_next = board.line_next
    line_start = board.line_start
    line_loc = board.line_loc
    line_bonus = board.line_bonus
    max_gear = board.max_gear
    runoff_of = board.runoff_of
    vpos = board.vpos
    occupied = ctx.occupied
    yellow = ctx.yellow
    max_lc = ctx.max_lane_changes
    pit_flag = ctx.pit_flag
    to_finish = ctx.to_finish
    starts_open = ctx.starts_open
    top = ms[-1]
    wanted = set(ms)
    # state key (loc * 256 + line) -> (lane changes, lex, advance, crossings, loc, line)
    frontier: dict[int, tuple[int, int, int, int, int, int]] = {
        start * 256 + line: (0, 0, 0, 0, start, line)
    }
    best: tuple[int, int, int, int, int, str, int, int, int, int, int] | None = None
    for depth in range(1, top + 1):
        weight = _WEIGHTS[depth]
        m_here = _first_at_least(ms, depth)
        new: dict[int, tuple[int, int, int, int, int, int]] = {}
        for lc, lex, adv, cr, loc, state in frontier.values():
            if pit_flag and is_gate[loc]:
                cand = (CLASS_PIT, 0, lc, m_here, lex, END_PIT, loc, 0, cr, -1, depth)
                if best is None or cand < best:
                    best = cand
                continue
            moved = False
            for to, code, lane_change, crosses, advance, into_start in fast[loc]:
                if lane_change and lc >= max_lc:
                    continue
                if into_start and not starts_open:
                    continue
                if occupied >> to & 1 and not is_pit[to]:
                    continue
                nadv = adv + advance
                if yellow >= 0 and nadv > yellow:
                    continue
                moved = True
                nlex = lex + code * weight
                nlc = lc + lane_change
                ncr = cr + crosses
                if crosses and ncr >= to_finish:
                    cand = (CLASS_CLEAN, -FINISH_BONUS - top + depth, nlc, top, nlex,
                            END_FINISH, to, 0, ncr, -1, depth)  # fmt: skip
                    if best is None or cand < best:
                        best = cand
                    continue
                nstate = state + 1 if state and line_next[state] == to else line_start[to]
                k = marked[to]
                if k >= 0:
                    limit = max_gear[k]
                    if nstate and line_loc[nstate] == to:
                        limit += line_bonus[nstate]
                    if limit < gear:
                        runoff = runoff_of[k]
                        radv = nadv + vpos[runoff] - vpos[to]
                        cand = (CLASS_EXIT, -radv, nlc, m_here, nlex, END_EXIT, runoff, 0, ncr,
                                k, depth)  # fmt: skip
                        if best is None or cand < best:
                            best = cand
                        continue
                key = to * 256 + nstate
                old = new.get(key)
                if old is None or nlc < old[0] or (nlc == old[0] and nlex < old[1]):
                    new[key] = (nlc, nlex, nadv, ncr, to, nstate)
            if not moved:
                end, eadv = _pit_parking(board, loc, adv, occupied)
                cand = (CLASS_CLEAN, -eadv, lc, m_here, lex, END_BLOCKED, end, state, cr, -1,
                        depth - 1)  # fmt: skip
                if best is None or cand < best:
                    best = cand
        if depth in wanted:
            for lc, lex, adv, cr, loc, state in new.values():
                end, eadv = _pit_parking(board, loc, adv, occupied)
                cand = (CLASS_CLEAN, -eadv, lc, depth, lex, END_POINTS, end, state, cr, -1, depth)
                if best is None or cand < best:
                    best = cand
        frontier = new
        if not frontier:
            break
    if best is None:
        return Move(ms[0], END_BLOCKED, (), (), start, line, 0, 0, 0, -1, CLASS_CLEAN)
    cls, neg_d, lc, m, lex, kind, end, state, cr, corner, steps = best
    codes = tuple((lex // _WEIGHTS[d]) % 3 for d in range(1, steps + 1))
    path = _replay(board, start, codes, kind)
    if kind in (END_EXIT, END_PIT):
        state = 0
    if kind == END_FINISH:
        advance = _advance_of(board, start, path)
    elif kind == END_PIT:
        advance = 0
    else:
        advance = -neg_d
    return Move(m, kind, codes, path, end, state, lc, cr, advance, corner, cls)


_WEIGHTS = [3 ** (MAX_ROOM - d) if d <= MAX_ROOM else 0 for d in range(MAX_ROOM + 2)]


def _advance_of(board: Board, start: int, path: tuple[int, ...]) -> int:
    total = 0
    loc = start
    for to in path:
        for step in board.succ[loc]:
            if step.to == to:
                total += step.advance
                break
        loc = to
    return total


def _pit_parking(board: Board, loc: int, adv: int, occupied: int) -> tuple[int, int]:
    """GP-11.6: a move may not end on an occupied pit box; the nearest free one behind."""
    if not board.is_pit[loc] or not occupied >> loc & 1:
        return loc, adv
    k = board.index[loc]
    while k < 23:
        k += 1
        adv -= 2
        back = board.pit_loc(k)
        if not occupied >> back & 1:
            return back, adv
    return loc, adv


def _replay(board: Board, start: int, lex: tuple[int, ...], kind: str) -> tuple[int, ...]:
    """The locations entered along ``lex`` (the pit step is not a location)."""
    path = []
    loc = start
    for i, code in enumerate(lex):
        if kind == END_PIT and i == len(lex) - 1:
            break
        for step in board.succ[loc]:
            if step.lex == code:
                loc = step.to
                break
        path.append(loc)
    return tuple(path)


def room(board: Board, start: int, line: int, pit_flag: bool, max_lc: int) -> tuple[int, ...]:
    """P-1: ``room(g)`` for g = 0..4 (index by gear): the largest k <= 24 such that some
    k-step path never enters a square whose effective limit is below g. Other cars and the
    yellow flag are ignored; lane changes are limited; the line state is tracked; start lanes
    are not entered; with ``pit_flag`` the gate leads into the pit, where nothing limits."""
    key = (start, line, pit_flag, max_lc)
    found = board.rooms.get(key)
    if found is not None:
        return found
    out = [MAX_ROOM, MAX_ROOM, MAX_ROOM, MAX_ROOM, MAX_ROOM]
    for gear in (3, 4):
        out[gear] = _room_for(board, start, line, pit_flag, max_lc, gear)
    for gear in (1, 2):
        out[gear] = min(MAX_ROOM, _room_for(board, start, line, pit_flag, max_lc, gear))
    result = tuple(out)
    board.rooms[key] = result
    return result


def _room_for(board: Board, start: int, line: int, pit_flag: bool, max_lc: int, gear: int) -> int:
    frontier = {(start, line): 0}
    succ = board.succ
    for depth in range(1, MAX_ROOM + 1):
        new: dict[tuple[int, int], int] = {}
        for (loc, state), lc in frontier.items():
            if pit_flag and board.is_gate[loc]:
                return MAX_ROOM
            for step in succ[loc]:
                if step.into_start_lane or (step.lane_change and lc >= max_lc):
                    continue
                to = step.to
                nstate = board.line_after(state, to)
                if board.marked_corner[to] >= 0 and board.limit(to, nstate) < gear:
                    continue
                nlc = lc + step.lane_change
                old = new.get((to, nstate))
                if old is None or nlc < old:
                    new[(to, nstate)] = nlc
        if not new:
            return depth - 1
        frontier = new
    return MAX_ROOM


__all__ = ["NO_LIMIT", "Context", "Move", "best_move", "room"]
