from django.contrib import admin

from races.models import DiceLog, Race, RaceEvent, Stage, StageResult


class StageInline(admin.TabularInline):
    model = Stage
    fields = ["number", "date", "start", "finish", "distance_km", "stage_type"]
    extra = 0
    show_change_link = True


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "kind", "slug", "template"]
    list_filter = ["kind", "year"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name", "year"]}
    inlines = [StageInline]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["race", "number", "date", "start", "finish", "distance_km", "stage_type"]
    list_filter = ["stage_type", "race__kind", "race"]
    search_fields = ["race__name", "start", "finish"]
    list_select_related = ["race"]


@admin.register(StageResult)
class StageResultAdmin(admin.ModelAdmin):
    list_display = [
        "stage",
        "rank",
        "rider",
        "team",
        "status",
        "time_seconds",
        "gap_seconds",
        "bonus_seconds",
    ]
    list_filter = ["status", "stage__race"]
    search_fields = ["rider__name", "stage__race__name"]
    list_select_related = ["stage__race", "rider", "team"]
    raw_id_fields = ["stage", "rider", "team"]


@admin.register(RaceEvent)
class RaceEventAdmin(admin.ModelAdmin):
    list_display = ["stage", "seq", "turn", "kind", "rider", "case", "detail"]
    list_filter = ["kind", "stage__race"]
    search_fields = ["rider__name", "detail"]
    list_select_related = ["stage__race", "rider"]
    raw_id_fields = ["stage", "rider"]


@admin.register(DiceLog)
class DiceLogAdmin(admin.ModelAdmin):
    list_display = ["stage", "ruleset", "seed", "count", "sha256"]
    list_filter = ["ruleset"]
    search_fields = ["stage__race__name", "sha256"]
    list_select_related = ["stage__race"]
    readonly_fields = ["stage", "ruleset", "seed", "count", "sha256"]
    exclude = ["rolls"]
