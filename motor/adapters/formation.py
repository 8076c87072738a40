"""How a motor league forms its teams (plugins.formation.TeamFormation): cars (entries of the
league's championship: a driver in a constructor's car), priced from the points the driver
scored in the real championship, seated two a team on a grid of the game's cars, and the real
constructors' cars no player took racing for computer teams (docs/league.md "Motor seasons")."""

from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from motor.models import Championship, Entry
from motor.words import car_engine_text
from plugins.formation import Candidate, ComputerTeam, PickColumn, SeatPlace

#: A car's price: this, plus the points its driver scored in the real championship.
CAR_PRICE_BASE = 5
#: The largest car number a league gives (a car whose real number is taken gets the lowest
#: free one).
CAR_NUMBER_MAX = 99

#: The team page's words (plugins.formation.TEAM_WORDS).
TEAM_WORDS: Mapping[str, Any] = MappingProxyType(
    {
        "name": gettext_lazy("Driver"),
        "number": gettext_lazy("Car"),
        "real_team": gettext_lazy("Constructor"),
        "roster": gettext_lazy("My cars (%(count)s of %(size)s)"),
        "none_yet": gettext_lazy("No car yet."),
        "roles_provisional": "",
        "choose": gettext_lazy("Choose your cars"),
        "tick": gettext_lazy("Tick %(size)s cars costing %(budget)s at most together."),
        "per_real_team": gettext_lazy("At most %(limit)s from one constructor."),
        "not_listed": gettext_lazy("Cars already in another team are not listed."),
        "summary": gettext_lazy("%(count)s of %(size)s cars"),
        "started": gettext_lazy("The championship has started: the teams are formed."),
        "waiting": gettext_lazy(
            "Waiting for the organiser to start the draft. Each team then picks one car in "
            "turn, in snake order: the last to pick in a round picks first in the next."
        ),
        "clock": ngettext_lazy(
            "Each team has %(minutes)s minute per pick; when it runs out, the pick is made for "
            "the team: the first free car of its wish list, else the dearest car that fits.",
            "Each team has %(minutes)s minutes per pick; when they run out, the pick is made for "
            "the team: the first free car of its wish list, else the dearest car that fits.",
            "minutes",
        ),
        "your_turn": gettext_lazy("It is your turn: pick a car."),
        "draft_limit": gettext_lazy("at most %(limit)s cars from one constructor"),
        "board": gettext_lazy("Cars still free"),
        "board_empty": gettext_lazy("No free car matches."),
        "search": gettext_lazy("Driver or constructor"),
        "speciality_help": "",
        "wish_help": gettext_lazy(
            "Only you see it. When your pick is made automatically (the clock ran out, or the "
            "organiser picks for you), it takes the first car of this list that is still free "
            "and fits your team. Cars picked by anybody leave it."
        ),
        "wish_empty": gettext_lazy(
            "Your wish list is empty: add cars with the Wish buttons of the board below."
        ),
        "pick_choose": gettext_lazy("Choose a car of this championship."),
        "wish_choose": gettext_lazy("Choose a car for your wish list."),
    }
)


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
    seat_order = ("team__draft_position", "team_id", "slot")
    seat_roles = False
    selection_rule = gettext_lazy("your cars in their order")
    pickable_noun = gettext_lazy("car")
    pickables_noun = gettext_lazy("cars")
    #: The cars of one team (the motor specs: two).
    cars_per_team = 2
    team_words = TEAM_WORDS

    def rated_for(self, event: Championship) -> "MotorFormation":
        """A car has no ratings an admin edits: its price is its driver's real points
        (car_price), the engine's inputs the track and the orders (docs/league.md "A season
        keeps its ratings")."""
        return self

    def ratings_freeze(self, events: Sequence[Any], pickables: Any) -> int:
        return 0

    def selection_order(self, pickables: Sequence[Any], roles: Sequence[str]) -> list[int]:
        """A team's cars in their order (a championship starts both)."""
        return list(range(len(pickables)))

    def pick_columns(self) -> list[PickColumn]:
        """The car's number and its engine."""
        return [
            PickColumn(key="number", label=gettext("Car"), numeric=True),
            PickColumn(key="engine", label=gettext("Engine")),
        ]

    def pick_values(self, pickable: Entry) -> dict[str, Any]:
        return {
            "number": pickable.number,
            "engine": car_engine_text(pickable.engine, pickable.constructor.slug),
        }

    def pick_specialities(self) -> list[tuple[str, str]]:
        return []

    def pick_speciality(self, pickable: Entry, key: str) -> bool:
        return False

    def team_note(self, event: Championship) -> str:
        """The grid's size and who takes its empty seats, and what a car costs."""
        return gettext(
            "Each team has %(total)s cars, each driver drives one car; the grid has %(grid)s "
            "cars, computer teams take the seats no player takes. A car costs %(base)s plus the "
            "points its driver scored in the real championship."
        ) % {"total": self.cars_per_team, "grid": self.max_cars, "base": CAR_PRICE_BASE}

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

    def seat_key(self, *, competitor_id: int, number: int | None) -> str:
        return str(number)

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

    def peloton_problems(self, event: Championship, *, peloton: str) -> list[str]:
        """A grid is always full: the computer drives the seats no player took."""
        return []

    def peloton_text(self, event: Championship, *, peloton: str) -> str:
        return gettext(
            "Who races: the players' cars, and computer teams on the grid's other seats."
        )

    def computer_teams(
        self,
        event: Championship,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
        calendar: Sequence[Any] = (),
    ) -> list[ComputerTeam]:
        """The grid's empty places (up to the game's cars), filled with teams of two cars: the
        real constructors' cars that no player took, in entry order, each team named after its
        constructor; then, while the grid has room, the cars left alone (a player took their
        team-mate) two by two, named after both constructors. So every free seat the organiser
        was promised races, as long as the championship has free cars."""
        by_constructor: dict[int, list[Entry]] = {}
        for entry in self.pool(event):
            if entry.driver_id not in taken_people:
                by_constructor.setdefault(entry.constructor_id, []).append(entry)
        places = list(taken)
        room = self.max_cars - len(taken)
        drivers: set[int] = set()
        groups: list[list[Entry]] = []
        alone: list[Entry] = []
        for entries in by_constructor.values():
            cars: list[Entry] = []
            for entry in entries:
                if entry.driver_id not in drivers and len(cars) < self.cars_per_team:
                    cars.append(entry)
                    drivers.add(entry.driver_id)
            if len(cars) == self.cars_per_team:
                groups.append(cars)
            else:
                alone.extend(cars)
        for start in range(0, len(alone) - self.cars_per_team + 1, self.cars_per_team):
            groups.append(alone[start : start + self.cars_per_team])
        teams: list[ComputerTeam] = []
        for cars in groups[: max(0, room) // self.cars_per_team]:
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
            names = list(dict.fromkeys(car.constructor.name for car in cars))
            teams.append(ComputerTeam(name=" / ".join(names), seats=seats))
        return teams
