"""The jerseys of a stage race: who leads each classification after a stage, as the league's
pages show them (the season page, a stage's page, the standings, the end of the race)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from races.models import Classification, Standing


@dataclass(frozen=True)
class Jersey:
    classification: str
    label: str
    colour: str
    rider_id: int | None
    name: str


# The jersey of each classification's leader: its name on the pages and its colour.
JERSEYS = (
    (Classification.GENERAL, gettext_lazy("Yellow"), "#f2c200"),
    (Classification.POINTS, gettext_lazy("Green"), "#2e9e44"),
    (Classification.MOUNTAINS, gettext_lazy("Polka dot"), "#d7263d"),
    (Classification.YOUTH, gettext_lazy("White"), "#ffffff"),
    (Classification.TEAMS, gettext_lazy("Best team"), "#1d232a"),
)


def jersey_holders(
    *, race_id: int, number: int, team_names: Callable[[], Mapping[int, str]]
) -> list[Jersey]:
    """The leader of each classification after stage ``number`` of the race (one query);
    ``team_names()`` is asked only when a team leads the Teams classification (it may read)."""
    leaders = {
        s.classification: s
        for s in Standing.objects.filter(
            stage__race_id=race_id, stage__number=number, rank=1
        ).select_related("rider")
    }
    return jerseys_of(
        {
            classification: (
                line.rider_id,
                line.rider.name if line.rider else "",
                line.entry_team_id,
            )
            for classification, line in leaders.items()
        },
        team_names=team_names,
    )


def jerseys_of(
    leaders: Mapping[str, tuple[int | None, str, int | None]],
    *,
    team_names: Callable[[], Mapping[int, str]],
) -> list[Jersey]:
    """The jerseys of ``leaders`` (classification -> (rider id, rider's name, league team id)
    of its first), in the jerseys' order."""
    names = team_names() if Classification.TEAMS in leaders else {}
    jerseys = []
    for classification, label, colour in JERSEYS:
        leader = leaders.get(classification)
        if leader is None:
            continue
        rider_id, rider, team_id = leader
        name = names.get(team_id or 0, "") if classification == Classification.TEAMS else rider
        jerseys.append(Jersey(classification, str(label), colour, rider_id, name))
    return jerseys
