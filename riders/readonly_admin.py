"""The admin of rows that only a service writes (both disciplines' results and standings)."""

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written only by a service that keeps what depends on them right: results and events
    by a resolution or an import (which recompute the standings), standings by the services
    that compute them. Staff read them here; a correction goes through an import (or the
    organiser's reinstating), never an edit that would leave the standings stale."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
