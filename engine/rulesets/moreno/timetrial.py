"""Individual and team time trials (moreno.md §3.11, R-TT1 .. R-TT4).

Every rider (or team) rides alone from case 0 to the line, one after the other in start
order; the dice log's ``turn`` is the rider's (team's) own turn and ``unit`` his start index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.cycling.events import line_data
from engine.dice import D6, DDESC, DPOKER, DT
from engine.rulesets.moreno.finish import seconds_before
from engine.rulesets.moreno.rules import crash_confirmed, descent_sum
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.tables import (
    COL3,
    DESCENT,
    FALLEN,
    FAR,
    GREEN_FACE,
    ONE_INDEX,
    PLAIN,
    POKER_A,
    POKER_NUMBER_VALUES,
    TT_VALUE,
    climb_move,
    is_max_climb,
)

#: R-TT2: a green face of dDesc is worth 2 in a time trial (nobody to catch).
TT_GREEN_VALUE = 2


class TimeTrialResult:
    """What the ITT/TTT runner hands to ``finish.outcome``."""

    __slots__ = ("final_case", "gaps", "groups", "order", "turns")

    def __init__(
        self,
        order: list[int],
        gaps: list[int],
        groups: list[int],
        final_case: list[int],
        turns: int,
    ) -> None:
        self.order = order
        self.gaps = gaps
        self.groups = groups
        self.final_case = final_case
        self.turns = turns


def _tt_values(race: Race) -> list[tuple[int, ...]]:
    """R-TT2: poker movement values with J/Q/K = TT_VALUE[time_trialist]."""
    return [(TT_VALUE[t + 1],) * 3 + POKER_NUMBER_VALUES for t in race.time_trialist]


def tt_step(race: Race, r: int, p: int, ttv: tuple[int, ...], rule: str) -> int:
    """One turn of a rider alone (R-TT2): restart if down (R-X5), plain d6 + dPoker with
    J/Q/K = TT_VALUE[time_trialist] and the crash check without chain (R-X1), climbs by R-C,
    descents by R-D with green = 2 and the triple-green crash for H. Returns his new case."""
    race.pos[r] = p
    race.moves += 1
    if race.status[r] == FALLEN:
        if race.roll(DPOKER, r, "R-X5") >= POKER_A:
            race.restart(r)
            return p + 2
        race.fallen_turns[r] += 1
        return p
    t = race.terr[p + race.off]
    if t == PLAIN:
        a = race.roll(D6, r, rule)
        b = race.roll(DPOKER, r, rule)
        if a == ONE_INDEX and b == POKER_A:
            if race.roll(D6, r, "R-X1") == ONE_INDEX and crash_confirmed(race, r):
                race.crash(r, "R-X1")
                return p
            return p + 2
        return p + a + 1 + ttv[b]
    if t == DESCENT:
        faces = (
            race.roll(DDESC, r, "R-D1"),
            race.roll(DDESC, r, "R-D1"),
            race.roll(DDESC, r, "R-D1"),
        )
        if faces.count(GREEN_FACE) == 3 and race.descender[r] < 0:
            race.crash(r, "R-D3")
            return p
        s = descent_sum(faces, race.descender[r], TT_GREEN_VALUE)
        return p + (s if s >= 1 else 1)
    rating = race.climber[r] if t >= COL3 else race.puncheur[r]
    i1 = race.roll(DT, r, "R-C1")
    i2 = race.roll(DT, r, "R-C1")
    move = climb_move(i1, i2, rating)
    if rating == 4 and is_max_climb(i1, i2):
        move += climb_move(race.roll(DT, r, "R-C3"), race.roll(DT, r, "R-C3"), 4)
    return p + move


class _Crossings:
    """§4: summit and sprint lines crossed in a time trial, ordered by turn, then case (desc),
    then start index and bib."""

    def __init__(self, race: Race) -> None:
        self.lines = line_data(race.board)
        self.seen: list[list[tuple[int, int, int, int, int]]] = [[] for _ in self.lines]

    def record(self, race: Race, r: int, before: int, after: int, turn: int, unit: int) -> None:
        for i, (case, _, _) in enumerate(self.lines):
            if before < case <= after:
                self.seen[i].append((turn, -after, unit, race.bib[r], r))

    def emit(self, race: Race, final_order: Sequence[int]) -> None:
        for i, (_, kind, data) in enumerate(self.lines):
            seen = sorted(self.seen[i])
            if not seen:
                continue
            riders = [x[-1] for x in seen]
            crossed = set(riders)
            riders += [r for r in final_order if r not in crossed]
            race.turn = seen[0][0]
            race.event(kind, riders, data)


def _position_at(path: list[int], turn: int) -> int:
    if not path:
        return 0
    return path[min(turn, len(path)) - 1]


def crossing_time(path: list[int], n: int) -> float:
    """R-TT3 [D]: the fraction of turns a rider took to reach the line ``n``: ``k - 1 + f``,
    ``f`` the part of his turn-``k`` move needed to reach it (infinite if he never did)."""
    before = 0
    for k, p in enumerate(path, start=1):
        if p >= n:
            return k - 1 + (n - before) / (p - before)
        before = p
    return float("inf")


def _place_at_time(path: list[int], t: float) -> float:
    """[D] Where a rider was at time ``t`` (turns), moving evenly through each turn's move."""
    if not path or t <= 0:
        return 0.0
    k = math.ceil(t)
    if k > len(path):
        return float(path[-1])
    before = path[k - 2] if k >= 2 else 0
    return before + (t - (k - 1)) * (path[k - 1] - before)


def exact_behind(race: Race, paths: list[list[int]], t_w: float) -> list[float]:
    """[D] R-TT3 at the winner's exact crossing time ``t_w`` (not the end of his turn): the
    seconds (R-F3, before ``tt_multiplier``) from where each rider was then to the line, the
    case he was on counted pro rata. Gaps come to the second, not in steps of a case."""
    n_line = race.N
    board = race.board
    s = seconds_before(race, 0, n_line)
    out = []
    for path in paths:
        x = min(_place_at_time(path, t_w), float(n_line))
        c = max(0, math.floor(x))
        if c >= n_line:
            out.append(0.0)
            continue
        out.append(s[n_line] - s[c] - (x - c) * board.seconds_at(c))
    return out


def run_itt(race: Race) -> TimeTrialResult:
    """R-TT1, R-TT2, R-TT3: riders start one after the other in reverse order of the given
    (GC or bib) order and ride to the line; ranking and gaps from the winner's turn ``n_w``."""
    n = race.n_riders
    N = race.N
    max_turns = race.settings.max_turns
    ttvs = _tt_values(race)
    lines = _Crossings(race)
    paths: list[list[int]] = [[] for _ in range(n)]
    crossed = [FAR] * n
    for k, r in enumerate(reversed(range(n))):
        race.unit = k
        race.turn = 0
        p = 0
        path = paths[r]
        while p < N and race.turn < max_turns:
            race.turn += 1
            q = tt_step(race, r, p, ttvs[r], "R-TT2")
            if lines.lines:
                lines.record(race, r, p, q, race.turn, k)
            p = q
            path.append(p)
        race.pos[r] = p
        if p >= N:
            crossed[r] = race.turn
    return _rank_individuals(race, paths, crossed, lines)


def _rank_individuals(
    race: Race,
    paths: list[list[int]],
    crossed: list[int],
    lines: _Crossings,
) -> TimeTrialResult:
    """R-TT3 [D] at the winner's exact crossing time: rank by the road each rider still had to
    ride then (then own crossing time, ``time_trialist``, bib), gaps ``tt_multiplier`` times its
    seconds, rounded to the second."""
    n = race.n_riders
    n_w = min(crossed)
    if n_w == FAR:
        n_w = max(len(p) for p in paths)
    at_nw = [_position_at(paths[r], n_w) for r in range(n)]
    times = [crossing_time(paths[r], race.N) for r in range(n)]
    t_w = min(times)
    if t_w == float("inf"):
        behind = _unfinished_behind(race, at_nw)
    else:
        behind = exact_behind(race, paths, t_w)
    order = sorted(
        range(n),
        key=lambda r: (behind[r], times[r], -race.time_trialist[r], race.bib[r]),
    )
    mult = race.settings.tt_multiplier
    gaps = [math.floor(mult * (behind[r] - behind[order[0]]) + 0.5) for r in range(n)]
    if t_w != float("inf"):
        # Each rider's case when the winner crossed (the winner's own: after his turn).
        w = order[0]
        at_nw = [
            at_nw[w] if r == w else min(at_nw[w], math.floor(_place_at_time(paths[r], t_w)))
            for r in range(n)
        ]
    lines.emit(race, order)
    return TimeTrialResult(order, gaps, _groups_by_gap(order, gaps), at_nw, n_w)


def _unfinished_behind(race: Race, at_nw: list[int]) -> list[float]:
    """Nobody reached the line (turn cap): seconds from each final case to the line."""
    s = seconds_before(race, min(at_nw), max(race.N, max(at_nw)))
    return [float(s[race.N] - s[p]) if p < race.N else 0.0 for p in at_nw]


def _gaps(race: Race, at_nw: list[int], lead: int) -> list[int]:
    """R-TT3: ``tt_multiplier`` times the seconds between each case and the winner's."""
    mult = race.settings.tt_multiplier
    low = min(at_nw)
    s = seconds_before(race, low, max(lead, max(at_nw)))
    return [max(0, mult * (s[lead] - s[p])) for p in at_nw]


def _groups_by_gap(order: list[int], gaps: list[int]) -> list[int]:
    """Time trials have no bunches: one final group per distinct time."""
    groups = []
    g = -1
    last = None
    for r in order:
        if gaps[r] != last:
            g += 1
            last = gaps[r]
        groups.append(g)
    return groups


def run_ttt(race: Race) -> TimeTrialResult:
    """R-TT4: each team rides as one unit; its front rider rolls d6 + dPoker (his TT value),
    the next one in bib order leads the next turn. A crashed rider leaves the unit and rides
    as in an ITT (the unit moves 2 that turn). Team time is its ``ttt_counting_rider``-th
    rider's; riders crossing later keep their own, larger gap (R-TT3)."""
    n = race.n_riders
    N = race.N
    max_turns = race.settings.max_turns
    ttvs = _tt_values(race)
    lines = _Crossings(race)
    teams: dict[int, list[int]] = {}
    for r in range(n):
        teams.setdefault(race.team[r], []).append(r)
    start = list(reversed(list(teams)))
    paths: list[list[int]] = [[] for _ in range(n)]
    crossed = [FAR] * n
    for k, team_id in enumerate(start):
        race.unit = k
        race.turn = 0
        riders = sorted(teams[team_id], key=lambda r: race.bib[r])
        unit = list(riders)
        front = 0
        p_unit = 0
        cur = dict.fromkeys(riders, 0)
        alone: list[int] = []
        while race.turn < max_turns and any(crossed[r] == FAR for r in riders):
            race.turn += 1
            turn = race.turn
            riding_alone = list(alone)  # not the rider who falls off the unit this turn
            if unit and p_unit < N:
                i = front % len(unit)
                roller = unit[i]
                race.pos[roller] = p_unit
                a = race.roll(D6, roller, "R-TT4")
                b = race.roll(DPOKER, roller, "R-TT4")
                front = i + 1
                if a == ONE_INDEX and b == POKER_A:
                    if race.roll(D6, roller, "R-X1") == ONE_INDEX:
                        race.crash(roller, "R-X1")
                        unit.pop(i)
                        alone.append(roller)
                        alone.sort(key=lambda x: race.bib[x])
                        front = i
                    move = 2
                else:
                    move = a + 1 + ttvs[roller][b]
                race.moves += len(unit)
                for r in unit:
                    if lines.lines:
                        lines.record(race, r, p_unit, p_unit + move, turn, k)
                    cur[r] = p_unit + move
                p_unit += move
            for r in riding_alone:
                p = cur[r]
                if p >= N:
                    continue
                q = tt_step(race, r, p, ttvs[r], "R-TT4")
                if lines.lines:
                    lines.record(race, r, p, q, turn, k)
                cur[r] = q
            for r in riders:
                if crossed[r] == FAR:
                    paths[r].append(cur[r])
                    race.pos[r] = cur[r]
                    if cur[r] >= N:
                        crossed[r] = turn
    return _rank_teams(race, teams, paths, crossed, lines)


def _rank_teams(
    race: Race,
    teams: dict[int, list[int]],
    paths: list[list[int]],
    crossed: list[int],
    lines: _Crossings,
) -> TimeTrialResult:
    """R-TT4, R-TT3: team time from its counting rider; later riders keep their own gap."""
    n = race.n_riders
    counting = race.settings.ttt_counting_rider
    bib = race.bib
    in_team_order: dict[int, list[int]] = {}
    count_rider: dict[int, int] = {}
    for team_id, riders in teams.items():
        ordered = sorted(
            riders, key=lambda r: (crossed[r], -_position_at(paths[r], crossed[r]), bib[r])
        )
        in_team_order[team_id] = ordered
        count_rider[team_id] = ordered[min(counting, len(ordered)) - 1]
    times = [crossing_time(paths[r], race.N) for r in range(n)]
    team_rank = sorted(
        teams,
        key=lambda t: (
            times[count_rider[t]],
            crossed[count_rider[t]],
            -_position_at(paths[count_rider[t]], crossed[count_rider[t]]),
            min(bib[r] for r in teams[t]),
        ),
    )
    winner = count_rider[team_rank[0]]
    n_w = crossed[winner]
    if n_w == FAR:
        n_w = max(len(p) for p in paths)
    at_nw = [_position_at(paths[r], n_w) for r in range(n)]
    if times[winner] == float("inf"):
        own = _gaps(race, at_nw, at_nw[winner])
    else:
        # [D] R-TT3 at the counting rider's exact crossing time: gaps to the second; each
        # rider's case is where he was then (the counting rider's: after his turn).
        t_w = times[winner]
        behind = exact_behind(race, paths, t_w)
        mult = race.settings.tt_multiplier
        own = [max(0, math.floor(mult * behind[r] + 0.5)) for r in range(n)]
        lead = at_nw[winner]
        at_nw = [
            lead if r == winner else min(lead, math.floor(_place_at_time(paths[r], t_w)))
            for r in range(n)
        ]
    gaps = [0] * n
    final_case = list(at_nw)
    sort_key: dict[int, tuple[int, int, int]] = {}
    for t_index, team_id in enumerate(team_rank):
        counted = count_rider[team_id]
        limit = min(counting, len(in_team_order[team_id]))
        for i, r in enumerate(in_team_order[team_id]):
            if i < limit or own[r] <= own[counted]:
                gaps[r] = own[counted]
                final_case[r] = at_nw[counted]
            else:
                gaps[r] = own[r]
            sort_key[r] = (gaps[r], t_index, i)
    order = sorted(range(n), key=lambda r: sort_key[r])
    lines.emit(race, order)
    return TimeTrialResult(order, gaps, _groups_by_gap(order, gaps), final_case, n_w)
