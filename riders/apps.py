from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RidersConfig(AppConfig):
    name = "riders"
    verbose_name = _("Riders and teams")
