from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from races.models import Race, RaceEntry, Stage, StageResult, Standing
from races.standings import fork_problems, real_state_after
from riders.models import rider_not_reviewed_q, rider_unrated_q


def template_races() -> QuerySet[Race]:
    """The races a league can copy: real ones with a route."""
    return (
        Race.objects.filter(kind=Race.Kind.REAL)
        .annotate(stage_count=Count("stages"))
        .filter(stage_count__gt=0)
        .order_by("-year", "name")
    )


def league_race_slug(*, slug: str, template: Race) -> str:
    return f"{slug}-{template.slug}"


@transaction.atomic
def race_copy_for_league(*, template: Race, name: str, slug: str, start_after: int = 0) -> Race:
    """A league's own copy of a race's route: same stages and courses, results of its own.

    Forked after stage ``start_after`` (docs/league.md "A real race forked at a stage"), the
    copy also holds the real results of stages 1..N and the real classifications after N,
    which its stages N+1.. start from; ValueError naming what is missing when the real state
    after N is not known.
    """
    problems = fork_problems(race=template, after_stage=start_after)
    if problems:
        raise ValueError(" ".join(problems))
    race = Race(
        name=name,
        year=template.year,
        slug=slug,
        kind=Race.Kind.LEAGUE,
        template=template,
        start_after=start_after,
    )
    race.full_clean()
    race.save()
    Stage.objects.bulk_create(
        Stage(
            race=race,
            number=stage.number,
            date=stage.date,
            start=stage.start,
            finish=stage.finish,
            distance_km=stage.distance_km,
            stage_type=stage.stage_type,
            segments=stage.segments,
            intermediate_sprints_km=stage.intermediate_sprints_km,
            profile_icon=stage.profile_icon,
            profile_score=stage.profile_score,
            vertical_meters=stage.vertical_meters,
            course_generated=stage.course_generated,
        )
        for stage in template.stages.order_by("number")
    )
    if start_after:
        _given_stages_copy(template=template, race=race, start_after=start_after)
    return race


def review_counts_annotate(races: QuerySet[Race]) -> QuerySet[Race]:
    """Each race with `ratings_not_reviewed` (riders of its start list whose ratings no admin
    approved) and `ratings_unrated` (of which never rated), as subqueries: one query for a
    whole list of races, whatever else it joins.

    Riders' ratings come from imports as suggestions; until an admin approves them a league
    on the race prices its riders on ratings nobody checked (docs/profiles.md "Reviewing").
    """

    def counted(condition: Q) -> Coalesce:
        entries = (
            RaceEntry.objects.filter(race=OuterRef("pk"))
            .filter(condition)
            .order_by()
            .values("race")
            .annotate(count=Count("pk"))
            .values("count")
        )
        return Coalesce(Subquery(entries), 0)

    return races.annotate(
        ratings_not_reviewed=counted(rider_not_reviewed_q("rider__")),
        ratings_unrated=counted(rider_unrated_q("rider__")),
    )


def start_list_review_counts(races: QuerySet[Race]) -> dict[int, tuple[int, int]]:
    """{race id: (riders of its start list not reviewed, of which unrated)}, in one query."""
    return {
        race.pk: (race.ratings_not_reviewed, race.ratings_unrated)  # type: ignore[attr-defined]
        for race in review_counts_annotate(races).only("pk")
    }


def _given_stages_copy(*, template: Race, race: Race, start_after: int) -> None:
    """The real results of stages 1..N and the real classifications after N, in the copy."""
    copies = {stage.number: stage for stage in race.stages.filter(number__lte=start_after)}
    StageResult.objects.bulk_create(
        StageResult(
            stage=copies[row.stage.number],
            rider_id=row.rider_id,
            team_id=row.team_id,
            rank=row.rank,
            status=row.status,
            time_seconds=row.time_seconds,
            gap_seconds=row.gap_seconds,
            bonus_seconds=row.bonus_seconds,
            penalty_seconds=row.penalty_seconds,
            status_reason=row.status_reason,
            breakaway_km=row.breakaway_km,
        )
        for row in StageResult.objects.filter(
            stage__race=template, stage__number__lte=start_after
        ).select_related("stage")
    )
    after = copies[start_after]
    lines = real_state_after(race=template, after_stage=start_after)
    for rows in lines.values():
        for row in rows:
            row.stage = after
    Standing.objects.bulk_create(row for rows in lines.values() for row in rows)
