"""The stage race's parts of a league season's public pages: what the season page, a stage's
page, a team's page and a stage's dice log show of the race (CyclingAdapter.league_*).

Each part is built from the race's own rows (the race, the stage) and plain values the season
gives (its rounds, team names, seats), and names the template that extends the season's shell
of that page. races imports no season: a season, a round, a team or a seat is only read here
through its attributes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from races.charts.profile import profile_texts, stage_profile_pair
from races.formatting import clock, gap
from races.league.jerseys import jersey_holders
from races.league.tables import CalendarTable, DiceTable, RosterTable, StageResultTable
from races.models import Classification, Race, RaceEvent, Stage, StageResult, Standing

TEMPLATES = {
    "season": "races/league/season.html",
    "round": "races/league/round.html",
    "team": "races/league/team.html",
    "dice": "races/league/dice.html",
    "route": "races/league/_route.html",
    "players": "races/league/players.html",
}


def _general(race_id: int, number: int) -> Any:
    return (
        Standing.objects.filter(
            stage__race_id=race_id, stage__number=number, classification=Classification.GENERAL
        )
        .select_related("rider")
        .order_by("rank")
    )


def fork_text(race: Race) -> str:
    """What a forked copy's pages say of its start (docs/league.md "A real race forked at a
    stage")."""
    return _("Starts after stage %(number)d (the real race's state).") % {
        "number": race.start_after
    }


def season_part(
    race: Race,
    *,
    season: Any,
    rounds: Sequence[Any],
    last: int | None,
    team_names: Mapping[int, str],
) -> dict[str, Any]:
    """The calendar of stages, and the jerseys after the latest stage this visitor may see
    (round ``last`` of the season: its stage's race and number within it); before the first
    stage of a race forked after stage N, the real jerseys after stage N."""
    stage = next((r.stage for r in rounds if r.number == last), None) if last else None
    given = race.start_after if stage is None else 0
    jerseys_after = (stage.race_id, stage.number) if stage is not None else (race.pk, given)
    return {
        "table": CalendarTable(list(rounds), season=season),
        "jerseys": jersey_holders(
            race_id=jerseys_after[0], number=jerseys_after[1], team_names=lambda: team_names
        )
        if stage is not None or given
        else [],
        # The stage as its race numbers it (a later race's stage 1 is the season's round 22).
        "last_stage": stage.number if stage is not None else None,
        "given_stage": given,
        "fork_text": fork_text(race) if race.start_after else "",
        "race_name": race.template.name if race.template_id else race.name,  # type: ignore[union-attr]
    }


def round_part(
    stage: Stage,
    *,
    season: Any,
    visible: bool,
    team_names: Mapping[int, str],
    seats: Callable[[], Mapping[int, Sequence[Any]]],
    reinstate: bool,
) -> dict[str, Any]:
    """A stage: its profile; once its results are visible, the results, what happened (the
    riders named from the season's seats), the GC's top 10 and the jerseys after it; the riders
    outside the time limit while the organiser may keep them in the race."""
    part: dict[str, Any] = {
        "stage": stage,
        "profile": stage_profile_pair(
            stage.segments, title=f"{stage.start} – {stage.finish}", texts=profile_texts()
        ),
        "table": None,
        "events": [],
        "reinstatable": [],
    }
    results = StageResult.objects.filter(stage=stage).select_related("rider").order_by("rank")
    if visible:
        # One read of the 176 rows: the gaps of every rank ("s.t.") and the table's pages
        # (a list: no COUNT query for the paginator).
        rows = list(results)
        gaps_by_rank = {
            result.rank: result.gap_seconds
            for result in rows
            if result.rank is not None and result.gap_seconds is not None
        }
        part["table"] = StageResultTable(
            rows, season=season, team_names=team_names, gaps_by_rank=gaps_by_rank
        )
        events = list(
            RaceEvent.objects.filter(stage=stage)
            .exclude(kind=RaceEvent.Kind.ATTACK)
            .order_by("seq")
        )
        names = _rider_names(seats()) if events else {}
        part["events"] = [
            (event, [names.get(i, i) for i in event.rider_ids[:5]]) for event in events
        ]
        part.update(_after_the_stage(stage, team_names))
    if reinstate:
        part["reinstatable"] = list(results.filter(status=StageResult.Status.OUTSIDE_TIME_LIMIT))
    return part


def _rider_names(seats: Mapping[int, Sequence[Any]]) -> dict[int, str]:
    return {
        seat.rider_id: seat.rider.name
        for team in seats.values()
        for seat in team
        if getattr(seat, "rider_id", None)
    }


def _after_the_stage(stage: Stage, team_names: Mapping[int, str]) -> dict[str, Any]:
    """What a fan reads after the results: the GC's top 10 and the jerseys after the stage."""
    lines = list(_general(stage.race_id, stage.number)[:10])
    return {
        "gc_top": [
            {
                "rank": line.rank,
                "rider": line.rider,
                "team": team_names.get(line.entry_team_id or 0, ""),
                "team_id": line.entry_team_id if line.entry_team_id in team_names else None,
                "time": clock(line.value) if line.rank == 1 else gap(line.gap),
            }
            for line in lines
        ],
        "jerseys": jersey_holders(
            race_id=stage.race_id, number=stage.number, team_names=lambda: team_names
        ),
    }


def team_part(race: Race, *, season: Any, seats: Sequence[Any], upto: int) -> dict[str, Any]:
    """A team's riders with their places in the GC after stage ``upto``."""
    general = (
        {s.rider_id: s for s in _general(race.pk, upto) if s.rider_id is not None} if upto else {}
    )
    rows = []
    for seat in seats:
        standing = general.get(seat.rider_id)
        rows.append(
            {
                "bib": seat.number,
                "rider_id": seat.rider_id,
                "rider": seat.rider,
                "role": seat.get_role_display(),
                "gc_rank": standing.rank if standing else None,
                "gc_gap": standing.gap if standing else None,
            }
        )
    return {"table": RosterTable(rows, season=season)}


def dice_part(
    rolls: Sequence[Any], *, seats: Sequence[Any], rule_link: Callable[[Any], Any]
) -> dict[str, Any]:
    """The dice log: one row per roll, the rider named, the rule's code linked."""
    names = _rider_names({0: seats})
    rows = [
        {
            "turn": t,
            "unit": u,
            "rider": names.get(r, "") if r else "",
            "rule": rule,
            "die": d,
            "face": f,
        }
        for t, u, r, rule, d, f in rolls
    ]
    return {"table": DiceTable(rows, rule_link=rule_link)}
