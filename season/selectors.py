"""Reads for the league's pages: each function is a fixed, small number of queries."""

from collections.abc import Sequence
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from plugins import Starter, adapter_for
from races.league.jerseys import JERSEYS as JERSEYS
from races.league.jerseys import Jersey as Jersey
from races.league.jerseys import jersey_holders as race_jersey_holders
from races.models import Classification, RaceEvent, StageResult, Standing
from riders.models import Rider
from season.models import DONE_STATUSES, Round, Season, SeasonEvent, SeasonTeam, Seat, Selection


def season_list_public() -> QuerySet[Season]:
    return (
        Season.objects.filter(is_public=True)
        .select_related("organiser")
        .annotate(
            team_count=Count("teams", distinct=True), stage_count=Count("rounds", distinct=True)
        )
        .order_by("-created_at")
    )


def season_visible_get(*, slug: str, user: object) -> Season:
    """The season, if this user may read it (public, or organiser or member); 404 otherwise."""
    season = Season.objects.select_related("organiser").filter(slug=slug).first()
    if season is None or not user.has_perm("season.view_season", season):  # type: ignore[attr-defined]
        raise Http404(_("No such season."))
    return season


def season_team_names(*, season: Season) -> dict[int, str]:
    return dict(season.teams.values_list("pk", "name"))


def season_calendar(*, season: Season) -> list[Round]:
    return list(season.rounds.select_related("stage").order_by("number"))


def last_resolved_number(*, season: Season) -> int | None:
    stage = season.rounds.filter(status__in=DONE_STATUSES).order_by("-number").first()
    return stage.number if stage else None


def stage_of(*, season: Season, number: int) -> tuple[int, int]:
    """The stage race and the stage number that round ``number`` of the season races (a
    round's number runs on across the calendar; a stage's restarts with each race): (0, 0)
    for a round that races no stage. Round 0 of a season whose first race was forked after
    stage N is that stage: the real state the league starts from."""
    if number == 0:
        given = (
            season.rounds.filter(number=1, stage__race__start_after__gt=0)
            .values_list("stage__race_id", "stage__race__start_after")
            .first()
        )
        return (int(given[0]), int(given[1])) if given else (0, 0)
    row = season.rounds.filter(number=number).values_list("stage__race_id", "stage__number").first()
    if row is None or row[0] is None:
        return 0, 0
    return int(row[0]), int(row[1])


def standings_queryset(*, season: Season, number: int, classification: str) -> QuerySet[Standing]:
    race_id, stage_number = stage_of(season=season, number=number)
    return (
        Standing.objects.filter(
            stage__race_id=race_id, stage__number=stage_number, classification=classification
        )
        .select_related("rider", "team")
        .order_by("rank")
    )


def standings_places_before(*, season: Season, number: int, classification: str) -> dict:
    """Each line's place after the stage before round ``number``'s (by rider, or by team in the
    Teams classification): what the GC page compares to show the places gained or lost. Empty
    after a race's first stage."""
    race_id, stage_number = stage_of(season=season, number=number)
    if stage_number <= 1:
        return {}
    rows = Standing.objects.filter(
        stage__race_id=race_id, stage__number=stage_number - 1, classification=classification
    )
    key = "entry_team_id" if classification == Classification.TEAMS else "rider_id"
    return dict(rows.values_list(key, "rank"))


def standings_table(
    *, season: Season, number: int, classification: str, limit: int | None = None
) -> list[Standing]:
    rows = standings_queryset(season=season, number=number, classification=classification)
    return list(rows[:limit] if limit else rows)


def jersey_holders(
    *, season: Season, number: int, team_names: dict[int, str] | None = None
) -> list[Jersey]:
    """The leader of each classification after stage `number` (one query; one more for the
    team names unless the caller has them)."""
    race_id, stage_number = stage_of(season=season, number=number)
    return race_jersey_holders(
        race_id=race_id,
        number=stage_number,
        team_names=lambda: season_team_names(season=season) if team_names is None else team_names,
    )


def gc_evolution(
    *, season: Season, number: int, top: int = 10
) -> tuple[list[tuple[str, list[int | None]]], list[int]]:
    """Gaps of the GC's top `top` after round `number`, after every stage of its race up to it
    (3 queries)."""
    leaders = list(
        standings_queryset(season=season, number=number, classification=Classification.GENERAL)[
            :top
        ]
    )
    race_id, stage_number = stage_of(season=season, number=number)
    numbers = list(range(1, stage_number + 1))
    # General classification lines always name a rider.
    gaps: dict[int, list[int | None]] = {
        s.rider_id: [None] * len(numbers) for s in leaders if s.rider_id is not None
    }
    for rider_id, number_of_stage, gap in Standing.objects.filter(
        stage__race_id=race_id,
        classification=Classification.GENERAL,
        stage__number__lte=stage_number,
        rider_id__in=list(gaps),
    ).values_list("rider_id", "stage__number", "gap"):
        gaps[rider_id][number_of_stage - 1] = gap
    return [
        (s.rider.name, gaps[s.rider_id]) for s in leaders if s.rider and s.rider_id is not None
    ], numbers


def stage_results(*, round: Round) -> QuerySet[StageResult]:
    return (
        StageResult.objects.filter(stage_id=round.stage_pk).select_related("rider").order_by("rank")
    )


def stage_events(*, round: Round) -> list[RaceEvent]:
    return list(
        RaceEvent.objects.filter(stage_id=round.stage_pk)
        .exclude(kind=RaceEvent.Kind.ATTACK)
        .order_by("seq")
    )


def rider_names(*, season: Season) -> dict[int, str]:
    return dict(Seat.objects.filter(season=season).values_list("rider_id", "rider__name"))


def season_rider_get(*, season: Season, rider_id: int) -> Seat:
    member = (
        Seat.objects.filter(season=season, rider_id=rider_id)
        .select_related("rider", "team", "rider__team")
        .first()
    )
    if member is None:
        raise Http404(_("This rider does not ride in this season."))
    return member


def rider_results(*, season: Season, rider: Rider) -> list[StageResult]:
    return list(
        StageResult.objects.filter(stage__round__season=season, rider=rider)
        .select_related("stage", "stage__round")
        .order_by("stage__round__number")
    )


def season_team_get(*, season: Season, team_id: int) -> SeasonTeam:
    team = (
        SeasonTeam.objects.filter(season=season, pk=team_id)
        .select_related("owner")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("rider").order_by("number", "pk"),
            )
        )
        .first()
    )
    if team is None:
        raise Http404(_("No such team in this season."))
    return team


def latest_general(*, season: Season) -> dict[int, Standing]:
    number = last_resolved_number(season=season)
    if number is None:
        return {}
    return {
        s.rider_id: s
        for s in standings_queryset(
            season=season, number=number, classification=Classification.GENERAL
        )
        if s.rider_id is not None
    }


def team_of_user(*, season: Season, user: object) -> SeasonTeam | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return season.teams.filter(owner_id=user.pk).first()  # type: ignore[attr-defined]


# --- who starts a round ---------------------------------------------------------------


def team_cars(*, team: SeasonTeam) -> list[Seat]:
    """A team's seats as the motor pages list cars: car 1 then car 2, with their drivers and
    constructors."""
    return list(team.seats.select_related("entry__driver", "entry__constructor").order_by("slot"))


def _starter(seat: Seat, game: Any) -> Starter:
    competitor_id = getattr(seat, f"{game.seat_field}_id")
    return Starter(
        team_id=seat.team_id,
        team=seat.team.name,
        competitor_id=competitor_id,
        key=game.seat_key(competitor_id=competitor_id, number=seat.number),
        number=seat.number or seat.pk,
        role=seat.role if game.seat_roles else "",
        name=seat.name,
    )


def squad_default(*, squad: list[Seat], count: int, game: Any) -> list[Seat]:
    """The default selection of ``count`` seats of one team's ``squad`` (in the game's start
    order): the game's selection order (docs/league.md "Squads and selections"), returned in
    the squad's order."""
    order = game.selection_order(
        [getattr(seat, game.seat_field) for seat in squad], [seat.role for seat in squad]
    )
    chosen = {squad[i].pk for i in order[:count]}
    return [seat for seat in squad if seat.pk in chosen]


def seats_starting(*, item: SeasonEvent, seats: list[Seat], game: Any) -> list[Seat]:
    """Those of ``seats`` (one team's or several teams', in the game's start order) that start
    the event ``item``: every seat when the event starts whole squads (``starters`` None, or
    a squad no larger); else each team's stored selection, or its default selection when it
    has none yet (one query). The one filter of who starts an event's rounds."""
    limit = item.starters
    squads: dict[int, list[Seat]] = {}
    for seat in seats:
        squads.setdefault(seat.team_id, []).append(seat)
    if limit is None or all(len(squad) <= limit for squad in squads.values()):
        return seats
    stored: dict[int, set[int]] = {}
    for team_id, seat_id in Selection.objects.filter(
        season_event=item, team_id__in=list(squads)
    ).values_list("team_id", "seat_id"):
        stored.setdefault(team_id, set()).add(seat_id)
    keep: set[int] = set()
    game = game.rated_for(item.event)
    for team_id, squad in squads.items():
        if len(squad) <= limit:
            keep.update(seat.pk for seat in squad)
        elif team_id in stored:
            keep.update(stored[team_id])
        else:
            keep.update(seat.pk for seat in squad_default(squad=squad, count=limit, game=game))
    return [seat for seat in seats if seat.pk in keep]


def season_seats(
    *, season: Season, team: SeasonTeam | None = None, round: Round | None = None
) -> list[Starter]:
    """Every seat of the season's teams (of ``team`` only, when given) as plain starters
    without orders, in the game's start order (riders by bib; cars team by team in draft
    order, car 1 then car 2); for a ``round``, those that start its event (seats_starting).
    The one read of the squads that the rounds make (resolution, orders, odds)."""
    game = adapter_for(season.ruleset)
    query = Seat.objects.filter(season=season).select_related("team", "rider", "entry__driver")
    if team is not None:
        query = query.filter(team=team)
    seats = list(query.order_by(*game.seat_order))
    if round is not None:
        seats = seats_starting(item=round.season_event, seats=seats, game=game)
    return [_starter(seat, game) for seat in seats]


def team_starters(*, team: SeasonTeam, round: Round) -> list[Seat]:
    """A team's seats still racing in ``round``: those starting its event (seats_starting)
    that the game says still race (a cycling abandon is out for the rest of his race, a car
    races again), in the game's start order, with what the orders page shows
    of them (the rider; the car's driver and constructor)."""
    game = adapter_for(team.season.ruleset)
    seats = seats_starting(
        item=round.season_event,
        seats=list(
            team.seats.select_related(
                "team", "rider", "entry__driver", "entry__constructor"
            ).order_by(*game.seat_order)
        ),
        game=game,
    )
    racing = {
        s.key
        for s in game.starters_racing(
            event=game.round_event(round), starters=[_starter(seat, game) for seat in seats]
        )
    }
    return [seat for seat in seats if _starter(seat, game).key in racing]


def seats_by_team(*, season: Season) -> dict[int, list[Seat]]:
    """Every team's seats, by team id: its riders (by bib) or its cars (by slot), with what the
    pages show of them (the rider; the car's driver and constructor) and the team. The one read
    of a season's seats for the public pages."""
    seats: dict[int, list[Seat]] = {}
    for seat in season.seats.select_related(
        "rider", "entry__driver", "entry__constructor", "team"
    ).order_by("team", "slot", "number", "pk"):
        seats.setdefault(seat.team_id, []).append(seat)
    return seats


def team_seats(*, team: SeasonTeam) -> list[Seat]:
    """A team's seats: its riders (by bib) or its cars (by slot). The one read of a team's
    seats for its public page."""
    return list(
        team.seats.select_related("rider", "entry__driver", "entry__constructor").order_by(
            "slot", "number", "pk"
        )
    )


def season_rounds(*, season: Season) -> list[Round]:
    """The season's rounds in order, each with its stage or its Grand Prix and its track: the
    calendar of the season page, whatever its game."""
    rounds = list(
        season.rounds.select_related(
            "stage",
            "grand_prix__track",
            "season_event__race__template",
            "season_event__championship__copied_from",
            "season_event__championship__points_system",
        ).order_by("number")
    )
    season.calendar_from_rounds(rounds)
    return rounds


def event_last(item: Any, *, rounds: Sequence[Round], last: int | None) -> int | None:
    """The latest of the event ``item``'s ``rounds`` up to the season's round ``last`` (the
    latest this visitor may see); None when the visitor sees none of the event yet (it has not
    begun). The adapters' event parts find that round's stage or Grand Prix among ``rounds``."""
    if not last:
        return None
    return max(
        (r.number for r in rounds if r.season_event_id == item.pk and r.number <= last),
        default=None,
    )
