"""The stage sheet and the tables of Cyclo Sim (cyclosim.md §2.3, §3.9, §4.2)."""

from __future__ import annotations

from functools import cache

from engine.cycling.profile import Profile

#: Terrain codes of a row (§2.1) and their cell cost [T].
FLAT, CLIMB, DESCENT = 0, 1, 2
CELL_COST: tuple[int, int, int] = (1, 2, 1)

#: Rider status (§2.4).
ACTIVE, OUT, FINISHED, ELIMINATED = 0, 1, 2, 3

#: Recovery situations (R-RC): A leader, B rank-1 follower, C deeper follower.
SIT_A, SIT_B, SIT_C = 0, 1, 2

#: R-RC tables [T], indexed by d (0..11; d 0 and 1 use the d = 2 line [D]).
RECOVERY: tuple[tuple[int, ...], ...] = (
    (2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0, 0),
    (2, 2, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0),
    (3, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1),
)

#: Rating that modifies PI on a move terrain (§2.3): index into a rider's mod tuple.
MOD_ROULEUR, MOD_SPRINTER, MOD_TT, MOD_CLIMBER, MOD_PUNCHEUR, MOD_DESCENDER = range(6)
#: The last rows of a flat finish use the sprinter rating (§2.3; spec 10 rows, tuned [D]).
SPRINT_ROWS = 50

#: Free following thresholds in cost points (R-F3) and the drop distance (R-F1) [T].
FREE_FOLLOW = 10
MIN_PULL = 4
#: Bonus of attacks and of followers beyond the threshold (R-AT1, R-F4) [T].
BONUS = 2
#: Crash of more than this many turns eliminates (R-X4) [T].
MAX_OUT_TURNS = 6


def recovery(situation: int, d: int) -> int:
    """R-RC: points recovered after a move of ``d`` cells in ``situation``."""
    line = RECOVERY[situation]
    return line[d] if d < len(line) else 0


#: §2.3 advanced game ``mod`` by rating H (-1), 0 .. 4. Spec ``(-1, 0, 0, 1, 1, 2)``; tuned [D]:
#: a rating of 3 gets +2 like a 4, so specialists rated 3 beat the many riders rated 2.
MOD_BY_RATING: tuple[int, ...] = (-1, 0, 0, 1, 2, 2)


def mod(rating: int) -> int:
    """§2.3 advanced game ``mod`` (:data:`MOD_BY_RATING`): ``mod(H) = -1``, ``mod(0..1) = 0``,
    ``mod(2) = 1``, ``mod(3..4) = 2``."""
    return MOD_BY_RATING[max(-1, min(4, rating)) + 1]


def mods(profile: Profile, profiles: bool) -> tuple[int, ...]:
    """A rider's PI modifiers by move-terrain rating (MOD_* order); zeros when profiles are off."""
    if not profiles:
        return (0,) * 6
    p = profile
    return tuple(
        mod(x) for x in (p.rouleur, p.sprinter, p.time_trialist, p.climber, p.puncheur, p.descender)
    )


def pe_max_of(profile: Profile, *, profiles: bool, base: int = 60, per_rouleur: int = 5) -> int:
    """§2.3: ``pe_max = 60 + 5·rouleur`` in the advanced game, 60 otherwise."""
    return base + per_rouleur * profile.rouleur if profiles else base


def consumed_at_start(pe_consumed: int, pe_max: int, overnight_recovery: int) -> int:
    """§2.3 [D]: the points still ticked at the start of a stage, after the night's recovery
    from the ``pe_consumed`` of the previous stage's finish."""
    return min(pe_max, max(0, pe_consumed - overnight_recovery))


def _ceil_pct(pct: int, pe_max: int) -> int:
    return (pct * pe_max + 99) // 100


@cache
def pi_table(pe_max: int) -> tuple[int, ...]:
    """§2.3 ``pi_sheet(pe)`` for ``pe = 0 .. pe_max``: 6 from 80 %, 5 from 60 %, 4 from 40 %, 3
    from 25 %, 2 from 10 %, 1 from 1 point, 0 at 0 (thresholds rounded up)."""
    steps = [(_ceil_pct(p, pe_max), v) for p, v in ((80, 6), (60, 5), (40, 4), (25, 3), (10, 2))]
    out = []
    for pe in range(pe_max + 1):
        value = 0 if pe == 0 else 1
        for threshold, v in steps:
            if pe >= threshold:
                value = v
                break
        out.append(value)
    return tuple(out)


def pi_of(pe: int, pe_max: int, modifier: int) -> int:
    """§2.3: ``pi = 0`` if ``pi_sheet = 0``, else ``clamp(pi_sheet + mod, 1, 8)``."""
    sheet = pi_table(pe_max)[pe]
    if sheet == 0:
        return 0
    return min(8, max(1, sheet + modifier))


def pace_cap(pace: str, terrain: int, pi: int, b: int, rows_cost: int = 0) -> int:
    """§4.2: the largest ``cd`` a pace bids; ``rows:N`` gives ``rows_cost`` (the cost of N rows)."""
    if terrain == DESCENT:
        m = max(2 + b + pi, 2 * pi)
        if pace == "tempo":
            return min(m + pi, 10 + pi)
        if pace == "safe":
            return m + pi
        if pace == "expected":
            return 7 + b + 2 * pi
        if pace == "max":
            return 12 + b + 2 * pi
        if pace == "free":
            return m
    else:
        m = max(2 + b, pi)
        if pace == "tempo":
            return min(m + pi, 10)
        if pace == "safe":
            return m + pi
        if pace == "expected":
            return 7 + b + pi
        if pace == "max":
            return 12 + b + pi
        if pace == "free":
            return m
    return rows_cost
