"""The jerseys of a stage race: who leads each classification after a stage and who wears its
jersey, as the league's pages show them (the season page, a stage's page, the standings, the
end of the race).

A rider wears one jersey: leading several classifications, he wears the most important one
(yellow, then green, polka dot, white: the order of ``JERSEYS``), and each other jersey goes to
the best-placed rider of its classification who wears none yet, as in the Tour (docs/
classifications.md "Who wears which jersey")."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from races.models import Classification, Standing


@dataclass(frozen=True)
class Jersey:
    classification: str
    label: str
    colour: str
    #: Who wears it (a rider), or the leading team's name for the team classification.
    rider_id: int | None
    name: str
    #: The classification's leader, when he wears a more important jersey (else empty).
    leader_name: str = ""


# The jersey of each classification's leader: its name on the pages and its colour.
JERSEYS = (
    (Classification.GENERAL, gettext_lazy("Yellow"), "#f2c200"),
    (Classification.POINTS, gettext_lazy("Green"), "#2e9e44"),
    (Classification.MOUNTAINS, gettext_lazy("Polka dot"), "#d7263d"),
    (Classification.YOUTH, gettext_lazy("White"), "#ffffff"),
    (Classification.TEAMS, gettext_lazy("Best team"), "#1d232a"),
)


def jersey_holders(
    *,
    race_id: int,
    number: int,
    team_names: Callable[[], Mapping[int, str]],
    worn: bool = True,
) -> list[Jersey]:
    """Each classification's jersey after stage ``number`` of the race (one query): worn as
    the module says, or, with ``worn=False`` (the final podium, where each winner receives
    his), by each leader. ``team_names()`` is asked only when a team leads the Teams
    classification (it may read)."""
    riders_jerseys = sum(1 for c, _, _ in JERSEYS if c != Classification.TEAMS)
    # Down to the rank that can wear the last rider's jersey: its leader and one rider per
    # more important jersey may be taken already.
    lines: dict[str, list[Standing]] = {}
    for line in (
        Standing.objects.filter(
            stage__race_id=race_id, stage__number=number, rank__lte=riders_jerseys
        )
        .select_related("rider", "team")
        .order_by("classification", "rank")
    ):
        lines.setdefault(line.classification, []).append(line)
    names = team_names() if lines.get(Classification.TEAMS) else {}
    wearing: set[int] = set()
    jerseys = []
    for classification, label, colour in JERSEYS:
        ranked = lines.get(classification)
        if not ranked:
            continue
        leader = ranked[0]
        if classification == Classification.TEAMS:
            # A real team leads the given classification of a forked race (its stage N).
            name = names.get(leader.entry_team_id or 0, "") or (
                leader.team.name if leader.team else ""
            )
            jerseys.append(Jersey(classification, str(label), colour, leader.rider_id, name))
            continue
        wearer = leader
        if worn:
            wearer = next((r for r in ranked if r.rider_id not in wearing), leader)
            if wearer.rider_id is not None:
                wearing.add(wearer.rider_id)
        jerseys.append(
            Jersey(
                classification,
                str(label),
                colour,
                wearer.rider_id,
                wearer.rider.name if wearer.rider else "",
                leader_name=(leader.rider.name if leader.rider else "")
                if wearer is not leader
                else "",
            )
        )
    return jerseys


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
