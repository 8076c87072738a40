"""What a game's adapter answers for forming a league's teams, riders and cars alike.

A league team has seats (season.models.Seat): a stage race's teams seat riders, a
championship's seat cars (an entry: a driver in a constructor's car). The formation services
(season.formation: a draft in turns with its clock and wish list, or picks within a budget)
are one for every game; what they pick from, what it costs, how a seat is numbered and who
races for the computer is the game's, asked here. The values are plain (no app model is
named: the adapters give them precisely), so that this package imports no app.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Candidate:
    """What a team may pick (a rider, or a car), as the formation rules see it."""

    #: The pickable's id (a rider's, or an entry's).
    id: int
    #: The rider's name, or the car's driver's.
    name: str
    #: His real team, or the car's constructor (the limit per real team counts these).
    real_team_id: int | None
    real_team_name: str
    price: int
    #: The person who races: a rider, or the car's driver. Nobody races twice in a season.
    person_id: int
    #: The number it races under (a car's), breaking ties among equal prices; 0 for none.
    number: int = 0


@dataclass(frozen=True)
class SeatPlace:
    """A seat already taken in the season, as the numbering of a new seat needs it."""

    team_id: int
    number: int | None
    slot: int | None
    grid: int | None


@dataclass(frozen=True)
class ComputerTeam:
    """A team the computer runs: its real name and its seats' values (season.models.Seat
    fields: the pickable under the adapter's ``seat_field``, and its number, role, slot, grid)."""

    name: str
    seats: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class PickColumn:
    """One of the game's own columns in the tables a team picks from (the draft board, the
    budget checkboxes): a rider's rating, a car's number."""

    #: The key of the value in :meth:`TeamFormation.pick_values`.
    key: str
    #: The column's heading, in the reader's language.
    label: Any
    #: A rating H..4 (-1 shown as H), its heading abbreviated to three letters.
    rating: bool = False
    #: A number (right-aligned).
    numeric: bool = False


#: The words of the team page a game gives (:attr:`TeamFormation.team_words`), each a lazy
#: text: the columns' headings ("name", "number", "real_team"), the roster's ("roster",
#: formatted with count and size; "none_yet"; "roles_provisional"), the budget pick's
#: ("choose", "tick" with size and budget, "per_real_team" with limit, "not_listed",
#: "summary" with count and size, "started"), the draft's ("waiting", "clock": a plural form
#: on minutes, "your_turn", "draft_limit" with limit, "board", "board_empty", "search",
#: "speciality_help", "wish_help", "wish_empty") and the messages' ("pick_choose",
#: "wish_choose").
TEAM_WORDS = (
    "name",
    "number",
    "real_team",
    "roster",
    "none_yet",
    "roles_provisional",
    "choose",
    "tick",
    "per_real_team",
    "not_listed",
    "summary",
    "started",
    "waiting",
    "clock",
    "your_turn",
    "draft_limit",
    "board",
    "board_empty",
    "search",
    "speciality_help",
    "wish_help",
    "wish_empty",
    "pick_choose",
    "wish_choose",
)


class TeamFormation(Protocol):
    """The formation members of a game's adapter (part of plugins.protocol.GameAdapter)."""

    #: The Seat's (and DraftPick's, WishListEntry's) field that holds what a team picks:
    #: "rider" or "entry".
    seat_field: str
    #: The seats have roles (a cycling team's: GC leader, sprinter...), given in each round's
    #: orders within the team's limits (season.orders); a car has none.
    seat_roles: bool
    #: The order of a round's starters (a queryset order of season.models.Seat).
    seat_order: tuple[str, ...]
    #: The default selection of an event that starts part of a squad, in a few words for the
    #: selection page (docs/league.md "Squads and selections").
    selection_rule: Any
    #: The pages' words for one pickable and several ("rider"/"riders", "car"/"cars").
    pickable_noun: Any
    pickables_noun: Any
    #: The team page's words (every key of TEAM_WORDS), the game's nouns in them.
    team_words: Mapping[str, Any]

    def rated_for(self, event: Any) -> Any:
        """This formation reading what a team picks as the league copy ``event`` rates it
        (its own TeamFormation): a season keeps the ratings and prices its riders had when
        its formation started (docs/league.md "A season keeps its ratings"); a game whose
        pickables have no ratings of their own returns itself."""
        ...

    def ratings_freeze(self, events: Sequence[Any], pickables: Any) -> int:
        """Keep the ratings of ``pickables`` (the season's pool) for each of ``events`` (its
        league copies) that keeps none yet; the number of rows written (0 for a game without
        ratings)."""
        ...

    def pick_columns(self) -> list[PickColumn]:
        """The game's own columns of what a team picks from, after its name, price and real
        team (a rider's ratings; a car's number and engine)."""
        ...

    def pick_values(self, pickable: Any) -> dict[str, Any]:
        """A pickable's values of :meth:`pick_columns`, by key (raw: a rating's -1..4)."""
        ...

    def pick_specialities(self) -> list[tuple[str, str]]:
        """The draft board's speciality filter as (key, label); [] for no such filter."""
        ...

    def pick_speciality(self, pickable: Any, key: str) -> bool:
        """Whether ``pickable`` is good at the speciality ``key`` (the board keeps those, the
        best of it first: the board sorts on the value of the column ``key``)."""
        ...

    def team_note(self, event: Any) -> str:
        """A sentence under a team's limits on the team page (a grid's seats); "" for none."""
        ...

    def pool(self, event: Any, *, peloton: str = "") -> Any:
        """What the season's teams are formed from (a queryset of the adapter's app, in the
        pool's order), for the season's ``event`` (a stage race, or a championship)."""
        ...

    def candidate(self, pickable: Any) -> Candidate: ...

    def seat_key(self, *, competitor_id: int, number: int | None) -> str:
        """How a team's orders name a seat (a rider's id, a car's number)."""
        ...

    def person_of(self, pickable: Any) -> int:
        """The person who races it (a rider's id, a car's driver's id)."""
        ...

    def pool_size(self, event: Any) -> int:
        """How many the season's teams can seat from the pool (a grid: at most the game's
        cars)."""
        ...

    def seat_values(
        self, pickable: Any, *, team_id: int, taken: Sequence[SeatPlace]
    ) -> dict[str, Any]:
        """The new seat's fields for ``pickable`` joining team ``team_id`` (its number, slot
        and grid place where the game gives them at once), given the season's seats."""
        ...

    def team_seated(
        self, pickables: Sequence[Any], *, team_index: int, roster_size: int
    ) -> list[dict[str, Any]]:
        """Once a team is complete: each seat's new fields, in ``pickables``' order (a
        cycling team's default roles, and its bibs from its place ``team_index`` among the
        season's teams); [] to change none."""
        ...

    def selection_order(self, pickables: Sequence[Any], roles: Sequence[str]) -> list[int]:
        """The indexes of ``pickables`` (a squad's, each with its squad role in ``roles``) in
        the order the default selection of an event takes them (docs/league.md "Squads and
        selections")."""
        ...

    def peloton_text(self, event: Any, *, peloton: str) -> str:
        """Who races in a league of ``event`` with ``peloton``, in a sentence the organiser's
        page shows."""
        ...

    def peloton_problems(self, event: Any, *, peloton: str) -> list[str]:
        """Why a league of ``event`` cannot race with ``peloton`` (a start list it does not
        have), each a sentence naming what is possible instead; [] when it can."""
        ...

    def computer_teams(
        self,
        event: Any,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
        calendar: Sequence[Any] = (),
    ) -> list[ComputerTeam]:
        """The teams the computer runs once the players' teams are formed: what no player took
        (``taken_people`` race already), in the game's order; ``players``: the players' teams;
        ``calendar``: the league copies of the season's events, whose pools the computer's
        teams are drawn from together (empty: ``event``'s alone)."""
        ...


def seat_places(seats: Sequence[Mapping[str, Any]]) -> list[SeatPlace]:
    """SeatPlace rows from ``values("team_id", "number", "slot", "grid")`` of seats."""
    return [
        SeatPlace(team_id=s["team_id"], number=s["number"], slot=s["slot"], grid=s["grid"])
        for s in seats
    ]
