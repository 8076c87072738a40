"""Ranking, gaps, final groups and abandons (moreno.md §3.9, §3.10, §4)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from engine.cycling.events import ABANDON, abandon_data
from engine.cycling.outcome import ABANDONED, CRASHED_OUT, FINISHED, Outcome, RiderResult
from engine.dice import D6
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.tables import DESCENT, PLAIN

ABANDON_REASONS: dict[int, str] = {
    1: "last arrived",
    2: "last on GC",
    3: "worst crash of the stage",
    4: "most crashes in the tour",
    5: "most GC places lost",
    6: "second-to-last arrived",
}
CRASH_CRITERIA = frozenset({3, 4})


def seconds_before(race: Race, low: int, high: int) -> dict[int, int]:
    """R-F3: ``S[c]`` = seconds from case ``low`` up to (not incl.) ``c``, ``low <= c <= high``."""
    board = race.board
    seconds = board.seconds
    n = board.n_cases
    # board.seconds_at(c) for low <= c < high: plain before the start, case N-1's past the line.
    before = max(0, min(high, 0) - low)
    past = max(0, high - max(low, n))
    per_case = [board.seconds_at(-1)] * before
    per_case += seconds[max(low, 0) : max(0, min(high, n))]
    per_case += [seconds[n - 1]] * past
    return dict(zip(range(low, high + 1), accumulate(per_case, initial=0), strict=True))


def stage_gaps(race: Race, order: Sequence[int], multiplier: int = 1) -> list[int]:
    """R-F3 (R-TT3 with ``multiplier``): seconds from each rider's case to the winner's."""
    pos = race.pos
    lead = pos[order[0]]
    low = min(pos[r] for r in order)
    s = seconds_before(race, low, lead)
    gaps = [0] * race.n_riders
    for r in order:
        gaps[r] = multiplier * (s[lead] - s[pos[r]])
    return gaps


def chain_groups(positions: Sequence[int], free: int) -> list[int]:
    """Group index of each position (given in race order): a new group starts after more
    than ``free`` free cases (R-G1 chaining, all terrains)."""
    groups: list[int] = []
    g = 0
    for i, p in enumerate(positions):
        if i and positions[i - 1] - p - 1 > free:
            g += 1
        groups.append(g)
    return groups


def finish_groups(race: Race, order: Sequence[int]) -> list[int]:
    """§4 ``same_group_same_time`` groups at the line (race order): a new group starts after
    more than ``group_free_cases`` free cases on plain and descent cases, after any free case
    on a climb (riders on one case only: climbers ride alone, R-C, and a case there is 3 to 6
    seconds), but never inside a group that entered the sprint zone together (R-SP1: one sprint,
    one time, however the sprint table spread it), nor between two riders who both sprinted
    and are at most ``sprint_free_cases`` free cases apart on plain (version 5: the bunch
    reaches the zone in several groups, each sprints, and the table spreads each by up to 6
    cases a turn; they cross the line together and get one time, as the commissaires give a
    bunch sprint)."""
    pos = race.pos
    free = race.settings.group_free_cases
    sprint_free = max(free, race.settings.sprint_free_cases)
    sprint = race.sprint_group
    terr = race.terr
    off = race.off
    groups: list[int] = []
    g = 0
    prev = -1
    for r in order:
        if prev >= 0:
            p = pos[r]
            if terr[p + off] in (PLAIN, DESCENT):
                limit = sprint_free if sprint[r] >= 0 and sprint[prev] >= 0 else free
            else:
                limit = -1
            if pos[prev] - p - 1 > limit and (sprint[r] < 0 or sprint[r] != sprint[prev]):
                g += 1
        groups.append(g)
        prev = r
    return groups


def neutralise(race: Race, gaps: list[int]) -> None:
    """§4 final_km_neutralisation: a rider who crashed in the last cases gets the gap of the
    best-placed rider of the group he was in at the start of that turn."""
    crashed = race.neutralised
    for r, mates in crashed.items():
        others = [gaps[m] for m in mates if m not in crashed]
        if others:
            gaps[r] = min(gaps[r], min(others))


def abandon_count(race: Race, order: Sequence[int]) -> int:
    """R-A1, R-A2: ``A(k)``, k = riders behind the main peloton (largest group at the final
    positions, ties to the one ahead); a field smaller than ``abandon_field`` reads the table
    at ``k · field / n`` and gets ``A · n / field`` abandons, half up."""
    pos = race.pos
    groups = chain_groups([pos[r] for r in order], 2)
    sizes: dict[int, int] = {}
    for g in groups:
        sizes[g] = sizes.get(g, 0) + 1
    main = max(sizes, key=lambda g: (sizes[g], -g))
    last_index = max(i for i, g in enumerate(groups) if g == main)
    k = len(order) - 1 - last_index
    n = len(order)
    field = race.settings.abandon_field
    # R-A2 [D]: a field smaller than the table's reads it at k scaled up to that field.
    scaled = 0 < n < field
    count = 0
    for k_min, value in race.settings.abandon_table:
        if (k * field >= k_min * n) if scaled else k >= k_min:
            count = value
    if scaled:
        # ... and takes that many abandons scaled down to its size, half up.
        count = (2 * count * n + field) // (2 * field)
    return count


def select_abandons(
    race: Race, order: Sequence[int], gaps: Sequence[int], count: int
) -> list[tuple[int, int]]:
    """R-A4, R-A5: the j-th abandon uses criterion ``(j-1) mod 6 + 1`` among riders not yet
    chosen; a criterion without candidate passes to the next; ties go to the worse stage rank.
    Returns ``(rider, criterion)`` pairs."""
    n = len(order)
    rank = {r: i + 1 for i, r in enumerate(order)}
    entrants = race.entrants
    gc_time = {r: entrants[r].gc_time_before + gaps[r] for r in order}
    ranked_before = sorted(
        (r for r in order if entrants[r].gc_rank_before is not None),
        key=lambda r: (entrants[r].gc_rank_before, r),
    )
    old_place = {r: i for i, r in enumerate(ranked_before)}
    new_order = sorted(ranked_before, key=lambda r: (gc_time[r], rank[r]))
    lost = {r: i - old_place[r] for i, r in enumerate(new_order)}
    tour_crashes = {r: entrants[r].tour_crash_count + len(race.crashes[r]) for r in order}
    worst = {r: max((c.severity for c in race.crashes[r]), default=0) for r in order}

    chosen: dict[int, int] = {}

    def best(keyed: dict[int, int] | None, allowed: int = n) -> int | None:
        pool = [r for r in order if r not in chosen and rank[r] <= allowed]
        if keyed is not None:
            pool = [r for r in pool if keyed.get(r, 0) > 0]
            if not pool:
                return None
            return max(pool, key=lambda r: (keyed[r], rank[r]))
        return max(pool, key=lambda r: rank[r]) if pool else None

    def pick(criterion: int) -> int | None:
        if criterion == 1:
            return best(None)
        if criterion == 2:
            pool = [r for r in order if r not in chosen]
            return max(pool, key=lambda r: (gc_time[r], rank[r])) if pool else None
        if criterion == 3:
            return best(worst)
        if criterion == 4:
            return best(tour_crashes)
        if criterion == 5:
            return best(lost)
        return best(None, n - 1)

    picked: list[tuple[int, int]] = []
    for j in range(count):
        for step in range(6):
            criterion = (j + step) % 6 + 1
            r = pick(criterion)
            if r is not None:
                chosen[r] = criterion
                picked.append((r, criterion))
                break
        else:
            break
    return picked


def abandons(race: Race, order: Sequence[int], gaps: Sequence[int]) -> list[tuple[int, int]]:
    """R-A1 .. R-A5 after the stage (turn ``turns + 1`` in the dice log)."""
    if not race.settings.abandons_enabled:
        return []
    count = abandon_count(race, order)
    if count == 0:
        return []
    race.turn += 1
    race.unit = 0
    face = race.roll(D6, -1, "R-A3") + 1
    race.turn -= 1
    if face < race.settings.abandon_min_face:
        return []
    return select_abandons(race, order, gaps, count)


def outcome(
    race: Race,
    *,
    ruleset: str,
    seed: int,
    order: Sequence[int],
    gaps: Sequence[int],
    groups: Sequence[int],
    final_case: Sequence[int],
    quits: Sequence[tuple[int, int]],
    turns: int,
) -> Outcome:
    """R-F2: freeze the stage into an :class:`Outcome` (results in rank order)."""
    ids = race.ids
    crashes = race.crashes
    lead = final_case[order[0]]
    quit_reason = dict(quits)
    results = []
    for i, r in enumerate(order):
        criterion = quit_reason.get(r)
        if criterion is None:
            status, reason = FINISHED, None
        else:
            status = CRASHED_OUT if criterion in CRASH_CRITERIA else ABANDONED
            reason = ABANDON_REASONS[criterion]
        case = final_case[r]
        # Positional, in the field order of RiderResult: rider_id, rank, final_case,
        # squares_behind, gap_seconds, status, crashes, final_group, abandon_reason.
        results.append(
            RiderResult(
                ids[r],
                i + 1,
                case,
                lead - case,
                gaps[r],
                status,
                tuple(crashes[r]),
                groups[i],
                reason,
            )
        )
    for r, criterion in quits:
        race.turn = turns + 1
        race.event(
            ABANDON, (r,), abandon_data(final_case[r], criterion, ABANDON_REASONS[criterion])
        )
    events = tuple(e.freeze(ids) for e in race.events)
    return Outcome(
        ruleset=ruleset,
        seed=seed,
        results=tuple(results),
        events=events,
        dice=race.dice_log(),
        turns=turns,
        n_cases=race.N,
        rider_moves=race.rider_moves,
    )
