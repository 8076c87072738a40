"""The live state of a Cyclo Sim stage: the road, the riders, dice, moves (cyclosim.md §2, §3.1,
§3.4).

Riders are indices ``0 .. n-1`` in entrant order. Rows are stored shifted by ``off`` (the depth
of the start grid), so a row index ``ri = row + off`` is never negative. ``free[ri]`` is the
bitmask of free lanes of a row: path building (R-M4) is a few bit operations per row.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from itertools import accumulate

from engine.cycling.course import Board
from engine.cycling.events import RawEvent, line_data
from engine.cycling.inputs import Entrant
from engine.dice import D6, DiceSource, fast_bits
from engine.outcome import DiceLog, DiceRow, EventData
from engine.rulesets.cyclosim import orders as ai
from engine.rulesets.cyclosim.orders import (
    GC_CLIMBS,
    GRUPPETTO_CLIMBS,
    RiderOrders,
    default_orders,
    sits_up_on_climbs,
)
from engine.rulesets.cyclosim.settings import (
    DEFAULT_RIDER,
    CyclosimRider,
    CyclosimSettings,
    lanes_for,
)
from engine.rulesets.cyclosim.sheet import (
    ACTIVE,
    CELL_COST,
    CLIMB,
    DESCENT,
    FLAT,
    MOD_CLIMBER,
    MOD_DESCENDER,
    MOD_PUNCHEUR,
    MOD_ROULEUR,
    MOD_SPRINTER,
    MOD_TT,
    SPRINT_ROWS,
    consumed_at_start,
    mods,
    pe_max_of,
    pi_table,
)

#: Rows allocated past the line: more than any move can carry a rider (caps stay below 40).
_PAST_LINE = 64

Cell = tuple[int, int]


@cache
def wheel_class(wheel: tuple[str, ...], mate: bool) -> int:
    """The index in ``wheel`` (§4.1 wheel classes) of the first class a team mate's (``mate``)
    or another rider's wheel belongs to, -1 if none."""
    for k, w in enumerate(wheel):
        if w == "any" or (w == "team" and mate):
            return k
    return -1


@cache
def spread_table(lanes: int) -> tuple[int, ...]:
    """R-M4 one row forward: ``table[m]`` is the lanes next to or in line with a lane of ``m``
    (``m | m << 1 | m >> 1`` within the ``lanes``), for every mask ``m``."""
    full = (1 << lanes) - 1
    return tuple((m | (m << 1) | (m >> 1)) & full for m in range(full + 1))


@cache
def low_lane_table(lanes: int) -> tuple[int, ...]:
    """``table[m]``: the lowest lane of mask ``m`` (``(m & -m).bit_length() - 1``; -1 for 0),
    for every mask of ``lanes`` lanes: one read instead of three operations and a call."""
    return tuple((m & -m).bit_length() - 1 for m in range(1 << lanes))


def _round_half_up_div(num: int, den: int) -> int:
    return (2 * num + den) // (2 * den)


class Road:
    """The fixed tables of a stage's road for a field of ``n`` riders (§2.1, §2.3, R-FT1):
    terrain, PI modifier and cost of every row, their cumulative sums, the gruppetto's rows and
    the summit and sprint lines. Built once per stage; the roads of a time trial, one per rider
    or team, share one per field size. Read-only once built."""

    __slots__ = (
        "N",
        "W",
        "board",
        "climbs",
        "cost",
        "cum",
        "flat_finish",
        "gruppetto_stage",
        "last_climb",
        "line_data",
        "line_kinds",
        "line_rows",
        "modk",
        "n",
        "off",
        "settings",
        "sit_up_row",
        "size",
        "terr",
        "time_trial",
        "turn_s",
    )

    def __init__(
        self,
        board: Board,
        settings: CyclosimSettings,
        n: int,
        *,
        distance_km: float,
        time_trial: bool = False,
    ) -> None:
        self.board = board
        self.settings = settings
        self.n = n
        self.time_trial = time_trial
        self.N = N = board.n_cases
        self.W = W = lanes_for(settings, n)
        self.off = off = (n + W - 1) // W + 2
        self.size = size = off + N + _PAST_LINE
        # R-FT1: turn_s = round(3600 · (km / N) · rows_per_turn / speed).
        self.turn_s = int(
            3600 * distance_km * settings.rows_per_turn / (N * settings.turn_kmh) + 0.5
        )
        terr = [FLAT] * size
        modk = [MOD_TT if time_trial else MOD_ROULEUR] * size
        for c, t in enumerate(board.terrain):
            ri = c + off
            if t == "descent":
                terr[ri], modk[ri] = DESCENT, MOD_DESCENDER
            elif t == "hill":
                terr[ri], modk[ri] = CLIMB, MOD_PUNCHEUR
            elif t != "plain":
                terr[ri], modk[ri] = CLIMB, MOD_CLIMBER
        for ri in range(off + N, size):
            terr[ri], modk[ri] = terr[off + N - 1], modk[off + N - 1]
        #: §2.3: the last 10 rows of a flat finish use the sprinter rating.
        self.flat_finish = board.terrain[-1] == "plain"
        if self.flat_finish and not time_trial:
            for ri in range(max(off, off + N - SPRINT_ROWS), size):
                if terr[ri] == FLAT:
                    modk[ri] = MOD_SPRINTER
        self.terr = terr
        self.modk = modk
        self.cost = cost = [CELL_COST[t] for t in terr]
        #: cum[ri] = cost of rows < ri; climbs[ri] = climb rows < ri.
        self.cum = [0, *accumulate(cost)]
        self.climbs = [0, *accumulate(1 if t == CLIMB else 0 for t in terr)]
        # §4.6 [D]: the GC leaders' attack goes on the last climb of category 2 or harder.
        gc_climbs = [c for c in board.climbs if c.terrain in GC_CLIMBS]
        self.last_climb = (gc_climbs[-1].first_case, gc_climbs[-1].line) if gc_climbs else None
        #: The rows where the gruppetto may sit up (§4.6 [D]): the cols of a stage with a
        #: climb of GC_CLIMBS.
        self.gruppetto_stage = bool(gc_climbs)
        self.sit_up_row = [False] * size
        cols = [c for c in board.climbs if c.terrain in GRUPPETTO_CLIMBS] if gc_climbs else []
        for col in cols:
            for ri in range(off + col.first_case, min(off + col.line, size)):
                self.sit_up_row[ri] = True
        # Summit and intermediate sprint lines (row indices).
        lines = line_data(board)
        self.line_rows = [c + off for c, _, _ in lines]
        self.line_kinds = [k for _, k, _ in lines]
        self.line_data = [d for _, _, d in lines]


class Race:
    """One stage (or one time-trial road) of Cyclo Sim. Slots: an instance dict of this many
    keys would not get CPython's specialised attribute reads."""

    __slots__ = (
        "N",
        "W",
        "_bits",
        "attack_right",
        "attacks_used",
        "board",
        "capacity",
        "chase",
        "chase_max",
        "chase_ratio",
        "chasers",
        "chasers_by_team",
        "climbs",
        "consumed",
        "cost",
        "crashed_turn",
        "crashes",
        "cross_time",
        "cum",
        "dice",
        "dropped_turn",
        "easy",
        "easy_riders",
        "entrants",
        "events",
        "final_from",
        "finish_seq",
        "finish_time",
        "finished",
        "flat_finish",
        "fol",
        "free",
        "full",
        "gc_leaders",
        "gruppetto",
        "ids",
        "keep",
        "lane",
        "lateral",
        "line",
        "line_crossers",
        "line_data",
        "line_kinds",
        "line_rows",
        "line_turn",
        "log",
        "low_lane",
        "modk",
        "mods",
        "move_seq",
        "moved",
        "n",
        "next_line",
        "next_line_row",
        "occ",
        "off",
        "orders",
        "orphans",
        "path",
        "pe_max",
        "pit",
        "plain",
        "pos",
        "pred",
        "protected",
        "recent",
        "relayed",
        "return_turn",
        "rid",
        "riding",
        "road_group",
        "row_front",
        "seq",
        "settings",
        "sit_up",
        "sit_up_row",
        "situation",
        "size",
        "spread",
        "start",
        "status",
        "team",
        "terr",
        "time_trial",
        "track_road_groups",
        "turn",
        "turn_s",
        "unit",
        "wheel_mate",
        "wheel_other",
    )

    def __init__(
        self,
        board: Board,
        entrants: Sequence[Entrant],
        *,
        settings: CyclosimSettings,
        extras: Sequence[CyclosimRider] | None = None,
        dice: DiceSource,
        distance_km: float,
        time_trial: bool = False,
        log: list[DiceRow] | None = None,
        events: list[RawEvent] | None = None,
        road: Road | None = None,
        stage_type: str = "",
        keep: bool = True,
    ) -> None:
        n = len(entrants)
        if road is None:
            road = Road(board, settings, n, distance_km=distance_km, time_trial=time_trial)
        elif (
            road.board is not board
            or road.settings is not settings
            or road.n != n
            or road.time_trial != time_trial
        ):
            raise ValueError("the road was built for another board, settings or field size")
        self.board = board
        self.settings = settings
        self.entrants = tuple(entrants)
        self.time_trial = time_trial
        own = list(extras) if extras is not None else [DEFAULT_RIDER] * n
        given = [x.orders for x in own]
        self.n = n
        self.N = N = road.N
        self.W = W = road.W
        self.full = (1 << W) - 1
        self.off = road.off
        #: Row index of the first row past the finish line.
        self.line = road.off + N
        self.size = size = road.size
        self.turn_s = road.turn_s
        self.flat_finish = road.flat_finish
        self.terr = road.terr
        self.modk = road.modk
        #: §5 [D] road groups are numbered on mass-start stages with a flat finish.
        self.track_road_groups = (
            self.flat_finish and not time_trial and settings.road_groups and settings.bunch_gaps
        )
        self.cost = road.cost
        self.cum = road.cum
        self.climbs = road.climbs
        self.free = [self.full] * size
        self.occ = [-1] * (size * W)
        self.spread = spread_table(W)
        self.low_lane = low_lane_table(W)

        s = settings
        self.ids = [e.rider_id for e in self.entrants]
        self.team = [e.team_id for e in self.entrants]
        self.pe_max = [
            pe_max_of(e.profile, profiles=s.profiles, base=s.pe_base, per_rouleur=s.pe_per_rouleur)
            for e in self.entrants
        ]
        self.pit = [pi_table(m) for m in self.pe_max]
        self.mods = [mods(e.profile, s.profiles) for e in self.entrants]
        self.consumed = [
            consumed_at_start(x.pe_consumed, m, s.overnight_recovery)
            for x, m in zip(own, self.pe_max, strict=True)
        ]
        last_climb = road.last_climb
        #: The stage's type (a course's ``stage_type``); without one, read from the road.
        kind = stage_type or (
            "mountain" if road.gruppetto_stage else ("flat" if road.flat_finish else "hilly")
        )
        self.orders: list[RiderOrders] = [
            o
            or default_orders(
                e.role,
                n_rows=N,
                last_climb=last_climb,
                flat_finish=self.flat_finish,
                time_trial=time_trial,
                stage_type=kind,
                profile=e.profile,
            )
            for e, o in zip(self.entrants, given, strict=True)
        ]
        #: The row index from which each rider rides his final (§4.1 ``final.rows`` before the
        #: line; past the road: none), fixed by his orders.
        far_away = 2 * size
        self.final_from = [
            self.line - o.final.rows if o.final.rows > 0 else far_away for o in self.orders
        ]
        #: Riders whose orders have neither attack window nor final (a fast path for followers).
        self.plain = [not o.attacks and o.final.rows <= 0 for o in self.orders]
        #: The class of a team mate's and of another rider's wheel in each rider's ``wheel``
        #: order (its index, -1: he does not take it; §4.1, R-W1).
        self.wheel_mate = [wheel_class(o.wheel, True) for o in self.orders]
        self.wheel_other = [wheel_class(o.wheel, False) for o in self.orders]
        #: Default-AI domestiques (no orders), and the "chase" flags of the turn (§4.6 [D]).
        self.chasers = [
            r for r, e in enumerate(self.entrants) if given[r] is None and e.role == "domestique"
        ]
        by_team: dict[int, list[int]] = {}
        for r in self.chasers:
            by_team.setdefault(self.team[r], []).append(r)
        self.chasers_by_team = list(by_team.items())
        self.chase = [False] * n
        #: Default-AI riders (no orders) and the "easy" flags of the turn (§4.6 [D]): behind a
        #: breakaway nobody chases in his group, a rider rides ``EASY_PACE`` on the flat (none
        #: on a mountain stage).
        self.easy_riders = (
            [r for r in range(n) if given[r] is None] if kind in ai.EASY_STAGES else []
        )
        self.easy = [False] * n
        #: The front row of the group of each row index holding a rider at the start of the
        #: turn (rows chain while each holds a rider; stage.chase_flags).
        self.row_front: dict[int, int] = {}
        #: The riders the chasers work for (§4.6 [D]): sprinters on a flat stage, else GC
        #: leaders; how far a breakaway may go before their teams chase, by stage type.
        protected = "sprinter" if kind == "flat" else "gc_leader"
        self.chase_ratio = ai.CHASE_RATIO.get(kind, ai.CHASE_RATIO["mountain"])
        self.chase_max = ai.CHASE_MAX_GAP.get(kind, ai.CHASE_MAX_GAP["mountain"])
        self.protected = [r for r, e in enumerate(self.entrants) if e.role == protected]
        #: The gruppetto (§4.6 [D]): its riders (default AI, weak climbers), the rows where
        #: they may sit up (the cols of a stage with a climb of GC_CLIMBS), the GC leaders
        #: they wait for, and the flags of the turn.
        self.sit_up_row = road.sit_up_row
        self.gruppetto = [
            r
            for r, e in enumerate(self.entrants)
            if road.gruppetto_stage
            and given[r] is None
            and not time_trial
            and sits_up_on_climbs(e.role, e.profile.climber)
        ]
        self.gc_leaders = [r for r, e in enumerate(self.entrants) if e.role == "gc_leader"]
        self.sit_up = [False] * n
        self.status = [ACTIVE] * n
        #: The riders who may still be on the road (active or out); those who finished or
        #: were eliminated are taken off at the end of a turn. Scans filter it by status.
        self.riding = list(range(n))
        self.pos = [0] * n  # row index (row + off)
        self.lane = [0] * n
        self.pred = [-1] * n
        self.fol = [-1] * n
        self.moved = [0] * n  # turn of the last move
        self.seq = [-1] * n  # order of the last move
        self.start = [(0, 0)] * n  # cell at turn start
        self.path: list[list[Cell]] = [[] for _ in range(n)]
        self.lateral = [False] * n
        self.crashed_turn = [0] * n
        self.situation = [0] * n
        self.dropped_turn = [-10] * n
        self.attack_right = [-1] * n
        self.relayed = [0] * n
        self.attacks_used = [[0] * len(o.attacks) for o in self.orders]
        self.return_turn = [0] * n
        self.finish_time = [0] * n
        #: R-FT1 time at which the rider crossed the line (``finish_time`` before R-FT2).
        self.cross_time = [0] * n
        self.finish_seq = [0] * n
        #: §5 [D] road groups: the group each rider rode in on the road at the end of the last
        #: turn nobody finished (-1: none), on a flat finish.
        self.road_group = [-1] * n
        #: Time trials: the cost the rider's last contract roll could pay (0: none), for the
        #: fraction of his crossing turn (R-FT1 [D]).
        self.capacity = [0] * n
        self.crashes: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        #: Riders moved in the current auction unit, and riders orphaned by a crash (R-X2).
        self.recent: list[int] = []
        self.orphans: list[int] = []
        self.turn = 0
        self.unit = 0
        #: Moves so far (each move's order, R-FT3 ties).
        self.move_seq = 0
        self.finished = 0
        self.log: list[DiceRow] = log if log is not None else []
        self.events: list[RawEvent] = events if events is not None else []
        #: False: the lean path (odds), no dice log and no events (the lines' crossers are
        #: kept); the same draws, so the same results.
        self.keep = keep
        # The fast path draws exactly what RandomDice.roll would (engine.dice.fast_bits).
        self._bits = fast_bits(dice)
        self.dice = dice
        self.rid: list[int | None] = [*self.ids, None]

        # Summit and intermediate sprint lines (row indices), crossers in crossing order.
        self.line_rows = road.line_rows
        self.line_kinds = road.line_kinds
        self.line_data = road.line_data
        lines = len(self.line_rows)
        self.line_crossers: list[list[int]] = [[] for _ in range(lines)]
        self.line_turn = [0] * lines
        self.next_line = [0] * n
        self.next_line_row = [self.line_rows[0] if lines else size * 2] * n

    @property
    def moves(self) -> int:
        """Rider-moves so far (a benchmark's count)."""
        return self.move_seq

    # -- dice ------------------------------------------------------------------------------
    def roll2d6(self, r: int, purpose: str) -> int:
        """§2.2: one pair of d6, each logged under ``purpose`` (contract, follow, attack)."""
        bits = self._bits
        if bits is None:
            total = 0
            turn, unit, rider = self.turn, self.unit, self.ids[r]
            for _ in range(2):
                f = self.dice.roll(D6, turn=turn, unit=unit, rider_id=self.rid[r], rule_id=purpose)
                face = int(f)
                if self.keep:
                    self.log.append((turn, unit, rider, purpose, "d6", face))
                total += face
            return total
        # engine.dice.fast_bits: 3 bits a draw until below 6, as randrange(6) draws.
        a = bits(3)
        while a >= 6:
            a = bits(3)
        b = bits(3)
        while b >= 6:
            b = bits(3)
        if self.keep:
            log = self.log
            turn, unit, rider = self.turn, self.unit, self.ids[r]
            log.append((turn, unit, rider, purpose, "d6", a + 1))
            log.append((turn, unit, rider, purpose, "d6", b + 1))
        return a + b + 2

    def dice_log(self) -> DiceLog:
        return DiceLog(self.log)

    def event(self, kind: str, riders: Sequence[int], data: EventData) -> None:
        """Record an event (riders given as indices, stored as ids; ``data`` of its kind,
        engine.cycling.events); none on the lean path."""
        if self.keep:
            self.events.append(RawEvent(self.turn, kind, tuple(self.ids[r] for r in riders), data))

    # -- energy ----------------------------------------------------------------------------
    def pe(self, r: int) -> int:
        """§2.3: remaining energy points."""
        return self.pe_max[r] - self.consumed[r]

    def pi(self, r: int, ri: int) -> int:
        """§2.3: PI of rider ``r`` for a move whose first cell is on row index ``ri``."""
        sheet = self.pit[r][self.pe_max[r] - self.consumed[r]]
        if sheet == 0:
            return 0
        v = sheet + self.mods[r][self.modk[ri]]
        return 1 if v < 1 else (8 if v > 8 else v)

    def spend(self, r: int, x: int) -> None:
        """§2.3 ``spend(x)``."""
        c = self.consumed[r] + x
        m = self.pe_max[r]
        self.consumed[r] = c if c < m else m

    def recover(self, r: int, x: int) -> None:
        """§2.3 ``recover(x)``."""
        c = self.consumed[r] - x
        self.consumed[r] = c if c > 0 else 0

    # -- road ------------------------------------------------------------------------------
    def place(self, r: int, ri: int, lane: int) -> None:
        """Put a rider on a free cell (start grid, returns, tests)."""
        self.pos[r] = ri
        self.lane[r] = lane
        if ri < self.off + self.N:
            self.occ[ri * self.W + lane] = r
            self.free[ri] &= ~(1 << lane)

    def lift(self, r: int) -> None:
        """Take a rider off the road (moving, crashed, finished)."""
        ri = self.pos[r]
        if ri < self.off + self.N:
            lane = self.lane[r]
            self.occ[ri * self.W + lane] = -1
            self.free[ri] |= 1 << lane

    def road_key(self, r: int) -> tuple[int, int]:
        """§2.4 road order: row desc, lane asc."""
        return (-self.pos[r], self.lane[r])

    def path_cost(self, path: Sequence[Cell]) -> list[int]:
        """R-M2: cumulative cost of each prefix of ``path``."""
        cost = self.cost
        return list(accumulate(cost[ri] for ri, _ in path))

    # -- R-M4 path builder -----------------------------------------------------------------
    def reach(self, ri0: int, l0: int, cap: int) -> tuple[int, list[int], int]:
        """Forward reachability from ``(ri0, l0)`` within ``cap`` cost.

        Returns ``(far, masks, lat)``: the furthest row index, the lane masks reachable at rows
        ``ri0+1 .. far`` and the lateral lane used as first cell (-1 if none). When all three
        forward cells are blocked, the first cell is lateral (``l-1`` then ``l+1``).
        """
        free = self.free
        cum = self.cum
        spread = self.spread
        m = 1 << l0
        base = cum[ri0 + 1]
        lat = -1
        if not (spread[m] & free[ri0 + 1]):
            row = free[ri0]
            if l0 > 0 and row >> (l0 - 1) & 1:
                lat = l0 - 1
            elif l0 + 1 < self.W and row >> (l0 + 1) & 1:
                lat = l0 + 1
            else:
                return ri0, [], -1
            c = self.cost[ri0]
            if c > cap:
                return ri0, [], -1
            m = 1 << lat
            base -= c
        if ri0 < -1:
            return self._reach_behind_grid(ri0, m, base, cap, lat)
        # The furthest row the cap pays for (rows ri0+1 .. far cost cum[far+1] - base); cum
        # has size + 1 entries, so far stays on the board's last row index at most.
        far = bisect_right(cum, base + cap, ri0 + 1) - 2
        rows = free[ri0 + 1 : far + 1]
        # One mask a row (a list display: no call a row); a row that stops the spread makes
        # 0, and every mask after it is 0: the reach ends before the first.
        masks: list[int] = []
        append = masks.append
        for row in rows:
            m = spread[m] & row
            if not m:
                return ri0 + len(masks), masks, lat
            append(m)
        return (far if far > ri0 else ri0), masks, lat

    def _reach_behind_grid(
        self, ri0: int, m: int, base: int, cap: int, lat: int
    ) -> tuple[int, list[int], int]:
        """:meth:`reach` from a row index below -1: a team time trial's file longer than the
        start grid's depth starts there (R-T3 places it in one lane), and the tables are then
        read from their end, as Python indexes them. Kept as the engine has always done it."""
        cum, free = self.cum, self.free
        masks: list[int] = []
        ri = ri0
        limit = self.size - 1
        while ri < limit:
            if cum[ri + 2] - base > cap:
                break
            m = (m | (m << 1) | (m >> 1)) & free[ri + 1]
            if not m:
                break
            ri += 1
            masks.append(m)
        return ri, masks, lat

    def build_path(
        self, ri0: int, l0: int, target: int, target_lane: int, masks: list[int], lat: int
    ) -> list[Cell]:
        """R-M4: the deterministic path to row index ``target`` (lane ``target_lane`` or any if
        -1), preferring ``(r+1, l)``, then ``l-1``, then ``l+1`` among the free cells from which
        the target is still reachable. ``masks`` and ``lat`` come from :meth:`reach`."""
        k = target - ri0
        if k <= 0:
            return [(ri0, lat)] if lat >= 0 else []
        if lat < 0 and (target_lane < 0 or target_lane == l0):
            # Straight ahead when every cell of the lane up to the target is reachable: from
            # each of them the target is, so R-M4 keeps the lane.
            bit = 1 << l0
            for j in range(k):
                if not masks[j] & bit:
                    break
            else:
                return [(ri, l0) for ri in range(ri0 + 1, target + 1)]
        spread = self.spread
        back = [0] * k
        b = (1 << target_lane) if target_lane >= 0 else self.free[target]
        b &= masks[k - 1]
        back[k - 1] = b
        for j in range(k - 2, -1, -1):
            b = spread[b] & masks[j]
            back[j] = b
        path: list[Cell] = []
        lane = l0
        if lat >= 0:
            path.append((ri0, lat))
            lane = lat
        # back[j] has no bit beyond the W lanes, so lane + 1 needs no bound check.
        for j in range(k):
            bj = back[j]
            if not bj >> lane & 1:
                if lane > 0 and bj >> (lane - 1) & 1:
                    lane -= 1
                elif bj >> (lane + 1) & 1:
                    lane += 1
            path.append((ri0 + j + 1, lane))
        return path
