"""The geometry of a track as flat arrays (grandprix.md §3.1-3.4), built once per track.

Locations are small ints: a main square's id is its half-square position (T-2: ``A_i = 2i``,
``B_i = 2i + 1``), then start-lane squares C, D (T-10), one run-off per corner (T-7) and the
pit boxes P23..P4 (T-11). ``D = 2n * crossings + vpos[loc]`` (T-5); a pit box's ``vpos``
already counts the crossing of a pit road that contains the line (T-11).

Racing-line state (GP-7.1) is an int too: 0 off any line, else ``line_code`` of (line, j).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.rulesets.grandprix.track import Track, grid_index, parse_square

if TYPE_CHECKING:
    from engine.rulesets.grandprix.search import Scan, StraightRun

#: Step kinds in ``path_lex`` order (P-5): ahead < diag < diag into a start lane.
AHEAD: Final = 0
DIAG: Final = 1
START_DIAG: Final = 2
NO_LIMIT: Final = 9


@dataclass(frozen=True, slots=True)
class Step:
    """One successor of a location (T-3)."""

    to: int
    lex: int
    lane_change: bool
    crosses: bool
    advance: int
    into_start_lane: bool


class Board:
    """Successors, positions, limits, greens and lines of one track (read-only)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        n = self.n = track.length
        self.lap = 2 * n
        L = self.start_len = track.start_lane_length
        self.c0 = 2 * n
        self.d0 = 2 * n + L
        self.runoff0 = 2 * n + 2 * L
        self.pit0 = self.runoff0 + len(track.corners)
        size = self.pit0 + 20
        self.size = size
        self.names = [""] * size
        self.vpos = [0] * size
        self.lane = [""] * size
        self.index = [0] * size
        for i in range(n):
            for lane, loc in (("A", 2 * i), ("B", 2 * i + 1)):
                self.names[loc], self.vpos[loc] = f"{lane}{i}", loc
                self.lane[loc], self.index[loc] = lane, i
        slot_pos = {s: 2 * n - s for s in range(1, 13)}
        c_base = slot_pos[track.start_from_slots[0]] + 1
        d_base = slot_pos[track.start_from_slots[1]] + 1
        for j in range(L):
            for lane, base, loc in (("C", c_base, self.c0 + j), ("D", d_base, self.d0 + j)):
                self.names[loc] = f"{lane}{j}"
                self.vpos[loc] = (base + 2 * j) % self.lap
                self.lane[loc], self.index[loc] = lane, j
        self.is_main = [loc < 2 * n for loc in range(size)]
        self.is_start = [self.c0 <= loc < self.runoff0 for loc in range(size)]
        self.is_runoff = [self.runoff0 <= loc < self.pit0 for loc in range(size)]
        self.is_pit = [loc >= self.pit0 for loc in range(size)]
        self.on_track = [loc < self.runoff0 for loc in range(size)]  # main or start lane
        # Corners: marked squares (limit), zones by index (skids), run-offs.
        self.marked_corner = [-1] * size
        self.zone_corner = [-1] * n
        self.runoff_of = []
        for k, corner in enumerate(track.corners):
            self.marked_corner[2 * corner.marked] = k
            self.marked_corner[2 * corner.marked + 1] = k
            for i in range(corner.zone[0], corner.zone[1] + 1):
                self.zone_corner[i] = k
            loc = self.runoff0 + k
            self.runoff_of.append(loc)
            self.names[loc] = f"runoff {corner.id}"
            self.vpos[loc] = 2 * corner.rejoin - 2
            self.lane[loc], self.index[loc] = "R", corner.rejoin
        self.max_gear = [c.max_gear for c in track.corners]
        #: The lowest limit of any square (a racing line only raises it), NO_LIMIT if none.
        self.min_limit = min(self.max_gear, default=NO_LIMIT)
        # Pit lane: P_k at pit0 + (23 - k); D(P_k) = D(X) - 2(k - 3).
        ex_lane, ex_index = parse_square(track.pit_exit) or ("A", 0)
        self.pit_exit = 2 * ex_index + (ex_lane == "B")
        self.gate = track.pit_gate
        self.pit_has_line = self.pit_exit < 2 * self.gate
        for k in range(4, 24):
            loc = self.pit_loc(k)
            self.names[loc] = f"P{k}"
            self.vpos[loc] = self.pit_exit + self.lap * self.pit_has_line - 2 * (k - 3)
            self.lane[loc], self.index[loc] = "P", k
        self.is_gate = [loc in (2 * self.gate, 2 * self.gate + 1) for loc in range(size)]
        self.green = [False] * size
        for i in track.green_a:
            self.green[2 * i] = True
        for i in track.green_b:
            self.green[2 * i + 1] = True
        self.by_name = {name: loc for loc, name in enumerate(self.names) if name}
        self.grid = [self.loc_of(*grid_index(s, n)) for s in range(1, 13)]
        self._lines(track)
        self.succ: list[tuple[Step, ...]] = [self._successors(loc) for loc in range(size)]
        # The move search visits steps in path_lex order and keeps the first path to a state.
        assert all([s.lex for s in steps] == sorted(s.lex for s in steps) for steps in self.succ)
        #: The same successors as plain ``(to, lex, lane_change, crosses, advance)`` tuples for
        #: the search's hot loop, with the start lanes open (GP-8.4) and without them.
        self.succ_open: list[tuple[tuple[int, int, bool, bool, int], ...]] = [
            tuple((st.to, st.lex, st.lane_change, st.crosses, st.advance) for st in steps)
            for steps in self.succ
        ]
        self.succ_closed: list[tuple[tuple[int, int, bool, bool, int], ...]] = [
            tuple(
                (st.to, st.lex, st.lane_change, st.crosses, st.advance)
                for st in steps
                if not st.into_start_lane
            )
            for steps in self.succ
        ]
        #: The search's successors with what it reads of the square entered, so that a step
        #: costs one tuple: ``(to, lex, lane_change, crosses, advance, limit, corner,
        #: line_start, key)``; ``limit`` is the corner's max_gear (NO_LIMIT off the marked
        #: squares; a racing line only raises it), ``key`` = ``to * 2048`` (the search's
        #: state key is ``key + line_state * 8 + lane_changes``).
        self.hot_open = [self._hot(steps) for steps in self.succ_open]
        self.hot_closed = [self._hot(steps) for steps in self.succ_closed]
        #: Where each path_lex code (P-5) leads from a location, -1 if nowhere.
        self.step_by_code: list[tuple[int, int, int]] = []
        for steps in self.succ:
            to = [-1, -1, -1]
            for st in steps:
                to[st.lex] = st.to
            self.step_by_code.append((to[0], to[1], to[2]))
        #: Pit boxes as a bitmask: an occupied box never blocks a step (GP-11.6 parks behind).
        self.pit_mask = sum(1 << loc for loc in range(size) if self.is_pit[loc])
        #: The ahead step of main and start-lane squares as (to, crosses, advance), else None.
        self.ahead_step: list[tuple[int, bool, int] | None] = [
            next(
                ((st.to, st.crosses, st.advance) for st in steps if st.lex == AHEAD),
                None,
            )
            if self.is_main[loc] or self.is_start[loc]
            else None
            for loc, steps in enumerate(self.succ)
        ]
        #: Memos of the searches (engine.rulesets.grandprix.search): pure functions of the board.
        self.memo: dict[tuple[object, ...], tuple[object, ...]] = {}
        #: Move searches with no car, by (start, line, gear, context), as deep as needed.
        self.tables: dict[tuple[object, ...], Scan] = {}
        #: Straight-ahead runs by (start, line state, gear), see ``search._straight_run``.
        self.straights: dict[int, StraightRun] = {}
        self._reach: dict[int, tuple[int, ...]] = {}
        #: Replayed paths of the search by (lex, steps, pit entry, start): (codes, path).
        self.paths: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.rooms: dict[tuple[int, int, bool, int], tuple[int, ...]] = {}
        #: Same-lane ahead square, for skids (GP-10.11); -1 where there is none.
        self.ahead = [-1] * size
        for loc in range(size):
            for step in self.succ[loc]:
                if step.lex == AHEAD and (self.is_main[loc] or self.is_start[loc]):
                    self.ahead[loc] = step.to

    def _hot(
        self, steps: tuple[tuple[int, int, bool, bool, int], ...]
    ) -> tuple[tuple[int, int, bool, bool, int, int, int, int, int], ...]:
        out = []
        for to, lex, lane_change, crosses, advance in steps:
            k = self.marked_corner[to]
            limit = self.max_gear[k] if k >= 0 else NO_LIMIT
            assert len(self.line_loc) <= 256  # the state key keeps 8 bits of line state
            out.append(
                (to, lex, lane_change, crosses, advance, limit, k, self.line_start[to], to * 2048)
            )
        return tuple(out)

    def reach(self, loc: int, steps: int) -> int:
        """Bitmask of the locations a move of up to ``steps`` (<= 24) steps from ``loc`` can
        enter, ignoring cars: the part of the occupancy a search depends on."""
        masks = self._reach.get(loc)
        if masks is None:
            grown = [0]
            mask = 0
            frontier = {loc}
            for _ in range(24):
                frontier = {step.to for at in frontier for step in self.succ[at]}
                for to in frontier:
                    mask |= 1 << to
                grown.append(mask)
            masks = self._reach[loc] = tuple(grown)  # a tuple: the collector stops walking it
        return masks[steps]

    def pit_loc(self, k: int) -> int:
        """Location of pit box ``P_k``."""
        return self.pit0 + 23 - k

    def loc_of(self, lane: str, index: int) -> int:
        """Location of square ``lane index`` on a main lane."""
        return 2 * index + (lane == "B")

    def square(self, name: str) -> int:
        """Location of a square id (``"A12"``, ``"C3"``, ``"P13"``)."""
        return self.by_name[name]

    def _lines(self, track: Track) -> None:
        """GP-7.1 codes: 1 + offset of (line, j); ``line_loc``, ``line_next``, ``line_bonus``."""
        self.line_loc = [-1]
        self.line_next = [-1]
        self.line_bonus = [0]
        self.line_id = [""]
        self.line_start = [0] * self.size
        for line in track.racing_lines:
            locs = [self.square(s) for s in line.squares]
            first = len(self.line_loc)
            for j, loc in enumerate(locs):
                self.line_loc.append(loc)
                self.line_next.append(locs[j + 1] if j + 1 < len(locs) else -1)
                self.line_bonus.append(line.bonus)
                self.line_id.append(line.id)
            if not self.line_start[locs[0]]:
                self.line_start[locs[0]] = first

    def line_after(self, state: int, to: int) -> int:
        """GP-7.1: the racing-line state after a step into ``to``."""
        if state and self.line_next[state] == to:
            return state + 1
        return self.line_start[to]

    def limit(self, to: int, state: int) -> int:
        """GP-7.2: effective gear limit of ``to`` entered with line state ``state``."""
        k = self.marked_corner[to]
        if k < 0:
            return NO_LIMIT
        limit = self.max_gear[k]
        if state and self.line_loc[state] == to:
            limit += self.line_bonus[state]
        return limit

    def _step(self, frm: int, to: int, lex: int, lane_change: bool, into_start: bool) -> Step:
        crosses = self.vpos[to] < self.vpos[frm]
        if self.is_pit[frm]:
            crosses = self.is_main[to] and self.pit_has_line
        advance = self.vpos[to] + self.lap * crosses - self.vpos[frm]
        return Step(to, lex, lane_change, crosses, advance, into_start)

    def _successors(self, loc: int) -> tuple[Step, ...]:
        """T-3, T-7 (run-off), T-10 (start lanes), T-11 (pit chain; the gate's pit step is
        handled by the move search)."""
        n, lap = self.n, self.lap
        steps: list[Step] = []
        if self.is_main[loc]:
            i = loc // 2
            if loc % 2 == 0:
                steps.append(self._step(loc, 2 * ((i + 1) % n), AHEAD, False, False))
                steps.append(self._step(loc, loc + 1, DIAG, True, False))
                for j in range(self.start_len):
                    if self.vpos[self.c0 + j] == (loc + 1) % lap:
                        steps.append(self._step(loc, self.c0 + j, START_DIAG, True, True))
            else:
                steps.append(self._step(loc, 2 * ((i + 1) % n) + 1, AHEAD, False, False))
                steps.append(self._step(loc, 2 * ((i + 1) % n), DIAG, True, False))
                for j in range(self.start_len):
                    if self.vpos[self.d0 + j] == (loc + 1) % lap:
                        steps.append(self._step(loc, self.d0 + j, START_DIAG, True, True))
        elif self.is_start[loc]:
            base = self.c0 if loc < self.d0 else self.d0
            j = loc - base
            if j + 1 < self.start_len:
                steps.append(self._step(loc, loc + 1, AHEAD, False, False))
            steps.append(self._step(loc, (self.vpos[loc] + 1) % lap, DIAG, True, False))
        elif self.is_runoff[loc]:
            r = self.track.corners[loc - self.runoff0].rejoin
            steps.append(self._step(loc, 2 * r, AHEAD, False, False))
            steps.append(self._step(loc, 2 * r + 1, DIAG, False, False))
        else:
            k = self.index[loc]
            to = self.pit_loc(k - 1) if k > 4 else self.pit_exit
            steps.append(self._step(loc, to, AHEAD, False, False))
        return tuple(steps)


_BOARDS: dict[str, Board] = {}


def board_for(track: Track) -> Board:
    """The board of ``track``, built once per track version (content hash)."""
    key = f"{track.content_hash}:{track.id}"
    board = _BOARDS.get(key)
    if board is None or board.track != track:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        board = _BOARDS[key] = Board(track)
    return board


def clear_boards() -> None:
    """Forget every built board and its caches (a benchmark's cold start)."""
    _BOARDS.clear()
