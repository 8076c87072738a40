"""A mass-start Moréno stage turn by turn (moreno.md §3.1, §3.2, §3.12)."""

from __future__ import annotations

from itertools import compress
from operator import ge

from engine.cycling.events import RawEvent, line_data
from engine.rulesets.moreno.bunch import resolve_bunch
from engine.rulesets.moreno.rules import (
    close_up,
    resolve_climber,
    resolve_descender,
    resolve_fallen,
    resolve_pair,
    resolve_solo,
    resolve_sprint,
)
from engine.rulesets.moreno.state import Group, Race, Unit
from engine.rulesets.moreno.tables import ACTIVE, DESCENT, FALLEN, FAR, FROZEN, PLAIN

#: Free cases that still chain two plain riders into one group (R-G1).
GROUP_FREE_CASES = 2


class Lines:
    """Summits and intermediate sprints: who crossed each line, in crossing order (turn, then
    race order at the end of that turn, §4 bonus_sprints)."""

    def __init__(self, race: Race) -> None:
        lines = line_data(race.board)
        self.cases = [c for c, _, _ in lines]
        self.kinds = [k for _, k, _ in lines]
        self.data = [d for _, _, d in lines]
        self.crossers: list[list[int]] = [[] for _ in lines]
        self.events: list[RawEvent | None] = [None] * len(lines)
        self.next_index = [0] * race.n_riders
        first = self.cases[0] if lines else FAR
        self.next_case = [first] * race.n_riders

    def _advance(self, race: Race, r: int) -> None:
        p = race.pos[r]
        i = self.next_index[r]
        cases = self.cases
        while i < len(cases) and p >= cases[i]:
            if not self.crossers[i]:
                self.events[i] = race.event(self.kinds[i], (), self.data[i])
            self.crossers[i].append(r)
            i += 1
        self.next_index[r] = i
        self.next_case[r] = cases[i] if i < len(cases) else FAR

    def update(self, race: Race, order: list[int]) -> None:
        """§4 bonus_sprints: record the crossings of the turn just played (``order`` = race order
        now)."""
        pos = race.pos
        nxt = self.next_case
        if pos[order[0]] < min(nxt):
            return  # nobody is on or past a line he has not crossed yet
        reached = map(ge, map(pos.__getitem__, order), map(nxt.__getitem__, order))
        for r in list(compress(order, reached)):
            self._advance(race, r)

    def finish(self, final_order: list[int]) -> None:
        """§4: fill the events: crossers, then those still short of the line in final order."""
        for i, ev in enumerate(self.events):
            if ev is None:
                continue
            seen = set(self.crossers[i])
            ev.riders = tuple(self.crossers[i]) + tuple(r for r in final_order if r not in seen)


def start_grid(race: Race) -> None:
    """R-T1: riders packed from case 0 backwards: the yellow jersey, then the given start
    order (GC order; bib order on stage 1)."""
    w = race.width
    order = list(range(race.n_riders))
    if race.yellow_rider >= 0:
        order.remove(race.yellow_rider)
        order.insert(0, race.yellow_rider)
    for i, r in enumerate(order):
        race.put(r, -(i // w))


def build_units(race: Race, order: list[int]) -> list[Unit]:
    """R-T2, R-T3, R-T4, R-G1: the turn's units in race order of their first rider: a plain
    :class:`Group` (riders chained while at most 2 free cases separate them), or the index
    of a climbing, descending or fallen rider."""
    pos = race.pos
    status = race.status
    terr = race.terr
    off = race.off
    unit_of = race.unit_of
    race.tstart[:] = pos
    units: list[Unit] = []
    serial = race.unit_serial
    group: list[int] = []
    group_serial = -1
    last_plain = FAR
    ahead = -1
    for r in order:
        p = pos[r]
        st = status[r]
        if st == ACTIVE:
            if terr[p + off] != PLAIN:
                units.append(r)
            elif last_plain - p - 1 <= GROUP_FREE_CASES:
                last_plain = p
                group.append(r)
                unit_of[r] = group_serial
            else:
                last_plain = p
                serial += 1
                group = [r]
                group_serial = unit_of[r] = serial
                units.append(Group(group, ahead, serial))
            ahead = r
        elif st != FROZEN:
            units.append(r)
    race.unit_serial = serial
    return units


def play_turn(race: Race, order: list[int]) -> None:
    """R-T2 .. R-T5: build the units and resolve them one after the other."""
    race.turn += 1
    turn = race.turn
    units = build_units(race, order)
    race.units = units
    status = race.status
    moved = race.moved
    zs = race.zs
    tstart = race.tstart
    terr = race.terr
    off = race.off
    for ui, unit in enumerate(units):
        race.unit = ui
        if type(unit) is int:
            r = unit
            if moved[r] == turn:
                continue
            st = status[r]
            if st == FALLEN:
                resolve_fallen(race, r)
            elif st == ACTIVE:
                if terr[tstart[r] + off] == DESCENT:
                    resolve_descender(race, r)
                else:
                    resolve_climber(race, r)
            continue
        assert isinstance(unit, Group)
        members = unit.members
        live = [m for m in members if status[m] == ACTIVE and moved[m] != turn]
        if not live:
            continue
        if tstart[members[0]] >= zs:
            sprint_group = race.sprint_group
            for m in members:
                if sprint_group[m] < 0:
                    sprint_group[m] = unit.serial
            resolve_sprint(race, live)
        elif len(live) >= 3:
            resolve_bunch(race, live, ui)
        elif len(live) == 2:
            resolve_pair(race, live[0], live[1])
        else:
            resolve_solo(race, live[0], unit.ahead if len(members) == 1 else -1)


def end_of_turn(race: Race, lines: Lines) -> list[int]:
    """R-T6, R-G3, §3.12 shower: close-up, crossings, frozen riders; returns race order."""
    order = race.race_order()
    if close_up(race, order):
        order = race.race_order()
    lines.update(race, order)
    shower = race.settings.shower_cases
    if shower is not None:
        lead = race.pos[order[0]]
        for r in order:
            if lead - race.pos[r] > shower and race.status[r] != FROZEN:
                race.status[r] = FROZEN
    return order


def run(race: Race) -> tuple[list[int], Lines]:
    """Play turns until someone crosses the line (R-F1) or ``max_turns`` (R-T6)."""
    lines = Lines(race)
    order = race.race_order()
    n = race.N
    max_turns = race.settings.max_turns
    while race.turn < max_turns:
        play_turn(race, order)
        order = end_of_turn(race, lines)
        if race.pos[order[0]] >= n:
            break
    race.close_open_crashes()
    lines.finish(order)
    return order, lines
