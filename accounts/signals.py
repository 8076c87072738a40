from django.contrib.auth import user_logged_in
from django.dispatch import receiver
from django.utils import translation

from accounts.language import SESSION_KEY, language_at_login


@receiver(user_logged_in)
def member_language_at_login(sender, request, user, **kwargs) -> None:
    """The session takes the member's own language (their profile's), not the browser's."""
    browser = getattr(request, "LANGUAGE_CODE", None) or translation.get_language()
    language = language_at_login(user, browser)
    if language and request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = language
