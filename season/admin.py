from django.contrib import admin

from season.models import Membership, Orders, Round, Season, SeasonTeam, SeasonTeamRider


class RoundInline(admin.TabularInline):
    model = Round
    fields = ["number", "stage", "orders_deadline", "status", "seed"]
    readonly_fields = ["stage", "seed"]
    extra = 0


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "organiser", "ruleset", "is_public", "created_at"]
    list_filter = ["ruleset", "is_public"]
    search_fields = ["name", "slug", "organiser__username"]
    list_select_related = ["organiser"]
    inlines = [RoundInline, MembershipInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["season", "number", "orders_deadline", "status", "seed", "attempts"]
    list_filter = ["status", "season"]
    search_fields = ["season__name"]
    list_select_related = ["season"]


class SeasonTeamRiderInline(admin.TabularInline):
    model = SeasonTeamRider
    fields = ["bib", "rider", "role"]
    raw_id_fields = ["rider"]
    extra = 0


@admin.register(SeasonTeam)
class SeasonTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "owner"]
    list_filter = ["season"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["season", "owner"]
    inlines = [SeasonTeamRiderInline]

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        for inline_form in formset.forms:
            if hasattr(inline_form.instance, "team_id"):
                inline_form.instance.season_id = form.instance.season_id
        super().save_formset(request, form, formset, change)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["season", "user", "role", "joined_at"]
    list_filter = ["role", "season"]
    search_fields = ["user__username", "season__name"]
    list_select_related = ["season", "user"]


@admin.register(Orders)
class OrdersAdmin(admin.ModelAdmin):
    list_display = ["team", "round", "submitted_by", "updated_at"]
    list_filter = ["round__season"]
    search_fields = ["team__name"]
    list_select_related = ["team", "round__season", "submitted_by"]
