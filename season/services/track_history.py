"""A track's new version applied to leagues' unraced Grands Prix (motor.league_copy.
track_version_apply, an admin's explicit choice: docs/grandprix.md "Editing a track"): each
season racing one of them gets an entry in its history, read by its players on its page, and
its cached pages are dropped so they draw the new map."""

from collections import defaultdict
from typing import Any

from season.cache import season_changed
from season.models import HistoryEntry, Round, Season


def track_history_write(
    *, track: Any, grand_prix_ids: list[int], by: Any = None, **_signal: Any
) -> list[HistoryEntry]:
    """One history entry per season whose rounds race the Grands Prix moved to ``track``."""
    rounds = (
        Round.objects.filter(grand_prix_id__in=grand_prix_ids)
        .select_related("grand_prix")
        .order_by("season_id", "number")
    )
    by_season: defaultdict[int, list[Round]] = defaultdict(list)
    for round_ in rounds:
        by_season[round_.season_id].append(round_)
    entries = HistoryEntry.objects.bulk_create(
        HistoryEntry(
            season_id=season_id,
            kind=HistoryEntry.Kind.TRACK,
            from_round=moved[0].number,
            params={
                "track": track.name,
                "version": track.version,
                "grands_prix": [r.grand_prix.name for r in moved],  # type: ignore[union-attr]
            },
            by=by if getattr(by, "pk", None) else None,
        )
        for season_id, moved in by_season.items()
    )
    for season in Season.objects.filter(pk__in=list(by_season)):
        season_changed(season)
    return entries
