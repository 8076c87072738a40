"""Individual units of a Moréno turn: climbs, descents, restarts, solo, pair, sprint, close-up.

Each function resolves one unit on a :class:`Race` at its live positions (R-T4); the bunch and
its d20 table are in :mod:`.bunch`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import D6, DDESC, DPOKER, DT, Die
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.tables import (
    ACTIVE,
    CLIMB_MOVES,
    COL3,
    D6_POKER_CRASH,
    DESC_FACES,
    DESC_GREENS,
    DESC_T,
    FAR,
    GREEN_FACE,
    MAX_CLIMB,
    ONE_INDEX,
    PLAIN,
    POKER_A,
    SPRINT,
    T_FACE,
)


def resolve_climber(race: Race, r: int) -> None:
    """R-C1, R-C2, R-C3 (R-C4: no crash on climbs): two dT, the climb formula of §2.5 with
    ``climber`` on cols and ``puncheur`` on hills; a rating-4 rider showing 6/T twice rolls
    two dT once more and adds their full value."""
    p = race.pos[r]
    rating = race.climber[r] if race.terr[p + race.off] >= COL3 else race.puncheur[r]
    code = race.roll2(DT, DT, r, "R-C1")
    move = CLIMB_MOVES[rating + 1][code]
    if rating == 4 and MAX_CLIMB[code]:
        move += CLIMB_MOVES[5][race.roll2(DT, DT, r, "R-C3")]
    race.place(r, p + move)


def descent_sum(faces: Sequence[int], descender: int, green_value: int | None) -> int:
    """R-D1: sum of the non-green faces, T valued ``DESC_T[descender]``; with ``green_value``
    (time trials, R-TT2) a green face counts that much instead of being left out."""
    t = DESC_T[descender + 1]
    total = 0
    for i in faces:
        if i == T_FACE:
            total += t
        elif i == GREEN_FACE:
            if green_value is not None:
                total += green_value
        else:
            total += i + 1
    return total


#: R-D1: the sum of three dDesc (green faces left out), by descender + 1 and code.
DESC_SUMS: tuple[tuple[int, ...], ...] = tuple(
    tuple(descent_sum(faces, rating, None) for faces in DESC_FACES) for rating in range(-1, 5)
)


def resolve_descender(race: Race, r: int) -> None:
    """R-D1..R-D5, R-X3: three dDesc; a green face brings the rider up to the nearest rider
    ahead if that is farther (on his case, behind him); three greens make an H descender
    crash (chain behind him), others go exactly up to the rider ahead; a move is at least 1."""
    code = race.roll3(DDESC, r, "R-D1")
    greens = DESC_GREENS[code]
    descender = race.descender[r]
    s = DESC_SUMS[descender + 1][code]
    p = race.pos[r]
    if greens:
        if greens == 3:
            if descender < 0:
                race.crash_with_chain(r, "R-D3")
                return
            s = 0
        x = race.nearest_ahead(r)
        d = race.pos[x] - p if x >= 0 else 0
        if d > 0 and d >= s:
            race.place(r, race.pos[x])
            return
    race.place(r, p + (s if s >= 1 else 1))


def resolve_fallen(race: Race, r: int) -> None:
    """R-X5, R-X6: a fallen rider rolls dPoker: A/9/10 restarts with +2, K/Q/J stays down."""
    if race.roll(DPOKER, r, "R-X5") >= POKER_A:
        race.restart(r)
        race.place(r, race.pos[r] + 2)
    else:
        race.fallen_turns[r] += 1
        race.moved[r] = race.turn


def d6_poker_move(race: Race, r: int, rule: str) -> int:
    """R-S2 roll with the crash check of R-X1: ``d6 + pv(dPoker)``; 1-A asks a confirm d6:
    1 crashes the rider (chain R-X2) and returns -1, anything else moves exactly 2."""
    code = race.roll2(D6, DPOKER, r, rule)
    if code == D6_POKER_CRASH:
        return crash_check(race, r, D6)
    return race.d6_poker[r][code]


def crash_check(race: Race, r: int, die: Die) -> int:
    """R-X1 confirm roll (d6 if the pair held a d6, else dPoker): 1 or A, then R-X1.2 (below),
    crashes the rider with a chain (returns -1); any other face moves him exactly 2."""
    if race.roll(die, r, "R-X1") == (ONE_INDEX if die is D6 else POKER_A) and crash_confirmed(
        race, r
    ):
        race.crash_with_chain(r, "R-X1")
        return -1
    return 2


def crash_confirmed(race: Race, r: int) -> bool:
    """R-X1.2 [D] (version 5): a second confirm d6 must show 1 to ``crash_confirm_faces``;
    6, the rules' literal reading, rolls no second die."""
    faces = race.settings.crash_confirm_faces
    return faces >= 6 or race.roll(D6, r, "R-X1.2") < faces


def resolve_solo(race: Race, r: int, ahead_at_start: int) -> None:
    """R-S1, R-S2: a solo exactly 3 free cases behind the nearest rider ahead (turn start)
    rolls dPoker: K/Q/J joins behind that rider's live position, A/9/10 moves +2. Any other
    solo rolls d6 + dPoker (J/Q/K = rouleur value), with the crash check of R-X1."""
    p = race.pos[r]
    if ahead_at_start >= 0 and race.tstart[ahead_at_start] - p - 1 == 3:
        if race.roll(DPOKER, r, "R-S1") < POKER_A:
            x = race.nearest_ahead(r)
            race.place(r, race.pos[x] - 1 if x >= 0 else p + 2)
        else:
            race.place(r, p + 2)
        return
    move = d6_poker_move(race, r, "R-S2")
    if move >= 0:
        race.place(r, p + move)


def resolve_pair(race: Race, front: int, second: int) -> None:
    """R-S3: the front rider rolls d6 + dPoker (crash check R-X1) and moves; the second goes
    to ``front + 1``. If the front crashes, the second's chain roll is his move, or he rides
    as a solo (R-S2) when not adjacent."""
    move = d6_poker_move(race, front, "R-S3")
    if move >= 0:
        race.place(front, race.pos[front] + move)
        race.place(second, race.pos[front] + 1)
        return
    if race.status[second] == ACTIVE and race.moved[second] != race.turn:
        resolve_solo(race, second, -1)


def resolve_sprint(race: Race, members: Sequence[int]) -> None:
    """R-SP1, R-SP2, R-SP3: one d6 for the group; its sprinters (at most 12: the best
    ``sprinter`` ratings, or the first in race order, per ``sprint_selection``) move by the
    sprint table in race order; the others are packed behind the rearmost sprinter.
    No crash check."""
    s = race.roll(D6, -1, "R-SP1")
    row = SPRINT[s]
    k = race.settings.sprint_riders
    sprinter = race.sprinter
    if len(members) <= k:
        sprinters: Sequence[int] = members
        rest: Sequence[int] = ()
    elif race.settings.sprint_selection == "race_order":
        sprinters = members[:k]
        rest = members[k:]
    else:
        best = sorted(range(len(members)), key=lambda i: (-sprinter[members[i]], i))[:k]
        chosen = sorted(best)
        sprinters = [members[i] for i in chosen]
        picked = set(sprinters)
        rest = [m for m in members if m not in picked]
    pos = race.pos
    for r in sprinters:
        race.place(r, pos[r] + row[sprinter[r] + 1])
    if rest:
        race.pack(rest, min(pos[r] for r in sprinters) - 1)


def close_up(race: Race, order: Sequence[int]) -> bool:
    """R-G3: at the end of a turn, an active rider on a plain case outside the sprint zone who
    is 1 or 2 free cases behind the previous such rider is placed right behind him.

    Returns True if anybody moved.
    """
    pos = race.pos
    status = race.status
    terr = race.terr
    off = race.off
    limit = min(race.zs, race.N)
    ahead = FAR  # the previous such rider's case (none yet: farther than any gap)
    changed = False
    for b in order:
        p = pos[b]
        if status[b] != ACTIVE or p >= limit or terr[p + off] != PLAIN:
            continue
        if 1 <= ahead - p - 1 <= 2:
            race.place(b, ahead - 1)
            changed = True
            p = pos[b]
        ahead = p
    return changed
