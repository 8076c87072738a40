from django.contrib import admin

from riders.forms import RiderForm
from riders.models import RATING_AXES, Rider, Team


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "nationality", "year", "rider_count"]
    list_filter = ["year", "nationality"]
    search_fields = ["name", "code", "aliases"]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        from django.db.models import Count

        return super().get_queryset(request).annotate(_rider_count=Count("riders"))

    @admin.display(description="riders", ordering="_rider_count")
    def rider_count(self, team: Team) -> int:
        return team._rider_count  # type: ignore[attr-defined]


@admin.register(Rider)
class RiderAdmin(admin.ModelAdmin):
    form = RiderForm
    list_display = ["name", "team", "nationality", "birth_date", *RATING_AXES, "profile_flagged"]
    list_filter = ["team__year", "team", "nationality", "profile_flagged", "climber", "sprinter"]
    search_fields = ["name", "name_key", "pcs_slug", "team__name"]
    list_select_related = ["team"]
    list_per_page = 50
    fieldsets = [
        (None, {"fields": ["name", "team", "nationality", "birth_date", "pcs_slug"]}),
        (
            "Profile",
            {"fields": [tuple(RATING_AXES[:4]), tuple(RATING_AXES[4:]), "profile_flagged"]},
        ),
    ]
