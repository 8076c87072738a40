"""Season migration 0018: a season that has raced a stage keeps the time cut it was raced with
(no jury's share), a season still to race takes the jury's rule (races.timing)."""

import importlib

import pytest
from django.apps import apps

from season.models import Round
from tests.season.builders import league, stage

pytestmark = pytest.mark.django_db

migration = importlib.import_module("season.migrations.0018_time_cut_jury_off_for_raced_seasons")


def _without_the_jurys_share(season):
    data = dict(season.rule_settings)
    del data["time_cut_max_out_pct"]
    season.rule_settings = data
    season.save(update_fields=["rule_settings"])


def test_a_season_that_raced_keeps_its_cut_and_one_to_race_takes_the_jury(alice):
    raced = league(organiser=alice, slug="raced")
    to_race = league(organiser=alice, slug="to-race")
    for season in (raced, to_race):
        _without_the_jurys_share(season)
    Round.objects.filter(pk=stage(raced, 1).pk).update(status=Round.Status.RESOLVED)

    migration.keep_the_old_cut(apps, None)

    raced.refresh_from_db()
    to_race.refresh_from_db()
    assert raced.rules.time_cut_max_out_pct == 100.0
    assert to_race.rules.time_cut_max_out_pct == 20.0
    assert "time_cut_max_out_pct" not in to_race.rule_settings
