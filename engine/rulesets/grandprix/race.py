"""One Grand Prix event: qualifying (§4.2) then the race (§4.3-4.12), car state in flat lists.

Cars are indexed 0..k-1 in entry order. A car's race distance is
``D = lap * crossings + vpos[loc]`` (T-5). The default driver (§7.2) takes every decision
unless a test overrides the gear (``play_turn(i, gear=...)``), as the §8 vectors do for a
human's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.rulesets.grandprix import cards as C
from engine.rulesets.grandprix.board import Board
from engine.rulesets.grandprix.orders import CarOrders
from engine.rulesets.grandprix.policy import GREEN_BIAS, choose_gear, dice_sums
from engine.rulesets.grandprix.search import (
    CLASS_CLEAN,
    END_BLOCKED,
    END_EXIT,
    END_FINISH,
    END_PIT,
    END_POINTS,
    Context,
    Move,
    best_move,
)
from engine.rulesets.grandprix.settings import GrandPrixSettings
from engine.rulesets.grandprix.source import RaceSource, Throw

# Final: a compiled build (mypyc) inlines them instead of a globals look-up every turn.
RUNNING: Final = "running"
FINISHED: Final = "finished"
RETIRED: Final = "retired"
NOT_CLASSIFIED: Final = "not_classified"
#: ``Context(...)`` without the named tuple's Python-level ``__new__`` (built every turn).
_new_context = tuple.__new__
ENGINE: Final = "ENGINE"
ACCIDENT: Final = "ACCIDENT"
TRACK_EXIT: Final = "TRACK_EXIT"
OUT_OF_FUEL: Final = "OUT_OF_FUEL"
PUNCTURE: Final = "PUNCTURE"
#: GP-2.4: no time when the qualifying lap is not done within its turns.
TURNS: Final = "TURNS"
QUALIFYING: Final = "qualifying"
RACE: Final = "race"


@dataclass(frozen=True, slots=True)
class QualifyingRun:
    """GP-2.3/2.4: ``throws`` and ``overshoot``, or no time (``time`` False, with a reason)."""

    car: int
    time: bool
    throws: int
    overshoot: int
    reason: str | None = None


class GrandPrixRace:
    """The mutable state of one event; see the module docstring."""

    def __init__(
        self,
        board: Board,
        orders: Sequence[CarOrders],
        source: RaceSource,
        settings: GrandPrixSettings,
        *,
        laps: int | None = None,
        record: bool = True,
    ) -> None:
        self.board = board
        #: Keep the events, the dice and card log and the trace; False for a run whose
        #: classification alone is read (the odds): the same draws, the same outcome.
        self.record = record
        self.orders = list(orders)
        self.source = source
        self.settings = settings
        self.laps = laps or settings.laps or board.track.laps
        self.finish_at = self.laps + 1  # A23: the first crossing only starts lap 1
        k = self.k = len(orders)
        self.names = [o.car for o in orders]
        self.loc = [-1] * k
        self.crossings = [0] * k
        self.gear = [1] * k
        self.forced_first = [False] * k
        self.must_pit = [False] * k
        self.pit_intent = [False] * k
        self.blue = [False] * k
        self.gear_locked = [False] * k
        self.line = [0] * k
        self.cards: list[list[int]] = [[] for _ in range(k)]  # speed cards: lap * 10 + grade
        # The pile number of each FUEL_SAVING card a car holds (pile 2's and pile 3's: a car
        # may hold both, and each one saves it from one OUT_OF_FUEL).
        self.fuel_saving: list[list[int]] = [[] for _ in range(k)]
        self.tyre_wear = [False] * k
        self.pit_stops: list[list[int]] = [[] for _ in range(k)]
        self.track_exits: list[list[str]] = [[] for _ in range(k)]
        self.status = [RUNNING] * k
        self.reason: list[str | None] = [None] * k
        self.retired_lap = [0] * k
        self.retired_at = [0] * k  # sequence number of the retirement (ties: later first)
        self.final_d = [0] * k
        self.finish_order: list[int] = []
        self.occ = 0
        #: T-5's D of every car, kept by place() and set_crossings() (read by distances()).
        self.dist = [board.vpos[-1]] * k
        self.piles: dict[int, list[int]] = {lap: [] for lap in (1, 2, 3)}
        self.discards: dict[int, list[int]] = {lap: [] for lap in (1, 2, 3)}
        self.round = 0
        self.phase = RACE
        self.yellow_left = 0
        self.yellow_fresh = False
        self.turn_car = -1
        self.events: list[tuple[str, int, str, int, dict[str, object]]] = []
        self.log: list[tuple[str, int, int, str, tuple[int, ...], str]] = []
        self.car_turns = 0
        self.qualifying: list[QualifyingRun] = []
        self.grid: list[int] = list(range(k))
        self.winner_snapshot: list[int] | None = None
        self.winner_d = 0
        self._sequence = 0
        # Read on every turn: per-race constants and per-car orders as flat lists.
        self.max_lc = settings.max_lane_changes
        self.open_rounds = board.track.start_open_rounds
        self.green_bias = [GREEN_BIAS[o.risk] for o in self.orders]
        #: P-4: the cars whose orders take the lap-2 insurance stop.
        self.insured = [o.pit_strategy == "lap2_insurance" for o in self.orders]
        #: The last location of every car, kept when it leaves the board (for the trace).
        self.last_loc = [-1] * k
        #: One row per race round (0 = the grid): ``(round, places, locs, crossings,
        #: statuses)``, places being each car's place in the running order (see ``snapshot``).
        self.trace: list[
            tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...]]
        ] = []

    # -- small helpers -----------------------------------------------------------------

    def d(self, i: int) -> int:
        """T-5: race distance of car ``i``."""
        return self.board.lap * self.crossings[i] + self.board.vpos[self.loc[i]]

    def distances(self) -> list[int]:
        """T-5: every car's D (a removed car's value means nothing); the live list, not a
        copy."""
        return self.dist

    def lap_of(self, i: int) -> int:
        """GP-1.4: ``clamp(crossings, 1, laps)``."""
        return min(max(self.crossings[i], 1), self.laps)

    def pile_of(self, lap: int) -> int:
        """The pile a car on ``lap`` draws from and discards to. The game has three piles, for
        its three laps; a longer race (up to 20 laps) draws from pile 1 on its first lap,
        pile 3 on its last and pile 2 on every lap between (docs/rules-choices.md), so that
        the start's and the finish's cards stay where the game puts them."""
        if self.laps <= 3:
            return lap
        return 1 if lap == 1 else 3 if lap == self.laps else 2

    def running(self) -> list[int]:
        """Cars still RUNNING."""
        return [i for i in range(self.k) if self.status[i] == RUNNING]

    def event(self, kind: str, car: int, **detail: object) -> None:
        """Append a structured event (round, phase, kind, car, typed detail)."""
        if self.record:
            self.events.append((self.phase, self.round, kind, car, detail))

    def throw(self, i: int, kind: str, rule: str) -> Throw:
        """Four dice, logged with phase, round and car."""
        dice = self.source.throw(rule)
        if self.record:
            self.log.append((self.phase, self.round, i, kind, dice, ""))
        return dice

    def place(self, i: int, loc: int) -> None:
        """Move car ``i`` to ``loc`` keeping the occupancy mask (run-offs hold any number)."""
        old = self.loc[i]
        board = self.board
        if old >= 0 and not board.is_runoff[old]:
            self.occ &= ~(1 << old)
        self.loc[i] = loc
        self.dist[i] = board.lap * self.crossings[i] + board.vpos[loc]
        if loc >= 0 and not board.is_runoff[loc]:
            self.occ |= 1 << loc

    def remove(self, i: int) -> None:
        """Take a finished or retired car off the board."""
        self.final_d[i] = self.d(i)
        self.last_loc[i] = self.loc[i]
        self.place(i, -1)

    def snapshot(self, order: Sequence[int]) -> None:
        """One trace row after the grid (round 0) or a race round: every car's place in the
        running order (finishers in crossing order, then the cars still running by D, ties in
        ``order``, the round's play order (T-5), then the retired as GP-12.3 ranks them), its
        location (a car off the board keeps its last one), crossings and status."""
        status = self.status
        dist = self.dist
        final_d = self.final_d
        retired_at = self.retired_at
        running = [i for i in order if status[i] == RUNNING]
        running.sort(key=lambda i: -dist[i])
        retired = sorted(
            (i for i in range(self.k) if status[i] == RETIRED),
            key=lambda i: (-final_d[i], -retired_at[i]),
        )
        places = [0] * self.k
        for place, i in enumerate([*self.finish_order, *running, *retired], 1):
            places[i] = place
        last = self.last_loc
        self.trace.append(
            (
                self.round,
                tuple(places),
                tuple([loc if loc >= 0 else last[i] for i, loc in enumerate(self.loc)]),
                tuple(self.crossings),
                tuple(status),
            )
        )

    def retire(self, i: int, reason: str) -> None:
        """A car is RETIRED with ``reason`` and removed from the board."""
        self.status[i] = RETIRED
        self.reason[i] = reason
        self.retired_lap[i] = self.lap_of(i)
        self._sequence += 1
        self.retired_at[i] = self._sequence
        if self.phase == RACE:
            self.event("retired", i, reason=reason, lap=self.retired_lap[i])
        self.remove(i)

    def set_crossings(self, i: int, crossings: int) -> None:
        """GP-6.6: a crossing; a lap change removes the speed cards of the previous lap."""
        before = self.lap_of(i)
        self.crossings[i] = crossings
        self.dist[i] = self.board.lap * crossings + self.board.vpos[self.loc[i]]
        if self.lap_of(i) != before and self.cards[i]:
            lap = self.lap_of(i)
            self.cards[i] = [c for c in self.cards[i] if c // 10 == lap]

    # -- setup -------------------------------------------------------------------------

    def shuffle_piles(self) -> None:
        """GP-1.3: build the three piles and shuffle pile 1, then 2, then 3."""
        for lap in (1, 2, 3):
            pile = C.build_pile(lap)
            self.source.shuffle(pile, lap)
            if self.record:
                self.log.append((self.phase, 0, -1, "shuffle", (lap,), ""))
            self.piles[lap] = pile

    def run_qualifying(self) -> None:
        """§4.2: every car runs alone in entry order, then the ranking with tie-throws."""
        self.phase = QUALIFYING
        runs = [self.qualifying_run(i) for i in range(self.k)]
        self.qualifying = runs
        self.grid = self.rank_qualifying(runs)
        for slot, i in enumerate(self.grid, 1):
            run = runs[i]
            if run.time:
                self.event("qualifying", i, slot=slot, throws=run.throws, overshoot=run.overshoot)
            else:
                self.event("qualifying", i, slot=slot, no_time=run.reason or "")
        self.phase = RACE

    def qualifying_run(self, i: int) -> QualifyingRun:
        """GP-2.1-2.4 and P-6: alone from grid slot 1, ends at the step making crossings 2."""
        board = self.board
        orders = self.orders[i]
        self.status[i] = RUNNING
        self.crossings[i] = 0
        self.place(i, board.grid[0])
        self.line[i] = 0
        self.forced_first[i] = False
        self.gear[i] = 4  # P-6: on the first turn g_old + 1 is replaced by 4
        risk = orders.qualifying_risk
        result: QualifyingRun | None = None
        turn = 0
        max_lc = self.settings.max_lane_changes
        while result is None:
            turn += 1
            self.round = turn
            if turn > self.settings.max_qualifying_turns:
                result = QualifyingRun(i, False, turn - 1, 0, TURNS)
                break
            if self.forced_first[i]:
                gear = 1
                self.forced_first[i] = False
            else:
                top = min(self.gear[i] + (0 if turn == 1 else 1), orders.max_gear, 4)
                gear = choose_gear(board, self.loc[i], self.line[i], False, top, risk, max_lc)
            self.gear[i] = gear
            dice = self.throw(i, "throw", "GP-2.3")
            if dice == (6, 6, 6, 6):
                result = QualifyingRun(i, False, turn, 0, ENGINE)
                break
            ms = dice_sums(dice, gear)
            ctx = _new_context(Context, (0, False, 2 - self.crossings[i], False, -1, max_lc, 0))
            move = best_move(board, self.loc[i], self.line[i], gear, ms, ctx)
            self.apply_path(i, move)
            if move.end_kind == END_FINISH:
                result = QualifyingRun(i, True, turn, move.m - move.steps)
            elif move.end_kind == END_EXIT:
                if self.settings.track_exit_mode == "retire":
                    result = QualifyingRun(i, False, turn, 0, TRACK_EXIT)
                else:
                    self.exit_track(i, move.corner)
        self.crossings[i] = 0
        self.place(i, -1)
        self.gear[i] = 1
        self.line[i] = 0
        self.forced_first[i] = False
        self.track_exits[i] = []
        self.round = 0
        return result

    def rank_qualifying(self, runs: Sequence[QualifyingRun]) -> list[int]:
        """GP-2.5/2.6: fewer throws, then greater overshoot, then tie-throws (best group
        first, entry order within a group, repeated within a still-tied subset); no-time cars
        last, ordered by tie-throw."""
        timed = sorted((r for r in runs if r.time), key=lambda r: (r.throws, -r.overshoot))
        groups: list[list[int]] = []
        last: tuple[int, int] | None = None
        for r in timed:
            if (r.throws, r.overshoot) != last:
                groups.append([])
                last = (r.throws, r.overshoot)
            groups[-1].append(r.car)
        no_time = [r.car for r in runs if not r.time]
        if no_time:
            groups.append(no_time)
        order: list[int] = []
        for group in groups:
            order.extend(self._tie_break(sorted(group)))
        return order

    def _tie_break(self, group: list[int]) -> list[int]:
        if len(group) < 2:
            return group
        sums = {i: sum(self.throw(i, "tie", "GP-2.5")) for i in group}
        out: list[int] = []
        for total in sorted(set(sums.values()), reverse=True):
            out.extend(self._tie_break([i for i in group if sums[i] == total]))
        return out

    def start_grid(self) -> None:
        """T-9: cars on their grid slots, in gear 1 (GP-4.1), crossings 0."""
        for slot, i in enumerate(self.grid):
            self.status[i] = RUNNING
            self.crossings[i] = 0
            self.place(i, self.board.grid[slot])
            self.gear[i] = 1
        self.event("start", self.grid[0], grid=[self.names[i] for i in self.grid])
        if self.record:
            self.snapshot(self.grid)

    # -- the race ----------------------------------------------------------------------

    def run_race(self) -> None:
        """GP-3.1/3.2 and GP-12.2: rounds until no car runs or the safety limit."""
        order = list(self.grid)
        max_rounds = self.settings.max_rounds
        while True:
            self.round += 1
            if self.round > 1:
                order = self.round_order(order)
            for i in order:
                if self.status[i] == RUNNING:
                    self.play_turn(i)
            if self.record:
                self.snapshot(order)
            if not any(s == RUNNING for s in self.status):
                break
            if self.round >= max_rounds:
                for i in self.running():
                    self.status[i] = NOT_CLASSIFIED
                    self.final_d[i] = self.d(i)
                break

    def round_order(self, previous: Sequence[int]) -> list[int]:
        """GP-3.2: running cars by D at the start of the round, ties in the previous order."""
        order = [i for i in previous if self.status[i] == RUNNING]
        dist = self.distances()
        order.sort(key=lambda i: -dist[i])
        return order

    def play_turn(self, i: int, gear: int | None = None, play_card: bool | None = None) -> None:
        """GP-3.3: one turn of car ``i``. ``gear`` / ``play_card`` override the policy (a
        human's choice in the §8 vectors)."""
        self.turn_car = i
        self.car_turns += 1
        board = self.board
        loc = self.loc[i]
        # P-4: lap-2 insurance stop (lap_of(i) == 2, inline).
        if (
            self.insured[i]
            and not self.pit_intent[i]
            and (
                (self.crossings[i] == 2 and self.laps >= 2)
                or (self.crossings[i] > 2 and self.laps == 2)
            )
            and not any(lap >= 2 for lap in self.pit_stops[i])
        ):
            self.pit_intent[i] = True
        pit_flag = self.must_pit[i] or self.pit_intent[i]
        # 1. GP-11.3: a car starting on the gate with an obligation enters directly.
        if pit_flag and board.is_gate[loc]:
            self.enter_pit(i)
            self.end_turn(i, ())
            return
        # 2. gear (GP-4).
        if gear is None:
            gear = self.select_gear(i, pit_flag)
        self.gear[i] = gear
        self.forced_first[i] = False
        # 3. speed card or throw (P-3, GP-9.3, GP-5).
        move: Move | None = None
        card = self.card_choice(i, gear, pit_flag, play_card) if self.cards[i] else None
        d_before = self.dist[i]
        if card is not None:
            card_code, move = card
            self.cards[i].remove(card_code)
            self.discards[self.pile_of(self.lap_of(i))].append(card_code % 10)
            if self.record:
                self.log.append((self.phase, self.round, i, "card", (move.m,), C.SPEED))
        else:
            dice = self.source.throw("GP-5.1")  # self.throw(i, "throw", ...), inline
            if self.record:
                self.log.append((self.phase, self.round, i, "throw", dice, ""))
            if dice == (6, 6, 6, 6):  # 4. GP-5.2
                self.retire(i, ENGINE)
                self.end_turn(i, ())
                return
            # 5-6. dice choice and movement (P-5, GP-6).
            ms = dice_sums(dice, gear)
            ctx = self.context(i, pit_flag, ms[-1])
            move = best_move(board, loc, self.line[i], gear, ms, ctx)
        self.apply_path(i, move)
        # 7. end of move.
        kind = move.end_kind
        if kind == END_FINISH:
            self.finish(i)
        elif kind == END_EXIT:
            self.exit_track(i, move.corner)
        elif kind == END_PIT:
            self.enter_pit(i)
        passed = self.overtaken(i, d_before) if self.status[i] == RUNNING else ()
        if kind in (END_POINTS, END_BLOCKED) and board.green[self.loc[i]]:
            self.draw(i)  # 8. GP-9.1
        if passed or self.yellow_fresh or self.yellow_left > 0:
            self.end_turn(i, passed)

    def select_gear(self, i: int, pit_flag: bool) -> int:
        """GP-4.1-4.4 and P-2."""
        if self.gear_locked[i]:
            return 2
        if self.round == 1 or self.forced_first[i]:
            return 1
        orders = self.orders[i]
        top = min(self.gear[i] + 1, orders.max_gear, 4)
        if self.blue[i]:
            top = min(top, 2)
        if top <= 2:
            return max(top, 1)  # P-2: gears <= 2 always pass (choose_gear's first line)
        return choose_gear(
            self.board, self.loc[i], self.line[i], pit_flag, top, orders.risk, self.max_lc
        )

    def context(self, i: int, pit_flag: bool, top: int) -> Context:
        """What the search needs besides start and gear (GP-6.2a-e)."""
        board = self.board
        yellow = -1
        if self.yellow_left > 0:
            # GP-10.1: nearest car ahead on a main or start lane, D at move start.
            dist = self.distances()
            mine = dist[i]
            on_track = board.on_track
            ahead = [
                dist[j]
                for j in range(self.k)
                if j != i
                and self.status[j] == RUNNING
                and self.loc[j] >= 0
                and on_track[self.loc[j]]
                and dist[j] > mine
            ]
            if ahead:
                yellow = min(ahead) - mine
                if yellow > 2 * top:
                    yellow = -1
        loc = self.loc[i]
        masks = board._reach.get(loc)
        reach = masks[top] if masks is not None else board.reach(loc, top)
        return _new_context(
            Context,
            (
                self.occ & ~(1 << loc) & reach,
                pit_flag,
                1 if self.finish_at - self.crossings[i] <= 1 else 2,
                self.round <= self.open_rounds,
                yellow,
                self.max_lc,
                self.green_bias[i],
            ),
        )

    def card_choice(
        self, i: int, gear: int, pit_flag: bool, play: bool | None
    ) -> tuple[int, Move] | None:
        """P-3 / GP-9.3: play a held card of the current lap when allowed, in gear >=
        ``card_min_gear``, if some M of its range gives an outcome of class <= 1."""
        hand = self.cards[i]
        if not hand or play is False or gear < 2 or self.yellow_left > 0:
            return None
        lap = self.lap_of(i)
        held = [c for c in hand if c // 10 == lap]
        if not held:
            return None
        if play is None and gear < self.orders[i].card_min_gear:
            return None
        ranges = C.SPEED_RANGE[gear]
        by_m: dict[int, int] | None = None
        if self.settings.speed_card_mode == "printed":
            by_m = {ranges[0] + c % 10: c for c in sorted(held, reverse=True)}
            ms = tuple(sorted(by_m))
        else:
            ms = ranges  # every M of the range, any held card (the first) pays for it
        ctx = self.context(i, pit_flag, ms[-1])
        move = best_move(self.board, self.loc[i], self.line[i], gear, ms, ctx)
        if play is None and move.cls > CLASS_CLEAN:
            return None
        return (held[0] if by_m is None else by_m[move.m]), move

    def apply_path(self, i: int, move: Move) -> None:
        """Put the car at the end of its path: crossings (GP-6.6), line state (GP-7.1)."""
        if move.crossings:
            self.set_crossings(i, self.crossings[i] + move.crossings)
        if move.end_kind == END_EXIT or move.end_kind == END_FINISH:
            self.place(i, move.path[-1] if move.path else self.loc[i])
        else:
            self.place(i, move.end)
        self.line[i] = move.line

    def overtaken(self, i: int, d_before: int) -> tuple[int, ...]:
        """GP-8.3: the cars that ``i`` overtook in this move (before the end-of-move
        effects); the lead changes are events."""
        dist = self.dist
        d_after = dist[i]
        status = self.status
        passed = []
        leader, lead_d = -1, -1
        j = -1
        for dj in dist:
            j += 1
            if j == i or status[j] != RUNNING:
                continue
            if dj > lead_d:
                leader, lead_d = j, dj
            if d_before < dj < d_after:
                passed.append(j)
        if not passed:
            return ()
        if leader >= 0 and leader in passed and d_after > lead_d:
            self.event("lead", i, passed=self.names[leader], lap=self.lap_of(i))
        return tuple(passed)

    def end_turn(self, i: int, passed: tuple[int, ...]) -> None:
        """9. GP-10.2 blue flags of the overtaken cleared; GP-10.1 yellow counter."""
        for j in passed:
            if self.blue[j]:
                self.blue[j] = False
                self.event("blue_cleared", j, by=self.names[i])
        if self.yellow_fresh:
            self.yellow_fresh = False
        elif self.yellow_left > 0:
            self.yellow_left -= 1

    # -- end of move -------------------------------------------------------------------

    def finish(self, i: int) -> None:
        """GP-12.1: finished at once; the first finisher fixes the gaps' reference."""
        self.status[i] = FINISHED
        self.finish_order.append(i)
        if len(self.finish_order) == 1:
            self.winner_d = self.d(i)
            self.winner_snapshot = [self.d(j) if self.loc[j] >= 0 else -1 for j in range(self.k)]
        self.event("finish", i, position=len(self.finish_order))
        self.remove(i)

    def exit_track(self, i: int, corner: int) -> None:
        """GP-7.3 / GP-7.5: into the corner's run-off, gear 1, forced first; or retired."""
        board = self.board
        cid = board.track.corners[corner].id
        if self.phase == RACE:
            self.track_exits[i].append(cid)
            self.event("track_exit", i, corner=cid, lap=self.lap_of(i))
        if self.settings.track_exit_mode == "retire" and self.phase == RACE:
            self.retire(i, TRACK_EXIT)
            return
        self.place(i, board.runoff_of[corner])
        self.gear[i] = 1
        self.forced_first[i] = True
        self.line[i] = 0

    def enter_pit(self, i: int) -> None:
        """GP-11.3-11.5: the pit throw places the car on P_S (or the nearest free box)."""
        board = self.board
        entry_lap = self.lap_of(i)
        dice = self.throw(i, "pit", "GP-11.4")
        if dice == (6, 6, 6, 6):
            self.retire(i, ENGINE)
            return
        s = sum(dice)
        box = -1
        for k in [*range(s, 24), *range(s - 1, 3, -1)]:
            if not self.occ >> board.pit_loc(k) & 1:
                box = k
                break
        self.place(i, board.pit_loc(box))
        self.gear[i] = 1
        self.forced_first[i] = True
        self.must_pit[i] = False
        self.pit_intent[i] = False
        self.line[i] = 0
        self.pit_stops[i].append(entry_lap)
        self.event("pit_stop", i, lap=entry_lap, box=f"P{box}")

    # -- cards -------------------------------------------------------------------------

    def draw(self, i: int) -> None:
        """GP-9.1/9.2: top card of ``pile[lap(car)]``, reshuffling the discard when empty."""
        lap = self.lap_of(i)
        number = self.pile_of(lap)
        pile = self.piles[number]
        if not pile:
            discard = self.discards[number]
            if not discard or not self.settings.reshuffle:
                return
            pile.extend(discard)
            discard.clear()
            self.source.shuffle(pile, number)
            if self.record:
                self.log.append((self.phase, self.round, i, "shuffle", (number,), ""))
        card = pile.pop()
        if self.record:
            self.log.append((self.phase, self.round, i, "draw", (number,), C.card_name(card)))
        if card < 10:
            self.cards[i].append(lap * 10 + card)
            return
        self.event("incident", i, card=C.INCIDENTS[card], lap=lap)
        self.resolve_incident(i, card, number)

    def resolve_incident(self, i: int, card: int, pile: int) -> None:
        """GP-10.1 .. GP-10.10 (``pile``: the pile the card was drawn from)."""
        discard = self.discards[pile]
        if card == C.YELLOW_FLAG:
            others = sum(1 for j in range(self.k) if j != i and self.status[j] == RUNNING)
            self.yellow_left = max(self.yellow_left, others)
            self.yellow_fresh = True
            discard.append(card)
        elif card == C.BLUE_FLAG:
            discard.append(card)
            mine = self.d(i)
            if any(self.d(j) < mine for j in self.running() if j != i):
                self.blue[i] = True
                self.gear[i] = min(self.gear[i], 2)
        elif card == C.WRONG_TYRES:
            self.must_pit[i] = True
            discard.append(card)
        elif card == C.TYRE_WEAR:
            self.must_pit[i] = True
            self.tyre_wear[i] = True
        elif card == C.OIL:
            discard.append(card)
            mine = self.d(i)
            ahead = [(self.d(j), j) for j in self.running() if j != i and self.d(j) > mine]
            receiver = min(ahead)[1] if ahead else -1
            self.skid(i)
            if receiver >= 0 and not self.board.is_pit[self.loc[receiver]]:
                self.must_pit[receiver] = True
                self.event("oil_received", receiver, by=self.names[i])
        elif card == C.BRAKE_FAILURE:
            discard.append(card)
            self.skid(i)
            if self.status[i] == RUNNING:
                self.must_pit[i] = True
        elif card == C.FUEL_SAVING:
            self.fuel_saving[i].append(pile)
        elif card == C.OUT_OF_FUEL:
            discard.append(card)
            if self.fuel_saving[i]:
                self.discards[self.fuel_saving[i].pop(0)].append(C.FUEL_SAVING)
            else:
                self.retire(i, OUT_OF_FUEL)
        elif card == C.PUNCTURE:
            discard.append(card)
            if not any(stop >= 2 for stop in self.pit_stops[i]):
                self.retire(i, PUNCTURE)
        elif card == C.GEARBOX_FAILURE:
            discard.append(card)
            self.gear_locked[i] = True
            self.gear[i] = 2

    def skid(self, i: int) -> None:
        """GP-10.11: forced advance of 2 in the same lane; blocked: a track exit inside a
        corner zone, the wall (ACCIDENT) elsewhere."""
        board = self.board
        cur = self.loc[i]
        p1 = board.ahead[cur]
        p2 = board.ahead[p1] if p1 >= 0 else -1
        occ = self.occ
        if p1 < 0 or p2 < 0 or occ >> p1 & 1 or occ >> p2 & 1:
            for loc in (cur, p1, p2):
                if loc >= 0 and board.is_main[loc] and board.zone_corner[loc // 2] >= 0:
                    self.event("skid", i, into="runoff")
                    self.exit_track(i, board.zone_corner[loc // 2])
                    return
            self.event("skid", i, into="wall")
            self.retire(i, ACCIDENT)
            return
        gear = self.gear[i]
        for to in (p1, p2):
            frm = self.loc[i]
            crosses = board.vpos[to] < board.vpos[frm]
            self.place(i, to)
            if crosses:
                self.set_crossings(i, self.crossings[i] + 1)
                if self.crossings[i] >= self.finish_at:
                    self.finish(i)
                    return
            state = board.line_after(self.line[i], to)
            self.line[i] = state
            if board.marked_corner[to] >= 0 and board.limit(to, state) < gear:
                self.exit_track(i, board.marked_corner[to])
                return
        self.event("skid", i, into=board.names[self.loc[i]])
