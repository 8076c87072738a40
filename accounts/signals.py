from django.contrib.auth import user_logged_in
from django.dispatch import receiver
from django.utils import translation

from accounts.views import remember_language


@receiver(user_logged_in)
def remember_language_at_login(sender, request, user, **kwargs) -> None:
    remember_language(user, getattr(request, "LANGUAGE_CODE", None) or translation.get_language())
