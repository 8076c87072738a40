"""A league's own copy of a real championship (docs/league.md "Motor seasons"): its entries and
one Grand Prix per real one, each on a track of the league's game, raced over the game's laps.

The rows of the real championship are never changed by a league; the motor adapter's league
members (motor.adapters.base.MotorAdapter.league_*) call these for the season layer.
"""

from collections.abc import Callable, Iterable

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from motor.models import Championship, ChampionshipKind, Entry, GrandPrix, PointsSystem, Track
from motor.signals import track_version_applied
from motor.track_files import circuit_track_slugs, track_latest


def league_championship_slug(*, slug: str, championship: Championship) -> str:
    return f"{slug}-{championship.slug}"[:80]


def real_championships() -> QuerySet[Championship]:
    """The championships a league can copy: the real ones, newest first."""
    return Championship.objects.filter(kind=ChampionshipKind.REAL).order_by("-year", "name")


def track_for(grand_prix: GrandPrix, *, game: str) -> Track | None:
    """The track a new league of ``game`` races this Grand Prix on: the latest version of the
    Grand Prix's own track if it is of the game (an admin's edit reaches new leagues), else
    the latest version of the game's track for its circuit (the circuit id, or the shipped
    approximation of it: an imported real season finds the 1981 tracks).

    A league's copy keeps the version it was made with (docs/grandprix.md "Editing a track")."""
    own = grand_prix.track
    slugs = [own.slug] if own is not None and own.game == game else []
    slugs += circuit_track_slugs(grand_prix.circuit_slug)
    if own is not None and own.game != game:
        slugs.append(own.slug)
    return track_latest(slugs=list(dict.fromkeys(slugs)), game=game)


def championship_problems(championship: Championship, *, game: str) -> list[str]:
    """Why a league of ``game`` cannot race this championship: no Grand Prix, or a Grand Prix
    without a track of the game (each named). Empty: it can."""
    sources = list(championship.grands_prix.select_related("track").order_by("round"))
    if not sources:
        return [_("The championship has no Grand Prix.")]
    return [
        _("Round %(round)s, %(name)s: no %(game)s track for %(circuit)s.")
        % {"round": gp.round, "name": gp.name, "game": game, "circuit": gp.circuit}
        for gp in sources
        if track_for(gp, game=game) is None
    ]


def championship_copy_for_league(
    *,
    championship: Championship,
    slug: str,
    name: str,
    game: str,
    laps: Callable[[Track], int],
    points_system: PointsSystem | None = None,
) -> Championship:
    """The league's championship (kind league, copied from ``championship``, scored by
    ``points_system``, else the real one's): the same entries, and one Grand Prix per real one
    on the game's track for it, over ``laps(track)`` laps. The caller checked
    ``championship_problems`` and holds the transaction."""
    copy = Championship.objects.create(
        slug=league_championship_slug(slug=slug, championship=championship),
        name=name,
        year=championship.year,
        kind=ChampionshipKind.LEAGUE,
        points_system=points_system or championship.points_system,
        copied_from=championship,
    )
    Entry.objects.bulk_create(
        Entry(
            championship=copy,
            driver_id=entry.driver_id,
            constructor_id=entry.constructor_id,
            engine=entry.engine,
            number=entry.number,
        )
        for entry in championship.entries.order_by("pk")
    )
    grands_prix = []
    for gp in championship.grands_prix.select_related("track").order_by("round"):
        track = track_for(gp, game=game)
        if track is None:
            raise ValueError(f"{gp.name}: no {game} track for {gp.circuit}")
        grands_prix.append(
            GrandPrix(
                championship=copy,
                round=gp.round,
                name=gp.name,
                official_name=gp.official_name,
                date=gp.date,
                circuit=gp.circuit,
                circuit_slug=gp.circuit_slug,
                country=gp.country,
                track=track,
                laps=laps(track),
                lap_km=gp.lap_km,
            )
        )
    GrandPrix.objects.bulk_create(grands_prix)
    return copy


def track_unraced_elsewhere(track: Track) -> QuerySet[GrandPrix]:
    """The leagues' Grands Prix not raced yet (no result) on another version of ``track``:
    those an admin may move to it (docs/grandprix.md "Editing a track")."""
    return (
        GrandPrix.objects.filter(
            championship__kind=ChampionshipKind.LEAGUE,
            track__slug=track.slug,
            track__game=track.game,
            results__isnull=True,
        )
        .exclude(track=track)
        .select_related("championship", "track")
        .order_by("championship__name", "round")
    )


def track_version_apply(
    *, track: Track, grand_prix_ids: Iterable[int], by: object | None = None
) -> int:
    """Move the Grands Prix the admin confirmed to ``track`` (a version of theirs), those
    still unraced; the number moved. A Grand Prix raced since the confirmation stays. The
    leagues are told (motor.signals.track_version_applied) in the same transaction."""
    with transaction.atomic():
        # Lock the rows, then ask again which are unraced: one raced since the admin's
        # confirmation has results now and stays on its version.
        locked = list(
            GrandPrix.objects.select_for_update()
            .filter(pk__in=list(grand_prix_ids))
            .values_list("pk", flat=True)
        )
        ids = list(
            track_unraced_elsewhere(track).filter(pk__in=locked).values_list("pk", flat=True)
        )
        moved = GrandPrix.objects.filter(pk__in=ids).update(track=track)
        if moved:
            events = list(GrandPrix.objects.filter(pk__in=ids).order_by("pk"))
            track_version_applied.send(sender=Track, track=track, events=events, by=by)
        return moved


def grand_prix_laps_update(
    grands_prix: Iterable[GrandPrix], *, laps: Callable[[Track], int]
) -> int:
    """The laps of these Grands Prix (those a league has not raced yet) from ``laps(track)``;
    the number changed."""
    changed = []
    for gp in grands_prix:
        if gp.track is None:
            continue
        wanted = laps(gp.track)
        if gp.laps != wanted:
            gp.laps = wanted
            changed.append(gp)
    GrandPrix.objects.bulk_update(changed, ["laps"])
    return len(changed)
