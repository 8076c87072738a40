"""Computer teams: the riders of a race's start list that no player took race too (unless the
organiser chose the players' riders only, ``Season.peloton``).

When the race starts (stage 1 opens, or is resolved without having been opened), every rider
of the imported start list who is in no player's team joins a team run by the computer, one
per real team, named after it (docs/league.md "Computer teams"). Nobody owns a computer team:
nobody can manage it or give it orders, so its riders ride with the default orders of their
roles (docs/league.md "Roles"). The players' formation never sees these teams: they come into
being once the teams are formed, and formation counts the players' teams only.
"""

from collections import defaultdict

from django.db import transaction

from races.models import RaceEntry
from riders.models import Rider, Team
from season.models import Season, SeasonTeam, Seat
from season.orders import default_roles

#: The name of a computer team whose real team's name a player already took.
TAKEN_NAME = "{name} (computer)"
UNATTACHED = "Unattached riders"


def computer_teams_fill(*, season: Season) -> list[SeasonTeam]:
    """Put every start-list rider in no team of the season into a computer team named after
    his real team; return the teams created. Idempotent: a second call finds nobody left.

    Nothing is done when the organiser races the players' riders only (``Season.peloton``),
    nor without an imported start list (`RaceEntry` rows of the template race): the fallback
    pool of formation (the year's real teams) may hold riders who never started the race.
    """
    if season.race_id is None:
        # A motor season: its grid's empty seats go to computer teams of two cars.
        from season.motor_league import computer_cars_fill

        return computer_cars_fill(season=season)
    if season.peloton == Season.Peloton.PLAYERS or season.race.template_id is None:
        return []
    with transaction.atomic():
        # The same lock as every formation step: a late pick cannot race this.
        locked = Season.objects.select_for_update().get(pk=season.pk)
        taken = set(Seat.objects.filter(season=locked).values_list("rider_id", flat=True))
        entries = [
            entry
            for entry in RaceEntry.objects.filter(race_id=season.race.template_id)
            .select_related("rider__team", "team")
            .order_by("bib", "pk")
            if entry.rider_id not in taken
        ]
        if not entries:
            return []
        by_team: dict[str, list[RaceEntry]] = defaultdict(list)
        for entry in entries:
            team = entry.team or _rider_team(entry.rider)
            by_team[team.name if team else UNATTACHED].append(entry)
        names = {name.lower() for name in locked.teams.values_list("name", flat=True)}
        teams = []
        for real_name, team_entries in by_team.items():
            name = (
                real_name if real_name.lower() not in names else TAKEN_NAME.format(name=real_name)
            )
            names.add(name.lower())
            teams.append((SeasonTeam(season=locked, name=name[:80], owner=None), team_entries))
        SeasonTeam.objects.bulk_create([team for team, _entries in teams])
        Seat.objects.bulk_create(_members(locked, teams))
    return [team for team, _entries in teams]


def _rider_team(rider: Rider) -> Team | None:
    return rider.team if rider.team_id else None


def _members(season: Season, teams: list[tuple[SeasonTeam, list[RaceEntry]]]) -> list[Seat]:
    """Default roles, and bibs in blocks of ten after the players' teams (as formation gives
    them: the GC leader first, then start-list order)."""
    used = [
        bib
        for bib in Seat.objects.filter(season=season).values_list("number", flat=True)
        if bib is not None
    ]
    largest = max([len(entries) for _team, entries in teams] + [season.roster_size])
    block = 10 * ((largest + 10) // 10)
    first_block = (max(used, default=0) + block - 1) // block
    members = []
    for index, (team, entries) in enumerate(teams):
        riders = [entry.rider for entry in entries]
        roles = default_roles(riders)
        ordered = sorted(riders, key=lambda r: roles[r.pk] != "gc_leader")
        first_bib = (first_block + index) * block + 1
        members += [
            Seat(
                season=season,
                team=team,
                rider=rider,
                role=roles[rider.pk],
                number=first_bib + offset,
            )
            for offset, rider in enumerate(ordered)
        ]
    return members
