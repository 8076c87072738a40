from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from riders.forms import RiderForm
from riders.models import RATING_AXES, Rating, Rider, Team
from riders.profiles import rider_ratings_reviewed, rider_suggestion_apply


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "nationality", "year", "rider_count"]
    list_filter = ["year", "nationality"]
    search_fields = ["name", "code", "aliases"]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).annotate(_rider_count=Count("riders"))

    @admin.display(description=gettext_lazy("riders"), ordering="_rider_count")
    def rider_count(self, team: Team) -> int:
        return team._rider_count  # type: ignore[attr-defined]


def _rating_label(value: object) -> str:
    try:
        return Rating(int(value)).label  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return "?"


def suggestion_changes(rider: Rider) -> list[tuple[str, int, int]]:
    """(axis, current, suggested) for each axis where the suggestion differs."""
    return [
        (axis, getattr(rider, axis), int(rider.suggested_ratings[axis]))
        for axis in RATING_AXES
        if axis in rider.suggested_ratings
        and int(rider.suggested_ratings[axis]) != getattr(rider, axis)
    ]


class SuggestionFilter(admin.SimpleListFilter):
    title = gettext_lazy("suggested profile")
    parameter_name = "suggestion"

    def lookups(self, request, model_admin):  # type: ignore[no-untyped-def]
        return [("yes", _("has a suggestion")), ("none", _("no suggestion"))]

    def queryset(self, request, queryset):  # type: ignore[no-untyped-def]
        if self.value() == "yes":
            return queryset.exclude(suggested_ratings={})
        if self.value() == "none":
            return queryset.filter(suggested_ratings={})
        return queryset


@admin.register(Rider)
class RiderAdmin(admin.ModelAdmin):
    form = RiderForm
    list_display = [
        "name",
        "team",
        "nationality",
        "birth_date",
        *RATING_AXES,
        "suggestion",
        "profile_flagged",
    ]
    list_filter = [
        "team__year",
        "team",
        "nationality",
        "profile_flagged",
        SuggestionFilter,
        "climber",
        "sprinter",
    ]
    search_fields = ["name", "name_key", "pcs_slug", "team__name", "aliases"]
    list_select_related = ["team"]
    list_per_page = 50
    readonly_fields = ["aliases", "suggested_profile", "suggested_at", "ratings_reviewed_at"]
    actions = ["review_suggestions"]
    fieldsets = [
        (None, {"fields": ["name", "team", "nationality", "birth_date", "pcs_slug", "aliases"]}),
        (
            gettext_lazy("Profile"),
            {"fields": [tuple(RATING_AXES[:4]), tuple(RATING_AXES[4:]), "profile_flagged"]},
        ),
        (
            gettext_lazy("Suggested from real results"),
            {
                "fields": ["suggested_profile", "suggested_at", "ratings_reviewed_at"],
                "description": gettext_lazy(
                    "Derived by every import and by derive_profiles (docs/profiles.md). Approve "
                    "it in Riders › Ratings to review, or with the action “Review and apply "
                    "suggested ratings” in the list; changing a rating here counts as a review."
                ),
            },
        ),
    ]

    def save_model(self, request: HttpRequest, obj: Rider, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        rider_ratings_reviewed(rider=obj, changed=form.changed_data)

    @admin.display(description=gettext_lazy("suggested changes"))
    def suggestion(self, rider: Rider) -> str:
        if not rider.suggested_ratings:
            return "—"
        changes = suggestion_changes(rider)
        if not changes:
            return _("as rated")
        return ", ".join(
            f"{axis} {_rating_label(current)}→{_rating_label(new)}"
            for axis, current, new in changes
        )

    @admin.display(description=gettext_lazy("suggested profile"))
    def suggested_profile(self, rider: Rider) -> str:
        if not rider.suggested_ratings:
            return (
                _("No suggestion: too little data")
                if rider.profile_flagged
                else _("No suggestion.")
            )
        rows = format_html_join(
            "",
            "<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    axis,
                    _rating_label(getattr(rider, axis)),
                    _rating_label(rider.suggested_ratings.get(axis)),
                    rider.suggestion_reasons.get(axis, ""),
                )
                for axis in RATING_AXES
            ),
        )
        return format_html(
            "<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
            "</tr></thead><tbody>{}</tbody></table>",
            _("axis"),
            _("current"),
            _("suggested"),
            _("why"),
            rows,
        )

    @admin.action(
        description=gettext_lazy("Review and apply suggested ratings"), permissions=["change"]
    )
    def review_suggestions(
        self, request: HttpRequest, queryset: QuerySet[Rider]
    ) -> TemplateResponse | None:
        riders = list(queryset.exclude(suggested_ratings={}).select_related("team"))
        if "apply" in request.POST:
            changed_riders = changed_axes = 0
            for rider in riders:
                approved = request.POST.getlist(f"axes_{rider.pk}")
                changed = rider_suggestion_apply(rider=rider, axes=approved)
                changed_riders += bool(changed)
                changed_axes += len(changed)
            self.message_user(
                request,
                _("Applied %(axes)s approved rating(s) to %(riders)s rider(s).")
                % {"axes": changed_axes, "riders": changed_riders},
                messages.SUCCESS,
            )
            return None
        reviews = [
            (
                rider,
                [
                    (
                        axis,
                        _rating_label(current),
                        _rating_label(new),
                        rider.suggestion_reasons.get(axis, ""),
                    )
                    for axis, current, new in changes
                ],
            )
            for rider, changes in ((rider, suggestion_changes(rider)) for rider in riders)
            if changes
        ]
        if not reviews:
            self.message_user(
                request, _("The selected riders have no suggested change."), messages.INFO
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Review suggested ratings"),
            "opts": self.model._meta,
            "reviews": reviews,
            "selected": [rider.pk for rider in riders],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/riders/rider/review_suggestions.html", context)
