"""Team formation: rider prices, the draft in turns and picks within a budget (docs/league.md).

The rules are pure functions at the top (prices, the snake order, what a roster may hold);
the services below apply them to the database under a lock on the season row, so that two
players acting at once are served one after the other.
"""

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from plugins import GameAdapter
from plugins.formation import Candidate, seat_places
from season.computer_teams import computer_teams_fill
from season.models import (
    DraftPick,
    PickSource,
    Round,
    Season,
    SeasonTeam,
    Seat,
    WishListEntry,
)
from season.rated import pool, rated_game, ratings_freeze
from season.services.lifecycle import round_open

__all__ = ["Candidate", "pool", "ratings_freeze"]


# --- the rules of a roster --------------------------------------------------------------


def snake_team_index(pick_number: int, team_count: int) -> int:
    """The 0-based draft position on turn at pick `pick_number` (1-based): 1..n in odd rounds,
    n..1 in even rounds, so that the last to pick in a round picks first in the next."""
    if pick_number < 1 or team_count < 1:
        raise ValueError("pick numbers and team counts start at 1")
    round_index, index = divmod(pick_number - 1, team_count)
    return index if round_index % 2 == 0 else team_count - 1 - index


@dataclass(frozen=True)
class RosterProblem:
    """One rule a roster breaks: `rule` is one of the RULE_* below, `message` names it."""

    rule: str
    message: str
    real_team_id: int | None = None
    count: int = 0
    limit: int = 0


RULE_SIZE = "size"
RULE_REAL_TEAM = "real_team"
RULE_BUDGET = "budget"
RULE_PERSON = "person"


@dataclass(frozen=True)
class Nouns:
    """What the messages call one pickable and several (the adapter's: rider, car)."""

    one: Any
    many: Any

    def of(self, count: int) -> Any:
        return self.one if count == 1 else self.many


RIDERS = Nouns(one=gettext_lazy("rider"), many=gettext_lazy("riders"))


def nouns_of(adapter: GameAdapter) -> Nouns:
    return Nouns(one=adapter.pickable_noun, many=adapter.pickables_noun)


def roster_errors(
    *,
    roster: Sequence[Candidate],
    roster_size: int,
    max_per_real_team: int | None,
    budget: int | None = None,
    complete: bool = False,
    nouns: Nouns = RIDERS,
) -> list[str]:
    """What is wrong with a roster, each rule named. `complete`: the roster must be full
    (a budget selection); otherwise it may still grow (a draft in progress)."""
    return [
        problem.message
        for problem in roster_problems(
            roster=roster,
            roster_size=roster_size,
            max_per_real_team=max_per_real_team,
            budget=budget,
            complete=complete,
            nouns=nouns,
        )
    ]


def roster_problems(
    *,
    roster: Sequence[Candidate],
    roster_size: int,
    max_per_real_team: int | None,
    budget: int | None = None,
    complete: bool = False,
    nouns: Nouns = RIDERS,
) -> list[RosterProblem]:
    """The rules of a roster (roster_errors gives their messages): its size, the limit per real
    team, the budget; a rider or a car's driver once."""
    errors = []
    if complete and len(roster) != roster_size:
        errors.append(
            RosterProblem(
                RULE_SIZE,
                _("Choose exactly %(size)d %(noun)s (%(count)d chosen).")
                % {"size": roster_size, "count": len(roster), "noun": nouns.of(roster_size)},
            )
        )
    elif len(roster) > roster_size:
        errors.append(
            RosterProblem(
                RULE_SIZE,
                _("A team has at most %(size)d %(noun)s.")
                % {"size": roster_size, "noun": nouns.of(roster_size)},
            )
        )
    people = Counter(c.person_id for c in roster)
    for candidate in roster:
        if people.pop(candidate.person_id, 0) > 1:
            errors.append(
                RosterProblem(
                    RULE_PERSON,
                    _("%(name)s can race once only.") % {"name": candidate.name},
                )
            )
    if max_per_real_team is not None:
        counts = Counter(c.real_team_id for c in roster if c.real_team_id is not None)
        names = {c.real_team_id: c.real_team_name for c in roster}
        for real_team_id, count in sorted(counts.items(), key=lambda item: names[item[0]]):
            if count > max_per_real_team:
                errors.append(
                    RosterProblem(
                        RULE_REAL_TEAM,
                        _("At most %(limit)d %(noun)s from one real team: %(count)d from %(team)s.")
                        % {
                            "limit": max_per_real_team,
                            "count": count,
                            "team": names[real_team_id],
                            "noun": nouns.of(max_per_real_team),
                        },
                        real_team_id=real_team_id,
                        count=count,
                        limit=max_per_real_team,
                    )
                )
    if budget is not None:
        total = sum(c.price for c in roster)
        if total > budget:
            errors.append(
                RosterProblem(
                    RULE_BUDGET,
                    _("The %(noun)s cost %(total)d, over the budget of %(budget)d.")
                    % {"total": total, "budget": budget, "noun": nouns.many},
                )
            )
    return errors


def pick_refusal(
    *,
    roster: Sequence[Candidate],
    candidate: Candidate,
    roster_size: int,
    max_per_real_team: int | None,
    nouns: Nouns = RIDERS,
) -> str:
    """Why a drafting team may not take this one next ('' when it may), from the rules of
    roster_problems on the roster with it, worded for the draft board's Pick button."""
    problems = roster_problems(
        roster=[*roster, candidate],
        roster_size=roster_size,
        max_per_real_team=max_per_real_team,
        nouns=nouns,
    )
    for problem in problems:
        if problem.rule == RULE_REAL_TEAM and problem.real_team_id == candidate.real_team_id:
            already = problem.count - 1
            return _("%(count)d %(noun)s of %(team)s already: limit %(limit)d") % {
                "count": already,
                "team": candidate.real_team_name,
                "limit": problem.limit,
                "noun": nouns.of(already),
            }
        if problem.rule == RULE_SIZE:
            return _("Your team is complete.")
    return problems[0].message if problems else ""


# --- reading the state ------------------------------------------------------------------


class FormationError(Exception):
    """A formation step that the rules refuse; each message names the rule."""

    def __init__(self, *errors: str) -> None:
        super().__init__(" ".join(errors))
        self.errors = list(errors)


def game_of(season: Season) -> GameAdapter:
    """The season's game, its riders as the season rates them (season.rated)."""
    return rated_game(season)


def pool_size(*, season: Season) -> int:
    """How many the season's teams can seat from the pool (the game's count for one event;
    the union's for several)."""
    calendar = season.calendar()
    if len(calendar) == 1:
        return int(game_of(season).pool_size(calendar[0].event))
    return int(pool(season=season).count())


def candidate_of(pickable: Any, *, season: Season) -> Candidate:
    return game_of(season).candidate(pickable)


def pickable_get(*, season: Season, pickable_id: int) -> Any:
    """The pool's rider or car of this id, or None."""
    return pool(season=season).filter(pk=pickable_id).first()


def pickable_lookup(*, season: Season, pickable_id: int) -> Any:
    """The game's rider or car of this id, in the season's pool or not (the services then say
    why it may not be picked), or None."""
    return pool(season=season).model._default_manager.filter(pk=pickable_id).first()


def team_seats(*, team: SeasonTeam) -> list[Seat]:
    """A team's seats with what they hold (a rider and his real team, a car's driver and
    constructor), in number order."""
    return list(
        team.seats.select_related(
            "rider__team", "entry__driver", "entry__constructor", "entry__championship"
        ).order_by("number", "pk")
    )


def seated(seat: Seat, *, season: Season) -> Any:
    """What a seat holds: its rider or its car."""
    return getattr(seat, game_of(season).seat_field)


def team_candidates(*, team: SeasonTeam) -> list[Candidate]:
    game = game_of(team.season)
    return [game.candidate(getattr(seat, game.seat_field)) for seat in team_seats(team=team)]


def taken_people(*, season: Season, exclude_team: SeasonTeam | None = None) -> set[int]:
    """The people (riders, cars' drivers) already in a team of the season."""
    game = game_of(season)
    seats = Seat.objects.filter(season=season).select_related(game.seat_field)
    if exclude_team is not None:
        seats = seats.exclude(team=exclude_team)
    return {game.person_of(getattr(seat, game.seat_field)) for seat in seats}


def free_pickables(*, season: Season, exclude_team: SeasonTeam | None = None) -> list[Any]:
    """The pool's riders or cars whose person races for no team yet."""
    game = game_of(season)
    taken = taken_people(season=season, exclude_team=exclude_team)
    return [p for p in pool(season=season) if game.person_of(p) not in taken]


def team_capacity(*, season: Season) -> int:
    """How many teams the pool can fill (a championship: the game's grid)."""
    return pool_size(season=season) // season.roster_size


def race_started(season: Season) -> bool:
    return season.rounds.exclude(status=Round.Status.SCHEDULED).exists()


@dataclass(frozen=True)
class DraftStatus:
    started: bool
    order: list[SeasonTeam]
    picks_made: int
    picks_total: int
    on_turn: SeasonTeam | None
    #: When the team on turn began its turn (the last pick, or the draft's start): its pick
    #: clock runs from here (season.services.draft_clock).
    turn_started_at: datetime | None = None

    @property
    def complete(self) -> bool:
        return self.started and self.picks_made >= self.picks_total

    @property
    def next_pick(self) -> int:
        return self.picks_made + 1

    @property
    def round(self) -> int:
        return self.picks_made // len(self.order) + 1 if self.order else 0


def draft_status(*, season: Season) -> DraftStatus:
    """A snake draft's status, riders or cars alike: the team on turn, and when its turn
    began (the pick clock's start)."""
    order = list(
        season.teams.filter(draft_position__isnull=False)
        .select_related("owner")
        .order_by("draft_position")
    )
    # Picks are numbered 1, 2, ... without gaps (under the season's lock): the last one gives
    # the count and the start of the turn now running, in one query.
    last = season.draft_picks.order_by("-number").values_list("number", "picked_at").first()
    picks_made, last_pick_at = last or (0, None)
    picks_total = len(order) * season.roster_size
    on_turn = None
    if season.draft_started_at is not None and order and picks_made < picks_total:
        on_turn = order[snake_team_index(picks_made + 1, len(order))]
    return DraftStatus(
        started=season.draft_started_at is not None,
        order=order,
        picks_made=picks_made,
        picks_total=picks_total,
        on_turn=on_turn,
        turn_started_at=(last_pick_at or season.draft_started_at) if on_turn else None,
    )


@dataclass(frozen=True)
class TeamProgress:
    team: SeasonTeam
    seat_count: int
    complete: bool

    @property
    def rider_count(self) -> int:
        return self.seat_count


def teams_progress(*, season: Season) -> list[TeamProgress]:
    """The players' teams and how full they are (computer teams take what is left once the
    teams are formed: they are not formed)."""
    teams = (
        season.teams.filter(owner__isnull=False)
        .select_related("owner")
        .annotate(seat_count=Count("seats"))
    )
    return [
        TeamProgress(
            team=team,
            seat_count=team.seat_count,
            # A real team taken over may have fewer riders left than the squad's size.
            complete=team.seat_count >= season.roster_size
            or (season.formation_mode == Season.FormationMode.REAL_TEAMS and team.seat_count > 0),
        )
        for team in teams.order_by("draft_position", "name")
    ]


def teams_formed(*, season: Season) -> bool:
    """Every team of the season has its full roster (and there is at least one team)."""
    progress = teams_progress(season=season)
    return bool(progress) and all(p.complete for p in progress)


def formation_started(season: Season) -> bool:
    """Once true, the settings that shape teams (mode, size, budget, limit) are frozen."""
    return season.draft_started_at is not None or Seat.objects.filter(season=season).exists()


# --- services ---------------------------------------------------------------------------


def season_lock(season: Season) -> Season:
    """The season row, locked until the transaction ends. Every formation step runs under this
    lock: the pick count, the turn and what is still free are read and written by one
    request (or one beat's worker) at a time."""
    return Season.objects.select_for_update().get(pk=season.pk)


_lock = season_lock


def _places(season: Season) -> list[Any]:
    return seat_places(
        list(Seat.objects.filter(season=season).values("team_id", "number", "slot", "grid"))
    )


def _seat(*, season: Season, team: SeasonTeam, pickable: Any) -> Seat:
    """The pickable joins the team: a new seat, numbered as the game numbers it."""
    values = game_of(season).seat_values(pickable, team_id=team.pk, taken=_places(season))
    return Seat.objects.create(season=season, team=team, **values)


def _team_complete(*, season: Season, team: SeasonTeam) -> None:
    """A full team gets what the game gives a complete team (a cycling team: its default roles
    and its block of bibs, the GC leader wearing the first)."""
    game = game_of(season)
    seats = list(team.seats.select_related(game.seat_field).order_by("pk"))
    team_ids = list(season.teams.order_by("draft_position", "pk").values_list("pk", flat=True))
    changes = game.team_seated(
        [getattr(seat, game.seat_field) for seat in seats],
        team_index=team_ids.index(team.pk),
        roster_size=season.roster_size,
    )
    if not changes:
        return
    for seat, values in zip(seats, changes, strict=True):
        for name, value in values.items():
            setattr(seat, name, value)
    Seat.objects.bulk_update(seats, sorted({name for values in changes for name in values}))


#: The fewest teams a draft is drawn for: with one, nobody picks against anybody (a lone
#: player forms his team with a budget instead).
DRAFT_TEAMS_MIN = 2


def draft_start_refusal(season: Season) -> str | None:
    """Why the draft cannot start now, or None: the organiser's page offers the button only
    then, and draft_start asks again under the season's lock."""
    if season.formation_mode != Season.FormationMode.DRAFT:
        return _("This season forms its teams with a budget, not a draft.")
    if season.draft_started_at is not None:
        return _("The draft has already started.")
    if race_started(season):
        return _("The race has started: teams can no longer be drafted.")
    teams = season.teams.count()
    if teams < DRAFT_TEAMS_MIN:
        return ngettext(
            "A draft needs at least two teams: %(count)d has joined. Invite the players first.",
            "A draft needs at least two teams: %(count)d have joined. Invite the players first.",
            teams,
        ) % {"count": teams}
    if Seat.objects.filter(season=season).exists():
        return _("Some teams already have riders: there is nothing to draft.")
    game = game_of(season)
    needed = teams * season.roster_size
    size = pool_size(season=season)
    if size < needed:
        return _("The pool has %(pool)d %(noun)s; %(teams)d teams of %(size)d need %(needed)d.") % {
            "pool": size,
            "noun": nouns_of(game).of(size),
            "teams": teams,
            "size": season.roster_size,
            "needed": needed,
        }
    return None


def draft_start(*, season: Season, rng: random.Random | None = None) -> list[SeasonTeam]:
    """Draw the draft order at random and start the draft (docs/league.md "Draft")."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        locked = _lock(season)
        refusal = draft_start_refusal(locked)
        if refusal is not None:
            raise FormationError(refusal)
        ratings_freeze(locked)
        teams = list(locked.teams.order_by("pk"))
        rng.shuffle(teams)
        for position, team in enumerate(teams, start=1):
            team.draft_position = position
        SeasonTeam.objects.bulk_update(teams, ["draft_position"])
        locked.draft_started_at = timezone.now()
        locked.save(update_fields=["draft_started_at"])
    season.draft_started_at = locked.draft_started_at
    return teams


def round_one_open(season: Season) -> None:
    """Teams are formed: round 1 opens for orders (the organiser may also open it by hand),
    and the riders or cars no player took race for computer teams."""
    first = Round.objects.filter(season=season, number=1, status=Round.Status.SCHEDULED).first()
    if first is not None:
        round_open(round=first)
    else:
        computer_teams_fill(season=season)


def _add_pick(
    *,
    season: Season,
    status: DraftStatus,
    team: SeasonTeam,
    pickable: Any,
    user: Any,
    source: str = PickSource.PLAYER,
    now: datetime | None = None,
) -> DraftPick:
    field = game_of(season).seat_field
    pick = DraftPick.objects.create(
        season=season,
        number=status.next_pick,
        team=team,
        picked_by=user if getattr(user, "pk", None) else None,
        source=source,
        picked_at=now or timezone.now(),
        **{field: pickable},
    )
    _seat(season=season, team=team, pickable=pickable)
    # What a team took leaves every wish list of the season (docs/league.md "The draft").
    WishListEntry.objects.filter(team__season=season, **{field: pickable}).delete()
    if team.seats.count() >= season.roster_size:
        _team_complete(season=season, team=team)
    if status.picks_made + 1 >= status.picks_total:
        round_one_open(season)
    return pick


def _in_pool_check(*, season: Season, pickable: Any) -> None:
    game = game_of(season)
    name = game.candidate(pickable).name
    if not pool(season=season).filter(pk=pickable.pk).exists():
        raise FormationError(_("%(rider)s is not in this race.") % {"rider": name})
    if game.person_of(pickable) in taken_people(season=season):
        raise FormationError(_("%(rider)s has already been picked.") % {"rider": name})


def _check_pick(*, season: Season, team: SeasonTeam, pickable: Any, status: DraftStatus) -> None:
    if team.season_id != season.pk or team.owner_id is None:
        raise FormationError(_("This team does not pick in this season."))
    if not status.started:
        raise FormationError(_("The draft has not started yet."))
    if status.on_turn is None:
        raise FormationError(_("The draft is over."))
    if status.on_turn.pk != team.pk:
        raise FormationError(
            _("It is %(team)s's turn (pick %(number)d).")
            % {"team": status.on_turn.name, "number": status.next_pick}
        )
    _in_pool_check(season=season, pickable=pickable)
    game = game_of(season)
    errors = roster_errors(
        roster=[*team_candidates(team=team), game.candidate(pickable)],
        roster_size=season.roster_size,
        max_per_real_team=season.max_per_real_team,
        nouns=nouns_of(game),
    )
    if errors:
        raise FormationError(*errors)


def draft_pick(
    *,
    season: Season,
    team: SeasonTeam,
    pickable: Any,
    user: Any,
    now: datetime | None = None,
) -> DraftPick:
    """The team on turn takes one free rider or car, within the roster rules."""
    with transaction.atomic():
        locked = _lock(season)
        status = draft_status(season=locked)
        _check_pick(season=locked, team=team, pickable=pickable, status=status)
        try:
            with transaction.atomic():
                return _add_pick(
                    season=locked,
                    status=status,
                    team=team,
                    pickable=pickable,
                    user=user,
                    now=now,
                )
        except IntegrityError:
            # Only without a row lock (SQLite): the constraints kept the pick unique.
            raise FormationError(_("Somebody else picked first; try again.")) from None


def auto_choice(*, season: Season, team: SeasonTeam) -> Any:
    """What an automatic pick takes for this team: the first of its wish list that is still
    free and that the roster rules allow, else the dearest such free one (then the lowest car
    number, then the lowest id); None when nothing free fits."""
    game = game_of(season)
    field = game.seat_field
    free = free_pickables(season=season)
    free_ids = {p.pk for p in free}
    roster = team_candidates(team=team)
    wished = [
        getattr(w, field)
        for w in team.wishes.select_related(field).order_by("position")
        if getattr(w, f"{field}_id") in free_ids
    ]
    candidates = {p.pk: game.candidate(p) for p in free}
    ranked = sorted(free, key=lambda p: (-candidates[p.pk].price, candidates[p.pk].number, p.pk))
    for pickable in [*wished, *ranked]:
        errors = roster_errors(
            roster=[*roster, candidates[pickable.pk]],
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
        )
        if not errors:
            return pickable
    return None


def autopick_locked(
    *, season: Season, status: DraftStatus, source: str, user: Any, now: datetime | None = None
) -> DraftPick:
    """The automatic pick for the team on turn. The caller holds season_lock(season) and read
    `status` under it."""
    if status.on_turn is None:
        raise FormationError(
            _("The draft is over.") if status.started else _("The draft has not started yet.")
        )
    team = status.on_turn
    pickable = auto_choice(season=season, team=team)
    if pickable is None:
        raise FormationError(_("Nothing free fits %(team)s's roster.") % {"team": team.name})
    return _add_pick(
        season=season,
        status=status,
        team=team,
        pickable=pickable,
        user=user,
        source=source,
        now=now,
    )


def draft_autopick(*, season: Season, user: Any, now: datetime | None = None) -> DraftPick:
    """The organiser picks for the team on turn (an absent player, a team without a player):
    auto_choice, the team's wish list first."""
    with transaction.atomic():
        locked = _lock(season)
        status = draft_status(season=locked)
        return autopick_locked(
            season=locked, status=status, source=PickSource.ORGANISER, user=user, now=now
        )


# --- the wish list -------------------------------------------------------------------------

#: The longest wish list: several times a roster, so that a list outlives what others take.
WISH_LIST_MAX = 50


def wish_list(*, team: SeasonTeam) -> list[WishListEntry]:
    """A team's wish list in its owner's order (what anybody picked has left it)."""
    return list(
        team.wishes.select_related(
            "rider__team", "entry__driver", "entry__constructor", "entry__championship"
        ).order_by("position")
    )


def _wish_lock(team: SeasonTeam) -> SeasonTeam:
    # Two tabs of one player changing the list at once: positions are read and written under
    # the team's row lock.
    locked = SeasonTeam.objects.select_for_update(of=("self",)).select_related("season")
    return locked.get(pk=team.pk)


def wish_list_refusal(*, team: SeasonTeam, status: DraftStatus, rider_count: int) -> str:
    """Why the team has no wish list to change now ('' when it has): a season without a
    draft, a draft over, a race started, a team complete."""
    season = team.season
    if season.formation_mode != Season.FormationMode.DRAFT:
        return _("This season has no draft: there is no wish list.")
    if status.started and status.on_turn is None:
        return _("The draft is over.")
    if rider_count >= season.roster_size:
        return _("Your team is complete.")
    if race_started(season):
        return _("The race has started: teams are final.")
    return ""


def _wish_list_open(team: SeasonTeam) -> None:
    refusal = wish_list_refusal(
        team=team, status=draft_status(season=team.season), rider_count=team.seats.count()
    )
    if refusal:
        raise FormationError(refusal)


def _wished(entries: Sequence[WishListEntry], field: str, pickable: Any) -> int | None:
    return next(
        (i for i, e in enumerate(entries) if getattr(e, f"{field}_id") == pickable.pk), None
    )


def wish_add(*, team: SeasonTeam, pickable: Any) -> WishListEntry:
    """Put a free rider or car of the season's pool at the end of the team's wish list."""
    with transaction.atomic():
        locked = _wish_lock(team)
        _wish_list_open(locked)
        season = locked.season
        _in_pool_check(season=season, pickable=pickable)
        game = game_of(season)
        name = game.candidate(pickable).name
        entries = list(locked.wishes.order_by("position"))
        if _wished(entries, game.seat_field, pickable) is not None:
            raise FormationError(_("%(rider)s is already on your wish list.") % {"rider": name})
        if len(entries) >= WISH_LIST_MAX:
            raise FormationError(
                _("A wish list holds at most %(max)d %(noun)s.")
                % {"max": WISH_LIST_MAX, "noun": nouns_of(game).many}
            )
        position = entries[-1].position + 1 if entries else 1
        return WishListEntry.objects.create(
            team=locked, position=position, **{game.seat_field: pickable}
        )


def wish_remove(*, team: SeasonTeam, pickable: Any) -> None:
    with transaction.atomic():
        locked = _wish_lock(team)
        game = game_of(locked.season)
        deleted, _rows = locked.wishes.filter(**{game.seat_field: pickable}).delete()
        if not deleted:
            raise FormationError(
                _("%(rider)s is not on your wish list.") % {"rider": game.candidate(pickable).name}
            )


def wish_move(*, team: SeasonTeam, pickable: Any, offset: int) -> None:
    """Move a rider or car one place up (offset -1) or down (+1) the wish list; at either end,
    where it is."""
    if offset not in (-1, 1):
        raise ValueError("a wish moves by one place")
    with transaction.atomic():
        locked = _wish_lock(team)
        _wish_list_open(locked)
        game = game_of(locked.season)
        entries = list(locked.wishes.order_by("position"))
        index = _wished(entries, game.seat_field, pickable)
        if index is None:
            raise FormationError(
                _("%(rider)s is not on your wish list.") % {"rider": game.candidate(pickable).name}
            )
        other = index + offset
        if not 0 <= other < len(entries):
            return
        first, second = entries[index], entries[other]
        # Swapped through 0, which no entry holds, so that the unique (team, position) holds
        # at every step.
        places = first.position, second.position
        WishListEntry.objects.filter(pk=first.pk).update(position=0)
        WishListEntry.objects.filter(pk=second.pk).update(position=places[0])
        WishListEntry.objects.filter(pk=first.pk).update(position=places[1])


def team_select(*, team: SeasonTeam, pickable_ids: Iterable[int]) -> list[Seat]:
    """A budget pick: the team's whole roster at once (riders or cars), replacing the previous
    one, until the race starts."""
    pickable_ids = sorted(set(pickable_ids))
    with transaction.atomic():
        season = _lock(team.season)
        if season.formation_mode != Season.FormationMode.BUDGET:
            raise FormationError(_("This season drafts its teams in turns."))
        if race_started(season):
            raise FormationError(_("The race has started: teams are final."))
        ratings_freeze(season)
        game = game_of(season)
        chosen = list(pool(season=season).filter(pk__in=pickable_ids).order_by("pk"))
        unknown = set(pickable_ids) - {p.pk for p in chosen}
        if unknown:
            raise FormationError(
                _("Some of these %(noun)s are not in this race.") % {"noun": nouns_of(game).many}
            )
        others = taken_people(season=season, exclude_team=team)
        taken = [p for p in chosen if game.person_of(p) in others]
        if taken:
            names = ", ".join(sorted(game.candidate(p).name for p in taken))
            raise FormationError(_("Already in another team: %(names)s.") % {"names": names})
        errors = roster_errors(
            roster=[game.candidate(p) for p in chosen],
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
            budget=season.budget,
            complete=True,
            nouns=nouns_of(game),
        )
        if errors:
            raise FormationError(*errors)
        try:
            with transaction.atomic():
                team.seats.all().delete()
                for pickable in chosen:
                    _seat(season=season, team=team, pickable=pickable)
        except IntegrityError:
            raise FormationError(_("Somebody else took one of these; try again.")) from None
        _team_complete(season=season, team=team)
    return team_seats(team=team)


def real_teams_free(
    *, season: Season, exclude_team: SeasonTeam | None = None
) -> dict[str, list[Any]]:
    """The real teams a player can take over (docs/league.md "Players take over real teams"):
    each real team's name with its free riders or cars of the pool (the riders still in the
    race of a forked one), dearest first; a team another player took is not offered."""
    game = game_of(season)
    players = season.teams.filter(owner__isnull=False)
    if exclude_team is not None:
        players = players.exclude(pk=exclude_team.pk)
    others = {c.real_team_name for other in players for c in team_candidates(team=other)}
    teams: dict[str, list[tuple[Candidate, Any]]] = {}
    for pickable in free_pickables(season=season, exclude_team=exclude_team):
        candidate = game.candidate(pickable)
        if candidate.real_team_name and candidate.real_team_name not in others:
            teams.setdefault(candidate.real_team_name, []).append((candidate, pickable))
    return {
        name: [p for _c, p in sorted(rows, key=lambda row: (-row[0].price, row[0].name))]
        for name, rows in sorted(teams.items())
    }


def real_team_take(*, team: SeasonTeam, real_team: str) -> list[Seat]:
    """A player takes over the real team ``real_team``: his squad becomes its riders still
    in the race (the dearest first, up to the squad's size), replacing what he had, until the
    race starts. The organiser's roster rules apply (a limit per real team below the squad's
    size refuses it); no budget. Refused, naming the rule: another mode, a team another player
    took, a team with no rider left."""
    with transaction.atomic():
        season = _lock(team.season)
        if season.formation_mode != Season.FormationMode.REAL_TEAMS:
            raise FormationError(_("In this season, players do not take over real teams."))
        if race_started(season):
            raise FormationError(_("The race has started: teams are final."))
        if team.season_id != season.pk or team.owner_id is None:
            raise FormationError(_("This team does not pick in this season."))
        ratings_freeze(season)
        offered = real_teams_free(season=season, exclude_team=team)
        if real_team not in offered:
            raise FormationError(
                _("%(team)s is not a real team of this race still free to take.")
                % {"team": real_team}
            )
        game = game_of(season)
        chosen = offered[real_team][: season.roster_size]
        errors = roster_errors(
            roster=[game.candidate(p) for p in chosen],
            roster_size=len(chosen),
            max_per_real_team=season.max_per_real_team,
            budget=None,
            complete=True,
            nouns=nouns_of(game),
        )
        if errors:
            raise FormationError(*errors)
        team.seats.all().delete()
        for pickable in chosen:
            _seat(season=season, team=team, pickable=pickable)
        _team_complete(season=season, team=team)
    return team_seats(team=team)


def budget_pick(*, team: SeasonTeam, pickable: Any) -> Seat:
    """A budget pick of one rider or car at a time (the team page's Pick button): within the
    roster rules and what is left of the budget, until the race starts; the team's last seat
    completes it (its numbers and roles, as the game gives them)."""
    with transaction.atomic():
        season = _lock(team.season)
        if season.formation_mode != Season.FormationMode.BUDGET:
            raise FormationError(_("This season drafts its teams in turns."))
        if race_started(season):
            raise FormationError(_("The race has started: teams are final."))
        if team.season_id != season.pk or team.owner_id is None:
            raise FormationError(_("This team does not pick in this season."))
        ratings_freeze(season)
        _in_pool_check(season=season, pickable=pickable)
        game = game_of(season)
        roster = team_candidates(team=team)
        candidate = game.candidate(pickable)
        errors = roster_errors(
            roster=[*roster, candidate],
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
            nouns=nouns_of(game),
        )
        spent = sum(c.price for c in roster)
        if not errors and spent + candidate.price > season.budget:
            errors = [
                _("%(name)s costs %(price)s: %(left)s of the budget is left.")
                % {"name": candidate.name, "price": candidate.price, "left": season.budget - spent}
            ]
        if errors:
            raise FormationError(*errors)
        seat = _seat(season=season, team=team, pickable=pickable)
        if len(roster) + 1 >= season.roster_size:
            _team_complete(season=season, team=team)
            seat.refresh_from_db()
    return seat
