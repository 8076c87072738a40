from django.db import transaction
from django.db.models import Count, QuerySet

from races.models import Race, Stage


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
