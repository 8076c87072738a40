"""A track's new version applied to leagues' unraced Grands Prix (motor.league_copy.
track_version_apply, an admin's explicit choice: docs/grandprix.md "Editing a track"): each
season racing one of them gets an entry in its history, read by its players on its page, and
its cached pages are dropped so they draw the new map."""

from collections import defaultdict
from typing import Any

from season.cache import season_changed
from season.models import HistoryEntry, Round, Season


def rounds_racing(events: list[Any]) -> Any:
    """The rounds that race these events (of one kind): the round's one-to-one field to their
    model, whichever game it is."""
    if not events:
        return Round.objects.none()
    model = type(events[0])
    field = next(
        f.name
        for f in Round._meta.get_fields()
        if getattr(f, "one_to_one", False) and f.related_model is model
    )
    return Round.objects.filter(**{f"{field}__in": events}).select_related(field)


def track_history_write(
    *, track: Any, events: list[Any], by: Any = None, **_signal: Any
) -> list[HistoryEntry]:
    """One history entry per season whose rounds race the events moved to ``track``."""
    rounds = rounds_racing(events).order_by("season_id", "number")
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
                "grands_prix": [str(getattr(r.event, "name", r.event)) for r in moved],
            },
            by=by if getattr(by, "pk", None) else None,
        )
        for season_id, moved in by_season.items()
    )
    for season in Season.objects.filter(pk__in=list(by_season)):
        season_changed(season)
    return entries
