"""Motor seasons (issue 15 item 5): a season created from a championship, teams of two cars
picked from its entries (a draft in turns or picks within a budget, as cycling teams are
formed), computer teams on the empty seats of the grid (docs/league.md "Motor seasons").

The rules that cycling formation already has are reused (the snake order of a draft, the
lock on the season row for every step); what differs is the pickable: an entry of the
league's championship (a driver in a constructor's car) instead of a rider. Nothing here names
a ruleset: the adapter gives the game's grid, laps and track files.
"""

import random
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from motor.models import Championship, ChampionshipKind, Entry, GrandPrix, PointsSystem, Track
from plugins import MOTOR, adapter_for, discipline_of
from season.formation import (
    DraftStatus,
    FormationError,
    draft_status_of,
    round_one_open,
)
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
    GRID_MAX,
    DraftPick,
    Membership,
    PickSource,
    Round,
    Season,
    SeasonTeam,
    Seat,
)

#: The name of a computer team whose constructor's name a player already took (as cycling).
TAKEN_NAME = "{name} (computer)"
#: A car's price: this, plus the points its driver scored in the real championship.
CAR_PRICE_BASE = 5


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


# --- the pool and prices ----------------------------------------------------------------


def car_price(entry: Entry) -> int:
    """CAR_PRICE_BASE plus the points the driver scored for this constructor in the real
    championship the league copied (its results; 0 without)."""
    source = entry.championship.copied_from_id
    points = Decimal(0)
    if source is not None:
        points = Entry.objects.filter(
            championship_id=source,
            driver_id=entry.driver_id,
            constructor_id=entry.constructor_id,
        ).aggregate(points=Sum("results__points"))["points"] or Decimal(0)
    return CAR_PRICE_BASE + int(points)


def car_pool(*, season: Season) -> QuerySet[Entry]:
    """The entries of the league's championship, in constructor and car-number order."""
    return Entry.objects.filter(championship=season.championship).select_related(
        "driver", "constructor"
    )


def free_entries(*, season: Season) -> list[Entry]:
    """Entries no team drives yet, and whose driver drives no car of the season."""
    taken = Seat.objects.filter(season=season).select_related("entry")
    entries = {car.entry_id for car in taken}
    drivers = {car.entry.driver_id for car in taken}
    return [
        e for e in car_pool(season=season) if e.pk not in entries and e.driver_id not in drivers
    ]


def car_draft_status(*, season: Season) -> DraftStatus:
    """Where a draft of cars stands, in the shape of cycling's (season.formation.DraftStatus):
    the same pick clock times both (season.services.draft_clock)."""
    order = list(
        season.teams.filter(owner__isnull=False, draft_position__isnull=False).order_by(
            "draft_position"
        )
    )
    return draft_status_of(
        season=season,
        order=order,
        # The cars seated count the picks (a draft begun before picks were DraftPick rows).
        picks_made=Seat.objects.filter(season=season, team__owner__isnull=False).count(),
        picks_total=len(order) * CARS_PER_TEAM,
        last_pick_at=season.draft_picks.order_by("-number")
        .values_list("picked_at", flat=True)
        .first(),
    )


def _lock(season: Season) -> Season:
    # Every formation step runs under this row lock, as cycling formation does.
    return Season.objects.select_for_update().get(pk=season.pk)


def car_draft_start(*, season: Season, rng: random.Random | None = None) -> list[SeasonTeam]:
    """Draw the draft order of the players' teams at random and start the draft."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        locked = _lock(season)
        if locked.formation_mode != Season.FormationMode.DRAFT:
            raise FormationError(_("This season forms its teams with a budget, not a draft."))
        if locked.draft_started_at is not None:
            raise FormationError(_("The draft has already started."))
        teams = list(locked.teams.filter(owner__isnull=False).order_by("pk"))
        if not teams:
            raise FormationError(_("No team has joined yet."))
        if len(teams) * CARS_PER_TEAM > GRID_MAX:
            raise FormationError(_("Too many teams for the grid."))
        rng.shuffle(teams)
        for position, team in enumerate(teams, start=1):
            team.draft_position = position
        SeasonTeam.objects.bulk_update(teams, ["draft_position"])
        locked.draft_started_at = timezone.now()
        locked.save(update_fields=["draft_started_at"])
    return teams


def _seat_car(season: Season, team: SeasonTeam, entry: Entry) -> Seat:
    cars = list(Seat.objects.filter(season=season))
    slots = {c.slot for c in cars if c.team_id == team.pk}
    seats = {c.grid for c in cars}
    numbers = {c.number for c in cars}
    number = entry.number if entry.number and entry.number not in numbers else None
    if number is None:
        number = next(n for n in range(1, 100) if n not in numbers)
    return Seat.objects.create(
        season=season,
        team=team,
        entry=entry,
        slot=next(s for s in range(1, CARS_PER_TEAM + 1) if s not in slots),
        grid=next(s for s in range(1, GRID_MAX + 1) if s not in seats),
        number=number,
    )


def _pick_check(season: Season, team: SeasonTeam, entry: Entry) -> None:
    if team.season_id != season.pk or team.owner_id is None:
        raise FormationError(_("This team does not pick in this season."))
    if season.rounds.exclude(status=Round.Status.SCHEDULED).exists():
        raise FormationError(_("The championship has started: the teams are formed."))
    if entry.championship_id != season.championship_id:
        raise FormationError(_("This car does not race in this championship."))
    if entry not in free_entries(season=season):
        raise FormationError(
            _("%(driver)s already drives for a team.") % {"driver": entry.driver.name}
        )
    if team.seats.count() >= CARS_PER_TEAM:
        raise FormationError(_("A team has two cars."))


def car_pick(
    *,
    season: Season,
    team: SeasonTeam,
    entry: Entry,
    user: Any = None,
    source: str = PickSource.PLAYER,
    now: datetime | None = None,
) -> Seat:
    """A player's team takes a car: in a draft, when on turn; with a budget, while the team's
    cars cost at most the budget."""
    with transaction.atomic():
        locked = _lock(season)
        _pick_check(locked, team, entry)
        if locked.formation_mode == Season.FormationMode.DRAFT:
            status = car_draft_status(season=locked)
            if not status.started:
                raise FormationError(_("The draft has not started yet."))
            if status.on_turn is None or status.on_turn.pk != team.pk:
                raise FormationError(_("It is not your turn to pick."))
            car = _seat_car(locked, team, entry)
            # The pick as cycling's draft records it: the next team's clock starts now.
            DraftPick.objects.create(
                season=locked,
                number=status.next_pick,
                team=team,
                entry=entry,
                picked_by=user if getattr(user, "pk", None) else None,
                picked_at=now or timezone.now(),
                source=source,
            )
            if status.picks_made + 1 >= status.picks_total:
                # The last pick of the draft: round 1 opens, computer teams take the empty seats.
                round_one_open(locked)
            return car
        else:
            spent = sum(car_price(car.entry) for car in team.seats.select_related("entry"))
            price = car_price(entry)
            if spent + price > locked.budget:
                raise FormationError(
                    _("%(driver)s costs %(price)s: %(left)s of the budget is left.")
                    % {"driver": entry.driver.name, "price": price, "left": locked.budget - spent}
                )
        return _seat_car(locked, team, entry)


def computer_cars_fill(*, season: Season) -> list[SeasonTeam]:
    """Fill the grid's empty seats (up to the game's cars) with computer teams of two cars:
    the real constructors' cars that no player took, in entry order, each team named after
    its constructor ("(computer)" after a name a player's team took). Idempotent."""
    adapter = motor_adapter(season.ruleset)
    grid = min(adapter.max_cars, GRID_MAX)
    with transaction.atomic():
        locked = _lock(season)
        seated = Seat.objects.filter(season=locked).count()
        free = free_entries(season=locked)
        by_constructor: dict[int, list[Entry]] = {}
        for entry in free:
            by_constructor.setdefault(entry.constructor_id, []).append(entry)
        names = {name.lower() for name in locked.teams.values_list("name", flat=True)}
        teams = []
        drivers: set[int] = set()
        for entries in by_constructor.values():
            if seated + CARS_PER_TEAM > grid:
                break
            cars: list[Entry] = []
            for entry in entries:
                if entry.driver_id not in drivers and len(cars) < CARS_PER_TEAM:
                    cars.append(entry)
                    drivers.add(entry.driver_id)
            if len(cars) < CARS_PER_TEAM:
                continue
            real = cars[0].constructor.name
            name = real if real.lower() not in names else TAKEN_NAME.format(name=real)
            names.add(name.lower())
            team = SeasonTeam.objects.create(season=locked, name=name[:80], owner=None)
            for entry in cars:
                _seat_car(locked, team, entry)
            seated += CARS_PER_TEAM
            teams.append(team)
    return teams


def car_autopick(
    *,
    season: Season,
    user: Any = None,
    source: str = PickSource.ORGANISER,
    now: datetime | None = None,
) -> Seat:
    """The automatic pick for the team on turn in a draft (the organiser's, or the pick
    clock's): the dearest free car (then the lowest car number), as cycling's autopick takes
    the dearest rider that fits."""
    status = car_draft_status(season=season)
    if not status.started or status.on_turn is None:
        raise FormationError(_("No team is on turn."))
    free = free_entries(season=season)
    if not free:
        raise FormationError(_("No car is left to pick."))
    entry = min(free, key=lambda e: (-car_price(e), e.number or 0, e.pk))
    return car_pick(
        season=season, team=status.on_turn, entry=entry, user=user, source=source, now=now
    )


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
