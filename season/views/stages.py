"""The organiser's stage actions: open and lock orders, resolve now, publish, reinstate."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from season import selectors
from season.models import DONE_STATUSES, Job, Round
from season.services import jobs, lifecycle, reinstate


def _stage(request: HttpRequest, slug: str, number: int) -> Round:
    season = selectors.season_visible_get(slug=slug, user=request.user)
    return get_object_or_404(
        Round.objects.select_related("season", "stage"), season=season, number=number
    )


def stage_job(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The progress of the latest resolution of a stage (polled by htmx while it runs)."""
    round = _stage(request, slug, number)
    job = round.jobs.first()
    is_organiser = request.user.has_perm("season.manage_season", round.season)
    response = render(
        request,
        "season/public/_job.html",
        {"round": round, "job": job, "is_organiser": is_organiser},
    )
    finished = round.status in DONE_STATUSES
    if request.htmx and (finished or (job is not None and job.status == Job.Status.DONE)):  # type: ignore[attr-defined]
        # The results are written (whatever an older job row says): show them by reloading.
        response["HX-Refresh"] = "true"
    return response


DONE_MESSAGES = {
    "open": gettext_lazy("Orders for stage %(number)s are open."),
    "lock": gettext_lazy("Orders for stage %(number)s are locked."),
    "publish": gettext_lazy("The results of stage %(number)s are published."),
}
ACTIONS = {
    "open": lifecycle.round_open,
    "lock": lifecycle.round_lock,
    "publish": lifecycle.round_publish,
}


@login_required
@require_POST
def stage_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    round = _stage(request, slug, number)
    if not request.user.has_perm("season.manage_season", round.season):
        raise PermissionDenied(_("Only the organiser of this season can do that."))
    try:
        if action == "resolve":
            jobs.round_resolve_request(round=round, user=request.user)
            messages.success(request, _("Stage %(number)s is being resolved.") % {"number": number})
        elif action in ACTIONS:
            ACTIONS[action](round=round)
            messages.success(request, DONE_MESSAGES[action] % {"number": number})
        else:
            raise Http404(_("No such action."))
    except lifecycle.RoundError as error:
        messages.error(request, str(error))
    return redirect("season-stage", slug=slug, number=number)


@login_required
@require_POST
def rider_reinstate(request: HttpRequest, slug: str, number: int, rider_id: int) -> HttpResponse:
    round = _stage(request, slug, number)
    if not request.user.has_perm("season.manage_season", round.season):
        raise PermissionDenied(_("Only the organiser of this season can do that."))
    try:
        result = reinstate.rider_reinstate(round=round, rider_id=rider_id)
        messages.success(request, _("%(rider)s is back in the race.") % {"rider": result.rider})
    except lifecycle.RoundError as error:
        messages.error(request, str(error))
    return redirect("season-stage", slug=slug, number=number)
