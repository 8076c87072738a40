"""The live state of a Moréno stage and its board primitives (moreno.md §2.7, §2.8, §3.7).

Riders are indices ``0 .. n-1`` in start order. Positions live in flat lists, and ``cases``
keeps, for every case, the riders standing on it in ``seq`` order (first = ahead): race order is
a walk of the cases from the front, and "who is near" is a look at a few lists, never a scan of
the field. Dice are face indices; the log keeps one tuple per roll and becomes ``DiceRoll``
objects only at the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import MutableSequence, Sequence

from engine.cycling.course import Board
from engine.cycling.events import CRASH, LINE_EVENTS, RawEvent, crash_data
from engine.cycling.inputs import Entrant
from engine.cycling.outcome import Crash
from engine.dice import DPOKER, DiceSource, Die, fast_bits
from engine.outcome import DiceLog, DiceRow, EventData
from engine.rulesets.moreno.settings import DEFAULT_RIDER, MorenoRider, MorenoSettings
from engine.rulesets.moreno.tables import (
    ACTIVE,
    COL3,
    D6_POKER,
    DESCENT,
    FALLEN,
    FAR,
    PLAIN,
    POKER_PAIR,
    POKER_VALUES,
    ROLE_CODE,
    ROULEUR,
    TERRAIN_CODE,
)

#: Extra cases allocated past the line: more than any single turn can carry a rider.
_PAST_LINE = 256


class Group:
    """A plain group, one unit of a turn (R-T3, R-T4); ``ahead`` is the nearest active rider
    ahead of its first rider at turn start (R-S1), ``serial`` its unit number."""

    __slots__ = ("ahead", "members", "serial")

    def __init__(self, members: list[int], ahead: int, serial: int) -> None:
        self.members = members
        self.ahead = ahead
        self.serial = serial


#: A turn's unit: a plain group, or one climbing, descending or fallen rider (R-T4).
Unit = Group | int


class _Layout:
    """A board's per-case arrays for riders packed ``off`` cases behind case 0 (read-only)."""

    __slots__ = ("next_climb", "terr")

    def __init__(self, board: Board, off: int) -> None:
        n_cases = board.n_cases
        size = off + n_cases + _PAST_LINE
        codes = [TERRAIN_CODE[t] for t in board.terrain]
        self.terr: list[int] = [PLAIN] * off + codes + [codes[-1]] * _PAST_LINE
        self.next_climb: list[int] = [FAR] * size
        nxt = FAR
        for i in range(size - 1, -1, -1):
            self.next_climb[i] = nxt
            t = self.terr[i]
            if i >= off and i - off < n_cases and t != PLAIN and t != DESCENT:
                nxt = i - off


class _Field:
    """The entrants' per-rider tables, in start order (read-only)."""

    __slots__ = (
        "baroudeur",
        "bib",
        "climber",
        "d6_poker",
        "descender",
        "finisseur",
        "ids",
        "index_of",
        "poker_pair",
        "puncheur",
        "pv",
        "rid",
        "role",
        "rouleur",
        "rv",
        "sprinter",
        "team",
        "time_trialist",
    )

    def __init__(self, entrants: tuple[Entrant, ...]) -> None:
        self.ids = [e.rider_id for e in entrants]
        self.index_of = {rid: i for i, rid in enumerate(self.ids)}
        self.rid: list[int | None] = [*self.ids, None]
        self.team = [e.team_id for e in entrants]
        self.bib = [e.bib for e in entrants]
        self.role = [ROLE_CODE[e.role] for e in entrants]
        p = [e.profile for e in entrants]
        self.rouleur = [x.rouleur for x in p]
        self.sprinter = [x.sprinter for x in p]
        self.baroudeur = [x.baroudeur for x in p]
        self.finisseur = [x.finisseur for x in p]
        self.descender = [x.descender for x in p]
        self.time_trialist = [x.time_trialist for x in p]
        self.puncheur = [x.puncheur for x in p]
        self.climber = [x.climber for x in p]
        self.pv = [POKER_VALUES[x + 1] for x in self.rouleur]
        self.rv = [ROULEUR[x + 1] for x in self.rouleur]
        self.poker_pair = [POKER_PAIR[x + 1] for x in self.rouleur]
        self.d6_poker = [D6_POKER[x + 1] for x in self.rouleur]


# The last board's layout and the last field's tables, kept for the next race on them (the
# stages of a tour share their entrants, the odds' runs share board and entrants): a race
# then starts without rebuilding them. Keyed by identity (the key is kept alive with it).
_last_layout: tuple[Board, int, _Layout] | None = None
_last_field: tuple[tuple[Entrant, ...], _Field] | None = None


def _layout(board: Board, off: int) -> _Layout:
    global _last_layout
    kept = _last_layout
    if kept is not None and kept[0] is board and kept[1] == off:
        return kept[2]
    layout = _Layout(board, off)
    _last_layout = (board, off, layout)
    return layout


def _field(entrants: tuple[Entrant, ...]) -> _Field:
    global _last_field
    kept = _last_field
    if kept is not None and kept[0] is entrants:
        return kept[1]
    field = _Field(entrants)
    _last_field = (entrants, field)
    return field


class Race:
    """State of one stage: riders, board arrays, dice, log and events."""

    # Slots: a stage reads these attributes millions of times, and an instance dict of this
    # many keys is not specialised by the interpreter (each read would be a dict lookup).
    __slots__ = (
        "N",
        "_bits",
        "baroudeur",
        "bib",
        "board",
        "cases",
        "climber",
        "crashes",
        "d6_poker",
        "descender",
        "dice",
        "entrants",
        "events",
        "fallen_turns",
        "finisseur",
        "green_rider",
        "hi",
        "ids",
        "in_breakaway",
        "index_of",
        "keep",
        "lo",
        "log",
        "moved",
        "moves",
        "n_riders",
        "neutralised",
        "next_climb",
        "next_seq",
        "no_breakaway",
        "off",
        "open_crash",
        "poker_pair",
        "pos",
        "puncheur",
        "puts",
        "pv",
        "rid",
        "role",
        "rouleur",
        "rv",
        "seq",
        "settings",
        "split",
        "sprint_group",
        "sprinter",
        "status",
        "team",
        "terr",
        "time_trial",
        "time_trialist",
        "tstart",
        "turn",
        "unit",
        "unit_of",
        "unit_serial",
        "units",
        "width",
        "yellow_rider",
        "yellow_team",
        "zs",
    )

    def __init__(
        self,
        board: Board,
        entrants: Sequence[Entrant],
        *,
        dice: DiceSource,
        settings: MorenoSettings | None = None,
        extras: Sequence[MorenoRider] | None = None,
        yellow_jersey: int | None = None,
        green_jersey: int | None = None,
        keep: bool = True,
    ) -> None:
        self.board = board
        self.settings = settings or MorenoSettings()
        self.entrants = tuple(entrants)
        n = len(self.entrants)
        self.n_riders = n
        self.N = board.n_cases
        zone = board.sprint_zone_start
        self.zs = FAR if zone is None else zone
        self.split = board.phase_split
        self.width = self.settings.pack_width
        self.off = off = n // self.width + 2
        size = off + self.N + _PAST_LINE
        layout = _layout(board, off)
        #: Terrain code of case ``c`` at ``terr[c + off]`` (read-only, shared by the board's races).
        self.terr = layout.terr
        #: ``next_climb[c + off]``: first climb case after c (breakaway cap R-P2 b).
        self.next_climb = layout.next_climb

        field = _field(self.entrants)
        # The field's tables are shared by every race of these entrants: read-only.
        self.ids = field.ids
        self.index_of = field.index_of
        #: Rider ids for the dice log; index -1 (a unit's roll) gives None.
        self.rid = field.rid
        self.team = field.team
        self.bib = field.bib
        self.role = field.role
        own = list(extras) if extras is not None else [DEFAULT_RIDER] * n
        self.no_breakaway = [x.no_breakaway for x in own]
        self.rouleur = field.rouleur
        self.sprinter = field.sprinter
        self.baroudeur = field.baroudeur
        self.finisseur = field.finisseur
        self.descender = field.descender
        self.time_trialist = field.time_trialist
        self.puncheur = field.puncheur
        self.climber = field.climber
        #: Poker movement value per face index, per rider (§2.4: J/Q/K = ROULEUR).
        self.pv = field.pv
        self.rv = field.rv
        #: Per rider, the tables of his pairs by code (tables.POKER_PAIR, tables.D6_POKER).
        self.poker_pair = field.poker_pair
        self.d6_poker = field.d6_poker

        yellow = self.index_of.get(yellow_jersey) if yellow_jersey is not None else None
        green = self.index_of.get(green_jersey) if green_jersey is not None else None
        self.yellow_rider: int = -1 if yellow is None else yellow
        self.yellow_team: int | None = None if yellow is None else self.team[yellow]
        self.green_rider: int = -1 if green is None else green

        self.pos = [0] * n
        self.seq = [0] * n
        self.status = [ACTIVE] * n
        self.moved = [-1] * n  # turn of the last move
        self.tstart = [0] * n  # position at turn start
        self.unit_of = [-1] * n  # serial of the rider's unit this turn
        self.in_breakaway = [-1] * n  # turn in which he joined a breakaway
        #: Serial of the group with which the rider entered the sprint zone (R-SP1), -1 before:
        #: one sprint, one time at the line (docs/rules-choices.md, "Final groups").
        self.sprint_group = [-1] * n
        self.fallen_turns = [0] * n
        self.open_crash: list[tuple[int, int] | None] = [None] * n
        self.crashes: list[list[Crash]] = [[] for _ in range(n)]
        self.cases: list[list[int]] = [[] for _ in range(size)]
        self.next_seq = 0
        self.hi = -off
        self.lo = FAR
        self.turn = 0
        self.unit = 0
        self.unit_serial = 0
        #: Moves made outside ``place`` and ``pack`` (time trials); see :attr:`rider_moves`.
        self.moves = 0
        self.puts = 0
        self.units: list[Unit] = []
        #: keep=False: the lean path (odds): the rows go to a deque of no length (its C
        #: ``append`` keeps nothing, and the full path tests nothing a roll), and no events
        #: are kept but the summit and intermediate sprint lines; the same draws.
        self.log: MutableSequence[DiceRow] = [] if keep else deque(maxlen=0)
        self.events: list[RawEvent] = []
        self.keep = keep
        #: Crashes inside the neutralised final cases: rider -> turn-start group mates.
        self.neutralised: dict[int, list[int]] = {}
        self.dice = dice
        self.time_trial = False
        # The fast path draws exactly what RandomDice.roll would (engine.dice.fast_bits).
        self._bits = fast_bits(dice)

    # -- dice -----------------------------------------------------------------------------
    def roll(self, die: Die, r: int, rule: str) -> int:
        """§2.8: roll ``die`` for rider ``r`` (-1: the unit) under ``rule``, log it, return the
        face index."""
        bits = self._bits
        if bits is None:
            return self._roll_source(die, r, rule)
        n = die.n
        k = die.bits
        x = bits(k)
        while x >= n:
            x = bits(k)
        self.log.append((self.turn, self.unit, self.rid[r], rule, die.name, die.faces[x]))
        return x

    def roll2(self, d1: Die, d2: Die, r: int, rule: str) -> int:
        """§2.8: ``d1`` then ``d2`` for rider ``r`` under ``rule``, both logged; returns the
        pair's code ``i1 * d2.n + i2`` (the tables of :mod:`.tables` are indexed by it)."""
        bits = self._bits
        if bits is None:
            i1 = self._roll_source(d1, r, rule)
            return i1 * d2.n + self._roll_source(d2, r, rule)
        n = d1.n
        k = d1.bits
        i1 = bits(k)
        while i1 >= n:
            i1 = bits(k)
        n = d2.n
        k = d2.bits
        i2 = bits(k)
        while i2 >= n:
            i2 = bits(k)
        turn = self.turn
        unit = self.unit
        rid = self.rid[r]
        log = self.log
        log.append((turn, unit, rid, rule, d1.name, d1.faces[i1]))
        log.append((turn, unit, rid, rule, d2.name, d2.faces[i2]))
        return i1 * n + i2

    def roll3(self, die: Die, r: int, rule: str) -> int:
        """§2.8: three ``die`` for rider ``r`` under ``rule``, all logged; returns their code
        ``(i1 * n + i2) * n + i3``."""
        bits = self._bits
        n = die.n
        if bits is None:
            i1 = self._roll_source(die, r, rule)
            i2 = self._roll_source(die, r, rule)
            return (i1 * n + i2) * n + self._roll_source(die, r, rule)
        k = die.bits
        i1 = bits(k)
        while i1 >= n:
            i1 = bits(k)
        i2 = bits(k)
        while i2 >= n:
            i2 = bits(k)
        i3 = bits(k)
        while i3 >= n:
            i3 = bits(k)
        turn = self.turn
        unit = self.unit
        rid = self.rid[r]
        name = die.name
        faces = die.faces
        log = self.log
        log.append((turn, unit, rid, rule, name, faces[i1]))
        log.append((turn, unit, rid, rule, name, faces[i2]))
        log.append((turn, unit, rid, rule, name, faces[i3]))
        return (i1 * n + i2) * n + i3

    def _roll_source(self, die: Die, r: int, rule: str) -> int:
        """A roll from any other source than plain seeded dice (scripted dice in tests)."""
        face = self.dice.roll(
            die, turn=self.turn, unit=self.unit, rider_id=self.rid[r], rule_id=rule
        )
        x = die.faces.index(face)
        self.log.append((self.turn, self.unit, self.rid[r], rule, die.name, die.faces[x]))
        return x

    @property
    def rider_moves(self) -> int:
        """Rider-moves so far: each placement takes a ``seq``, as each ``put`` does."""
        return self.moves + self.next_seq - self.puts

    def dice_log(self) -> DiceLog:
        """The dice log (§2.8)."""
        return DiceLog(self.log)

    # -- positions ------------------------------------------------------------------------
    def put(self, r: int, case: int) -> None:
        """Set a rider on a case without any rule (start grid, tests)."""
        old = self.cases[self.pos[r] + self.off]
        if r in old:
            old.remove(r)
        self.pos[r] = case
        self.tstart[r] = case
        self.cases[case + self.off].append(r)
        self.seq[r] = self.next_seq
        self.next_seq += 1
        self.puts += 1
        self.hi = max(self.hi, case)
        self.lo = min(self.lo, case)

    def place(self, r: int, c: int) -> None:
        """``place(r, c)`` of §2.7, with the zone-entry cap of R-T5(b).

        A placement never moves a rider backwards (a pack or a sprint train that would put him
        behind his own case leaves him where he is).
        """
        self.moved[r] = self.turn
        zs = self.zs
        if c > zs and self.tstart[r] < zs:
            c = zs
        pos = self.pos
        p = pos[r]
        if c < p:
            return
        cases = self.cases
        off = self.off
        cases[p + off].remove(r)
        cases[c + off].append(r)
        pos[r] = c
        s = self.next_seq
        self.seq[r] = s
        self.next_seq = s + 1
        if c > self.hi:
            self.hi = c

    def pack(self, riders: Sequence[int], c0: int, width: int = 0) -> None:
        """``pack(list, c0)``: the i-th rider on ``c0 - i // width`` (§2.7), each placed as by
        :meth:`place`."""
        w = width or self.width
        turn = self.turn
        moved = self.moved
        zs = self.zs
        tstart = self.tstart
        pos = self.pos
        cases = self.cases
        off = self.off
        seq = self.seq
        s = self.next_seq
        hi = self.hi
        for i, r in enumerate(riders):
            c = c0 - i // w
            moved[r] = turn
            if c > zs and tstart[r] < zs:
                c = zs
            p = pos[r]
            if c < p:
                continue
            cases[p + off].remove(r)
            cases[c + off].append(r)
            pos[r] = c
            seq[r] = s
            s += 1
            if c > hi:
                hi = c
        self.next_seq = s
        self.hi = hi

    def file(self, riders: Sequence[int], c0: int) -> None:
        """``file(list, c0)``: single file, the i-th rider on ``c0 - i`` (§2.7)."""
        self.pack(riders, c0, 1)

    def race_order(self) -> list[int]:
        """§2.7 race order: all riders by (pos desc, seq asc)."""
        off = self.off
        out: list[int] = []
        ext = out.extend
        # The occupied span's cases from the front, each in ``seq`` order.
        for lst in reversed(self.cases[self.lo + off : self.hi + off + 1]):
            if lst:
                ext(lst)
        if out:
            self.lo = self.pos[out[-1]]
        return out

    def nearest_ahead(self, r: int, skip_unit: int = -2) -> int:
        """R-G4: first active rider ahead of ``r`` with ``pos < N`` (not in unit ``skip_unit``).

        Returns -1 if there is none.
        """
        status = self.status
        unit_of = self.unit_of
        cases = self.cases
        off = self.off
        p = self.pos[r]
        for x in cases[p + off]:
            if x == r:
                break
            if status[x] == ACTIVE and unit_of[x] != skip_unit:
                return x
        top = min(self.hi, self.N - 1)
        c = p + 1
        while c <= top:
            for x in cases[c + off]:
                if status[x] == ACTIVE and unit_of[x] != skip_unit:
                    return x
            c += 1
        return -1

    def climb_rating(self, r: int) -> int:
        """R-C1: climber on cols, puncheur on hills."""
        return self.climber[r] if self.terr[self.pos[r] + self.off] >= COL3 else self.puncheur[r]

    # -- events ---------------------------------------------------------------------------
    def event(self, kind: str, riders: Sequence[int], data: EventData) -> RawEvent:
        """Record an event (riders as indices; ``data`` of its kind, engine.cycling.events)."""
        ev = RawEvent(self.turn, kind, tuple(riders), data)
        if self.keep or kind in LINE_EVENTS:
            self.events.append(ev)
        return ev

    # -- crashes (R-X) --------------------------------------------------------------------
    def crash(self, r: int, rule: str) -> None:
        """R-X4: the rider falls on his current case; the crash is recorded with the ``rule``
        that made him fall (R-X1, R-D3, R-X2)."""
        self.status[r] = FALLEN
        self.moved[r] = self.turn
        self.fallen_turns[r] = 0
        p = self.pos[r]
        self.open_crash[r] = (self.turn, p)
        self.event(CRASH, (r,), crash_data(p, rule))
        neutral = self.settings.final_km_neutralisation_cases
        if (
            neutral > 0
            and not self.time_trial
            and p >= self.N - neutral
            and r not in self.neutralised
        ):
            self.neutralised[r] = self.turn_start_group(r)

    def crash_with_chain(self, r: int, rule: str) -> None:
        """R-X1/R-D3 crash followed by the chain of R-X2/R-X3."""
        self.crash(r, rule)
        self.chain(r)

    def chain_candidate(self, last: int) -> int:
        """R-X2: next active rider behind ``last`` on his case, or, with ``crash_chain_cases``
        2 (the spec's reading), on the case behind it."""
        status = self.status
        N = self.N
        p = self.pos[last]
        lst = self.cases[p + self.off]
        for x in lst[lst.index(last) + 1 :]:
            if status[x] == ACTIVE and self.pos[x] < N:
                return x
        if self.settings.crash_chain_cases < 2:
            return -1
        for x in self.cases[p - 1 + self.off]:
            if status[x] == ACTIVE:
                return x
        return -1

    def chain(self, faller: int) -> None:
        """R-X2, R-X3: each adjacent rider behind the last faller rolls dPoker: K/Q/J falls,
        A/9/10 moves +2 (his move of the turn, or an extra one) and stops the chain."""
        last = faller
        while True:
            cand = self.chain_candidate(last)
            if cand < 0:
                return
            if self.roll(DPOKER, cand, "R-X2") < 3:
                self.crash(cand, "R-X2")
                last = cand
            else:
                self.place(cand, self.pos[cand] + 2)
                return

    def restart(self, r: int) -> None:
        """R-X5, R-X6: the rider is back in the race; his crash gets its severity."""
        self.status[r] = ACTIVE
        opened = self.open_crash[r]
        assert opened is not None
        self.crashes[r].append(Crash(opened[0], opened[1], self.fallen_turns[r] + 1))
        self.open_crash[r] = None

    def close_open_crashes(self) -> None:
        """R-X6: a rider still down at the end has severity = rolls made + 1."""
        for r in range(self.n_riders):
            opened = self.open_crash[r]
            if opened is not None:
                self.crashes[r].append(Crash(opened[0], opened[1], self.fallen_turns[r] + 1))
                self.open_crash[r] = None

    def turn_start_group(self, r: int) -> list[int]:
        """§4 final_km_neutralisation: riders chained with ``r`` at turn start
        (``group_free_cases``, all terrains)."""
        gap = self.settings.group_free_cases
        ts = self.tstart
        others = sorted(
            (x for x in range(self.n_riders) if self.status[x] != FALLEN or x == r),
            key=lambda x: -ts[x],
        )
        i = others.index(r)
        lo = i
        while lo > 0 and ts[others[lo - 1]] - ts[others[lo]] - 1 <= gap:
            lo -= 1
        hi = i
        while hi + 1 < len(others) and ts[others[hi]] - ts[others[hi + 1]] - 1 <= gap:
            hi += 1
        return [x for x in others[lo : hi + 1] if x != r]
