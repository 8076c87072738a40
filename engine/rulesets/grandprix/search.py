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


def _first_at_least(ms: tuple[int, ...], d: int) -> int:
    for m in ms:
        if m >= d:
            return m
    return -1


def _search(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    succ = board.succ
    is_pit = board.is_pit
    is_gate = board.is_gate
    marked = board.marked_corner
    line_after = board.line_after
    limit = board.limit
    occupied = ctx.occupied
    yellow = ctx.yellow
    max_lc = ctx.max_lane_changes
    pit_flag = ctx.pit_flag
    to_finish = ctx.to_finish
    starts_open = ctx.starts_open
    top = ms[-1]
    wanted = set(ms)
    # (loc, line) -> (lane changes, lex, advance, crossings)
    frontier: dict[tuple[int, int], tuple[int, tuple[int, ...], int, int]] = {
        (start, line): (0, (), 0, 0)
    }
    best: tuple[tuple[int, int, int, int, tuple[int, ...]], tuple[str, int, int, int, int]] | None
    best = None

    def offer(
        cls: int,
        d_end: int,
        lc: int,
        m: int,
        lex: tuple[int, ...],
        info: tuple[str, int, int, int, int],
    ) -> None:
        nonlocal best
        k = (cls, -d_end, lc, m, lex)
        if best is None or k < best[0]:
            best = (k, info)

    for depth in range(1, top + 1):
        new: dict[tuple[int, int], tuple[int, tuple[int, ...], int, int]] = {}
        for (loc, state), (lc, lex, adv, cr) in frontier.items():
            if pit_flag and is_gate[loc]:
                m = _first_at_least(ms, depth)
                offer(CLASS_PIT, 0, lc, m, (*lex, 0), (END_PIT, loc, 0, cr, -1))
                continue
            moved = False
            for step in succ[loc]:
                to = step.to
                if step.lane_change and lc >= max_lc:
                    continue
                if step.into_start_lane and not starts_open:
                    continue
                if occupied >> to & 1 and not is_pit[to]:
                    continue
                nadv = adv + step.advance
                if yellow >= 0 and nadv > yellow:
                    continue
                moved = True
                nlex = (*lex, step.lex)
                nlc = lc + step.lane_change
                ncr = cr + step.crosses
                if step.crosses and ncr >= to_finish:
                    m = ms[-1]
                    offer(
                        CLASS_CLEAN,
                        FINISH_BONUS + m - depth,
                        nlc,
                        m,
                        nlex,
                        (END_FINISH, to, 0, ncr, -1),
                    )
                    continue
                nstate = line_after(state, to)
                if marked[to] >= 0 and limit(to, nstate) < gear:
                    k = marked[to]
                    runoff = board.runoff_of[k]
                    radv = nadv + board.vpos[runoff] - board.vpos[to]
                    m = _first_at_least(ms, depth)
                    offer(CLASS_EXIT, radv, nlc, m, nlex, (END_EXIT, runoff, 0, ncr, k))
                    continue
                old = new.get((to, nstate))
                if old is None or (nlc, nlex) < (old[0], old[1]):
                    new[(to, nstate)] = (nlc, nlex, nadv, ncr)
            if not moved and depth - 1 < top:
                m = _first_at_least(ms, depth)
                end, eadv = _pit_parking(board, loc, adv, occupied)
                offer(CLASS_CLEAN, eadv, lc, m, lex, (END_BLOCKED, end, state, cr, -1))
        if depth in wanted:
            for (loc, state), (lc, lex, adv, cr) in new.items():
                end, eadv = _pit_parking(board, loc, adv, occupied)
                offer(CLASS_CLEAN, eadv, lc, depth, lex, (END_POINTS, end, state, cr, -1))
        frontier = new
        if not frontier:
            break
    if best is None:
        # No step at all and no candidate: the car stays (blocked from the start).
        return Move(ms[0], END_BLOCKED, (), (), start, line, 0, 0, 0, -1, CLASS_CLEAN)
    (cls, neg_d, lc, m, lex), (kind, end, state, cr, corner) = best
    path = _replay(board, start, lex, kind)
    if kind in (END_EXIT, END_PIT):
        state = 0
    advance = -neg_d if kind != END_FINISH else -neg_d - FINISH_BONUS - m + len(lex)
    if kind == END_PIT:
        advance = 0
    return Move(m, kind, lex, path, end, state, lc, cr, advance, corner, cls)


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
