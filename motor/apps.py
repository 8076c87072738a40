from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MotorConfig(AppConfig):
    name = "motor"
    verbose_name = _("Motor racing")
    default_auto_field = "django.db.models.BigAutoField"
    #: The import of real results (races' ``import_results`` and admin upload) hands the tables
    #: this importer claims to it, found through the app registry: races never imports motor.
    results_importer = "motor.importing.service.IMPORTER"

    def ready(self) -> None:
        # One line per motor ruleset: its adapter in the registry the season layer reads.
        from motor.adapters import grandprix, ludicitude
        from plugins import register

        register(grandprix.ADAPTER)
        register(ludicitude.ADAPTER)
