import contextlib
import re
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db.models import F, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from import_export.tmp_storages import TempFolderStorage

from races import review_admin  # noqa: F401  (registers Riders > Ratings to review)
from races.course_editing import StageCourseForm, course_preview, stored_course_preview
from races.importing import ImportFile, ImportReport, limits, results_import
from races.importing.matching import (
    MergeError,
    rider_match_confirm,
    rider_match_reject,
    team_match_confirm,
    team_match_reject,
)
from races.models import Race, RaceEntry, RaceEvent, Stage, StageResult, Standing
from races.profile_derivation import profiles_derive
from races.services import review_counts_annotate
from riders.models import RiderMatch, TeamMatch
from riders.readonly_admin import ReadOnlyAdmin

SHOWN_ERRORS = 500
SHOWN_NOTES = 300
_TMP_NAME = re.compile(r"^tmp\w+$")
_STORED_SALT = "races.import_results"


class StageInline(admin.TabularInline):
    model = Stage
    fields = ["number", "date", "start", "finish", "distance_km", "stage_type"]
    extra = 0
    show_change_link = True


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".csv,.tsv,.txt,.xlsx"}))
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def clean(self, data: object, initial: object = None) -> list[object]:
        files = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(file, initial) for file in files]


class ResultsUploadForm(forms.Form):
    uploads = MultipleFileField(
        label=gettext_lazy("Files"),
        help_text=gettext_lazy(
            "One or more CSV or XLSX files: start lists, stages, results, classifications."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The read bounds (races.importing.limits), said before an upload meets them.
        bounds = _("Up to %(file)s MB a file, %(total)s MB in all.") % {
            "file": f"{limits.MAX_FILE_BYTES / 1024 / 1024:g}",
            "total": f"{limits.MAX_CALL_BYTES / 1024 / 1024:g}",
        }
        field = self.fields["uploads"]
        field.help_text = f"{field.help_text} {bounds}"


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "kind", "slug", "template", "ratings_review"]
    readonly_fields = ["ratings_review"]
    list_filter = ["kind", "year"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name", "year"]}
    inlines = [StageInline]
    actions = ["derive_profiles"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Race]:
        return review_counts_annotate(super().get_queryset(request))

    @admin.display(description=gettext_lazy("ratings to review"), ordering="ratings_not_reviewed")
    def ratings_review(self, race: Race) -> str:
        not_reviewed = getattr(race, "ratings_not_reviewed", 0)
        unrated = getattr(race, "ratings_unrated", 0)
        if not not_reviewed:
            return "—"
        text = ngettext(
            "%(count)d rider not reviewed", "%(count)d riders not reviewed", not_reviewed
        ) % {"count": not_reviewed}
        if unrated:
            text += " " + ngettext("(%(count)d unrated)", "(%(count)d unrated)", unrated) % {
                "count": unrated
            }
        url = reverse("admin:riders_ratingreview_changelist") + f"?race={race.pk}"
        return format_html('<a href="{}">{}</a>', url, text)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.import_results_view)
        return [
            path("import-results/", view, name="races_race_import_results"),
            *super().get_urls(),
        ]

    def import_results_view(self, request: HttpRequest) -> HttpResponse:
        """Upload -> preview (a dry run of the import service) -> confirm, like import-export."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Import real results"),
        }
        if request.method == "POST" and "stored" in request.POST:
            return self._import_confirm(request, context)
        form = ResultsUploadForm(request.POST or None, request.FILES or None)
        context["form"] = form
        if request.method == "POST" and form.is_valid():
            files = [_upload_file(upload) for upload in form.cleaned_data["uploads"]]
            report = results_import(files=files, dry_run=True)
            context.update(_report_context(report))
            context["stored"] = _files_store(files)
        return TemplateResponse(request, "admin/races/race/import_results.html", context)

    def _import_confirm(self, request: HttpRequest, context: dict[str, object]) -> HttpResponse:
        try:
            stored = signing.loads(request.POST["stored"], salt=_STORED_SALT, max_age=24 * 3600)
            files = _files_read(stored)
        except (signing.BadSignature, OSError, ValueError, TypeError):
            self.message_user(
                request, _("The checked files are gone: upload them again."), messages.ERROR
            )
            return HttpResponseRedirect(reverse("admin:races_race_import_results"))
        report = results_import(files=files, valid_rows_only="valid_only" in request.POST)
        if report.errors and not report.written:
            context.update(_report_context(report))
            context["stored"] = request.POST["stored"]
            return TemplateResponse(request, "admin/races/race/import_results.html", context)
        _files_remove(stored)
        self.message_user(request, report.outcome(), messages.SUCCESS)
        if report.suggested:
            self.message_user(
                request,
                format_html(
                    '{} <a href="{}">{}</a>',
                    report.review_line(),
                    reverse("admin:riders_ratingreview_changelist"),
                    _("Review them"),
                ),
                messages.WARNING,
            )
        if report.doubts:
            self.message_user(
                request,
                _(
                    "%(count)s doubtful match(es) to confirm: see Doubtful rider matches and "
                    "Doubtful team matches."
                )
                % {"count": len(report.doubts)},
                messages.WARNING,
            )
        return HttpResponseRedirect(reverse("admin:races_race_changelist"))

    @admin.action(
        description=gettext_lazy("Suggest profiles from the results of the selected races")
    )
    def derive_profiles(self, request: HttpRequest, queryset: QuerySet[Race]) -> None:
        report = profiles_derive(races=queryset)
        self.message_user(
            request,
            _(
                "%(riders)s rider(s): %(suggested)s suggestion(s) to review in Riders, "
                "%(flagged)s flagged with too little data (ratings kept)."
            )
            % {
                "riders": report.riders,
                "suggested": report.suggested,
                "flagged": report.flagged,
            },
            messages.SUCCESS,
        )


def _upload_file(upload: UploadedFile) -> ImportFile:
    """An upload, read only within the bounds (the service refuses it, unread, past them)."""
    if upload.size is not None and upload.size > limits.MAX_FILE_BYTES:
        return ImportFile(name=str(upload.name), content=b"", size=upload.size)
    return ImportFile(name=str(upload.name), content=upload.read(limits.MAX_FILE_BYTES + 1))


def _report_context(report: ImportReport) -> dict[str, object]:
    counts = [
        f"{verb}: " + ", ".join(f"{n} {what}" for what, n in sorted(counter.items()) if n)
        for verb, counter in (
            (_("create"), report.created),
            (_("update"), report.updated),
            (_("replace (delete)"), report.deleted),
            (_("unchanged"), report.unchanged),
        )
        if +counter
    ]
    errors = sorted(report.errors)
    return {
        "report": report,
        "counts": counts,
        "errors": errors[:SHOWN_ERRORS],
        "more_errors": max(0, len(errors) - SHOWN_ERRORS),
        "notes": report.notes[:SHOWN_NOTES],
        "valid_rows": report.rows - report.bad_rows,
    }


def _files_store(files: list[ImportFile]) -> str:
    """Keep the uploads between preview and confirm (import-export's temporary storage)."""
    stored = []
    for file in files:
        storage = TempFolderStorage(read_mode="rb")
        storage.save(file.content)
        stored.append([storage.name.rsplit("/", 1)[-1], file.name, file.real_size])
    return signing.dumps(stored, salt=_STORED_SALT)


def _files_read(stored: list[list[str | int]]) -> list[ImportFile]:
    files = []
    for tmp_name, name, size in stored:
        if not isinstance(tmp_name, str) or not _TMP_NAME.match(tmp_name):
            raise ValueError(tmp_name)
        content = TempFolderStorage(name=tmp_name, read_mode="rb").read()
        # A file refused for its size was kept empty: it stays refused, with its real size.
        real_size = int(size) if int(size) > len(content) else None
        files.append(ImportFile(name=str(name), content=content, size=real_size))
    return files


def _files_remove(stored: list[list[str | int]]) -> None:
    for tmp_name, *_rest in stored:
        if isinstance(tmp_name, str) and _TMP_NAME.match(tmp_name):
            with contextlib.suppress(FileNotFoundError):
                TempFolderStorage(name=tmp_name).remove()


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    """A stage and its course editor (races.course_editing): the segments as a table, the
    profile redrawn by htmx as the admin types, the engine's checks on save."""

    form = StageCourseForm
    change_form_template = "admin/races/stage/change_form.html"
    list_display = [
        "race",
        "number",
        "date",
        "start",
        "finish",
        "distance_km",
        "stage_type",
        "course_generated",
    ]
    list_filter = ["stage_type", "course_generated", "race__kind", "race"]
    search_fields = ["race__name", "start", "finish"]
    list_select_related = ["race"]
    readonly_fields = ["course_generated"]
    fieldsets = [
        (None, {"fields": ["race", "number", "date", "start", "finish"]}),
        (
            gettext_lazy("Course"),
            {
                "fields": [
                    "distance_km",
                    "stage_type",
                    "intermediate_sprints_km",
                    "course_generated",
                ]
            },
        ),
        (
            gettext_lazy("Profile (ProCyclingStats)"),
            {"fields": ["profile_icon", "profile_score", "vertical_meters"]},
        ),
    ]

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.course_preview_view)
        return [
            path("course-preview/", view, name="races_stage_course_preview"),
            *super().get_urls(),
        ]

    def course_preview_view(self, request: HttpRequest) -> HttpResponse:
        """The profile and the checks of the rows as typed (htmx, POST; nothing is saved)."""
        if request.method != "POST" or not self.has_view_permission(request):
            raise PermissionDenied
        stage = Stage(
            number=request.POST.get("number") or 0,
            start=request.POST.get("start", ""),
            finish=request.POST.get("finish", ""),
            distance_km=1,
        )
        preview = course_preview(data=request.POST, stage=stage)
        return TemplateResponse(request, "admin/races/stage/_course_preview.html", preview)

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        form = context["adminform"].form
        if form.segment_formset.is_bound:
            preview = course_preview(data=request.POST, stage=form.instance)
        else:
            preview = stored_course_preview(stage=form.instance)
        context.update(segment_formset=form.segment_formset, preview=preview)
        return super().render_change_form(request, context, *args, **kwargs)


@admin.register(StageResult)
class StageResultAdmin(ReadOnlyAdmin):
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


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["stage", "classification", "rank", "rider", "team", "value", "gap"]
    list_filter = ["classification", "stage__race__kind", "stage__race"]
    search_fields = ["rider__name", "team__name", "stage__race__name"]
    list_select_related = ["stage__race", "rider", "team"]
    raw_id_fields = ["stage", "rider", "team"]
    # Unranked riders (listed without a place by a real source) after the ranked ones.
    # Django takes expressions here; the stubs type ordering as names only.
    ordering = ["stage", "classification", F("rank").asc(nulls_last=True)]  # type: ignore[list-item]


@admin.register(RaceEntry)
class RaceEntryAdmin(admin.ModelAdmin):
    list_display = ["race", "bib", "rider", "team"]
    list_filter = ["race"]
    search_fields = ["rider__name", "team__name", "race__name"]
    list_select_related = ["race", "rider", "team"]
    raw_id_fields = ["race", "rider", "team"]


@admin.register(RaceEvent)
class RaceEventAdmin(ReadOnlyAdmin):
    list_display = ["stage", "seq", "turn", "kind", "rider", "case", "detail"]
    list_filter = ["kind", "stage__race"]
    search_fields = ["rider__name", "detail"]
    list_select_related = ["stage__race", "rider"]
    raw_id_fields = ["stage", "rider"]


# The doubtful matches are riders' models, registered here because confirming one merges the
# new record's results and standings, which only this app knows.


class _MatchAdmin(admin.ModelAdmin):
    list_filter = ["status"]
    readonly_fields = ["imported_name", "source", "reason", "status", "created_at", "decided_at"]
    actions = ["confirm", "reject"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def _answer(self, request: HttpRequest, queryset: QuerySet, *, confirm: bool) -> None:  # type: ignore[type-arg]
        done = 0
        for match in queryset.filter(status=RiderMatch.Status.PENDING):
            try:
                self._decide(match, confirm=confirm)
            except MergeError as error:
                self.message_user(request, str(error), messages.ERROR)
                continue
            done += 1
        text = (
            _("Merged: %(count)s match(es).") if confirm else _("Kept apart: %(count)s match(es).")
        )
        self.message_user(request, text % {"count": done}, messages.SUCCESS)

    def _decide(self, match: RiderMatch | TeamMatch, *, confirm: bool) -> None:
        raise NotImplementedError

    @admin.action(
        description=gettext_lazy("Confirm: same (merge the new record into the existing one)")
    )
    def confirm(self, request: HttpRequest, queryset: QuerySet) -> None:  # type: ignore[type-arg]
        self._answer(request, queryset, confirm=True)

    @admin.action(description=gettext_lazy("Reject: different (keep both)"))
    def reject(self, request: HttpRequest, queryset: QuerySet) -> None:  # type: ignore[type-arg]
        self._answer(request, queryset, confirm=False)


@admin.register(RiderMatch)
class RiderMatchAdmin(_MatchAdmin):
    list_display = ["imported_name", "rider", "candidate", "reason", "source", "status"]
    list_select_related = ["rider__team", "candidate__team"]
    search_fields = ["imported_name", "candidate__name"]
    raw_id_fields = ["rider", "candidate"]

    def _decide(self, match: RiderMatch | TeamMatch, *, confirm: bool) -> None:
        assert isinstance(match, RiderMatch)
        if confirm:
            rider_match_confirm(match=match)
        else:
            rider_match_reject(match=match)


@admin.register(TeamMatch)
class TeamMatchAdmin(_MatchAdmin):
    list_display = ["imported_name", "team", "candidate", "reason", "source", "status"]
    list_select_related = ["team", "candidate"]
    search_fields = ["imported_name", "candidate__name"]
    raw_id_fields = ["team", "candidate"]

    def _decide(self, match: RiderMatch | TeamMatch, *, confirm: bool) -> None:
        assert isinstance(match, TeamMatch)
        if confirm:
            team_match_confirm(match=match)
        else:
            team_match_reject(match=match)
