"""The ratings a league races its riders with (docs/league.md "A season keeps its ratings").

A league copy of a race holds a snapshot of its pool's ratings and prices (LeagueRating),
taken when its season's team formation starts; from then on every reader of the league's
riders (prices, the draft board, the team and orders pages, the engine's inputs, the rider
page) asks these functions, never the Rider: an admin's later edit of a rider applies to the
seasons whose formation starts later, unless applied to a running one (ratings_apply). A race
without a snapshot (a real race, a league before its formation) reads the live ratings.

The snapshot's values are plain dicts keyed by rider id: no Rider instance ever carries them,
so none can be saved back over the rider's own ratings.
"""

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction

from races.models import LeagueRating, Race
from races.team_rules import price_of
from riders.models import RATING_AXES, Rider

Ratings = Mapping[str, int]
#: A snapshot as read: {rider id: (ratings, price)}.
Kept = dict[int, tuple[Ratings, int]]


def live_ratings(rider: Rider) -> dict[str, int]:
    return rider.ratings


def _kept(*, race_id: int, rider_ids: Collection[int] | None = None) -> Kept:
    """The race's snapshot, {rider id: (ratings, price)}, in one query; empty when none."""
    rows = LeagueRating.objects.filter(race_id=race_id)
    if rider_ids is not None:
        rows = rows.filter(rider_id__in=list(rider_ids))
    return {
        row["rider_id"]: ({axis: row[axis] for axis in RATING_AXES}, row["price"])
        for row in rows.values("rider_id", "price", *RATING_AXES)
    }


def snapshot_of(*, race_id: int, rider_ids: Collection[int] | None = None) -> dict[int, Ratings]:
    """The race's snapshot, {rider id: ratings}; empty when it holds none."""
    return {
        pk: ratings for pk, (ratings, _price) in _kept(race_id=race_id, rider_ids=rider_ids).items()
    }


def ratings_of(*, race_id: int | None, rider_ids: Collection[int]) -> dict[int, Ratings]:
    """Each rider's ratings as the race races him: its snapshot's, else his live ones (two
    queries at most)."""
    held = snapshot_of(race_id=race_id, rider_ids=rider_ids) if race_id is not None else {}
    missing = [pk for pk in rider_ids if pk not in held]
    if missing:
        for row in Rider.objects.filter(pk__in=missing).values("pk", *RATING_AXES):
            held[row["pk"]] = {axis: row[axis] for axis in RATING_AXES}
    return held


class RatingsBook:
    """The ratings of one league copy's riders, read once on the first question (one query):
    its snapshot's, else the rider's live ones."""

    def __init__(self, race_id: int | None) -> None:
        self.race_id = race_id
        self._held: Kept | None = None

    def _row(self, rider: Rider) -> tuple[Ratings, int] | None:
        if self._held is None:
            self._held = _kept(race_id=self.race_id) if self.race_id is not None else {}
        return self._held.get(rider.pk)

    def of(self, rider: Rider) -> Ratings:
        held = self._row(rider)
        return held[0] if held else live_ratings(rider)

    def price(self, rider: Rider) -> int:
        """The price the snapshot stored, else the live ratings' (races.team_rules)."""
        held = self._row(rider)
        return held[1] if held else price_of(live_ratings(rider))


#: The live ratings, for the readers of a rider outside any league.
LIVE = RatingsBook(None)


def _row(*, race_id: int, rider_id: int, ratings: Ratings) -> LeagueRating:
    return LeagueRating(race_id=race_id, rider_id=rider_id, price=price_of(ratings), **ratings)


def ratings_freeze(*, races: Sequence[Race], riders: Iterable[Rider]) -> int:
    """Give every race of ``races`` (one season's league copies, in calendar order) that holds
    no snapshot yet the season's: for a rider another of them holds, the values of the latest
    one in calendar order that holds him (a race added to a running calendar races with the
    season's ratings); for any other rider, his live ratings. One bulk insert, bounded by the
    pool; the number of rows written."""
    race_ids = [race.pk for race in races]
    held_by = set(
        LeagueRating.objects.filter(race_id__in=race_ids)
        .values_list("race_id", flat=True)
        .distinct()
    )
    bare = [pk for pk in race_ids if pk not in held_by]
    if not bare:
        return 0
    season_values: dict[int, Ratings] = {}
    for race_id in race_ids:
        if race_id in held_by:
            season_values.update(snapshot_of(race_id=race_id))
    pool = {rider.pk: season_values.get(rider.pk) or live_ratings(rider) for rider in riders}
    rows = [
        _row(race_id=race_id, rider_id=rider_id, ratings=ratings)
        for race_id in bare
        for rider_id, ratings in pool.items()
    ]
    LeagueRating.objects.bulk_create(rows, batch_size=500)
    return len(rows)


@dataclass(frozen=True)
class RatingChange:
    """A rider whose live ratings differ from a league's snapshot."""

    rider_id: int
    name: str
    old: Ratings
    new: Ratings

    @property
    def old_price(self) -> int:
        return price_of(self.old)

    @property
    def new_price(self) -> int:
        return price_of(self.new)

    @property
    def axes(self) -> list[tuple[str, int, int]]:
        """(axis, old, new) for each axis that changes."""
        return [(a, self.old[a], self.new[a]) for a in RATING_AXES if self.old[a] != self.new[a]]


def rating_changes(*, race_id: int, riders: Iterable[Rider]) -> list[RatingChange]:
    """The riders among ``riders`` whose live ratings differ from the race's snapshot (none for
    a race without one: it reads the live ratings already)."""
    riders = list(riders)
    held = snapshot_of(race_id=race_id, rider_ids=[r.pk for r in riders])
    changes = []
    for rider in sorted(riders, key=lambda r: (r.name, r.pk)):
        old = held.get(rider.pk)
        new = live_ratings(rider)
        if old is not None and dict(old) != new:
            changes.append(RatingChange(rider_id=rider.pk, name=rider.name, old=old, new=new))
    return changes


def ratings_apply(*, race_ids: Collection[int], riders: Iterable[Rider]) -> int:
    """Bring the snapshots of these races up to the riders' live ratings (the riders they
    hold; an admin's explicit choice, docs/league.md "A season keeps its ratings"). The
    number of rows changed."""
    live = {rider.pk: live_ratings(rider) for rider in riders}
    with transaction.atomic():
        rows = list(
            LeagueRating.objects.select_for_update().filter(
                race_id__in=list(race_ids), rider_id__in=list(live)
            )
        )
        for row in rows:
            for axis, value in live[row.rider_id].items():
                setattr(row, axis, value)
            row.price = price_of(live[row.rider_id])
        LeagueRating.objects.bulk_update(rows, [*RATING_AXES, "price"], batch_size=500)
    return len(rows)


__all__ = [
    "LIVE",
    "RatingChange",
    "Ratings",
    "RatingsBook",
    "live_ratings",
    "rating_changes",
    "ratings_apply",
    "ratings_freeze",
    "ratings_of",
    "snapshot_of",
]
