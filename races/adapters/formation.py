"""How a cycling league forms its teams (plugins.formation.TeamFormation): riders of the stage
race's start list, priced from their ratings, numbered in blocks of ten once a team is complete
(its GC leader first), and the start list's other riders racing for computer teams named after
their real teams (docs/league.md "Team formation", "Computer teams")."""

import copy
from collections import defaultdict
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy, ngettext, ngettext_lazy

from plugins.formation import Candidate, ComputerTeam, PickColumn, SeatPlace
from races.models import Race, RaceEntry
from races.ratings import LIVE, RatingsBook, ratings_freeze
from races.services import start_list_review_counts
from races.standings import riders_still_in
from races.team_rules import GC_LEADER, default_roles
from riders.charts import radar_labels
from riders.models import RATING_AXES, Rider

#: Who races beside the players' riders (season.models.Peloton's values).
PELOTON_PLAYERS = "players"
#: The computer team of start-list riders without a real team.
UNATTACHED = "Unattached riders"
#: The draft board's speciality filter: riders rated at least this on the chosen axis.
SPECIALITY_RATING = 3

#: The team page's words (plugins.formation.TEAM_WORDS).
TEAM_WORDS: Mapping[str, Any] = MappingProxyType(
    {
        "name": gettext_lazy("Rider"),
        "number": gettext_lazy("Bib"),
        "real_team": gettext_lazy("Real team"),
        "roster": gettext_lazy("My riders (%(count)s of %(size)s)"),
        "none_yet": gettext_lazy("No rider yet."),
        "roles_provisional": gettext_lazy(
            "Roles as they will be when the team is complete; you change them in each stage's "
            "orders."
        ),
        "choose": gettext_lazy("Choose your riders"),
        "tick": gettext_lazy("Tick %(size)s riders costing %(budget)s at most together."),
        "per_real_team": gettext_lazy("At most %(limit)s from one real team."),
        "not_listed": gettext_lazy("Riders already in another team are not listed."),
        "summary": gettext_lazy("%(count)s of %(size)s riders"),
        "started": gettext_lazy("The race has started: teams are final."),
        "waiting": gettext_lazy(
            "Waiting for the organiser to start the draft. Each team then picks one rider in "
            "turn, in snake order: the last to pick in a round picks first in the next."
        ),
        "clock": ngettext_lazy(
            "Each team has %(minutes)s minute per pick; when it runs out, the pick is made for "
            "the team: the first free rider of its wish list, else the dearest rider that fits.",
            "Each team has %(minutes)s minutes per pick; when they run out, the pick is made for "
            "the team: the first free rider of its wish list, else the dearest rider that fits.",
            "minutes",
        ),
        "your_turn": gettext_lazy("It is your turn: pick a rider."),
        "draft_limit": gettext_lazy("at most %(limit)s riders from one real team"),
        "board": gettext_lazy("Riders still free"),
        "board_empty": gettext_lazy("No free rider matches."),
        "search": gettext_lazy("Rider or team"),
        "speciality_help": gettext_lazy("Riders rated 3 or 4 in this speciality, the best first."),
        "wish_help": gettext_lazy(
            "Only you see it. When your pick is made automatically (the clock ran out, or the "
            "organiser picks for you), it takes the first rider of this list who is still free "
            "and fits your team. Riders picked by anybody leave it."
        ),
        "wish_empty": gettext_lazy(
            "Your wish list is empty: add riders with the Wish buttons of the board below."
        ),
        "pick_choose": gettext_lazy("Choose a rider."),
        "wish_choose": gettext_lazy("Choose a rider for your wish list."),
    }
)


def number_block(roster_size: int) -> int:
    """The bibs of one team: the tens that hold it with a spare (a block of ten for up to nine
    riders: 1-8, 11-18, ...; twenty for up to nineteen; forty for a squad of thirty)."""
    return 10 * ((roster_size + 10) // 10)


class CyclingFormation:
    seat_field = "rider"
    seat_order = ("number", "pk")
    seat_roles = True
    selection_rule = gettext_lazy("your GC leader, then your dearest riders")
    pickable_noun = gettext_lazy("rider")
    pickables_noun = gettext_lazy("riders")
    team_words = TEAM_WORDS
    #: Where its riders' ratings and prices come from: the live ratings, until rated_for
    #: binds it to a league copy's snapshot (races.ratings).
    ratings: RatingsBook = LIVE

    def rated_for(self, event: Race) -> "CyclingFormation":
        """This formation reading the riders as ``event`` (a league copy) rates them: its
        snapshot once its season's formation started, the live ratings before
        (docs/league.md "A season keeps its ratings")."""
        bound = copy.copy(self)
        bound.ratings = RatingsBook(event.pk)
        return bound

    def ratings_freeze(self, events: Sequence[Race], pickables: Any) -> int:
        """Snapshot the pool's ratings for the season's events that hold none yet."""
        return ratings_freeze(races=list(events), riders=pickables)

    def pick_columns(self) -> list[PickColumn]:
        """The eight ratings, each named in the reader's language."""
        labels = radar_labels()
        return [PickColumn(key=axis, label=labels[axis], rating=True) for axis in RATING_AXES]

    def pick_values(self, pickable: Rider) -> dict[str, Any]:
        return dict(self.ratings.of(pickable))

    def pick_specialities(self) -> list[tuple[str, str]]:
        labels = radar_labels()
        return [(axis, labels[axis]) for axis in RATING_AXES]

    def pick_speciality(self, pickable: Rider, key: str) -> bool:
        return key in RATING_AXES and self.ratings.of(pickable)[key] >= SPECIALITY_RATING

    def team_note(self, event: Race) -> str:
        return ""

    def pool(self, event: Race, *, peloton: str = "") -> QuerySet[Rider]:
        """The start list of the race the route was copied from, or, when no start list was
        imported, the riders of that year's real teams; of a copy forked after stage N, only
        the riders still in the race after it."""
        riders = Rider.objects.select_related("team").order_by("name", "pk")
        if event.template_id is None:
            return riders.none()
        still_in = riders_still_in(event)
        if still_in is not None:
            riders = riders.filter(pk__in=still_in)
        entries = RaceEntry.objects.filter(race_id=event.template_id)
        if entries.exists():
            return riders.filter(pk__in=entries.values("rider_id"))
        return riders.filter(team__year=event.year)

    def candidate(self, pickable: Rider) -> Candidate:
        return Candidate(
            id=pickable.pk,
            name=pickable.name,
            real_team_id=pickable.team_id,
            real_team_name=pickable.team.name if pickable.team_id else "",  # type: ignore[union-attr]
            price=self.ratings.price(pickable),
            person_id=pickable.pk,
        )

    def seat_key(self, *, competitor_id: int, number: int | None) -> str:
        return str(competitor_id)

    def person_of(self, pickable: Rider) -> int:
        return int(pickable.pk)

    def pool_size(self, event: Race) -> int:
        return int(self.pool(event).count())

    def seat_values(
        self, pickable: Rider, *, team_id: int, taken: Sequence[SeatPlace]
    ) -> dict[str, Any]:
        # A rider's bib comes when his team is complete (team_seated).
        return {"rider": pickable}

    def team_seated(
        self, pickables: Sequence[Rider], *, team_index: int, roster_size: int
    ) -> list[dict[str, Any]]:
        """Default roles (races.team_rules) and the team's block of bibs (the ``team_index``-th
        block of ten), the GC leader first, then the dearest (the lowest id among equals)."""
        first_number = team_index * number_block(roster_size) + 1
        roles = default_roles(pickables, ratings=self.ratings.of)
        price = self.ratings.price
        ranked = sorted(pickables, key=lambda r: (roles[r.pk] != GC_LEADER, -price(r), r.pk))
        number = {rider.pk: first_number + offset for offset, rider in enumerate(ranked)}
        return [{"role": roles[r.pk], "number": number[r.pk]} for r in pickables]

    def selection_order(self, pickables: Sequence[Rider], roles: Sequence[str]) -> list[int]:
        """The squad's GC leader first, then the dearest riders (the price of his ratings in
        the league), the lowest bib among equals (the squad's order)."""
        price = self.ratings.price
        return sorted(
            range(len(pickables)),
            key=lambda i: (roles[i] != GC_LEADER, -price(pickables[i]), i),
        )

    @staticmethod
    def start_list_race_id(event: Race) -> int:
        """The race whose start list a league of ``event`` races with: a real race's own, a
        league copy's template's."""
        return int(event.template_id or event.pk)

    def start_list_size(self, event: Race) -> int:
        return int(RaceEntry.objects.filter(race_id=self.start_list_race_id(event)).count())

    def peloton_problems(self, event: Race, *, peloton: str) -> list[str]:
        if peloton == PELOTON_PLAYERS or self.start_list_size(event):
            return []
        return [
            gettext(
                "%(race)s has no start list, so no computer team can ride: choose \"the players' "
                'riders only", or ask an admin to import its start list.'
            )
            % {"race": event.template.name if event.template_id else event.name}  # type: ignore[union-attr]
        ]

    def ratings_warning(self, event: Race) -> str:
        """What the organiser is told of a start list whose riders' ratings no admin has
        reviewed ("" when all are): a warning, never a refusal (one query)."""
        race_id = self.start_list_race_id(event)
        not_reviewed, unrated = start_list_review_counts(Race.objects.filter(pk=race_id)).get(
            race_id, (0, 0)
        )
        return review_warning_text(not_reviewed=not_reviewed, unrated=unrated)

    def peloton_text(self, event: Race, *, peloton: str) -> str:
        size = self.start_list_size(event)
        if peloton == PELOTON_PLAYERS:
            return gettext("Who races: the players' riders only.")
        if not size:
            return gettext(
                "Who races: the players' riders only, since the race has no start list (an admin "
                "can import one)."
            )
        return ngettext(
            "Who races: the players' riders, and computer teams with the rest of the start "
            "list's %(riders)d rider.",
            "Who races: the players' riders, and computer teams with the rest of the start "
            "list's %(riders)d riders.",
            size,
        ) % {"riders": size}

    def computer_teams(
        self,
        event: Race,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
        calendar: Sequence[Race] = (),
    ) -> list[ComputerTeam]:
        """Every start-list rider no player took, in a team named after his real team, with
        default roles and his real bib where the league's bib rule allows (_computer_numbers),
        else a block of ten after the players' teams. With a calendar of
        several races, the union of their start lists (each rider once, in the team of the
        first race he starts in calendar order; docs/league.md "Squads and selections"). None
        when the organiser races the players' riders only, nor without an imported start list
        (the fallback pool, the year's real teams, may hold riders who never started the
        race)."""
        templates = [race.template_id for race in calendar or [event] if race.template_id]
        if peloton == PELOTON_PLAYERS or event.template_id is None or not templates:
            return []
        place = {race_id: index for index, race_id in enumerate(templates)}
        # A race forked after stage N starts only the riders still in it.
        still_in = {
            race.template_id: riders_still_in(race) or set()
            for race in calendar or [event]
            if race.template_id and race.start_after
        }
        entries = []
        seen = set(taken_people)
        for entry in sorted(
            RaceEntry.objects.filter(race_id__in=templates).select_related("rider__team", "team"),
            key=lambda e: (place[e.race_id], e.bib or 0, e.pk),
        ):
            left = entry.race_id in still_in and entry.rider_id not in still_in[entry.race_id]
            if entry.rider_id not in seen and not left:
                seen.add(entry.rider_id)
                entries.append(entry)
        by_team: dict[str, list[Rider]] = defaultdict(list)
        bibs: dict[int, int | None] = {}
        for entry in entries:
            team = entry.team or (entry.rider.team if entry.rider.team_id else None)
            by_team[team.name if team else UNATTACHED].append(entry.rider)
            bibs[entry.rider_id] = entry.bib
        used = [place.number for place in taken if place.number is not None]
        largest = max([len(riders) for riders in by_team.values()] + [roster_size])
        block = number_block(largest)
        numbers = _computer_numbers(by_team, bibs=bibs, used=used, block=block)
        teams = []
        for name, riders in by_team.items():
            roles = default_roles(riders, ratings=self.ratings.of)
            ordered = sorted(riders, key=lambda r: roles[r.pk] != GC_LEADER)
            teams.append(
                ComputerTeam(
                    name=name,
                    seats=[
                        {"rider": rider, "role": roles[rider.pk], "number": numbers[rider.pk]}
                        for rider in ordered
                    ],
                )
            )
        return teams


def _computer_numbers(
    by_team: Mapping[str, Sequence[Rider]],
    *,
    bibs: Mapping[int, int | None],
    used: Sequence[int],
    block: int,
) -> dict[int, int]:
    """Each computer-team rider's bib: his bib of the start list where the league's bib rule
    allows it (a team's bibs in one block of its own, docs/league.md), else the team's block
    after every block taken.

    A team keeps its real bibs when each of its riders has one, all in the same block, and no
    player's team nor a team kept before holds a number in that block (a player's team takes
    the first blocks, so the real teams numbered 1-8, 11-18... of a Grand Tour then move).
    """
    taken_blocks = {(number - 1) // block for number in used}
    numbers: dict[int, int] = {}
    moved: list[Sequence[Rider]] = []
    for riders in by_team.values():
        real = [bibs.get(rider.pk) for rider in riders]
        blocks = {(bib - 1) // block for bib in real if bib}
        if None in real or 0 in real or len(blocks) != 1 or blocks & taken_blocks:
            moved.append(riders)
            continue
        taken_blocks |= blocks
        numbers.update({rider.pk: int(bibs[rider.pk] or 0) for rider in riders})
    next_block = max(taken_blocks, default=-1) + 1
    for riders in moved:
        roles = default_roles(riders)
        ordered = sorted(riders, key=lambda r: roles[r.pk] != GC_LEADER)
        first = next_block * block + 1
        numbers.update({rider.pk: first + offset for offset, rider in enumerate(ordered)})
        next_block += 1
    return numbers


def review_warning_text(*, not_reviewed: int, unrated: int) -> str:
    if not not_reviewed:
        return ""
    text = ngettext(
        "%(count)d rider of the start list has ratings no admin has reviewed yet",
        "%(count)d riders of the start list have ratings no admin has reviewed yet",
        not_reviewed,
    ) % {"count": not_reviewed}
    if unrated:
        text += ngettext(
            " (%(count)d never rated: 0 on every axis)",
            " (%(count)d never rated: 0 on every axis)",
            unrated,
        ) % {"count": unrated}
    return text + gettext(
        ": their prices and strengths may be off. An admin must review them (Riders › "
        "Ratings to review) before the teams are formed."
    )
