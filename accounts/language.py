"""A member's language is theirs (issue 29): once chosen with the language switch it is kept in
their profile and used on every browser they sign in from and in their e-mails. Until they
choose, each sign-in takes the browser's language (and their e-mails follow it)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation

from accounts.models import Profile

#: Where the session keeps the member's language once signed in (read by the middleware).
SESSION_KEY = "member_language"


def known(language: str | None) -> str | None:
    return language if language and language in dict(settings.LANGUAGES) else None


def language_at_login(user: Any, browser_language: str | None) -> str | None:
    """The language the member chose (None: they never chose; their profile then takes the
    browser's, for their e-mails)."""
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"language": known(browser_language) or settings.LANGUAGE_CODE}
    )
    if profile.language_chosen:
        return profile.language
    browser = known(browser_language)
    if browser and browser != profile.language:
        profile.language = browser
        profile.save(update_fields=["language"])
    return None


def language_choose(user: Any, language: str | None) -> None:
    """The member chose ``language`` with the switch: it is theirs from now on."""
    if known(language):
        Profile.objects.update_or_create(
            user=user, defaults={"language": language, "language_chosen": True}
        )


class MemberLanguageMiddleware:
    """After the authentication middleware: a signed-in member's pages come out in their
    language, whatever the browser asks for (Django's LocaleMiddleware chose the browser's)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        session = getattr(request, "session", None)
        language = known(session.get(SESSION_KEY)) if session is not None else None
        if language and request.user.is_authenticated:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
