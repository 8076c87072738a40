from django.db.models import Count, QuerySet

from races.models import Standing
from season.models import Season, SeasonStage


def season_list_public() -> QuerySet[Season]:
    return (
        Season.objects.filter(is_public=True)
        .select_related("organiser", "race")
        .annotate(
            team_count=Count("teams", distinct=True), stage_count=Count("stages", distinct=True)
        )
        .order_by("-created_at")
    )


def standings_table(
    *, season: Season, number: int, classification: str, limit: int | None = None
) -> list[Standing]:
    """One classification as it stood after stage `number` (one query)."""
    rows = (
        Standing.objects.filter(
            stage__race_id=season.race_id, stage__number=number, classification=classification
        )
        .select_related("rider")
        .order_by("rank")
    )
    return list(rows[:limit] if limit else rows)


def last_resolved_number(*, season: Season) -> int | None:
    stage = season.stages.filter(status__in=["resolved", "published"]).order_by("-number").first()
    return stage.number if stage else None


def season_visible_get(*, slug: str, user: object) -> Season:
    """The season, if this user may read it (public, or a member); 404 otherwise."""
    from django.http import Http404

    season = Season.objects.select_related("race", "organiser").filter(slug=slug).first()
    if season is None:
        raise Http404("No such season.")
    if season.is_public:
        return season
    user_id = getattr(user, "pk", None)
    if user_id and (
        season.organiser_id == user_id or season.memberships.filter(user_id=user_id).exists()
    ):
        return season
    raise Http404("No such season.")


def season_team_names(*, season: Season) -> dict[int, str]:
    return dict(season.teams.values_list("pk", "name"))


def season_calendar(*, season: Season) -> list[SeasonStage]:
    return list(season.stages.select_related("stage").order_by("number"))


def standings_queryset(*, season: Season, number: int, classification: str) -> QuerySet[Standing]:
    return (
        Standing.objects.filter(
            stage__race_id=season.race_id, stage__number=number, classification=classification
        )
        .select_related("rider")
        .order_by("rank")
    )
