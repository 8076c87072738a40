"""Classification snapshots after a stage, derived from the stored results and events."""

from django.db import transaction

from races import classifications
from races.classifications import ClimbRecord, ResultRecord, StageRecord
from races.course_validation import CLIMB_TERRAINS
from races.models import RaceEvent, Stage, StageResult, Standing
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


@transaction.atomic
def standings_update(*, stage: Stage) -> dict[str, list[classifications.StandingLine]]:
    """Recompute every classification after `stage` from the race's results so far."""
    stages = list(
        Stage.objects.filter(race_id=stage.race_id, number__lte=stage.number).order_by("number")
    )
    records = _stage_records(stages)
    rider_ids = {result.rider_id for record in records for result in record.results}
    birth_dates = dict(Rider.objects.filter(pk__in=rider_ids).values_list("pk", "birth_date"))
    tables = classifications.all_classifications(
        records, birth_dates=birth_dates, season_year=stage.race.year
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
