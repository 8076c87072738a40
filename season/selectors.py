from django.db.models import Count, QuerySet

from season.models import Season


def season_list_public() -> QuerySet[Season]:
    return (
        Season.objects.filter(is_public=True)
        .select_related("organiser", "race")
        .annotate(
            team_count=Count("teams", distinct=True), stage_count=Count("stages", distinct=True)
        )
        .order_by("-created_at")
    )
