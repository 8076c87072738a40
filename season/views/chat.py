"""The organiser's chat channels page (issue 34): the season's webhooks to Discord and Slack,
what each posts, a test message, and the latest deliveries with their failures
(season.services.chat_hooks). Only the season's organiser (season.manage_season): 404 for a
private season one cannot see, 403 for one he does not organise. The webhooks' addresses are
shown here only, masked."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from season import permissions
from season.forms import ChatHookForm
from season.models import CHAT_HOOKS_MAX, ChatHook, Season
from season.services import chat_hooks
from season.views.organiser import managed_season


def hooks_season(request: HttpRequest, slug: str) -> Season:
    """The season whose hooks the user manages: its organiser only. Not even a superuser
    (whom has_perm grants everything): the hooks post in the organiser's name."""
    season = managed_season(request, slug)
    if not permissions.is_season_organiser(request.user, season):
        raise PermissionDenied(_("Only the organiser of this season can do that."))
    return season


@login_required
def chat_hooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = hooks_season(request, slug)
    form = ChatHookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            chat_hooks.hook_create(
                season=season,
                user=request.user,
                kind=form.cleaned_data["kind"],
                url=form.cleaned_data["url"],
                events=form.events(),
            )
        except chat_hooks.HookRefused as refused:
            form.add_error(refused.field, refused.message)
        else:
            messages.success(request, _("The webhook is added: send it a test message."))
            return redirect("organiser-chat", slug=season.slug)
    hooks = chat_hooks.hooks_shown(season=season)
    with timezone.override(season.tz):
        return render(
            request,
            "season/organiser/chat.html",
            {
                "season": season,
                "form": form,
                "hooks": hooks,
                "hooks_max": CHAT_HOOKS_MAX,
                "full": len(hooks) >= CHAT_HOOKS_MAX,
                "deliveries": chat_hooks.deliveries_recent(season=season),
            },
        )


def _hook(request: HttpRequest, slug: str, pk: int) -> ChatHook:
    season = hooks_season(request, slug)
    return get_object_or_404(ChatHook, pk=pk, season=season)


@login_required
@require_POST
def chat_hook_test(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    hook = _hook(request, slug, pk)
    try:
        chat_hooks.hook_test(hook=hook)
    except chat_hooks.HookRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("A test message is on its way: see the deliveries below."))
    return redirect("organiser-chat", slug=slug)


@login_required
@require_POST
def chat_hook_enable(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    hook = _hook(request, slug, pk)
    enabled = request.POST.get("enabled") == "1"
    chat_hooks.hook_enable(hook=hook, enabled=enabled)
    messages.success(
        request, _("The webhook is enabled.") if enabled else _("The webhook is disabled.")
    )
    return redirect("organiser-chat", slug=slug)


@login_required
@require_POST
def chat_hook_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    hook = _hook(request, slug, pk)
    chat_hooks.hook_delete(hook=hook)
    messages.success(request, _("The webhook is deleted."))
    return redirect("organiser-chat", slug=slug)
