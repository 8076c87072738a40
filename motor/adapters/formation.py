"""How a motor league forms its teams (plugins.formation.TeamFormation): cars (entries of the
league's championship: a driver in a constructor's car), priced from the points the driver
scored in the real championship, seated two a team on a grid of the game's cars, and the real
constructors' cars no player took racing for computer teams (docs/league.md "Motor seasons")."""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.translation import gettext_lazy

from motor.models import Championship, Entry
from plugins.formation import Candidate, ComputerTeam, SeatPlace

#: A car's price: this, plus the points its driver scored in the real championship.
CAR_PRICE_BASE = 5
#: The largest car number a league gives (a car whose real number is taken gets the lowest
#: free one).
CAR_NUMBER_MAX = 99


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


class MotorFormation:
    seat_field = "entry"
    pickable_noun = gettext_lazy("car")
    pickables_noun = gettext_lazy("cars")
    #: The cars of one team (the motor specs: two).
    cars_per_team = 2

    @property
    def max_cars(self) -> int:  # the adapter's (motor.adapters.base.MotorAdapter)
        raise NotImplementedError

    def pool(self, event: Championship, *, peloton: str = "") -> QuerySet[Entry]:
        """The entries of the league's championship, in constructor and car-number order."""
        return Entry.objects.filter(championship=event).select_related(
            "driver", "constructor", "championship"
        )

    def candidate(self, pickable: Entry) -> Candidate:
        return Candidate(
            id=pickable.pk,
            name=pickable.driver.name,
            real_team_id=pickable.constructor_id,
            real_team_name=pickable.constructor.name,
            price=car_price(pickable),
            person_id=pickable.driver_id,
            number=pickable.number or 0,
        )

    def person_of(self, pickable: Entry) -> int:
        return int(pickable.driver_id)

    def pool_size(self, event: Championship) -> int:
        return min(self.max_cars, int(self.pool(event).count()))

    def seat_values(
        self, pickable: Entry, *, team_id: int, taken: Sequence[SeatPlace]
    ) -> dict[str, Any]:
        """The car's slot in its team (the first free), its place on the grid (the first
        free) and its number (the real one if no car has it, else the lowest free)."""
        slots = {p.slot for p in taken if p.team_id == team_id}
        grid = {p.grid for p in taken}
        numbers = {p.number for p in taken}
        number = pickable.number if pickable.number and pickable.number not in numbers else None
        if number is None:
            number = next(n for n in range(1, CAR_NUMBER_MAX + 1) if n not in numbers)
        return {
            "entry": pickable,
            "slot": next(s for s in range(1, self.cars_per_team + 1) if s not in slots),
            "grid": next(g for g in range(1, self.max_cars + 1) if g not in grid),
            "number": number,
        }

    def team_seated(
        self, pickables: Sequence[Entry], *, team_index: int, roster_size: int
    ) -> list[dict[str, Any]]:
        # A car has its number from the moment it is seated.
        return []

    def computer_teams(
        self,
        event: Championship,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
    ) -> list[ComputerTeam]:
        """The grid's empty places (up to the game's cars), filled with teams of two cars: the
        real constructors' cars that no player took, in entry order, each team named after its
        constructor."""
        seated = len(taken)
        by_constructor: dict[int, list[Entry]] = {}
        for entry in self.pool(event):
            if entry.driver_id not in taken_people:
                by_constructor.setdefault(entry.constructor_id, []).append(entry)
        places = list(taken)
        drivers: set[int] = set()
        teams: list[ComputerTeam] = []
        for entries in by_constructor.values():
            if seated + self.cars_per_team > self.max_cars:
                break
            cars: list[Entry] = []
            for entry in entries:
                if entry.driver_id not in drivers and len(cars) < self.cars_per_team:
                    cars.append(entry)
                    drivers.add(entry.driver_id)
            if len(cars) < self.cars_per_team:
                continue
            team_id = -1 - len(teams)  # not a team yet: its own slots only
            seats = []
            for entry in cars:
                values = self.seat_values(entry, team_id=team_id, taken=places)
                places.append(
                    SeatPlace(
                        team_id=team_id,
                        number=values["number"],
                        slot=values["slot"],
                        grid=values["grid"],
                    )
                )
                seats.append(values)
            seated += self.cars_per_team
            teams.append(ComputerTeam(name=cars[0].constructor.name, seats=seats))
        return teams
