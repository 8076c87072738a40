"""Admin for every motor model; tracks are added by uploading a file the engine validates."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from motor.models import (
    Championship,
    Constructor,
    Driver,
    Entry,
    GrandPrix,
    PointsSystem,
    Result,
    Standing,
    Track,
)
from motor.track_files import TrackFaults, track_store
from riders.readonly_admin import ReadOnlyAdmin


@admin.register(Driver)
class DriverAdmin(admin.ModelAdmin):
    list_display = ["name", "abbreviation", "nationality", "birth_date", "slug"]
    search_fields = ["name", "last_name", "slug"]


@admin.register(Constructor)
class ConstructorAdmin(admin.ModelAdmin):
    list_display = ["name", "full_name", "country", "slug"]
    search_fields = ["name", "slug"]


class TrackUploadForm(forms.ModelForm):
    """A track file: validated by the engine's loader, every fault shown; same content, same
    version; another content, a new version (older rounds keep theirs)."""

    upload = forms.FileField(label=_("track file (YAML or JSON)"))

    class Meta:
        model = Track
        fields = ["slug"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Empty: the id of the file.")
        self.stored: Track | None = None

    def clean(self):
        cleaned = super().clean() or {}
        upload = cleaned.get("upload")
        if upload is not None:
            try:
                self.stored, _created = track_store(
                    content=upload.read(), file_name=upload.name, slug=cleaned.get("slug") or ""
                )
            except TrackFaults as faults:
                raise forms.ValidationError(list(faults.lines)) from None
        return cleaned

    def save(self, commit=True):
        assert self.stored is not None
        return self.stored


@admin.register(Track)
class TrackAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "version", "game", "content_hash", "created"]
    list_filter = ["game"]
    readonly_fields = [
        "version",
        "game",
        "name",
        "file_name",
        "content",
        "content_hash",
        "summary",
        "created",
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = TrackUploadForm
            kwargs["fields"] = ["slug", "upload"]
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else [*self.readonly_fields, "slug"]

    def has_change_permission(self, request, obj=None):
        return False if obj is not None else super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        pass  # track_store wrote it (or found the same content) while the form was cleaned

    def save_related(self, request, form, formsets, change):
        pass  # a track has no relations to save


@admin.register(PointsSystem)
class PointsSystemAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "table", "best_results", "fastest_lap_points"]


class GrandPrixInline(admin.TabularInline):
    model = GrandPrix
    extra = 0
    fields = ["round", "name", "date", "circuit", "track", "laps"]


@admin.register(Championship)
class ChampionshipAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "year", "kind", "points_system"]
    list_filter = ["kind"]
    inlines = [GrandPrixInline]


@admin.register(GrandPrix)
class GrandPrixAdmin(admin.ModelAdmin):
    list_display = ["championship", "round", "name", "date", "circuit", "track", "laps"]
    list_filter = ["championship"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["championship", "driver", "constructor", "engine", "number"]
    list_filter = ["championship"]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["grand_prix", "entry", "grid", "position", "status", "reason", "points"]
    list_filter = ["grand_prix__championship", "status"]
    list_select_related = ["grand_prix__championship", "entry__driver", "entry__constructor"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = [
        "grand_prix",
        "table",
        "position",
        "driver",
        "constructor",
        "engine",
        "points",
        "wins",
    ]
    list_filter = ["table", "grand_prix__championship"]
