"""A cycling team's rules that are not the engine's: what a rider costs when teams are formed,
and the default roles of a team (docs/league.md "Prices", "Roles").

Plain functions of a rider's eight ratings, asked by the cycling adapter's team formation
(races.adapters.formation) and shown by the league's pages.
"""

from collections.abc import Callable, Iterable, Mapping

from riders.models import Rider

PRICE_BASE = 5
# What one axis rated H, 0, 1, 2, 3, 4 adds before its weight: each step up costs more than
# the one before, so one champion costs more than two strong riders.
RATING_COST = {-1: 0, 0: 0, 1: 1, 2: 3, 3: 6, 4: 10}
# The axes that win Grand Tours weigh most: climbing and the time trial make the GC, sprints
# and punches win stages; the others help on some terrain only.
AXIS_WEIGHTS = {
    "climber": 3,
    "time_trialist": 2,
    "sprinter": 2,
    "puncheur": 2,
    "rouleur": 1,
    "baroudeur": 1,
    "finisseur": 1,
    "descender": 1,
}

#: The roles of a cycling team (season.models.RiderRole holds the same values).
GC_LEADER = "gc_leader"
SPRINTER = "sprinter"
BREAKAWAY = "breakaway"
DOMESTIQUE = "domestique"


def price_of(ratings: Mapping[str, int]) -> int:
    """A rider's price: PRICE_BASE + sum over the eight axes of weight x cost of the rating.

    On the demo's 2023 start list prices run from 8 to 87, 22 on average, so the default
    budget of 180 buys an average team of eight.
    """
    return PRICE_BASE + sum(
        weight * RATING_COST[int(ratings.get(axis, 0))] for axis, weight in AXIS_WEIGHTS.items()
    )


def rider_price(rider: Rider) -> int:
    """A rider's price from his live ratings (a league's riders: races.ratings.RatingsBook)."""
    return price_of(rider.ratings)


def _live(rider: Rider) -> Mapping[str, int]:
    return rider.ratings


def default_roles(
    riders: Iterable[Rider], *, ratings: Callable[[Rider], Mapping[str, int]] = _live
) -> dict[int, str]:
    """The default roles of a cycling team (docs/league.md "Roles"): the best climber (time
    trial breaks ties) leads; the best sprinter if rated 2 or more sprints; up to two riders of
    baroudeur 1 or more go in breakaways. ``ratings``: a rider's ratings as his league rates
    him (races.ratings), his live ones by default."""
    riders = sorted(riders, key=lambda rider: rider.pk)
    roles = {rider.pk: DOMESTIQUE for rider in riders}
    if not riders:
        return roles
    rated = {rider.pk: ratings(rider) for rider in riders}
    leader = max(
        riders, key=lambda r: (rated[r.pk]["climber"], rated[r.pk]["time_trialist"], -r.pk)
    )
    roles[leader.pk] = GC_LEADER
    others = [r for r in riders if r.pk != leader.pk]
    sprinter = max(others, key=lambda r: (rated[r.pk]["sprinter"], -r.pk), default=None)
    if sprinter is not None and rated[sprinter.pk]["sprinter"] >= 2:
        roles[sprinter.pk] = SPRINTER
    free = [r for r in others if roles[r.pk] == DOMESTIQUE and rated[r.pk]["baroudeur"] >= 1]
    for rider in sorted(free, key=lambda r: (-rated[r.pk]["baroudeur"], r.pk))[:2]:
        roles[rider.pk] = BREAKAWAY
    return roles
