"""Classification snapshots after a stage, derived from the stored results and events."""

from collections.abc import Sequence
from dataclasses import replace

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from races import classifications
from races.classifications import Baseline, ClimbRecord, ResultRecord, StageRecord, StandingLine
from races.course_validation import CLIMB_TERRAINS
from races.models import Classification, Race, RaceEvent, Stage, StageResult, Standing
from riders.models import Rider


def stage_climbs_and_sprints(
    stages: list[Stage],
) -> tuple[dict[int, list[ClimbRecord]], dict[int, list[tuple[int, ...]]]]:
    """Each stage's climbs (the last one a summit finish when the course ends on a climb) and
    intermediate sprints, in crossing order, from its stored events; keyed by the stage's id.
    The classifications and the fantasy points (races.league.fantasy) read the same."""
    climbs: dict[int, list[ClimbRecord]] = {stage.pk: [] for stage in stages}
    sprints: dict[int, list[tuple[int, ...]]] = {stage.pk: [] for stage in stages}
    last_is_climb = {
        stage.pk: bool(stage.segments) and stage.segments[-1]["terrain"] in CLIMB_TERRAINS
        for stage in stages
    }
    events = RaceEvent.objects.filter(
        stage__in=stages, kind__in=[RaceEvent.Kind.SUMMIT, RaceEvent.Kind.INTERMEDIATE_SPRINT]
    ).order_by("stage_id", "seq")
    for event in events.values("stage_id", "kind", "rider_ids", "data"):
        order = tuple(event["rider_ids"])
        if event["kind"] == RaceEvent.Kind.INTERMEDIATE_SPRINT:
            sprints[event["stage_id"]].append(order)
        else:
            # A summit's category is its data's terrain (engine.cycling.events); a summit
            # without one is refused by the classification, naming the stage.
            terrain = str(event["data"].get("terrain", ""))
            climbs[event["stage_id"]].append(ClimbRecord(terrain=terrain, crossing_order=order))
    for stage in stages:
        if last_is_climb[stage.pk] and climbs[stage.pk]:
            last = climbs[stage.pk][-1]
            climbs[stage.pk][-1] = ClimbRecord(
                terrain=last.terrain, crossing_order=last.crossing_order, summit_finish=True
            )
    return climbs, sprints


def _stage_records(stages: list[Stage]) -> list[StageRecord]:
    results_by_stage: dict[int, list[ResultRecord]] = {stage.pk: [] for stage in stages}
    for row in StageResult.objects.filter(stage__in=stages).values(
        "stage_id",
        "rider_id",
        "entry_team_id",
        "team_id",
        "rank",
        "time_seconds",
        "bonus_seconds",
        "penalty_seconds",
        "status",
    ):
        results_by_stage[row["stage_id"]].append(
            ResultRecord(
                rider_id=row["rider_id"],
                team_id=row["entry_team_id"] or row["team_id"] or 0,
                rank=row["rank"],
                time_seconds=row["time_seconds"],
                bonus_seconds=row["bonus_seconds"],
                penalty_seconds=row["penalty_seconds"],
                status=row["status"],
            )
        )
    climbs, sprints = stage_climbs_and_sprints(stages)
    return [
        StageRecord(
            number=stage.number,
            stage_type=stage.stage_type,
            results=tuple(results_by_stage[stage.pk]),
            climbs=tuple(climbs[stage.pk]),
            intermediate_sprints=tuple(sprints[stage.pk]),
        )
        for stage in stages
    ]


def _stored_lines(stage: Stage) -> dict[str, list[Standing]]:
    """The stored standings after ``stage``, by classification, ranked lines first in rank
    order, then the unranked ones (docs/import.md) by value."""
    lines: dict[str, list[Standing]] = {}
    for row in Standing.objects.filter(stage=stage).order_by(
        "classification", F("rank").asc(nulls_last=True), "value", "pk"
    ):
        lines.setdefault(row.classification, []).append(row)
    return lines


def baseline_of(race: Race) -> Baseline | None:
    """The given state a forked league copy's stages start from: its standings after stage
    ``race.start_after`` (copied from the real race); None for a race raced from the start.
    Only league teams' lines count in the team classification (the real teams' are shown; a
    league's teams get theirs from league_teams_given)."""
    if not race.start_after:
        return None
    stage = Stage.objects.get(race=race, number=race.start_after)

    def as_lines(rows: list[Standing], *, teams: bool = False) -> tuple[StandingLine, ...]:
        return tuple(
            StandingLine(
                rank=i,
                rider_id=row.rider_id,
                team_id=row.entry_team_id or (None if teams else row.team_id),
                value=row.value,
                gap=row.gap,
            )
            for i, row in enumerate(rows, start=1)
            if not teams or row.entry_team_id is not None
        )

    stored = _stored_lines(stage)
    return Baseline(
        after_stage=race.start_after,
        general=as_lines(stored.get(Classification.GENERAL, [])),
        points=as_lines(stored.get(Classification.POINTS, [])),
        mountains=as_lines(stored.get(Classification.MOUNTAINS, [])),
        youth=as_lines(stored.get(Classification.YOUTH, [])),
        teams=as_lines(stored.get(Classification.TEAMS, []), teams=True),
    )


def league_teams_given(
    *, race: Race, records: Sequence[StageRecord]
) -> list[classifications.StandingLine]:
    """The team classification of a forked copy's league teams after its given stages: the
    real stages 1..``start_after`` counted for each league team with the riders it races
    with (each rider's team as in his latest league stage), by the classification's own rule
    (docs/classifications.md "A forked race"). Empty before any league stage has results."""
    team_of = {r.rider_id: r.team_id for record in records for r in record.results}
    if not team_of:
        return []
    given = _stage_records(
        list(Stage.objects.filter(race=race, number__lte=race.start_after).order_by("number"))
    )
    return classifications.teams(
        [
            replace(
                record,
                results=tuple(
                    replace(r, team_id=team_of[r.rider_id])
                    for r in record.results
                    if r.rider_id in team_of
                ),
            )
            for record in given
        ]
    )


def riders_still_in(race: Race) -> set[int] | None:
    """The riders in the race after a forked copy's given stages (its general classification
    after stage ``start_after``); None for a race raced from the start."""
    if not race.start_after:
        return None
    return set(
        Standing.objects.filter(
            stage__race=race,
            stage__number=race.start_after,
            classification=Classification.GENERAL,
            rider__isnull=False,
        ).values_list("rider_id", flat=True)
    )


def fork_problems(*, race: Race, after_stage: int) -> list[str]:
    """Why a league cannot start after stage ``after_stage`` of the real ``race``: a stage out
    of the route, or neither a general classification after it nor the results of every stage
    up to it (naming the stages without results). Empty when it can."""
    if not after_stage:
        return []
    count = race.stages.count()
    if not 0 < after_stage < count:
        return [
            _("%(race)s has %(count)d stages: start after a stage from 0 to %(last)d.")
            % {"race": race.name, "count": count, "last": max(count - 1, 0)}
        ]
    if after_stage in fork_stages(race):
        return []
    missing = stages_without_results(race=race, after_stage=after_stage)
    return [
        ngettext(
            "%(race)s cannot start after stage %(after)d: no general classification after it "
            "was imported, and no results for stage %(stages)s.",
            "%(race)s cannot start after stage %(after)d: no general classification after it "
            "was imported, and no results for stages %(stages)s.",
            len(missing),
        )
        % {
            "race": race.name,
            "after": after_stage,
            "stages": ", ".join(str(n) for n in missing),
        }
    ]


def fork_stages(race: Race) -> list[int]:
    """The stages of the real ``race`` a league can start after (0, the start, always): those
    with a general classification stored after them, or whose every stage up to them has
    timed results (docs/league.md "A real race forked at a stage")."""
    count = race.stages.count()
    general_after = set(
        Standing.objects.filter(
            stage__race=race, classification=Classification.GENERAL
        ).values_list("stage__number", flat=True)
    )
    with_results = set(
        StageResult.objects.filter(stage__race=race, time_seconds__isnull=False).values_list(
            "stage__number", flat=True
        )
    )
    offered = [0]
    for number in range(1, count):
        if number in general_after or all(n in with_results for n in range(1, number + 1)):
            offered.append(number)
    return offered


def real_state_after(*, race: Race, after_stage: int) -> dict[str, list[Standing]]:
    """The real classifications after stage ``after_stage`` of ``race``, unsaved, by
    classification: each as the import stored it, else computed from the real results of
    stages 1..N when every one has them (the team classification always is: it is never
    imported). The caller checked :func:`fork_problems`."""
    stage = Stage.objects.get(race=race, number=after_stage)
    stored = _stored_lines(stage)
    computed: dict[str, list[StandingLine]] = {}
    if not stages_without_results(race=race, after_stage=after_stage):
        stages = list(race.stages.filter(number__lte=after_stage).order_by("number"))
        records = _stage_records(stages)
        rider_ids = {result.rider_id for record in records for result in record.results}
        birth_dates = dict(Rider.objects.filter(pk__in=rider_ids).values_list("pk", "birth_date"))
        computed = classifications.all_classifications(
            records, birth_dates=birth_dates, season_year=race.year
        )
    state: dict[str, list[Standing]] = {}
    for name in Classification.values:
        # Standing rows and StandingLines alike: rank, rider_id, team_id, value, gap.
        lines: Sequence[Standing | StandingLine] = (
            stored.get(name, []) if name != Classification.TEAMS else []
        ) or computed.get(name, [])
        state[name] = [
            Standing(
                classification=name,
                rank=line.rank,
                rider_id=line.rider_id,
                team_id=line.team_id,
                value=line.value,
                gap=line.gap,
            )
            for line in lines
        ]
    return state


def stages_without_results(*, race: Race, after_stage: int) -> list[int]:
    """The stages 1..``after_stage`` of ``race`` without timed results."""
    with_results = set(
        StageResult.objects.filter(
            stage__race=race, stage__number__lte=after_stage, time_seconds__isnull=False
        ).values_list("stage__number", flat=True)
    )
    return [n for n in range(1, after_stage + 1) if n not in with_results]


@transaction.atomic
def standings_update(*, stage: Stage) -> dict[str, list[classifications.StandingLine]]:
    """Recompute every classification after `stage` from the race's results so far; in a
    forked copy, from the given state after its stage ``start_after`` and the stages since."""
    race = stage.race
    if race.start_after and stage.number <= race.start_after:
        raise ValueError(f"stage {stage.number} is one of the given stages 1..{race.start_after}")
    stages = list(
        Stage.objects.filter(
            race_id=stage.race_id, number__gt=race.start_after, number__lte=stage.number
        ).order_by("number")
    )
    records = _stage_records(stages)
    baseline = baseline_of(race)
    if baseline is not None and not baseline.teams:
        baseline = replace(baseline, teams=tuple(league_teams_given(race=race, records=records)))
    rider_ids = {result.rider_id for record in records for result in record.results}
    birth_dates = dict(Rider.objects.filter(pk__in=rider_ids).values_list("pk", "birth_date"))
    tables = classifications.all_classifications(
        records, birth_dates=birth_dates, season_year=race.year, baseline=baseline
    )
    Standing.objects.filter(stage=stage).delete()
    Standing.objects.bulk_create(
        Standing(
            stage=stage,
            classification=name,
            rank=line.rank,
            rider_id=line.rider_id,
            entry_team_id=line.team_id,
            value=line.value,
            gap=line.gap,
        )
        for name, lines in tables.items()
        for line in lines
    )
    return tables
