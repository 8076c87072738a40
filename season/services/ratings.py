"""An admin's edit of riders' ratings applied to the seasons already running (docs/league.md
"A season keeps its ratings").

A season keeps the ratings and prices its riders had when its team formation started (the
league copies' snapshots, races.ratings). An edit reaches a running season only when an admin
applies it: from the season's first round not yet resolved on (the events of the calendar
still to race), with an entry in the season's history that its players read on its page.
Rounds already resolved keep their stored inputs, so their replays stay identical.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from races.models import LeagueRating
from races.ratings import RatingChange, rating_changes, ratings_apply
from riders.charts import radar_labels
from riders.models import Rating, Rider
from season.cache import season_changed
from season.models import HistoryEntry, Season, SeasonEvent
from season.rated import rated_forget


@dataclass(frozen=True)
class SeasonRatingsChange:
    """What applying the riders' live ratings would change in one running season."""

    season: Season
    #: The season's first round not yet resolved: the change applies from it on.
    from_round: int
    #: The events still to race (their league copies' snapshots change).
    events: list[SeasonEvent]
    changes: list[RatingChange]


def running_changes(*, riders: Iterable[Rider]) -> list[SeasonRatingsChange]:
    """The running seasons (formation started, a round not yet resolved) whose ratings of any
    of ``riders`` differ from the riders' live ones, by season name; a finished season keeps
    its ratings for good."""
    riders = list(riders)
    race_ids = LeagueRating.objects.filter(rider__in=riders).values("race_id")
    seasons = Season.objects.filter(
        pk__in=SeasonEvent.objects.filter(race_id__in=race_ids).values("season_id")
    )
    found = []
    for season in seasons.order_by("name", "pk"):
        pending = [item for item in season.calendar() if item.first_pending is not None]
        if not pending:
            continue
        changes = rating_changes(race_id=pending[0].event.pk, riders=riders)
        if changes:
            found.append(
                SeasonRatingsChange(
                    season=season,
                    from_round=int(pending[0].first_pending or 1),
                    events=pending,
                    changes=changes,
                )
            )
    return found


def ratings_apply_running(
    *, riders: Iterable[Rider], season_ids: Iterable[int], by: Any = None
) -> list[HistoryEntry]:
    """Apply the riders' live ratings to these running seasons (what running_changes
    finds, read under the seasons' locks): their snapshots of the events still to race
    change, and each season's history says so. All or nothing."""
    riders = list(riders)
    entries = []
    with transaction.atomic():
        # The seasons' locks first (those of every formation step and round transition), in
        # one order; then what differs, read under them.
        chosen = set(
            Season.objects.select_for_update()
            .filter(pk__in=list(season_ids))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        for found in running_changes(riders=riders):
            if found.season.pk not in chosen:
                continue
            season = found.season
            ratings_apply(
                race_ids=[item.event.pk for item in found.events],
                riders=[r for r in riders if r.pk in {c.rider_id for c in found.changes}],
            )
            entries.append(
                HistoryEntry.objects.create(
                    season=season,
                    kind=HistoryEntry.Kind.RATINGS,
                    from_round=found.from_round,
                    params={
                        "riders": [
                            {
                                "name": change.name,
                                "old_price": change.old_price,
                                "new_price": change.new_price,
                                "axes": [list(axis) for axis in change.axes],
                            }
                            for change in found.changes
                        ]
                    },
                    by=by if getattr(by, "pk", None) else None,
                )
            )
            rated_forget(season)
            season_changed(season)
    return entries


@dataclass(frozen=True)
class HistoryRow:
    """One entry of a season's history, in the reader's language."""

    entry: HistoryEntry
    text: str
    lines: list[str]


def _rating(value: int) -> str:
    return str(Rating(int(value)).label)


def _track_row(entry: HistoryEntry) -> HistoryRow:
    """An admin moved the season's unraced Grands Prix to a track's new version."""
    text = _(
        "An admin changed the track of these Grands Prix, from round %(round)s on, to "
        "%(track)s, version %(version)s (the rounds raced before keep theirs):"
    ) % {
        "round": entry.from_round,
        "track": entry.params.get("track", ""),
        "version": entry.params.get("version", ""),
    }
    return HistoryRow(entry=entry, text=text, lines=list(entry.params.get("grands_prix", [])))


def history_rows(*, season: Season) -> list[HistoryRow]:
    """The season's history, the latest first (one query)."""
    labels = radar_labels()
    rows = []
    for entry in HistoryEntry.objects.filter(season=season):
        if entry.kind == HistoryEntry.Kind.TRACK:
            rows.append(_track_row(entry))
            continue
        riders = entry.params.get("riders", [])
        text = _(
            "An admin applied new ratings to this season from round %(round)s on (the rounds "
            "before keep the ratings they raced with):"
        ) % {"round": entry.from_round}
        lines = [
            _("%(rider)s: price %(old)s → %(new)s (%(axes)s)")
            % {
                "rider": rider["name"],
                "old": rider["old_price"],
                "new": rider["new_price"],
                "axes": ", ".join(
                    f"{labels.get(axis, axis)} {_rating(old)} → {_rating(new)}"
                    for axis, old, new in rider.get("axes", [])
                ),
            }
            for rider in riders
        ]
        rows.append(HistoryRow(entry=entry, text=text, lines=lines))
    return rows
