"""Path search for a move (GP-6, GP-7, GP-8, GP-10.1, GP-11.2) and the policy's room (P-1).

A move of ``M`` steps with at most two lane changes ends, on a main lane, on one of three
squares (the end depends only on the number of diag steps), so the search keeps at each depth
one best partial path per (location, racing-line state, lane changes): the smaller
``path_lex`` (P-5). Every candidate ``M`` of a throw is evaluated in the same pass.
Results depend only on the start, the gear, the candidates and the cars within reach, so
they are memoised per board (the qualifying runs and open track hit the memo most of the
time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from engine.rulesets.grandprix.board import NO_LIMIT, Board

# The constants are Final: a compiled build (mypyc, docs/engine.md) inlines them instead of
# looking each one up in the module's globals inside the search loops.
#: Outcome classes of P-5.
CLASS_PIT: Final = 0
CLASS_CLEAN: Final = 1
CLASS_EXIT: Final = 2
#: How a move ended (GP-6.4).
END_POINTS: Final = "points"
END_BLOCKED: Final = "blocked"
END_EXIT: Final = "exit"
END_PIT: Final = "pit"
END_FINISH: Final = "finish"
FINISH_BONUS: Final = 1_000_000
#: ``Context(...)`` without the named tuple's Python-level ``__new__``.
_new_context = tuple.__new__
#: A :class:`Move` from the plain tuple of its fields (what the board's memos keep).
_new_move = tuple.__new__
MAX_ROOM: Final = 24


class Move(NamedTuple):
    """The chosen (M, path) of P-5 and what it leads to (a named tuple: built for most moves,
    and a frozen dataclass's constructor costs a call per field)."""

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


class Context(NamedTuple):
    """What else a move depends on (the memo key, with start, gear and candidates); a named
    tuple, as it is built for every move."""

    occupied: int  # bitmask of locations holding another car (within reach)
    pit_flag: bool  # must_pit or pit_intent (GP-11.2)
    to_finish: int  # crossings still to make before the finish (1 = the next one finishes)
    starts_open: bool  # GP-8.4
    yellow: int  # GP-10.1: largest allowed advance, or -1 when no yellow applies
    max_lane_changes: int
    #: [D] the risk's weight of a green end square in half-squares of D (policy.GREEN_BIAS)
    green_bias: int = 0


def best_move(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    """P-5 over every (M in ``ms``, legal path): minimise (class, -D_end, lane changes, M,
    path_lex); GP-6.2 legality, GP-6.3 must step, GP-6.4 ends, GP-7.3 exits, GP-11.2 gate,
    GP-11.6 pit boxes, GP-12.1 finish. ``ms`` ascending."""
    straight = _straight(board, start, line, gear, ms[-1], ctx)
    if straight is not None:
        return straight
    # Kept per board are plain tuples of ints and the search's own tuples, which the garbage
    # collector stops walking once they have survived a collection: lists and objects in
    # long-lived caches are walked by every full collection (issue 33).
    tkey = (start, line, gear, *ctx[1:])  # the context without the cars
    free = not ctx.occupied
    if free:  # with a car within reach the same move rarely comes back (1 to 3 % of them)
        key = (tkey, ms)
        found = board.memo.get(key)
        if found is not None:
            return _new_move(Move, found)
    # Up to the last depth at which no car is within reach, the states and outcomes of every
    # depth do not depend on the throw nor on the cars: they are those of the scan with no
    # cars (``Scan``), kept per (start, line, gear, context without the cars) and extended
    # when a move needs more depths. The search goes on from there with the cars.
    top = ms[-1]
    occupied = ctx.occupied
    if occupied:
        masks = board._reach.get(start)
        if masks is None:
            board.reach(start, 0)
            masks = board._reach[start]
        clear = 0
        while clear < top and not masks[clear + 1] & occupied:
            clear += 1
    else:
        clear = top
    tables = board.tables
    scan = tables.get(tkey)
    if scan is None:
        if len(tables) > 20_000:  # about 3 KB each; a race adds a dozen once warm
            tables.clear()
        scan = tables[tkey] = new_scan(start, line)
    depth = len(scan) - 1
    if depth < clear and scan[depth][0]:
        # The longer scan replaces the kept one (ctx.occupied is not read: no car).
        scan = tables[tkey] = _extend(board, gear, ctx, scan, clear)
        depth = len(scan) - 1
    best = _scan_best(scan, ms, clear)
    if (
        clear < top
        and clear <= depth
        and scan[clear][0]
        and (best is None or best[1] > -FINISH_BONUS or ctx.pit_flag)
    ):
        best = _search_from(board, start, line, gear, ms, ctx, clear + 1, scan[clear][0], best)
    if best is None:
        move = Move(ms[0], END_BLOCKED, (), (), start, line, 0, 0, 0, -1, CLASS_CLEAN)
    else:
        move = _move(board, start, best, ctx.green_bias)
    if free:
        memo = board.memo
        if len(memo) > 400_000:
            memo.clear()
        memo[key] = tuple(move)  # a plain tuple: the collector stops walking it
    return move


class StraightRun:
    """The all-ahead path from (start, line state) in one gear, cut at its first impossible
    step (no ahead step, or a corner whose effective limit is below the gear): per prefix
    length ``t`` the squares entered (bitmask), the advance and the crossings, and the first
    step taken from the pit gate. Built once per board; a straight move of ``t`` steps is
    then checked against the cars, the yellow flag, the finish and the gate in O(1)."""

    __slots__ = ("advance", "clean", "crossings", "first_gate", "line", "masks", "moves", "path")

    def __init__(self, board: Board, start: int, line: int, gear: int) -> None:
        ahead = board.ahead_step
        marked = board.marked_corner
        gate = board.is_gate
        masks, advance, crossings, lines = [0], [0], [0], [line]
        path: list[int] = []
        first_gate = MAX_ROOM + 1
        loc, state, mask, adv, cr = start, line, 0, 0, 0
        for s in range(MAX_ROOM):
            if gate[loc] and first_gate > s:
                first_gate = s
            step = ahead[loc]
            if step is None:
                break
            to, crosses, gain = step
            assert gain > 0  # the advance grows along the run, so its last value is its max
            state = board.line_after(state, to)
            if marked[to] >= 0 and board.limit(to, state) < gear:
                break
            mask |= 1 << to
            adv += gain
            cr += crosses
            path.append(to)
            masks.append(mask)
            advance.append(adv)
            crossings.append(cr)
            lines.append(state)
            loc = to
        # Tuples: kept per board, the collector stops walking them (see best_move).
        self.clean = len(path)
        self.path = tuple(path)
        self.masks = tuple(masks)
        self.advance = tuple(advance)
        self.crossings = tuple(crossings)
        self.line = tuple(lines)
        self.first_gate = first_gate
        #: The moves built so far, as plain tuples (see best_move).
        self.moves: list[tuple[object, ...] | None] = [None] * (len(path) + 1)

    def move(self, top: int, start: int) -> Move:
        """The :class:`Move` of the first ``top`` steps (built once)."""
        fields = self.moves[top]
        if fields is None:
            path = tuple(self.path[:top])
            end = path[-1] if path else start
            fields = self.moves[top] = (
                top, END_POINTS, (0,) * top, path, end, self.line[top], 0,
                self.crossings[top], self.advance[top], -1, CLASS_CLEAN,
            )  # fmt: skip
        return _new_move(Move, fields)


def _straight(
    board: Board, start: int, line: int, gear: int, top: int, ctx: Context
) -> Move | None:
    """The all-ahead path of ``top`` steps when it is legal and clean: it gains 2 half-squares
    a step, the most any step gains, with no lane change and the smallest path_lex, so P-5
    picks it whenever it exists (no pit to enter, no finish to reach, no exit, no block).
    None sends the move to the full search."""
    if not board.on_track[start]:
        return None
    key = (start * 256 + line) * 8 + gear
    run = board.straights.get(key)
    if run is None:
        run = board.straights[key] = StraightRun(board, start, line, gear)
    if (
        top > run.clean
        or ctx.occupied & run.masks[top]
        or run.crossings[top] >= ctx.to_finish
        or (ctx.pit_flag and run.first_gate < top)
        or 0 <= ctx.yellow < run.advance[top]
    ):
        return None
    bias = ctx.green_bias
    if bias and board.green[run.path[top - 1] if top else start] != (bias > 0):
        return None  # another end may be worth more to this risk: the full search decides
    return run.move(top, start)


#: A candidate outcome of P-5, compared as a tuple: (class, -D_end, lane changes, M, lex,
#: end kind, end location, line state, crossings, corner, steps).
Candidate = tuple[int, int, int, int, int, str, int, int, int, int, int]

#: A state of the search: (lane changes, lex, advance, crossings, location, line state).
State = tuple[int, int, int, int, int, int]
#: One depth of a :data:`Scan`: the states after it (in path_lex order; empty when none is
#: left), the best points outcome (M = the depth), the best pit entry, exit or block (M left
#: 0: the throw gives it) and the best finish (-D_end and M left 0).
Level = tuple[tuple[State, ...], Candidate | None, Candidate | None, Candidate | None]
#: The move search from (start, line) in one gear with no car on the board, depth by depth
#: as far as a move has needed: ``scan[d]`` is the :data:`Level` of depth ``d`` (``scan[0]``
#: the start), ``len(scan) - 1`` the depth reached, an empty last frontier the end. The
#: states of a depth do not depend on the throw, so :func:`_scan_best` gives ``_search``'s
#: answer over those depths for any candidates. A tuple of tuples of ints and strings: the
#: garbage collector stops walking it once it has survived a collection.
Scan = tuple[Level, ...]


def _search(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    """The full search of one move from depth 1 (``_search_from``), as a :class:`Move`."""
    best = _search_from(board, start, line, gear, ms, ctx)
    if best is None:
        return Move(ms[0], END_BLOCKED, (), (), start, line, 0, 0, 0, -1, CLASS_CLEAN)
    return _move(board, start, best, ctx.green_bias)


def _search_from(
    board: Board,
    start: int,
    line: int,
    gear: int,
    ms: tuple[int, ...],
    ctx: Context,
    first: int = 1,
    frontier: Sequence[State] | None = None,
    best: Candidate | None = None,
) -> Candidate | None:
    """The full search of one move (module docstring): one breadth-first pass over the depths
    keeps one best partial path per (location, racing-line state, lane changes) and offers
    every outcome (points at a depth in ``ms``; pit entry, exit, block at the smallest M >= the
    depth; finish) to P-5's minimum, which it returns. It may go on from depth ``first`` with
    the states of the depth before and the best outcome of the depths before (``best_move``:
    from a :class:`Scan`)."""
    # Hot loop: plain tuples and ints. ``lex`` is the path as a base-3 number (ahead 0, diag 1,
    # start-lane diag 2), padded to MAX_ROOM digits so that numbers compare as P-5's path_lex.
    # A state is (lane changes, lex, advance, crossings, location, line state). A candidate
    # is built only when its (class, -D_end) could beat the best so far.
    succ = board.hot_open if ctx.starts_open else board.hot_closed
    is_pit = board.is_pit
    is_gate = board.is_gate
    line_next = board.line_next
    line_loc = board.line_loc
    line_bonus = board.line_bonus
    runoff_of = board.runoff_of
    vpos = board.vpos
    occupied = ctx.occupied
    blocking = occupied & ~board.pit_mask  # GP-11.6: an occupied box is passed, not a block
    yellow = ctx.yellow if ctx.yellow >= 0 else 1 << 30
    max_lc = ctx.max_lane_changes
    pit_flag = ctx.pit_flag
    to_finish = ctx.to_finish
    bias = ctx.green_bias
    green = board.green
    top = ms[-1]
    finish_key = -FINISH_BONUS - top
    # P-5's M of a blocked/exit/pit outcome at each depth: the smallest M >= the depth.
    m_at = [0] * (top + 1)
    wanted = [False] * (top + 1)
    j = 0
    for depth in range(1, top + 1):
        while ms[j] < depth:
            j += 1
        m_at[depth] = ms[j]
    for m in ms:
        wanted[m] = True
    if frontier is None:
        frontier = [(0, 0, 0, 0, start, line)]
    # The best candidate and its (class, -D_end) as two ints for the cheap pre-check.
    bcls, bneg = (9, 0) if best is None else (best[0], best[1])
    weights = _WEIGHTS
    for depth in range(first, top + 1):
        weight = weights[depth]
        m_here = m_at[depth]
        new: dict[int, State] = {}
        for lc, lex, adv, cr, loc, state in frontier:
            if pit_flag and is_gate[loc]:
                if bcls >= CLASS_PIT:
                    cand = (CLASS_PIT, 0, lc, m_here, lex, END_PIT, loc, 0, cr, -1, depth)
                    if best is None or cand < best:
                        best, bcls, bneg = cand, CLASS_PIT, 0
                continue
            moved = False
            changes_left = lc < max_lc
            for to, code, lane_change, crosses, advance, limit, k, ls, tkey in succ[loc]:
                if lane_change and not changes_left:
                    continue
                if blocking >> to & 1:
                    continue
                nadv = adv + advance
                if nadv > yellow:
                    continue
                moved = True
                nlc = lc + lane_change
                if crosses:
                    ncr = cr + 1
                    if ncr >= to_finish:
                        neg = finish_key + depth
                        if bcls > CLASS_CLEAN or (bcls == CLASS_CLEAN and neg <= bneg):
                            cand = (CLASS_CLEAN, neg, nlc, top, lex + code * weight, END_FINISH,
                                    to, 0, ncr, -1, depth)  # fmt: skip
                            if best is None or cand < best:
                                best, bcls, bneg = cand, CLASS_CLEAN, neg
                        continue
                else:
                    ncr = cr
                nstate = state + 1 if state and line_next[state] == to else ls
                if limit < gear:
                    if nstate and line_loc[nstate] == to:
                        limit += line_bonus[nstate]
                    if limit < gear:
                        if bcls >= CLASS_EXIT:
                            runoff = runoff_of[k]
                            neg = -(nadv + vpos[runoff] - vpos[to])
                            if bcls > CLASS_EXIT or neg <= bneg:
                                cand = (CLASS_EXIT, neg, nlc, m_here, lex + code * weight,
                                        END_EXIT, runoff, 0, ncr, k, depth)  # fmt: skip
                                if best is None or cand < best:
                                    best, bcls, bneg = cand, CLASS_EXIT, neg
                        continue
                # One state per (square, line state, lane changes): with the same three, the
                # futures are the same and the smaller lex wins. Fewer lane changes do not
                # dominate more: a car out of lane changes may be blocked (a clean end) where
                # one with a change left must step on, perhaps into an exit (GP-6.3). States
                # and steps are visited in ascending lex (the frontier keeps that order), so
                # the first path to reach a state is the one to keep.
                key = tkey + nstate * 8 + nlc
                if key not in new:
                    new[key] = (nlc, lex + code * weight, nadv, ncr, to, nstate)
            if not moved:
                end, eadv = loc, adv
                if is_pit[loc] and occupied >> loc & 1:
                    end, eadv = _pit_parking(board, loc, adv, occupied)
                neg = -eadv - bias * green[end]
                if bcls > CLASS_CLEAN or (bcls == CLASS_CLEAN and neg <= bneg):
                    cand = (CLASS_CLEAN, neg, lc, m_here, lex, END_BLOCKED, end, state, cr, -1,
                            depth - 1)  # fmt: skip
                    if best is None or cand < best:
                        best, bcls, bneg = cand, CLASS_CLEAN, neg
        if not new:
            break
        frontier = list(new.values())
        if wanted[depth] and bcls >= CLASS_CLEAN:
            for lc, lex, adv, cr, loc, state in frontier:
                end, eadv = loc, adv
                if is_pit[loc] and occupied >> loc & 1:
                    end, eadv = _pit_parking(board, loc, adv, occupied)
                neg = -eadv - bias * green[end]
                if bcls > CLASS_CLEAN or neg <= bneg:
                    cand = (CLASS_CLEAN, neg, lc, depth, lex, END_POINTS, end, state, cr, -1,
                            depth)  # fmt: skip
                    if best is None or cand < best:
                        best, bcls, bneg = cand, CLASS_CLEAN, neg
        if bneg <= -FINISH_BONUS and bcls == CLASS_CLEAN and not pit_flag:
            # A finish beats every later outcome: deeper finishes take more steps (P-5's
            # M - k), other clean ones rank below any finish, exits below clean; only a pit
            # entry (class 0) could, and there is none without an obligation.
            break
    return best


def new_scan(start: int, line: int) -> Scan:
    """A scan at depth 0: the start state alone."""
    return ((((0, 0, 0, 0, start, line),), None, None, None),)


def _extend(board: Board, gear: int, ctx: Context, scan: Scan, upto: int) -> Scan:
    """``scan`` gone on to depth ``upto`` (or its end): ``_search``'s steps with no car (no
    block, no pit box to park behind)."""
    succ = board.hot_open if ctx.starts_open else board.hot_closed
    is_gate = board.is_gate
    line_next = board.line_next
    line_loc = board.line_loc
    line_bonus = board.line_bonus
    runoff_of = board.runoff_of
    vpos = board.vpos
    yellow = ctx.yellow if ctx.yellow >= 0 else 1 << 30
    max_lc = ctx.max_lane_changes
    pit_flag = ctx.pit_flag
    to_finish = ctx.to_finish
    bias = ctx.green_bias
    green = board.green
    reached = len(scan) - 1
    frontier = scan[reached][0]
    levels = list(scan)
    weights = _WEIGHTS
    for depth in range(reached + 1, upto + 1):
        weight = weights[depth]
        new: dict[int, State] = {}
        o_best: Candidate | None = None
        f_best: Candidate | None = None
        for lc, lex, adv, cr, loc, state in frontier:
            if pit_flag and is_gate[loc]:
                cand: Candidate = (CLASS_PIT, 0, lc, 0, lex, END_PIT, loc, 0, cr, -1, depth)
                if o_best is None or cand < o_best:
                    o_best = cand
                continue
            moved = False
            changes_left = lc < max_lc
            for to, code, lane_change, crosses, advance, limit, k, ls, tkey in succ[loc]:
                if lane_change and not changes_left:
                    continue
                nadv = adv + advance
                if nadv > yellow:
                    continue
                moved = True
                nlc = lc + lane_change
                if crosses:
                    ncr = cr + 1
                    if ncr >= to_finish:
                        cand = (CLASS_CLEAN, 0, nlc, 0, lex + code * weight, END_FINISH, to, 0,
                                ncr, -1, depth)  # fmt: skip
                        if f_best is None or cand < f_best:
                            f_best = cand
                        continue
                else:
                    ncr = cr
                nstate = state + 1 if state and line_next[state] == to else ls
                if limit < gear:
                    if nstate and line_loc[nstate] == to:
                        limit += line_bonus[nstate]
                    if limit < gear:
                        runoff = runoff_of[k]
                        neg = -(nadv + vpos[runoff] - vpos[to])
                        cand = (CLASS_EXIT, neg, nlc, 0, lex + code * weight, END_EXIT, runoff,
                                0, ncr, k, depth)  # fmt: skip
                        if o_best is None or cand < o_best:
                            o_best = cand
                        continue
                key = tkey + nstate * 8 + nlc
                if key not in new:
                    new[key] = (nlc, lex + code * weight, nadv, ncr, to, nstate)
            if not moved:
                cand = (CLASS_CLEAN, -adv - bias * green[loc], lc, 0, lex, END_BLOCKED, loc,
                        state, cr, -1, depth - 1)  # fmt: skip
                if o_best is None or cand < o_best:
                    o_best = cand
        if not new:
            levels.append(((), None, o_best, f_best))
            return tuple(levels)
        frontier = tuple(new.values())
        p_best: Candidate | None = None
        for lc, lex, adv, cr, loc, state in frontier:
            cand = (CLASS_CLEAN, -adv - bias * green[loc], lc, depth, lex, END_POINTS, loc,
                    state, cr, -1, depth)  # fmt: skip
            if p_best is None or cand < p_best:
                p_best = cand
        levels.append((frontier, p_best, o_best, f_best))
    return tuple(levels)


def _scan_best(scan: Scan, ms: tuple[int, ...], upto: int) -> Candidate | None:
    """P-5's minimum over a scan's outcomes of the depths <= ``upto`` (and <= the deepest M):
    the points outcomes at the depths in ``ms``, every other with the M ``_search`` gives it
    (the smallest candidate >= its depth; a finish: the deepest, its -D_end counted from it)."""
    top = ms[-1]
    last = min(upto, len(scan) - 1, top)
    best: Candidate | None = None
    for m in ms:
        if m > last:
            break
        cand = scan[m][1]
        if cand is not None and (best is None or cand < best):
            best = cand
    j = 0
    for depth in range(1, last + 1):
        while ms[j] < depth:
            j += 1
        _, _, cand, fin = scan[depth]
        if cand is not None:
            cand = (cand[0], cand[1], cand[2], ms[j], *cand[4:])
            if best is None or cand < best:
                best = cand
        cand = fin
        if cand is not None:
            cand = (cand[0], -FINISH_BONUS - top + depth, cand[2], top, *cand[4:])
            if best is None or cand < best:
                best = cand
    return best


def _move(board: Board, start: int, best: Candidate, bias: int = 0) -> Move:
    """The :class:`Move` of P-5's chosen candidate (its path replayed from ``lex``, kept per
    board by start, lex, steps and whether the last step enters the pit)."""
    cls, neg_d, lc, m, lex, kind, end, state, cr, corner, steps = best
    key = ((lex * 32 + steps) * 2 + (kind == END_PIT)) * board.size + start
    known = board.paths.get(key)
    if known is None:
        digits = []
        x = lex // _WEIGHTS[steps]
        for _ in range(steps):
            digits.append(x % 3)
            x //= 3
        codes = tuple(reversed(digits))
        if len(board.paths) > 200_000:
            board.paths.clear()
        known = board.paths[key] = (codes, _replay(board, start, codes, kind))
    codes, path = known
    if kind in (END_EXIT, END_PIT):
        state = 0
    if kind == END_FINISH:
        advance = _advance_of(board, start, path)
    elif kind == END_PIT:
        advance = 0
    elif kind == END_EXIT:
        advance = -neg_d
    else:
        advance = -neg_d - bias * board.green[end]
    return Move(m, kind, codes, path, end, state, lc, cr, advance, corner, cls)


_WEIGHTS: Final = [3 ** (MAX_ROOM - d) if d <= MAX_ROOM else 0 for d in range(MAX_ROOM + 2)]


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
    by_code = board.step_by_code
    path = []
    loc = start
    steps = len(lex) - 1 if kind == END_PIT else len(lex)
    for i in range(steps):
        loc = by_code[loc][lex[i]]
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
    # No square limits a gear up to the tightest corner's max_gear, and a path can always go
    # on (a start lane needs one lane change to leave): room is then 24 without a search.
    for gear in (1, 2, 3, 4):
        if gear > board.min_limit or max_lc < 1:
            out[gear] = _room_for(board, start, line, pit_flag, max_lc, gear)
    result = tuple(out)
    board.rooms[key] = result
    return result


def _room_for(board: Board, start: int, line: int, pit_flag: bool, max_lc: int, gear: int) -> int:
    succ = board.succ_closed  # P-1: start lanes are not entered
    is_gate = board.is_gate
    marked = board.marked_corner
    line_next = board.line_next
    line_start = board.line_start
    line_loc = board.line_loc
    line_bonus = board.line_bonus
    max_gear = board.max_gear
    frontier = {start * 256 + line: 0}
    for depth in range(1, MAX_ROOM + 1):
        new: dict[int, int] = {}
        for code, lc in frontier.items():
            loc, state = code >> 8, code & 255
            if pit_flag and is_gate[loc]:
                return MAX_ROOM
            for to, _, lane_change, _, _ in succ[loc]:
                if lane_change and lc >= max_lc:
                    continue
                nstate = state + 1 if state and line_next[state] == to else line_start[to]
                k = marked[to]
                if k >= 0:
                    limit = max_gear[k]
                    if nstate and line_loc[nstate] == to:
                        limit += line_bonus[nstate]
                    if limit < gear:
                        continue
                nlc = lc + lane_change
                key = to * 256 + nstate
                old = new.get(key)
                if old is None or nlc < old:
                    new[key] = nlc
        if not new:
            return depth - 1
        frontier = new
    return MAX_ROOM


__all__ = ["NO_LIMIT", "Context", "Move", "best_move", "room"]
