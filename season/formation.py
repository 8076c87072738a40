"""Team formation: rider prices, the draft in turns and picks within a budget (docs/league.md).

The rules are pure functions at the top (prices, the snake order, what a roster may hold);
the services below apply them to the database under a lock on the season row, so that two
players acting at once are served one after the other.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from races.models import RaceEntry
from riders.models import RATING_AXES, Rider
from season.computer_teams import computer_teams_fill
from season.models import (
    CARS_PER_TEAM,
    GRID_MAX,
    DraftPick,
    PickSource,
    Round,
    Season,
    SeasonTeam,
    Seat,
    WishListEntry,
)
from season.orders import default_roles
from season.services.lifecycle import round_open

# --- prices -----------------------------------------------------------------------------

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


def price_of(ratings: Mapping[str, int]) -> int:
    """A rider's price: PRICE_BASE + sum over the eight axes of weight x cost of the rating.

    On the demo's 2023 start list prices run from 8 to 87, 22 on average, so the default
    budget of 180 buys an average team of eight.
    """
    return PRICE_BASE + sum(
        weight * RATING_COST[int(ratings.get(axis, 0))] for axis, weight in AXIS_WEIGHTS.items()
    )


def rider_price(rider: Rider) -> int:
    return price_of({axis: getattr(rider, axis) for axis in RATING_AXES})


# --- the rules of a roster --------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A rider as the formation rules see him."""

    rider_id: int
    name: str
    real_team_id: int | None
    real_team_name: str
    price: int


def candidate_of(rider: Rider) -> Candidate:
    return Candidate(
        rider_id=rider.pk,
        name=rider.name,
        real_team_id=rider.team_id,
        real_team_name=rider.team.name if rider.team_id else "",  # type: ignore[union-attr]
        price=rider_price(rider),
    )


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


def roster_errors(
    *,
    roster: Sequence[Candidate],
    roster_size: int,
    max_per_real_team: int | None,
    budget: int | None = None,
    complete: bool = False,
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
        )
    ]


def roster_problems(
    *,
    roster: Sequence[Candidate],
    roster_size: int,
    max_per_real_team: int | None,
    budget: int | None = None,
    complete: bool = False,
) -> list[RosterProblem]:
    """The rules of a roster (roster_errors gives their messages): its size, the limit per real
    team, the budget."""
    errors = []
    if complete and len(roster) != roster_size:
        errors.append(
            RosterProblem(
                RULE_SIZE,
                ngettext(
                    "Choose exactly %(size)d rider (%(count)d chosen).",
                    "Choose exactly %(size)d riders (%(count)d chosen).",
                    roster_size,
                )
                % {"size": roster_size, "count": len(roster)},
            )
        )
    elif len(roster) > roster_size:
        errors.append(
            RosterProblem(
                RULE_SIZE,
                ngettext(
                    "A team has at most %(size)d rider.",
                    "A team has at most %(size)d riders.",
                    roster_size,
                )
                % {"size": roster_size},
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
                        ngettext(
                            "At most %(limit)d rider from one real team: %(count)d from %(team)s.",
                            "At most %(limit)d riders from one real team: %(count)d from %(team)s.",
                            max_per_real_team,
                        )
                        % {
                            "limit": max_per_real_team,
                            "count": count,
                            "team": names[real_team_id],
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
                    _("The riders cost %(total)d, over the budget of %(budget)d.")
                    % {"total": total, "budget": budget},
                )
            )
    return errors


def pick_refusal(
    *,
    roster: Sequence[Candidate],
    candidate: Candidate,
    roster_size: int,
    max_per_real_team: int | None,
) -> str:
    """Why a drafting team may not take this rider next ('' when it may), from the rules of
    roster_problems on the roster with him, worded for the draft board's Pick button."""
    problems = roster_problems(
        roster=[*roster, candidate], roster_size=roster_size, max_per_real_team=max_per_real_team
    )
    for problem in problems:
        if problem.rule == RULE_REAL_TEAM and problem.real_team_id == candidate.real_team_id:
            already = problem.count - 1
            return ngettext(
                "%(count)d rider of %(team)s already: limit %(limit)d",
                "%(count)d riders of %(team)s already: limit %(limit)d",
                already,
            ) % {"count": already, "team": candidate.real_team_name, "limit": problem.limit}
        if problem.rule == RULE_SIZE:
            return _("Your team is complete.")
    return problems[0].message if problems else ""


# --- reading the state ------------------------------------------------------------------


class FormationError(Exception):
    """A formation step that the rules refuse; each message names the rule."""

    def __init__(self, *errors: str) -> None:
        super().__init__(" ".join(errors))
        self.errors = list(errors)


def rider_pool(*, season: Season) -> QuerySet[Rider]:
    """The riders a season's teams are formed from: the start list of the race its route was
    copied from, or, when no start list was imported, the riders of that year's real teams."""
    template_id = season.race.template_id
    riders = Rider.objects.select_related("team").order_by("name", "pk")
    if template_id is None:
        return riders.none()
    entries = RaceEntry.objects.filter(race_id=template_id)
    if entries.exists():
        return riders.filter(pk__in=entries.values("rider_id"))
    return riders.filter(team__year=season.race.year)


def taken_rider_ids(*, season: Season, exclude_team: SeasonTeam | None = None) -> set[int]:
    taken = Seat.objects.filter(season=season)
    if exclude_team is not None:
        taken = taken.exclude(team=exclude_team)
    return set(taken.values_list("rider_id", flat=True))


def team_capacity(*, season: Season) -> int:
    """How many teams the pool can fill (a motor season: the game's grid)."""
    if season.race_id is None:
        return GRID_MAX // CARS_PER_TEAM
    return rider_pool(season=season).count() // season.roster_size


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
    order = list(
        season.teams.filter(draft_position__isnull=False)
        .select_related("owner")
        .order_by("draft_position")
    )
    # Picks are numbered 1, 2, ... without gaps (under the season's lock): the last one gives
    # the count and the start of the turn now running, in one query.
    last = season.draft_picks.order_by("-number").values_list("number", "picked_at").first()
    picks_made, last_pick_at = last or (0, None)
    return draft_status_of(
        season=season,
        order=order,
        picks_made=picks_made,
        picks_total=len(order) * season.roster_size,
        last_pick_at=last_pick_at,
    )


def draft_status_of(
    *,
    season: Season,
    order: list[SeasonTeam],
    picks_made: int,
    picks_total: int,
    last_pick_at: datetime | None,
) -> DraftStatus:
    """A snake draft's status from its order and its picks so far, riders or cars alike (the
    team on turn, and when its turn began: the pick clock's start)."""
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
    rider_count: int
    complete: bool


def teams_progress(*, season: Season) -> list[TeamProgress]:
    """The players' teams and how full they are (computer teams take what is left once the
    teams are formed: they are not formed)."""
    teams = (
        season.teams.filter(owner__isnull=False)
        .select_related("owner")
        .annotate(rider_count=Count("seats"))
    )
    return [
        TeamProgress(
            team=team,
            rider_count=team.rider_count,
            complete=team.rider_count >= season.roster_size,
        )
        for team in teams.order_by("draft_position", "name")
    ]


def teams_formed(*, season: Season) -> bool:
    """Every team of the season has its full roster (and there is at least one team)."""
    progress = teams_progress(season=season)
    return bool(progress) and all(p.complete for p in progress)


def formation_started(season: Season) -> bool:
    """Once true, the settings that shape teams (mode, size, budget, limit) are frozen."""
    return (
        season.draft_started_at is not None
        or Seat.objects.filter(season=season).exists()
        or Seat.objects.filter(season=season).exists()
    )


# --- services ---------------------------------------------------------------------------


def season_lock(season: Season) -> Season:
    """The season row, locked until the transaction ends. Every formation step runs under this
    lock: the pick count, the turn and the riders still free are read and written by one
    request (or one beat's worker) at a time."""
    return Season.objects.select_for_update(of=("self",)).select_related("race").get(pk=season.pk)


_lock = season_lock


def _team_complete(*, season: Season, team: SeasonTeam) -> None:
    """A full team gets its default roles (season/orders.py) and its bibs: a block of ten
    per team (1-8, 11-18, ...), the GC leader wearing the first."""
    members = list(team.seats.select_related("rider"))
    roles = default_roles(m.rider for m in members)
    team_ids = list(season.teams.order_by("draft_position", "pk").values_list("pk", flat=True))
    block = 10 * ((season.roster_size + 10) // 10)
    first_bib = team_ids.index(team.pk) * block + 1
    ranked = sorted(
        members,
        key=lambda m: (roles[m.rider_pk] != "gc_leader", -rider_price(m.rider), m.rider_id),
    )
    for offset, member in enumerate(ranked):
        member.role = roles[member.rider_pk]
        member.number = first_bib + offset
    Seat.objects.bulk_update(ranked, ["role", "number"])


def draft_start(*, season: Season, rng: random.Random | None = None) -> list[SeasonTeam]:
    """Draw the draft order at random and start the draft (docs/league.md "Draft")."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        locked = _lock(season)
        if locked.formation_mode != Season.FormationMode.DRAFT:
            raise FormationError(_("This season forms its teams with a budget, not a draft."))
        if locked.draft_started_at is not None:
            raise FormationError(_("The draft has already started."))
        if race_started(locked):
            raise FormationError(_("The race has started: teams can no longer be drafted."))
        teams = list(locked.teams.order_by("pk"))
        if len(teams) < 2:
            raise FormationError(_("A draft needs at least two teams."))
        if Seat.objects.filter(season=locked).exists():
            raise FormationError(_("Some teams already have riders: there is nothing to draft."))
        needed = len(teams) * locked.roster_size
        pool = rider_pool(season=locked).count()
        if pool < needed:
            raise FormationError(
                _("The pool has %(pool)d riders; %(teams)d teams of %(size)d need %(needed)d.")
                % {"pool": pool, "teams": len(teams), "size": locked.roster_size, "needed": needed}
            )
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
    rider: Rider,
    user: Any,
    source: str = PickSource.PLAYER,
    now: datetime | None = None,
) -> DraftPick:
    pick = DraftPick.objects.create(
        season=season,
        number=status.next_pick,
        team=team,
        rider=rider,
        picked_by=user,
        source=source,
        picked_at=now or timezone.now(),
    )
    Seat.objects.create(season=season, team=team, rider=rider)
    # A rider taken leaves every wish list of the season (docs/league.md "The draft").
    WishListEntry.objects.filter(team__season=season, rider=rider).delete()
    if team.seats.count() >= season.roster_size:
        _team_complete(season=season, team=team)
    if status.picks_made + 1 >= status.picks_total:
        round_one_open(season)
    return pick


def _check_pick(*, season: Season, team: SeasonTeam, rider: Rider, status: DraftStatus) -> None:
    if not status.started:
        raise FormationError(_("The draft has not started yet."))
    if status.on_turn is None:
        raise FormationError(_("The draft is over."))
    if status.on_turn.pk != team.pk:
        raise FormationError(
            _("It is %(team)s's turn (pick %(number)d).")
            % {"team": status.on_turn.name, "number": status.next_pick}
        )
    if not rider_pool(season=season).filter(pk=rider.pk).exists():
        raise FormationError(_("%(rider)s is not in this race.") % {"rider": rider.name})
    if rider.pk in taken_rider_ids(season=season):
        raise FormationError(_("%(rider)s has already been picked.") % {"rider": rider.name})
    roster = [candidate_of(m.rider) for m in team.seats.select_related("rider__team")]
    errors = roster_errors(
        roster=[*roster, candidate_of(rider)],
        roster_size=season.roster_size,
        max_per_real_team=season.max_per_real_team,
    )
    if errors:
        raise FormationError(*errors)


def draft_pick(
    *, season: Season, team: SeasonTeam, rider: Rider, user: Any, now: datetime | None = None
) -> DraftPick:
    """The team on turn takes one free rider, within the roster rules."""
    with transaction.atomic():
        locked = _lock(season)
        status = draft_status(season=locked)
        _check_pick(season=locked, team=team, rider=rider, status=status)
        try:
            with transaction.atomic():
                return _add_pick(
                    season=locked, status=status, team=team, rider=rider, user=user, now=now
                )
        except IntegrityError:
            # Only without a row lock (SQLite): the constraints kept the pick unique.
            raise FormationError(_("Somebody else picked first; try again.")) from None


def auto_choice(*, season: Season, team: SeasonTeam) -> Rider | None:
    """The rider an automatic pick takes for this team: the first of its wish list that is
    still free and that the roster rules allow, else the dearest such free rider (the lowest
    id among equals); None when no free rider fits."""
    taken = taken_rider_ids(season=season)
    roster = [candidate_of(m.rider) for m in team.seats.select_related("rider__team")]
    wished = [
        w.rider
        for w in team.wishes.select_related("rider__team").order_by("position")
        if w.rider_id not in taken
    ]
    free = [r for r in rider_pool(season=season) if r.pk not in taken]
    pool_ids = {r.pk for r in free}
    ranked = sorted(free, key=lambda r: (-rider_price(r), r.pk))
    for rider in [*(r for r in wished if r.pk in pool_ids), *ranked]:
        errors = roster_errors(
            roster=[*roster, candidate_of(rider)],
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
        )
        if not errors:
            return rider
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
    rider = auto_choice(season=season, team=team)
    if rider is None:
        raise FormationError(_("No free rider fits %(team)s's roster.") % {"team": team.name})
    return _add_pick(
        season=season, status=status, team=team, rider=rider, user=user, source=source, now=now
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

#: The longest wish list: several times a roster, so that a list outlives the riders others take.
WISH_LIST_MAX = 50


def wish_list(*, team: SeasonTeam) -> list[WishListEntry]:
    """A team's wish list in its owner's order (riders picked by anybody have left it)."""
    return list(team.wishes.select_related("rider__team").order_by("position"))


def _wish_lock(team: SeasonTeam) -> SeasonTeam:
    # Two tabs of one player changing the list at once: positions are read and written under
    # the team's row lock.
    locked = SeasonTeam.objects.select_for_update(of=("self",)).select_related("season")
    return locked.get(pk=team.pk)


def wish_list_refusal(*, team: SeasonTeam, status: DraftStatus, rider_count: int) -> str:
    """Why the team has no wish list to change now ('' when it has): a season without a draft
    of riders, a draft over, a race started, a team complete."""
    season = team.season
    if season.formation_mode != Season.FormationMode.DRAFT or season.race_id is None:
        return _("This season has no draft of riders: there is no wish list.")
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


def wish_add(*, team: SeasonTeam, rider: Rider) -> WishListEntry:
    """Put a free rider of the season's pool at the end of the team's wish list."""
    with transaction.atomic():
        locked = _wish_lock(team)
        _wish_list_open(locked)
        season = locked.season
        if not rider_pool(season=season).filter(pk=rider.pk).exists():
            raise FormationError(_("%(rider)s is not in this race.") % {"rider": rider.name})
        if rider.pk in taken_rider_ids(season=season):
            raise FormationError(_("%(rider)s has already been picked.") % {"rider": rider.name})
        entries = list(locked.wishes.order_by("position"))
        if any(e.rider_id == rider.pk for e in entries):
            raise FormationError(
                _("%(rider)s is already on your wish list.") % {"rider": rider.name}
            )
        if len(entries) >= WISH_LIST_MAX:
            raise FormationError(
                _("A wish list holds at most %(max)d riders.") % {"max": WISH_LIST_MAX}
            )
        position = entries[-1].position + 1 if entries else 1
        return WishListEntry.objects.create(team=locked, rider=rider, position=position)


def wish_remove(*, team: SeasonTeam, rider: Rider) -> None:
    with transaction.atomic():
        locked = _wish_lock(team)
        deleted, _rows = locked.wishes.filter(rider=rider).delete()
        if not deleted:
            raise FormationError(_("%(rider)s is not on your wish list.") % {"rider": rider.name})


def wish_move(*, team: SeasonTeam, rider: Rider, offset: int) -> None:
    """Move a rider one place up (offset -1) or down (+1) the wish list; at either end, where
    he is."""
    if offset not in (-1, 1):
        raise ValueError("a wish moves by one place")
    with transaction.atomic():
        locked = _wish_lock(team)
        _wish_list_open(locked)
        entries = list(locked.wishes.order_by("position"))
        index = next((i for i, e in enumerate(entries) if e.rider_id == rider.pk), None)
        if index is None:
            raise FormationError(_("%(rider)s is not on your wish list.") % {"rider": rider.name})
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


def team_select(*, team: SeasonTeam, rider_ids: Iterable[int]) -> list[Seat]:
    """A budget pick: the team's whole roster at once, replacing the previous one, until the
    race starts."""
    rider_ids = sorted(set(rider_ids))
    with transaction.atomic():
        season = _lock(team.season)
        if season.formation_mode != Season.FormationMode.BUDGET:
            raise FormationError(_("This season drafts its teams in turns."))
        if race_started(season):
            raise FormationError(_("The race has started: teams are final."))
        riders = list(rider_pool(season=season).filter(pk__in=rider_ids))
        unknown = set(rider_ids) - {r.pk for r in riders}
        if unknown:
            raise FormationError(_("Some of these riders are not in this race."))
        taken = taken_rider_ids(season=season, exclude_team=team) & set(rider_ids)
        if taken:
            names = ", ".join(sorted(r.name for r in riders if r.pk in taken))
            raise FormationError(_("Already in another team: %(names)s.") % {"names": names})
        errors = roster_errors(
            roster=[candidate_of(r) for r in riders],
            roster_size=season.roster_size,
            max_per_real_team=season.max_per_real_team,
            budget=season.budget,
            complete=True,
        )
        if errors:
            raise FormationError(*errors)
        try:
            with transaction.atomic():
                team.seats.all().delete()
                Seat.objects.bulk_create(
                    Seat(season=season, team=team, rider=rider) for rider in riders
                )
        except IntegrityError:
            raise FormationError(_("Somebody else took one of these riders; try again.")) from None
        _team_complete(season=season, team=team)
    return list(team.seats.select_related("rider").order_by("number"))
