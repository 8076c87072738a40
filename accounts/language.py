"""A member's language is theirs (issue 29): chosen with the language switch, kept in their
profile, and used on every browser they sign in from and in their e-mails. The browser's own
language only names it the first time, when the member has no profile yet."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation

from accounts.models import Profile

#: Where the session keeps the member's language once signed in (read by the middleware).
SESSION_KEY = "member_language"


def known(language: str | None) -> str | None:
    return language if language and language in dict(settings.LANGUAGES) else None


def language_at_login(user: Any, browser_language: str | None) -> str:
    """The member's language: their profile's, or, for a first sign-in, the browser's."""
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"language": known(browser_language) or settings.LANGUAGE_CODE}
    )
    return profile.language


def language_choose(user: Any, language: str | None) -> None:
    """The member chose ``language`` with the switch: it is theirs from now on."""
    if known(language):
        Profile.objects.update_or_create(user=user, defaults={"language": language})


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
