from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RacesConfig(AppConfig):
    name = "races"
    verbose_name = _("Races and results")

    def ready(self) -> None:
        # One line per cycling ruleset: its adapter in the registry the season layer reads.
        from plugins import register
        from races.adapters import cyclosim, moreno

        register(moreno.ADAPTER)
        register(cyclosim.ADAPTER)
