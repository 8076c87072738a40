from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language as django_set_language

from accounts.api_tokens import api_token_of, api_token_renew, api_token_revoke
from accounts.forms import LimitedPasswordResetForm, ReminderChoiceForm, SignupForm
from accounts.language import SESSION_KEY, known, language_choose
from accounts.reminders import (
    ReminderChoiceInvalid,
    reminder_choice_of,
    reminder_choice_update,
)


def signup(request: HttpRequest) -> HttpResponse:
    # Without a "next", a new player lands on his seasons (where he joins one).
    home = reverse("my-seasons")
    next_url = request.POST.get("next") or request.GET.get("next") or home
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = home
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url)
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, remembered for a signed-in person."""
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        language = known(request.POST.get("language"))
        if language:
            language_choose(request.user, language)
            request.session[SESSION_KEY] = language
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico: send them to the static icon. The address is looked up
    per request, not when the URLs are imported, so that a command run before collectstatic
    (with the manifest storage of production) does not fail."""
    return redirect(static("favicon.svg"), permanent=True)


class LimitedPasswordResetView(PasswordResetView):
    """The password-reset page, its e-mails counted per address and per client."""

    form_class = LimitedPasswordResetForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return super().get_form_kwargs() | {"client": self.request.META.get("REMOTE_ADDR", "")}


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    """The member's choice of when and where he is reminded of missing orders."""
    if request.method == "POST":
        form = ReminderChoiceForm(request.POST)
        if form.is_valid():
            try:
                reminder_choice_update(user=request.user, **form.cleaned_data)
            except ReminderChoiceInvalid as invalid:
                for error in invalid.errors:
                    form.add_error(None, error)
            else:
                messages.success(request, gettext("Your notification settings are saved."))
                return redirect("notification-settings")
    else:
        choice = reminder_choice_of(request.user)
        form = ReminderChoiceForm(
            initial={"hours": choice.hours, "by_email": choice.by_email, "in_app": choice.in_app}
        )
    return render(request, "registration/notification_settings.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The member's key to the read API: made or renewed (shown once), or revoked."""
    key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "renew":
            key = api_token_renew(user=request.user)
        elif action == "revoke":
            if api_token_revoke(user=request.user):
                messages.success(request, gettext("Your API token is revoked."))
            return redirect("api-token")
    token = api_token_of(user=request.user)
    return render(request, "registration/api_token.html", {"token": token, "key": key})
