"""How a cycling league forms its teams (plugins.formation.TeamFormation): riders of the stage
race's start list, priced from their ratings, numbered in blocks of ten once a team is complete
(its GC leader first), and the start list's other riders racing for computer teams named after
their real teams (docs/league.md "Team formation", "Computer teams")."""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy

from plugins.formation import Candidate, ComputerTeam, SeatPlace
from races.models import Race, RaceEntry
from races.team_rules import GC_LEADER, default_roles, rider_price
from riders.models import Rider

#: Who races beside the players' riders (season.models.Peloton's values).
PELOTON_PLAYERS = "players"
#: The computer team of start-list riders without a real team.
UNATTACHED = "Unattached riders"


def number_block(roster_size: int) -> int:
    """The bibs of one team: a block of ten (1-8, 11-18, ...), twenty for teams over nine."""
    return 10 * ((roster_size + 10) // 10)


class CyclingFormation:
    seat_field = "rider"
    pickable_noun = gettext_lazy("rider")
    pickables_noun = gettext_lazy("riders")

    def pool(self, event: Race, *, peloton: str = "") -> QuerySet[Rider]:
        """The start list of the race the route was copied from, or, when no start list was
        imported, the riders of that year's real teams."""
        riders = Rider.objects.select_related("team").order_by("name", "pk")
        if event.template_id is None:
            return riders.none()
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
            price=rider_price(pickable),
            person_id=pickable.pk,
        )

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
        roles = default_roles(pickables)
        ranked = sorted(pickables, key=lambda r: (roles[r.pk] != GC_LEADER, -rider_price(r), r.pk))
        number = {rider.pk: first_number + offset for offset, rider in enumerate(ranked)}
        return [{"role": roles[r.pk], "number": number[r.pk]} for r in pickables]

    def computer_teams(
        self,
        event: Race,
        *,
        taken_people: set[int],
        taken: Sequence[SeatPlace],
        peloton: str,
        roster_size: int,
        players: int,
    ) -> list[ComputerTeam]:
        """Every start-list rider no player took, in a team named after his real team, with
        default roles and bibs in blocks of ten after the players' teams. None when the
        organiser races the players' riders only, nor without an imported start list (the
        fallback pool, the year's real teams, may hold riders who never started the race)."""
        if peloton == PELOTON_PLAYERS or event.template_id is None:
            return []
        entries = [
            entry
            for entry in RaceEntry.objects.filter(race_id=event.template_id)
            .select_related("rider__team", "team")
            .order_by("bib", "pk")
            if entry.rider_id not in taken_people
        ]
        by_team: dict[str, list[Rider]] = defaultdict(list)
        for entry in entries:
            team = entry.team or (entry.rider.team if entry.rider.team_id else None)
            by_team[team.name if team else UNATTACHED].append(entry.rider)
        used = [place.number for place in taken if place.number is not None]
        largest = max([len(riders) for riders in by_team.values()] + [roster_size])
        block = number_block(largest)
        first_block = (max(used, default=0) + block - 1) // block
        teams = []
        for index, (name, riders) in enumerate(by_team.items()):
            roles = default_roles(riders)
            ordered = sorted(riders, key=lambda r: roles[r.pk] != GC_LEADER)
            first = (first_block + index) * block + 1
            teams.append(
                ComputerTeam(
                    name=name,
                    seats=[
                        {"rider": rider, "role": roles[rider.pk], "number": first + offset}
                        for offset, rider in enumerate(ordered)
                    ],
                )
            )
        return teams
