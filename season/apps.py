from django.apps import AppConfig


class SeasonConfig(AppConfig):
    name = "season"
    verbose_name = "Seasons and leagues"
