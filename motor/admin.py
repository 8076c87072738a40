"""Admin for every motor model; tracks are added by uploading a file the engine validates and
edited in forms (motor.track_editing) whose save is a new version the engine validated."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from motor.league.pages import content_svg
from motor.league_copy import track_unraced_elsewhere, track_version_apply
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
from motor.track_editing import TrackEditor, track_preview
from motor.track_files import TrackFaults, track_edit_store, track_store
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


class TrackEditForm(forms.ModelForm):
    """A track's content in forms (motor.track_editing); cleaning it validates the edit with
    the engine's rules and stores it as the next version (nothing when unchanged or refused:
    every fault is listed, each by its rule, and placed next to its row)."""

    class Meta:
        model = Track
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editor = TrackEditor(track=self.instance, data=self.data if self.is_bound else None)
        self.stored: Track | None = None
        self.created = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.editor.is_valid():
            raise forms.ValidationError(self.editor.messages())
        content = self.editor.content()
        if not self.editor.has_changed():
            self.stored = self.instance
            return cleaned
        try:
            self.stored, self.created = track_edit_store(track=self.instance, content=content)
        except TrackFaults as faults:
            self.editor.faults_place(faults.faults)
            raise forms.ValidationError(
                [gettext("Not saved: the engine refused the edit."), *faults.lines]
            ) from None
        return cleaned

    def has_changed(self) -> bool:
        return self.editor.has_changed()

    def save(self, commit: bool = True) -> Track:
        assert self.stored is not None
        return self.stored


@admin.register(Track)
class TrackAdmin(admin.ModelAdmin):
    """A track: its map, its versions and the editor of its content; a valid edit is a new
    version, rounds keep the version they point at (docs/grandprix.md "Editing a track")."""

    change_form_template = "admin/motor/track/change_form.html"
    list_display = ["name", "slug", "version", "game", "content_hash", "created"]
    list_filter = ["game"]
    search_fields = ["slug", "name"]
    readonly_fields = [
        "version",
        "game",
        "name",
        "file_name",
        "content_hash",
        "summary",
        "created",
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = TrackUploadForm
            kwargs["fields"] = ["slug", "upload"]
        else:
            kwargs["form"] = TrackEditForm
            kwargs["fields"] = []
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else [*self.readonly_fields, "slug"]

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.preview_view)
        apply = self.admin_site.admin_view(self.apply_view)
        return [
            path("<int:pk>/preview/", view, name="motor_track_preview"),
            path("<int:pk>/apply/", apply, name="motor_track_apply"),
            *super().get_urls(),
        ]

    def apply_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Move the leagues' unraced Grands Prix to this version: a page naming each of them,
        then, once confirmed, the move (docs/grandprix.md "Editing a track")."""
        track = self.get_object(request, str(pk))
        if track is None or not self.has_change_permission(request, track):
            raise PermissionDenied
        grands_prix = list(track_unraced_elsewhere(track))
        if request.method == "POST":
            ids = [int(i) for i in request.POST.getlist("grand_prix") if i.isdigit()]
            moved = track_version_apply(track=track, grand_prix_ids=ids, by=request.user)
            self.message_user(
                request,
                ngettext(
                    "%(count)d Grand Prix now races on %(track)s.",
                    "%(count)d Grands Prix now race on %(track)s.",
                    moved,
                )
                % {"count": moved, "track": track},
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:motor_track_change", args=[track.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": track,
            "grands_prix": grands_prix,
            "title": gettext("Apply %(track)s to unraced Grands Prix") % {"track": track},
        }
        return TemplateResponse(request, "admin/motor/track/apply_confirm.html", context)

    def preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The map and the engine's faults of the forms as typed (htmx, POST; nothing saved)."""
        track = self.get_object(request, str(pk))
        if request.method != "POST" or track is None or not self.has_view_permission(request):
            raise PermissionDenied
        preview = track_preview(track=track, data=request.POST)
        return TemplateResponse(request, "admin/motor/track/_preview.html", preview)

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        obj = kwargs.get("obj")
        form = context["adminform"].form
        if obj is not None and isinstance(form, TrackEditForm):
            versions = (
                Track.objects.filter(slug=obj.slug)
                .annotate(rounds=Count("grandprix"))
                .order_by("-version")
            )
            preview = (
                track_preview(track=obj, data=request.POST)
                if form.is_bound
                else {"svg": mark_safe(content_svg(obj.content)), "faults": []}
            )
            context.update(
                show_save_and_add_another=False,  # an edit is a version, not a new track
                editor=form.editor,
                versions=versions,
                preview=preview,
                elsewhere=track_unraced_elsewhere(obj),
            )
        return super().render_change_form(request, context, *args, **kwargs)

    def save_model(self, request, obj, form, change):
        pass  # track_store wrote it (or found the same content) while the form was cleaned

    def save_related(self, request, form, formsets, change):
        pass  # a track has no relations to save

    def response_change(self, request: HttpRequest, obj: Track) -> HttpResponse:
        response = super().response_change(request, obj)
        if "_continue" in request.POST and isinstance(response, HttpResponseRedirect):
            # The saved version's page (the admin's own redirect is the page posted from).
            return HttpResponseRedirect(reverse("admin:motor_track_change", args=[obj.pk]))
        return response


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
