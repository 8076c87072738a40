from pathlib import Path

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    name = "season"
    verbose_name = _("Seasons and leagues")

    def ready(self) -> None:
        from django.conf import settings

        from motor.signals import track_version_applied

        # The `rules` permissions live in season.permissions, not in a module named rules.py
        # (beside rule_settings.py, the game's settings, that name misled): django-rules
        # registers them when the module is imported, so the app imports it once it is ready.
        from season import permissions  # noqa: F401
        from season.services.track_history import track_history_write

        # A track's new version applied to unraced Grands Prix: motor tells, season writes
        # each league's history (motor never imports season).
        track_version_applied.connect(track_history_write, dispatch_uid="season-track-history")

        # The embedded default's filesystem broker needs its folders before the first task is
        # sent, by the web process as much as by the worker.
        if settings.CELERY_BROKER_URL == "filesystem://":
            options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
            for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
                Path(str(options[key])).mkdir(parents=True, exist_ok=True)
