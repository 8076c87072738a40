"""The move search against a brute-force oracle (GP-6, GP-7.3, GP-10.1, GP-11.2, GP-11.6,
GP-12.1, P-5).

The engine's search keeps one partial path per square and line state, answers many throws
from one table and keys its memo on the cars that matter; the oracle below enumerates every
legal path of every candidate M one by one and ranks the outcomes with P-5's key (with the
risk's weight of a green end, policy.GREEN_BIAS). Both must agree on random board states: cars
anywhere (pit boxes and start lanes included), racing-line states, yellow flags, pit
obligations, the last lap, open start lanes, lane-change limits, every risk.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.grandprix.board import Board, board_for
from engine.rulesets.grandprix.search import (
    CLASS_CLEAN,
    CLASS_EXIT,
    CLASS_PIT,
    END_BLOCKED,
    END_EXIT,
    END_FINISH,
    END_PIT,
    END_POINTS,
    FINISH_BONUS,
    MAX_ROOM,
    Context,
    Move,
    best_move,
)
from tests.engine.grandprix.kit import TRACKS

Key = tuple[int, int, int, int, int, str, int, int, int, int, int]


def _lexnum(codes: list[int]) -> int:
    """P-5's path_lex as the engine compares it: base 3, padded to MAX_ROOM digits."""
    return sum(code * 3 ** (MAX_ROOM - d) for d, code in enumerate(codes, 1))


def _park(board: Board, loc: int, adv: int, occupied: int) -> tuple[int, int]:
    """GP-11.6: a move ending on an occupied box ends on the nearest free box behind."""
    if not board.is_pit[loc] or not occupied >> loc & 1:
        return loc, adv
    for k in range(board.index[loc] + 1, 24):
        adv -= 2
        if not occupied >> board.pit_loc(k) & 1:
            return board.pit_loc(k), adv
    return loc, adv


def oracle(
    board: Board, start: int, line: int, gear: int, ms: tuple[int, ...], ctx: Context
) -> Move:
    """Every path of every M in ``ms``, step by step as GP-6.2-6.4 say, ranked by P-5."""
    top = ms[-1]
    found: dict[Key, Move] = {}

    def offer(key: Key, path: list[int], codes: list[int], advance: int) -> None:
        cls, _, lc, m, _, kind, end, state, cr, corner, _ = key
        found[key] = Move(m, kind, tuple(codes), tuple(path), end, state, lc, cr, advance,
                          corner, cls)  # fmt: skip

    def walk(m: int, loc: int, state: int, lc: int, adv: int, cr: int, path: list[int],
             codes: list[int]) -> None:  # fmt: skip
        depth = len(codes)
        if depth == m:
            end, eadv = _park(board, loc, adv, ctx.occupied)
            key = (CLASS_CLEAN, -eadv - ctx.green_bias * board.green[end], lc, m, _lexnum(codes),
                   END_POINTS, end, state, cr, -1, depth)  # fmt: skip
            offer(key, path, codes, eadv)
            return
        if ctx.pit_flag and board.is_gate[loc]:  # GP-11.2: the gate leads into the pit
            pit_codes = [*codes, 0]
            key = (CLASS_PIT, 0, lc, m, _lexnum(pit_codes), END_PIT, loc, 0, cr, -1, depth + 1)
            offer(key, path, pit_codes, 0)
            return
        moved = False
        for step in board.succ[loc]:
            to = step.to
            if step.lane_change and lc >= ctx.max_lane_changes:
                continue
            if step.into_start_lane and not ctx.starts_open:
                continue
            if ctx.occupied >> to & 1 and not board.is_pit[to]:
                continue
            nadv = adv + step.advance
            if ctx.yellow >= 0 and nadv > ctx.yellow:
                continue
            moved = True
            nlc, ncr = lc + step.lane_change, cr + step.crosses
            ncodes, npath = [*codes, step.lex], [*path, to]
            if step.crosses and ncr >= ctx.to_finish:  # GP-12.1
                key = (CLASS_CLEAN, -FINISH_BONUS - top + depth + 1, nlc, top, _lexnum(ncodes),
                       END_FINISH, to, 0, ncr, -1, depth + 1)  # fmt: skip
                offer(key, npath, ncodes, nadv)
                continue
            nstate = board.line_after(state, to)
            corner = board.marked_corner[to]
            if corner >= 0 and board.limit(to, nstate) < gear:  # GP-7.3
                runoff = board.runoff_of[corner]
                radv = nadv + board.vpos[runoff] - board.vpos[to]
                key = (CLASS_EXIT, -radv, nlc, m, _lexnum(ncodes), END_EXIT, runoff, 0, ncr,
                       corner, depth + 1)  # fmt: skip
                offer(key, npath, ncodes, radv)
                continue
            walk(m, to, nstate, nlc, nadv, ncr, npath, ncodes)
        if not moved:  # GP-6.3/6.4: blocked, the move ends here
            end, eadv = _park(board, loc, adv, ctx.occupied)
            key = (CLASS_CLEAN, -eadv - ctx.green_bias * board.green[end], lc, m, _lexnum(codes),
                   END_BLOCKED, end, state, cr, -1,
                   depth)  # fmt: skip
            offer(key, path, codes, eadv)

    for m in ms:
        walk(m, start, line, 0, 0, 0, [], [])
    if not found:
        return Move(ms[0], END_BLOCKED, (), (), start, line, 0, 0, 0, -1, CLASS_CLEAN)
    return found[min(found)]


def _locations(board: Board) -> list[int]:
    """Where a car can start a move: main and start-lane squares, run-offs, pit boxes."""
    return list(range(board.size))


@settings(max_examples=300, deadline=None)
@given(
    track=st.sampled_from(TRACKS),
    where=st.integers(min_value=0, max_value=10_000),
    line=st.integers(min_value=0, max_value=10_000),
    gear=st.integers(min_value=1, max_value=4),
    ms=st.lists(st.integers(min_value=1, max_value=23), min_size=1, max_size=4, unique=True),
    cars=st.lists(st.integers(min_value=0, max_value=10_000), max_size=8),
    near=st.lists(st.integers(min_value=1, max_value=14), max_size=4),
    pit=st.booleans(),
    to_finish=st.sampled_from([1, 2]),
    starts_open=st.booleans(),
    yellow=st.sampled_from([-1, -1, -1, 0, 3, 8, 15, 30]),
    max_lc=st.sampled_from([2, 2, 0, 1, 4]),
    green_bias=st.sampled_from([0, 0, 2, -2]),
)
def test_the_search_agrees_with_the_brute_force_oracle(  # type: ignore[no-untyped-def]
    track,
    where,
    line,
    gear,
    ms,
    cars,
    near,
    pit,
    to_finish,
    starts_open,
    yellow,
    max_lc,
    green_bias,
) -> None:
    board = board_for(track)
    locations = _locations(board)
    start = locations[where % len(locations)]
    line %= len(board.line_loc)
    occupied = 0
    for c in cars:
        occupied |= 1 << (c % board.size)
    for ahead in near:  # cars just ahead on the main lanes, where they matter most
        if board.is_main[start]:
            occupied |= 1 << ((start + ahead) % board.lap)
    occupied &= ~(1 << start)
    key = tuple(sorted(ms))
    ctx = Context(occupied, pit, to_finish, starts_open, yellow, max_lc, green_bias)
    assert best_move(board, start, line, gear, key, ctx) == oracle(board, start, line, gear,
                                                                    key, ctx)  # fmt: skip
    # The same move without the cars, then with only the first of them (tables and memo
    # reused across throws and fields).
    for occ in (0, occupied & -occupied):
        ctx2 = ctx._replace(occupied=occ)
        assert best_move(board, start, line, gear, key, ctx2) == oracle(
            board, start, line, gear, key, ctx2
        )
