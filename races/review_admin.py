"""Riders > Ratings to review: the queue of suggested ratings an admin approves (docs/profiles.md).

The queue is a riders' model (a proxy of Rider) registered here, beside the import, because
its race filter reads the races' start lists (riders never import races).
"""

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from races.models import Race
from riders.models import RATING_AXES, Rating, RatingReview, Rider, rider_not_reviewed_q
from riders.profiles import (
    MAX_APPROVED,
    NO_EVIDENCE,
    rider_suggestion_apply,
    riders_ratings_approve,
)

AXIS_SHORT = {
    "rouleur": "ROU",
    "sprinter": "SPR",
    "baroudeur": "BAR",
    "finisseur": "FIN",
    "descender": "DES",
    "time_trialist": "TT",
    "puncheur": "PUN",
    "climber": "CLI",
}


def _label(value: object) -> str:
    try:
        return str(Rating(int(value)).label)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return "–"


class StartListFilter(admin.SimpleListFilter):
    """Riders on the start list of one real race (the race's "N not reviewed" link)."""

    title = gettext_lazy("start list of")
    parameter_name = "race"

    def lookups(self, request, model_admin):  # type: ignore[no-untyped-def]
        races = Race.objects.filter(kind=Race.Kind.REAL).order_by("-year", "name")[:100]
        return [(str(race.pk), f"{race.name} {race.year}") for race in races]

    def queryset(self, request, queryset):  # type: ignore[no-untyped-def]
        if self.value() and str(self.value()).isdigit():
            return queryset.filter(race_entries__race_id=int(str(self.value())))
        return queryset


class UnratedFilter(admin.SimpleListFilter):
    title = gettext_lazy("rated")
    parameter_name = "unrated"

    def lookups(self, request, model_admin):  # type: ignore[no-untyped-def]
        return [("yes", _("unrated (0 on every axis)")), ("no", _("rated"))]

    def queryset(self, request, queryset):  # type: ignore[no-untyped-def]
        zero = {axis: 0 for axis in RATING_AXES}
        if self.value() == "yes":
            return queryset.filter(**zero)
        if self.value() == "no":
            return queryset.exclude(**zero)
        return queryset


@admin.register(RatingReview)
class RatingReviewAdmin(admin.ModelAdmin):
    #: Called with (the admin, the request, the approved riders' ids) once suggestions are
    #: approved: the season app tells which running seasons keep the riders' former ratings
    #: (docs/league.md "A season keeps its ratings"; races knows no season).
    approved_hooks: tuple[Callable[[admin.ModelAdmin, HttpRequest, list[int]], None], ...] = ()
    list_display = ["rider", "axes"]
    list_display_links = None
    list_filter = [StartListFilter, UnratedFilter, "profile_flagged", "team__year"]
    search_fields = ["name", "name_key", "pcs_slug", "team__name"]
    list_select_related = ["team"]
    list_per_page = 50
    actions = ["approve_selected"]

    # The queue is a view of riders: who may change riders may review them.
    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("riders.view_rider") or self.has_change_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("riders.change_rider")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Rider]:
        return super().get_queryset(request).filter(rider_not_reviewed_q()).distinct()

    def changelist_view(self, request: HttpRequest, extra_context: Any = None):  # type: ignore[no-untyped-def]
        context = {"title": _("Ratings to review"), **(extra_context or {})}
        return super().changelist_view(request, extra_context=context)

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "approve-all/",
                wrap(self.approve_all_view),
                name="riders_ratingreview_approve_all",
            ),
            path(
                "<int:pk>/approve/",
                wrap(self.approve_one_view),
                name="riders_ratingreview_approve",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any):  # type: ignore[no-untyped-def,override]
        # Editing is the rider's own form (his ratings, the full suggestion and its reasons).
        return HttpResponseRedirect(reverse("admin:riders_rider_change", args=[object_id]))

    @admin.display(description=gettext_lazy("rider"), ordering="name")
    def rider(self, rider: Rider) -> str:
        results = reverse("admin:races_stageresult_changelist") + "?" + urlencode({"q": rider.name})
        standings = reverse("admin:races_standing_changelist") + "?" + urlencode({"q": rider.name})
        return format_html(
            '<strong>{}</strong><br><small>{}</small><br><em>{}</em><br><span class="review-links">'
            '<a href="{}">{}</a> <a href="{}">{}</a> <a href="{}">{}</a></span><br>{}',
            rider.name,
            rider.team.name if rider.team_id else "",  # type: ignore[union-attr]
            self.state(rider),
            reverse("admin:riders_rider_change", args=[rider.pk]),
            _("edit"),
            results,
            _("results"),
            standings,
            _("standings"),
            self.approve(rider),
        )

    @staticmethod
    def state(rider: Rider) -> str:
        if rider.unrated:
            word = _("unrated")
        elif rider.suggested_ratings and rider.suggested_ratings != rider.ratings:
            word = _("suggestion differs")
        else:
            word = _("not reviewed")
        if rider.profile_flagged:
            word = _("%(state)s; too little data") % {"state": word}
        return word

    @admin.display(description=gettext_lazy("current → suggested, and why (the results read)"))
    def axes(self, rider: Rider) -> str:
        cells = []
        for axis in RATING_AXES:
            current = getattr(rider, axis)
            suggested = rider.suggested_ratings.get(axis)
            differs = suggested is not None and int(suggested) != current
            cells.append(
                (
                    axis,
                    AXIS_SHORT[axis],
                    _label(current),
                    "review-differs" if differs else "",
                    _label(suggested) if suggested is not None else "–",
                )
            )
        return format_html(
            '<table class="review-axes"><tr><td></td>{}</tr><tr><th scope="row">{}</th>{}</tr>'
            '<tr><th scope="row">{}</th>{}</tr></table>{}',
            format_html_join(
                "",
                '<th scope="col"><abbr title="{}">{}</abbr></th>',
                ((cell[0], cell[1]) for cell in cells),
            ),
            _("now"),
            format_html_join("", "<td>{}</td>", ((cell[2],) for cell in cells)),
            _("suggested"),
            format_html_join("", '<td class="{}">{}</td>', ((cell[3], cell[4]) for cell in cells)),
            self.reasons(rider),
        )

    @staticmethod
    def reasons(rider: Rider) -> str:
        if not rider.suggested_ratings:
            return _("Too little data: no suggestion; the ratings stay as they are.")
        reasons = [
            (AXIS_SHORT[axis], rider.suggestion_reasons[axis])
            for axis in RATING_AXES
            if rider.suggestion_reasons.get(axis) not in (None, "", NO_EVIDENCE)
        ]
        if not reasons:
            return _("No result counts for any axis: 0 everywhere.")
        return format_html(
            '<ul class="review-reasons">{}</ul>',
            format_html_join("", "<li><b>{}</b> {}</li>", reasons),
        )

    @staticmethod
    def approve(rider: Rider) -> str:
        # The rows sit inside the changelist's form: the button submits the separate
        # #review-approve form of the page (templates/admin/riders/ratingreview/).
        return format_html(
            '<button type="submit" class="button" form="review-approve" formaction="{}" '
            'aria-label="{}">{}</button>',
            reverse("admin:riders_ratingreview_approve", args=[rider.pk]),
            _("Approve the suggested ratings of %(name)s") % {"name": rider.name},
            _("Approve"),
        )

    @admin.action(
        description=gettext_lazy("Approve the suggested ratings of the selected riders"),
        permissions=["change"],
    )
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[Rider]) -> None:
        self._approve(request, queryset)

    def approve_all_view(self, request: HttpRequest) -> HttpResponse:
        """Approve every rider of the list as filtered (the page's query string)."""
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:riders_ratingreview_changelist"))
        if not self.has_change_permission(request):
            raise PermissionDenied
        changelist = self.get_changelist_instance(request)
        self._approve(request, changelist.get_queryset(request))
        return HttpResponseRedirect(
            reverse("admin:riders_ratingreview_changelist") + "?" + request.GET.urlencode()
        )

    def approve_one_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:riders_ratingreview_changelist"))
        if not self.has_change_permission(request):
            raise PermissionDenied
        rider = get_object_or_404(Rider, pk=pk)
        changed = rider_suggestion_apply(rider=rider, axes=rider.suggested_ratings)
        self.message_user(
            request,
            _("%(name)s approved: %(count)s rating(s) changed.")
            % {"name": rider.name, "count": len(changed)},
            messages.SUCCESS,
        )
        if changed:
            self._approved(request, [rider.pk])
        return HttpResponseRedirect(
            reverse("admin:riders_ratingreview_changelist") + "?" + request.GET.urlencode()
        )

    def _approved(self, request: HttpRequest, rider_ids: list[int]) -> None:
        for hook in self.approved_hooks:
            hook(self, request, rider_ids)

    def _approve(self, request: HttpRequest, queryset: QuerySet[Rider]) -> None:
        ids = list(queryset.values_list("pk", flat=True)[: MAX_APPROVED + 1])
        try:
            approved, changed = riders_ratings_approve(riders=ids)
        except ValueError as error:
            self.message_user(request, str(error), messages.ERROR)
            return
        self.message_user(
            request,
            _("Approved %(riders)s rider(s): %(changed)s rating(s) changed.")
            % {"riders": approved, "changed": changed},
            messages.SUCCESS,
        )
        if changed:
            self._approved(request, ids)
