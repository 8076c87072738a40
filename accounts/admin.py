from django.contrib import admin

from accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Who holds a key to the API; an admin may delete one (the member makes a new one on
    /accounts/api/). Nothing here shows or makes a key: only its digest is kept."""

    list_display = ["user", "prefix", "created_at"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "digest", "prefix", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False
