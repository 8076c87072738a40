"""The riders' admin action "Apply to running seasons…" (docs/league.md "A season keeps its
ratings"): a confirmation that names each running season whose ratings of the selected riders
differ from their live ones (each rider, his price old → new), then applies them to the
seasons ticked (season.services.ratings). Registered on the riders' admin from here, since the
riders app knows no season."""

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from riders.charts import radar_labels
from riders.models import RATING_AXES, Rating, RatingReview, Rider
from season.services.ratings import ratings_apply_running, running_changes


def _label(value: int) -> str:
    return str(Rating(int(value)).label)


@admin.action(description=gettext_lazy("Apply to running seasons…"), permissions=["change"])
def apply_to_running_seasons(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Rider]
) -> TemplateResponse | None:
    riders = list(queryset)
    found = running_changes(riders=riders)
    if "apply" in request.POST:
        ticked = {int(v) for v in request.POST.getlist("season") if v.isdigit()}
        entries = ratings_apply_running(riders=riders, season_ids=ticked, by=request.user)
        if entries:
            modeladmin.message_user(
                request,
                _("Applied the riders' ratings to %(seasons)s from their next round on.")
                % {"seasons": ", ".join(entry.season.name for entry in entries)},
                messages.SUCCESS,
            )
        else:
            modeladmin.message_user(request, _("No season ticked: nothing applied."), messages.INFO)
        return None
    if not found:
        modeladmin.message_user(
            request,
            _(
                "No running season rates the selected riders otherwise: the seasons whose team "
                "formation starts from now on take their ratings as they are."
            ),
            messages.INFO,
        )
        return None
    labels = radar_labels()
    seasons = [
        {
            "season": item.season,
            "from_round": item.from_round,
            "changes": [
                {
                    "name": change.name,
                    "old_price": change.old_price,
                    "new_price": change.new_price,
                    "axes": ", ".join(
                        f"{labels[axis]} {_label(old)} → {_label(new)}"
                        for axis, old, new in change.axes
                    ),
                }
                for change in item.changes
            ],
        }
        for item in found
    ]
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": _("Apply the riders' ratings to running seasons"),
        "opts": modeladmin.model._meta,
        "seasons": seasons,
        "selected": [rider.pk for rider in riders],
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/riders/rider/apply_to_running_seasons.html", context)


def kept_ratings_notice(request: HttpRequest, rider: Rider) -> str:
    """What the rider's page says once his ratings are saved: the running seasons that keep
    his former ones ("" for none)."""
    seasons = [found.season.name for found in running_changes(riders=[rider])]
    if not seasons:
        return ""
    return _(
        "These running seasons keep %(rider)s's former ratings: %(seasons)s. To change them "
        "too, select him in the list and choose “Apply to running seasons…”."
    ) % {"rider": rider.name, "seasons": ", ".join(seasons)}


def approved_notice(model_admin: admin.ModelAdmin, request: HttpRequest, ids: list[int]) -> None:
    """After suggestions are approved in the review queue: the running seasons that keep the
    riders' former ratings, and how to change them too."""
    riders = list(Rider.objects.filter(pk__in=ids))
    seasons = [found.season.name for found in running_changes(riders=riders)]
    if seasons:
        model_admin.message_user(
            request,
            _(
                "These running seasons keep the former ratings of riders just approved: "
                "%(seasons)s. To change them too, select the riders in Riders and choose "
                "“Apply to running seasons…”."
            )
            % {"seasons": ", ".join(seasons)},
            messages.WARNING,
        )


def rider_actions_register(site: admin.AdminSite) -> None:
    """Add the action to the riders' admin (registered by the riders app, loaded before), and
    the notice of the running seasons that keep a saved rider's former ratings."""
    model_admin = site.get_model_admin(Rider)
    if apply_to_running_seasons in (model_admin.actions or []):
        return
    queue = site.get_model_admin(RatingReview)
    queue.approved_hooks = (*queue.approved_hooks, approved_notice)  # type: ignore[attr-defined]
    model_admin.actions = [*(model_admin.actions or []), apply_to_running_seasons]
    save_model = model_admin.save_model

    def save_and_tell(request: HttpRequest, obj: Rider, form: Any, change: bool) -> None:
        save_model(request, obj, form, change)
        if change and set(form.changed_data) & set(RATING_AXES):
            notice = kept_ratings_notice(request, obj)
            if notice:
                model_admin.message_user(request, notice, messages.WARNING)

    model_admin.save_model = save_and_tell  # type: ignore[method-assign]
