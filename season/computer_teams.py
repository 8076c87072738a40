"""Computer teams: what no player took races too (unless the organiser chose the players'
riders only, ``Season.peloton``).

When the race starts (round 1 opens, or is resolved without having been opened), the game's
adapter says who races for the computer (plugins.formation.TeamFormation.computer_teams: a
stage race's start-list riders by their real teams, a championship's free cars two by two on
the grid), and the season seats them in teams named after their real teams (docs/league.md
"Computer teams"). Nobody owns a computer team: nobody can manage it or give it orders, so it
races with the default orders. The players' formation never sees these teams: they come into
being once the teams are formed, and formation counts the players' teams only.
"""

from django.db import transaction

from plugins.formation import seat_places
from season.models import Season, SeasonTeam, Seat
from season.rated import rated_game, ratings_freeze

#: The name of a computer team whose real team's name a player already took.
TAKEN_NAME = "{name} (computer)"


def computer_teams_fill(*, season: Season) -> list[SeasonTeam]:
    """Seat what no player took in computer teams, as the game's adapter groups them; return
    the teams created. Idempotent: a second call finds nothing left."""
    with transaction.atomic():
        # The same lock as every formation step: a late pick cannot race this.
        locked = Season.objects.select_for_update().get(pk=season.pk)
        # Teams are formed: the season keeps its ratings from here on, however they formed.
        ratings_freeze(locked)
        game = rated_game(locked)
        seats = list(Seat.objects.filter(season=locked).select_related(game.seat_field))
        computer = game.computer_teams(
            locked.event,
            taken_people={game.person_of(getattr(seat, game.seat_field)) for seat in seats},
            taken=seat_places(
                [
                    {"team_id": s.team_id, "number": s.number, "slot": s.slot, "grid": s.grid}
                    for s in seats
                ]
            ),
            peloton=locked.peloton,
            roster_size=locked.roster_size,
            players=locked.teams.count(),
            calendar=[item.event for item in locked.calendar()],
        )
        computer = [team for team in computer if team.seats]
        if not computer:
            return []
        names = {name.lower() for name in locked.teams.values_list("name", flat=True)}
        teams = []
        for real in computer:
            name = (
                real.name if real.name.lower() not in names else TAKEN_NAME.format(name=real.name)
            )
            names.add(name.lower())
            teams.append(SeasonTeam(season=locked, name=name[:80], owner=None))
        SeasonTeam.objects.bulk_create(teams)
        Seat.objects.bulk_create(
            Seat(season=locked, team=team, **values)
            for team, real in zip(teams, computer, strict=True)
            for values in real.seats
        )
    return teams
