"""The bunch and its d20 table (moreno.md §3.6, R-P20.1 .. R-P20.20, R-P1, R-P2, R-P3).

``members`` are always the bunch's riders still to move, in race order at turn start: a row
filters them again (``_live``) only after a roll, whose crash chain may have taken some.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import sub

from engine.cycling.events import ATTACK, BREAKAWAY, attack_data, breakaway_data
from engine.dice import D6, D20, DESC6, DESC8, DPOKER
from engine.rulesets.moreno.rules import crash_check
from engine.rulesets.moreno.state import Group, Race
from engine.rulesets.moreno.tables import (
    ACTIVE,
    BREAKAWAY_ROLE,
    D6_POKER_CRASH,
    D6_POKER_TRIGGER,
    GC_LEADER,
    POKER_A,
    POKER_NUMBER_VALUES,
    POKER_PAIR_CRASH,
    PUNCH13,
    SPRINTER_ROLE,
    TWO_D6,
    TWO_D6_CRASH,
)

RULE = tuple(f"R-P20.{k}" for k in range(21))

#: Free cases that make a rider clear of his bunch (R-G1, R-P20.15, R-P20.19).
CLEAR = 3


def resolve_bunch(race: Race, members: list[int], unit_index: int) -> None:
    """R-P20: the bunch rolls one d20 and moves by the matching row of the table."""
    face = race.roll(D20, -1, "R-P20") + 1
    _HANDLERS[face](race, members, face, unit_index)


# -- helpers -----------------------------------------------------------------------------


def _split(race: Race, members: list[int]) -> tuple[list[int], list[int]]:
    """§3.6 definitions: ``reds`` (breakaway_role) and ``body``; a bunch of reds only is all
    body."""
    role = race.role
    reds = [m for m in members if role[m] == BREAKAWAY_ROLE]
    if not reds or len(reds) == len(members):
        return [], members
    return reds, [m for m in members if role[m] != BREAKAWAY_ROLE]


def _live(race: Race, riders: Sequence[int]) -> list[int]:
    """Riders still to move this turn (R-X2: a chain roll is the candidate's move)."""
    status = race.status
    moved = race.moved
    turn = race.turn
    return [r for r in riders if status[r] == ACTIVE and moved[r] != turn]


def _yellow_team(race: Race, members: Sequence[int]) -> int | None:
    """R-P20.3/4 YT: team of the yellow jersey, else of the first gc_leader of the bunch."""
    if race.yellow_team is not None:
        return race.yellow_team
    for m in members:
        if race.role[m] == GC_LEADER:
            return race.team[m]
    return None


def _green_team(race: Race, members: Sequence[int], head: int) -> int:
    """R-P20.14 GT: team of the first sprinter_role, else of the green jersey if here, else of
    head."""
    for m in members:
        if race.role[m] == SPRINTER_ROLE:
            return race.team[m]
    if race.green_rider in members:
        return race.team[race.green_rider]
    return race.team[head]


def _eligible(race: Race, r: int) -> bool:
    """R-P20.15/19: baroudeur >= 1 in the baroudeur phase, finisseur >= 1 after the split."""
    if race.pos[r] < race.split:
        return race.baroudeur[r] >= 1
    return race.finisseur[r] >= 1


def _roller_value(race: Race, roller: int, rule: str) -> int:
    """V of the roller (R-P20.1-7): 2 dPoker, pv with his rouleur; A-A is a crash check
    (R-X1): a crash or a failed confirm gives V = 2."""
    code = race.roll2(DPOKER, DPOKER, roller, rule)
    if code == POKER_PAIR_CRASH:
        crash_check(race, roller, DPOKER)
        return 2
    return race.poker_pair[roller][code]


def _red_rolls(race: Race, reds: Sequence[int], rule: str) -> None:
    """Red roll (R-P20.1-7, 10, 14): d6, dPoker, d20; the two highest values, no crash check."""
    pos = race.pos
    pvs = race.pv
    for r in _live(race, reds):
        a, b = divmod(race.roll2(D6, DPOKER, r, rule), 6)
        a += 1
        b = pvs[r][b]
        c = race.roll(D20, r, rule) + 1
        race.place(r, pos[r] + a + b + c - min(a, b, c))


def _capped(race: Race, r: int, move: int) -> tuple[int, bool]:
    """R-P2 breakaway cap: the target case and whether cap (a), the nearest rider ahead who is
    not in this bunch, stopped the move. Cap (c), the zone entry, is applied by ``place``."""
    p = race.pos[r]
    target = p + move
    x = race.nearest_ahead(r, race.unit_of[r])
    cap_a = race.pos[x] - 1 if x >= 0 else target
    cap_b = race.next_climb[p + race.off] - 1
    final = min(target, cap_a, cap_b)
    return final, cap_a < target and cap_a <= cap_b


def _report_attacks(race: Race, members: Sequence[int], face: int, skip: set[int]) -> None:
    """``attack`` events: members now 3+ free cases clear (R-G1) ahead of the biggest part of
    the bunch (ties: the part ahead), breakaway riders of this turn excepted."""
    pos = race.pos
    status = race.status
    live = [m for m in members if status[m] == ACTIVE]
    n = len(live)
    if n < 2:
        return
    ps = sorted([pos[m] for m in live])
    steps = list(map(sub, ps[1:], ps))  # steps[i - 1]: from ps[i - 1] to ps[i]
    if max(steps) <= CLEAR:
        return
    cuts = [i for i, step in enumerate(steps, 1) if step > CLEAR]
    bounds = [0, *cuts, n]
    parts = [(bounds[j], bounds[j + 1]) for j in range(len(bounds) - 1)]
    main = max(range(len(parts)), key=lambda j: (parts[j][1] - parts[j][0], j))
    if main == len(parts) - 1:
        return
    # The riders of a part in race order: its cases from the front, each in ``seq`` order.
    cases = race.cases
    off = race.off
    reported = set(live).difference(skip)
    for lo, hi in reversed(parts[main + 1 :]):
        lo_case, hi_case = ps[lo], ps[hi - 1]
        riders = [
            m
            for c in range(hi_case + off, lo_case + off - 1, -1)
            for m in cases[c]
            if m in reported
        ]
        if riders:
            race.event(ATTACK, riders, attack_data(hi_case, RULE[face]))


# -- collective rows ---------------------------------------------------------------------


def _collective(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.1-7: a roller rolls 2 dPoker for V and the body follows packed (single file for
    7) from ``head + V``: 1 head, 2 head and his team first, 3/4 the best-placed man (team) of
    the yellow jersey, 5/6 the best-placed sprinter_role (team). Reds make their red roll."""
    reds, body = _split(race, members)
    team = race.team
    head = body[0]
    k = face
    roller = head
    if k in (3, 4):
        yt = _yellow_team(race, members)
        roller = next((m for m in body if team[m] == yt), -1)
        if roller < 0:
            k -= 2
            roller = head
    elif k in (5, 6):
        roller = next((m for m in body if race.role[m] == SPRINTER_ROLE), -1)
        if roller < 0:
            k -= 4
            roller = head
    rule = RULE[k]
    c0 = race.tstart[head] + _roller_value(race, roller, rule)
    if k == 2 or k == 4 or k == 6:
        t = team[roller]
        first = [roller] + [m for m in body if team[m] == t and m != roller]
        order = first + [m for m in body if team[m] != t]
    elif k == 3 or k == 5:
        order = [roller] + [m for m in body if m != roller]
    else:
        order = body
    live = _live(race, order)
    if k == 7:
        race.file(live, c0)
    else:
        race.pack(live, c0)
    if reds:
        _red_rolls(race, reds, rule)
        _report_attacks(race, members, face, set())


def _join_ahead(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.8, R-P20.9: the bunch joins behind the nearest rider ahead (+2 if none), reds
    following the body; with 9 every bunch behind it that has not moved joins too."""
    reds, body = _split(race, members)
    live = body + reds
    if not live:
        return
    first = live[0]
    x = race.nearest_ahead(first, race.unit_of[first])
    race.pack(live, race.pos[x] - 1 if x >= 0 else race.pos[first] + 2)
    if face != 9:
        return
    for unit in race.units[unit_index + 1 :]:
        if not isinstance(unit, Group) or len(unit.members) < 3:
            continue
        if race.tstart[unit.members[0]] >= race.zs:
            continue
        chasers = _live(race, unit.members)
        if not chasers:
            continue
        x = race.nearest_ahead(chasers[0], unit.serial)
        if x >= 0:
            race.pack(chasers, race.pos[x] - 1)


def _slow_down(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.10: every body member +1 from his own case; reds make their red roll."""
    reds, body = _split(race, members)
    pos = race.pos
    for r in body:
        race.place(r, pos[r] + 1)
    if reds:
        _red_rolls(race, reds, RULE[10])
        _report_attacks(race, members, face, set())


# -- individual rows ---------------------------------------------------------------------


def _rouleur_moves(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.11: each member moves his ROULEUR value, no dice."""
    pos = race.pos
    rv = race.rv
    for r in members:
        race.place(r, pos[r] + rv[r])
    _report_attacks(race, members, face, set())


def _rouleur_packed(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.12: targets ``pos + ROULEUR``; all packed from the highest target, by target
    (ties: current order), slower riders at the tail."""
    pos = race.pos
    rv = race.rv
    live = members
    if not live:
        return
    targets = [pos[r] + rv[r] for r in live]
    by_target = sorted(range(len(live)), key=lambda i: -targets[i])
    race.pack([live[i] for i in by_target], max(targets))


def _punch(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.13: each member moves PUNCH13[puncheur], no dice."""
    pos = race.pos
    puncheur = race.puncheur
    for r in members:
        race.place(r, pos[r] + PUNCH13[puncheur[r] + 1])
    _report_attacks(race, members, face, set())


def _green_train(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.14: body members outside the green team roll dPoker: A/9/10 move 1/9/10, K/Q/J
    join the train; the train (green team, then those riders) is packed from ``head + 20``.
    Reds make their red roll."""
    reds, body = _split(race, members)
    team = race.team
    head = body[0]
    gt = _green_team(race, members, head)
    tail: list[int] = []
    pos = race.pos
    rule = RULE[14]
    for r in body:
        if team[r] == gt:
            continue
        i = race.roll(DPOKER, r, rule)
        if i >= POKER_A:
            race.place(r, pos[r] + POKER_NUMBER_VALUES[i - POKER_A])
        else:
            tail.append(r)
    train = _live(race, [r for r in body if team[r] == gt]) + tail
    race.pack(train, race.tstart[head] + 20)
    if reds:
        _red_rolls(race, reds, rule)
    _report_attacks(race, members, face, set())


def _pokers(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.15: 2 dPoker each (3 for the eligible), sum of pv, crash check on 2 dice; then
    every eligible rider 3+ free cases ahead of the furthest non-eligible member escapes with
    a dEsc6, breakaway-capped (R-P2)."""
    pos = race.pos
    pvs = race.pv
    pairs = race.poker_pair
    rule = RULE[15]
    eligible = {r for r in members if _eligible(race, r)}
    status = race.status
    moved = race.moved
    turn = race.turn
    for r in members:
        if status[r] != ACTIVE or moved[r] == turn:
            continue  # a crash chain took him (R-X2)
        code = race.roll2(DPOKER, DPOKER, r, rule)
        if r in eligible:
            move = pairs[r][code] + pvs[r][race.roll(DPOKER, r, rule)]
        elif code == POKER_PAIR_CRASH:
            move = crash_check(race, r, DPOKER)
            if move < 0:
                continue
        else:
            move = pairs[r][code]
        race.place(r, pos[r] + move)
    others = [pos[r] for r in members if r not in eligible and status[r] == ACTIVE]
    escaped: list[int] = []
    if others:
        furthest = max(others)
        escapees = [
            r for r in members if r in eligible and status[r] == ACTIVE and not race.no_breakaway[r]
        ]
        escapees = [r for r in escapees if pos[r] - furthest - 1 >= CLEAR]
        escapees.sort(key=lambda m: (-pos[m], race.seq[m]))
        for r in escapees:
            target, _ = _capped(race, r, 2 << race.roll(DESC6, r, rule))
            race.place(r, target)
            escaped.append(r)
    if escaped:
        escaped.sort(key=lambda m: (-pos[m], race.seq[m]))
        race.event(BREAKAWAY, escaped, breakaway_data(pos[escaped[0]], rule))
    _report_attacks(race, members, face, set(escaped))


def _d6_pokers(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.16, R-P20.19, R-P20.20: d6 + dPoker each (crash check 1-A). On 16, K-6 moves
    100 breakaway-capped. On 19 (eligible riders) and 20 (everybody) K-6 is a trigger: after
    all moved, each trigger rolls dEsc8 (capped); if he is then 3+ free cases clear of the
    whole bunch the breakaway has gone: a d20 gives its size, companions are taken by
    priority and packed behind him."""
    pos = race.pos
    moves = race.d6_poker
    rule = RULE[face]
    triggers: list[int] = []
    status = race.status
    moved = race.moved
    turn = race.turn
    for r in members:
        if status[r] != ACTIVE or moved[r] == turn:
            continue  # a crash chain took him (R-X2)
        code = race.roll2(D6, DPOKER, r, rule)
        if code == D6_POKER_TRIGGER:
            if face == 16:
                target, _ = _capped(race, r, 100)
                race.place(r, target)
                continue
            # R-P20.19/20: a no-breakaway rider never triggers (on 20 either).
            if not race.no_breakaway[r] and (face == 20 or _eligible(race, r)):
                triggers.append(r)
        if code == D6_POKER_CRASH:
            move = crash_check(race, r, D6)
            if move < 0:
                continue
        else:
            move = moves[r][code]
        race.place(r, pos[r] + move)
    gone: set[int] = set()
    if triggers:
        triggers.sort(key=lambda m: (-pos[m], race.seq[m]))
        for t in triggers:
            gone.update(_trigger(race, members, t, rule))
    _report_attacks(race, members, face, gone)


def _trigger(race: Race, members: list[int], t: int, rule: str) -> list[int]:
    """R-P20.19 trigger resolution (R-P2); returns the breakaway riders, if it went."""
    turn = race.turn
    if race.status[t] != ACTIVE or race.in_breakaway[t] == turn:
        return []
    pos = race.pos
    target, by_a = _capped(race, t, (race.roll(DESC8, t, rule) + 1) * 10)
    race.place(t, target)
    if by_a:
        return []
    others = [pos[m] for m in members if m != t]
    if others and pos[t] - max(others) - 1 < CLEAR:
        return []
    size = race.roll(D20, t, rule) + 1
    order = {m: i for i, m in enumerate(members)}
    candidates = [
        m
        for m in members
        if m != t
        and race.status[m] == ACTIVE
        and race.role[m] != GC_LEADER
        and not race.no_breakaway[m]
        and race.in_breakaway[m] != turn
    ]
    candidates.sort(key=lambda m: (race.role[m] != BREAKAWAY_ROLE, -race.baroudeur[m], order[m]))
    group = [t, *candidates[: size - 1]]
    race.pack(group, pos[t])
    for m in group:
        race.in_breakaway[m] = turn
    race.event(BREAKAWAY, group, breakaway_data(pos[t], rule))
    return group


def _two_d6(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.17: 2 d6 each (crash check 1-1) except gc_leaders and sprinter_roles, who then
    go right ahead of (gc_leader) or behind (sprinter_role) their best-placed moved
    team-mate; one without a rolling team-mate rolls 2 d6 in race order like the others."""
    live = members
    role = race.role
    team = race.team
    pos = race.pos
    rule = RULE[17]
    rolling = [r for r in live if role[r] != GC_LEADER and role[r] != SPRINTER_ROLE]
    rolling_teams = {team[r] for r in rolling}
    deferred: list[int] = []
    status = race.status
    for r in live:
        if status[r] != ACTIVE or race.moved[r] == race.turn:
            continue  # a crash chain took him (R-X2)
        if (role[r] == GC_LEADER or role[r] == SPRINTER_ROLE) and team[r] in rolling_teams:
            deferred.append(r)
        else:
            _roll_two_d6(race, r, rule)
    seq = race.seq
    for r in deferred:
        if status[r] != ACTIVE or race.moved[r] == race.turn:
            continue
        mates = [m for m in rolling if team[m] == team[r] and status[m] == ACTIVE]
        if not mates:
            _roll_two_d6(race, r, rule)
            continue
        m = min(mates, key=lambda x: (-pos[x], seq[x]))
        race.place(r, pos[m] + 1 if role[r] == GC_LEADER else pos[m] - 1)
    _report_attacks(race, members, face, set())


def _roll_two_d6(race: Race, r: int, rule: str) -> None:
    """R-P20.17 roll: 2 d6 and their sum, with the 1-1 crash check of R-X1."""
    code = race.roll2(D6, D6, r, rule)
    if code == TWO_D6_CRASH:
        move = crash_check(race, r, D6)
        if move < 0:
            return
    else:
        move = TWO_D6[code]
    race.place(r, race.pos[r] + move)


def _d20_each(race: Race, members: list[int], face: int, unit_index: int) -> None:
    """R-P20.18: each member rolls a d20 and moves its value."""
    pos = race.pos
    rule = RULE[18]
    for r in members:
        race.place(r, pos[r] + race.roll(D20, r, rule) + 1)
    _report_attacks(race, members, face, set())


Handler = Callable[[Race, list[int], int, int], None]

_HANDLERS: tuple[Handler, ...] = (
    _collective,  # index 0 unused
    _collective,
    _collective,
    _collective,
    _collective,
    _collective,
    _collective,
    _collective,
    _join_ahead,
    _join_ahead,
    _slow_down,
    _rouleur_moves,
    _rouleur_packed,
    _punch,
    _green_train,
    _pokers,
    _d6_pokers,
    _two_d6,
    _d20_each,
    _d6_pokers,
    _d6_pokers,
)
