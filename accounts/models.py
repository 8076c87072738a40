from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """What the site remembers of a person beyond the login: the language of their emails."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )

    class Meta:
        verbose_name_plural = _("profiles")
        verbose_name = _("profile")

    def __str__(self) -> str:
        return f"{self.user} ({self.language})"
