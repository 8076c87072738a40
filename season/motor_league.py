"""Motor seasons (issue 15 item 5): a season created from a championship, teams of two cars
picked from its entries (a draft in turns or picks within a budget, as cycling teams are
formed), computer teams on the empty seats of the grid (docs/league.md "Motor seasons").

The rules that cycling formation already has are reused (the snake order of a draft, the
lock on the season row for every step); what differs is the pickable: an entry of the
league's championship (a driver in a constructor's car) instead of a rider. Nothing here names
a ruleset: the adapter gives the game's grid, laps and track files.
"""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from motor.models import Championship, ChampionshipKind, Entry, GrandPrix, PointsSystem, Track
from plugins import MOTOR, adapter_for, discipline_of
from season.leagues import (
    LeagueError,
    SeasonSettings,
    _model_fields,
    first_deadline_check,
    stage_deadlines,
)
from season.models import (
    CARS_PER_TEAM,
    DONE_STATUSES,
    Membership,
    Round,
    Season,
)


def motor_adapter(ruleset: str) -> Any:
    """The adapter of a motor ruleset; LeagueError for a cycling one."""
    adapter = adapter_for(ruleset)
    if discipline_of(adapter) != MOTOR:
        raise LeagueError(
            _("%(ruleset)s is not a motor racing ruleset.") % {"ruleset": adapter.label}
        )
    return adapter


def league_championship_slug(*, slug: str, championship: Championship) -> str:
    return f"{slug}-{championship.slug}"[:80]


def _track_for(grand_prix: GrandPrix, *, game: str) -> Track | None:
    """The Grand Prix's own track if it is of the game, else the latest version of a track of
    the game for its circuit (the track's slug is the circuit id)."""
    if grand_prix.track is not None and grand_prix.track.game == game:
        return grand_prix.track
    slugs = [s for s in (grand_prix.circuit_slug, grand_prix.track and grand_prix.track.slug) if s]
    return Track.objects.filter(game=game, slug__in=slugs).order_by("-version").first()


def season_create_from_championship(
    *,
    organiser: Any,
    slug: str,
    championship: Championship,
    settings: SeasonSettings,
    points_system: PointsSystem,
    first_deadline: datetime,
    hours_between: int,
    laps: int | None = None,
) -> Season:
    """A new motor season on a copy of ``championship``: a league championship (kind league,
    copied from it, scored by ``points_system``) with its entries and one Grand Prix per real
    one, each on a track of the ruleset's game and raced over the game's laps (``laps``, else
    the season's laps setting, else the track file's); one round per Grand Prix with its
    deadline; the creator organises it. A Grand Prix without a track of the game is refused
    before anything is written (LeagueError naming it)."""
    adapter = motor_adapter(settings.ruleset)
    first_deadline_check(first_deadline)
    sources = list(championship.grands_prix.select_related("track").order_by("round"))
    if not sources:
        raise LeagueError(_("The championship has no Grand Prix."))
    values = adapter.season_values(settings.rule_settings)
    tracks = {gp.pk: _track_for(gp, game=adapter.game) for gp in sources}
    missing = [gp for gp in sources if tracks[gp.pk] is None]
    if missing:
        raise LeagueError(
            " ".join(
                _("Round %(round)s, %(name)s: no %(game)s track for %(circuit)s.")
                % {"round": gp.round, "name": gp.name, "game": adapter.game, "circuit": gp.circuit}
                for gp in missing
            )
        )
    deadlines = stage_deadlines(
        first=first_deadline, hours_between=hours_between, count=len(sources)
    )
    with transaction.atomic():
        copy = Championship.objects.create(
            slug=league_championship_slug(slug=slug, championship=championship),
            name=settings.name,
            year=championship.year,
            kind=ChampionshipKind.LEAGUE,
            points_system=points_system,
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
        for gp in sources:
            track = tracks[gp.pk]
            assert track is not None
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
                    laps=laps or adapter.game_laps(track=track, values=values),
                    lap_km=gp.lap_km,
                )
            )
        GrandPrix.objects.bulk_create(grands_prix)
        fields = _model_fields(settings) | {"roster_size": CARS_PER_TEAM}
        season = Season(slug=slug, organiser=organiser, championship=copy, **fields)
        season.full_clean()
        season.save()
        Round.objects.bulk_create(
            Round(season=season, grand_prix=gp, number=index, orders_deadline=deadline)
            for index, (gp, deadline) in enumerate(
                zip(
                    GrandPrix.objects.filter(championship=copy).order_by("round"),
                    deadlines,
                    strict=True,
                ),
                start=1,
            )
        )
        Membership.objects.create(season=season, user=organiser, role=Membership.Role.ORGANISER)
    return season


def grand_prix_laps_update(*, season: Season) -> int:
    """After the organiser changed the game's settings: the laps of every Grand Prix not yet
    raced, from the ``laps`` setting (else each track file's); the number of Grands Prix
    changed."""
    adapter = motor_adapter(season.ruleset)
    values = adapter.season_values(season.rules)
    changed = []
    rounds = season.rounds.exclude(status__in=DONE_STATUSES).select_related("grand_prix__track")
    for round in rounds:
        gp = round.grand_prix
        if gp is None or gp.track is None:
            continue
        laps = adapter.game_laps(track=gp.track, values=values)
        if gp.laps != laps:
            gp.laps = laps
            changed.append(gp)
    GrandPrix.objects.bulk_update(changed, ["laps"])
    return len(changed)
