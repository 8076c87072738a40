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


class TeamFormation(Protocol):
    """The formation members of a game's adapter (part of plugins.protocol.GameAdapter)."""

    #: The Seat's (and DraftPick's, WishListEntry's) field that holds what a team picks:
    #: "rider" or "entry".
    seat_field: str
    #: The pages' words for one pickable and several ("rider"/"riders", "car"/"cars").
    pickable_noun: Any
    pickables_noun: Any

    def pool(self, event: Any, *, peloton: str = "") -> Any:
        """What the season's teams are formed from (a queryset of the adapter's app, in the
        pool's order), for the season's ``event`` (a stage race, or a championship)."""
        ...

    def candidate(self, pickable: Any) -> Candidate: ...

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

    def computer_teams(
        self,
        event: Any,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
    ) -> list[ComputerTeam]:
        """The teams the computer runs once the players' teams are formed: what no player took
        (``taken_people`` race already), in the game's order; ``players``: the players' teams."""
        ...


def seat_places(seats: Sequence[Mapping[str, Any]]) -> list[SeatPlace]:
    """SeatPlace rows from ``values("team_id", "number", "slot", "grid")`` of seats."""
    return [
        SeatPlace(team_id=s["team_id"], number=s["number"], slot=s["slot"], grid=s["grid"])
        for s in seats
    ]
