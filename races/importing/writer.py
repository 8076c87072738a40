"""The plan -> the database: compare with what is stored, write only the differences, in bulk.

Start lists, stage results and standings are written as whole sets (a start list per race, the
results per stage, a classification per stage): a set that differs from the stored one is
replaced, one that does not is left alone, so re-importing the same files writes nothing.
"""

from collections import defaultdict

from races.course_generation import stage_courses_generate_for_import
from races.importing.plan import STAGE_FIELDS, Plan
from races.importing.report import ImportReport
from races.models import Race, RaceEntry, Stage, StageResult, Standing
from riders.models import Rider, RiderMatch, Team, TeamMatch
from riders.names import name_key, team_key

BATCH = 2000


def plan_write(*, plan: Plan, report: ImportReport) -> None:
    _races(plan, report)
    _teams(plan, report)
    _stages(plan, report)
    stage_courses_generate_for_import(stage_ids=[s.pk for s in plan.stages.values()], report=report)
    _riders(plan, report)
    _entries(plan, report)
    _results(plan, report)
    _standings(plan, report)
    _doubts(plan, report)


def _races(plan: Plan, report: ImportReport) -> None:
    new = [race for race in plan.races.values() if race.pk is None]
    created = Race.objects.bulk_create(
        Race(name=race.name, year=race.year, slug=race.slug, kind=Race.Kind.REAL) for race in new
    )
    for race, row in zip(new, created, strict=True):
        race.pk = row.pk
    report.created["races"] += len(new)


def _teams(plan: Plan, report: ImportReport) -> None:
    created = Team.objects.bulk_create(
        Team(name=team.name, year=team.year, code=team.code, name_key=team_key(team.name))
        for team in plan.new_teams
    )
    for team, row in zip(plan.new_teams, created, strict=True):
        team.pk = row.pk
    report.created["teams"] += len(created)
    changed = [team for team in plan.touched_teams.values() if team.code != team.db_code]
    Team.objects.bulk_update([Team(pk=team.pk, code=team.code) for team in changed], ["code"])
    report.updated["teams"] += len(changed)


def _stages(plan: Plan, report: ImportReport) -> None:
    new = [stage for stage in plan.stages.values() if stage.pk is None]
    created = Stage.objects.bulk_create(
        Stage(race_id=stage.race.pk, number=stage.number, **stage.fields)  # type: ignore[misc]
        for stage in new
    )
    for stage, row in zip(new, created, strict=True):
        stage.pk = row.pk
    report.created["stages"] += len(new)
    changed = [
        stage
        for stage in plan.stages.values()
        if stage.db_fields is not None and stage.fields != stage.db_fields
    ]
    Stage.objects.bulk_update(
        [Stage(pk=stage.pk, **stage.fields) for stage in changed],
        list(STAGE_FIELDS),
    )
    report.updated["stages"] += len(changed)
    report.unchanged["stages"] += sum(
        1
        for stage in plan.stages.values()
        if stage.src is not None and stage not in changed and stage not in new
    )


def _riders(plan: Plan, report: ImportReport) -> None:
    created = Rider.objects.bulk_create(
        (
            Rider(
                name=rider.name,
                name_key=name_key(rider.name),
                pcs_slug=rider.pcs_slug,
                nationality=rider.nationality,
                birth_date=rider.birth_date,
                team_id=rider.team.pk if rider.team else None,
            )
            for rider in plan.new_riders
        ),
        batch_size=BATCH,
    )
    for rider, row in zip(plan.new_riders, created, strict=True):
        rider.pk = row.pk
    report.created["riders"] += len(created)
    changed = [rider for rider in plan.touched_riders.values() if rider.values() != rider.db_values]
    Rider.objects.bulk_update(
        [
            Rider(
                pk=rider.pk,
                nationality=rider.nationality,
                birth_date=rider.birth_date,
                pcs_slug=rider.pcs_slug,
                team_id=rider.team.pk if rider.team else None,
            )
            for rider in changed
        ],
        ["nationality", "birth_date", "pcs_slug", "team"],
        batch_size=BATCH,
    )
    report.updated["riders"] += len(changed)
    report.unchanged["riders"] += len(plan.touched_riders) - len(changed)


def _pk(ref: object) -> int | None:
    return getattr(ref, "pk", None)


def _id(ref: object) -> int:
    """The primary key of a reference written earlier in this call."""
    pk = getattr(ref, "pk", None)
    assert isinstance(pk, int), ref
    return pk


def _entries(plan: Plan, report: ImportReport) -> None:
    wanted: dict[int, set[tuple[int, int | None, int | None]]] = {
        _id(plan.races[slug]): {
            (_id(entry.rider), _pk(entry.team), entry.bib) for entry in entries.values()
        }
        for slug, entries in plan.entries.items()
    }
    stored: dict[int, set[tuple[int, int | None, int | None]]] = defaultdict(set)
    for race_id, rider_id, team_id, bib in RaceEntry.objects.filter(race_id__in=wanted).values_list(
        "race_id", "rider_id", "team_id", "bib"
    ):
        stored[race_id].add((rider_id, team_id, bib))
    changed = [race_id for race_id, lines in wanted.items() if lines != stored[race_id]]
    if changed:
        report.deleted["start list entries"] += RaceEntry.objects.filter(
            race_id__in=changed
        ).delete()[0]
    RaceEntry.objects.bulk_create(
        (
            RaceEntry(race_id=race_id, rider_id=rider_id, team_id=team_id, bib=bib)
            for race_id in changed
            for rider_id, team_id, bib in wanted[race_id]
        ),
        batch_size=BATCH,
    )
    report.created["start list entries"] += sum(len(wanted[race_id]) for race_id in changed)
    report.unchanged["start list entries"] += sum(
        len(lines) for race_id, lines in wanted.items() if race_id not in changed
    )


RESULT_FIELDS = (
    "rider_id",
    "team_id",
    "rank",
    "status",
    "time_seconds",
    "gap_seconds",
    "bonus_seconds",
    "breakaway_km",
)


def _results(plan: Plan, report: ImportReport) -> None:
    wanted: dict[int, set[tuple[object, ...]]] = {
        _id(stage): {
            (
                _id(result.rider),
                _pk(result.team),
                result.rank,
                result.status,
                result.time,
                result.gap,
                result.bonus,
                result.breakaway_km,
            )
            for result in results.values()
        }
        for stage, results in plan.results.items()
    }
    stored: dict[int, set[tuple[object, ...]]] = defaultdict(set)
    for stage_id, *line in StageResult.objects.filter(stage_id__in=wanted).values_list(
        "stage_id", *RESULT_FIELDS
    ):
        stored[stage_id].add(tuple(line))
    changed = [stage_id for stage_id, lines in wanted.items() if lines != stored[stage_id]]
    if changed:
        report.deleted["stage results"] += StageResult.objects.filter(
            stage_id__in=changed
        ).delete()[0]
    rows = [
        StageResult(stage_id=stage_id, **dict(zip(RESULT_FIELDS, line, strict=True)))
        for stage_id in changed
        for line in wanted[stage_id]
    ]
    rows.extend(
        StageResult(
            stage_id=_id(stage),
            rider_id=_id(result.rider),
            team_id=_pk(result.team),
            rank=result.rank,
            status=result.status,
            time_seconds=result.time,
            gap_seconds=result.gap,
        )
        for stage, result in plan.winners.items()
    )
    StageResult.objects.bulk_create(rows, batch_size=BATCH)
    report.created["stage results"] += len(rows)
    report.unchanged["stage results"] += sum(
        len(lines) for stage_id, lines in wanted.items() if stage_id not in changed
    )


def _standings(plan: Plan, report: ImportReport) -> None:
    wanted: dict[tuple[int, str], set[tuple[int, int | None, int | None, int, int]]] = {
        (_id(stage), classification): {
            (_id(line.rider), _pk(line.team), line.rank, line.value, line.gap)
            for line in lines.values()
        }
        for (stage, classification), lines in plan.standings.items()
    }
    stage_ids = {stage_id for stage_id, _ in wanted}
    stored: dict[tuple[int, str], set[tuple[int, int | None, int | None, int, int]]] = defaultdict(
        set
    )
    for stage_id, classification, rider_id, team_id, rank, value, gap in Standing.objects.filter(
        stage_id__in=stage_ids, classification__in={c for _, c in wanted}
    ).values_list("stage_id", "classification", "rider_id", "team_id", "rank", "value", "gap"):
        stored[(stage_id, classification)].add((rider_id, team_id, rank, value, gap))
    changed = [key for key, lines in wanted.items() if lines != stored[key]]
    for stage_id, classification in changed:
        report.deleted["standings"] += Standing.objects.filter(
            stage_id=stage_id, classification=classification
        ).delete()[0]
    rows = [
        Standing(
            stage_id=stage_id,
            classification=classification,
            rider_id=rider_id,
            team_id=team_id,
            rank=rank,
            value=value,
            gap=gap,
        )
        for stage_id, classification in changed
        for rider_id, team_id, rank, value, gap in wanted[(stage_id, classification)]
    ]
    Standing.objects.bulk_create(rows, batch_size=BATCH)
    report.created["standings"] += len(rows)
    report.unchanged["standings"] += sum(
        len(lines) for key, lines in wanted.items() if key not in changed
    )


def _doubts(plan: Plan, report: ImportReport) -> None:
    RiderMatch.objects.bulk_create(
        RiderMatch(
            rider_id=_id(doubt.new),
            candidate_id=_id(doubt.candidate),
            imported_name=doubt.imported_name[:120],
            source=str(doubt.src)[:200],
            reason=doubt.reason[:200],
        )
        for doubt in plan.rider_doubts
    )
    TeamMatch.objects.bulk_create(
        TeamMatch(
            team_id=_id(doubt.new),
            candidate_id=_id(doubt.candidate),
            imported_name=doubt.imported_name[:120],
            source=str(doubt.src)[:200],
            reason=doubt.reason[:200],
        )
        for doubt in plan.team_doubts
    )
    report.created["doubtful matches"] += len(plan.rider_doubts) + len(plan.team_doubts)
