"""The organiser's stage actions: open and lock orders, resolve now, publish, reinstate.

"Resolve now" and "publish" are asked first on a confirmation page (GET .../confirm/) that
says what they will do; its form posts the action itself.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from season import cache as page_cache
from season import selectors
from season.models import DONE_STATUSES, Job, Round
from season.round_names import round_name, round_name_start
from season.services import jobs, lifecycle, reinstate
from season.services.orders_status import deadline_ahead, orders_count, orders_status
from season.views.messages import message_once
from season.views.player import time_left


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
    etag, unchanged = page_cache.job_not_modified(request, round, job, is_organiser=is_organiser)
    if unchanged is not None:
        return unchanged
    response = render(
        request,
        "season/public/_job.html",
        {"round": round, "job": job, "is_organiser": is_organiser},
    )
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    finished = round.status in DONE_STATUSES
    if request.htmx and (finished or (job is not None and job.status == Job.Status.DONE)):  # type: ignore[attr-defined]
        # The results are written (whatever an older job row says): show them by reloading.
        response["HX-Refresh"] = "true"
    return response


#: Each names the round as its game does ("stage 3", "round 3": season.round_names).
DONE_MESSAGES = {
    "open": gettext_lazy("Orders for %(round)s are open."),
    "lock": gettext_lazy("Orders for %(round)s are locked."),
    "publish": gettext_lazy("The results of %(round)s are published."),
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
            _resolve(request, round)
        elif action in ACTIONS:
            ACTIONS[action](round=round)
            messages.success(
                request, DONE_MESSAGES[action] % {"round": round_name(round.season, number)}
            )
        else:
            raise Http404(_("No such action."))
    except lifecycle.RoundError as error:
        messages.error(request, str(error))
    return redirect("season-stage", slug=slug, number=number)


def _resolve(request: HttpRequest, round: Round) -> None:
    """Start a resolution. A second press (a double submit, another tab) attaches to the job
    already on its way, and the page says where the stage stands once, not once per press."""
    name = {"round": round_name_start(round.season, round.number)}
    if round.status in DONE_STATUSES:
        message_once(
            request, messages.INFO, _("%(round)s is resolved: its results are below.") % name
        )
        return
    jobs.round_resolve_request(round=round, user=request.user)
    round.refresh_from_db()
    if round.status in DONE_STATUSES:
        text = _("%(round)s is resolved: its results are below.")
    else:
        # Said once whether this press started the job or attached to it.
        text = _("%(round)s is being resolved.")
    message_once(request, messages.SUCCESS, text % name)


#: The actions asked first, and whether the lifecycle allows each now.
CONFIRMED = {
    "resolve": lambda actions: actions.resolve,
    "publish": lambda actions: actions.publish,
}


@login_required
@require_GET
def stage_action_confirm(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """What "resolve now" or "publish" will do, and the button that does it."""
    round = _stage(request, slug, number)
    season = round.season
    if not request.user.has_perm("season.manage_season", season):
        raise PermissionDenied(_("Only the organiser of this season can do that."))
    if action not in CONFIRMED:
        raise Http404(_("No such action."))
    stage_url = reverse("season-stage", kwargs={"slug": slug, "number": number})
    #: "stage 3" or "round 3", as the season's game names it.
    name = round_name(season, number)
    if not CONFIRMED[action](lifecycle.round_actions(round, job=round.jobs.first())):
        messages.info(
            request,
            _("%(round)s cannot take that action now.")
            % {"round": round_name_start(season, number)},
        )
        return redirect(stage_url)
    context: dict[str, object] = {
        "season": season,
        "round": round,
        "back_url": stage_url,
        "back_label": round_name_start(season, number),
        "action_url": reverse(
            "season-stage-action", kwargs={"slug": slug, "number": number, "action": action}
        ),
    }
    if action == "resolve":
        status = orders_status(round=round)
        count = orders_count(status)
        now = timezone.now()
        if deadline_ahead(round, now=now):
            assert round.orders_deadline is not None
            question = _("Resolve %(round)s now, %(left)s before its deadline?") % {
                "round": name,
                "left": time_left(round.orders_deadline - now),
            }
        else:
            question = _("Resolve %(round)s now?") % {"round": name}
        details = [
            ngettext(
                "%(given)d of %(teams)d team has given orders.",
                "%(given)d of %(teams)d teams have given orders.",
                count.teams,
            )
            % {"given": count.given, "teams": count.teams},
            _("Orders close at once: nobody can change them afterwards."),
        ]
        if count.missing:
            details.append(_("Teams without orders race with the default orders."))
        context.update(
            title=_("Resolve %(round)s") % {"round": name},
            question=question,
            details=details,
            orders_status=status,
            orders_count=count,
            confirm_label=_("Resolve %(round)s now") % {"round": name},
        )
    else:
        context.update(
            title=_("Publish %(round)s") % {"round": name},
            question=_("Publish the results of %(round)s?") % {"round": name},
            details=[
                _("The players are sent the results by e-mail."),
                _("Publishing cannot be undone."),
            ],
            confirm_label=_("Publish the results"),
        )
    with timezone.override(season.tz):
        return render(request, "season/organiser/confirm.html", context)


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
