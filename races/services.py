from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from races.models import Race, RaceEntry, Stage
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
def race_copy_for_league(*, template: Race, name: str, slug: str) -> Race:
    """A league's own copy of a race's route: same stages and courses, results of its own."""
    race = Race(name=name, year=template.year, slug=slug, kind=Race.Kind.LEAGUE, template=template)
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
